// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_restart.go and
// polymorphichelpers.defaultObjectRestarter: a patch of the template's restartedAt annotation.

import { StrategicMergePatchType } from '../../../apiserver/patch.ts';
import { formatTime } from '../../../engine/clock.ts';
import { FILENAME, type Command, type Common, type Targets } from '../../cmdutil.ts';
import { KubectlError } from '../../errors.ts';
import { namePrint, typeOf, type Run } from '../../run.ts';
import { deploymentsOf, rolloutTargets } from './rollout.ts';

export interface RolloutRestartOptions {
  verb: 'rollout restart';
  targets: Targets;
}

export const rolloutRestart: Command<RolloutRestartOptions> = {
  path: 'rollout restart',
  short: 'Restart a resource',
  flags: [FILENAME],
  complete(fp) {
    return { verb: 'rollout restart', targets: rolloutTargets(fp) };
  },
  run: runRolloutRestart,
};

function runRolloutRestart(r: Run, cmd: RolloutRestartOptions & Common): void {
  const ns = r.ns(cmd);
  for (const d of deploymentsOf(r, cmd.targets, ns, 'restarter')) {
    try {
      if (d.spec.paused)
        throw new KubectlError(
          `deployments.apps "${d.metadata.name}" can't restart paused deployment (run rollout resume first)`,
        );
      const patch = {
        spec: {
          template: {
            metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': formatTime(r.now()) } },
          },
        },
      };
      // rollout_restart.go: the ObjectRestarter's two-way strategic merge patch.
      r.client.patch(
        'deployments',
        d.metadata.namespace,
        d.metadata.name,
        patch,
        undefined,
        StrategicMergePatchType,
      );
      r.out(namePrint(typeOf('deployments'), d.metadata.name, 'restarted'));
    } catch (e) {
      r.fail(e);
    }
  }
}

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_status.go and
// polymorphichelpers.DeploymentStatusViewer (see "Simplification:" notes).

import { revision as revisionOf } from '../../../controllers/deployment/util.ts';
import { f, FILENAME, num, type Command, type Common, type Targets } from '../../cmdutil.ts';
import { KubectlError } from '../../errors.ts';
import type { Run } from '../../run.ts';
import { deploymentsOf, rolloutTargets } from './rollout.ts';

export interface RolloutStatusOptions {
  verb: 'rollout status';
  targets: Targets;
  revision: number;
}

export const rolloutStatus: Command<RolloutStatusOptions> = {
  path: 'rollout status',
  short: 'Show the status of the rollout',
  flags: [f('watch', 'bool', 'w'), f('revision', 'int'), f('timeout', 'string'), FILENAME],
  complete(fp) {
    const targets = rolloutTargets(fp);
    return { verb: 'rollout status', targets, revision: num(fp.flags.revision, 0) };
  },
  run: runRolloutStatus,
};

function runRolloutStatus(r: Run, cmd: RolloutStatusOptions & Common): void {
  const ns = r.ns(cmd);
  for (const d of deploymentsOf(r, cmd.targets, ns, 'status viewer')) {
    // Mirrors polymorphichelpers.DeploymentStatusViewer.Status. Simplification: kubectl would
    // watch until the rollout finishes; the simulator prints the state at this instant.
    if (cmd.revision > 0) {
      const rev = revisionOf(d) ?? 0;
      if (rev !== cmd.revision)
        throw new KubectlError(
          `desired revision (${cmd.revision}) is different from the running revision (${rev})`,
        );
    }
    const s = d.status ?? {};
    const name = d.metadata.name;
    if ((d.metadata.generation ?? 0) <= (s.observedGeneration ?? 0)) {
      const cond = (s.conditions ?? []).find((c) => c.type === 'Progressing');
      if (cond && cond.reason === 'ProgressDeadlineExceeded')
        throw new KubectlError(`deployment "${name}" exceeded its progress deadline`);
      const replicas = d.spec.replicas;
      const updated = s.updatedReplicas ?? 0;
      if (replicas !== undefined && updated < replicas)
        r.out(
          `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${replicas} new replicas have been updated...\n`,
        );
      else if ((s.replicas ?? 0) > updated)
        r.out(
          `Waiting for deployment "${name}" rollout to finish: ${(s.replicas ?? 0) - updated} old replicas are pending termination...\n`,
        );
      else if ((s.availableReplicas ?? 0) < updated)
        r.out(
          `Waiting for deployment "${name}" rollout to finish: ${s.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`,
        );
      else r.out(`deployment "${name}" successfully rolled out\n`);
    } else {
      r.out('Waiting for deployment spec update to be observed...\n');
    }
  }
}

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_history.go and
// polymorphichelpers.DeploymentHistoryViewer.

import type { ReplicaSet } from '../../../api/types.ts';
import { revision as revisionOf } from '../../../controllers/deployment/util.ts';
import {
  CmdError,
  f,
  FILENAME,
  num,
  type Command,
  type Common,
  type Targets,
} from '../../cmdutil.ts';
import { describePodTemplateRaw } from '../../describe.ts';
import { KubectlError } from '../../errors.ts';
import { clone, namePrint, replicaSetsOf, typeOf, type Run } from '../../run.ts';
import { DESCRIBE_TABWRITER, tabwrite } from '../../tabwriter.ts';
import { ChangeCauseAnnotation, deploymentsOf, rolloutTargets } from './rollout.ts';

export interface RolloutHistoryOptions {
  verb: 'rollout history';
  targets: Targets;
  revision: number;
}

export const rolloutHistory: Command<RolloutHistoryOptions> = {
  path: 'rollout history',
  short: 'View rollout history',
  flags: [f('revision', 'int'), FILENAME],
  complete(fp) {
    const targets = rolloutTargets(fp);
    const revision = num(fp.flags.revision, 0);
    if (revision < 0) throw new CmdError(`revision must be a positive integer: ${revision}`);
    return { verb: 'rollout history', targets, revision };
  },
  run: runRolloutHistory,
};

function runRolloutHistory(r: Run, cmd: RolloutHistoryOptions & Common): void {
  const ns = r.ns(cmd);
  for (const d of deploymentsOf(r, cmd.targets, ns, 'history viewer')) {
    const { allOldRSs: oldRSs, newRS } = replicaSetsOf(r, d);
    const all = newRS ? [...oldRSs, newRS] : oldRSs;
    const history = new Map<number, { template: ReplicaSet['spec']['template']; cause?: string }>();
    for (const rs of all) {
      const v = revisionOf(rs);
      if (v === undefined) continue;
      history.set(v, {
        template: rs.spec.template,
        cause: rs.metadata.annotations?.[ChangeCauseAnnotation],
      });
    }
    const type = typeOf('deployments');
    let info: string;
    if (history.size === 0) info = 'No rollout history found.';
    else if (cmd.revision > 0) {
      const h = history.get(cmd.revision);
      if (!h) throw new KubectlError('unable to find the specified revision');
      const template = clone(h.template);
      if (h.cause)
        template.metadata = {
          ...(template.metadata ?? {}),
          annotations: {
            ...(template.metadata?.annotations ?? {}),
            [ChangeCauseAnnotation]: h.cause,
          },
        };
      info = describePodTemplateRaw(template);
    } else {
      const revs = [...history.keys()].sort((a, b) => a - b);
      const lines = [
        'REVISION\tCHANGE-CAUSE',
        ...revs.map((v) => `${v}\t${history.get(v)!.cause || '<none>'}`),
      ];
      info = tabbedHistory(lines.join('\n') + '\n');
    }
    const withRevision = cmd.revision > 0 ? `with revision #${cmd.revision}` : '';
    r.out(namePrint(type, d.metadata.name, `${withRevision}\n${info}`));
  }
}

function tabbedHistory(text: string): string {
  return tabwrite(text, DESCRIBE_TABWRITER);
}

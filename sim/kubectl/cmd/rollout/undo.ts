// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_undo.go and
// polymorphichelpers.DeploymentRollbacker.

import type { Deployment, ReplicaSet } from '../../../api/types.ts';
import { JSONPatchType } from '../../../apiserver/patch.ts';
import { equalIgnoreHash, revision as revisionOf } from '../../../controllers/deployment/util.ts';
import { f, FILENAME, num, type Command, type Common, type Targets } from '../../cmdutil.ts';
import { isStatusError, KubectlError } from '../../errors.ts';
import { clone, namePrint, replicaSetsOf, typeOf, type Run } from '../../run.ts';
import { ANNOTATIONS_TO_SKIP, deploymentsOf, rolloutTargets } from './rollout.ts';

export interface RolloutUndoOptions {
  verb: 'rollout undo';
  targets: Targets;
  toRevision: number;
}

export const rolloutUndo: Command<RolloutUndoOptions> = {
  path: 'rollout undo',
  short: 'Undo a previous rollout',
  flags: [f('to-revision', 'int'), FILENAME],
  complete(fp) {
    const targets = rolloutTargets(fp);
    return { verb: 'rollout undo', targets, toRevision: num(fp.flags['to-revision'], 0) };
  },
  run: runRolloutUndo,
};

function runRolloutUndo(r: Run, cmd: RolloutUndoOptions & Common): void {
  const ns = r.ns(cmd);
  for (const info of deploymentsOf(r, cmd.targets, ns, 'rollbacker')) {
    try {
      // Mirrors polymorphichelpers.DeploymentRollbacker.Rollback.
      if (cmd.toRevision < 0)
        throw new KubectlError(`unable to find specified revision ${cmd.toRevision} in history`);
      // Rollback GETs the Deployment afresh, then lists its ReplicaSets (deploymentRevision).
      let d: Deployment;
      try {
        d = r.client.get<Deployment>('deployments', info.metadata.namespace, info.metadata.name);
      } catch (e) {
        throw new KubectlError(
          `failed to retrieve Deployment ${info.metadata.name}: ${isStatusError(e) ? e.status.message : (e as Error).message}`,
        );
      }
      const { allOldRSs: oldRSs, newRS } = replicaSetsOf(r, d);
      const all = newRS ? [...oldRSs, newRS] : oldRSs;
      let target: ReplicaSet | undefined;
      let latest: ReplicaSet | undefined;
      let latestRev = -1;
      let prevRev = -1;
      for (const rs of all) {
        const v = revisionOf(rs);
        if (v === undefined) continue;
        if (cmd.toRevision === 0) {
          if (latestRev < v) {
            prevRev = latestRev;
            target = latest;
            latestRev = v;
            latest = rs;
          } else if (prevRev < v) {
            prevRev = v;
            target = rs;
          }
        } else if (cmd.toRevision === v) {
          target = rs;
          break;
        }
      }
      if (cmd.toRevision > 0 && !target)
        throw new KubectlError(`unable to find specified revision ${cmd.toRevision} in history`);
      if (!target)
        throw new KubectlError(`no rollout history found for deployment "${d.metadata.name}"`);
      if (d.spec.paused)
        throw new KubectlError(
          "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again",
        );
      const type = typeOf('deployments');
      if (equalIgnoreHash(target.spec.template, d.spec.template)) {
        r.out(
          namePrint(
            type,
            d.metadata.name,
            `skipped rollback (current template already matches revision ${cmd.toRevision})`,
          ),
        );
        continue;
      }
      const template = clone(target.spec.template);
      if (template.metadata?.labels) delete template.metadata.labels['pod-template-hash'];
      const annotations: Record<string, string> = {};
      for (const k of ANNOTATIONS_TO_SKIP)
        if (d.metadata.annotations?.[k] !== undefined) annotations[k] = d.metadata.annotations[k];
      for (const [k, v] of Object.entries(target.metadata.annotations ?? {}))
        if (!ANNOTATIONS_TO_SKIP.has(k)) annotations[k] = v;
      // getDeploymentPatch: one JSON patch replacing /spec/template and /metadata/annotations.
      const patch = [
        { op: 'replace', path: '/spec/template', value: template },
        { op: 'replace', path: '/metadata/annotations', value: annotations },
      ];
      try {
        r.client.patch(
          'deployments',
          d.metadata.namespace,
          d.metadata.name,
          patch,
          undefined,
          JSONPatchType,
        );
      } catch (e) {
        if (isStatusError(e))
          throw new KubectlError(
            `failed restoring revision ${cmd.toRevision}: ${e.status.message}`,
          );
        throw e;
      }
      r.out(namePrint(type, d.metadata.name, 'rolled back'));
    } catch (e) {
      r.fail(e);
    }
  }
}

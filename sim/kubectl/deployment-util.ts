// Mirrors staging/src/k8s.io/kubectl/pkg/util/deployment: GetAllReplicaSets, what describe and
// rollout history and undo read of a Deployment's ReplicaSets.

import type { Deployment, ReplicaSet } from '../api/types.ts';
import { findNewReplicaSet, findOldReplicaSets } from '../controllers/deployment/util.ts';
import type { ObjectLister } from '../registry/rules.ts';

/**
 * replicaSetsOf mirrors GetAllReplicaSets: the old ReplicaSets that still have replicas
 * (findOldReplicaSets' requiredRSs, without spec.replicas == 0 ones; what describe prints), all
 * old ones (what rollout history and undo read) and the new one.
 */
export function replicaSetsOf(
  lister: ObjectLister,
  d: Deployment,
): { oldRSs: ReplicaSet[]; allOldRSs: ReplicaSet[]; newRS: ReplicaSet | undefined } {
  const owned = lister
    .list<ReplicaSet>('replicasets', d.metadata.namespace, d.spec.selector)
    .filter((rs) =>
      (rs.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === d.metadata.uid),
    );
  const newRS = findNewReplicaSet(d, [...owned]);
  const { requiredRSs, allRSs } = findOldReplicaSets(d, [...owned]);
  return { oldRSs: requiredRSs, allOldRSs: allRSs, newRS };
}

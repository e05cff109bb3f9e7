// Mirrors pkg/registry/apps/replicaset/strategy.go, SetDefaults_ReplicaSet
// (pkg/apis/apps/v1/defaults.go) and ValidateReplicaSet (pkg/apis/apps/validation).

import type { ReplicaSet } from '../../../api/types.ts';
import { defaultTemplate } from '../../core/pods/podspec.ts';
import type { Strategy } from '../../rules.ts';
import { validateWorkload } from '../validation.ts';

/**
 * replicaSetStrategy is the ReplicaSet's REST strategy. apps/v1 registers no field label
 * conversion func: the strategy selects on status.replicas, but v1.34 answers that it "is not a
 * known field selector" (kubernetes/kubernetes#135136), and so do we.
 */
export const replicaSetStrategy: Strategy = {
  defaults: (obj) => defaultReplicaSet(obj as ReplicaSet),
  validate: (obj) => validateWorkload(obj as ReplicaSet, 'replicaset'),
  defaultsInPlace: true,
};

/** defaultReplicaSet mirrors SetDefaults_ReplicaSet. */
export function defaultReplicaSet(rs: ReplicaSet): void {
  rs.spec.replicas ??= 1;
  defaultTemplate(rs.spec.template);
  rs.status ??= { replicas: 0 };
}

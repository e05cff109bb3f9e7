// Mirrors staging/src/k8s.io/api/apps/v1/types.go for ReplicaSet: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type {
  ConditionStatus,
  KubeObject,
  LabelSelector,
  PodTemplateSpec,
  Time,
} from '../../../api/types.ts';
import { i32, opaque, struct, byValue, labelSelector, kindSchema } from '../../../api/schema.ts';
import { podTemplateSpec } from '../../core/pods/types.ts';

export interface ReplicaSet extends KubeObject {
  apiVersion: 'apps/v1';
  kind: 'ReplicaSet';
  spec: ReplicaSetSpec;
  status: ReplicaSetStatus;
}

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
}

export interface ReplicaSetCondition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

const replicaSetSpec = struct('ReplicaSetSpec', () => ({
  replicas: i32,
  minReadySeconds: i32,
  selector: labelSelector,
  template: byValue(podTemplateSpec),
}));

/** replicaSetSchema is the Go type ReplicaSet bodies decode into. */
export const replicaSetSchema = kindSchema<ReplicaSet>('ReplicaSet', {
  spec: byValue(replicaSetSpec),
  status: opaque('ReplicaSetStatus'),
});

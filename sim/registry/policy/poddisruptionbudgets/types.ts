// Mirrors staging/src/k8s.io/api/policy/v1/types.go for PodDisruptionBudget: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type {
  IntOrString,
  KubeObject,
  LabelSelector,
  MetaCondition,
  Time,
} from '../../../api/types.ts';
import {
  str,
  opaque,
  intstr,
  struct,
  byValue,
  labelSelector,
  kindSchema,
} from '../../../api/schema.ts';

/** PodDisruptionBudget is policy/v1 PodDisruptionBudget (k8s.io/api/policy/v1/types.go). */
export interface PodDisruptionBudget extends KubeObject {
  apiVersion: 'policy/v1';
  kind: 'PodDisruptionBudget';
  spec: {
    minAvailable?: IntOrString;
    maxUnavailable?: IntOrString;
    selector?: LabelSelector;
    unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
  };
  status: {
    observedGeneration?: number;
    /** disruptedPods maps a Pod's name to when kube-apiserver admitted its eviction. */
    disruptedPods?: Record<string, Time>;
    disruptionsAllowed: number;
    currentHealthy: number;
    desiredHealthy: number;
    expectedPods: number;
    conditions?: MetaCondition[];
  };
}

const podDisruptionBudgetSpec = struct('PodDisruptionBudgetSpec', () => ({
  minAvailable: intstr,
  maxUnavailable: intstr,
  selector: labelSelector,
  unhealthyPodEvictionPolicy: str('v1.UnhealthyPodEvictionPolicyType'),
}));

/** podDisruptionBudgetSchema is the Go type PodDisruptionBudget bodies decode into. */
export const podDisruptionBudgetSchema = kindSchema<PodDisruptionBudget>('PodDisruptionBudget', {
  spec: byValue(podDisruptionBudgetSpec),
  status: opaque('PodDisruptionBudgetStatus'),
});

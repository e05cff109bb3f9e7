// Mirrors staging/src/k8s.io/api/apps/v1/types.go for DaemonSet: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { KubeObject, LabelSelector, PodTemplateSpec } from '../../../api/types.ts';
import { i32, opaque, struct, byValue, labelSelector, kindSchema } from '../../../api/schema.ts';
import { podTemplateSpec } from '../../core/pods/types.ts';

export interface DaemonSet extends KubeObject {
  apiVersion: 'apps/v1';
  kind: 'DaemonSet';
  spec: { selector: LabelSelector; template: PodTemplateSpec };
  status: {
    currentNumberScheduled: number;
    desiredNumberScheduled: number;
    numberReady: number;
    numberMisscheduled: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
  };
}

const daemonSetSpec = struct('DaemonSetSpec', () => ({
  selector: labelSelector,
  template: byValue(podTemplateSpec),
  updateStrategy: opaque('DaemonSetUpdateStrategy'),
  minReadySeconds: i32,
  revisionHistoryLimit: i32,
}));

/** daemonSetSchema is the Go type DaemonSet bodies decode into. */
export const daemonSetSchema = kindSchema<DaemonSet>('DaemonSet', {
  spec: byValue(daemonSetSpec),
  status: opaque('DaemonSetStatus'),
});

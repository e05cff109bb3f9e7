// Mirrors staging/src/k8s.io/api/coordination/v1/types.go for Lease: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { KubeObject, MicroTime } from '../../../api/types.ts';
import { str, i32, any, struct, byValue, kindSchema } from '../../../api/schema.ts';

export interface Lease extends KubeObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  spec: LeaseSpec;
}

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: MicroTime;
  renewTime?: MicroTime;
  leaseTransitions?: number;
}

const leaseSpec = struct('LeaseSpec', () => ({
  holderIdentity: str(),
  leaseDurationSeconds: i32,
  acquireTime: any,
  renewTime: any,
  leaseTransitions: i32,
  strategy: str('v1.CoordinatedLeaseStrategy'),
  preferredHolder: str(),
}));

/** leaseSchema is the Go type Lease bodies decode into. */
export const leaseSchema = kindSchema<Lease>('Lease', { spec: byValue(leaseSpec) });

// Mirrors staging/src/k8s.io/api/core/v1/types.go for Namespace: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { KubeObject } from '../../../api/types.ts';
import { opaque, kindSchema } from '../../../api/schema.ts';

export interface Namespace extends KubeObject {
  apiVersion: 'v1';
  kind: 'Namespace';
  spec: { finalizers?: string[] };
  status: { phase: 'Active' | 'Terminating' };
}

/** namespaceSchema is the Go type Namespace bodies decode into. */
export const namespaceSchema = kindSchema<Namespace>('Namespace', {
  spec: opaque('NamespaceSpec'),
  status: opaque('NamespaceStatus'),
});

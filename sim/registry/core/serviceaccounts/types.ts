// Mirrors staging/src/k8s.io/api/core/v1/types.go for ServiceAccount: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { KubeObject, LocalObjectReference, ObjectReference } from '../../../api/types.ts';
import { bool, opaques, list, localObjectReference, kindSchema } from '../../../api/schema.ts';

/** ServiceAccount is a core/v1 ServiceAccount (staging/src/k8s.io/api/core/v1/types.go). */
export interface ServiceAccount extends KubeObject {
  apiVersion: 'v1';
  kind: 'ServiceAccount';
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}

/** serviceAccountSchema is the Go type ServiceAccount bodies decode into. */
export const serviceAccountSchema = kindSchema<ServiceAccount>('ServiceAccount', {
  secrets: opaques('ObjectReference'),
  imagePullSecrets: list(localObjectReference),
  automountServiceAccountToken: bool,
});

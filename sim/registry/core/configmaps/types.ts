// Mirrors staging/src/k8s.io/api/core/v1/types.go for ConfigMap: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { KubeObject } from '../../../api/types.ts';
import { bool, kindSchema, str, stringMap } from '../../../api/schema.ts';

/** ConfigMap is a core/v1 ConfigMap. */
export interface ConfigMap extends KubeObject {
  apiVersion: 'v1';
  kind: 'ConfigMap';
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

/** configMapSchema is the Go type ConfigMap bodies decode into. */
export const configMapSchema = kindSchema<ConfigMap>('ConfigMap', {
  immutable: bool,
  data: stringMap,
  // Simplification: binaryData is []byte per key upstream (base64 in JSON); any string is accepted.
  binaryData: { k: 'map', go: 'map[string][]uint8', value: str('[]uint8') },
});

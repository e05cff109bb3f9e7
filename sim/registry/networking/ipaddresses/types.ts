// Mirrors staging/src/k8s.io/api/networking/v1/types.go for IPAddress: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.

import type { KubeObject } from '../../../api/types.ts';
import { str, struct, byValue, kindSchema } from '../../../api/schema.ts';

/** IPAddress is one allocated IP, named by its canonical form, and who holds it. */
export interface IPAddress extends KubeObject {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'IPAddress';
  spec: { parentRef: ParentReference };
}

/** ParentReference names the object an IPAddress is allocated to (a Service). */
export interface ParentReference {
  group?: string;
  resource: string;
  namespace?: string;
  name: string;
}

const parentReference = struct('ParentReference', () => ({
  group: str(),
  resource: str(),
  namespace: str(),
  name: str(),
}));

const ipAddressSpec = struct('IPAddressSpec', () => ({ parentRef: parentReference }));

/** ipAddressSchema is the Go type IPAddress bodies decode into. */
export const ipAddressSchema = kindSchema<IPAddress>('IPAddress', { spec: byValue(ipAddressSpec) });

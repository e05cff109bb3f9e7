// Mirrors staging/src/k8s.io/api/networking/v1/types.go for ServiceCIDR: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.

import type { KubeObject } from '../../../api/types.ts';
import { opaque, strings, struct, byValue, kindSchema } from '../../../api/schema.ts';

/** ServiceCIDR is a range Service cluster IPs are allocated from. */
export interface ServiceCIDR extends KubeObject {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'ServiceCIDR';
  spec: { cidrs: string[] };
  status: {
    conditions?: {
      type: string;
      status: 'True' | 'False' | 'Unknown';
      lastTransitionTime: string;
      reason: string;
      message: string;
    }[];
  };
}

const serviceCIDRSpec = struct('ServiceCIDRSpec', () => ({ cidrs: strings }));

/** serviceCIDRSchema is the Go type ServiceCIDR bodies decode into. */
export const serviceCIDRSchema = kindSchema<ServiceCIDR>('ServiceCIDR', {
  spec: byValue(serviceCIDRSpec),
  status: opaque('ServiceCIDRStatus'),
});

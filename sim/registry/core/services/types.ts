// Mirrors staging/src/k8s.io/api/core/v1/types.go for Service: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { KubeObject } from '../../../api/types.ts';
import {
  str,
  i32,
  bool,
  opaque,
  intstr,
  strings,
  stringMap,
  list,
  struct,
  byValue,
  kindSchema,
} from '../../../api/schema.ts';

export interface Service extends KubeObject {
  apiVersion: 'v1';
  kind: 'Service';
  spec: ServiceSpec;
  status: { loadBalancer?: { ingress?: LoadBalancerIngress[] } };
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: 'VIP' | 'Proxy';
}

export interface ServiceSpec {
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
  selector?: Record<string, string>;
  ports?: ServicePort[];
  clusterIP?: string;
  clusterIPs?: string[];
  externalIPs?: string[];
  sessionAffinity?: 'None' | 'ClientIP';
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  externalName?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  loadBalancerClass?: string;
  publishNotReadyAddresses?: boolean;
  trafficDistribution?: string;
  internalTrafficPolicy?: 'Cluster' | 'Local';
  externalTrafficPolicy?: 'Cluster' | 'Local';
  healthCheckNodePort?: number;
  allocateLoadBalancerNodePorts?: boolean;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
}

export interface ServicePort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port: number;
  targetPort?: number | string;
  nodePort?: number;
}

const servicePort = struct('ServicePort', () => ({
  name: str(),
  protocol: str('v1.Protocol'),
  appProtocol: str(),
  port: i32,
  targetPort: intstr,
  nodePort: i32,
}));

const sessionAffinityConfig = struct('SessionAffinityConfig', () => ({
  clientIP: struct('ClientIPConfig', () => ({ timeoutSeconds: i32 })),
}));

const serviceSpec = struct('ServiceSpec', () => ({
  ports: list(servicePort),
  selector: stringMap,
  clusterIP: str(),
  clusterIPs: strings,
  type: str('v1.ServiceType'),
  externalIPs: strings,
  sessionAffinity: str('v1.ServiceAffinity'),
  loadBalancerIP: str(),
  loadBalancerSourceRanges: strings,
  externalName: str(),
  externalTrafficPolicy: str('v1.ServiceExternalTrafficPolicy'),
  healthCheckNodePort: i32,
  publishNotReadyAddresses: bool,
  sessionAffinityConfig,
  ipFamilies: { k: 'list', go: '[]v1.IPFamily', item: str('v1.IPFamily') },
  ipFamilyPolicy: str('v1.IPFamilyPolicy'),
  allocateLoadBalancerNodePorts: bool,
  loadBalancerClass: str(),
  internalTrafficPolicy: str('v1.ServiceInternalTrafficPolicy'),
  trafficDistribution: str(),
}));

/** serviceSchema is the Go type Service bodies decode into. */
export const serviceSchema = kindSchema<Service>('Service', {
  spec: byValue(serviceSpec),
  status: opaque('ServiceStatus'),
});

// Mirrors staging/src/k8s.io/api/networking/v1/types.go for Ingress: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { KubeObject } from '../../../api/types.ts';
import { byValue, i32, kindSchema, list, str, strings, struct } from '../../../api/schema.ts';

/** PathType is how a path matches: Exact, Prefix (element-wise) or ImplementationSpecific. */
export type PathType = 'Exact' | 'Prefix' | 'ImplementationSpecific';

/** ServiceBackendPort names a Service port by name or number (exactly one). */
export interface ServiceBackendPort {
  name?: string;
  number?: number;
}

/** IngressBackend is a Service and port, or a resource (exactly one). */
export interface IngressBackend {
  service?: { name: string; port: ServiceBackendPort };
  resource?: { apiGroup?: string; kind: string; name: string };
}

/** HTTPIngressPath is one path of a rule and the backend it leads to. */
export interface HTTPIngressPath {
  path?: string;
  pathType?: PathType;
  backend: IngressBackend;
}

/** IngressRule is a host (or every host) and its paths. */
export interface IngressRule {
  host?: string;
  http?: { paths: HTTPIngressPath[] };
}

/** IngressLoadBalancerIngress is one address the Ingress is reachable at. */
export interface IngressLoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ports?: { port: number; protocol: string; error?: string }[];
}

/** Ingress is networking.k8s.io/v1 Ingress. */
export interface Ingress extends KubeObject {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'Ingress';
  spec: {
    ingressClassName?: string;
    defaultBackend?: IngressBackend;
    tls?: { hosts?: string[]; secretName?: string }[];
    rules?: IngressRule[];
  };
  status?: { loadBalancer?: { ingress?: IngressLoadBalancerIngress[] } };
}

const serviceBackendPort = struct('ServiceBackendPort', () => ({ name: str(), number: i32 }));
const ingressServiceBackend = struct('IngressServiceBackend', () => ({
  name: str(),
  port: byValue(serviceBackendPort),
}));
const typedLocalObjectReference = struct('TypedLocalObjectReference', () => ({
  apiGroup: str(),
  kind: str(),
  name: str(),
}));
export const ingressBackend = struct('IngressBackend', () => ({
  service: ingressServiceBackend,
  resource: typedLocalObjectReference,
}));
const httpIngressPath = struct('HTTPIngressPath', () => ({
  path: str(),
  pathType: str('v1.PathType'),
  backend: byValue(ingressBackend),
}));
const httpIngressRuleValue = struct('HTTPIngressRuleValue', () => ({
  paths: list(httpIngressPath),
}));
const ingressRule = struct('IngressRule', () => ({ host: str(), http: httpIngressRuleValue }));
const ingressTLS = struct('IngressTLS', () => ({ hosts: strings, secretName: str() }));
const ingressSpec = struct('IngressSpec', () => ({
  ingressClassName: str(),
  defaultBackend: ingressBackend,
  tls: list(ingressTLS),
  rules: list(ingressRule),
}));
const portStatus = struct('PortStatus', () => ({
  port: i32,
  protocol: str('v1.Protocol'),
  error: str(),
}));
const ingressLoadBalancerIngress = struct('IngressLoadBalancerIngress', () => ({
  ip: str(),
  hostname: str(),
  ports: list(portStatus),
}));
const ingressStatus = struct('IngressStatus', () => ({
  loadBalancer: byValue(
    struct('IngressLoadBalancerStatus', () => ({ ingress: list(ingressLoadBalancerIngress) })),
  ),
}));

/** ingressSchema is the Go type Ingress bodies decode into. */
export const ingressSchema = kindSchema<Ingress>('Ingress', {
  spec: byValue(ingressSpec),
  status: byValue(ingressStatus),
});

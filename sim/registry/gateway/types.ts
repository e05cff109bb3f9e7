// Mirrors sigs.k8s.io/gateway-api apis/v1 (gatewayclass_types.go, gateway_types.go,
// httproute_types.go, shared_types.go): the standard channel's GatewayClass, Gateway and
// HTTPRoute, their TypeScript types (the JSON the API returns) and their Go types as strict
// decoding reads them (api/schema.ts). Upstream these kinds are CustomResourceDefinitions
// (config/crd/standard); each kind's folder below holds the CRD's defaults and printer columns.
// Simplification: only the fields the simulator reads or writes are declared; filters, query
// parameter and method matches, timeouts, TLS and infrastructure are not modelled.

import type { KubeObject, MetaCondition } from '../../api/types.ts';
import {
  any,
  byValue,
  i32,
  kindSchema,
  labelSelector,
  list,
  opaque,
  str,
  strings,
  struct,
} from '../../api/schema.ts';

/** GatewayGroup is the API group of the Gateway API. */
export const GatewayGroup = 'gateway.networking.k8s.io';

/** GatewayClass is gateway.networking.k8s.io/v1 GatewayClass: a kind of Gateway and its controller. */
export interface GatewayClass extends KubeObject {
  apiVersion: 'gateway.networking.k8s.io/v1';
  kind: 'GatewayClass';
  spec: { controllerName: string; description?: string };
  status?: { conditions?: MetaCondition[] };
}

/** Listener is one port, protocol and hostname a Gateway accepts traffic on. */
export interface Listener {
  name: string;
  hostname?: string;
  port: number;
  protocol: string;
  allowedRoutes?: {
    namespaces?: {
      from?: 'All' | 'Same' | 'Selector';
      selector?: KubeObject['metadata']['labels'];
    };
    kinds?: { group?: string; kind: string }[];
  };
}

/** ListenerStatus is a listener's status: attached routes and its conditions. */
export interface ListenerStatus {
  name: string;
  supportedKinds: { group?: string; kind: string }[];
  attachedRoutes: number;
  conditions: MetaCondition[];
}

/** Gateway is gateway.networking.k8s.io/v1 Gateway: an instance of a proxy, with listeners. */
export interface Gateway extends KubeObject {
  apiVersion: 'gateway.networking.k8s.io/v1';
  kind: 'Gateway';
  spec: { gatewayClassName: string; listeners: Listener[] };
  status?: {
    addresses?: { type?: string; value: string }[];
    conditions?: MetaCondition[];
    listeners?: ListenerStatus[];
  };
}

/** ParentReference names the Gateway (and optionally its listener) a route attaches to. */
export interface ParentReference {
  group?: string;
  kind?: string;
  namespace?: string;
  name: string;
  sectionName?: string;
  port?: number;
}

/** HTTPPathMatch is a path match: Exact, PathPrefix (element-wise) or RegularExpression. */
export interface HTTPPathMatch {
  type?: 'Exact' | 'PathPrefix' | 'RegularExpression';
  value?: string;
}

/** HTTPHeaderMatch is a header match: Exact (names case-insensitive) or RegularExpression. */
export interface HTTPHeaderMatch {
  type?: 'Exact' | 'RegularExpression';
  name: string;
  value: string;
}

/** HTTPRouteMatch is one match of a rule: all its conditions must hold. */
export interface HTTPRouteMatch {
  path?: HTTPPathMatch;
  headers?: HTTPHeaderMatch[];
  method?: string;
}

/** HTTPBackendRef is a Service and port a rule sends its share of requests to. */
export interface HTTPBackendRef {
  group?: string;
  kind?: string;
  name: string;
  namespace?: string;
  port?: number;
  weight?: number;
}

/** HTTPRouteRule is matches and the backends a request matching one of them goes to. */
export interface HTTPRouteRule {
  name?: string;
  matches?: HTTPRouteMatch[];
  backendRefs?: HTTPBackendRef[];
}

/** RouteParentStatus is the status of a route for one of its parents. */
export interface RouteParentStatus {
  parentRef: ParentReference;
  controllerName: string;
  conditions: MetaCondition[];
}

/** HTTPRoute is gateway.networking.k8s.io/v1 HTTPRoute. */
export interface HTTPRoute extends KubeObject {
  apiVersion: 'gateway.networking.k8s.io/v1';
  kind: 'HTTPRoute';
  spec: { parentRefs?: ParentReference[]; hostnames?: string[]; rules?: HTTPRouteRule[] };
  status?: { parents: RouteParentStatus[] };
}

const routeGroupKind = struct('RouteGroupKind', () => ({ group: str(), kind: str() }));
const listener = struct('Listener', () => ({
  name: str('v1.SectionName'),
  hostname: str('v1.Hostname'),
  port: i32,
  protocol: str('v1.ProtocolType'),
  tls: opaque('ListenerTLSConfig'),
  allowedRoutes: struct('AllowedRoutes', () => ({
    namespaces: struct('RouteNamespaces', () => ({
      from: str('v1.FromNamespaces'),
      selector: labelSelector,
    })),
    kinds: list(routeGroupKind),
  })),
}));
const parentReference = struct('ParentReference', () => ({
  group: str('v1.Group'),
  kind: str('v1.Kind'),
  namespace: str('v1.Namespace'),
  name: str('v1.ObjectName'),
  sectionName: str('v1.SectionName'),
  port: i32,
}));
const httpRouteMatch = struct('HTTPRouteMatch', () => ({
  path: struct('HTTPPathMatch', () => ({ type: str('v1.PathMatchType'), value: str() })),
  headers: list(
    struct('HTTPHeaderMatch', () => ({
      type: str('v1.HeaderMatchType'),
      name: str('v1.HTTPHeaderName'),
      value: str(),
    })),
  ),
  queryParams: any,
  method: str('v1.HTTPMethod'),
}));
const httpBackendRef = struct('HTTPBackendRef', () => ({
  group: str('v1.Group'),
  kind: str('v1.Kind'),
  name: str('v1.ObjectName'),
  namespace: str('v1.Namespace'),
  port: i32,
  weight: i32,
  filters: any,
}));
const httpRouteRule = struct('HTTPRouteRule', () => ({
  name: str('v1.SectionName'),
  matches: list(httpRouteMatch),
  filters: any,
  backendRefs: list(httpBackendRef),
  timeouts: any,
}));

/** gatewayClassSchema is the Go type GatewayClass bodies decode into. */
export const gatewayClassSchema = kindSchema<GatewayClass>('GatewayClass', {
  spec: byValue(
    struct('GatewayClassSpec', () => ({
      controllerName: str('v1.GatewayController'),
      parametersRef: any,
      description: str(),
    })),
  ),
  status: opaque('GatewayClassStatus'),
});

/** gatewaySchema is the Go type Gateway bodies decode into. */
export const gatewaySchema = kindSchema<Gateway>('Gateway', {
  spec: byValue(
    struct('GatewaySpec', () => ({
      gatewayClassName: str('v1.ObjectName'),
      listeners: list(listener),
      addresses: any,
      infrastructure: any,
    })),
  ),
  status: opaque('GatewayStatus'),
});

/** httpRouteSchema is the Go type HTTPRoute bodies decode into. */
export const httpRouteSchema = kindSchema<HTTPRoute>('HTTPRoute', {
  spec: byValue(
    struct('HTTPRouteSpec', () => ({
      parentRefs: list(parentReference),
      hostnames: strings,
      rules: list(httpRouteRule),
    })),
  ),
  status: opaque('HTTPRouteStatus'),
});

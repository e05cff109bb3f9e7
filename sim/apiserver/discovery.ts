// Mirrors kube-apiserver's discovery documents (/api/v1 and /apis/<group>/<version>, built by
// staging/src/k8s.io/apiserver/pkg/endpoints/installer.go from each resource's REST storage:
// name, singularName, namespaced, kind, verbs, shortNames, categories) for the resources the
// simulator serves. API_RESOURCES is the only list of resources: kube-apiserver's storage
// (registry.ts), kubectl's name resolution (the RESTMapper, resolveResource below), `kubectl
// api-resources` and `kubectl get all` all read it. Adding a kind is one row here plus its folder
// (see sim/README.md, "Adding a kind").
// Each row points at its kind's folder, sim/registry/<group>/<resource>/: its Go type for decoding
// (types.ts) and its rules (strategy, printer, describer). AnyObject and ResourceName, the types
// of every served object and stored plural, are derived from the rows below.
// kubectl keeps discovery in a disk cache (~/.kube/cache/discovery/<host>/) for 6 hours
// (staging/src/k8s.io/cli-runtime/pkg/genericclioptions/config_flags.go ToDiscoveryClient,
// client-go discovery/cached/disk), so a kubectl that has talked to the cluster in the last six
// hours sends no discovery request before its own.
// Simplification: kubectl's cache is always warm and never refreshed: it reads this table
// directly and never GETs /api and /apis, as a first command on a fresh machine, a name the cache
// does not resolve, or `kubectl api-resources` (which invalidates the cache unless --cached:
// pkg/cmd/apiresources) would; so no discovery requests appear in the trace.

/**
 * APIResource is one row of discovery (metav1.APIResource), with what storage needs. O is the
 * TypeScript type of the row's objects (never for a row no client writes), R its plural.
 */
export interface APIResource<O = unknown, R extends string = string> {
  /** group is the API group; "" for the core group. */
  group: string;
  version: string;
  kind: string;
  /** resource is the lower-case plural, as in REST paths: "pods", "deployments". */
  resource: R;
  /** singular is discovery's singularName: "pod", "deployment". */
  singular: string;
  /** shortNames as `kubectl api-resources` lists them (the storage's ShortNames()). */
  shortNames: string[];
  /** categories as the storage's Categories(): "all" for what `kubectl get all` lists. */
  categories: string[];
  namespaced: boolean;
  /** verbs as discovery lists them (sorted, as the installer sorts them). */
  verbs: string[];
  /**
   * subresources the simulator serves under the resource (status, binding, eviction, scale, log,
   * exec; upstream also serves proxy, ephemeralcontainers, resize, ...: add them as they are modelled).
   */
  subresources: string[];
  /** tracksGeneration: metadata.generation is bumped on spec changes (apps/v1 workloads). */
  tracksGeneration: boolean;
  /**
   * etcdPrefix is where the objects live (/registry/<resource>/, as generic.registry stores
   * them; upstream keeps Nodes under /registry/minions/); absent for a resource kube-apiserver
   * computes on each request (componentstatuses).
   */
  etcdPrefix?: string;
  /**
   * sharesStorageWith names the group whose row of the same resource stores the objects, when
   * this row serves them in another group's version (events.k8s.io/v1 Events are core/v1 Events
   * converted: pkg/registry/events/rest reuses the core event storage). kube-apiserver's storage
   * and a plural's lookup (apiResource) use the owning row.
   */
  sharesStorageWith?: string;
  /**
   * schema is the kind's Go type for strict decoding (api/schema.ts), from its folder's types.ts;
   * absent for a row whose bodies no client sends.
   */
  schema?: KindSchema<O>;
  /** rules are the kind's strategy and printer, from its folder under sim/registry/. */
  rules: KindRules;
}

import { deploymentPrinter } from '../registry/apps/deployments/printer.ts';
import { deploymentStrategy } from '../registry/apps/deployments/strategy.ts';
import { daemonSetPrinter } from '../registry/apps/daemonsets/printer.ts';
import { replicaSetPrinter } from '../registry/apps/replicasets/printer.ts';
import { replicaSetStrategy } from '../registry/apps/replicasets/strategy.ts';
import { leasePrinter } from '../registry/coordination/leases/printer.ts';
import { componentStatusPrinter } from '../registry/core/componentstatuses/printer.ts';
import { eventPrinter } from '../registry/core/events/printer.ts';
import { eventStrategy } from '../registry/core/events/strategy.ts';
import { namespacePrinter } from '../registry/core/namespaces/printer.ts';
import { namespaceStrategy } from '../registry/core/namespaces/strategy.ts';
import { nodePrinter } from '../registry/core/nodes/printer.ts';
import { nodeStrategy } from '../registry/core/nodes/strategy.ts';
import { podPrinter } from '../registry/core/pods/printer.ts';
import { podStrategy } from '../registry/core/pods/strategy.ts';
import { servicePrinter } from '../registry/core/services/printer.ts';
import { serviceStrategy } from '../registry/core/services/strategy.ts';
import { endpointSlicePrinter } from '../registry/discovery/endpointslices/printer.ts';
import { describePodObject } from '../registry/core/pods/describe.ts';
import { describeNodeObject } from '../registry/core/nodes/describe.ts';
import { describeDeploymentObject } from '../registry/apps/deployments/describe.ts';
import { describeReplicaSetObject } from '../registry/apps/replicasets/describe.ts';
import { describeServiceObject } from '../registry/core/services/describe.ts';
import { describeDaemonSetObject } from '../registry/apps/daemonsets/describe.ts';
import { describeNamespaceObject } from '../registry/core/namespaces/describe.ts';
import { describeEndpointSliceObject } from '../registry/discovery/endpointslices/describe.ts';
import {
  describePodDisruptionBudgetObject,
  podDisruptionBudgetPrinter,
} from '../registry/policy/poddisruptionbudgets/printers.ts';
import { podDisruptionBudgetStrategy } from '../registry/policy/poddisruptionbudgets/strategy.ts';
import { configMapPrinter, describeConfigMapObject } from '../registry/core/configmaps/printers.ts';
import { configMapStrategy } from '../registry/core/configmaps/strategy.ts';
import {
  describeServiceAccountObject,
  serviceAccountPrinter,
} from '../registry/core/serviceaccounts/printers.ts';
import type { KindRules } from '../registry/rules.ts';
import type { KindSchema } from '../api/schema.ts';
import { daemonSetSchema } from '../registry/apps/daemonsets/types.ts';
import { deploymentSchema } from '../registry/apps/deployments/types.ts';
import { replicaSetSchema } from '../registry/apps/replicasets/types.ts';
import { leaseSchema } from '../registry/coordination/leases/types.ts';
import { configMapSchema } from '../registry/core/configmaps/types.ts';
import { eventSchema } from '../registry/core/events/types.ts';
import { namespaceSchema } from '../registry/core/namespaces/types.ts';
import { nodeSchema } from '../registry/core/nodes/types.ts';
import { podSchema } from '../registry/core/pods/types.ts';
import { serviceAccountSchema } from '../registry/core/serviceaccounts/types.ts';
import { serviceSchema } from '../registry/core/services/types.ts';
import { describeIPAddressObject } from '../registry/networking/ipaddresses/describe.ts';
import { ipAddressPrinter } from '../registry/networking/ipaddresses/printer.ts';
import { describeServiceCIDRObject } from '../registry/networking/servicecidrs/describe.ts';
import { ipAddressSchema } from '../registry/networking/ipaddresses/types.ts';
import {
  describeNetworkPolicyObject,
  networkPolicyPrinter,
} from '../registry/networking/networkpolicies/printers.ts';
import { networkPolicyStrategy } from '../registry/networking/networkpolicies/strategy.ts';
import { networkPolicySchema } from '../registry/networking/networkpolicies/types.ts';
import { serviceCIDRPrinter } from '../registry/networking/servicecidrs/printer.ts';
import { serviceCIDRSchema } from '../registry/networking/servicecidrs/types.ts';
import { endpointSliceSchema } from '../registry/discovery/endpointslices/types.ts';
import { podDisruptionBudgetSchema } from '../registry/policy/poddisruptionbudgets/types.ts';
import { ingressSchema } from '../registry/networking/ingresses/types.ts';
import { ingressStrategy } from '../registry/networking/ingresses/strategy.ts';
import {
  describeIngressObject,
  ingressPrinter,
} from '../registry/networking/ingresses/printers.ts';
import { ingressClassSchema } from '../registry/networking/ingressclasses/types.ts';
import { ingressClassStrategy } from '../registry/networking/ingressclasses/strategy.ts';
import {
  describeIngressClassObject,
  ingressClassPrinter,
} from '../registry/networking/ingressclasses/printers.ts';
import { gatewayClassSchema, gatewaySchema, httpRouteSchema } from '../registry/gateway/types.ts';
import { describeCustomResource } from '../registry/gateway/crd.ts';
import { gatewayClassStrategy } from '../registry/gateway/gatewayclasses/strategy.ts';
import { gatewayClassPrinter } from '../registry/gateway/gatewayclasses/printer.ts';
import { gatewayStrategy } from '../registry/gateway/gateways/strategy.ts';
import { gatewayPrinter } from '../registry/gateway/gateways/printer.ts';
import { httpRouteStrategy } from '../registry/gateway/httproutes/strategy.ts';
import { httpRoutePrinter } from '../registry/gateway/httproutes/printer.ts';

const ALL_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

interface Row<O, R extends string> {
  group?: string;
  kind: string;
  resource: R;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs?: string[];
  subresources?: string[];
  tracksGeneration?: boolean;
  /** etcd names the etcd directory when it is not the resource; false when not stored. */
  etcd?: string | false;
  sharesStorageWith?: string;
  schema?: KindSchema<O>;
  rules: KindRules;
}

function row<O = never, R extends string = string>(r: Row<O, R>): APIResource<O, R> {
  const out: APIResource<O, R> = {
    group: r.group ?? '',
    version: 'v1',
    kind: r.kind,
    resource: r.resource,
    singular: r.kind.toLowerCase(),
    shortNames: r.shortNames ?? [],
    categories: r.categories ?? [],
    namespaced: r.namespaced,
    verbs: r.verbs ?? ALL_VERBS,
    subresources: r.subresources ?? [],
    tracksGeneration: r.tracksGeneration ?? false,
    rules: r.rules,
  };
  if (r.etcd !== false) out.etcdPrefix = `/registry/${r.etcd ?? r.resource}/`;
  if (r.sharesStorageWith !== undefined) out.sharesStorageWith = r.sharesStorageWith;
  if (r.schema) out.schema = r.schema;
  return out;
}

/**
 * API_RESOURCES are the served resources in discovery order: the core group first, then the
 * groups alphabetically, resources alphabetically within a group (as aggregated discovery lists
 * them). `kubectl get all` expands the "all" category in this order.
 */
export const API_RESOURCES = [
  // pkg/registry/core/componentstatus/rest.go: computed on each GET/LIST, never stored.
  row({
    kind: 'ComponentStatus',
    resource: 'componentstatuses',
    namespaced: false,
    shortNames: ['cs'],
    verbs: ['get', 'list'],
    etcd: false,
    rules: { printer: componentStatusPrinter },
  }),
  row({
    kind: 'ConfigMap',
    schema: configMapSchema,
    resource: 'configmaps',
    namespaced: true,
    shortNames: ['cm'],
    rules: {
      strategy: configMapStrategy,
      printer: configMapPrinter,
      describe: describeConfigMapObject,
    },
  }),
  row({
    kind: 'Event',
    schema: eventSchema,
    resource: 'events',
    namespaced: true,
    shortNames: ['ev'],
    rules: { strategy: eventStrategy, printer: eventPrinter },
  }),
  // pkg/registry/core/namespace/storage: no DeleteCollection.
  row({
    kind: 'Namespace',
    schema: namespaceSchema,
    resource: 'namespaces',
    namespaced: false,
    shortNames: ['ns'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: ['status'],
    rules: {
      strategy: namespaceStrategy,
      printer: namespacePrinter,
      describe: describeNamespaceObject,
    },
  }),
  row({
    kind: 'Node',
    schema: nodeSchema,
    resource: 'nodes',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
    etcd: 'minions',
    rules: { strategy: nodeStrategy, printer: nodePrinter, describe: describeNodeObject },
  }),
  row({
    kind: 'Pod',
    schema: podSchema,
    resource: 'pods',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['binding', 'eviction', 'exec', 'log', 'status'],
    rules: { strategy: podStrategy, printer: podPrinter, describe: describePodObject },
  }),
  row({
    kind: 'ServiceAccount',
    schema: serviceAccountSchema,
    resource: 'serviceaccounts',
    namespaced: true,
    shortNames: ['sa'],
    rules: { printer: serviceAccountPrinter, describe: describeServiceAccountObject },
  }),
  row({
    kind: 'Service',
    schema: serviceSchema,
    resource: 'services',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['status'],
    etcd: 'services/specs',
    rules: { strategy: serviceStrategy, printer: servicePrinter, describe: describeServiceObject },
  }),
  row({
    group: 'apps',
    kind: 'DaemonSet',
    schema: daemonSetSchema,
    resource: 'daemonsets',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
    tracksGeneration: true,
    rules: { printer: daemonSetPrinter, describe: describeDaemonSetObject },
  }),
  row({
    group: 'apps',
    kind: 'Deployment',
    schema: deploymentSchema,
    resource: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: ['scale', 'status'],
    tracksGeneration: true,
    rules: {
      strategy: deploymentStrategy,
      printer: deploymentPrinter,
      describe: describeDeploymentObject,
    },
  }),
  row({
    group: 'apps',
    kind: 'ReplicaSet',
    schema: replicaSetSchema,
    resource: 'replicasets',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['scale', 'status'],
    tracksGeneration: true,
    rules: {
      strategy: replicaSetStrategy,
      printer: replicaSetPrinter,
      describe: describeReplicaSetObject,
    },
  }),
  row({
    group: 'coordination.k8s.io',
    kind: 'Lease',
    schema: leaseSchema,
    resource: 'leases',
    namespaced: true,
    rules: { printer: leasePrinter },
  }),
  row({
    group: 'discovery.k8s.io',
    kind: 'EndpointSlice',
    schema: endpointSliceSchema,
    resource: 'endpointslices',
    namespaced: true,
    rules: { printer: endpointSlicePrinter, describe: describeEndpointSliceObject },
  }),
  // pkg/registry/events/rest/storage_events.go: the core Event storage served as events.k8s.io/v1
  // (the same objects, converted; kube-scheduler writes through it: client/events-v1.ts).
  // Simplification: kubectl reads it through the core/v1 endpoint, so `kubectl get
  // events.events.k8s.io -o yaml` shows the Events in their core/v1 form.
  row({
    group: 'events.k8s.io',
    kind: 'Event',
    resource: 'events',
    namespaced: true,
    shortNames: ['ev'],
    sharesStorageWith: '',
    rules: { strategy: eventStrategy, printer: eventPrinter },
  }),
  // The Gateway API's standard channel (sigs.k8s.io/gateway-api apis/v1), served as its
  // CustomResourceDefinitions serve it (config/crd/standard: short names, the gateway-api
  // category, the status subresource; a custom resource's generation moves on spec changes).
  // Simplification: the CRDs are always installed, as if `kubectl apply -f standard-install.yaml`
  // had run at birth; no CustomResourceDefinition objects are served.
  row({
    group: 'gateway.networking.k8s.io',
    kind: 'GatewayClass',
    schema: gatewayClassSchema,
    resource: 'gatewayclasses',
    namespaced: false,
    shortNames: ['gc'],
    categories: ['gateway-api'],
    subresources: ['status'],
    tracksGeneration: true,
    rules: {
      strategy: gatewayClassStrategy,
      printer: gatewayClassPrinter,
      describe: describeCustomResource,
    },
  }),
  row({
    group: 'gateway.networking.k8s.io',
    kind: 'Gateway',
    schema: gatewaySchema,
    resource: 'gateways',
    namespaced: true,
    shortNames: ['gtw'],
    categories: ['gateway-api'],
    subresources: ['status'],
    tracksGeneration: true,
    rules: { strategy: gatewayStrategy, printer: gatewayPrinter, describe: describeCustomResource },
  }),
  row({
    group: 'gateway.networking.k8s.io',
    kind: 'HTTPRoute',
    schema: httpRouteSchema,
    resource: 'httproutes',
    namespaced: true,
    categories: ['gateway-api'],
    subresources: ['status'],
    tracksGeneration: true,
    rules: {
      strategy: httpRouteStrategy,
      printer: httpRoutePrinter,
      describe: describeCustomResource,
    },
  }),
  // pkg/registry/networking/ingressclass and ingress (sim/registry/networking/).
  row({
    group: 'networking.k8s.io',
    kind: 'IngressClass',
    schema: ingressClassSchema,
    resource: 'ingressclasses',
    namespaced: false,
    rules: {
      strategy: ingressClassStrategy,
      printer: ingressClassPrinter,
      describe: describeIngressClassObject,
    },
  }),
  row({
    group: 'networking.k8s.io',
    kind: 'Ingress',
    schema: ingressSchema,
    resource: 'ingresses',
    namespaced: true,
    shortNames: ['ing'],
    subresources: ['status'],
    tracksGeneration: true,
    rules: { strategy: ingressStrategy, printer: ingressPrinter, describe: describeIngressObject },
  }),
  // pkg/registry/networking/ipaddress and servicecidr: the records of the Service IP allocator
  // (MultiCIDRServiceAllocator, GA in v1.33), written by kube-apiserver itself.
  row({
    group: 'networking.k8s.io',
    kind: 'IPAddress',
    schema: ipAddressSchema,
    resource: 'ipaddresses',
    namespaced: false,
    shortNames: ['ip'],
    rules: { printer: ipAddressPrinter, describe: describeIPAddressObject },
  }),
  // pkg/registry/networking/networkpolicy (sim/registry/networking/networkpolicies/): stored
  // only; the CNI plugin enforces it, if it enforces policy at all (sim/runtime/networkpolicy.ts).
  row({
    group: 'networking.k8s.io',
    kind: 'NetworkPolicy',
    schema: networkPolicySchema,
    resource: 'networkpolicies',
    namespaced: true,
    shortNames: ['netpol'],
    tracksGeneration: true,
    rules: {
      strategy: networkPolicyStrategy,
      printer: networkPolicyPrinter,
      describe: describeNetworkPolicyObject,
    },
  }),
  row({
    group: 'networking.k8s.io',
    kind: 'ServiceCIDR',
    schema: serviceCIDRSchema,
    resource: 'servicecidrs',
    namespaced: false,
    subresources: ['status'],
    rules: { printer: serviceCIDRPrinter, describe: describeServiceCIDRObject },
  }),
  // pkg/registry/policy/poddisruptionbudget (sim/registry/policy/poddisruptionbudgets/).
  row({
    group: 'policy',
    kind: 'PodDisruptionBudget',
    schema: podDisruptionBudgetSchema,
    resource: 'poddisruptionbudgets',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: ['status'],
    tracksGeneration: true,
    rules: {
      strategy: podDisruptionBudgetStrategy,
      printer: podDisruptionBudgetPrinter,
      describe: describePodDisruptionBudgetObject,
    },
  }),
];

/** ServedRow is any row of the table, with its object type and plural. */
type ServedRow = (typeof API_RESOURCES)[number];
type ObjectOf<T> = T extends APIResource<infer O, string> ? O : never;
type StoredName<T> =
  T extends APIResource<infer O, infer R> ? ([O] extends [never] ? never : R) : never;

/** AnyObject is an object of any kind the table serves (each row's schema names its type). */
export type AnyObject = ObjectOf<ServedRow>;

/** ResourceName is the lower-case plural of a stored kind, as in REST paths and `kubectl get`. */
export type ResourceName = StoredName<ServedRow>;

/** apiVersionOf returns "v1" or "group/v1". */
export function apiVersionOf(r: APIResource): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** qualifiedResource returns the GroupResource string errors use: "deployments.apps". */
export function qualifiedResource(r: APIResource): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

/** qualifiedKind returns Kind.group as NewInvalid prints it: "Deployment.apps", "Pod". */
export function qualifiedKind(r: APIResource): string {
  return r.group ? `${r.kind}.${r.group}` : r.kind;
}

/** groupKindString is schema.GroupKind.String() lower-cased: "pod", "deployment.apps". */
export function groupKindString(r: APIResource): string {
  return qualifiedKind(r).toLowerCase();
}

/**
 * apiResource returns the row of a served resource by its plural name (the row that stores it,
 * when two groups serve the plural).
 */
export function apiResource(resource: string): APIResource | undefined {
  return byResource.get(resource);
}

const byResource = new Map<string, APIResource>(
  API_RESOURCES.filter((r) => r.sharesStorageWith === undefined).map((r) => [r.resource, r]),
);

/** resourcesInCategory lists a category's resources in discovery order ("all" for get all). */
export function resourcesInCategory(category: string): APIResource[] {
  return API_RESOURCES.filter((r) => r.categories.includes(category));
}

/** ResolveError is a resource name the server does not serve. */
export class ResolveError extends Error {}

/**
 * resolveResource maps what a user typed to a resource, as kubectl's RESTMapper over discovery
 * does (restmapper.DeferredDiscoveryRESTMapper, shortcut expansion): plural, singular, short
 * name or kind, optionally qualified with ".group" or ".version.group".
 */
export function resolveResource(typed: string): APIResource {
  const s = typed.toLowerCase();
  for (const t of API_RESOURCES) {
    const names = [t.resource, t.singular, ...t.shortNames];
    for (const n of names) {
      if (s === n) return t;
      if (t.group && (s === `${n}.${t.group}` || s === `${n}.${t.version}.${t.group}`)) return t;
      if (!t.group && s === `${n}.${t.version}`) return t;
    }
  }
  throw new ResolveError(`the server doesn't have a resource type "${typed}"`);
}

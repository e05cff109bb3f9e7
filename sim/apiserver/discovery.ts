// Mirrors kube-apiserver's discovery documents (/api/v1 and /apis/<group>/<version>, built by
// staging/src/k8s.io/apiserver/pkg/endpoints/installer.go from each resource's REST storage:
// name, singularName, namespaced, kind, verbs, shortNames, categories) for the resources the
// simulator serves. API_RESOURCES is the only list of resources: kube-apiserver's storage
// (registry.ts), kubectl's name resolution (the RESTMapper, resolveResource below), `kubectl
// api-resources` and `kubectl get all` all read it. Adding a kind is one row here plus its folder
// (see sim/README.md, "Adding a kind").
// Each row points at its kind's rules (strategy and printer) in sim/registry/<group>/<resource>/.
// Simplification: kubectl reads this table directly instead of GETting /api and /apis (client-go's
// cached discovery), so no discovery requests appear in the trace.

/** APIResource is one row of discovery (metav1.APIResource), with what storage needs. */
export interface APIResource {
  /** group is the API group; "" for the core group. */
  group: string;
  version: string;
  kind: string;
  /** resource is the lower-case plural, as in REST paths: "pods", "deployments". */
  resource: string;
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

interface Row {
  group?: string;
  kind: string;
  resource: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs?: string[];
  subresources?: string[];
  tracksGeneration?: boolean;
  /** etcd names the etcd directory when it is not the resource; false when not stored. */
  etcd?: string | false;
  rules: KindRules;
}

function row(r: Row): APIResource {
  const out: APIResource = {
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
  return out;
}

/**
 * API_RESOURCES are the served resources in discovery order: the core group first, then the
 * groups alphabetically, resources alphabetically within a group (as aggregated discovery lists
 * them). `kubectl get all` expands the "all" category in this order.
 */
export const API_RESOURCES: readonly APIResource[] = [
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
    resource: 'events',
    namespaced: true,
    shortNames: ['ev'],
    rules: { strategy: eventStrategy, printer: eventPrinter },
  }),
  // pkg/registry/core/namespace/storage: no DeleteCollection.
  row({
    kind: 'Namespace',
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
    resource: 'nodes',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
    etcd: 'minions',
    rules: { strategy: nodeStrategy, printer: nodePrinter, describe: describeNodeObject },
  }),
  row({
    kind: 'Pod',
    resource: 'pods',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['binding', 'eviction', 'exec', 'log', 'status'],
    rules: { strategy: podStrategy, printer: podPrinter, describe: describePodObject },
  }),
  row({
    kind: 'ServiceAccount',
    resource: 'serviceaccounts',
    namespaced: true,
    shortNames: ['sa'],
    rules: { printer: serviceAccountPrinter, describe: describeServiceAccountObject },
  }),
  row({
    kind: 'Service',
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
    resource: 'leases',
    namespaced: true,
    rules: { printer: leasePrinter },
  }),
  row({
    group: 'discovery.k8s.io',
    kind: 'EndpointSlice',
    resource: 'endpointslices',
    namespaced: true,
    rules: { printer: endpointSlicePrinter, describe: describeEndpointSliceObject },
  }),
  // pkg/registry/policy/poddisruptionbudget (sim/registry/policy/poddisruptionbudgets/).
  row({
    group: 'policy',
    kind: 'PodDisruptionBudget',
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

/** apiResource returns the row of a served resource by its plural name. */
export function apiResource(resource: string): APIResource | undefined {
  return byResource.get(resource);
}

const byResource = new Map(API_RESOURCES.map((r) => [r.resource, r]));

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

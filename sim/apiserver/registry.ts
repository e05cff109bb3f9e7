// The resources kube-apiserver serves, with the facts its REST storage needs: kind, group and
// version, whether namespaced, whether a status subresource exists, and the etcd key layout
// (/registry/<resource>/<namespace>/<name>, as staging/src/k8s.io/apiserver/pkg/registry/generic).

import type { ResourceName } from '../api/types.ts';

export interface ResourceInfo {
  resource: ResourceName;
  kind: string;
  group: string;
  version: string;
  namespaced: boolean;
  hasStatus: boolean;
  /** generation is bumped on spec changes (apps/v1 workloads). */
  tracksGeneration: boolean;
  /** etcdPrefix is the key prefix; upstream stores Deployments under /registry/deployments/. */
  etcdPrefix: string;
}

function info(
  resource: ResourceName,
  kind: string,
  group: string,
  namespaced: boolean,
  hasStatus: boolean,
  tracksGeneration = false,
  etcdName: string = resource,
): ResourceInfo {
  return { resource, kind, group, version: 'v1', namespaced, hasStatus, tracksGeneration, etcdPrefix: `/registry/${etcdName}/` };
}

export const resources: Record<ResourceName, ResourceInfo> = {
  pods: info('pods', 'Pod', '', true, true),
  nodes: info('nodes', 'Node', '', false, true, false, 'minions'),
  services: info('services', 'Service', '', true, true, false, 'services/specs'),
  events: info('events', 'Event', '', true, false),
  namespaces: info('namespaces', 'Namespace', '', false, true),
  serviceaccounts: info('serviceaccounts', 'ServiceAccount', '', true, false),
  configmaps: info('configmaps', 'ConfigMap', '', true, false),
  deployments: info('deployments', 'Deployment', 'apps', true, true, true),
  replicasets: info('replicasets', 'ReplicaSet', 'apps', true, true, true),
  daemonsets: info('daemonsets', 'DaemonSet', 'apps', true, true, true),
  endpointslices: info('endpointslices', 'EndpointSlice', 'discovery.k8s.io', true, false),
  leases: info('leases', 'Lease', 'coordination.k8s.io', true, false),
};

/** apiVersionOf returns "v1" or "group/v1". */
export function apiVersionOf(r: ResourceInfo): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** qualifiedResource returns the GroupResource string errors use: "deployments.apps". */
export function qualifiedResource(r: ResourceInfo): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

/** qualifiedKind returns Kind.group as NewInvalid prints it: "Deployment.apps", "Pod". */
export function qualifiedKind(r: ResourceInfo): string {
  return r.group ? `${r.kind}.${r.group}` : r.kind;
}

const byKind = new Map<string, ResourceInfo>(Object.values(resources).map((r) => [r.kind, r]));

/** resourceForKind finds the resource serving a kind (apiVersion checked by the caller). */
export function resourceForKind(kind: string): ResourceInfo | undefined {
  return byKind.get(kind);
}

/** keyFor builds the etcd key of an object. */
export function keyFor(r: ResourceInfo, namespace: string | undefined, name: string): string {
  return r.namespaced ? `${r.etcdPrefix}${namespace}/${name}` : `${r.etcdPrefix}${name}`;
}

/** objectKey is the cache key client-go uses: namespace/name, or name when cluster-scoped. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

// The resources kube-apiserver stores, with the facts its REST storage needs: kind, group and
// version, whether namespaced, whether a status subresource exists, and the etcd key layout
// (/registry/<resource>/<namespace>/<name>, as staging/src/k8s.io/apiserver/pkg/registry/generic).
// Every fact comes from the discovery table (discovery.ts); this module only indexes it.

import type { ResourceName } from '../api/types.ts';
import { API_RESOURCES, type APIResource } from './discovery.ts';

export { apiVersionOf, qualifiedKind, qualifiedResource } from './discovery.ts';

/** ResourceInfo is a stored resource's discovery row. */
export interface ResourceInfo extends APIResource {
  resource: ResourceName;
  /** hasStatus: the resource has a status subresource (spec and status are written apart). */
  hasStatus: boolean;
  etcdPrefix: string;
}

/**
 * resources are the stored resources (every row with an etcd prefix that owns its storage), by
 * plural name.
 */
export const resources = Object.fromEntries(
  API_RESOURCES.filter((r) => r.etcdPrefix !== undefined && r.sharesStorageWith === undefined).map(
    (r) => [r.resource, { ...r, hasStatus: r.subresources.includes('status') } as ResourceInfo],
  ),
) as Record<ResourceName, ResourceInfo>;

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

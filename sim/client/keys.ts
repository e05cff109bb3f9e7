// Mirrors staging/src/k8s.io/client-go/tools/cache/store.go MetaNamespaceKeyFunc and
// SplitMetaNamespaceKey: cache and work-queue keys are "namespace/name" (or "name").

import type { KubeObject } from '../api/types.ts';

export function metaNamespaceKey(o: Pick<KubeObject, 'metadata'>): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
}

export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

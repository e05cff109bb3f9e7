// Mirrors pkg/registry/core/namespace/strategy.go (PrepareForCreate: phase Active and the
// "kubernetes" finalizer) and SetDefaults_Namespace (pkg/apis/core/v1/defaults.go: the immutable
// kubernetes.io/metadata.name label, on create and update).

import type { AnyObject, Namespace } from '../../../api/types.ts';
import type { Strategy } from '../../rules.ts';

const NAMESPACE_FIELD_LABELS: ReadonlySet<string> = new Set(['status.phase', 'metadata.name']);

/** namespaceStrategy is the Namespace's REST strategy. */
export const namespaceStrategy: Strategy = {
  defaults: defaultNamespace,
  prepareForCreate: prepareNamespaceForCreate,
  nameIsDNSLabel: true,
  fieldLabels: { labels: NAMESPACE_FIELD_LABELS },
  selectableField: (o, field) =>
    field === 'status.phase' ? ((o as Namespace).status?.phase ?? '') : '',
};

function defaultNamespace(obj: AnyObject): void {
  obj.metadata.labels = {
    ...obj.metadata.labels,
    'kubernetes.io/metadata.name': obj.metadata.name,
  };
}

function prepareNamespaceForCreate(obj: AnyObject): void {
  const ns = obj as Namespace;
  ns.status = { phase: 'Active' };
  const finalizers = ns.spec?.finalizers ?? [];
  ns.spec = {
    ...ns.spec,
    finalizers: finalizers.includes('kubernetes') ? finalizers : [...finalizers, 'kubernetes'],
  };
}

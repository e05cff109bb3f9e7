// The Go types kube-apiserver decodes request bodies into, as tables of JSON fields: what
// apiserver/decode.ts checks a body against (a wrong JSON type, an unknown field). Each kind's
// folder (sim/registry/<group>/<resource>/types.ts) declares its top-level type with kindSchema
// from the structs below, as staging/src/k8s.io/api/<group>/v1/types.go declares it from
// metav1.ObjectMeta and the shared core/v1 structs; its discovery row points at it.
//
// Simplification: only the structs a learner writes are tables. Structs the simulator does not
// model (probes, volume sources, security contexts, affinity terms, status ...) are accepted as
// any JSON object (opaque), so an unknown field inside them is not reported.

/** Schema is one Go type as JSON decodes it. */
export type Schema =
  | { k: 'string'; go: string }
  | { k: 'int'; go: 'int32' | 'int64' }
  | { k: 'bool' }
  | { k: 'map'; go: string; value: Schema }
  | { k: 'list'; go: string; item: Schema }
  | StructSchema
  | { k: 'object'; go: string }
  | { k: 'intstr' }
  | { k: 'quantity' }
  | { k: 'any' };

/** StructSchema is a Go struct: its JSON fields (a thunk, so structs may refer to each other). */
export interface StructSchema {
  k: 'struct';
  name: string;
  fields: () => Record<string, Schema>;
  /** value marks a field that is not a pointer in Go: absent or null, it decodes to {}. */
  value?: boolean;
}

/**
 * KindSchema is a kind's top-level type. O is the TypeScript type of its objects (never
 * read at run time): the discovery row that points at the schema serves objects of type O.
 */
export interface KindSchema<O> extends StructSchema {
  readonly object?: O;
}

export const str = (go = 'string'): Schema => ({ k: 'string', go });
export const i32: Schema = { k: 'int', go: 'int32' };
export const i64: Schema = { k: 'int', go: 'int64' };
export const bool: Schema = { k: 'bool' };
export const any: Schema = { k: 'any' };
/** opaque is a struct the simulator does not model: any JSON object (or null) is accepted. */
export const opaque = (name: string): Schema => ({ k: 'object', go: `v1.${name}` });
export const opaques = (name: string): Schema => ({
  k: 'list',
  go: `[]v1.${name}`,
  item: opaque(name),
});
export const intstr: Schema = { k: 'intstr' };
export const quantity: Schema = { k: 'quantity' };
export const strings: Schema = { k: 'list', go: '[]string', item: str() };
export const stringMap: Schema = { k: 'map', go: 'map[string]string', value: str() };
export const resourceList: Schema = { k: 'map', go: 'v1.ResourceList', value: quantity };
export const list = (item: StructSchema): Schema => ({ k: 'list', go: `[]v1.${item.name}`, item });
export const struct = (name: string, fields: () => Record<string, Schema>): StructSchema => ({
  k: 'struct',
  name,
  fields,
});
/** byValue marks a struct field that is not a pointer in Go: absent or null, it decodes to {}. */
export const byValue = (t: StructSchema): Schema => ({ ...t, value: true });

// ---- meta/v1 ----

const ownerReference = struct('OwnerReference', () => ({
  apiVersion: str(),
  kind: str(),
  name: str(),
  uid: str('types.UID'),
  controller: bool,
  blockOwnerDeletion: bool,
}));

export const objectMeta = struct('ObjectMeta', () => ({
  name: str(),
  generateName: str(),
  namespace: str(),
  selfLink: str(),
  uid: str('types.UID'),
  resourceVersion: str(),
  generation: i64,
  // Simplification: timestamps are set by kube-apiserver; their format is not checked here.
  creationTimestamp: any,
  deletionTimestamp: any,
  deletionGracePeriodSeconds: i64,
  labels: stringMap,
  annotations: stringMap,
  ownerReferences: list(ownerReference),
  finalizers: strings,
  managedFields: opaques('ManagedFieldsEntry'),
}));

const labelSelectorRequirement = struct('LabelSelectorRequirement', () => ({
  key: str(),
  operator: str('v1.LabelSelectorOperator'),
  values: strings,
}));

export const labelSelector = struct('LabelSelector', () => ({
  matchLabels: stringMap,
  matchExpressions: list(labelSelectorRequirement),
}));

// ---- core/v1 structs more than one kind holds ----

export const localObjectReference = struct('LocalObjectReference', () => ({ name: str() }));

/**
 * kindSchema is a kind's top-level type: TypeMeta and ObjectMeta inlined, then its own fields.
 * O is the TypeScript type of its objects.
 */
export function kindSchema<O>(kind: string, fields: Record<string, Schema>): KindSchema<O> {
  return struct(kind, () => ({
    apiVersion: str(),
    kind: str(),
    metadata: byValue(objectMeta),
    ...fields,
  }));
}

// Mirrors staging/src/k8s.io/apimachinery/pkg/fields/selector.go (ParseSelector: terms split at
// unescaped commas and sorted, the operators !=, == and =, value escaping, and its errors), the
// field label conversion funcs kube-apiserver's list handler applies with Selector.Transform
// (pkg/apis/core/v1/conversion.go, runtime.DefaultMetaV1FieldSelectorConversion), and the
// selectable fields of each registry strategy (pkg/registry/core/pod/strategy.go
// ToSelectableFields, core/event, core/node, core/namespace, core/service, and
// generic.ObjectMetaFieldsSet for the rest).

import type {
  AnyObject,
  Event,
  Namespace,
  Node,
  Pod,
  ResourceName,
  Service,
} from '../api/types.ts';

/** FieldSet is fields.Set: field -> value. A field absent from the set reads as "". */
export type FieldSet = Readonly<Record<string, string>>;

/** FieldRequirement is fields.Requirement (selection.Equals is "=", NotEquals "!="). */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** TransformFunc is fields.TransformFunc: it may rename a field or refuse it (by throwing). */
export type TransformFunc = (field: string, value: string) => { field: string; value: string };

/**
 * FieldSelector is fields.Selector as parsed: an AND of terms (hasTerm is "=", notHasTerm "!=").
 * No terms selects everything (fields.Everything()).
 */
export class FieldSelector {
  readonly requirements: readonly FieldRequirement[];

  constructor(requirements: readonly FieldRequirement[]) {
    this.requirements = requirements;
  }

  /** matches reports whether every term holds; get reads a field ("" when the set lacks it). */
  matches(get: (field: string) => string): boolean {
    for (const r of this.requirements) {
      const v = get(r.field);
      if (r.operator === '=' ? v !== r.value : v === r.value) return false;
    }
    return true;
  }

  /** empty mirrors Selector.Empty: no term restricts the selection. */
  empty(): boolean {
    return this.requirements.length === 0;
  }

  /** requiresExactMatch mirrors Selector.RequiresExactMatch: the value an "=" term demands. */
  requiresExactMatch(field: string): string | undefined {
    for (const r of this.requirements) if (r.operator === '=' && r.field === field) return r.value;
    return undefined;
  }

  /** transform mirrors Selector.Transform: fn is applied to every term in order; it throws to refuse. */
  transform(fn: TransformFunc): FieldSelector {
    return new FieldSelector(
      this.requirements.map((r) => {
        const t = fn(r.field, r.value);
        return { field: t.field, operator: r.operator, value: t.value };
      }),
    );
  }

  /** toString mirrors Selector.String (values are not re-escaped, as upstream). */
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${r.value}`).join(',');
  }
}

/** oneTermEqualSelector mirrors fields.OneTermEqualSelector. */
export function oneTermEqualSelector(field: string, value: string): FieldSelector {
  return new FieldSelector([{ field, operator: '=', value }]);
}

// splitTerms mirrors splitTerms: commas split terms unless escaped with a backslash (the
// backslash stays in the term).
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

// TERM_OPERATORS are tried at each position in this order, so "==" never leaves "=" in the value.
const TERM_OPERATORS = ['!=', '==', '='] as const;

// splitTerm mirrors splitTerm: the first operator found splits the term (no escaping in the field).
function splitTerm(
  term: string,
): { lhs: string; op: (typeof TERM_OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i))
        return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/**
 * unescapeValue mirrors fields.UnescapeValue: \\, \, and \= stand for themselves; any other
 * escape, a trailing backslash, or a bare , or = is an error (the rune printed as its number,
 * as Go's %v prints a rune).
 */
export function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=')
        throw new Error(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=')
      throw new Error(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new Error('invalid field selector: invalid escape sequence: \\');
  return out;
}

/**
 * parseFieldSelector mirrors fields.ParseSelector. Terms are sorted (Go's sort.Strings, byte
 * order), so a later check meets them in that order; empty terms are skipped.
 */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new Error(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeValue(t.rhs);
    reqs.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value });
  }
  return new FieldSelector(reqs);
}

// ---- kube-apiserver's field label conversions ----

// labelNotSupported is the error of the conversion funcs pkg/apis/core/v1 registers.
function labelNotSupported(label: string): Error {
  return new Error(`field label not supported: ${label}`);
}

// CONVERTIBLE are the labels each core/v1 kind's registered conversion func accepts
// (pkg/apis/core/v1/conversion.go); a kind without one gets DefaultMetaV1FieldSelectorConversion.
const CONVERTIBLE: Partial<Record<ResourceName, ReadonlySet<string>>> = {
  pods: new Set([
    'metadata.name',
    'metadata.namespace',
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
  ]),
  nodes: new Set(['metadata.name', 'spec.unschedulable']),
  events: new Set([
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
    'metadata.namespace',
    'metadata.name',
  ]),
  namespaces: new Set(['status.phase', 'metadata.name']),
  services: new Set(['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type']),
  // apps/v1 registers none: ReplicaSet's strategy selects on status.replicas, but v1.34 answers
  // that it "is not a known field selector" (kubernetes/kubernetes#135136), and so do we.
};

/**
 * convertFieldLabel mirrors Scheme.ConvertFieldLabel for the kind a resource serves: the
 * (possibly renamed) label, or an error whose text kube-apiserver returns as 400 BadRequest.
 */
export function convertFieldLabel(
  resource: string,
  label: string,
  value: string,
): { field: string; value: string } {
  const allowed = CONVERTIBLE[resource as ResourceName];
  if (!allowed) {
    if (label === 'metadata.name' || label === 'metadata.namespace') return { field: label, value };
    throw new Error(
      `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
    );
  }
  if (allowed.has(label)) return { field: label, value };
  // Old v1 clients send spec.host for spec.nodeName.
  if (resource === 'pods' && label === 'spec.host') return { field: 'spec.nodeName', value };
  throw labelNotSupported(label);
}

// ---- selectable fields ----

// CLUSTER_SCOPED are the resources whose ObjectMetaFieldsSet has no metadata.namespace.
const CLUSTER_SCOPED = new Set<string>(['nodes', 'namespaces', 'componentstatuses']);

/**
 * selectableField reads one field of an object as its registry strategy's ToSelectableFields
 * would set it ("" when the set lacks it, as fields.Set.Get).
 */
export function selectableField(resource: string, o: AnyObject, field: string): string {
  const m = o.metadata;
  if (field === 'metadata.name') return m.name ?? '';
  if (field === 'metadata.namespace')
    return CLUSTER_SCOPED.has(resource) ? '' : (m.namespace ?? '');
  switch (resource) {
    case 'pods': {
      const p = o as Pod;
      switch (field) {
        case 'spec.nodeName':
          return p.spec?.nodeName ?? '';
        case 'spec.restartPolicy':
          return p.spec?.restartPolicy ?? '';
        case 'spec.schedulerName':
          return p.spec?.schedulerName ?? '';
        case 'spec.serviceAccountName':
          return p.spec?.serviceAccountName ?? '';
        case 'spec.hostNetwork':
          return p.spec?.hostNetwork ? 'true' : 'false';
        case 'status.phase':
          return p.status?.phase ?? '';
        // The first of status.podIPs; status.podIPs itself converts but is not in the set.
        case 'status.podIP':
          return p.status?.podIPs?.[0]?.ip ?? '';
        case 'status.nominatedNodeName':
          return p.status?.nominatedNodeName ?? '';
      }
      return '';
    }
    case 'events': {
      const e = o as Event;
      const io = e.involvedObject ?? {};
      switch (field) {
        case 'involvedObject.kind':
          return io.kind ?? '';
        case 'involvedObject.namespace':
          return io.namespace ?? '';
        case 'involvedObject.name':
          return io.name ?? '';
        case 'involvedObject.uid':
          return io.uid ?? '';
        case 'involvedObject.apiVersion':
          return io.apiVersion ?? '';
        case 'involvedObject.resourceVersion':
          return io.resourceVersion ?? '';
        case 'involvedObject.fieldPath':
          return io.fieldPath ?? '';
        case 'reason':
          return e.reason ?? '';
        case 'reportingComponent':
          return e.reportingComponent ?? '';
        // source is source.component, or the reporting controller when that is empty.
        case 'source':
          return e.source?.component || (e.reportingComponent ?? '');
        case 'type':
          return e.type ?? '';
      }
      return '';
    }
    case 'nodes':
      return field === 'spec.unschedulable' ? String((o as Node).spec?.unschedulable === true) : '';
    case 'namespaces':
      return field === 'status.phase' ? ((o as Namespace).status?.phase ?? '') : '';
    case 'services': {
      const s = o as Service;
      if (field === 'spec.clusterIP') return s.spec?.clusterIP ?? '';
      if (field === 'spec.type') return s.spec?.type ?? '';
      return '';
    }
  }
  return '';
}

/**
 * listFieldSelector is what kube-apiserver's list and watch handlers do with a fieldSelector
 * parameter: parse it (DecodeParameters) and convert each label for the resource's kind
 * (Transform). Either step's error is the message of a 400 BadRequest.
 */
export function listFieldSelector(resource: string, selector: string): FieldSelector {
  return parseFieldSelector(selector).transform((field, value) =>
    convertFieldLabel(resource, field, value),
  );
}

// Mirrors staging/src/k8s.io/apimachinery/pkg/fields/selector.go (ParseSelector: terms split at
// unescaped commas and sorted, the operators !=, == and =, value escaping, and its errors), the
// field label conversion funcs kube-apiserver's list handler applies with Selector.Transform
// (pkg/apis/core/v1/conversion.go, runtime.DefaultMetaV1FieldSelectorConversion), and the
// selectable fields of each registry strategy (ToSelectableFields, over
// generic.ObjectMetaFieldsSet). Each kind's labels and fields are in its strategy (sim/registry/).

import type { AnyObject } from '../api/types.ts';
import { apiResource } from './discovery.ts';

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

/**
 * convertFieldLabel mirrors Scheme.ConvertFieldLabel for the kind a resource serves: the
 * (possibly renamed) label, or an error whose text kube-apiserver returns as 400 BadRequest.
 */
export function convertFieldLabel(
  resource: string,
  label: string,
  value: string,
): { field: string; value: string } {
  // Each kind's registered conversion func is its strategy's fieldLabels (sim/registry/).
  const conv = apiResource(resource)?.rules.strategy?.fieldLabels;
  if (!conv) {
    if (label === 'metadata.name' || label === 'metadata.namespace') return { field: label, value };
    throw new Error(
      `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
    );
  }
  if (conv.labels.has(label)) return { field: label, value };
  const renamed = conv.renamed?.[label];
  if (renamed !== undefined) return { field: renamed, value };
  throw labelNotSupported(label);
}

// ---- selectable fields ----

/**
 * selectableField reads one field of an object as its registry strategy's ToSelectableFields
 * would set it ("" when the set lacks it, as fields.Set.Get): metadata.name, metadata.namespace
 * for namespaced resources (generic.ObjectMetaFieldsSet), and the kind's own fields.
 */
export function selectableField(resource: string, o: AnyObject, field: string): string {
  const m = o.metadata;
  if (field === 'metadata.name') return m.name ?? '';
  const r = apiResource(resource);
  if (field === 'metadata.namespace') return r?.namespaced ? (m.namespace ?? '') : '';
  return r?.rules.strategy?.selectableField?.(o, field) ?? '';
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

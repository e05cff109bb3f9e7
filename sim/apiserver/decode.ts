// Strict decoding of a request body into the Go types, as kube-apiserver does before anything
// else: a value of the wrong JSON type is a 400 BadRequest, and with `fieldValidation=Strict`
// (what kubectl apply and create send by default since v1.27) so is a field the type does not have.
//
// Upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (decode, then
// "<Kind> in version "v1" cannot be handled as a <Kind>: <err>"),
// staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go (strict errors after a
// successful decode), sigs.k8s.io/json (a fork of encoding/json: "json: cannot unmarshal <value>
// into Go struct field <Struct>.<json path> of type <type>", the first such error wins, and
// unknown fields are reported with their index path), resource.Quantity.UnmarshalJSON and
// intstr.IntOrString.UnmarshalJSON (errors that stop decoding at once). A quantity decodes to its
// canonical text (resource.Quantity round-trips through ParseQuantity and MarshalJSON).
//
// The Go types are the discovery rows' schemas: each kind's folder declares its own
// (sim/registry/<group>/<resource>/types.ts, from the shared structs in api/schema.ts).
// Simplification: structs the simulator does not model (probes, volume sources, security
// contexts, affinity terms, status ...) are accepted as any JSON object, so an unknown field
// inside them is not reported (api/schema.ts).

import type { Schema as T, StructSchema } from '../api/schema.ts';
import { canonicalQuantity } from '../api/quantity.ts';
import { API_RESOURCES } from './discovery.ts';
import { newBadRequest } from './errors.ts';

/**
 * KINDS are the Go types by kind, from the discovery rows' schemas (each kind's folder's
 * types.ts); the first row of a kind wins (core/v1 Event before events.k8s.io/v1).
 */
const KINDS = new Map<string, StructSchema>();
for (const r of API_RESOURCES) if (r.schema && !KINDS.has(r.kind)) KINDS.set(r.kind, r.schema);

// ---- the decoder ----

/** Fatal is an error that stops decoding at once, as an Unmarshaler's error does. */
class Fatal extends Error {}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  return 'string';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

// Quantity.UnmarshalJSON → ParseQuantity (staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go).
const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const SUFFIXES = new Set([
  '',
  'Ki',
  'Mi',
  'Gi',
  'Ti',
  'Pi',
  'Ei',
  'n',
  'u',
  'm',
  'k',
  'M',
  'G',
  'T',
  'P',
  'E',
]);

/** quantityError returns ParseQuantity's error for a value's JSON text, or undefined. */
export function quantityError(v: unknown): string | undefined {
  const text = typeof v === 'string' ? v.trim() : JSON.stringify(v);
  const m = new RegExp(SPLIT_RE).exec(text);
  if (!m) return `quantities must match the regular expression '${SPLIT_RE}'`;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(m[1])) return 'unable to parse numeric part of quantity';
  if (!SUFFIXES.has(m[2]) && !/^[eE][-+]?\d+$/.test(m[2]))
    return "unable to parse quantity's suffix";
  return undefined;
}

/** zero is Go's zero value of a type, as a null list item or map value decodes to. */
function zero(t: T): unknown {
  switch (t.k) {
    case 'string':
      return '';
    case 'int':
    case 'intstr':
      return 0;
    case 'bool':
      return false;
    case 'quantity':
      return '0';
    case 'struct':
      return empty(t);
    case 'object':
    case 'map':
      return {};
    default:
      return null;
  }
}

/** empty is a value struct's zero value as re-encoded: {} holding its own value structs. */
function empty(t: StructSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(t.fields()))
    if (f.k === 'struct' && f.value) out[k] = empty(f);
  return out;
}

class Decoder {
  typeError?: string;
  readonly unknown: string[] = [];

  /**
   * value checks v against t and returns it as Go would re-encode it: a null field is dropped
   * (the zero value), a null list item or map value becomes the zero value. structName and
   * jsonPath are encoding/json's error context: the innermost struct and the dotted field names
   * (no indices); path is the strict-error path.
   */
  value(v: unknown, t: T, structName: string, jsonPath: string[], path: string): unknown {
    if (v === null || v === undefined || t.k === 'any') return v;
    switch (t.k) {
      case 'string':
        if (typeof v !== 'string') this.mismatch(jsonKind(v), t.go, structName, jsonPath);
        return v;
      case 'bool':
        if (typeof v !== 'boolean') this.mismatch(jsonKind(v), 'bool', structName, jsonPath);
        return v;
      case 'int':
        this.int(v, t.go, structName, jsonPath);
        return v;
      case 'intstr':
        // IntOrString: a JSON string is kept as a string; anything else is decoded as an int32,
        // and that error stops decoding.
        if (typeof v !== 'string') this.int(v, 'int32', structName, jsonPath, true);
        return v;
      case 'quantity': {
        const err = quantityError(v);
        if (err) throw new Fatal(err);
        // Quantity.UnmarshalJSON then MarshalJSON: the value is held in canonical form.
        return canonicalQuantity(v as string | number) ?? v;
      }
      case 'object':
        if (!isObject(v)) this.mismatch(jsonKind(v), t.go, structName, jsonPath);
        return v;
      case 'map': {
        if (!isObject(v)) return this.mismatch(jsonKind(v), t.go, structName, jsonPath);
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v))
          out[k] =
            x === null
              ? zero(t.value)
              : this.value(x, t.value, structName, jsonPath, `${path}[${k}]`);
        return out;
      }
      case 'list':
        if (!Array.isArray(v)) return this.mismatch(jsonKind(v), t.go, structName, jsonPath);
        return v.map((x, i) =>
          x === null ? zero(t.item) : this.value(x, t.item, structName, jsonPath, `${path}[${i}]`),
        );
      case 'struct': {
        if (!isObject(v)) return this.mismatch(jsonKind(v), `v1.${t.name}`, structName, jsonPath);
        const fields = t.fields();
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) {
          const f = Object.hasOwn(fields, k) ? fields[k] : undefined;
          const p = path ? `${path}.${k}` : k;
          if (!f) this.unknown.push(p);
          else if (x !== null && x !== undefined)
            out[k] = this.value(x, f, t.name, [...jsonPath, k], p);
        }
        for (const [k, f] of Object.entries(fields))
          if (f.k === 'struct' && f.value && out[k] === undefined) out[k] = empty(f);
        return out;
      }
    }
  }

  private int(v: unknown, go: string, structName: string, jsonPath: string[], fatal = false): void {
    let value: string | undefined;
    if (typeof v !== 'number') value = jsonKind(v);
    else {
      const limit = go === 'int32' ? 2 ** 31 : 2 ** 63;
      if (!Number.isInteger(v) || v < -limit || v >= limit) value = `number ${String(v)}`;
    }
    if (value === undefined) return;
    if (fatal) throw new Fatal(unmarshalError(value, go, structName, jsonPath));
    this.mismatch(value, go, structName, jsonPath);
  }

  private mismatch(value: string, go: string, structName: string, jsonPath: string[]): undefined {
    this.typeError ??= unmarshalError(value, go, structName, jsonPath);
    return undefined;
  }
}

function unmarshalError(value: string, go: string, structName: string, jsonPath: string[]): string {
  return `json: cannot unmarshal ${value} into Go struct field ${structName}.${jsonPath.join('.')} of type ${go}`;
}

/** Decoded is a request body after decoding: the object as the server holds it, or why not. */
export type Decoded =
  { object: Record<string, unknown>; error?: undefined } | { error: string; object?: undefined };

/**
 * decode decodes a request body as its kind with strict field validation. The error is worded as
 * kube-apiserver words it; a kind without a field table is passed through unchanged.
 */
export function decode(obj: Record<string, unknown>): Decoded {
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const t = KINDS.get(kind);
  if (!t) return { object: obj };
  const d = new Decoder();
  let out: unknown;
  let err: string | undefined;
  try {
    out = d.value(obj, t, kind, [], '');
    err = d.typeError;
  } catch (e) {
    if (!(e instanceof Fatal)) throw e;
    err = e.message;
  }
  if (!err && d.unknown.length)
    err = `strict decoding error: ${d.unknown.map((p) => `unknown field "${p}"`).join(', ')}`;
  if (!err) return { object: out as Record<string, unknown> };
  const version =
    typeof obj.apiVersion === 'string'
      ? obj.apiVersion.slice(obj.apiVersion.indexOf('/') + 1)
      : 'v1';
  return { error: `${kind} in version "${version}" cannot be handled as a ${kind}: ${err}` };
}

/** decodeError returns decode's error, or undefined when obj decodes. */
export function decodeError(obj: Record<string, unknown>): string | undefined {
  return decode(obj).error;
}

/** decodeStrict returns the decoded object, or throws the 400 BadRequest kube-apiserver answers. */
export function decodeStrict(obj: Record<string, unknown>): Record<string, unknown> {
  const d = decode(obj);
  if (d.error !== undefined) throw newBadRequest(d.error);
  return d.object;
}

/**
 * knownFields lists the fields of the struct that holds the field at a strict-error path
 * ("spec.replica" → the fields of DeploymentSpec), so an author's typo can be matched with what
 * exists. Undefined when the kind or a step of the path is not modelled.
 */
export function knownFields(kind: string, path: string): string[] | undefined {
  let t: T | undefined = KINDS.get(kind);
  const parts = path.replace(/\[[^\]]*\]/g, '').split('.');
  parts.pop();
  for (const p of parts) {
    while (t && (t.k === 'list' || t.k === 'map')) t = t.k === 'list' ? t.item : t.value;
    if (!t || t.k !== 'struct') return undefined;
    t = Object.hasOwn(t.fields(), p) ? t.fields()[p] : undefined;
  }
  while (t && (t.k === 'list' || t.k === 'map')) t = t.k === 'list' ? t.item : t.value;
  return t && t.k === 'struct' ? Object.keys(t.fields()) : undefined;
}

// Mirrors the three patch types kube-apiserver's PATCH handler applies
// (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go): JSON patch (RFC 6902,
// evanphx/json-patch), JSON merge patch (RFC 7386) and strategic merge patch
// (staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go), which merges the lists a
// Go type tags with patchStrategy "merge" by their patchMergeKey and understands the directives
// $patch (replace, delete), $setElementOrder, $retainKeys and $deleteFromPrimitiveList.
// Simplification: the merge keys come from a table of the list fields the simulator's kinds have
// (patchMergeKey below), looked up by field name (and, for ports, by where the list sits), not
// from the Go struct tags.

import { deepClone, deepEqual } from '../api/clone.ts';

/** PatchType is the request's Content-Type, as types.PatchType in apimachinery. */
export type PatchType =
  | 'application/json-patch+json'
  | 'application/merge-patch+json'
  | 'application/strategic-merge-patch+json';

export const JSONPatchType: PatchType = 'application/json-patch+json';
export const MergePatchType: PatchType = 'application/merge-patch+json';
export const StrategicMergePatchType: PatchType = 'application/strategic-merge-patch+json';

type Obj = Record<string, unknown>;

function isMap(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// copy is a deep copy of JSON-shaped data (undefined-valued keys dropped, as JSON would).
const copy = deepClone;

/**
 * patchMergeKey is the patchMergeKey of the list at path (field names from the object's root),
 * or undefined for a list that strategic merge patch replaces whole (tolerations, taints, args).
 */
export function patchMergeKey(path: readonly string[]): string | undefined {
  const field = path[path.length - 1];
  switch (field) {
    case 'containers':
    case 'initContainers':
    case 'ephemeralContainers':
    case 'volumes':
    case 'env':
    case 'imagePullSecrets':
    case 'resourceClaims':
      return 'name';
    case 'volumeMounts':
      return 'mountPath';
    case 'volumeDevices':
      return 'devicePath';
    case 'ports': {
      // ContainerPort is merged by containerPort, ServicePort by port.
      const parent = path[path.length - 3];
      return parent === 'containers' ||
        parent === 'initContainers' ||
        parent === 'ephemeralContainers'
        ? 'containerPort'
        : 'port';
    }
    case 'ownerReferences':
      return 'uid';
    case 'conditions':
    case 'addresses':
      return 'type';
    case 'hostAliases':
    case 'podIPs':
    case 'hostIPs':
      return 'ip';
    default:
      return undefined;
  }
}

// primitiveMerge are the lists of scalars tagged patchStrategy "merge" (ObjectMeta.Finalizers).
const primitiveMerge = new Set(['finalizers']);

/**
 * strategicMergePatch applies a strategic merge patch to original and returns the result; the
 * arguments are not changed and the result shares nothing with them. path is where original
 * sits, from the object's root.
 */
export function strategicMergePatch(
  original: unknown,
  patch: unknown,
  path: readonly string[] = [],
): unknown {
  return applyStrategicMergePatch(copy(original), patch, path);
}

/**
 * applyStrategicMergePatch is strategicMergePatch without copying original: maps and lists along
 * the patch's paths are copied, everything else is shared with original (which must therefore be
 * treated as read-only, as kube-apiserver's stored objects are), and values from the patch are
 * copied.
 */
export function applyStrategicMergePatch(
  original: unknown,
  patch: unknown,
  path: readonly string[] = [],
): unknown {
  if (!isMap(patch)) return copy(patch);
  if (patch.$patch === 'replace') return stripDirectives(patch);
  if (patch.$patch === 'delete') return undefined;
  const base = isMap(original) ? original : {};
  const retain = patch.$retainKeys;
  // A copy that then loses keys would be a slow dictionary-mode object, so keys the patch
  // removes (null, or not retained) are left out of the copy instead of deleted from it.
  let removes = Array.isArray(retain);
  if (!removes)
    for (const k in patch) if (patch[k] === null && Object.hasOwn(base, k)) removes = true;
  let out: Obj;
  if (removes) {
    out = {};
    for (const k in base) {
      if (patch[k] === null) continue;
      if (Array.isArray(retain) && !retain.includes(k)) continue;
      out[k] = base[k];
    }
  } else out = { ...base };
  let orders: Map<string, unknown[]> | undefined;
  for (const k in patch) {
    const v = patch[k];
    if (v === null || v === undefined) continue;
    if (k.charCodeAt(0) === 36 /* $ */) {
      if (k.startsWith('$setElementOrder/')) {
        if (Array.isArray(v)) (orders ??= new Map()).set(k.slice('$setElementOrder/'.length), v);
      } else if (k.startsWith('$deleteFromPrimitiveList/')) {
        const f = k.slice('$deleteFromPrimitiveList/'.length);
        if (Array.isArray(out[f]) && Array.isArray(v))
          out[f] = (out[f] as unknown[]).filter((x) => !v.includes(x));
      }
      continue;
    }
    if (isMap(v)) {
      const merged = applyStrategicMergePatch(out[k], v, [...path, k]);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    } else if (Array.isArray(v)) {
      const merged = mergeList(out[k], v, [...path, k]);
      // A list the patch's deletions emptied is gone, as omitempty encodes an empty slice.
      if (merged.length === 0 && Array.isArray(out[k]) && (out[k] as unknown[]).length > 0)
        delete out[k];
      else out[k] = merged;
    } else out[k] = v;
  }
  if (orders)
    for (const [f, order] of orders)
      if (Array.isArray(out[f]))
        out[f] = ordered(out[f] as unknown[], order, patchMergeKey([...path, f]));
  return out;
}

// mergeList merges a patch's list into the original one: by merge key, as a set of scalars, or
// by replacing it. Items the patch does not touch are shared with the original list.
function mergeList(original: unknown, patch: unknown[], path: readonly string[]): unknown[] {
  const field = path[path.length - 1];
  const cur = Array.isArray(original) ? original : [];
  const key = patchMergeKey(path);
  if (key && patch.every(isMap)) {
    const items = patch as Obj[];
    if (items.some((p) => p.$patch === 'replace'))
      return items.filter((p) => p.$patch !== 'replace').map(stripDirectives);
    const out = [...cur];
    for (const p of items) {
      const i = out.findIndex((x) => isMap(x) && x[key] === p[key]);
      if (p.$patch === 'delete') {
        if (i >= 0) out.splice(i, 1);
      } else if (i >= 0) out[i] = applyStrategicMergePatch(out[i], p, path);
      else out.push(stripDirectives(p));
    }
    return out;
  }
  if (primitiveMerge.has(field)) {
    const out = [...cur];
    for (const v of patch) if (!out.includes(v)) out.push(v);
    return out;
  }
  return copy(patch);
}

// ordered puts a list's items in the order $setElementOrder gives; the others keep their place after.
function ordered(items: unknown[], order: unknown[], key: string | undefined): unknown[] {
  const raw = (x: unknown) => (key && isMap(x) ? x[key] : x);
  // The common case, a list already in that order, is returned as it is.
  if (items.length === order.length && items.every((x, i) => same(raw(x), raw(order[i]))))
    return items;
  const id = (x: unknown) => JSON.stringify(raw(x));
  const ids = order.map(id);
  const inOrder = [...items.filter((x) => ids.includes(id(x)))].sort(
    (a, b) => ids.indexOf(id(a)) - ids.indexOf(id(b)),
  );
  return [...inOrder, ...items.filter((x) => !ids.includes(id(x)))];
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isMap(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$')) out[k] = stripDirectives(x);
  return out;
}

/** JSONPatchError is a JSON patch that does not apply; kube-apiserver answers 422 with its message. */
export class JSONPatchError extends Error {}

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

// pointer splits an RFC 6901 JSON pointer into its reference tokens.
function pointer(p: string): string[] {
  if (p === '') return [];
  if (!p.startsWith('/')) throw new JSONPatchError(`invalid JSON pointer: ${p}`);
  return p
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

// parentOf walks to the container of the pointer's last token.
function parentOf(doc: unknown, tokens: string[], op: string, path: string): unknown {
  let cur = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isMap(cur)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined)
      throw new JSONPatchError(
        `${op} operation does not apply: doc is missing path: ${path}: missing value`,
      );
  }
  return cur;
}

function getAt(doc: unknown, path: string, op: string): unknown {
  const tokens = pointer(path);
  if (tokens.length === 0) return doc;
  const parent = parentOf(doc, tokens, op, path);
  const last = tokens[tokens.length - 1];
  const v = Array.isArray(parent) ? parent[Number(last)] : isMap(parent) ? parent[last] : undefined;
  if (v === undefined)
    throw new JSONPatchError(
      `${op} operation does not apply: doc is missing key: ${path}: missing value`,
    );
  return v;
}

function removeAt(doc: unknown, path: string, op: string): void {
  const tokens = pointer(path);
  const parent = parentOf(doc, tokens, op, path);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length)
      throw new JSONPatchError(
        `${op} operation does not apply: doc is missing key: ${path}: missing value`,
      );
    parent.splice(i, 1);
  } else if (isMap(parent) && Object.hasOwn(parent, last)) delete parent[last];
  else
    throw new JSONPatchError(
      `${op} operation does not apply: doc is missing key: ${path}: missing value`,
    );
}

function addAt(doc: Obj, path: string, value: unknown, op: string, replace: boolean): void {
  const tokens = pointer(path);
  const parent = parentOf(doc, tokens, op, path);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(i) || i < 0 || i > parent.length || (replace && i >= parent.length))
      throw new JSONPatchError(
        `${op} operation does not apply: doc is missing key: ${path}: missing value`,
      );
    if (replace) parent[i] = value;
    else parent.splice(i, 0, value);
  } else if (isMap(parent)) {
    if (replace && !Object.hasOwn(parent, last))
      throw new JSONPatchError(
        `replace operation does not apply: doc is missing key: ${path}: missing value`,
      );
    parent[last] = value;
  } else
    throw new JSONPatchError(
      `${op} operation does not apply: doc is missing path: ${path}: missing value`,
    );
}

/** applyJSONPatch applies an RFC 6902 JSON patch to a copy of doc and returns the copy. */
export function applyJSONPatch(doc: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch))
    throw new JSONPatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  // The document sits under a root key, so that an operation on "" (the whole document) has a parent.
  const out = { root: copy(doc) } as Obj;
  const at = (p: string) => `/root${p}`;
  try {
    applyOperations(out, patch as Operation[], at);
  } catch (e) {
    if (e instanceof JSONPatchError)
      throw new JSONPatchError(e.message.replaceAll(': /root', ': '));
    throw e;
  }
  return out.root;
}

function applyOperations(out: Obj, ops: Operation[], at: (p: string) => string): void {
  for (const raw of ops) {
    const { op, path } = raw;
    switch (op) {
      case 'add':
        addAt(out, at(path), copy(raw.value), op, false);
        break;
      case 'replace':
        addAt(out, at(path), copy(raw.value), op, true);
        break;
      case 'remove':
        removeAt(out, at(path), op);
        break;
      case 'move': {
        const v = getAt(out, at(raw.from ?? ''), op);
        removeAt(out, at(raw.from ?? ''), op);
        addAt(out, at(path), v, op, false);
        break;
      }
      case 'copy':
        addAt(out, at(path), copy(getAt(out, at(raw.from ?? ''), op)), op, false);
        break;
      case 'test':
        if (JSON.stringify(getAt(out, at(path), op)) !== JSON.stringify(raw.value))
          throw new JSONPatchError('testing value ' + path + ' failed: test failed');
        break;
      default:
        throw new JSONPatchError(`Unexpected kind: ${op}`);
    }
  }
}

// same compares two JSON values, maps regardless of key order (undefined counts as absent).
const same = deepEqual;

/**
 * createTwoWayMergePatch mirrors strategicpatch.CreateTwoWayMergePatch: the strategic merge patch
 * that turns original into modified. Maps are diffed key by key (null for a removed key); a list
 * with a merge key lists its changed items by key (only their changed fields), deletes removed
 * ones with $patch: delete and gives the new order with $setElementOrder; finalizers list their
 * additions and $deleteFromPrimitiveList their removals; other lists are replaced whole. The
 * patch shares values with modified (applying it copies them), so neither may be changed after.
 */
export function createTwoWayMergePatch(
  original: unknown,
  modified: unknown,
  path: readonly string[] = [],
): Obj {
  const a = isMap(original) ? original : {};
  const b = isMap(modified) ? modified : {};
  const patch: Obj = {};
  for (const k in a) if (b[k] === undefined && a[k] !== undefined) patch[k] = null;
  for (const k in b) {
    const v = b[k];
    if (v === undefined) continue;
    const o = a[k];
    if (same(o, v)) continue;
    const at = [...path, k];
    if (isMap(v) && isMap(o)) {
      const sub = createTwoWayMergePatch(o, v, at);
      if (Object.keys(sub).length) patch[k] = sub;
      continue;
    }
    if (Array.isArray(v) && Array.isArray(o)) {
      const key = patchMergeKey(at);
      if (key && v.every(isMap) && o.every(isMap)) {
        const items: Obj[] = [];
        for (const item of v as Obj[]) {
          const old = (o as Obj[]).find((x) => same(x[key], item[key]));
          if (!old) items.push(item);
          else if (!same(old, item))
            items.push({ ...createTwoWayMergePatch(old, item, at), [key]: item[key] });
        }
        for (const old of o as Obj[])
          if (!(v as Obj[]).some((x) => same(x[key], old[key])))
            items.push({ $patch: 'delete', [key]: old[key] });
        patch[`$setElementOrder/${k}`] = (v as Obj[]).map((x) => ({ [key]: x[key] }));
        if (items.length) patch[k] = items;
        continue;
      }
      if (primitiveMerge.has(k)) {
        const added = v.filter((x) => !o.includes(x));
        const removed = o.filter((x) => !v.includes(x));
        patch[`$setElementOrder/${k}`] = v;
        if (added.length) patch[k] = added;
        if (removed.length) patch[`$deleteFromPrimitiveList/${k}`] = removed;
        continue;
      }
    }
    patch[k] = v;
  }
  return patch;
}

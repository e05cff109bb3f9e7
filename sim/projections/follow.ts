// Which trace entries are "about" an object, and which entries led to them. Shared by the
// sequence diagram and by anything else that follows one object through a run.

import { parseSelector } from '../api/labels.ts';
import type { CommandEntry, RequestEntry, StoreEntry, TraceEntry } from '../engine/trace.ts';
import type { Change, RunLike } from './util.ts';

/**
 * FollowSpec picks one object: by name, or as the index-th (0-based, in creation order) object of
 * the resource that matches namespace, label selector and node.
 */
export interface FollowSpec {
  /** resource is the plural resource, e.g. "pods", "nodes", "replicasets". */
  resource: string;
  namespace?: string;
  name?: string;
  /** index picks among the matching objects in creation order; default 0 (the first created). */
  index?: number;
  /** label is a label selector in `kubectl -l` syntax, e.g. "app=web". */
  label?: string;
  /** node keeps only Pods that were bound to this node at some point. */
  node?: string;
}

/** ObjectRef names one object. namespace undefined on a by-name spec matches any namespace. */
export interface ObjectRef {
  resource: string;
  namespace?: string;
  name: string;
}

/** resolveFollow turns a spec into the object it designates, or throws if nothing matches. */
export function resolveFollow(spec: FollowSpec, run: RunLike): ObjectRef {
  if (spec.name !== undefined)
    return { resource: spec.resource, namespace: spec.namespace, name: spec.name };
  const index = spec.index ?? 0;
  const candidates: ObjectRef[] = [];
  if (run.changes) {
    const seen = new Set<string>();
    const onNode = new Set<string>();
    if (spec.node !== undefined) {
      for (const c of run.changes) {
        const o = c.object as { spec?: { nodeName?: string } };
        if (c.resource === spec.resource && o.spec?.nodeName === spec.node)
          onNode.add(c.object.metadata.uid);
      }
    }
    const sel = spec.label !== undefined ? parseSelector(spec.label) : undefined;
    for (const c of run.changes as Change[]) {
      if (c.type !== 'ADDED' || c.resource !== spec.resource) continue;
      const m = c.object.metadata;
      if (seen.has(m.uid)) continue;
      if (spec.namespace !== undefined && m.namespace !== spec.namespace) continue;
      if (sel && !sel.matches(m.labels)) continue;
      if (spec.node !== undefined && !onNode.has(m.uid)) continue;
      seen.add(m.uid);
      candidates.push({ resource: spec.resource, namespace: m.namespace, name: m.name });
    }
  } else {
    if (spec.label !== undefined || spec.node !== undefined)
      throw new Error(`follow ${spec.resource}: label and node need the run's changes`);
    const seen = new Set<string>();
    for (const e of run.trace) {
      if (
        e.kind !== 'store' ||
        e.op !== 'txn-create' ||
        e.resource !== spec.resource ||
        e.name === undefined
      )
        continue;
      if (spec.namespace !== undefined && e.namespace !== spec.namespace) continue;
      const k = `${e.namespace ?? ''}/${e.name}`;
      if (seen.has(k)) continue;
      seen.add(k);
      candidates.push({ resource: spec.resource, namespace: e.namespace, name: e.name });
    }
  }
  const hit = candidates[index];
  if (!hit) {
    const what = [
      spec.namespace && `namespace ${spec.namespace}`,
      spec.label && `label ${spec.label}`,
      spec.node && `node ${spec.node}`,
    ]
      .filter(Boolean)
      .join(', ');
    throw new Error(
      `follow ${spec.resource}${what ? ` (${what})` : ''}: found ${candidates.length} objects, expected one at index ${index}`,
    );
  }
  return hit;
}

/** TraceIndex is the lookup tables a projection needs to walk causes. */
export interface TraceIndex {
  bySeq: Map<number, TraceEntry>;
  /** storeOf maps a request's seq to the etcd write it made. */
  storeOf: Map<number, StoreEntry>;
  /** requestOf maps an etcd write's seq to the request that made it. */
  requestOf: Map<number, RequestEntry>;
  /** storeAt maps an etcd revision to the write that produced it. */
  storeAt: Map<number, StoreEntry>;
  /** commandOf maps a kubectl request's seq to the kubectl command it was part of. */
  commandOf: Map<number, CommandEntry>;
  /** requestsOf maps a kubectl command's seq to its requests, in order. */
  requestsOf: Map<number, RequestEntry[]>;
}

function baseResource(r: string): string {
  const i = r.indexOf('/');
  return i < 0 ? r : r.slice(0, i);
}

/**
 * indexTrace builds the lookup tables. kube-apiserver records its etcd write immediately before
 * the request entry it belongs to, at the same instant; kubectl records a command after its requests.
 */
export function indexTrace(trace: TraceEntry[]): TraceIndex {
  const idx: TraceIndex = {
    bySeq: new Map(),
    storeOf: new Map(),
    requestOf: new Map(),
    storeAt: new Map(),
    commandOf: new Map(),
    requestsOf: new Map(),
  };
  let pending: RequestEntry[] = [];
  for (let i = 0; i < trace.length; i++) {
    const e = trace[i];
    idx.bySeq.set(e.seq, e);
    if (e.kind === 'store') {
      idx.storeAt.set(e.revision, e);
      const next = trace[i + 1];
      if (
        next &&
        next.kind === 'request' &&
        next.to === 'kube-apiserver' &&
        next.t === e.t &&
        baseResource(next.resource) === e.resource
      ) {
        idx.storeOf.set(next.seq, e);
        idx.requestOf.set(e.seq, next);
      }
    } else if (e.kind === 'request' && e.from === 'kubectl') {
      pending.push(e);
    } else if (e.kind === 'command' && e.from === 'kubectl') {
      for (const r of pending) idx.commandOf.set(r.seq, e);
      idx.requestsOf.set(e.seq, pending);
      pending = [];
    }
  }
  return idx;
}

/** entryObject returns the object an entry is about, with generateName creates resolved. */
export function entryObject(e: TraceEntry, idx: TraceIndex): ObjectRef | undefined {
  switch (e.kind) {
    case 'request': {
      const s = idx.storeOf.get(e.seq);
      const name = s?.name ?? e.name;
      return name === undefined
        ? undefined
        : { resource: baseResource(e.resource), namespace: e.namespace, name };
    }
    case 'store':
    case 'watch':
      return e.name === undefined
        ? undefined
        : { resource: e.resource, namespace: e.namespace, name: e.name };
    case 'call':
      // A cloud call names a Service (namespace/name) or a node (name).
      if (e.object !== undefined) {
        const i = e.object.indexOf('/');
        return i < 0
          ? { resource: 'nodes', name: e.object }
          : { resource: 'services', namespace: e.object.slice(0, i), name: e.object.slice(i + 1) };
      }
      return podRef(e.pod);
    case 'filter':
    case 'score':
    case 'select':
      return podRef(e.pod);
    case 'timer': {
      if (e.object === undefined) return undefined;
      const i = e.object.indexOf('/');
      // A timer names "namespace/name" for Pods and "name" for nodes.
      return i < 0
        ? { resource: 'nodes', name: e.object }
        : { resource: 'pods', namespace: e.object.slice(0, i), name: e.object.slice(i + 1) };
    }
    case 'fault':
      return e.node === undefined ? undefined : { resource: 'nodes', name: e.node };
    default:
      return undefined;
  }
}

function podRef(key: string | undefined): ObjectRef | undefined {
  if (key === undefined) return undefined;
  const i = key.indexOf('/');
  return i < 0
    ? { resource: 'pods', name: key }
    : { resource: 'pods', namespace: key.slice(0, i), name: key.slice(i + 1) };
}

/** sameObject compares refs; a target without namespace matches any namespace. */
export function sameObject(target: ObjectRef, o: ObjectRef | undefined): boolean {
  if (!o || o.resource !== target.resource || o.name !== target.name) return false;
  return target.namespace === undefined || (o.namespace ?? '') === target.namespace;
}

/**
 * parentsOf lists the entries that led to e: its cause, and for a watch event the write (and the
 * request that made it) whose revision the event carries; for an etcd write, its request.
 */
export function parentsOf(e: TraceEntry, idx: TraceIndex): TraceEntry[] {
  const out: TraceEntry[] = [];
  if (e.kind === 'watch') {
    const s = idx.storeAt.get(e.revision);
    if (s) {
      out.push(s);
      const r = idx.requestOf.get(s.seq);
      if (r) out.push(r);
    }
  } else if (e.kind === 'store') {
    const r = idx.requestOf.get(e.seq);
    if (r) out.push(r);
  }
  if (e.cause !== undefined) {
    const c = idx.bySeq.get(e.cause);
    if (c) out.push(c);
  }
  return out;
}

/** causeClosure returns the seqs of the given entries and of every entry that led to them. */
export function causeClosure(start: TraceEntry[], idx: TraceIndex): Set<number> {
  const seen = new Set<number>();
  const work = [...start];
  while (work.length) {
    const e = work.pop()!;
    if (seen.has(e.seq)) continue;
    seen.add(e.seq);
    for (const p of parentsOf(e, idx)) if (!seen.has(p.seq)) work.push(p);
  }
  return seen;
}

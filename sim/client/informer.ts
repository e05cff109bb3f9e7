// Mirrors staging/src/k8s.io/client-go/tools/cache (Reflector + SharedIndexInformer + Indexer):
// list, then watch from the list's resourceVersion, keeping a local cache that listers read and
// calling event handlers for every change. When the watch breaks (the component lost its
// connection), the reflector retries with back-off and relists, turning the difference between
// its cache and the fresh list into add, update and delete notifications, as DeltaFIFO's Replace.
// Simplification: each controller has its own informers (kube-controller-manager shares one
// informer per resource across controllers), so the trace shows which controller watches what.

import type { Selector } from '../api/labels.ts';
import type { AnyObject, ResourceName } from '../api/types.ts';
import type { ListOptions, WatchStream } from '../apiserver/apiserver.ts';
import type { TimerHandle } from '../engine/simulation.ts';
import type { Client } from './client.ts';
import { metaNamespaceKey } from './keys.ts';

export interface EventHandler<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

/** Lister reads the informer's cache; returned objects must never be mutated. */
export interface Lister<T> {
  get(namespace: string | undefined, name: string): T | undefined;
  getByKey(key: string): T | undefined;
  list(selector?: Selector, namespace?: string): T[];
  byIndex(index: string, value: string): T[];
}

export type IndexFunc<T> = (obj: T) => string[];

// One watch event reaches every watcher of its resource one after another with the same (never
// mutated) object, so the key of the last object seen is kept and reused.
let lastObj: AnyObject | undefined;
let lastKey = '';

function watchedKey(o: AnyObject): string {
  if (o !== lastObj) {
    lastObj = o;
    lastKey = metaNamespaceKey(o);
  }
  return lastKey;
}

/** CacheEntry is one cached object and the index links that file it. */
interface CacheEntry<T> {
  obj: T;
  /** links are the entry's index links, in indexer order, then in the order of their values. */
  links: IndexLink<T> | undefined;
}

// Simplification: client-go keeps each index value's keys in an unordered set; the simulator keeps
// them in a list, in the order the objects were last indexed, so that byIndex is deterministic.
/** Bucket lists the entries filed under one index value. */
interface Bucket<T> {
  readonly value: string;
  head: IndexLink<T> | undefined;
  tail: IndexLink<T> | undefined;
}

/** IndexLink files one entry in one bucket: a node of the bucket's list and of the entry's links. */
interface IndexLink<T> {
  readonly entry: CacheEntry<T>;
  readonly bucket: Bucket<T>;
  readonly indexer: number;
  prev: IndexLink<T> | undefined;
  next: IndexLink<T> | undefined;
  sibling: IndexLink<T> | undefined;
}

function append<T>(l: IndexLink<T>): void {
  const b = l.bucket;
  l.prev = b.tail;
  l.next = undefined;
  if (b.tail) b.tail.next = l;
  else b.head = l;
  b.tail = l;
}

function unlink<T>(l: IndexLink<T>): void {
  const b = l.bucket;
  if (l.prev) l.prev.next = l.next;
  else b.head = l.next;
  if (l.next) l.next.prev = l.prev;
  else b.tail = l.prev;
  l.prev = l.next = undefined;
}

/** Informer is one component's cached, watched view of one resource. */
export class Informer<T extends AnyObject> implements Lister<T> {
  readonly resource: ResourceName;
  private readonly client: Client;
  private readonly opts: ListOptions;
  private readonly cache = new Map<string, CacheEntry<T>>();
  private readonly handlers: EventHandler<T>[] = [];
  private readonly indexers: { fn: IndexFunc<T>; index: Map<string, Bucket<T>> }[] = [];
  private readonly indices = new Map<string, Map<string, Bucket<T>>>();
  private stream: WatchStream | undefined;
  private retry: TimerHandle | undefined;
  private backoff = 800;
  private stopped = true;
  /** hasSynced turns true after the first successful list. */
  hasSynced = false;

  constructor(client: Client, resource: ResourceName, opts: ListOptions = {}) {
    this.client = client;
    this.resource = resource;
    this.opts = opts;
  }

  addEventHandler(h: EventHandler<T>): this {
    this.handlers.push(h);
    return this;
  }

  /** addIndexer maintains an index (for example pods by spec.nodeName); call it before start. */
  addIndexer(name: string, fn: IndexFunc<T>): this {
    const index = new Map<string, Bucket<T>>();
    const i = this.indexers.findIndex((x) => x.index === this.indices.get(name));
    if (i >= 0) this.indexers[i] = { fn, index };
    else this.indexers.push({ fn, index });
    this.indices.set(name, index);
    return this;
  }

  /** start lists and watches; on failure it retries with back-off. */
  start(): void {
    this.stopped = false;
    this.listAndWatch();
  }

  /** stop closes the watch and forgets the cache, as when a process exits. */
  stop(): void {
    this.stopped = true;
    this.retry?.cancel();
    if (this.stream) this.client.closeWatch(this.stream);
    this.stream = undefined;
    this.cache.clear();
    for (const idx of this.indices.values()) idx.clear();
    this.hasSynced = false;
  }

  private listAndWatch(): void {
    if (this.stopped) return;
    const sim = this.client.apiserver.sim;
    if (!this.client.reachable()) {
      this.retry = sim.after(this.backoff, `${this.client.user}: relist ${this.resource}`, () => this.listAndWatch());
      this.backoff = Math.min(this.backoff * 2, 30_000);
      return;
    }
    let items: T[];
    try {
      items = this.client.list<T>(this.resource, this.opts).items;
      this.stream = this.client.watch(this.resource, this.opts, (type, obj) => this.onEvent(type, obj as T), () => this.onWatchClosed());
    } catch {
      this.retry = sim.after(this.backoff, `${this.client.user}: relist ${this.resource}`, () => this.listAndWatch());
      this.backoff = Math.min(this.backoff * 2, 30_000);
      return;
    }
    this.backoff = 800;
    this.replace(items);
    this.hasSynced = true;
  }

  private onWatchClosed(): void {
    this.stream = undefined;
    if (this.stopped) return;
    const sim = this.client.apiserver.sim;
    this.retry = sim.after(this.backoff, `${this.client.user}: rewatch ${this.resource}`, () => this.listAndWatch());
  }

  // replace mirrors DeltaFIFO.Replace: the fresh list wins; vanished objects are deleted.
  private replace(items: T[]): void {
    const seen = new Set<string>();
    for (const o of items) {
      const k = metaNamespaceKey(o);
      seen.add(k);
      const old = this.cache.get(k);
      if (!old) this.onEvent('ADDED', o);
      else if (old.obj.metadata.resourceVersion !== o.metadata.resourceVersion) this.onEvent('MODIFIED', o);
    }
    for (const [k, e] of [...this.cache]) if (!seen.has(k)) this.onEvent('DELETED', e.obj);
  }

  private onEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T): void {
    const k = watchedKey(obj);
    const e = this.cache.get(k);
    if (type === 'DELETED') {
      if (!e) return;
      this.cache.delete(k);
      this.unindex(e);
      for (const h of this.handlers) h.onDelete?.(obj);
      return;
    }
    if (e) {
      // An update changes the entry in place: the cache keeps its order, and no key is hashed again.
      const old = e.obj;
      e.obj = obj;
      if (this.indexers.length) this.index(e);
      for (const h of this.handlers) h.onUpdate?.(old, obj);
      return;
    }
    const added: CacheEntry<T> = { obj, links: undefined };
    this.cache.set(k, added);
    if (this.indexers.length) this.index(added);
    for (const h of this.handlers) h.onAdd?.(obj);
  }

  // index files the entry under its object's index values. Whatever it was filed under before is
  // taken out first, and each value's bucket then gets the entry at its end, so that a bucket
  // lists objects in the order they were last indexed (as a Map deleted from and set again would).
  // A link whose value did not change is moved rather than made again.
  private index(e: CacheEntry<T>): void {
    let old = e.links;
    let last: IndexLink<T> | undefined;
    e.links = undefined;
    for (let i = 0; i < this.indexers.length; i++) {
      const { fn, index } = this.indexers[i];
      const vs = fn(e.obj);
      // The entry's links are in indexer order: this indexer's old ones lead what is left.
      let reuse = old;
      while (old && old.indexer === i) {
        unlink(old);
        old = old.sibling;
      }
      for (let j = 0; j < vs.length; j++) {
        const v = vs[j];
        if (j > 0 && vs.indexOf(v) < j) continue; // a value given twice is filed once
        let l: IndexLink<T>;
        if (reuse && reuse !== old && reuse.bucket.value === v) {
          l = reuse;
          reuse = reuse.sibling;
        } else {
          let b = index.get(v);
          if (!b) index.set(v, (b = { value: v, head: undefined, tail: undefined }));
          l = { entry: e, bucket: b, indexer: i, prev: undefined, next: undefined, sibling: undefined };
        }
        append(l);
        l.sibling = undefined;
        if (last) last.sibling = l;
        else e.links = l;
        last = l;
      }
    }
  }

  private unindex(e: CacheEntry<T>): void {
    for (let l = e.links; l; l = l.sibling) unlink(l);
    e.links = undefined;
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.cache.get(namespace ? `${namespace}/${name}` : name)?.obj;
  }

  getByKey(key: string): T | undefined {
    return this.cache.get(key)?.obj;
  }

  list(selector?: Selector, namespace?: string): T[] {
    const out: T[] = [];
    for (const e of this.cache.values()) {
      const o = e.obj;
      if (namespace !== undefined && o.metadata.namespace !== namespace) continue;
      if (selector && !selector.matches(o.metadata.labels)) continue;
      out.push(o);
    }
    return out;
  }

  byIndex(index: string, value: string): T[] {
    const out: T[] = [];
    for (let l = this.indices.get(index)?.get(value)?.head; l; l = l.next) out.push(l.entry.obj);
    return out;
  }

  get size(): number {
    return this.cache.size;
  }
}

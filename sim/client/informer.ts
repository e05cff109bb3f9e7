// Mirrors staging/src/k8s.io/client-go/tools/cache (Reflector + SharedIndexInformer + Indexer):
// list, then watch from the list's resourceVersion, keeping a local cache that listers read and
// calling event handlers for every change. When the watch breaks (the component lost its
// connection), the reflector retries with back-off and relists, turning the difference between
// its cache and the fresh list into add, update and delete notifications, as DeltaFIFO's Replace.
// kube-controller-manager's controllers share one informer per resource (SharedInformerFactory,
// staging/src/k8s.io/client-go/informers/factory.go): one list, one watch, one cache, and each
// controller's event handlers. The trace still shows which controller reads what: a shared
// informer records each watch event's delivery once per controller that asked for it.

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

/** IndexFunc gives the values an object is filed under; the informer only reads the list. */
export type IndexFunc<T> = (obj: T) => readonly string[];

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

const absent = Symbol('absent');

// notify calls the handler method for an event: old is the cached object it replaced (an update)
// or the deleted object.
function notify<T>(h: EventHandler<T>, type: 'ADDED' | 'MODIFIED' | 'DELETED', old: T | undefined, obj: T): void {
  if (type === 'DELETED') h.onDelete?.(obj);
  else if (old !== undefined) h.onUpdate?.(old, obj);
  else h.onAdd?.(obj);
}

/** Informer is a component's cached, watched view of one resource (shared: several components'). */
export class Informer<T extends AnyObject> implements Lister<T> {
  readonly resource: ResourceName;
  private readonly client: Client;
  private readonly opts: ListOptions;
  /** shared informers trace deliveries per reader (readers) instead of per stream. */
  private readonly shared: boolean;
  /** readers are the components that asked for a shared informer, in the order they asked, each with its handlers. */
  private readonly readers: { readonly name: string; readonly handlers: EventHandler<T>[] }[] = [];
  private readonly cache = new Map<string, CacheEntry<T>>();
  private readonly handlers: EventHandler<T>[] = [];
  private readonly indexers: { name: string; fn: IndexFunc<T>; index: Map<string, Bucket<T>> }[] = [];
  private readonly indices = new Map<string, Map<string, Bucket<T>>>();
  private stream: WatchStream | undefined;
  private retry: TimerHandle | undefined;
  private backoff = 800;
  private stopped = true;
  /** hasSynced turns true after the first successful list. */
  hasSynced = false;

  constructor(client: Client, resource: ResourceName, opts: ListOptions = {}, shared = false) {
    this.client = client;
    this.resource = resource;
    this.opts = opts;
    this.shared = shared;
  }

  /** addReader notes a component reading a shared informer (its deliveries are traced to it). */
  addReader(owner: string): this {
    this.readerNamed(owner);
    return this;
  }

  private readerNamed(name: string): { readonly name: string; readonly handlers: EventHandler<T>[] } {
    let r = this.readers.find((x) => x.name === name);
    if (!r) this.readers.push((r = { name, handlers: [] }));
    return r;
  }

  /** addEventHandler registers h for owner (by default the informer's own client). */
  addEventHandler(h: EventHandler<T>, owner = this.client.user): this {
    this.handlers.push(h);
    if (this.shared) this.readerNamed(owner).handlers.push(h);
    return this;
  }

  /**
   * addIndexer maintains an index (for example pods by spec.nodeName); call it before start.
   * A shared informer's indexers belong to every reader: adding one again with the same function
   * keeps it, and a different function under a taken name is a conflict (as client-go's
   * AddIndexers reports).
   */
  addIndexer(name: string, fn: IndexFunc<T>): this {
    const i = this.indexers.findIndex((x) => x.name === name);
    if (i >= 0 && this.indexers[i].fn === fn) return this;
    if (i >= 0 && this.shared) throw new Error(`indexer conflict: ${name} on the shared ${this.resource} informer`);
    const index = new Map<string, Bucket<T>>();
    if (i >= 0) this.indexers[i] = { name, fn, index };
    else this.indexers.push({ name, fn, index });
    this.indices.set(name, index);
    return this;
  }

  /** start lists and watches; on failure it retries with back-off. Starting a started shared informer does nothing. */
  start(): void {
    if (this.shared && !this.stopped) return;
    this.stopped = false;
    this.listAndWatch();
  }

  /**
   * restart is a reader starting afresh (kube-controller-manager restarting after losing its
   * leader lease): a new list and watch, and the reader's handlers hear of every object again, in
   * list order. An unshared informer forgets its cache first; a shared one turns the fresh list
   * into notifications for every reader (as a relist does), then adds everything for owner.
   */
  restart(owner: string): void {
    if (!this.shared) {
      this.stop();
      this.start();
      return;
    }
    this.retry?.cancel();
    this.retry = undefined;
    if (this.stream) this.client.closeWatch(this.stream);
    this.stream = undefined;
    this.hasSynced = false;
    const items = this.listAndWatch();
    if (!items) return;
    const handlers = this.readerNamed(owner).handlers;
    for (const o of items) for (const h of handlers) h.onAdd?.(o);
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

  // listAndWatch returns the list it got (undefined when it has to retry).
  private listAndWatch(): T[] | undefined {
    if (this.stopped) return undefined;
    const sim = this.client.apiserver.sim;
    if (!this.client.reachable()) {
      this.retry = sim.after(this.backoff, `${this.client.user}: relist ${this.resource}`, () => this.listAndWatch());
      this.backoff = Math.min(this.backoff * 2, 30_000);
      return undefined;
    }
    let items: T[];
    try {
      items = this.client.list<T>(this.resource, this.opts).items;
      this.stream = this.client.watch(
        this.resource,
        this.opts,
        this.shared ? (type, obj, revision) => this.onSharedEvent(type, obj as T, revision) : (type, obj) => this.onEvent(type, obj as T),
        () => this.onWatchClosed(),
        !this.shared,
      );
    } catch {
      this.retry = sim.after(this.backoff, `${this.client.user}: relist ${this.resource}`, () => this.listAndWatch());
      this.backoff = Math.min(this.backoff * 2, 30_000);
      return undefined;
    }
    this.backoff = 800;
    this.replace(items);
    this.hasSynced = true;
    return items;
  }

  private onWatchClosed(): void {
    this.stream = undefined;
    if (this.stopped) return;
    const sim = this.client.apiserver.sim;
    this.retry = sim.after(this.backoff, `${this.client.user}: rewatch ${this.resource}`, () => this.listAndWatch());
  }

  // replace mirrors DeltaFIFO.Replace: the fresh list wins; vanished objects are deleted.
  private replace(items: T[]): void {
    // A first list (an empty cache) is all adds: nothing can have vanished.
    if (this.cache.size === 0) {
      for (const o of items) this.onEvent('ADDED', o);
      return;
    }
    const seen = new Set<string>();
    for (const o of items) {
      const k = metaNamespaceKey(o);
      seen.add(k);
      const old = this.cache.get(k);
      if (!old) this.onEvent('ADDED', o);
      else if (old.obj.metadata.resourceVersion !== o.metadata.resourceVersion) this.onEvent('MODIFIED', o);
    }
    // Every listed key is cached now, so a cache no larger than the list lost nothing.
    if (this.cache.size === seen.size) return;
    for (const [k, e] of [...this.cache]) if (!seen.has(k)) this.onEvent('DELETED', e.obj);
  }

  private onEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T): void {
    const old = this.store(type, obj);
    if (old === absent) return;
    for (const h of this.handlers) notify(h, type, old, obj);
  }

  // onSharedEvent is a shared informer's watch event: the cache changes once, then each reader
  // in turn has the delivery traced to it and its handlers run, caused by that delivery (as when
  // every controller had its own stream).
  private onSharedEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T, revision: number): void {
    const old = this.store(type, obj);
    if (old === absent) return;
    const api = this.client.apiserver;
    const cause = api.sim.cause;
    for (const reader of this.readers) {
      api.sim.cause = cause;
      const seq = api.traceWatch(reader.name, type, this.resource, obj, revision);
      api.sim.cause = seq || cause;
      for (const h of reader.handlers) notify(h, type, old, obj);
    }
    api.sim.cause = cause;
  }

  // store applies an event to the cache and returns the object it replaced (undefined for an
  // add), or absent when a deletion finds nothing to delete.
  private store(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T): T | undefined | typeof absent {
    const k = watchedKey(obj);
    const e = this.cache.get(k);
    if (type === 'DELETED') {
      if (!e) return absent;
      this.cache.delete(k);
      this.unindex(e);
      return e.obj;
    }
    if (e) {
      // An update changes the entry in place: the cache keeps its order, and no key is hashed again.
      const old = e.obj;
      e.obj = obj;
      if (this.indexers.length) this.index(e);
      return old;
    }
    const added: CacheEntry<T> = { obj, links: undefined };
    this.cache.set(k, added);
    if (this.indexers.length) this.index(added);
    return undefined;
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

/**
 * SharedInformerFactory hands every controller of one process the same informer per resource
 * (client-go informers/factory.go; kube-controller-manager builds one and passes it to each
 * controller). Its informers list and watch all namespaces with the factory's client; a
 * controller asks for one with its own name, which is what the trace shows the deliveries to.
 */
export class SharedInformerFactory {
  private readonly client: Client;
  private readonly informers = new Map<ResourceName, Informer<AnyObject>>();

  constructor(client: Client) {
    this.client = client;
  }

  /** informerFor returns the shared informer of resource, noting reader as one of its readers. */
  informerFor<T extends AnyObject>(resource: ResourceName, reader: string): Informer<T> {
    let inf = this.informers.get(resource);
    if (!inf) {
      inf = new Informer<AnyObject>(this.client, resource, {}, true);
      this.informers.set(resource, inf);
    }
    return (inf as unknown as Informer<T>).addReader(reader);
  }

  /**
   * listerFor returns the shared informer of resource for a controller that only reads its cache
   * and registers no handlers (as the disruption controller reads ReplicaSets): no deliveries are
   * traced to it, since none of its code runs on them.
   */
  listerFor<T extends AnyObject>(resource: ResourceName): Informer<T> {
    let inf = this.informers.get(resource);
    if (!inf) {
      inf = new Informer<AnyObject>(this.client, resource, {}, true);
      this.informers.set(resource, inf);
    }
    return inf as unknown as Informer<T>;
  }
}

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

/** Informer is one component's cached, watched view of one resource. */
export class Informer<T extends AnyObject> implements Lister<T> {
  readonly resource: ResourceName;
  private readonly client: Client;
  private readonly opts: ListOptions;
  private readonly cache = new Map<string, T>();
  private readonly handlers: EventHandler<T>[] = [];
  private readonly indexers: { fn: IndexFunc<T>; index: Map<string, Map<string, T>> }[] = [];
  private readonly indices = new Map<string, Map<string, Map<string, T>>>();
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

  /** addIndexer maintains an index (for example pods by spec.nodeName). */
  addIndexer(name: string, fn: IndexFunc<T>): this {
    const index = new Map<string, Map<string, T>>();
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
      else if (old.metadata.resourceVersion !== o.metadata.resourceVersion) this.onEvent('MODIFIED', o);
    }
    for (const [k, o] of [...this.cache]) if (!seen.has(k)) this.onEvent('DELETED', o);
  }

  private onEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T): void {
    const k = watchedKey(obj);
    const old = this.cache.get(k);
    if (type === 'DELETED') {
      if (!old) return;
      this.cache.delete(k);
      this.unindex(k, old);
      for (const h of this.handlers) h.onDelete?.(obj);
      return;
    }
    this.cache.set(k, obj);
    if (old) this.unindex(k, old);
    this.index(k, obj);
    if (old) for (const h of this.handlers) h.onUpdate?.(old, obj);
    else for (const h of this.handlers) h.onAdd?.(obj);
  }

  private index(k: string, o: T): void {
    for (let i = 0; i < this.indexers.length; i++) {
      const { fn, index } = this.indexers[i];
      const vs = fn(o);
      for (let j = 0; j < vs.length; j++) {
        let m = index.get(vs[j]);
        if (!m) index.set(vs[j], (m = new Map()));
        m.set(k, o);
      }
    }
  }

  private unindex(k: string, o: T): void {
    for (let i = 0; i < this.indexers.length; i++) {
      const { fn, index } = this.indexers[i];
      const vs = fn(o);
      for (let j = 0; j < vs.length; j++) index.get(vs[j])?.delete(k);
    }
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.cache.get(namespace ? `${namespace}/${name}` : name);
  }

  getByKey(key: string): T | undefined {
    return this.cache.get(key);
  }

  list(selector?: Selector, namespace?: string): T[] {
    const out: T[] = [];
    for (const o of this.cache.values()) {
      if (namespace !== undefined && o.metadata.namespace !== namespace) continue;
      if (selector && !selector.matches(o.metadata.labels)) continue;
      out.push(o);
    }
    return out;
  }

  byIndex(index: string, value: string): T[] {
    const m = this.indices.get(index)?.get(value);
    return m ? [...m.values()] : [];
  }

  get size(): number {
    return this.cache.size;
  }
}

// Mirrors the part of etcd's MVCC store (server/mvcc) that kube-apiserver relies on: one global
// revision, per-key create/mod revisions and version, compare-and-swap transactions, and watches
// that deliver every change in revision order. Only kube-apiserver holds a reference to it.
// Leases mirror server/lease (lessor.go): a key written with a lease is attached to it (a later
// write without that lease detaches it), and when the lease's TTL runs out on the engine clock
// the lessor revokes it, deleting every key still attached in one transaction (one revision), so
// watchers see a DELETE for each. One timer per lease, not per key.
// Simplification: no history of old values (reads are always at the latest revision) and no
// compaction; watch always starts from "now".
// Simplification: a lease is revoked at its expiry (the lessor checks every 500 ms and limits
// revocations to 1,000 a second), lease IDs count up from 1, and a lease that expires while the
// member is stopped is revoked once it is back (etcd's Promote extends leases at start instead).

import type { Simulation, TimerHandle } from '../engine/simulation.ts';

/** KeyValue is etcd's mvccpb.KeyValue with the value kept decoded. */
export interface KeyValue<V = unknown> {
  key: string;
  value: V;
  createRevision: number;
  modRevision: number;
  version: number;
  /** lease is the ID of the lease the key is attached to (absent: none, etcd's 0). */
  lease?: number;
}

/** Lease is a granted lease: when it expires (engine time, ms) and the keys attached to it. */
interface Lease {
  readonly id: number;
  readonly expiry: number;
  readonly keys: Set<string>;
  timer: TimerHandle | undefined;
}

/** LeaseImage is a lease as an image keeps it (its keys sorted). */
export interface LeaseImage {
  readonly id: number;
  readonly expiry: number;
  readonly keys: readonly string[];
}

export interface WatchEvent<V = unknown> {
  type: 'PUT' | 'DELETE';
  kv: KeyValue<V>;
  prevKv?: KeyValue<V>;
}

/** TxnResult is the outcome of a compare-and-swap: succeeded false means the compare failed. */
export interface TxnResult<V = unknown> {
  succeeded: boolean;
  revision: number;
  kv?: KeyValue<V>;
  /** current is the value found when the compare failed. */
  current?: KeyValue<V>;
}

type Watcher = { prefix: string; cb: (ev: WatchEvent) => void };

/**
 * EtcdImage is a store's contents at one revision, as a member's data directory holds them: the
 * global revision and every key with its create/mod revisions. KeyValues are never changed in
 * place (a write puts a new one), so images and the stores loaded from them share them.
 */
export interface EtcdImage {
  readonly revision: number;
  readonly leases?: { readonly lastID: number; readonly granted: readonly LeaseImage[] };
  readonly buckets: readonly { readonly prefix: string; readonly kvs: readonly KeyValue[]; readonly order: readonly number[] }[];
}

// Slot holds a key's current KeyValue, so that an update replaces the value by one assignment.
type Slot = { kv: KeyValue };

/**
 * Bucket holds the keys that share their first two path segments (/registry/pods/). sorted is its
 * slots in key order as of the last range, and added the slots created since, not yet in sorted:
 * the next range sorts only those and merges them in, instead of sorting every key again (at
 * scale a list of Pods runs while thousands are created). A removal drops the order (an update
 * keeps the slot).
 */
type Bucket = { readonly prefix: string; readonly slots: Map<string, Slot>; sorted: Slot[] | undefined; added: Slot[] };

/** EtcdStore is the cluster's only persistent state. */
export class EtcdStore {
  /** revision is the store's global revision; etcd starts a new cluster at 1. */
  revision = 1;
  // Keys are kept by bucket only (one map entry per key: at scale there are a million keys), and
  // a key's bucket is found by comparing its prefix with the dozen or so buckets, without cutting
  // the key; the bucket used last is tried first.
  private readonly buckets: Bucket[] = [];
  private last: Bucket | undefined;
  private readonly watchers: Watcher[] = [];
  /** down makes every request fail, as when the etcd member is stopped. */
  down = false;
  /** leases are the granted leases not yet revoked, by ID; lastLeaseID the last ID granted. */
  private readonly leases = new Map<number, Lease>();
  private lastLeaseID = 0;
  /** sim is the engine whose clock the lessor expires leases on (set by useClock). */
  private sim: Simulation | undefined;

  // bucketOf finds (or makes) the bucket of a key: its first two path segments (/registry/pods/),
  // so that a range over one resource touches only that resource's keys.
  private bucketOf(key: string): Bucket {
    const i = key.indexOf('/', key.indexOf('/', 1) + 1);
    const n = i < 0 ? key.length : i + 1;
    const last = this.last;
    if (last && last.prefix.length === n && key.startsWith(last.prefix)) return last;
    for (const b of this.buckets)
      if (b.prefix.length === n && key.startsWith(b.prefix)) return (this.last = b);
    const b: Bucket = { prefix: key.slice(0, n), slots: new Map(), sorted: undefined, added: [] };
    this.buckets.push(b);
    return (this.last = b);
  }

  get<V>(key: string): KeyValue<V> | undefined {
    return this.bucketOf(key).slots.get(key)?.kv as KeyValue<V> | undefined;
  }

  /** range returns every key with the prefix, sorted by key as etcd returns them. */
  range<V>(prefix: string): KeyValue<V>[] {
    const b = this.bucketOf(prefix);
    const sorted = this.sortedSlots(b);
    const out: KeyValue<V>[] = [];
    const all = prefix === b.prefix;
    for (const slot of sorted) if (all || slot.kv.key.startsWith(prefix)) out.push(slot.kv as KeyValue<V>);
    return out;
  }

  private sortedSlots(b: Bucket): Slot[] {
    if (b.sorted === undefined) b.sorted = [...b.slots.values()].sort(byKey);
    else if (b.added.length) b.sorted = mergeSorted(b.sorted, b.added.sort(byKey));
    else return b.sorted;
    b.added = [];
    return b.sorted;
  }

  /** count returns how many keys have the prefix. */
  count(prefix: string): number {
    let n = 0;
    for (const k of this.bucketOf(prefix).slots.keys()) if (k.startsWith(prefix)) n++;
    return n;
  }

  /**
   * create puts key only if it does not exist (Compare(CreateRevision(key), "=", 0)).
   * makeValue receives the revision the write will commit at, so the stored object can carry it.
   */
  create<V>(key: string, makeValue: (rev: number) => V, lease?: number): TxnResult<V> {
    const b = this.bucketOf(key);
    const slots = b.slots;
    const cur = slots.get(key)?.kv as KeyValue<V> | undefined;
    if (cur) return { succeeded: false, revision: this.revision, current: cur };
    const rev = ++this.revision;
    const kv: KeyValue<V> = { key, value: makeValue(rev), createRevision: rev, modRevision: rev, version: 1 };
    if (lease !== undefined) this.attach(kv, lease);
    const slot = { kv };
    slots.set(key, slot);
    // A bucket that gained more keys than half of those it had is sorted afresh.
    if (b.sorted !== undefined && b.added.push(slot) > b.sorted.length / 2) this.dropOrder(b);
    this.notify({ type: 'PUT', kv });
    return { succeeded: true, revision: rev, kv };
  }

  /**
   * update puts key only if its modRevision equals expected (optimistic concurrency), attached to
   * lease if one is given and to none otherwise, as a put without WithLease.
   */
  update<V>(key: string, expectedModRevision: number, makeValue: (rev: number) => V, lease?: number): TxnResult<V> {
    const slot = this.bucketOf(key).slots.get(key);
    const cur = slot?.kv as KeyValue<V> | undefined;
    if (!cur || cur.modRevision !== expectedModRevision) return { succeeded: false, revision: this.revision, current: cur };
    const rev = ++this.revision;
    const kv: KeyValue<V> = { key, value: makeValue(rev), createRevision: cur.createRevision, modRevision: rev, version: cur.version + 1 };
    if (cur.lease !== undefined && cur.lease !== lease) this.leases.get(cur.lease)?.keys.delete(key);
    if (lease !== undefined) this.attach(kv, lease);
    slot!.kv = kv;
    this.notify({ type: 'PUT', kv, prevKv: cur });
    return { succeeded: true, revision: rev, kv };
  }

  /** delete removes key only if its modRevision equals expected. */
  delete<V>(key: string, expectedModRevision: number): TxnResult<V> {
    const b = this.bucketOf(key);
    const slots = b.slots;
    const cur = slots.get(key)?.kv as KeyValue<V> | undefined;
    if (!cur || cur.modRevision !== expectedModRevision) return { succeeded: false, revision: this.revision, current: cur };
    const rev = ++this.revision;
    slots.delete(key);
    this.dropOrder(b);
    if (cur.lease !== undefined) this.leases.get(cur.lease)?.keys.delete(key);
    const kv: KeyValue<V> = { ...cur, modRevision: rev };
    this.notify({ type: 'DELETE', kv, prevKv: cur });
    return { succeeded: true, revision: rev, kv };
  }

  private dropOrder(b: Bucket): void {
    b.sorted = undefined;
    if (b.added.length) b.added = [];
  }

  /** image captures the store's contents (no watchers) for load. */
  image(): EtcdImage {
    // Each bucket also keeps its key order (positions in kvs), so a store loaded from the image
    // starts sorted; kvs stay in the order the keys were made.
    return {
      revision: this.revision,
      leases: {
        lastID: this.lastLeaseID,
        granted: [...this.leases.values()].map((l) => ({ id: l.id, expiry: l.expiry, keys: [...l.keys].sort() })),
      },
      buckets: this.buckets.map((b) => {
        const slots = [...b.slots.values()];
        const at = new Map(slots.map((s, i) => [s, i]));
        return { prefix: b.prefix, kvs: slots.map((s) => s.kv), order: this.sortedSlots(b).map((s) => at.get(s)!) };
      }),
    };
  }

  /** load fills an empty store with an image's contents, as etcd starting from a data directory. */
  load(image: EtcdImage): void {
    if (this.revision !== 1 || this.buckets.length) throw new Error('etcd: load needs an empty store');
    this.revision = image.revision;
    for (const b of image.buckets) {
      const slots = new Map<string, Slot>();
      const list: Slot[] = [];
      for (const kv of b.kvs) {
        const slot = { kv };
        list.push(slot);
        slots.set(kv.key, slot);
      }
      this.buckets.push({ prefix: b.prefix, slots, sorted: b.order.map((i) => list[i]), added: [] });
    }
    this.lastLeaseID = image.leases?.lastID ?? 0;
    for (const l of image.leases?.granted ?? []) {
      const lease: Lease = { id: l.id, expiry: l.expiry, keys: new Set(l.keys), timer: undefined };
      this.leases.set(l.id, lease);
      this.scheduleRevoke(lease);
    }
  }

  /**
   * useClock has the lessor expire leases on sim's clock; kube-apiserver calls it, as its etcd
   * runs beside it in the simulated control plane. Leases granted or loaded before get their timers.
   */
  useClock(sim: Simulation): void {
    if (this.sim === sim) return;
    this.sim = sim;
    for (const l of this.leases.values()) this.scheduleRevoke(l);
  }

  /**
   * grant is LeaseGrant: a new lease that expires ttlSeconds from now on the engine clock.
   * Returns its ID.
   */
  grant(ttlSeconds: number): number {
    if (!this.sim) throw new Error('etcd: grant needs a clock (useClock)');
    const lease: Lease = { id: ++this.lastLeaseID, expiry: this.sim.now() + ttlSeconds * 1000, keys: new Set(), timer: undefined };
    this.leases.set(lease.id, lease);
    this.scheduleRevoke(lease);
    return lease.id;
  }

  /** leaseOf is a granted lease: its expiry and the keys attached to it (for tests). */
  leaseOf(id: number): { expiry: number; keys: string[] } | undefined {
    const l = this.leases.get(id);
    return l && { expiry: l.expiry, keys: [...l.keys].sort() };
  }

  // attach puts kv on a lease (a write with WithLease); a lease that is gone is etcd's
  // "lease not found", which kube-apiserver never meets: it writes only with leases it just got.
  private attach(kv: KeyValue, id: number): void {
    const l = this.leases.get(id);
    if (!l) throw new Error(`etcd: lease ${id} not found`);
    kv.lease = id;
    l.keys.add(kv.key);
  }

  private scheduleRevoke(l: Lease): void {
    if (!this.sim || l.timer) return;
    l.timer = this.sim.at(l.expiry, 'etcd: lease expired', () => this.revoke(l), 0);
  }

  // revoke mirrors lessor.Revoke on expiry: the lease's keys, sorted, are deleted in one
  // transaction at one new revision, and watchers see a DELETE for each.
  private revoke(l: Lease): void {
    l.timer = undefined;
    if (this.down) {
      l.timer = this.sim!.after(500, 'etcd: lease expired', () => this.revoke(l), 0);
      return;
    }
    this.leases.delete(l.id);
    if (l.keys.size === 0) return;
    const rev = ++this.revision;
    for (const key of [...l.keys].sort()) {
      const b = this.bucketOf(key);
      const cur = b.slots.get(key)?.kv;
      if (!cur) continue;
      b.slots.delete(key);
      this.dropOrder(b);
      this.notify({ type: 'DELETE', kv: { ...cur, modRevision: rev }, prevKv: cur });
    }
  }

  /** watch calls cb synchronously for every change under prefix, in revision order. */
  watch(prefix: string, cb: (ev: WatchEvent) => void): () => void {
    const w: Watcher = { prefix, cb };
    this.watchers.push(w);
    return () => {
      const i = this.watchers.indexOf(w);
      if (i >= 0) this.watchers.splice(i, 1);
    };
  }

  private notify(ev: WatchEvent): void {
    for (const w of this.watchers) if (ev.kv.key.startsWith(w.prefix)) w.cb(ev);
  }
}

function byKey(x: Slot, y: Slot): number {
  return x.kv.key < y.kv.key ? -1 : x.kv.key > y.kv.key ? 1 : 0;
}

// mergeSorted merges two lists of slots sorted by key (no key is in both).
function mergeSorted(a: Slot[], b: Slot[]): Slot[] {
  const out = new Array<Slot>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i].kv.key < b[j].kv.key ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

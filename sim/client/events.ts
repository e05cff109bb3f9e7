// Mirrors staging/src/k8s.io/client-go/tools/record (EventRecorder + EventCorrelator): a
// component records an Event about an object; a repeat of the same reason and message about
// the same object within the aggregation window bumps count and lastTimestamp instead.
// Event names are "<object name>.<hex timestamp>" as upstream makes them. The spam filter
// (EventSourceObjectSpamFilter) allows a burst of 25 events per source and object, refilled at one
// per 5 minutes; events beyond that are dropped, as upstream drops them.
// Simplification: the EventAggregator's "(combined from similar events)" merging is not modelled.
// Simplification: kube-scheduler records through the events.k8s.io/v1 API upstream
// (client-go tools/events: eventTime, action, reportingInstance, isomorphic events merged into a
// series); here it uses this core/v1 recorder like every other component, so its Events carry
// source, count, firstTimestamp and lastTimestamp instead. kubectl prints them the same way.

import type { Event, KubeObject } from '../api/types.ts';
import { formatTime } from '../engine/clock.ts';
import type { Client } from './client.ts';

// maxLruCacheEntries is the size of the correlator's and the spam filter's caches
// (client-go tools/record/events_cache.go).
const maxLruCacheEntries = 4096;

// Both caches are kept by the involved object's UID, each holding a short chain of the entries
// about that object, so that finding one compares a few fields instead of building and hashing a
// long key string on every Event. An entry is the same as upstream's key: kind, namespace, name
// and UID for the spam filter; UID, type, reason and message for the correlator.

/** SeenEvent is an Event the correlator has recorded: a repeat of it bumps its count. */
interface SeenEvent {
  readonly uid: string;
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly name: string;
  readonly namespace: string;
  count: number;
  /** same is the next SeenEvent about the same UID. */
  same: SeenEvent | undefined;
}

/** SpamBucket is one source and object's token bucket, linked in least-recently-used order. */
interface SpamBucket {
  readonly uid: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  tokens: number;
  last: number;
  prev: SpamBucket | undefined;
  next: SpamBucket | undefined;
  /** same is the next SpamBucket about the same UID. */
  same: SpamBucket | undefined;
}

/** EventRecorder writes core/v1 Events for one component. */
export class EventRecorder {
  private readonly client: Client;
  private readonly component: string;
  private readonly host: string | undefined;
  /** source is every Event's source: one object serves them all (stored objects are read-only). */
  private readonly source: Event['source'];
  private readonly seen = new Map<string, SeenEvent>();
  private seenCount = 0;
  // seenOrder holds the correlator's entries in the order they were made (a ring of
  // maxLruCacheEntries once full): the oldest is forgotten first.
  private readonly seenOrder: SeenEvent[] = [];
  private seenHead = 0;
  private readonly buckets = new Map<string, SpamBucket>();
  private bucketCount = 0;
  // The buckets from least (oldest) to most (newest) recently used.
  private oldest: SpamBucket | undefined;
  private newest: SpamBucket | undefined;

  constructor(client: Client, component: string, host?: string) {
    this.client = client;
    this.component = component;
    this.host = host;
    this.source = host ? { component, host } : { component };
  }

  /** event records eventtype/reason/message about obj (Eventf). Failures are dropped, as upstream. */
  event(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const sim = this.client.apiserver.sim;
    const now = formatTime(sim.now());
    const ns = obj.metadata.namespace || 'default';
    const uid = String(obj.metadata.uid);
    if (!this.allow(uid, obj.kind, ns, obj.metadata.name, sim.now())) return;
    let prev = this.seen.get(uid);
    while (prev && (prev.type !== type || prev.reason !== reason || prev.message !== message)) prev = prev.same;
    try {
      if (prev) {
        prev.count++;
        this.client.patch<Event>('events', prev.namespace, prev.name, { count: prev.count, lastTimestamp: now });
        return;
      }
      const name = `${obj.metadata.name}.${unixNanoHex(Math.floor(sim.now()), this.seenCount)}`;
      const ev: Event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: ns } as Event['metadata'],
        involvedObject: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name,
          namespace: obj.metadata.namespace,
          uid: obj.metadata.uid,
          resourceVersion: obj.metadata.resourceVersion,
        },
        reason,
        message,
        source: this.source,
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        type,
        eventTime: null,
        reportingComponent: this.component,
        reportingInstance: this.host ?? '',
      };
      this.client.create('events', ev, true);
      const e: SeenEvent = { uid, type, reason, message, name, namespace: ns, count: 1, same: undefined };
      // Upstream's correlator keeps an LRU of 4096 events; forget the oldest beyond that.
      if (this.seenCount >= maxLruCacheEntries) {
        this.forget(this.seenOrder[this.seenHead]);
        this.seenOrder[this.seenHead] = e;
        this.seenHead = (this.seenHead + 1) % maxLruCacheEntries;
      } else this.seenOrder.push(e);
      e.same = this.seen.get(uid);
      this.seen.set(uid, e);
      this.seenCount++;
    } catch {
      // Events are best effort: a failure to record one never fails the caller.
    }
  }

  // forget drops a correlator entry.
  private forget(e: SeenEvent): void {
    unchain(this.seen, e);
    this.seenCount--;
  }

  // allow is the spam filter's token bucket: burst 25, one token back every 300 s. Like upstream's
  // (an LRU cache of 4096 entries, maxLruCacheEntries) it forgets the least recently used source
  // and object beyond that, which then starts again with a full bucket.
  private allow(uid: string, kind: string, namespace: string, name: string, now: number): boolean {
    let b = this.buckets.get(uid);
    while (b && (b.kind !== kind || b.namespace !== namespace || b.name !== name)) b = b.same;
    if (b) this.unlink(b);
    else {
      if (this.bucketCount >= maxLruCacheEntries) this.evict(this.oldest!);
      b = { uid, kind, namespace, name, tokens: 25, last: now, prev: undefined, next: undefined, same: this.buckets.get(uid) };
      this.buckets.set(uid, b);
      this.bucketCount++;
    }
    // The bucket becomes the most recently used.
    b.prev = this.newest;
    if (this.newest) this.newest.next = b;
    else this.oldest = b;
    this.newest = b;
    b.tokens = Math.min(25, b.tokens + (now - b.last) / 300_000);
    b.last = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  // evict drops the spam filter's bucket b.
  private evict(b: SpamBucket): void {
    this.unlink(b);
    unchain(this.buckets, b);
    this.bucketCount--;
  }

  private unlink(b: SpamBucket): void {
    if (b.prev) b.prev.next = b.next;
    else this.oldest = b.next;
    if (b.next) b.next.prev = b.prev;
    else this.newest = b.prev;
    b.prev = b.next = undefined;
  }
}

// unixNanoHex is the hex of the Unix nanosecond timestamp of virtual millisecond ms, plus bump
// (upstream names events "%v.%x" with t.UnixNano()). The value exceeds 2^53, so it is kept as
// hi * 2^24 + lo, both exact in doubles, and printed as hi's hex followed by lo's six hex digits;
// the pair for the last millisecond is memoized, as time only moves forward.
let lastMs = Number.NaN;
let lastHi = 0;
let lastLo = 0;
/** lastHiHex is lastHi in hex (most names of a millisecond share it). */
let lastHiHex = '';

function unixNanoHex(ms: number, bump: number): string {
  if (ms !== lastMs) {
    // ns = (EPOCH_UNIX_MS + ms) * 1e6, as a hi * 2^24 + lo pair.
    const unixMs = 1767225600000 + ms;
    const msHi = Math.floor(unixMs / 16777216);
    const msLo = unixMs - msHi * 16777216;
    const lo = msLo * 1000000;
    const carry = Math.floor(lo / 16777216);
    lastHi = msHi * 1000000 + carry;
    lastLo = lo - carry * 16777216;
    lastHiHex = lastHi.toString(16);
    lastMs = ms;
  }
  let lo = lastLo + bump;
  if (lo < 16777216) return lastHiHex + lo.toString(16).padStart(6, '0');
  const c = Math.floor(lo / 16777216);
  lo -= c * 16777216;
  return (lastHi + c).toString(16) + lo.toString(16).padStart(6, '0');
}

/** unchain removes e from the chain of entries that share its object UID in byUID. */
function unchain<E extends { uid: string; same?: E }>(byUID: Map<string, E>, e: E): void {
  const first = byUID.get(e.uid)!;
  if (first === e) {
    if (e.same) byUID.set(e.uid, e.same);
    else byUID.delete(e.uid);
    return;
  }
  let p = first;
  while (p.same !== e) p = p.same!;
  p.same = e.same;
}

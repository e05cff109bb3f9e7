// Mirrors staging/src/k8s.io/client-go/tools/record (event.go recorderImpl, events_cache.go
// EventCorrelator): a component records a core/v1 Event about an object (or one of its parts, a
// fieldPath such as spec.containers{nginx}). The correlator, in upstream's order:
// - EventAggregator: a 10th different message with the same source, object, type and reason
//   within 600 s of the last one turns the Event into one "(combined from similar events): "
//   Event, which later ones of the kind update;
// - eventLogger: a repeat of the same Event (same object, fieldPath, type, reason and message)
//   bumps count and lastTimestamp with a PATCH of the stored Event (count, lastTimestamp, message)
//   instead of a new one, and creates it again if the Event is gone (expired);
// - EventSourceObjectSpamFilter: a burst of 25 Events per source and object, refilled at one per
//   5 minutes; Events beyond that are dropped (their count still advances, as upstream's does).
// Event names are "<object name>.<hex timestamp>" as upstream makes them. kube-scheduler writes
// events.k8s.io/v1 Events instead (events-v1.ts).
// Simplification: a failed write is dropped; upstream retries up to 12 times, 10 s apart.
// Simplification: once 10 messages are aggregated, the one forgotten to make room for the next is
// the oldest (upstream's sets.String PopAny forgets an arbitrary one).

import type { Event, KubeObject } from '../api/types.ts';
import { formatTime } from '../engine/clock.ts';
import { StatusError } from '../apiserver/errors.ts';
import { StrategicMergePatchType } from '../apiserver/patch.ts';
import type { Client } from './client.ts';

// maxLruCacheEntries is the size of the correlator's and the spam filter's caches
// (client-go tools/record/events_cache.go).
const maxLruCacheEntries = 4096;
// defaultAggregateMaxEvents and defaultAggregateIntervalInSeconds (events_cache.go).
const defaultAggregateMaxEvents = 10;
const defaultAggregateIntervalMs = 600_000;
// defaultSpamBurst and defaultSpamQPS (one per 300 s).
const defaultSpamBurst = 25;
const spamRefillMs = 300_000;

// The caches are kept by the involved object's UID, each holding a short chain of the entries
// about that object, so that finding one compares a few fields instead of building and hashing a
// long key string on every Event. An entry is the same as upstream's key: kind, namespace, name
// and UID for the spam filter; UID, type and reason for the aggregator; UID, fieldPath, type,
// reason and message for the correlator (or the aggregate's UID, type and reason).

/** SeenEvent is an Event the correlator has recorded: a repeat of it bumps its count. */
interface SeenEvent {
  readonly uid: string;
  readonly type: string;
  readonly reason: string;
  /** message is undefined for the aggregate Event (its key has no message). */
  readonly message: string | undefined;
  readonly fieldPath: string;
  readonly name: string;
  readonly namespace: string;
  readonly firstTimestamp: string;
  count: number;
  /** same is the next SeenEvent about the same UID. */
  same: SeenEvent | undefined;
}

/** AggregateRecord is aggregateRecord: the distinct messages of one object, type and reason. */
interface AggregateRecord {
  readonly uid: string;
  readonly type: string;
  readonly reason: string;
  /** localKeys are the distinct messages seen, oldest first (most hold one). */
  localKeys: string | string[];
  lastTimestamp: number;
  same: AggregateRecord | undefined;
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

/** Ring is a cache that forgets its oldest entry beyond maxLruCacheEntries. */
class Ring<E> {
  private readonly order: E[] = [];
  private head = 0;

  /** add remembers e and returns the entry it forgets, if the ring is full. */
  add(e: E): E | undefined {
    if (this.order.length < maxLruCacheEntries) {
      this.order.push(e);
      return undefined;
    }
    const old = this.order[this.head];
    this.order[this.head] = e;
    this.head = (this.head + 1) % maxLruCacheEntries;
    return old;
  }
}

/** EventRecorder writes core/v1 Events for one component. */
export class EventRecorder {
  private readonly client: Client;
  private readonly component: string;
  private readonly host: string | undefined;
  /** source is every Event's source: one object serves them all (stored objects are read-only). */
  private readonly source: Event['source'];
  private readonly seen = new Map<string, SeenEvent>();
  // seenOrder holds the correlator's entries in the order they were made: the oldest is
  // forgotten first. aggregateOrder does the same for the aggregator's records.
  private readonly seenOrder = new Ring<SeenEvent>();
  private seenCount = 0;
  private readonly aggregates = new Map<string, AggregateRecord>();
  private readonly aggregateOrder = new Ring<AggregateRecord>();
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

  /**
   * event records eventtype/reason/message about obj (Eventf), or about the part of it fieldPath
   * names (the kubelet's container references). Failures are dropped, as upstream.
   */
  event(
    obj: KubeObject,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    fieldPath = '',
  ): void {
    const sim = this.client.apiserver.sim;
    const nowMs = sim.now();
    const ns = obj.metadata.namespace || 'default';
    const uid = String(obj.metadata.uid);
    // EventAggregate: the 10th distinct message in 600 s makes this the aggregate Event.
    const aggregate = this.aggregate(uid, type, reason, message, nowMs);
    const eventMessage = aggregate ? `(combined from similar events): ${message}` : message;
    // eventObserve: a cached Event with this key is patched, with its name, first time and count.
    let prev = this.seen.get(uid);
    if (aggregate)
      while (prev && (prev.message !== undefined || prev.type !== type || prev.reason !== reason))
        prev = prev.same;
    else
      while (
        prev &&
        (prev.message !== message ||
          prev.fieldPath !== fieldPath ||
          prev.type !== type ||
          prev.reason !== reason)
      )
        prev = prev.same;
    if (prev) prev.count++;
    // The spam filter sees the observed Event: a dropped one has still been counted.
    if (!this.allow(uid, obj.kind, ns, obj.metadata.name, nowMs)) {
      if (!prev)
        this.remember(
          uid,
          type,
          reason,
          aggregate ? undefined : message,
          fieldPath,
          this.eventName(obj, nowMs),
          ns,
          formatTime(nowMs),
        );
      return;
    }
    const now = formatTime(nowMs);
    try {
      if (prev && prev.count > 1) {
        try {
          this.client.patch<Event>(
            'events',
            prev.namespace,
            prev.name,
            { count: prev.count, lastTimestamp: now, message: eventMessage },
            undefined,
            StrategicMergePatchType,
          );
          return;
        } catch (e) {
          // Update can fail because the Event may have been removed (expired): create it again.
          if (!(e instanceof StatusError) || e.reason !== 'NotFound') throw e;
        }
      }
      const name = prev ? prev.name : this.eventName(obj, nowMs);
      const ev: Event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: prev ? prev.namespace : ns } as Event['metadata'],
        involvedObject: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name,
          namespace: obj.metadata.namespace,
          uid: obj.metadata.uid,
          resourceVersion: obj.metadata.resourceVersion,
        },
        reason,
        message: eventMessage,
        source: this.source,
        firstTimestamp: prev ? prev.firstTimestamp : now,
        lastTimestamp: now,
        count: prev ? prev.count : 1,
        type,
        eventTime: null,
        // The aggregate Event is built without the reporting fields (events_cache.go).
        reportingComponent: aggregate ? '' : this.component,
        reportingInstance: aggregate ? '' : (this.host ?? ''),
      };
      if (fieldPath) ev.involvedObject.fieldPath = fieldPath;
      if (!prev)
        this.remember(uid, type, reason, aggregate ? undefined : message, fieldPath, name, ns, now);
      this.client.create('events', ev, true);
    } catch {
      // Events are best effort: a failure to record one never fails the caller.
    }
  }

  // eventName is makeEvent's name: "<name>.<hex UnixNano>", made unique per recorder.
  private eventName(obj: KubeObject, nowMs: number): string {
    return `${obj.metadata.name}.${unixNanoHex(Math.floor(nowMs), this.seenCount)}`;
  }

  // remember adds a correlator entry (count 1); upstream's LRU of 4096 forgets the oldest beyond.
  private remember(
    uid: string,
    type: string,
    reason: string,
    message: string | undefined,
    fieldPath: string,
    name: string,
    namespace: string,
    firstTimestamp: string,
  ): void {
    const e: SeenEvent = {
      uid,
      type,
      reason,
      message,
      fieldPath,
      name,
      namespace,
      firstTimestamp,
      count: 1,
      same: this.seen.get(uid),
    };
    this.seen.set(uid, e);
    this.seenCount++;
    const old = this.seenOrder.add(e);
    if (old) unchain(this.seen, old);
  }

  /**
   * aggregate is EventAggregate: it records message among the object's distinct messages for this
   * type and reason (forgotten 600 s after the last), and says whether there are now
   * defaultAggregateMaxEvents of them, making this Event the aggregate.
   */
  private aggregate(
    uid: string,
    type: string,
    reason: string,
    message: string,
    now: number,
  ): boolean {
    let r = this.aggregates.get(uid);
    while (r && (r.type !== type || r.reason !== reason)) r = r.same;
    if (!r) {
      r = {
        uid,
        type,
        reason,
        localKeys: message,
        lastTimestamp: now,
        same: this.aggregates.get(uid),
      };
      this.aggregates.set(uid, r);
      const old = this.aggregateOrder.add(r);
      if (old) unchain(this.aggregates, old);
      return false;
    }
    const fresh = now - r.lastTimestamp > defaultAggregateIntervalMs;
    r.lastTimestamp = now;
    if (fresh) {
      r.localKeys = message;
      return false;
    }
    if (typeof r.localKeys === 'string') {
      if (r.localKeys !== message) r.localKeys = [r.localKeys, message];
      return false;
    }
    if (!r.localKeys.includes(message)) r.localKeys.push(message);
    if (r.localKeys.length < defaultAggregateMaxEvents) return false;
    // Do not grow the set of messages beyond the maximum.
    r.localKeys.shift();
    return true;
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
      b = {
        uid,
        kind,
        namespace,
        name,
        tokens: defaultSpamBurst,
        last: now,
        prev: undefined,
        next: undefined,
        same: this.buckets.get(uid),
      };
      this.buckets.set(uid, b);
      this.bucketCount++;
    }
    // The bucket becomes the most recently used.
    b.prev = this.newest;
    if (this.newest) this.newest.next = b;
    else this.oldest = b;
    this.newest = b;
    b.tokens = Math.min(defaultSpamBurst, b.tokens + (now - b.last) / spamRefillMs);
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

export function unixNanoHex(ms: number, bump: number): string {
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

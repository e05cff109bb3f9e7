// Mirrors staging/src/k8s.io/client-go/tools/record (EventRecorder + EventCorrelator): a
// component records an Event about an object; a repeat of the same reason and message about
// the same object within the aggregation window bumps count and lastTimestamp instead.
// Event names are "<object name>.<hex timestamp>" as upstream makes them. The spam filter
// (EventSourceObjectSpamFilter) allows a burst of 25 events per source and object, refilled at one
// per 5 minutes; events beyond that are dropped, as upstream drops them.
// Simplification: the EventAggregator's "(combined from similar events)" merging is not modelled.

import type { Event, KubeObject } from '../api/types.ts';
import { formatTime } from '../engine/clock.ts';
import type { Client } from './client.ts';

/** EventRecorder writes core/v1 Events for one component. */
export class EventRecorder {
  private readonly client: Client;
  private readonly component: string;
  private readonly host: string | undefined;
  private readonly seen = new Map<string, { name: string; namespace: string; count: number; first: string }>();
  private readonly buckets = new Map<string, { tokens: number; last: number }>();

  constructor(client: Client, component: string, host?: string) {
    this.client = client;
    this.component = component;
    this.host = host;
  }

  /** event records eventtype/reason/message about obj (Eventf). Failures are dropped, as upstream. */
  event(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const sim = this.client.apiserver.sim;
    const now = formatTime(sim.now());
    const ns = obj.metadata.namespace || 'default';
    if (!this.allow(`${obj.kind}/${ns}/${obj.metadata.name}/${obj.metadata.uid}`, sim.now())) return;
    const key = `${obj.metadata.uid}|${type}|${reason}|${message}`;
    const prev = this.seen.get(key);
    try {
      if (prev) {
        prev.count++;
        this.client.patch<Event>('events', prev.namespace, prev.name, { count: prev.count, lastTimestamp: now });
        return;
      }
      const name = `${obj.metadata.name}.${unixNanoHex(Math.floor(sim.now()), this.seen.size)}`;
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
        source: this.host ? { component: this.component, host: this.host } : { component: this.component },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        type,
        eventTime: null,
        reportingComponent: this.component,
        reportingInstance: this.host ?? '',
      };
      this.client.create('events', ev, true);
      // Upstream's correlator keeps an LRU of 4096 events; forget the oldest beyond that.
      if (this.seen.size >= 4096) this.seen.delete(this.seen.keys().next().value!);
      this.seen.set(key, { name, namespace: ns, count: 1, first: now });
    } catch {
      // Events are best effort: a failure to record one never fails the caller.
    }
  }

  // allow is the spam filter's token bucket: burst 25, one token back every 300 s. Like upstream's
  // (an LRU cache of 4096 entries, maxLruCacheEntries) it forgets the least recently used source
  // and object beyond that, which then starts again with a full bucket.
  private allow(objectKey: string, now: number): boolean {
    let b = this.buckets.get(objectKey);
    if (b) this.buckets.delete(objectKey);
    else {
      b = { tokens: 25, last: now };
      if (this.buckets.size >= 4096) this.buckets.delete(this.buckets.keys().next().value!);
    }
    b.tokens = Math.min(25, b.tokens + (now - b.last) / 300_000);
    b.last = now;
    this.buckets.set(objectKey, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

// unixNanoHex is the hex of the Unix nanosecond timestamp of virtual millisecond ms, plus bump
// (upstream names events "%v.%x" with t.UnixNano()). The value exceeds 2^53, so it is kept as
// hi * 2^24 + lo, both exact in doubles, and printed as hi's hex followed by lo's six hex digits;
// the pair for the last millisecond is memoized, as time only moves forward.
let lastMs = Number.NaN;
let lastHi = 0;
let lastLo = 0;

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
    lastMs = ms;
  }
  let lo = lastLo + bump;
  let hi = lastHi;
  if (lo >= 16777216) {
    const c = Math.floor(lo / 16777216);
    hi += c;
    lo -= c * 16777216;
  }
  return hi.toString(16) + lo.toString(16).padStart(6, '0');
}

// Mirrors staging/src/k8s.io/client-go/tools/events (event_recorder.go, event_broadcaster.go): the
// events.k8s.io/v1 recorder kube-scheduler uses (pkg/scheduler: NewEventBroadcasterAdapter).
// An Event is reportingController and reportingInstance ("<controller>-<hostname>"), an action, a
// reason, a note, the regarding object's full reference and an eventTime. An isomorphic Event
// (same type, action, reason, reporting fields and regarding reference, resourceVersion included;
// the note may differ) does not make a new object:
// - the second one gives the cached Event a series {count: 2, lastObservedTime} and PATCHes it;
// - later ones only bump the cached series' count and lastObservedTime;
// - every 30 minutes (refreshExistingEventSeries) each series is PATCHed with its count;
// - every 6 minutes (finishSeries) a series not observed for 6 minutes is PATCHed a last time and
//   forgotten, as is a singleton Event older than 6 minutes; the next one starts afresh.
// A PATCH of an Event that is gone (expired) creates it again.
// Both APIs store the same object: it is kept here in its core/v1 form (regarding is
// involvedObject, note is message, reportingController is reportingComponent), with the empty
// source, null firstTimestamp and lastTimestamp and no count that the conversion leaves.
// Simplification: a failed write is dropped; upstream retries up to 12 times, 10 s apart.

import type { Event, KubeObject } from '../api/types.ts';
import { StatusError } from '../apiserver/errors.ts';
import { formatMicroTime } from '../engine/clock.ts';
import type { TimerHandle } from '../engine/simulation.ts';
import type { Client } from './client.ts';
import { unixNanoHex } from './events.ts';

// finishTime and refreshTime (event_broadcaster.go).
const finishTime = 6 * 60_000;
const refreshTime = 30 * 60_000;

/** CachedEvent is an entry of the broadcaster's eventCache. */
interface CachedEvent {
  /** ev is the Event as last sent, in its stored form. */
  ev: Event;
  /** eventTime and lastObserved are ev's eventTime and series.lastObservedTime in milliseconds. */
  readonly eventTime: number;
  lastObserved: number;
}

/** EventRecorderV1 writes events.k8s.io/v1 Events for one reporting controller. */
export class EventRecorderV1 {
  private readonly client: Client;
  private readonly reportingController: string;
  private readonly reportingInstance: string;
  private readonly cache = new Map<string, CachedEvent>();
  private made = 0;
  /** started is when StartRecordingToSink ran: the periodic passes run at started + k * period. */
  private started = 0;
  private finishTimer: TimerHandle | undefined;
  private refreshTimer: TimerHandle | undefined;

  /** hostname is the machine's (os.Hostname): reportingInstance is "<controller>-<hostname>". */
  constructor(client: Client, reportingController: string, hostname: string) {
    this.client = client;
    this.reportingController = reportingController;
    this.reportingInstance = `${reportingController}-${hostname}`;
  }

  /** start is StartRecordingToSink at process start: an empty cache, passes timed from now. */
  start(): void {
    this.stop();
    this.started = this.client.apiserver.sim.now();
  }

  /** stop forgets every cached Event, as the process exiting does. */
  stop(): void {
    this.finishTimer?.cancel();
    this.refreshTimer?.cancel();
    this.finishTimer = this.refreshTimer = undefined;
    this.cache.clear();
  }

  /** eventf records an Event about regarding (Eventf with no related object). */
  eventf(
    regarding: KubeObject,
    type: 'Normal' | 'Warning',
    reason: string,
    action: string,
    note: string,
  ): void {
    const sim = this.client.apiserver.sim;
    const now = sim.now();
    const ref = regarding.metadata;
    // getKey: the reporting fields are this recorder's, so the rest of the key tells Events apart.
    const key = `${regarding.apiVersion}\0${regarding.kind}\0${ref.namespace ?? ''}\0${ref.name}\0${ref.uid}\0${ref.resourceVersion ?? ''}\0${type}\0${action}\0${reason}`;
    const cached = this.cache.get(key);
    if (cached) {
      const series = cached.ev.series;
      cached.lastObserved = now;
      if (series) {
        // The series is only counted here; the periodic passes write it.
        cached.ev = {
          ...cached.ev,
          series: { count: series.count + 1, lastObservedTime: formatMicroTime(now) },
        };
        return;
      }
      cached.ev = { ...cached.ev, series: { count: 2, lastObservedTime: formatMicroTime(now) } };
      this.record(cached);
      return;
    }
    const eventTime = formatMicroTime(now);
    const ev: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${ref.name}.${unixNanoHex(Math.floor(now), this.made++)}`,
        namespace: ref.namespace || 'default',
      } as Event['metadata'],
      involvedObject: {
        apiVersion: regarding.apiVersion,
        kind: regarding.kind,
        name: ref.name,
        namespace: ref.namespace,
        uid: ref.uid,
        resourceVersion: ref.resourceVersion,
      },
      reason,
      message: note,
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type,
      eventTime,
      action,
      reportingComponent: this.reportingController,
      reportingInstance: this.reportingInstance,
    };
    const entry: CachedEvent = { ev, eventTime: now, lastObserved: now };
    this.cache.set(key, entry);
    this.arm();
    this.record(entry, true);
  }

  // record is recordEvent: a series is PATCHed (created again if the Event is gone), else created.
  // The cache keeps the object kube-apiserver stored (never changed: each change is a new copy),
  // so an Event costs one object; fresh says c.ev was built for this call and may be handed off.
  private record(c: CachedEvent, fresh = false): void {
    const ev = c.ev;
    const { name, namespace } = ev.metadata;
    try {
      if (ev.series) {
        try {
          this.client.patchEventsV1(namespace!, name, { series: ev.series });
          return;
        } catch (e) {
          if (!(e instanceof StatusError) || e.reason !== 'NotFound') throw e;
        }
      }
      // Making sure that uid and resourceVersion are empty on creation.
      const stored = this.client.createEventsV1(
        fresh ? ev : { ...ev, metadata: { name, namespace } as Event['metadata'] },
      );
      if (c.ev === ev) c.ev = stored;
    } catch {
      // Events are best effort: a failure to record one never fails the caller.
    }
  }

  // arm schedules the periodic passes while the cache holds Events, on their upstream ticks
  // (started + k * period): with nothing cached a pass does nothing, so none is scheduled.
  private arm(): void {
    const sim = this.client.apiserver.sim;
    const next = (period: number): number =>
      this.started + (Math.floor((sim.now() - this.started) / period) + 1) * period;
    this.finishTimer ??= sim.after(next(finishTime) - sim.now(), 'events finishSeries', () => {
      this.finishTimer = undefined;
      this.finishSeries();
      if (this.cache.size) this.arm();
    });
    this.refreshTimer ??= sim.after(
      next(refreshTime) - sim.now(),
      'events refreshExistingEventSeries',
      () => {
        this.refreshTimer = undefined;
        this.refreshExistingEventSeries();
        if (this.cache.size) this.arm();
      },
    );
  }

  // finishSeries writes the final count of each series not observed for finishTime and forgets
  // it, and forgets each singleton Event older than finishTime.
  private finishSeries(): void {
    const now = this.client.apiserver.sim.now();
    for (const [key, c] of this.cache) {
      if (c.ev.series) {
        if (c.lastObserved < now - finishTime) {
          this.record(c);
          this.cache.delete(key);
        }
      } else if (c.eventTime < now - finishTime) this.cache.delete(key);
    }
  }

  // refreshExistingEventSeries writes every series' count (refreshing the Event's TTL).
  private refreshExistingEventSeries(): void {
    for (const c of this.cache.values()) if (c.ev.series) this.record(c);
  }
}

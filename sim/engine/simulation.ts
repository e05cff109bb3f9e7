// The discrete-event engine: one clock, one seeded RNG, one agenda, one trace. Components
// schedule callbacks on it and record what they do in the trace; nothing else moves time.

import { Clock } from './clock.ts';
import { EventQueue, ScheduledEvent } from './event-queue.ts';
import { Rng } from './rng.ts';
import { defaultSettings, type Settings } from './settings.ts';
import type { TraceEntry, TraceEntryInput, TraceLevel } from './trace.ts';

/** Handle lets a scheduled event be cancelled. */
export interface TimerHandle {
  cancel(): void;
}

export interface SimulationOptions {
  seed: number;
  settings?: Partial<Settings>;
  traceLevel?: TraceLevel;
  /**
   * stream names a separate random stream for this seed: a born image (cluster.ts) draws from
   * stream "birth", so no run, whatever its seed, draws the same UIDs and names as its birth.
   */
  stream?: string;
}

/** Simulation is the context every component receives (ctx). */
export class Simulation {
  readonly clock = new Clock();
  readonly rng: Rng;
  readonly settings: Settings;
  readonly seed: number;
  traceLevel: TraceLevel;
  readonly trace: TraceEntry[] = [];
  /** eventsProcessed counts agenda entries run, for --summary and benchmarks. */
  eventsProcessed = 0;
  /** cause is the trace seq behind whatever is running now; new entries and events inherit it. */
  cause = 0;
  private readonly queue = new EventQueue();
  private seq = 0;
  private traceSeq = 0;

  constructor(opts: SimulationOptions) {
    this.seed = opts.seed;
    this.rng = opts.stream ? new Rng(opts.seed).fork(opts.stream) : new Rng(opts.seed);
    this.settings = { ...defaultSettings, ...opts.settings };
    this.traceLevel = opts.traceLevel ?? 'full';
  }

  /** now is the virtual time in milliseconds. */
  now(): number {
    return this.clock.nowMs;
  }

  /** at schedules fn at an absolute virtual time (never in the past). */
  at(time: number, what: string, fn: () => void, cause = this.cause): TimerHandle {
    const e = new ScheduledEvent(Math.max(time, this.clock.nowMs), ++this.seq, what, cause, fn);
    this.queue.push(e);
    return e;
  }

  /** after schedules fn delay milliseconds from now. */
  after(delay: number, what: string, fn: () => void, cause = this.cause): TimerHandle {
    return this.at(this.clock.nowMs + Math.max(0, delay), what, fn, cause);
  }

  /** records says whether record would keep an entry of this kind (so callers can skip building it). */
  records(kind: TraceEntry['kind']): boolean {
    if (this.traceLevel === 'full') return true;
    if (kind === 'command' || kind === 'fault') return true;
    // A Pod's DNS questions and connections come only from commands: the requests level keeps
    // them, so grading runs can read them.
    return (
      this.traceLevel === 'requests' &&
      (kind === 'request' || kind === 'select' || kind === 'dns' || kind === 'packet')
    );
  }

  /** record stamps and appends a trace entry, returning its seq (0 when not recorded). */
  record(entry: TraceEntryInput): number {
    if (this.traceLevel === 'none' && entry.kind !== 'command' && entry.kind !== 'fault') return 0;
    if (
      this.traceLevel === 'requests' &&
      entry.kind !== 'request' &&
      entry.kind !== 'command' &&
      entry.kind !== 'fault' &&
      entry.kind !== 'select' &&
      entry.kind !== 'dns' &&
      entry.kind !== 'packet'
    )
      return 0;
    const seq = ++this.traceSeq;
    // A spread builds the entry in one go (Object.assign adds the fields one by one).
    const full = { t: this.clock.nowMs / 1000, seq, ...entry } as TraceEntry;
    if (full.cause === undefined && this.cause) full.cause = this.cause;
    this.trace.push(full);
    return seq;
  }

  /** nextEventTime is the time of the next pending event, or Infinity. */
  nextEventTime(): number {
    this.dropCancelled();
    return this.queue.peek()?.time ?? Infinity;
  }

  private dropCancelled(): void {
    while (this.queue.peek()?.cancelled) this.queue.pop();
  }

  /** step runs the next event; it returns false when the agenda is empty. */
  step(): boolean {
    this.dropCancelled();
    const e = this.queue.pop();
    if (!e) return false;
    this.clock.nowMs = e.time;
    this.cause = e.cause;
    this.eventsProcessed++;
    e.run();
    this.cause = 0;
    return true;
  }

  /** runUntil runs every event up to and including time t, then sets the clock to t. */
  runUntil(t: number): void {
    for (;;) {
      this.dropCancelled();
      const next = this.queue.peek();
      if (!next || next.time > t) break;
      this.step();
    }
    if (t > this.clock.nowMs) this.clock.nowMs = t;
  }

  /** pending is the number of scheduled events (cancelled ones included until popped). */
  get pending(): number {
    return this.queue.size;
  }
}

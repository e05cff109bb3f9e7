// The agenda of scheduled callbacks, ordered by (time, seq). seq is a global counter, so two events
// at the same virtual time always run in the order they were scheduled.
//
// Events are kept in one bucket per distinct time, in the order they were pushed (which is seq
// order, as the engine numbers an event when it pushes it), and the distinct times in a binary
// min-heap of plain numbers. At scale most events share their instant with others or fall on
// a few thousand distinct milliseconds (5,000 kubelets' Lease and status timers, the watch
// deliveries a millisecond after them), so a push is usually an append to an existing bucket and
// the heap compares numbers in one typed array instead of following a pointer per comparison:
// the order is exactly the (time, seq) order of a heap of all events. A small agenda (up to
// smallAgenda events, as in every standard scenario) is that plain heap of all events.

/** ScheduledEvent is one entry of the queue; it is also the handle that cancels it. */
export class ScheduledEvent {
  time: number;
  seq: number;
  /** what names the event for debugging and for the progress line. */
  what: string;
  /** cause is the trace seq that led to this event, carried to what it does. */
  cause: number;
  run: () => void;
  cancelled = false;

  constructor(time: number, seq: number, what: string, cause: number, run: () => void) {
    this.time = time;
    this.seq = seq;
    this.what = what;
    this.cause = cause;
    this.run = run;
  }

  cancel(): void {
    this.cancelled = true;
  }
}

/** Bucket holds the events of one instant, in push order; head is the next one to run. */
interface Bucket {
  readonly time: number;
  readonly events: ScheduledEvent[];
  head: number;
}

// smallAgenda is the number of pending events up to which the agenda is a plain binary heap of
// events: the standard scenarios never leave it, and at their size a heap's few comparisons cost
// less than a bucket and a map entry per instant. The first push beyond moves the events into
// buckets for good.
const smallAgenda = 256;

function less(a: ScheduledEvent, b: ScheduledEvent): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

/** EventQueue is the engine's agenda. */
export class EventQueue {
  /** small is the agenda as a binary min-heap of events by (time, seq), until bucketed. */
  private small: ScheduledEvent[] = [];
  private bucketed = false;
  /** times is a binary min-heap of the instants that have a bucket (times[0..n)), once bucketed. */
  private times: Float64Array | undefined;
  private n = 0;
  private readonly buckets = new Map<number, Bucket>();
  /** top is the bucket of the earliest instant (times[0]), or undefined when empty. */
  private top: Bucket | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(e: ScheduledEvent): void {
    if (!this.bucketed) {
      if (this.count < smallAgenda) {
        this.count++;
        pushSmall(this.small, e);
        return;
      }
      this.toBuckets();
    }
    this.count++;
    this.pushBucketed(e);
  }

  // toBuckets moves the small heap's events into buckets, in (time, seq) order, so that each
  // bucket holds its events in seq order as pushes in seq order would have left it.
  private toBuckets(): void {
    const events = this.small.sort((a, b) => (less(a, b) ? -1 : 1));
    this.small = [];
    this.bucketed = true;
    this.times = new Float64Array(1024);
    for (const e of events) this.pushBucketed(e);
  }

  private pushBucketed(e: ScheduledEvent): void {
    const t = e.time;
    const top = this.top;
    if (top !== undefined && top.time === t) {
      top.events.push(e);
      return;
    }
    const b = this.buckets.get(t);
    if (b !== undefined) {
      b.events.push(e);
      return;
    }
    const nb: Bucket = { time: t, events: [e], head: 0 };
    this.buckets.set(t, nb);
    this.pushTime(t);
    if (top === undefined || t < top.time) this.top = nb;
  }

  peek(): ScheduledEvent | undefined {
    if (!this.bucketed) return this.small.length > 0 ? this.small[0] : undefined;
    const b = this.top;
    return b === undefined ? undefined : b.events[b.head];
  }

  pop(): ScheduledEvent | undefined {
    if (!this.bucketed) {
      if (this.small.length === 0) return undefined;
      this.count--;
      return popSmall(this.small);
    }
    const b = this.top;
    if (b === undefined) return undefined;
    const e = b.events[b.head++];
    this.count--;
    if (b.head === b.events.length) {
      // The instant is over (an event pushed for it later gets a new bucket).
      this.buckets.delete(b.time);
      this.popTime();
      this.top = this.n > 0 ? this.buckets.get(this.times![0]) : undefined;
    }
    return e;
  }

  private pushTime(t: number): void {
    if (this.n === this.times!.length) {
      const grown = new Float64Array(this.times!.length * 2);
      grown.set(this.times!);
      this.times = grown;
    }
    const h = this.times!;
    // Sift up by moving parents down into the hole, then place t once (no swaps).
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p] <= t) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = t;
  }

  private popTime(): void {
    const h = this.times!;
    const n = --this.n;
    if (n === 0) return;
    const last = h[n];
    // Sift the last time down from the root, moving smaller children up into the hole.
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && h[r] < h[l] ? r : l;
      if (h[c] >= last) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = last;
  }
}

// pushSmall sifts e up the small heap by moving parents down into the hole (no swaps).
function pushSmall(h: ScheduledEvent[], e: ScheduledEvent): void {
  h.push(e);
  let i = h.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!less(e, h[p])) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = e;
}

// popSmall takes the small heap's root and sifts its last event down from the top.
function popSmall(h: ScheduledEvent[]): ScheduledEvent {
  const top = h[0];
  const last = h.pop()!;
  const n = h.length;
  if (n > 0) {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && less(h[r], h[l]) ? r : l;
      if (!less(h[c], last)) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = last;
  }
  return top;
}

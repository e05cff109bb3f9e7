// The agenda of scheduled callbacks, ordered by (time, seq). seq is a global counter, so two events
// at the same virtual time always run in the order they were scheduled.
//
// Events are kept in one bucket per distinct time, in the order they were pushed (which is seq
// order, as the engine numbers an event when it pushes it), and the distinct times in a binary
// min-heap of plain numbers. At scale most events share their instant with others or fall on
// a few thousand distinct milliseconds (5,000 kubelets' Lease and status timers, the watch
// deliveries a millisecond after them), so a push is usually an append to an existing bucket and
// the heap compares numbers in one array instead of following a pointer per comparison:
// the order is exactly the (time, seq) order of a heap of all events.

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

// indexFrom is the number of distinct instants from which buckets are found through a map.
const indexFrom = 32;

/** EventQueue is the engine's agenda. */
export class EventQueue {
  // times is a binary min-heap of the instants that have a bucket (a plain array of numbers, which
  // V8 keeps unboxed), and heap[i] is the bucket of times[i]: the two move together, so the
  // comparisons read numbers only and the earliest bucket is heap[0], without a lookup. Plain
  // arrays rather than a typed one: a run's agenda is small in the standard scenarios, and
  // making a typed array's buffer costs more than a whole short run's pushes.
  private readonly times: number[] = [];
  private readonly heap: Bucket[] = [];
  /**
   * buckets finds the bucket of an instant that is not the earliest, once the agenda has held
   * indexFrom instants (indexed); a smaller agenda is searched by scanning times.
   */
  private readonly buckets = new Map<number, Bucket>();
  private indexed = false;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(e: ScheduledEvent): void {
    this.count++;
    const t = e.time;
    const bs = this.heap;
    const n = bs.length;
    if (n > 0 && bs[0].time === t) {
      bs[0].events.push(e);
      return;
    }
    let b: Bucket | undefined;
    if (this.indexed) b = this.buckets.get(t);
    else {
      // A small agenda (the standard scenarios') is scanned: cheaper than keeping a map.
      const h = this.times;
      for (let i = 1; i < n; i++)
        if (h[i] === t) {
          b = bs[i];
          break;
        }
    }
    if (b !== undefined) {
      b.events.push(e);
      return;
    }
    const nb: Bucket = { time: t, events: [e], head: 0 };
    if (this.indexed) this.buckets.set(t, nb);
    else if (n >= indexFrom) {
      this.indexed = true;
      for (const x of bs) this.buckets.set(x.time, x);
      this.buckets.set(t, nb);
    }
    this.pushTime(nb);
  }

  peek(): ScheduledEvent | undefined {
    if (this.heap.length === 0) return undefined;
    const b = this.heap[0];
    return b.events[b.head];
  }

  pop(): ScheduledEvent | undefined {
    if (this.heap.length === 0) return undefined;
    const b = this.heap[0];
    const e = b.events[b.head++];
    this.count--;
    if (b.head === b.events.length) {
      // The instant is over (an event pushed for it later gets a new bucket).
      if (this.indexed) this.buckets.delete(b.time);
      this.popTime();
    }
    return e;
  }

  private pushTime(b: Bucket): void {
    const h = this.times;
    const bs = this.heap;
    const t = b.time;
    // Sift up by moving parents down into the hole, then place t once (no swaps).
    let i = h.length;
    h.push(t);
    bs.push(b);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p] <= t) break;
      h[i] = h[p];
      bs[i] = bs[p];
      i = p;
    }
    h[i] = t;
    bs[i] = b;
  }

  private popTime(): void {
    const h = this.times;
    const bs = this.heap;
    const last = h.pop()!;
    const lastB = bs.pop()!;
    const n = h.length;
    if (n === 0) return;
    // Sift the last time down from the root, moving smaller children up into the hole.
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && h[r] < h[l] ? r : l;
      if (h[c] >= last) break;
      h[i] = h[c];
      bs[i] = bs[c];
      i = c;
    }
    h[i] = last;
    bs[i] = lastB;
  }
}

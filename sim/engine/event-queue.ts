// A binary min-heap of scheduled callbacks ordered by (time, seq). seq is a global counter, so
// two events at the same virtual time always run in the order they were scheduled.

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

function less(a: ScheduledEvent, b: ScheduledEvent): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

/** EventQueue is the engine's agenda. */
export class EventQueue {
  private heap: ScheduledEvent[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(e: ScheduledEvent): void {
    const h = this.heap;
    h.push(e);
    // Sift up by moving parents down into the hole, then place e once (no swaps).
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(e, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = e;
  }

  peek(): ScheduledEvent | undefined {
    return this.heap[0];
  }

  pop(): ScheduledEvent | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    const n = h.length;
    if (n > 0) {
      // Sift the last element down from the root, moving smaller children up into the hole.
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
}

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
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  peek(): ScheduledEvent | undefined {
    return this.heap[0];
  }

  pop(): ScheduledEvent | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l], h[m])) m = l;
        if (r < h.length && less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

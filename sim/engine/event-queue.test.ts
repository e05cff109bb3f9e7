import { describe, expect, it } from 'vitest';
import { EventQueue, ScheduledEvent } from './event-queue.ts';
import { Rng } from './rng.ts';

const noop = (): void => {};

describe('EventQueue', () => {
  // Spans of 10 and 20 instants stay below the size from which buckets are indexed by a map;
  // 50 and 5,000 cross it.
  it.each([10, 20, 50, 5000])(
    'pops in (time, seq) order, with pushes for the instant being drained running last (%i instants)',
    (span) => {
      const rng = new Rng(5);
      const q = new EventQueue();
      let seq = 0;
      const popped: ScheduledEvent[] = [];
      for (let i = 0; i < 500; i++) q.push(new ScheduledEvent(rng.intn(span), ++seq, 'x', 0, noop));
      while (q.size > 0) {
        const e = q.pop()!;
        popped.push(e);
        // Some events schedule others: at the same instant, a little later, or far ahead.
        if (popped.length < 2000 && rng.intn(3) === 0)
          q.push(new ScheduledEvent(e.time + [0, 1, 7, 0.5][rng.intn(4)], ++seq, 'y', 0, noop));
      }
      expect(popped.length).toBeGreaterThan(500);
      for (let i = 1; i < popped.length; i++) {
        const a = popped[i - 1];
        const b = popped[i];
        expect(a.time < b.time || (a.time === b.time && a.seq < b.seq)).toBe(true);
      }
    },
  );

  it('peeks the next event without taking it and counts what it holds', () => {
    const q = new EventQueue();
    expect(q.peek()).toBeUndefined();
    expect(q.pop()).toBeUndefined();
    const late = new ScheduledEvent(10, 1, 'late', 0, noop);
    const early = new ScheduledEvent(3, 2, 'early', 0, noop);
    q.push(late);
    q.push(early);
    expect(q.size).toBe(2);
    expect(q.peek()).toBe(early);
    expect(q.pop()).toBe(early);
    expect(q.peek()).toBe(late);
    expect(q.size).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { EventQueue, ScheduledEvent } from './event-queue.ts';
import { Rng } from './rng.ts';

const noop = (): void => {};

describe('EventQueue', () => {
  // The agenda starts as a heap of events and turns into buckets past 256 pending events: 100
  // events stay a heap, 500 cross over with few instants (long buckets) or many.
  it.each([
    [10, 100],
    [5000, 100],
    [10, 500],
    [20, 500],
    [50, 500],
    [5000, 500],
  ])(
    'pops in (time, seq) order, with pushes for the instant being drained running last (%i instants, %i events)',
    (span, count) => {
      const rng = new Rng(5);
      const q = new EventQueue();
      let seq = 0;
      const popped: ScheduledEvent[] = [];
      for (let i = 0; i < count; i++)
        q.push(new ScheduledEvent(rng.intn(span), ++seq, 'x', 0, noop));
      while (q.size > 0) {
        const e = q.pop()!;
        popped.push(e);
        // Some events schedule others: at the same instant, a little later, or far ahead.
        if (popped.length < 2000 && rng.intn(3) === 0)
          q.push(new ScheduledEvent(e.time + [0, 1, 7, 0.5][rng.intn(4)], ++seq, 'y', 0, noop));
      }
      expect(popped.length).toBeGreaterThan(count);
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

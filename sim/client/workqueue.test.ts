import { describe, expect, it } from 'vitest';
import { Simulation } from '../engine/simulation.ts';
import { RateLimitingQueue } from './workqueue.ts';

describe('RateLimitingQueue', () => {
  it('de-duplicates keys added before processing', () => {
    const sim = new Simulation({ seed: 1 });
    const done: string[] = [];
    const q = new RateLimitingQueue(sim, { name: 'q' }, (k) => {
      done.push(k);
    });
    q.add('a');
    q.add('b');
    q.add('a');
    sim.runUntil(0);
    expect(done).toEqual(['a', 'b']);
  });
  it('runs a key again when it is added while being processed, never concurrently', () => {
    const sim = new Simulation({ seed: 1 });
    const done: string[] = [];
    let first = true;
    const q = new RateLimitingQueue(sim, { name: 'q' }, (k) => {
      done.push(k);
      if (first) {
        first = false;
        q.add(k);
      }
    });
    q.add('a');
    sim.runUntil(0);
    expect(done).toEqual(['a', 'a']);
  });
  it('backs off exponentially from 5ms per failure and resets on forget', () => {
    const sim = new Simulation({ seed: 1 });
    const times: number[] = [];
    const q = new RateLimitingQueue(sim, { name: 'q' }, () => {
      times.push(sim.now());
      if (times.length < 4) q.addRateLimited('a');
    });
    q.add('a');
    sim.runUntil(1000);
    expect(times).toEqual([0, 5, 15, 35]);
    expect(q.numRequeues('a')).toBe(3);
    q.forget('a');
    expect(q.numRequeues('a')).toBe(0);
  });
  it('keeps the earliest of several delayed adds', () => {
    const sim = new Simulation({ seed: 1 });
    const times: number[] = [];
    const q = new RateLimitingQueue(sim, { name: 'q' }, () => {
      times.push(sim.now());
    });
    q.addAfter('a', 500);
    q.addAfter('a', 100);
    q.addAfter('a', 900);
    sim.runUntil(2000);
    expect(times).toEqual([100]);
  });
});

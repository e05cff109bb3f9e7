import { describe, expect, it } from 'vitest';
import { Simulation } from './simulation.ts';
import { Rng, randString, alphanums } from './rng.ts';

describe('Simulation agenda', () => {
  it('runs events in (time, seq) order and never leaves ties to chance', () => {
    const sim = new Simulation({ seed: 1 });
    const seen: string[] = [];
    sim.at(10, 'b', () => seen.push('b'));
    sim.at(5, 'a', () => seen.push('a'));
    sim.at(10, 'c', () => seen.push('c'));
    const h = sim.at(7, 'x', () => seen.push('x'));
    h.cancel();
    sim.runUntil(100);
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(sim.now()).toBe(100);
  });
  it('propagates the cause to events scheduled from a handler', () => {
    const sim = new Simulation({ seed: 1 });
    let seenCause = -1;
    sim.at(1, 'first', () => {
      const seq = sim.record({ kind: 'timer', from: 'a', to: 'a', what: 'tick' });
      sim.cause = seq;
      sim.after(1, 'second', () => (seenCause = sim.cause));
    });
    sim.runUntil(10);
    expect(seenCause).toBe(1);
  });
});

describe('Rng', () => {
  it('is reproducible for a seed and differs across seeds', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const xa = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xa);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xa);
  });
  it('draws generated names from apimachinery alphabet', () => {
    const r = new Rng(7);
    const s = randString(r, 500);
    expect(s).toHaveLength(500);
    expect([...s].every((ch) => alphanums.includes(ch))).toBe(true);
    expect(new Set(s).size).toBe(27);
  });
  it('intn stays in range', () => {
    const r = new Rng(3);
    for (let i = 0; i < 1000; i++) {
      const v = r.intn(7);
      expect(v >= 0 && v < 7 && Number.isInteger(v)).toBe(true);
    }
  });
});

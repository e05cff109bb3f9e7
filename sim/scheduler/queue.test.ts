import { describe, expect, it } from 'vitest';
import { Simulation } from '../engine/simulation.ts';
import { EventAssignedPodDelete, EventNodeAdd, PriorityQueue } from './queue.ts';
import { makePod } from './testing.ts';

function newQueue(): { sim: Simulation; q: PriorityQueue } {
  const sim = new Simulation({ seed: 1 });
  return { sim, q: new PriorityQueue(sim) };
}

describe('PriorityQueue backoff', () => {
  it('doubles podInitialBackoff per attempt and caps at podMaxBackoff: 1s, 2s, 4s, 8s, 10s', () => {
    const { q } = newQueue();
    expect([1, 2, 3, 4, 5, 6, 10].map((a) => q.calculateBackoffDuration(a))).toEqual([
      1000, 2000, 4000, 8000, 10000, 10000, 10000,
    ]);
    expect(q.calculateBackoffDuration(0)).toBe(0);
  });
  it('follows the settings', () => {
    const sim = new Simulation({
      seed: 1,
      settings: { podInitialBackoff: 500, podMaxBackoff: 3000 },
    });
    const q = new PriorityQueue(sim);
    expect([1, 2, 3, 4].map((a) => q.calculateBackoffDuration(a))).toEqual([500, 1000, 2000, 3000]);
  });
});

describe('PriorityQueue ordering (PrioritySort)', () => {
  it('pops higher priority first, then earlier arrivals', () => {
    const { q } = newQueue();
    q.add(makePod('low-1'));
    q.add(makePod('high', { priority: 1000 }));
    q.add(makePod('low-2'));
    const order = [q.pop(), q.pop(), q.pop()].map((p) => p!.podInfo.pod.metadata.name);
    expect(order).toEqual(['high', 'low-1', 'low-2']);
    expect(q.pop()).toBeUndefined();
    expect(q.schedulingCycle).toBe(3);
  });
});

describe('PriorityQueue unschedulable pods', () => {
  it('moves a pod on a registered event: to backoffQ while backing off, then to activeQ at the 1s flush', () => {
    const { sim, q } = newQueue();
    q.add(makePod('p'));
    const p = q.pop()!;
    p.unschedulablePlugins = new Set(['NodeResourcesFit']);
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle);
    expect(q.whereIs(p.podInfo.uid)).toBe('unschedulable');
    sim.runUntil(400);
    q.moveAllToActiveOrBackoffQueue(EventNodeAdd);
    expect(q.whereIs(p.podInfo.uid)).toBe('backoff'); // attempt 1 → backoff until t=1000
    sim.runUntil(999);
    expect(q.whereIs(p.podInfo.uid)).toBe('backoff');
    sim.runUntil(1000);
    expect(q.whereIs(p.podInfo.uid)).toBe('active');
  });
  it('leaves a pod whose rejecting plugins did not register the event', () => {
    const { q } = newQueue();
    q.add(makePod('p'));
    const p = q.pop()!;
    p.unschedulablePlugins = new Set(['TaintToleration']);
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle);
    q.moveAllToActiveOrBackoffQueue(EventAssignedPodDelete);
    expect(q.whereIs(p.podInfo.uid)).toBe('unschedulable');
    q.moveAllToActiveOrBackoffQueue(EventNodeAdd);
    expect(q.whereIs(p.podInfo.uid)).toBe('backoff');
  });
  it('sends a pod that failed with an error (no rejecting plugin) to backoffQ', () => {
    const { q } = newQueue();
    q.add(makePod('p'));
    const p = q.pop()!;
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle);
    expect(q.whereIs(p.podInfo.uid)).toBe('backoff');
  });
  it('flushes pods left in unschedulablePods for podMaxInUnschedulablePodsDuration (5m)', () => {
    const { sim, q } = newQueue();
    q.add(makePod('p'));
    const p = q.pop()!;
    p.unschedulablePlugins = new Set(['NodeResourcesFit']);
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle);
    sim.runUntil(300_000);
    expect(q.whereIs(p.podInfo.uid)).toBe('unschedulable');
    sim.runUntil(330_000);
    expect(q.whereIs(p.podInfo.uid)).toBe('active');
  });
  it('moves an unschedulable pod whose spec changed, but not on a status-only update', () => {
    const { q } = newQueue();
    const pod = makePod('p');
    q.add(pod);
    const p = q.pop()!;
    p.unschedulablePlugins = new Set(['NodeAffinity']);
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle);
    const statusOnly = {
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: '2' },
      status: { phase: 'Pending' as const, conditions: [] },
    };
    q.update(pod, statusOnly);
    expect(q.whereIs(p.podInfo.uid)).toBe('unschedulable');
    const relabelled = {
      ...statusOnly,
      metadata: { ...statusOnly.metadata, labels: { tier: 'x' } },
    };
    q.update(statusOnly, relabelled);
    expect(q.whereIs(p.podInfo.uid)).toBe('backoff');
  });
});

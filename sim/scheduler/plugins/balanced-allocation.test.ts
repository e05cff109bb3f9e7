import { describe, expect, it } from 'vitest';
import { CycleState, NodeInfo, newPodInfo } from '../framework.ts';
import { makeNode, makePod } from '../testing.ts';
import {
  NodeResourcesBalancedAllocation,
  balancedResourceScorer,
  balancedScore,
} from './balanced-allocation.ts';

describe('NodeResourcesBalancedAllocation', () => {
  it('scores (1 - |f1 - f2| / 2) * 100 for two resources', () => {
    // cpu 3000/4000 = 0.75, memory 5000/10000 = 0.5 → std 0.125 → 87
    expect(balancedResourceScorer([3000, 5000], [4000, 10000])).toBe(87);
    const ni = new NodeInfo(0, 'n');
    ni.setNode(makeNode('n', { cpu: '4000m', memory: '10000' }));
    expect(balancedScore(3000, 5000, ni)).toBe(87);
  });
  it('caps each fraction at 1', () => {
    // cpu 2 (capped to 1), memory 0.5 → std 0.25 → 75
    expect(balancedResourceScorer([8000, 5000], [4000, 10000])).toBe(75);
  });
  it('uses the population standard deviation for more than two resources', () => {
    // fractions 0.2, 0.4, 0.6: mean 0.4, variance (0.04+0+0.04)/3, std 0.1633 → 83
    expect(balancedResourceScorer([2, 4, 6], [10, 10, 10])).toBe(83);
  });
  it('skips resources with zero allocatable (a single fraction scores 100)', () => {
    expect(balancedResourceScorer([3000, 5000], [4000, 0])).toBe(100);
  });
  it('skips best-effort pods at PreScore', () => {
    const state = new CycleState();
    const s = NodeResourcesBalancedAllocation.preScore(
      state,
      newPodInfo(makePod('p')),
      [],
      undefined as never,
    );
    expect(s?.code).toBe(5);
    const t = NodeResourcesBalancedAllocation.preScore(
      state,
      newPodInfo(makePod('q', { requests: [{ cpu: '1' }] })),
      [],
      undefined as never,
    );
    expect(t).toBeNull();
  });
  it('uses actual requests, without the non-zero defaults', () => {
    const ni = new NodeInfo(0, 'n');
    ni.setNode(makeNode('n', { cpu: '1', memory: '1000Mi' }));
    ni.addPodInfo(newPodInfo(makePod('besteffort')));
    // only the incoming pod counts: cpu 500/1000 = 0.5, memory 0 → std 0.25 → 75
    expect(balancedScore(500, 0, ni)).toBe(75);
  });
});

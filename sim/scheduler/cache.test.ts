import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector } from '../api/labels.ts';
import { Cache, NodeTree } from './cache.ts';
import { newPodInfo as makePodInfo } from './framework.ts';
import { makeNode, makePod } from './testing.ts';

const web = labelSelectorAsSelector({ matchLabels: { app: 'web' } });
const matcher = {
  key: 'test|web',
  namespaces: new Set(['default']),
  selectors: [web],
  excludeTerminating: true,
};

function zoneTotals(cache: Cache): Map<string, number> {
  const idx = cache.podCounts(matcher);
  const out = new Map<string, number>();
  for (const n of cache.nodeInfoList()) {
    const c = idx.perNode.get(n) ?? 0;
    if (c) out.set(n.zone ?? '', (out.get(n.zone ?? '') ?? 0) + c);
  }
  return out;
}

function perZone(cache: Cache): Map<string, number> {
  const idx = cache.podCounts(matcher);
  const out = new Map<string, number>();
  for (const n of cache.nodeInfoList()) {
    const v = n.zoneId < idx.perZone.length ? idx.perZone[n.zoneId] : 0;
    if (v) out.set(n.zone ?? '', v);
  }
  return out;
}

describe('NodeTree', () => {
  it('lists nodes round-robin over zones in the order they were added', () => {
    const t = new NodeTree();
    for (const [n, z] of [
      ['a1', 'a'],
      ['a2', 'a'],
      ['a3', 'a'],
      ['b1', 'b'],
      ['c1', 'c'],
      ['c2', 'c'],
    ])
      t.addNode(n, z);
    expect(t.list()).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
    t.removeNode('b1', 'b');
    expect(t.list()).toEqual(['a1', 'c1', 'a2', 'c2', 'a3']);
  });
});

describe('Cache', () => {
  it('keeps NodeInfo sums incrementally and confirms assumed pods', () => {
    const cache = new Cache();
    cache.addNode(makeNode('n1'));
    const pod = makePod('p', { requests: [{ cpu: '500m', memory: '1Gi' }] });
    const assumed = { ...pod, spec: { ...pod.spec, nodeName: 'n1' } };
    cache.assumePod(makePodInfo(assumed));
    const ni = cache.getNodeInfo('n1')!;
    expect(ni.requested.milliCPU).toBe(500);
    expect(cache.isAssumedPod(pod.metadata.uid)).toBe(true);
    cache.addPod(assumed);
    expect(cache.isAssumedPod(pod.metadata.uid)).toBe(false);
    expect(ni.requested.milliCPU).toBe(500);
    cache.removePod(assumed);
    expect(ni.requested.milliCPU).toBe(0);
    expect(ni.podCount).toBe(0);
  });
  it('forgets an assumed pod whose binding failed', () => {
    const cache = new Cache();
    cache.addNode(makeNode('n1'));
    const pod = makePod('p', { requests: [{ cpu: '1' }] });
    cache.assumePod(makePodInfo({ ...pod, spec: { ...pod.spec, nodeName: 'n1' } }));
    cache.forgetPod(pod.metadata.uid);
    expect(cache.getNodeInfo('n1')!.requested.milliCPU).toBe(0);
  });
  it('keeps per-zone pod counts equal to the sum over live nodes through zone changes and node removal', () => {
    const cache = new Cache();
    const nodes = ['a', 'b', 'c', 'd'].map(
      (n, i) => cache.addNode(makeNode(n, { zone: i < 2 ? 'z1' : 'z2' })).node,
    );
    cache.podCounts(matcher);
    for (let i = 0; i < 8; i++)
      cache.addPod(
        makePod(`w${i}`, { labels: { app: 'web' }, nodeName: nodes[i % 4].metadata.name }),
      );
    cache.addPod(makePod('x', { labels: { app: 'db' }, nodeName: 'a' }));
    expect(perZone(cache)).toEqual(zoneTotals(cache));
    expect(zoneTotals(cache)).toEqual(
      new Map([
        ['z1', 4],
        ['z2', 4],
      ]),
    );
    const moved = makeNode('b', { zone: 'z2' });
    cache.updateNode(nodes[1], moved);
    expect(perZone(cache)).toEqual(
      new Map([
        ['z1', 2],
        ['z2', 6],
      ]),
    );
    cache.removeNode(moved);
    expect(perZone(cache)).toEqual(
      new Map([
        ['z1', 2],
        ['z2', 4],
      ]),
    );
    cache.addNode(makeNode('b', { zone: 'z1' }));
    expect(perZone(cache)).toEqual(
      new Map([
        ['z1', 4],
        ['z2', 4],
      ]),
    );
    expect(perZone(cache)).toEqual(zoneTotals(cache));
  });
});

import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector, newSelector, type Selector } from '../../api/labels.ts';
import { Cache } from '../cache.ts';
import { CycleState, newPodInfo, type PodInfo } from '../framework.ts';
import { makeNode, makePod } from '../testing.ts';
import { PodTopologySpread, normalizeScore, preScore, score } from './pod-topology-spread.ts';

function cluster(defaultSel: (p: PodInfo) => Selector = () => newSelector([])) {
  const cache = new Cache();
  cache.addNode(makeNode('a', { zone: 'z1' }));
  cache.addNode(makeNode('b', { zone: 'z1' }));
  cache.addNode(makeNode('c', { zone: 'z2' }));
  return { cache, h: cache.handle(defaultSel) };
}

const web = labelSelectorAsSelector({ matchLabels: { app: 'web' } });

describe('PodTopologySpread scoring with the system default constraints', () => {
  it('scores Σ(count × ln(size + 2) + maxSkew - 1), rounds, and normalises as 100 × (max + min - s) / max', () => {
    const { cache, h } = cluster(() => web);
    cache.addPod(makePod('w1', { labels: { app: 'web' }, nodeName: 'a' }));
    cache.addPod(makePod('w2', { labels: { app: 'web' }, nodeName: 'a' }));
    cache.addPod(makePod('w3', { labels: { app: 'web' }, nodeName: 'c' }));
    cache.addPod(makePod('other', { labels: { app: 'db' }, nodeName: 'b' }));
    const pod = newPodInfo(makePod('new', { labels: { app: 'web' } }));
    const nodes = cache.nodeInfoList();
    expect(nodes.map((n) => n.name)).toEqual(['a', 'c', 'b']); // node tree: round robin over zones
    const s = preScore(pod, nodes, h)!;
    const raw = nodes.map((n) => score(s, n));
    // a: 2·ln5 + 2 + 2·ln4 + 4 = 11.99 → 12; c: ln5 + 2 + ln4 + 4 = 9.0 → 9; b: 0 + 2 + 2·ln4 + 4 = 8.77 → 9
    expect(raw).toEqual([12, 9, 9]);
    normalizeScore(s, raw, nodes);
    expect(raw).toEqual([75, 100, 100]);
  });
  it('counts large groups (hundreds of nodes) the same way', () => {
    const cache = new Cache();
    for (let i = 0; i < 300; i++) cache.addNode(makeNode(`n${i}`));
    const h = cache.handle(() => web);
    const pod = newPodInfo(makePod('new', { labels: { app: 'web' } }));
    preScore(pod, cache.nodeInfoList(), h); // creates the index while it is small
    for (let i = 0; i < 300; i++)
      cache.addPod(makePod(`w${i}`, { labels: { app: 'web' }, nodeName: `n${i}` }));
    cache.addPod(makePod('extra', { labels: { app: 'web' }, nodeName: 'n0' }));
    const nodes = cache.nodeInfoList();
    const s = preScore(pod, nodes, h)!;
    const w = Math.log(300 + 2);
    // hostname: count × ln(302) + 2; zone: every node lacks the label, so it adds nothing.
    expect(score(s, nodes[0])).toBe(Math.round(2 * w + 2));
    expect(score(s, nodes[1])).toBe(Math.round(w + 2));
    // The batch form used by the framework gives the same scores.
    const state = new CycleState();
    PodTopologySpread.preScore(state, pod, nodes, h);
    const out = new Float64Array(nodes.length);
    PodTopologySpread.scoreNodes!(state, pod, nodes, out);
    expect([...out]).toEqual(nodes.map((n) => score(s, n)));
  });
  it('skips pods that no Service or ReplicaSet selects', () => {
    const { h } = cluster();
    expect(preScore(newPodInfo(makePod('p')), [], h)).toBeNull();
  });
  it('ignores terminating pods and keeps counts as pods come and go', () => {
    const { cache, h } = cluster(() => web);
    const w = makePod('w1', { labels: { app: 'web' }, nodeName: 'b' });
    cache.addPod(w);
    const pod = newPodInfo(makePod('new', { labels: { app: 'web' } }));
    const nodes = cache.nodeInfoList();
    expect(nodes.map((n) => score(preScore(pod, nodes, h)!, n))).toEqual([7, 6, 9]);
    cache.updatePod(w, {
      ...w,
      metadata: { ...w.metadata, deletionTimestamp: '2026-01-01T00:00:10Z' },
    });
    expect(nodes.map((n) => score(preScore(pod, nodes, h)!, n))).toEqual([6, 6, 6]);
  });
});

describe('PodTopologySpread Filter (DoNotSchedule)', () => {
  const constraint = {
    maxSkew: 1,
    topologyKey: 'topology.kubernetes.io/zone',
    whenUnsatisfiable: 'DoNotSchedule' as const,
    labelSelector: { matchLabels: { app: 'web' } },
  };
  it('rejects nodes whose domain would exceed maxSkew', () => {
    const { cache, h } = cluster();
    cache.addPod(makePod('w1', { labels: { app: 'web' }, nodeName: 'a' }));
    cache.addPod(makePod('w2', { labels: { app: 'web' }, nodeName: 'b' }));
    const pod = newPodInfo(
      makePod('new', {
        labels: { app: 'web' },
        spec: { containers: [], topologySpreadConstraints: [constraint] },
      }),
    );
    const state = new CycleState();
    expect(PodTopologySpread.preFilter(state, pod, h).status).toBeNull();
    const [a, c] = cache.nodeInfoList();
    expect(PodTopologySpread.filter(state, pod, a)!.reasons).toEqual([
      "node(s) didn't match pod topology spread constraints",
    ]);
    expect(PodTopologySpread.filter(state, pod, c)).toBeNull();
  });
  it('rejects nodes without the topology key as unresolvable', () => {
    const { cache, h } = cluster();
    cache.addNode(makeNode('nozone'));
    const pod = newPodInfo(
      makePod('new', {
        labels: { app: 'web' },
        spec: { containers: [], topologySpreadConstraints: [constraint] },
      }),
    );
    const state = new CycleState();
    PodTopologySpread.preFilter(state, pod, h);
    const s = PodTopologySpread.filter(state, pod, cache.getNodeInfo('nozone')!)!;
    expect(s.reasons).toEqual([
      "node(s) didn't match pod topology spread constraints (missing required label)",
    ]);
    expect(s.code).toBe(3);
  });
  it('skips pods without hard constraints', () => {
    const { h } = cluster(() => web);
    expect(
      PodTopologySpread.preFilter(
        new CycleState(),
        newPodInfo(makePod('p', { labels: { app: 'web' } })),
        h,
      ).status?.code,
    ).toBe(5);
  });
});

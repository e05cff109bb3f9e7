import { describe, expect, it } from 'vitest';
import { everything } from '../../api/labels.ts';
import type { Affinity } from '../../api/types.ts';
import { Cache } from '../cache.ts';
import { CycleState, newPodInfo } from '../framework.ts';
import { makeNode, makePod } from '../testing.ts';
import { InterPodAffinity, normalizeScore, preScore, score } from './inter-pod-affinity.ts';

function cluster() {
  const cache = new Cache();
  cache.addNode(makeNode('a', { zone: 'z1' }));
  cache.addNode(makeNode('b', { zone: 'z1' }));
  cache.addNode(makeNode('c', { zone: 'z2' }));
  return { cache, h: cache.handle(() => everything) };
}

function withAffinity(
  name: string,
  labels: Record<string, string>,
  affinity: Affinity,
  nodeName?: string,
) {
  return makePod(name, {
    labels,
    nodeName,
    spec: { containers: [{ name: 'c', image: 'x' }], affinity },
  });
}

const term = (app: string, topologyKey: string) => ({
  labelSelector: { matchLabels: { app } },
  topologyKey,
});

describe('InterPodAffinity Filter', () => {
  it('rejects nodes in a topology holding a pod matching a required anti-affinity term', () => {
    const { cache, h } = cluster();
    cache.addPod(makePod('w1', { labels: { app: 'web' }, nodeName: 'a' }));
    const pod = newPodInfo(
      withAffinity(
        'new',
        { app: 'web' },
        {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [term('web', 'kubernetes.io/hostname')],
          },
        },
      ),
    );
    const state = new CycleState();
    expect(InterPodAffinity.preFilter(state, pod, h).status).toBeNull();
    const [a, c, b] = cache.nodeInfoList();
    expect(InterPodAffinity.filter(state, pod, a)!.reasons).toEqual([
      "node(s) didn't match pod anti-affinity rules",
    ]);
    expect(InterPodAffinity.filter(state, pod, b)).toBeNull();
    expect(InterPodAffinity.filter(state, pod, c)).toBeNull();
  });
  it("honours existing pods' anti-affinity", () => {
    const { cache, h } = cluster();
    cache.addPod(
      withAffinity(
        'db',
        { app: 'db' },
        {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              term('web', 'topology.kubernetes.io/zone'),
            ],
          },
        },
        'a',
      ),
    );
    const pod = newPodInfo(makePod('new', { labels: { app: 'web' } }));
    const state = new CycleState();
    expect(InterPodAffinity.preFilter(state, pod, h).status).toBeNull();
    const [a, c, b] = cache.nodeInfoList();
    expect(InterPodAffinity.filter(state, pod, a)!.reasons).toEqual([
      "node(s) didn't satisfy existing pods anti-affinity rules",
    ]);
    expect(InterPodAffinity.filter(state, pod, b)!.reasons).toEqual([
      "node(s) didn't satisfy existing pods anti-affinity rules",
    ]);
    expect(InterPodAffinity.filter(state, pod, c)).toBeNull();
  });
  it('requires a matching pod in the topology, except for the first pod of a self-affine group', () => {
    const { cache, h } = cluster();
    const aff: Affinity = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          term('cache', 'topology.kubernetes.io/zone'),
        ],
      },
    };
    const first = newPodInfo(withAffinity('c1', { app: 'cache' }, aff));
    const state = new CycleState();
    InterPodAffinity.preFilter(state, first, h);
    for (const n of cache.nodeInfoList())
      expect(InterPodAffinity.filter(state, first, n)).toBeNull();
    cache.addPod(withAffinity('c1', { app: 'cache' }, aff, 'c'));
    const second = newPodInfo(withAffinity('c2', { app: 'cache' }, aff));
    const s2 = new CycleState();
    InterPodAffinity.preFilter(s2, second, h);
    const [a, c] = cache.nodeInfoList();
    expect(InterPodAffinity.filter(s2, second, a)!.reasons).toEqual([
      "node(s) didn't match pod affinity rules",
    ]);
    expect(InterPodAffinity.filter(s2, second, a)!.code).toBe(3);
    expect(InterPodAffinity.filter(s2, second, c)).toBeNull();
  });
  it('skips at PreFilter when nothing applies', () => {
    const { h } = cluster();
    expect(
      InterPodAffinity.preFilter(new CycleState(), newPodInfo(makePod('p')), h).status?.code,
    ).toBe(5);
  });
});

describe('InterPodAffinity Score', () => {
  it('adds preferred weights per topology and min-max normalises', () => {
    const { cache, h } = cluster();
    cache.addPod(makePod('db', { labels: { app: 'db' }, nodeName: 'a' }));
    const pod = newPodInfo(
      withAffinity(
        'new',
        { app: 'web' },
        {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 10, podAffinityTerm: term('db', 'topology.kubernetes.io/zone') },
            ],
          },
        },
      ),
    );
    const nodes = cache.nodeInfoList();
    const s = preScore(pod, h)!;
    const raw = nodes.map((n) => score(s, n));
    expect(raw).toEqual([10, 0, 10]);
    normalizeScore(s, raw);
    expect(raw).toEqual([100, 0, 100]);
  });
  it("counts existing pods' required affinity with hardPodAffinityWeight 1", () => {
    const { cache, h } = cluster();
    cache.addPod(
      withAffinity(
        'x',
        { app: 'x' },
        {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [term('web', 'kubernetes.io/hostname')],
          },
        },
        'b',
      ),
    );
    const s = preScore(newPodInfo(makePod('new', { labels: { app: 'web' } })), h)!;
    expect(cache.nodeInfoList().map((n) => score(s, n))).toEqual([0, 0, 1]);
  });
  it('skips when no term applies', () => {
    const { h } = cluster();
    expect(preScore(newPodInfo(makePod('p')), h)).toBeNull();
  });
});

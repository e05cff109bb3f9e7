import { describe, expect, it } from 'vitest';
import { everything } from '../api/labels.ts';
import { Rng } from '../engine/rng.ts';
import { Simulation } from '../engine/simulation.ts';
import { Cache } from './cache.ts';
import { CycleState, Status, defaultProfile, newPodInfo } from './framework.ts';
import { newInTreeRegistry } from './plugins/registry.ts';
import { Framework } from './runtime.ts';
import {
  SchedulingAlgorithm,
  fitErrorToMessage,
  numFeasibleNodesToFind,
  schedulingCycleCost,
  selectHost,
} from './schedule-one.ts';
import { makeNode, makePod, type PodOptions } from './testing.ts';

function setup(seed = 1) {
  const sim = new Simulation({ seed, traceLevel: 'none' });
  const cache = new Cache();
  const fwk = new Framework(
    defaultProfile,
    newInTreeRegistry(),
    cache.handle(() => everything),
  );
  const algo = new SchedulingAlgorithm(
    sim,
    sim.rng.fork('kube-scheduler'),
    () => cache.nodeInfoList(),
    (n) => cache.getNodeInfo(n),
  );
  const schedule = (name: string, o: PodOptions = {}) => {
    const pod = newPodInfo(makePod(name, o));
    const out = algo.schedulePod(fwk, new CycleState(), pod);
    if (out.kind === 'fitError') {
      const post = fwk.runPostFilterPlugins(
        pod,
        cache.nodeInfoList(),
        out.fitError.diagnosis.nodeToStatus,
      );
      if (post) out.fitError.diagnosis.postFilterMsg = post.message();
      return { out, message: fitErrorToMessage(out.fitError) };
    }
    return { out, message: '' };
  };
  return { sim, cache, fwk, algo, schedule };
}

describe('numFeasibleNodesToFind', () => {
  it('evaluates every node below 100 and the adaptive percentage above (at least 100 nodes, at least 5%)', () => {
    const n = (nodes: number) => numFeasibleNodesToFind(undefined, 0, nodes);
    expect(n(50)).toBe(50); // fewer than minFeasibleNodesToFind
    expect(n(100)).toBe(100); // 50% of 100 = 50 → raised to 100
    expect(n(1000)).toBe(420); // 50 - 1000/125 = 42%
    expect(n(5000)).toBe(500); // 50 - 40 = 10%
    expect(n(6000)).toBe(300); // 50 - 48 = 2% → floor of 5%
    expect(n(10000)).toBe(500); // 5%
  });
  it('uses the profile percentage, then the global one', () => {
    expect(numFeasibleNodesToFind(30, 0, 1000)).toBe(300);
    expect(numFeasibleNodesToFind(undefined, 20, 1000)).toBe(200);
    expect(numFeasibleNodesToFind(undefined, 5, 1000)).toBe(100);
  });
});

describe('selectHost', () => {
  it('picks the highest total', () => {
    expect(selectHost([10, 30, 20], new Rng(1))).toBe(1);
  });
  it('breaks ties by reservoir sampling: deterministic for a seed, spread across seeds', () => {
    const totals = [50, 50, 50, 50];
    const a = Array.from({ length: 20 }, (_, s) => selectHost(totals, new Rng(s)));
    const b = Array.from({ length: 20 }, (_, s) => selectHost(totals, new Rng(s)));
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(1);
    expect(a.some((i) => i !== 0)).toBe(true);
  });
});

describe('batch and per-node plugin runs agree', () => {
  it('gives the same Filter statuses and Score values', () => {
    const { cache, fwk } = setup();
    const rng = new Rng(3);
    for (let i = 0; i < 60; i++) {
      cache.addNode(
        makeNode(`n${i}`, {
          cpu: String(1 + rng.intn(4)),
          zone: `z${rng.intn(3)}`,
          unschedulable: rng.intn(10) === 0,
          labels: rng.intn(2) ? { disk: 'ssd' } : {},
          taints:
            rng.intn(6) === 0
              ? [{ key: 'x', effect: rng.intn(2) ? 'NoSchedule' : 'PreferNoSchedule' }]
              : [],
        }),
      );
    }
    for (let i = 0; i < 80; i++) {
      cache.addPod(
        makePod(`e${i}`, {
          labels: { app: 'web' },
          nodeName: `n${rng.intn(60)}`,
          requests: [{ cpu: '500m' }],
          hostPorts: i % 7 ? undefined : [8080],
        }),
      );
    }
    const pod = newPodInfo(
      makePod('p', {
        labels: { app: 'web' },
        nodeSelector: { disk: 'ssd' },
        requests: [{ cpu: '1' }],
        hostPorts: [8080],
      }),
    );
    const state = new CycleState();
    fwk.runPreFilterPlugins(state, pod);
    const nodes = [...cache.nodeInfoList()];
    const statuses: (Status | null)[] = [];
    fwk.runFilterPluginsOnNodes(state, pod, nodes, nodes.length, statuses);
    expect(statuses).toEqual(nodes.map((n) => fwk.runFilterPlugins(state, pod, n)));
    expect(statuses.some((x) => x === null)).toBe(true);
    expect(new Set(statuses.filter((x) => x).map((x) => x!.plugin)).size).toBeGreaterThan(2);
    fwk.runPreScorePlugins(state, pod, nodes);
    for (const pl of fwk.scorePlugins) {
      if (state.skipScorePlugins.has(pl.name) || !pl.scoreNodes) continue;
      const out = new Float64Array(nodes.length);
      pl.scoreNodes(state, pod, nodes, out);
      expect([...out]).toEqual(nodes.map((n) => pl.score(state, pod, n)));
    }
  });
});

describe('schedulePod', () => {
  it('writes the FailedScheduling message as FitError.Error() with the preemption PostFilter message', () => {
    const { cache, schedule } = setup();
    cache.addNode(
      makeNode('control-plane', {
        taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
      }),
    );
    for (const n of ['worker-1', 'worker-2', 'worker-3']) cache.addNode(makeNode(n, { cpu: '2' }));
    const { out, message } = schedule('big', { requests: [{ cpu: '3' }] });
    expect(out.kind).toBe('fitError');
    expect(message).toBe(
      '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu. ' +
        'preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.',
    );
  });
  it('counts every reason of a node, sorted by the "<count> <reason>" string', () => {
    const { cache, schedule } = setup();
    cache.addNode(makeNode('a', { cpu: '1', memory: '1Gi' }));
    cache.addNode(makeNode('b', { cpu: '1', memory: '8Gi' }));
    cache.addNode(makeNode('c', { unschedulable: true }));
    const { message } = schedule('p', { requests: [{ cpu: '2', memory: '2Gi' }] });
    expect(message).toBe(
      '0/3 nodes are available: 1 Insufficient memory, 1 node(s) were unschedulable, 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });
  it('reports a PreFilter rejection once, for all nodes', () => {
    const { cache, schedule } = setup();
    cache.addNode(makeNode('a'));
    const { message } = schedule('p', {
      spec: {
        containers: [{ name: 'c', image: 'x' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['zzz'] }] },
              ],
            },
          },
        },
      },
    });
    expect(message).toBe(
      "0/1 nodes are available: 1 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
    );
  });
  it('resumes filtering at nextStartNodeIndex (every node gets a turn)', () => {
    const { cache, algo, schedule } = setup();
    for (let i = 0; i < 200; i++) cache.addNode(makeNode(`n${String(i).padStart(3, '0')}`));
    const { out } = schedule('p');
    expect(out.kind).toBe('scheduled');
    if (out.kind === 'scheduled')
      expect(out.result).toMatchObject({ feasibleNodes: 100, evaluatedNodes: 100 });
    expect(algo.nextStartNodeIndex).toBe(100);
    schedule('q');
    expect(algo.nextStartNodeIndex).toBe(0);
  });
  it('prefers the emptier node (LeastAllocated) and spreads ReplicaSet-like pods', () => {
    const { cache, schedule } = setup();
    cache.addNode(makeNode('a'));
    cache.addNode(makeNode('b'));
    cache.addPod(makePod('x', { nodeName: 'a', requests: [{ cpu: '2', memory: '4Gi' }] }));
    const { out } = schedule('p', { requests: [{ cpu: '100m', memory: '100Mi' }] });
    expect(out.kind === 'scheduled' && out.result.suggestedHost).toBe('b');
  });
  it('breaks exact ties differently for different seeds but identically for the same seed', () => {
    const pick = (seed: number) => {
      const { cache, schedule } = setup(seed);
      for (const n of ['a', 'b', 'c', 'd', 'e']) cache.addNode(makeNode(n));
      const { out } = schedule('p');
      return out.kind === 'scheduled' ? out.result.suggestedHost : '';
    };
    const picks = Array.from({ length: 12 }, (_, s) => pick(s));
    expect(Array.from({ length: 12 }, (_, s) => pick(s))).toEqual(picks);
    expect(new Set(picks).size).toBeGreaterThan(1);
  });
});

describe('schedulingCycleCost', () => {
  it('grows with the nodes a cycle filters and scores', () => {
    expect(schedulingCycleCost(3, 3)).toBeLessThan(schedulingCycleCost(100, 100));
    expect(schedulingCycleCost(100, 0)).toBeLessThan(schedulingCycleCost(100, 100));
    // At 5,000 nodes a cycle filters and scores numFeasibleNodesToFind = 500 nodes: about 300 a second.
    const n = numFeasibleNodesToFind(undefined, 0, 5000);
    expect(n).toBe(500);
    const perSecond = 1000 / schedulingCycleCost(n, n);
    expect(perSecond).toBeGreaterThan(270);
    expect(perSecond).toBeLessThan(350);
  });
});

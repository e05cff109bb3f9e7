import { describe, expect, it } from 'vitest';
import { CycleState, NodeInfo, newPodInfo } from '../framework.ts';
import { makeNode, makePod } from '../testing.ts';
import {
  NodeAffinity,
  PreferredSchedulingTerms,
  getRequiredNodeAffinity,
  preFilterNodeNames,
} from './node-affinity.ts';

function ni(name: string, labels: Record<string, string>): NodeInfo {
  const n = new NodeInfo(0, name);
  n.setNode(makeNode(name, { labels }));
  return n;
}

describe('NodeAffinity Filter', () => {
  it('rejects a node that does not match the nodeSelector', () => {
    const pod = newPodInfo(makePod('p', { nodeSelector: { disktype: 'ssd' } }));
    const state = new CycleState();
    expect(NodeAffinity.preFilter(state, pod, undefined as never).status).toBeNull();
    expect(NodeAffinity.filter(state, pod, ni('a', { disktype: 'ssd' }))).toBeNull();
    const s = NodeAffinity.filter(state, pod, ni('b', { disktype: 'hdd' }))!;
    expect(s.reasons).toEqual(["node(s) didn't match Pod's node affinity/selector"]);
    expect(s.code).toBe(3);
  });
  it('skips at PreFilter when the pod has no selector or required affinity', () => {
    expect(
      NodeAffinity.preFilter(new CycleState(), newPodInfo(makePod('p')), undefined as never).status
        ?.code,
    ).toBe(5);
  });
  it('ORs terms and ANDs expressions, with Gt and Lt on integer labels', () => {
    const pod = makePod('p', {
      spec: {
        containers: [{ name: 'c', image: 'x' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'zone', operator: 'In', values: ['a', 'b'] },
                    { key: 'cores', operator: 'Gt', values: ['4'] },
                  ],
                },
                { matchExpressions: [{ key: 'legacy', operator: 'Exists' }] },
              ],
            },
          },
        },
      },
    });
    const r = getRequiredNodeAffinity(pod);
    expect(r.match(ni('1', { zone: 'a', cores: '8' }))).toBe(true);
    expect(r.match(ni('2', { zone: 'a', cores: '4' }))).toBe(false);
    expect(r.match(ni('3', { zone: 'c', cores: '8' }))).toBe(false);
    expect(r.match(ni('4', { legacy: '' }))).toBe(true);
  });
  it('narrows the nodes for matchFields metadata.name (DaemonSet pods)', () => {
    const pod = makePod('p', {
      spec: {
        containers: [{ name: 'c', image: 'x' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-2'] }] },
              ],
            },
          },
        },
      },
    });
    expect([...preFilterNodeNames(pod)!]).toEqual(['node-2']);
    const r = getRequiredNodeAffinity(pod);
    expect(r.match(ni('node-2', {}))).toBe(true);
    expect(r.match(ni('node-1', {}))).toBe(false);
  });
});

describe('NodeAffinity Score', () => {
  it('sums the weights of matching preferred terms and normalises against the highest', () => {
    const terms = new PreferredSchedulingTerms([
      {
        weight: 10,
        preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
      },
      { weight: 30, preference: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] } },
      { weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } },
    ]);
    const nodes = [ni('1', { zone: 'a', gpu: '1' }), ni('2', { zone: 'a' }), ni('3', {})];
    const scores = nodes.map((n) => terms.score(n));
    expect(scores).toEqual([40, 10, 0]);
    NodeAffinity.normalizeScore!(new CycleState(), undefined as never, scores, nodes);
    expect(scores).toEqual([100, 25, 0]);
  });
});

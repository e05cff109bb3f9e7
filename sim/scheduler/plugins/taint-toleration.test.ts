import { describe, expect, it } from 'vitest';
import { CycleState, NodeInfo, newPodInfo } from '../framework.ts';
import { makeNode, makePod, type NodeOptions } from '../testing.ts';
import {
  TaintToleration,
  countIntolerableTaintsPreferNoSchedule,
  filter,
} from './taint-toleration.ts';

function ni(name: string, o: NodeOptions): NodeInfo {
  const n = new NodeInfo(0, name);
  n.setNode(makeNode(name, o));
  return n;
}

describe('TaintToleration Filter', () => {
  it('names the first untolerated taint as {key: value}, with an empty value printed as "{key: }"', () => {
    const cp = ni('cp', {
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    });
    const s = filter(newPodInfo(makePod('p')), cp)!;
    expect(s.reasons).toEqual([
      'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }',
    ]);
    expect(s.code).toBe(3); // UnschedulableAndUnresolvable
    const gpu = ni('g', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }] });
    expect(filter(newPodInfo(makePod('p')), gpu)!.reasons).toEqual([
      'node(s) had untolerated taint {dedicated: gpu}',
    ]);
  });
  it('ignores PreferNoSchedule taints and tolerated ones', () => {
    const n = ni('n', {
      taints: [
        { key: 'soft', effect: 'PreferNoSchedule' },
        { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      ],
    });
    expect(
      filter(
        newPodInfo(
          makePod('p', {
            tolerations: [
              { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
            ],
          }),
        ),
        n,
      ),
    ).toBeNull();
    expect(
      filter(newPodInfo(makePod('p', { tolerations: [{ operator: 'Exists' }] })), n),
    ).toBeNull();
  });
});

describe('TaintToleration Score', () => {
  it('counts untolerated PreferNoSchedule taints and normalises reversed', () => {
    const nodes = [
      ni('a', {}),
      ni('b', { taints: [{ key: 'x', effect: 'PreferNoSchedule' }] }),
      ni('c', {
        taints: [
          { key: 'x', effect: 'PreferNoSchedule' },
          { key: 'y', effect: 'PreferNoSchedule' },
        ],
      }),
    ];
    const pod = newPodInfo(makePod('p'));
    const state = new CycleState();
    TaintToleration.preScore(state, pod, nodes, undefined as never);
    const scores = nodes.map((n) => TaintToleration.score(state, pod, n));
    expect(scores).toEqual([0, 1, 2]);
    TaintToleration.normalizeScore!(state, pod, scores, nodes);
    expect(scores).toEqual([100, 50, 0]);
  });
  it('only tolerations with effect PreferNoSchedule or empty count', () => {
    const taints = [{ key: 'x', effect: 'PreferNoSchedule' as const }];
    expect(countIntolerableTaintsPreferNoSchedule(taints, [{ key: 'x', operator: 'Exists' }])).toBe(
      0,
    );
  });
});

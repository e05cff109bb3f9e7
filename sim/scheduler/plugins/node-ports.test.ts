import { describe, expect, it } from 'vitest';
import { CycleState, NodeInfo, newPodInfo } from '../framework.ts';
import { makeNode, makePod } from '../testing.ts';
import { NodeName } from './node-name.ts';
import { NodePorts } from './node-ports.ts';
import { NodeUnschedulable } from './node-unschedulable.ts';

describe('NodePorts', () => {
  it('rejects a node where the host port is in use', () => {
    const n = new NodeInfo(0, 'n');
    n.setNode(makeNode('n'));
    n.addPodInfo(newPodInfo(makePod('a', { hostPorts: [8080] })));
    const state = new CycleState();
    const pod = newPodInfo(makePod('p', { hostPorts: [8080] }));
    expect(NodePorts.preFilter(state, pod, undefined as never).status).toBeNull();
    expect(NodePorts.filter(state, pod, n)!.reasons).toEqual([
      "node(s) didn't have free ports for the requested pod ports",
    ]);
    const other = newPodInfo(makePod('q', { hostPorts: [9090] }));
    NodePorts.preFilter(state, other, undefined as never);
    expect(NodePorts.filter(state, other, n)).toBeNull();
  });
  it('skips pods without host ports', () => {
    expect(
      NodePorts.preFilter(new CycleState(), newPodInfo(makePod('p')), undefined as never).status
        ?.code,
    ).toBe(5);
  });
});

describe('NodeUnschedulable and NodeName', () => {
  it('rejects a cordoned node unless the pod tolerates node.kubernetes.io/unschedulable', () => {
    const n = new NodeInfo(0, 'n');
    n.setNode(makeNode('n', { unschedulable: true }));
    const state = new CycleState();
    expect(NodeUnschedulable.filter(state, newPodInfo(makePod('p')), n)!.reasons).toEqual([
      'node(s) were unschedulable',
    ]);
    const tolerant = newPodInfo(
      makePod('d', {
        tolerations: [
          { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
        ],
      }),
    );
    expect(NodeUnschedulable.filter(state, tolerant, n)).toBeNull();
  });
  it('rejects nodes other than spec.nodeName', () => {
    const n = new NodeInfo(0, 'n');
    n.setNode(makeNode('n'));
    const pod = newPodInfo(makePod('p', { spec: { containers: [], nodeName: 'other' } }));
    expect(NodeName.filter(new CycleState(), pod, n)!.reasons).toEqual([
      "node(s) didn't match the requested node name",
    ]);
  });
});

/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { golden, runNamed as run } from './testing.ts';
import { componentGraph, type ComponentGraph } from './component-graph.ts';

const SCENARIOS: [string, number][] = [
  ['apply-to-running', 1],
  ['node-failure', 7],
  ['rolling-update', 3],
  ['partition', 7],
  ['pending-pod', 5],
  ['broken-images', 2],
];
const runs = new Map(SCENARIOS.map(([n, s]) => [n, run(n, s)]));
const apply = runs.get('apply-to-running')!;

/** checkHub asserts the architecture the graph must show by itself. */
function checkHub(g: ComponentGraph): void {
  const api = g.nodes.find((n) => n.label === 'kube-apiserver')!.id;
  const etcd = g.nodes.find((n) => n.label === 'etcd')!.id;
  const label = new Map(g.nodes.map((n) => [n.id, n.label]));
  const neighbours = (id: string) =>
    new Set(g.edges.flatMap((e) => (e.from === id ? [e.to] : e.to === id ? [e.from] : [])));
  // etcd's only neighbour is kube-apiserver, and kube-apiserver writes to it.
  expect([...neighbours(etcd)]).toEqual([api]);
  expect(g.edges.some((e) => e.from === api && e.to === etcd && e.kind === 'stores')).toBe(true);
  // Every edge that does not touch kube-apiserver is a node-local call (CRI, CNI) on one machine.
  for (const e of g.edges) {
    if (e.from === api || e.to === api) continue;
    expect(e.kind).toBe('calls');
    const [, a] = label.get(e.from)!.split('@');
    const [, b] = label.get(e.to)!.split('@');
    expect(a).toBe(b);
  }
  // Every component except etcd has an edge with kube-apiserver, unless it is only ever called
  // by a node-local agent (container-runtime by kubelet, cni-plugin by the runtime).
  const calledOnly = new Set(g.edges.filter((e) => e.kind === 'calls').map((e) => e.to));
  for (const n of g.nodes) {
    if (n.id === api || n.id === etcd || calledOnly.has(n.id)) continue;
    expect(neighbours(n.id).has(api), n.label).toBe(true);
  }
  for (const id of calledOnly)
    expect(label.get(id)).toMatch(/^(container-runtime|cni-plugin)(@|$)/);
}

describe('componentGraph', () => {
  it('matches the golden Mermaid text (apply-to-running seed 1, nodes merged)', () => {
    golden(
      'apply-to-running.component-graph.mmd',
      componentGraph(apply.trace, { mergeNodes: true }).mermaid,
    );
  });

  it('matches the golden Mermaid text (apply-to-running seed 1, per node)', () => {
    golden('apply-to-running.component-graph-nodes.mmd', componentGraph(apply.trace).mermaid);
  });

  for (const [name] of SCENARIOS) {
    it(`shows that everything goes through kube-apiserver and only it touches etcd (${name})`, () => {
      checkHub(componentGraph(runs.get(name)!.trace));
      checkHub(componentGraph(runs.get(name)!.trace, { mergeNodes: true }));
    });
  }

  it('fails the hub check on a trace where a controller talks to etcd', () => {
    const bad = [
      ...apply.trace,
      {
        t: 99,
        seq: 1e9,
        kind: 'store' as const,
        from: 'kube-scheduler',
        to: 'etcd',
        op: 'range' as const,
        key: '/registry/pods',
        revision: 1,
        resource: 'pods',
      },
    ];
    expect(() => checkHub(componentGraph(bad))).toThrow();
  });

  it('counts messages, draws watches dotted from kube-apiserver, and groups nodes', () => {
    const g = componentGraph(apply.trace, { mergeNodes: true });
    const requests = apply.trace.filter((e) => e.kind === 'request').length;
    expect(g.edges.filter((e) => e.kind === 'requests').reduce((n, e) => n + e.count, 0)).toBe(
      requests,
    );
    for (const e of g.edges.filter((e) => e.kind === 'watches'))
      expect(e.from).toBe('kube_apiserver');
    expect(g.mermaid).toContain('kube_apiserver -.->|');
    expect(g.mermaid).toContain('subgraph sg_control_plane["Control plane"]');
    expect(g.mermaid).toContain('subgraph sg_worker_node["Worker node"]');
    expect(g.nodes.find((n) => n.label === 'kubelet')!.instances).toEqual([
      'kubelet@control-plane',
      'kubelet@node-1',
      'kubelet@node-2',
      'kubelet@node-3',
    ]);
    expect(g.mermaid).toMatch(/^flowchart LR\n {2}accTitle: .+\n {2}accDescr: .+\n/);
  });

  it('adds the kernel only when asked', () => {
    expect(componentGraph(apply.trace).nodes.some((n) => n.label.startsWith('iptables'))).toBe(
      false,
    );
    expect(
      componentGraph(apply.trace, { kernel: true }).nodes.some(
        (n) => n.label === 'iptables@node-1',
      ),
    ).toBe(true);
  });
});

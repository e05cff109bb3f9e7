// The architecture figure, drawn only from observed traffic: an edge exists because the trace
// shows messages along it. It therefore shows by itself that every component talks to
// kube-apiserver and that only kube-apiserver talks to etcd.
//
// Watch events are drawn in the direction they travel, kube-apiserver -.-> watcher, as the
// sequence diagrams draw them (`-->>`): the watcher opened the watch, but the arrow a learner
// needs is "kube-apiserver tells the scheduler", and it keeps requests (solid, towards
// kube-apiserver) and notifications (dotted, away from it) visibly distinct.

import type { TraceEntry } from '../engine/trace.ts';
import { componentInfo, type ComponentGroup } from './components.ts';
import {
  callAPI,
  accLines,
  compareComponents,
  mermaidLabel,
  nodeCompare,
  plural,
  splitComponent,
  uniqueIds,
} from './util.ts';

/** ComponentGraphOptions choose how the graph is drawn. */
export interface ComponentGraphOptions {
  /** mergeNodes draws one kubelet (container-runtime, ...) for all nodes. Default false. */
  mergeNodes?: boolean;
  /** kernel adds kube-proxy's writes to each node's iptables. Default false. */
  kernel?: boolean;
  /** counts labels edges with message counts ("12 requests"). Default true. */
  counts?: boolean;
  /** from and to restrict the trace to a window (virtual seconds). */
  from?: number;
  to?: number;
  title?: string;
  description?: string;
}

export interface GraphNode {
  id: string;
  label: string;
  group: ComponentGroup;
  /** instances are the trace's names merged into this node ("kubelet@node-1", ...). */
  instances: string[];
  /** node is the machine a per-node agent runs on, when nodes are not merged. */
  node?: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: 'requests' | 'watches' | 'calls' | 'stores';
  count: number;
  /** what is what a node-local call carries ("CRI", "CNI", an iptables write); empty otherwise. */
  what: string;
  /**
   * label is the Mermaid edge label, in English as the Mermaid source is ("12 requests", "CRI");
   * figures label edges in their own language from kind, count and what.
   */
  label: string;
}

export interface ComponentGraph {
  title: string;
  description: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** counts says whether edges are labelled with their message counts (the option). */
  counts: boolean;
  mermaid: string;
}

const KIND_ORDER: GraphEdge['kind'][] = ['requests', 'stores', 'watches', 'calls'];

/** componentGraph projects the trace onto who talks to whom. */
export function componentGraph(
  trace: TraceEntry[],
  opts: ComponentGraphOptions = {},
): ComponentGraph {
  const merge = opts.mergeNodes ?? false;
  const counts = opts.counts ?? true;
  const name = (c: string) => (merge ? splitComponent(c)[0] : c);
  const instances = new Map<string, Set<string>>();
  const see = (c: string) => {
    const n = name(c);
    if (!instances.has(n)) instances.set(n, new Set());
    instances.get(n)!.add(c);
    return n;
  };
  const edgeMap = new Map<
    string,
    { from: string; to: string; kind: GraphEdge['kind']; count: number; what: string }
  >();
  const add = (from: string, to: string, kind: GraphEdge['kind'], what = '') => {
    const f = see(from);
    const t = see(to);
    const k = `${f}\u0000${t}\u0000${kind}`;
    const e = edgeMap.get(k);
    if (e) e.count++;
    else edgeMap.set(k, { from: f, to: t, kind, count: 1, what });
  };
  for (const e of trace) {
    if (opts.from !== undefined && e.t < opts.from) continue;
    if (opts.to !== undefined && e.t > opts.to) continue;
    switch (e.kind) {
      case 'request':
        add(e.from, e.to, 'requests');
        break;
      case 'store':
        add(e.from, e.to, 'stores');
        break;
      case 'watch':
        add(e.from, e.to, 'watches');
        break;
      case 'call':
        add(e.from, e.to, 'calls', callAPI(e.to));
        break;
      case 'program':
        if (opts.kernel) add(e.from, e.to, 'calls', e.what);
        break;
      default:
        break;
    }
  }

  const names = [...instances.keys()].sort(compareComponents);
  const ids = uniqueIds(names);
  const nodes: GraphNode[] = names.map((n) => {
    const [, node] = splitComponent(n);
    return {
      id: ids.get(n)!,
      label: n,
      group: componentInfo(n).group,
      instances: [...instances.get(n)!].sort(compareComponents),
      ...(node !== undefined ? { node } : {}),
    };
  });
  const byName = new Map(nodes.map((n) => [n.label, n]));
  const edges: GraphEdge[] = [...edgeMap.values()]
    .sort(
      (a, b) =>
        KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
        compareComponents(a.from, b.from) ||
        compareComponents(a.to, b.to),
    )
    .map((e) => ({
      from: byName.get(e.from)!.id,
      to: byName.get(e.to)!.id,
      kind: e.kind,
      count: e.count,
      what: e.what,
      label: edgeLabel(e.kind, e.count, e.what, counts),
    }));

  const machines = [
    ...new Set(
      nodes.flatMap((n) =>
        n.instances.map((i) => splitComponent(i)[1]).filter((x): x is string => x !== undefined),
      ),
    ),
  ].sort(nodeCompare);
  const title =
    opts.title ?? 'Who talks to whom: the components and the messages observed between them';
  const description = opts.description ?? describe(nodes, edges, machines, merge);

  const lines = ['flowchart LR', ...accLines(title, description)];
  const decl = (n: GraphNode, indent: string) => {
    const shape =
      n.group === 'store' ? `[(${mermaidLabel(n.label)})]` : `[${mermaidLabel(n.label)}]`;
    lines.push(`${indent}${n.id}${shape}`);
  };
  for (const n of nodes.filter((n) => n.group === 'client')) decl(n, '  ');
  const cp = nodes.filter((n) => n.group === 'control-plane' || n.group === 'store');
  if (cp.length) {
    lines.push(`  subgraph sg_control_plane["Control plane"]`);
    for (const n of cp) decl(n, '    ');
    lines.push('  end');
  }
  const agents = nodes.filter((n) => n.group === 'node');
  if (merge) {
    if (agents.length) {
      lines.push(`  subgraph sg_worker_node["Worker node"]`);
      for (const n of agents) decl(n, '    ');
      lines.push('  end');
    }
  } else {
    const perMachine = new Map<string, GraphNode[]>();
    for (const n of agents) {
      const m = n.node ?? '';
      if (!perMachine.has(m)) perMachine.set(m, []);
      perMachine.get(m)!.push(n);
    }
    const sgIds = uniqueIds([...perMachine.keys()].map((m) => `sg_node_${m}`));
    for (const m of [...perMachine.keys()].sort(nodeCompare)) {
      lines.push(
        `  subgraph ${sgIds.get(`sg_node_${m}`)}[${mermaidLabel(m === 'control-plane' ? 'Node control-plane' : `Worker node ${m}`)}]`,
      );
      for (const n of perMachine.get(m)!) decl(n, '    ');
      lines.push('  end');
    }
  }
  for (const e of edges)
    lines.push(
      `  ${e.from} ${e.kind === 'watches' ? '-.->' : '-->'}|${mermaidLabel(e.label)}| ${e.to}`,
    );
  return { title, description, nodes, edges, counts, mermaid: `${lines.join('\n')}\n` };
}

function edgeLabel(kind: GraphEdge['kind'], count: number, what: string, counts: boolean): string {
  switch (kind) {
    case 'requests':
      return counts ? plural(count, 'request') : 'requests';
    case 'stores':
      return counts ? plural(count, 'etcd write') : 'etcd writes';
    case 'watches':
      return counts ? plural(count, 'watch event') : 'watch events';
    case 'calls':
      return counts ? `${what} ×${count}` : what;
  }
}

function describe(
  nodes: GraphNode[],
  edges: GraphEdge[],
  machines: string[],
  merge: boolean,
): string {
  const label = new Map(nodes.map((n) => [n.id, n.label]));
  const api = nodes.find((n) => n.label === 'kube-apiserver')?.id;
  const requesters = edges
    .filter((e) => e.kind === 'requests' && e.to === api)
    .map((e) => label.get(e.from)!);
  const watchers = edges
    .filter((e) => e.kind === 'watches' && e.from === api)
    .map((e) => label.get(e.to)!);
  const calls = edges
    .filter((e) => e.kind === 'calls')
    .map((e) => `${label.get(e.from)} calls ${label.get(e.to)} (${e.label})`);
  const parts = [
    `${requesters.length} components send requests to kube-apiserver (${requesters.join(', ')})`,
    `kube-apiserver sends watch events to ${watchers.length} of them`,
  ];
  if (edges.some((e) => e.kind === 'stores'))
    parts.push('only kube-apiserver reads and writes etcd');
  if (calls.length) parts.push(`on the nodes, ${calls.join('; ')}`);
  const direct = edges.filter((e) => e.from !== api && e.to !== api && e.kind !== 'calls');
  let s = `${parts.join('; ')}.`;
  if (direct.length === 0)
    s += ` Apart from ${calls.length ? 'those node-local calls' : 'that'}, no component talks to another directly.`;
  else
    s += ` Direct messages: ${direct.map((e) => `${label.get(e.from)} to ${label.get(e.to)}`).join(', ')}.`;
  if (merge && machines.length)
    s += ` Node agents are drawn once; they run on each of ${machines.length} nodes (${machines.join(', ')}).`;
  return s;
}

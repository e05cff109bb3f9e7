// The cluster lab's model on the worker side: kubectl-style STATUS cells and "Why?" chains,
// computed from a run. No DOM here, so the worker and unit tests share it.

import {
  entryObject,
  indexTrace,
  nodeStatusString,
  parentsOf,
  printPod,
  type Node,
  type Pod,
  type TraceEntry,
} from '../../../sim/index.ts';
import type { WhyLink, WhyWrite } from './protocol.ts';

/**
 * podStatus is kubectl's READY and STATUS cells for a Pod, from the simulator's own printPod
 * (printers.go#printPod), so the island and `kubectl get pods` always agree.
 */
export function podStatus(pod: Pod): { status: string; ready: string } {
  const cells = printPod(pod, 0).cells;
  return { ready: String(cells[1]), status: String(cells[2]) };
}

/** nodeStatus is kubectl's STATUS cell for a Node (printers.go#printNode) and its Ready status. */
export function nodeStatus(node: Node): { status: string; ready: 'True' | 'False' | 'Unknown' } {
  const s = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').pop()?.status;
  return { status: nodeStatusString(node), ready: s === 'True' || s === 'False' ? s : 'Unknown' };
}

/** describeEntry says what one trace entry did, in kubectl's and Kubernetes' own words. */
export function describeEntry(e: TraceEntry): string {
  const obj = (ns: string | undefined, name: string | undefined) =>
    name ? ` ${ns ? `${ns}/` : ''}${name}` : '';
  switch (e.kind) {
    case 'request':
      return `${e.verb} ${e.resource}${obj(e.namespace, e.name)}${e.fields?.length ? ` (${e.fields.join(', ')})` : ''} → ${e.code}`;
    case 'watch':
      return `watch ${e.type} ${e.resource}${obj(e.namespace, e.name)}`;
    case 'store':
      return `${e.op} ${e.key}`;
    case 'call':
      return `${e.method}${e.pod ? ` ${e.pod}` : ''}`;
    case 'timer':
      return `timer ${e.what}${e.object ? ` ${e.object}` : ''}`;
    case 'fault':
      return `fault ${e.fault}${e.node ? ` ${e.node}` : ''}`;
    case 'command':
      return e.command;
    case 'select':
      return `select ${e.node} for ${e.pod}`;
    case 'program':
      return `${e.what} (${e.rules} rules)`;
    default:
      return e.kind;
  }
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete']);

/**
 * whyChain lists the writes that changed a Pod or Node (request entries, with the fields they
 * changed), each with its causes: the watch event or timer that triggered it, the write by another
 * component that produced that event, and so on back, up to `depth` links. Latest `limit` writes.
 */
export function whyChain(
  trace: TraceEntry[],
  kind: 'pod' | 'node',
  name: string,
  limit = 10,
  depth = 4,
): WhyWrite[] {
  const idx = indexTrace(trace);
  const resource = kind === 'pod' ? 'pods' : 'nodes';
  const writes = trace.filter((e) => {
    if (e.kind !== 'request' || !WRITE_VERBS.has(e.verb) || e.code >= 300) return false;
    const o = entryObject(e, idx);
    return o?.resource === resource && o.name === name;
  });
  return writes.slice(-limit).map((w) => {
    const because: WhyLink[] = [];
    const seen = new Set<number>([w.seq]);
    let cur: TraceEntry = w;
    for (let i = 0; i < depth; i++) {
      const parents = parentsOf(cur, idx).filter((p) => p.kind !== 'store' && !seen.has(p.seq));
      // A watch event's own write comes first; otherwise the entry's recorded cause.
      const next = parents.find((p) => p.kind === 'request') ?? parents[0];
      if (!next) break;
      seen.add(next.seq);
      because.push({
        t: next.t,
        component: next.kind === 'watch' ? next.to : next.from,
        text: describeEntry(next),
      });
      cur = next;
    }
    return {
      t: w.t,
      component: w.from,
      write: w.kind === 'request' ? `${w.verb} ${w.resource}` : w.kind,
      fields: w.kind === 'request' ? (w.fields ?? []) : [],
      because,
    };
  });
}

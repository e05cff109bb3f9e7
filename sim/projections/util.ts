// Helpers shared by the projections: canonical component order, kind names, Mermaid-safe ids and
// text, and number formatting. Everything here is pure and deterministic.

import type { AnyObject, ResourceName } from '../api/types.ts';
import type { TraceEntry } from '../engine/trace.ts';

/** Change is one committed write, as `RunResult.changes` lists them. */
export interface Change {
  t: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: ResourceName;
  object: AnyObject;
}

/** RunLike is the part of a `RunResult` the projections read. */
export interface RunLike {
  trace: TraceEntry[];
  changes?: Change[];
}

/** CONTROLLERS are kube-controller-manager's controllers, in the order sim/README.md lists them. */
export const CONTROLLERS = [
  'deployment-controller',
  'replicaset-controller',
  'node-lifecycle-controller',
  'taint-eviction-controller',
  'endpointslice-controller',
  'garbage-collector',
];

/** callAPI names the API of a `call` entry by its callee: CNI, CRI, or the cloud provider's. */
export function callAPI(to: string): string {
  if (to === 'cloud') return 'cloud API';
  return to.startsWith('cni-plugin') ? 'CNI' : 'CRI';
}

/** NODE_AGENTS are the per-node processes, named `<agent>@<node>` in the trace. */
export const NODE_AGENTS = ['kubelet', 'container-runtime', 'cni-plugin', 'kube-proxy', 'iptables'];

/** splitComponent splits "kubelet@node-1" into ["kubelet", "node-1"]. */
export function splitComponent(c: string): [string, string | undefined] {
  const i = c.indexOf('@');
  return i < 0 ? [c, undefined] : [c.slice(0, i), c.slice(i + 1)];
}

/** naturalCompare orders "node-2" before "node-10", and never depends on the host's locale. */
export function naturalCompare(a: string, b: string): number {
  const re = /(\d+)|(\D+)/g;
  const pa = a.match(re) ?? [];
  const pb = b.match(re) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    const nx = /^\d/.test(x);
    const ny = /^\d/.test(y);
    if (nx && ny) return Number(x) - Number(y) || (x < y ? -1 : 1);
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** nodeCompare puts the control-plane node first, then the others in natural order. */
export function nodeCompare(a: string, b: string): number {
  if (a === b) return 0;
  if (a === 'control-plane') return -1;
  if (b === 'control-plane') return 1;
  return naturalCompare(a, b);
}

function componentRank(c: string): number {
  const [base, node] = splitComponent(c);
  if (node === undefined) {
    if (base === 'kubectl') return 0;
    if (base === 'kube-apiserver') return 1;
    if (base === 'etcd') return 2;
    if (base === 'kube-scheduler') return 3;
    const i = CONTROLLERS.indexOf(base);
    if (i >= 0) return 10 + i;
    // A per-node agent merged across nodes ("kubelet") keeps its place among the agents.
    const j = NODE_AGENTS.indexOf(base);
    return j >= 0 ? 40 + j : 30;
  }
  const j = NODE_AGENTS.indexOf(base);
  return j >= 0 ? 40 + j : 60;
}

/**
 * compareComponents is the canonical order: kubectl, kube-apiserver, etcd, kube-scheduler, the
 * controllers, then kubelet@*, container-runtime@*, cni-plugin@*, kube-proxy@*, iptables@*.
 */
export function compareComponents(a: string, b: string): number {
  const r = componentRank(a) - componentRank(b);
  if (r !== 0) return r;
  const [ba, na] = splitComponent(a);
  const [bb, nb] = splitComponent(b);
  if (ba !== bb) return ba < bb ? -1 : 1;
  return nodeCompare(na ?? '', nb ?? '');
}

/** KINDS maps a resource to its kind, for text such as "ADDED Pod". */
export const KINDS: Record<string, string> = {
  pods: 'Pod',
  nodes: 'Node',
  services: 'Service',
  events: 'Event',
  deployments: 'Deployment',
  replicasets: 'ReplicaSet',
  endpointslices: 'EndpointSlice',
  leases: 'Lease',
  daemonsets: 'DaemonSet',
  namespaces: 'Namespace',
};

/** kindOf returns the kind of a resource ("pods" -> "Pod"), or the resource itself if unknown. */
export function kindOf(resource: string): string {
  return KINDS[resource] ?? resource;
}

/** RESOURCE_ORDER is the order resources are listed in tables. */
export const RESOURCE_ORDER = [
  'deployments',
  'replicasets',
  'pods',
  'nodes',
  'leases',
  'services',
  'endpointslices',
  'events',
  'daemonsets',
  'namespaces',
];

/** compareResources orders "pods/status" by RESOURCE_ORDER of its base, then by subresource. */
export function compareResources(a: string, b: string): number {
  const [ra, sa = ''] = a.split('/');
  const [rb, sb = ''] = b.split('/');
  const ia = RESOURCE_ORDER.indexOf(ra);
  const ib = RESOURCE_ORDER.indexOf(rb);
  const ka = ia < 0 ? RESOURCE_ORDER.length : ia;
  const kb = ib < 0 ? RESOURCE_ORDER.length : ib;
  if (ka !== kb) return ka - kb;
  if (ra !== rb) return ra < rb ? -1 : 1;
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}

/** mermaidId turns a component name into a Mermaid-safe identifier: "kubelet@node-1" -> "kubelet_node_1". */
export function mermaidId(name: string): string {
  let id = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z]/.test(id)) id = `n_${id}`;
  // Mermaid keywords that would end a block or change the statement's meaning.
  if (
    [
      'end',
      'graph',
      'subgraph',
      'class',
      'style',
      'click',
      'note',
      'participant',
      'actor',
      'loop',
      'alt',
      'opt',
      'par',
      'rect',
    ].includes(id.toLowerCase())
  )
    id = `n_${id}`;
  return id;
}

/** uniqueIds assigns each name a distinct Mermaid id, suffixing collisions deterministically. */
export function uniqueIds(names: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const n of names) {
    let id = mermaidId(n);
    for (let i = 2; used.has(id); i++) id = `${mermaidId(n)}_${i}`;
    used.add(id);
    out.set(n, id);
  }
  return out;
}

/**
 * mermaidText makes free text safe on one Mermaid line: no newlines, and the characters Mermaid
 * treats as statement or entity delimiters (";", "#") written as entity codes.
 */
export function mermaidText(s: string): string {
  return s
    .replace(/[\r\n]+/g, ' ')
    .replace(/#/g, '#35;')
    .replace(/;/g, '#59;')
    .replace(/%%/g, '%#37;');
}

/** mermaidLabel quotes a flowchart label: inside "..." only the double quote needs escaping. */
export function mermaidLabel(s: string): string {
  return `"${mermaidText(s).replace(/"/g, '#quot;')}"`;
}

/** accLines returns the accTitle and accDescr lines, single-line and Mermaid-safe. */
export function accLines(title: string, description: string, indent = '  '): string[] {
  const clean = (s: string) =>
    s
      .replace(/[\r\n]+/g, ' ')
      .replace(/[{}]/g, '')
      .trim();
  return [`${indent}accTitle: ${clean(title)}`, `${indent}accDescr: ${clean(description)}`];
}

/**
 * formatSeconds prints virtual seconds to the millisecond, the trace's resolution, without
 * trailing zeros: 50, 57.9, 2.834, 0.004 (never "0" for 0.004). src/lib/figures/svg.ts's seconds()
 * prints the same way.
 */
export function formatSeconds(s: number): string {
  return String(Math.round(s * 1000) / 1000);
}

/** plural writes "1 request" / "3 requests". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** objectKey is "namespace/name" for namespaced objects and "name" otherwise. */
export function objectKey(namespace: string | undefined, name: string | undefined): string {
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}

/** getPath reads a dotted path with optional [key=value] list selectors and [i] indexes. */
export function getPath(obj: unknown, path: string | string[]): unknown {
  const parts = Array.isArray(path) ? path : splitPath(path);
  let v: unknown = obj;
  for (const p of parts) {
    if (v === null || v === undefined) return undefined;
    const sel = /^\[(.+?)=(.*)\]$/.exec(p);
    if (sel) {
      if (!Array.isArray(v)) return undefined;
      v = v.find(
        (x) =>
          x && typeof x === 'object' && String((x as Record<string, unknown>)[sel[1]]) === sel[2],
      );
      continue;
    }
    const idx = /^\[(\d+)\]$/.exec(p);
    if (idx) {
      v = Array.isArray(v) ? v[Number(idx[1])] : undefined;
      continue;
    }
    if (typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/** splitPath splits "status.conditions[type=Ready].status" into its parts. */
export function splitPath(path: string): string[] {
  const out: string[] = [];
  const re = /([^.[\]]+)|(\[[^\]]*\])/g;
  for (const m of path.matchAll(re)) out.push(m[0]);
  return out;
}

/** stableStringify is JSON.stringify with sorted keys, for change detection. */
export function stableStringify(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${stableStringify(o[k])}`)
    .join(',')}}`;
}

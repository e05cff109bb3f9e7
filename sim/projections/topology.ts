// A topology view of a run's end: each node with its addresses and the Pods on it with theirs,
// the Services of the namespaces shown with their cluster IPs and ready endpoints, and who
// reached whom: each client Pod's connections (the trace's packet entries), grouped by client,
// Service, target and outcome. A projection in the sense of STYLE.md §4: a pure function of the
// run's objects and trace.

import type { Node, Pod, Service } from '../api/types.ts';
import type { PacketEntry } from '../engine/trace.ts';
import type { EndpointSlice } from '../registry/discovery/endpointslices/types.ts';
import type { RunLike } from './util.ts';

/** TopologyOptions choose the namespaces and the window of connections (virtual seconds). */
export interface TopologyOptions {
  /** namespaces to show (default: every namespace but kube-system). */
  namespaces?: string[];
  from?: number;
  to?: number;
}

export interface TopologyPod {
  /** key is namespace/name. */
  key: string;
  name: string;
  ip: string;
}

export interface TopologyNode {
  name: string;
  ip: string;
  podCIDR: string;
  pods: TopologyPod[];
}

export interface TopologyService {
  key: string;
  name: string;
  clusterIP: string;
  ports: string;
  ready: number;
}

/** TopologyLink is one kind of connection: client to target (by Service), how it ended, how often. */
export interface TopologyLink {
  from: string;
  /** to is the target Pod's key, "" when no Pod took it. */
  to: string;
  /** via is the Service the client connected to (namespace/name), "" for a Pod address. */
  via: string;
  outcome: PacketEntry['outcome'];
  count: number;
}

export interface Topology {
  nodes: TopologyNode[];
  services: TopologyService[];
  links: TopologyLink[];
}

/** RunObjects is a run with its final objects (RunResult). */
export interface RunObjects extends RunLike {
  objects: Partial<Record<string, unknown[]>>;
}

/** topology projects a run's end onto nodes, Pods, Services and connections. */
export function topology(run: RunObjects, opts: TopologyOptions = {}): Topology {
  const shown = (ns: string | undefined) =>
    opts.namespaces ? opts.namespaces.includes(ns ?? 'default') : ns !== 'kube-system';
  const pods = ((run.objects.pods ?? []) as Pod[]).filter((p) => shown(p.metadata.namespace));
  const nodes: TopologyNode[] = [];
  for (const n of (run.objects.nodes ?? []) as Node[]) {
    const on = pods
      .filter((p) => p.spec.nodeName === n.metadata.name && p.status?.podIP)
      .map((p) => ({
        key: `${p.metadata.namespace}/${p.metadata.name}`,
        name: p.metadata.name,
        ip: p.status!.podIP!,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    if (on.length === 0) continue;
    nodes.push({
      name: n.metadata.name,
      ip: n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '',
      podCIDR: (n.spec as { podCIDR?: string }).podCIDR ?? '',
      pods: on,
    });
  }
  const slices = (run.objects.endpointslices ?? []) as EndpointSlice[];
  const services: TopologyService[] = ((run.objects.services ?? []) as Service[])
    .filter((s) => shown(s.metadata.namespace))
    .map((s) => {
      const key = `${s.metadata.namespace}/${s.metadata.name}`;
      const ready = slices
        .filter(
          (e) =>
            e.metadata.namespace === s.metadata.namespace &&
            e.metadata.labels?.['kubernetes.io/service-name'] === s.metadata.name,
        )
        .flatMap((e) => e.endpoints ?? [])
        .filter((e) => e.conditions?.ready !== false).length;
      const ports = (s.spec.ports ?? [])
        .map((p) => `${p.port}→${p.targetPort ?? p.port}`)
        .join(', ');
      return { key, name: s.metadata.name, clusterIP: s.spec.clusterIP ?? '', ports, ready };
    });
  const byIP = new Map(services.map((s) => [s.clusterIP, s.key]));
  const podKeys = new Set(pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`));
  const links = new Map<string, TopologyLink>();
  for (const e of run.trace) {
    if (e.kind !== 'packet' || !podKeys.has(e.from)) continue;
    if ((opts.from !== undefined && e.t < opts.from) || (opts.to !== undefined && e.t > opts.to))
      continue;
    const via = byIP.get(e.dst.replace(/:\d+$/, '')) ?? '';
    const k = `${e.from}|${e.to}|${via}|${e.outcome}`;
    const l = links.get(k);
    if (l) l.count++;
    else links.set(k, { from: e.from, to: e.to, via, outcome: e.outcome, count: 1 });
  }
  return { nodes, services, links: [...links.values()] };
}

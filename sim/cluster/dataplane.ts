// The packets a container sends, as the nodes' kernels carry them: a DNS question to the
// nameserver in its resolv.conf leaves the Pod, the source node's rules (kube-proxy's, for a
// Service address) pick an endpoint with their statistic probabilities, the CNI network carries
// it to the endpoint's node, and the Pod there (CoreDNS) answers (see "Simplification:" notes).
// Simplification: one endpoint is picked per command and kept for all its questions, as
// conntrack keeps one UDP flow's choice (a real resolver may use a new source port, and so a
// new choice, per question).
// Simplification: a question to a Service with no endpoints, or to a node that is down or cut
// off, gets no reply (the resolver waits for its timeout); the ICMP error that REJECT sends is
// not modelled.

import type { Pod, Service } from '../api/types.ts';
import type { Namespace } from '../registry/core/namespaces/types.ts';
import type { EndpointSlice } from '../registry/discovery/endpointslices/types.ts';
import { answer, type DnsReply, type QType, type ResourceRecord } from '../dns/coredns.ts';
import type { Rng } from '../engine/rng.ts';
import type { Simulation } from '../engine/simulation.ts';
import type { RouteEndpoint } from '../proxy/proxier.ts';

/** DataplaneNode is what the dataplane needs of a node. */
export interface DataplaneNode {
  name: string;
  power: boolean;
  partitioned: boolean;
  routes(ip: string, port: number, protocol: 'TCP' | 'UDP'): RouteEndpoint[];
  /** kernel draws the rules' statistic matches for new flows. */
  kernel: Rng;
}

/** DataplaneCluster is what the dataplane reads: nodes, and the objects as the API holds them. */
export interface DataplaneCluster {
  sim: Simulation;
  node(name: string): DataplaneNode | undefined;
  peekAll<T>(resource: 'pods' | 'services' | 'endpointslices' | 'namespaces'): T[];
}

/**
 * dnsClient returns the function a container's resolver sends its questions through: from
 * the Pod's node to server:53/UDP, answered by the DNS server Pod the rules lead to.
 */
export function dnsClient(
  c: DataplaneCluster,
  pod: Pod,
): (server: string, name: string, qtype: QType) => DnsReply | undefined {
  const chosen = new Map<string, Pod | null>();
  return (server, name, qtype) => {
    let target = chosen.get(server);
    if (target === undefined) {
      target = pickEndpoint(c, pod, server, 53, 'UDP');
      chosen.set(server, target);
    }
    if (!target) return undefined;
    const reply = answer(
      {
        services: c.peekAll<Service>('services'),
        endpointSlices: c.peekAll<EndpointSlice>('endpointslices'),
        namespaces: c.peekAll<Namespace>('namespaces'),
      },
      name,
      qtype,
    );
    c.sim.record({
      kind: 'dns',
      from: `${pod.metadata.namespace}/${pod.metadata.name}`,
      to: `${target.metadata.namespace}/${target.metadata.name}`,
      server,
      name,
      qtype,
      rcode: reply.rcode,
      answers: reply.answers.map(recordText),
    });
    return reply;
  };
}

/** recordText is an answer as the trace shows it: type, then data. */
function recordText(rr: ResourceRecord): string {
  switch (rr.type) {
    case 'A':
      return `A ${rr.address}`;
    case 'CNAME':
    case 'PTR':
      return `${rr.type} ${rr.target}`;
    case 'SRV':
      return `SRV ${rr.priority} ${rr.weight} ${rr.port} ${rr.target}`;
    case 'TXT':
      return `TXT "${rr.text}"`;
  }
}

/**
 * pickEndpoint is the Pod a new flow from pod to ip:port reaches: the source node's rules'
 * choice (each endpoint rule's share, drawn from the node's kernel), if the path is up; null
 * when nothing answers.
 */
function pickEndpoint(
  c: DataplaneCluster,
  pod: Pod,
  ip: string,
  port: number,
  protocol: 'TCP' | 'UDP',
): Pod | null {
  const src = pod.spec.nodeName ? c.node(pod.spec.nodeName) : undefined;
  if (!src?.power || src.partitioned) return null;
  const routes = src.routes(ip, port, protocol);
  if (routes.length === 0) return null;
  // The rules try each endpoint in turn with its rule's probability; the last one takes the rest.
  let route = routes[routes.length - 1]!;
  for (const r of routes) {
    if (r.ruleProbability === null || src.kernel.float() < Number(r.ruleProbability)) {
      route = r;
      break;
    }
  }
  const address = route.endpoint.replace(/:\d+$/, '');
  const target = c
    .peekAll<Pod>('pods')
    .find((p) => p.status?.podIP === address && p.status?.phase === 'Running');
  if (!target?.spec.nodeName) return null;
  const dst = c.node(target.spec.nodeName);
  if (!dst?.power || (dst.partitioned && dst !== src)) return null;
  return target;
}

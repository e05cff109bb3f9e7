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
// A CNI plugin that enforces NetworkPolicy (cni: calico) drops a new flow the policies in force
// do not allow, between the Pod addresses after the rules' translation (policyDrop).
// Simplification: the drop is decided for both ends at once, as if Felix's rules on both nodes
// were one; the flow is dropped whether the source's egress or the destination's ingress refuses.

import type { NetworkPolicy, Node, Pod, Service } from '../api/types.ts';
import type { Namespace } from '../registry/core/namespaces/types.ts';
import type { EndpointSlice } from '../registry/discovery/endpointslices/types.ts';
import {
  answer,
  type ClusterDnsView,
  type DnsReply,
  type QType,
  type ResourceRecord,
} from '../dns/coredns.ts';
import type { Rng } from '../engine/rng.ts';
import type { Simulation } from '../engine/simulation.ts';
import type { ServedPort } from '../runtime/images.ts';
import {
  declaredListeners,
  listeners,
  type HttpRequest,
  type HttpResponse,
  type Listener,
} from '../runtime/servers.ts';
import { servicePorts } from '../proxy/endpoints.ts';
import type { RouteEndpoint } from '../proxy/proxier.ts';
import { evaluate } from '../runtime/networkpolicy.ts';

/** DataplaneNode is what the dataplane needs of a node. */
export interface DataplaneNode {
  name: string;
  power: boolean;
  partitioned: boolean;
  routes(ip: string, port: number, protocol: 'TCP' | 'UDP'): RouteEndpoint[];
  /** kernel draws the rules' statistic matches for new flows. */
  kernel: Rng;
  /**
   * recent is the kernel's `recent` match lists, which sessionAffinity ClientIP rules set and
   * check: per endpoint chain and client address, when the client last went there (ms).
   */
  recent: Map<string, number>;
  /**
   * rejects names the chains that refuse a new connection, when the node's rules are not
   * iptables mode's: to a Service with no endpoints, and to a port a cluster IP does not serve
   * (nftables mode's cluster-ips-check, IPVS mode's KUBE-IPVS-FILTER), which iptables mode lets
   * leave for the default route.
   */
  rejects?: { noEndpoints: string[]; unservedPort: string[] };
}

/** DataplaneCluster is what the dataplane reads: nodes, and the objects as the API holds them. */
export interface DataplaneCluster {
  sim: Simulation;
  node(name: string): DataplaneNode | undefined;
  peekAll<T>(
    resource: 'pods' | 'services' | 'endpointslices' | 'namespaces' | 'networkpolicies' | 'nodes',
  ): T[];
  /**
   * podListeners are the ports a Pod answers on when a component rather than its image says
   * so (an ingress controller's or gateway's proxy: sim/ingress/controller.ts); undefined for
   * the image's own (runtime/servers.ts).
   */
  podListeners?(pod: Pod): Listener[] | undefined;
  /** dnsCache is a DNS server Pod's answer cache (CoreDNS's cache plugin), by namespace/name. */
  dnsCache?(pod: string): Map<string, { reply: DnsReply; expires: number }>;
  /** imageServes is what a scenario says an image serves (cluster.images.<image>.serves). */
  imageServes?(image: string): ServedPort[] | undefined;
}

/**
 * policyDrop is the NetworkPolicy (namespace/name) that drops a new flow from pod to target's
 * port, when the cluster's CNI plugin enforces policy and the policies in force do not allow the
 * flow (runtime/networkpolicy.ts: egress at pod, ingress at target); undefined when it passes.
 */
function policyDrop(
  c: DataplaneCluster,
  pod: Pod,
  target: Pod,
  port: number,
  protocol: 'TCP' | 'UDP',
): string | undefined {
  if (c.sim.settings.cni !== 'calico') return undefined;
  const policies = c.peekAll<NetworkPolicy>('networkpolicies');
  if (policies.length === 0) return undefined;
  const view = { policies, namespaces: c.peekAll<Namespace>('namespaces') };
  const v = evaluate(view, { pod }, { pod: target }, port, protocol);
  return v.allowed ? undefined : v.byPolicy;
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
  let view: ClusterDnsView | undefined;
  return (server, name, qtype) => {
    let target = chosen.get(server);
    if (target === undefined) {
      target = pickEndpoint(c, pod, server, 53, 'UDP');
      chosen.set(server, target);
    }
    if (!target) return undefined;
    const policy = policyDrop(c, pod, target, 53, 'UDP');
    if (policy) {
      c.sim.record({
        kind: 'packet',
        from: `${pod.metadata.namespace}/${pod.metadata.name}`,
        to: `${target.metadata.namespace}/${target.metadata.name}`,
        dst: `${server}:53`,
        node: pod.spec.nodeName ?? '',
        chains: [],
        protocol: 'UDP',
        outcome: 'dropped',
        policy,
      });
      return undefined;
    }
    // The objects as CoreDNS's informers hold them, read once per command.
    view ??= {
      services: c.peekAll<Service>('services'),
      endpointSlices: c.peekAll<EndpointSlice>('endpointslices'),
      namespaces: c.peekAll<Namespace>('namespaces'),
    };
    // kubeadm's Corefile has `cache 30`: each CoreDNS Pod keeps an answer, found or not, for
    // up to 30 s (the records' TTL is 30 as well), so a Service created or deleted meanwhile is
    // seen late. The cache is the answering Pod's own.
    const cache = c.dnsCache?.(`${target.metadata.namespace}/${target.metadata.name}`);
    const key = `${name.toLowerCase().replace(/\.$/, '')}|${qtype}`;
    const now = c.sim.now();
    const hit = cache?.get(key);
    let reply: DnsReply;
    if (hit && hit.expires > now) reply = hit.reply;
    else {
      reply = answer(view, name, qtype);
      cache?.set(key, { reply, expires: now + DNS_CACHE_MS });
    }
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
  const route = pickRoute(src, routes);
  const address = route.endpoint.replace(/:\d+$/, '');
  const target = c
    .peekAll<Pod>('pods')
    .find((p) => p.status?.podIP === address && p.status?.phase === 'Running');
  if (!target?.spec.nodeName) return null;
  const dst = c.node(target.spec.nodeName);
  if (!dst?.power || (dst.partitioned && dst !== src)) return null;
  return target;
}

/**
 * pickRoute is the endpoint the source node's kernel gives a new flow, by the mode's own rule:
 * the iptables rules try each endpoint in turn with its statistic probability (the last takes the
 * rest); nftables draws once, numgen random mod N; IPVS's rr scheduler gives the next real server
 * in turn.
 */
function pickRoute(src: DataplaneNode, routes: RouteEndpoint[]): RouteEndpoint {
  const pick = routes[0]!.pick;
  if (pick && 'numgen' in pick) return routes[Math.floor(src.kernel.float() * pick.numgen)]!;
  if (pick && 'rr' in pick) return routes[pick.rr.next()]!;
  for (const r of routes)
    if (r.ruleProbability === null || src.kernel.float() < Number(r.ruleProbability)) return r;
  return routes[routes.length - 1]!;
}

/** Connection is how a TCP connection from a Pod ended, and the Pod and port that took it. */
export type Connection =
  | { outcome: 'established'; pod: Pod; port: number }
  | { outcome: 'refused' | 'rejected' | 'timeout' };

/**
 * connect opens a TCP connection from pod to ip:port as the nodes carry it: a Service address
 * is translated by the source node's rules (an endpoint drawn by their probabilities; REJECT,
 * which a client sees as a refused connection, when the Service has no endpoints; nothing when
 * no rule matches, so the connection times out); a Pod address is routed by the CNI network to
 * its node; the Pod there accepts if a container listens on the port (listening says), else
 * resets the connection (refused). A node down or cut off answers nothing.
 */
export function connect(
  c: DataplaneCluster,
  pod: Pod,
  ip: string,
  port: number,
  listening: (target: Pod, port: number) => boolean,
): Connection {
  const src = pod.spec.nodeName ? c.node(pod.spec.nodeName) : undefined;
  const record = (
    outcome: Connection['outcome'] | 'dropped',
    chains: string[],
    endpoint?: string,
    target?: Pod,
    policy?: string,
  ): void => {
    c.sim.record({
      kind: 'packet',
      from: `${pod.metadata.namespace}/${pod.metadata.name}`,
      to: target ? `${target.metadata.namespace}/${target.metadata.name}` : '',
      dst: `${ip}:${port}`,
      node: pod.spec.nodeName ?? '',
      chains,
      ...(endpoint ? { endpoint } : {}),
      outcome,
      ...(policy ? { policy } : {}),
    });
  };
  if (!src?.power || src.partitioned) {
    record('timeout', []);
    return { outcome: 'timeout' };
  }
  let address = ip;
  let targetPort = port;
  const chains: string[] = [];
  const svc = c.peekAll<Service>('services').find((s) => s.spec.clusterIP === ip);
  if (svc) {
    const routes = src.routes(ip, port, 'TCP');
    const info = servicePorts(svc).find((p) => p.port === port && p.proto === 'tcp');
    if (!info) {
      if (src.rejects) {
        record('rejected', src.rejects.unservedPort);
        return { outcome: 'rejected' };
      }
      // No rule matches the port: the packet leaves for the default route and is lost.
      record('timeout', []);
      return { outcome: 'timeout' };
    }
    chains.push('KUBE-SERVICES');
    if (routes.length === 0) {
      // internalTrafficPolicy: Local with endpoints on other nodes only: kube-proxy's filter rule
      // is a DROP ("has no local endpoints"), so the connection goes unanswered.
      if (info.internalPolicyLocal && hasReadyEndpoints(c, svc)) {
        record('timeout', [...chains, 'DROP (has no local endpoints)']);
        return { outcome: 'timeout' };
      }
      // "has no endpoints": kube-proxy's REJECT rule answers with an ICMP port unreachable.
      record('rejected', src.rejects?.noEndpoints ?? chains);
      return { outcome: 'rejected' };
    }
    // Local internal traffic policy goes through the KUBE-SVL chain of the node's own endpoints.
    chains.push(info.internalPolicyLocal ? info.localPolicyChainName : info.clusterPolicyChainName);
    const client = pod.status?.podIP ?? '';
    const now = c.sim.now();
    // sessionAffinity ClientIP: a `recent --rcheck --seconds T --reap` rule per endpoint comes
    // first, sending a client seen within T seconds back to the same endpoint.
    let route = info.sessionAffinityClientIP
      ? routes.find((r) => {
          const seen = src.recent.get(`${r.chain}|${client}`);
          return seen !== undefined && now - seen <= info.stickyMaxAgeSeconds * 1000;
        })
      : undefined;
    route ??= pickRoute(src, routes);
    // The endpoint chain's `recent --set` rule records the client.
    if (info.sessionAffinityClientIP) src.recent.set(`${route.chain}|${client}`, now);
    if (route.chains) chains.splice(0, chains.length, ...route.chains);
    else chains.push(route.chain);
    const m = /^(.*):(\d+)$/.exec(route.endpoint)!;
    address = m[1]!;
    targetPort = Number(m[2]);
  }
  const endpoint = svc ? `${address}:${targetPort}` : undefined;
  const target = c
    .peekAll<Pod>('pods')
    .find((p) => p.status?.podIP === address && p.status.phase === 'Running');
  const dst = target?.spec.nodeName ? c.node(target.spec.nodeName) : undefined;
  if (!target || !dst?.power || (dst.partitioned && dst !== src)) {
    record('timeout', chains, endpoint);
    return { outcome: 'timeout' };
  }
  // A policy's drop: the client's SYN goes unanswered, as when no rule matches.
  const policy = policyDrop(c, pod, target, targetPort, 'TCP');
  if (policy) {
    record('dropped', chains, endpoint, target, policy);
    return { outcome: 'timeout' };
  }
  if (!listening(target, targetPort)) {
    record('refused', chains, endpoint, target);
    return { outcome: 'refused' };
  }
  record('established', chains, endpoint, target);
  return { outcome: 'established', pod: target, port: targetPort };
}

/** hasReadyEndpoints says whether any EndpointSlice of the Service lists a ready endpoint. */
function hasReadyEndpoints(c: DataplaneCluster, svc: Service): boolean {
  return c
    .peekAll<EndpointSlice>('endpointslices')
    .some(
      (e) =>
        e.metadata.namespace === svc.metadata.namespace &&
        e.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name &&
        (e.endpoints ?? []).some((x) => x.conditions?.ready !== false),
    );
}

/** TcpClient is what a container's programs connect through (sim/runtime/curl.ts CurlHost). */
export type TcpClient = (
  ip: string,
  port: number,
) =>
  | {
      outcome: 'established';
      localIP: string;
      localPort: number;
      serve(req: HttpRequest): HttpResponse;
    }
  | { outcome: 'refused' | 'rejected' | 'timeout' };

/**
 * tcpClient returns the function a container's programs open connections with: connect(), then
 * the listening container's answer. The local port is an ephemeral one (32768-60999, Linux's
 * ip_local_port_range), drawn from the node's kernel.
 */
export function tcpClient(c: DataplaneCluster, pod: Pod): TcpClient {
  const listenersOf = (target: Pod): Listener[] =>
    c.podListeners?.(target) ??
    target.spec.containers.flatMap((k) => {
      // A scenario's declaration of what an image serves replaces the catalogue's.
      const declared = c.imageServes?.(k.image);
      return declared
        ? declaredListeners(declared)
        : listeners(k, target.spec.hostname ?? target.metadata.name);
    });
  return (ip, port) => {
    const conn = connect(c, pod, ip, port, (target, p) =>
      listenersOf(target).some((l) => l.port === p),
    );
    if (conn.outcome !== 'established') return conn;
    const listener = listenersOf(conn.pod).find((l) => l.port === conn.port)!;
    const src = c.node(pod.spec.nodeName!)!;
    return {
      outcome: 'established',
      localIP: pod.status?.podIP ?? '',
      localPort: 32768 + Math.floor(src.kernel.float() * (60999 - 32768 + 1)),
      serve: (req) => listener.serve(req, c.sim.now()),
    };
  };
}

/** DNS_CACHE_MS is kubeadm's Corefile `cache 30`: how long a CoreDNS Pod keeps an answer. */
export const DNS_CACHE_MS = 30_000;

/** WORKSTATION_IP is the address of the machine outside the cluster that `curl` runs on. */
export const WORKSTATION_IP = '192.0.2.10';

/**
 * externalClient returns the connect function of a machine outside the cluster (the learner's
 * workstation, WORKSTATION_IP): a connection to a LoadBalancer Service's address goes through
 * the load balancer to a node's port for the Service, and one to a node's address on a NodePort
 * reaches that node; either way the node's rules (KUBE-NODEPORTS, KUBE-EXT, then the Service's
 * chain) pick an endpoint, as for a Pod's connection. Anything else has no route: the SYN is
 * lost.
 * Simplification: the fake cloud's load balancer sends every connection to the first Ready node
 * in name order (a real one spreads them over the nodes its health checks pass), and
 * externalTrafficPolicy: Local is not applied to it.
 */
export function externalClient(c: DataplaneCluster): TcpClient {
  return (ip, port) => {
    const services = c.peekAll<Service>('services');
    const nodes = c.peekAll<Node>('nodes');
    const ready = (n: Node) =>
      n.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True') ?? false;
    let via: { node: Node; service: Service; port: number } | undefined;
    for (const s of services) {
      const lb = s.status?.loadBalancer?.ingress?.some((x) => x.ip === ip);
      const p = s.spec.ports?.find((x) => x.port === port && (x.protocol ?? 'TCP') === 'TCP');
      if (lb && p) {
        const node = [...nodes]
          .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
          .find((n) => ready(n) && !n.spec?.unschedulable);
        if (node) via = { node, service: s, port: p.port };
        break;
      }
    }
    if (!via) {
      const node = nodes.find((n) => n.status?.addresses?.some((a) => a.address === ip));
      const s = node && services.find((x) => x.spec.ports?.some((p) => p.nodePort === port));
      if (node && s)
        via = { node, service: s, port: s.spec.ports!.find((p) => p.nodePort === port)!.port };
      else if (node) {
        // A node's address on a port nothing listens on: its kernel resets the connection.
        c.sim.record({
          kind: 'packet',
          from: 'outside/workstation',
          to: '',
          dst: `${ip}:${port}`,
          node: node.metadata.name,
          chains: [],
          outcome: 'refused',
        });
        return { outcome: 'refused' };
      }
    }
    if (!via || !via.service.spec.clusterIP || via.service.spec.clusterIP === 'None') {
      c.sim.record({
        kind: 'packet',
        from: 'outside/workstation',
        to: '',
        dst: `${ip}:${port}`,
        node: '',
        chains: [],
        outcome: 'timeout',
      });
      return { outcome: 'timeout' };
    }
    // The packet enters the cluster at via.node and is translated there, as a Pod's is.
    const entry = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: 'outside', name: 'workstation' },
      spec: { nodeName: via.node.metadata.name, containers: [] },
      status: { podIP: WORKSTATION_IP, phase: 'Running' },
    } as unknown as Pod;
    return tcpClient(c, entry)(via.service.spec.clusterIP, via.port);
  };
}

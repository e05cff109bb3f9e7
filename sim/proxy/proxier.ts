// Mirrors pkg/proxy/iptables/proxier.go (syncProxyRules, writeServiceToEndpointRules), with
// pkg/proxy/runner/bounded_frequency_runner.go (at most one sync per --iptables-min-sync-period),
// pkg/util/iptables/iptables.go#Monitor (the canary chains) and cmd/kube-proxy/app/server.go
// (informers that skip headless and non-default-proxy objects). Chain names live in chains.ts;
// what is read from Services and EndpointSlices in endpoints.ts. Defaults are kube-proxy's:
// masquerade bit 14 (0x4000), --detect-local-mode=ClusterCIDR, localhost NodePorts allowed,
// empty --nodeport-addresses. See the "Simplification:" notes for what differs.
// --proxy-mode chooses the backend: iptables (the default), nftables (nftables.ts) or ipvs
// (ipvs.ts, deprecated since v1.35); the informers, sync loop and routes() are shared.

import { newSelector } from '../api/labels.ts';
import type { EndpointSlice, Service } from '../api/types.ts';
import type { Client } from '../client/client.ts';
import { Informer } from '../client/informer.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import {
  computeProbability,
  isServiceChainName,
  kubeExternalServicesChain,
  kubeForwardChain,
  kubeletFirewallChain,
  kubeMarkMasqChain,
  kubeNodePortsChain,
  kubePostroutingChain,
  kubeProxyCanaryChain,
  kubeProxyFirewallChain,
  kubeServicesChain,
  largeClusterEndpointsThreshold,
} from './chains.ts';
import {
  categorizeEndpoints,
  cmpKey,
  deriveService,
  deriveSlice,
  externallyAccessible,
  serviceEndpoints,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type EndpointInfo,
  type ServiceEndpoints,
  type ServicePortInfo,
} from './endpoints.ts';
import {
  localnetFirewallRule,
  NodeIptables,
  type Match,
  type Rule,
  type TableName,
} from './iptables.ts';
import { iptablesIPVS, ipvsadmList, NodeIPVS, syncIPVS, virtualServerKey } from './ipvs.ts';
import {
  applyTable,
  NodeNFTables,
  nftListRuleset,
  syncNFTablesRules,
  type NftRoute,
} from './nftables.ts';

/**
 * ProxyMode is kube-proxy's --proxy-mode (KubeProxyConfiguration mode). Empty means iptables on
 * Linux. ipvs is deprecated since v1.35 (kube-proxy warns and records an IPVSDeprecation event).
 */
export type ProxyMode = 'iptables' | 'nftables' | 'ipvs';

/** RouteEndpoint is one way out of a service port: for the course's figures. */
export interface RouteEndpoint {
  endpoint: string;
  chain: string;
  /** ruleProbability is the statistic match of the endpoint's rule, or null for the last rule. */
  ruleProbability: string | null;
  /** probability is the share of new connections the endpoint receives (1/n). */
  probability: number;
  /** local is true when the endpoint runs on this kube-proxy's node. */
  local: boolean;
  /**
   * pick is how the kernel chooses among the routes of a new connection, when not by the
   * iptables rules' ruleProbability cascade: nftables' `numgen random mod N` (one draw, equal
   * shares), or IPVS's rr scheduler (next() is the index of the real server whose turn it is).
   */
  pick?: { numgen: number } | { rr: { next(): number } };
  /** chains are the chains (or maps) a packet to this endpoint passes, for the packet trace. */
  chains?: string[];
}

type RouteBase = Omit<RouteEndpoint, 'local'> & { nodeName: string };

export interface KubeProxyOptions {
  nodeName: string;
  nodeIP: string;
  /** clusterCIDR is --cluster-cidr, used to tell pod traffic from the rest (! -s <cidr>). */
  clusterCIDR: string;
  /** iptables is the node's kernel state; a fresh one is made if omitted. */
  iptables?: NodeIptables;
  /** masqueradeAll is --masquerade-all (default false). */
  masqueradeAll?: boolean;
  /** masqueradeBit is --iptables-masquerade-bit (default 14). */
  masqueradeBit?: number;
  /** mode is --proxy-mode (default iptables). */
  mode?: ProxyMode;
  /** serviceCIDR is the service range nftables mode drops unallocated addresses of. */
  serviceCIDR?: string;
}

// ---- rules ----

function hex(n: number): string {
  return `0x${n.toString(16)}`;
}

/** ProxierConfig is what, besides Services and endpoints, decides the rules. */
interface ProxierConfig {
  clusterCIDR: string;
  masqueradeAll: boolean;
  masqueradeMark: number;
  /** key is the three fields above as they appear in service block cache keys. */
  key: string;
}

// BlockWriter collects the rules one service port contributes, grouped by chain.
class BlockWriter {
  readonly nat = new Map<string, Rule[]>();
  readonly filter = new Map<string, Rule[]>();
  lines = 0;

  declareNAT(chain: string): void {
    if (!this.nat.has(chain)) this.nat.set(chain, []);
  }

  addNAT(chain: string, rule: Rule): void {
    let rules = this.nat.get(chain);
    if (!rules) this.nat.set(chain, (rules = []));
    rules.push(rule);
    this.lines++;
  }

  addFilter(chain: string, rule: Rule): void {
    let rules = this.filter.get(chain);
    if (!rules) this.filter.set(chain, (rules = []));
    rules.push(rule);
    this.lines++;
  }
}

/** ServiceBlock is everything one service port contributes to the tables. Immutable, shared. */
interface ServiceBlock {
  id: number;
  nat: Map<string, Rule[]>;
  filter: Map<string, Rule[]>;
  lines: number;
  /** route is where cluster-IP traffic goes, or undefined when it is rejected or dropped. */
  route: RouteBase[] | undefined;
}

let nextBlockID = 1;
const blockCache = new WeakMap<ServicePortInfo, Map<string, ServiceBlock>>();

/**
 * serviceBlock returns the rules of one service port. They depend on the port, its endpoints,
 * the proxier's configuration, whether comments are dropped, and (only for Local traffic
 * policies) the node, so identical inputs on 5,000 nodes share one computation.
 */
function serviceBlock(
  svc: ServicePortInfo,
  eps: ServiceEndpoints,
  cfg: ProxierConfig,
  largeClusterMode: boolean,
  nodeName: string,
): ServiceBlock {
  const node = usesLocalEndpoints(svc) ? nodeName : '';
  const key = `${eps.key}|${cfg.key}|${largeClusterMode ? 1 : 0}|${node}`;
  let byKey = blockCache.get(svc);
  if (!byKey) blockCache.set(svc, (byKey = new Map()));
  let b = byKey.get(key);
  if (!b) {
    if (byKey.size > 256) byKey.clear();
    b = buildServiceBlock(
      svc,
      eps.byPort.get(`${svc.portName}/${svc.protocol}`) ?? [],
      cfg,
      largeClusterMode,
      node,
    );
    byKey.set(key, b);
  }
  return b;
}

// buildServiceBlock is the body of syncProxyRules' loop over service ports, in upstream order.
function buildServiceBlock(
  svc: ServicePortInfo,
  all: EndpointInfo[],
  cfg: ProxierConfig,
  largeClusterMode: boolean,
  nodeName: string,
): ServiceBlock {
  const w = new BlockWriter();
  const proto = svc.proto;
  const name = svc.nameString;
  const comment = (c: string): Match[] =>
    largeClusterMode ? [] : [{ module: 'comment', comment: c }];
  const { clusterEndpoints, localEndpoints, allLocallyReachableEndpoints, hasEndpoints } =
    categorizeEndpoints(all, svc, nodeName);

  const clusterPolicyChain = svc.clusterPolicyChainName;
  const usesClusterPolicyChain = clusterEndpoints.length > 0 && usesClusterEndpoints(svc);
  const localPolicyChain = svc.localPolicyChainName;
  const usesLocalPolicyChain = localEndpoints.length > 0 && usesLocalEndpoints(svc);

  let internalPolicyChain = clusterPolicyChain;
  let hasInternalEndpoints = hasEndpoints;
  if (svc.internalPolicyLocal) {
    internalPolicyChain = localPolicyChain;
    if (localEndpoints.length === 0) hasInternalEndpoints = false;
  }
  const internalTrafficChain = internalPolicyChain;

  let externalPolicyChain = clusterPolicyChain;
  let hasExternalEndpoints = hasEndpoints;
  if (svc.externalPolicyLocal) {
    externalPolicyChain = localPolicyChain;
    if (localEndpoints.length === 0) hasExternalEndpoints = false;
  }
  const externalTrafficChain = svc.externalChainName;
  const usesExternalTrafficChain = hasEndpoints && externallyAccessible(svc);
  // Simplification: the API types have no loadBalancerSourceRanges, so there is never a KUBE-FW
  // chain and load-balancer traffic goes straight to KUBE-EXT.
  const loadBalancerTrafficChain = externalTrafficChain;

  let internalTrafficFilterTarget = '';
  let internalTrafficFilterComment = '';
  let externalTrafficFilterTarget = '';
  let externalTrafficFilterComment = '';
  if (!hasEndpoints) {
    // No endpoints at all: no nat chains, only filter rules rejecting the service's IPs.
    internalTrafficFilterTarget = 'REJECT';
    internalTrafficFilterComment = `${name} has no endpoints`;
    externalTrafficFilterTarget = 'REJECT';
    externalTrafficFilterComment = internalTrafficFilterComment;
  } else {
    if (!hasInternalEndpoints) {
      internalTrafficFilterTarget = 'DROP';
      internalTrafficFilterComment = `${name} has no local endpoints`;
    }
    if (!hasExternalEndpoints) {
      externalTrafficFilterTarget = 'DROP';
      externalTrafficFilterComment = `${name} has no local endpoints`;
    }
  }
  const filterTarget = (t: string): Pick<Rule, 'jump' | 'targetArgs'> =>
    t === 'REJECT'
      ? { jump: 'REJECT', targetArgs: ['--reject-with', 'icmp-port-unreachable'] }
      : { jump: t };
  const portMatch = (port: number): Match => ({ module: proto, dport: port });

  // Capture the clusterIP.
  if (hasInternalEndpoints) {
    w.addNAT(kubeServicesChain, {
      destination: svc.clusterIP,
      protocol: proto,
      matches: [{ module: 'comment', comment: `${name} cluster IP` }, portMatch(svc.port)],
      jump: internalTrafficChain,
    });
  } else {
    w.addFilter(kubeServicesChain, {
      destination: svc.clusterIP,
      protocol: proto,
      matches: [{ module: 'comment', comment: internalTrafficFilterComment }, portMatch(svc.port)],
      ...filterTarget(internalTrafficFilterTarget),
    });
  }

  // Capture externalIPs.
  for (const ip of svc.externalIPs) {
    if (hasEndpoints)
      w.addNAT(kubeServicesChain, {
        destination: ip,
        protocol: proto,
        matches: [{ module: 'comment', comment: `${name} external IP` }, portMatch(svc.port)],
        jump: externalTrafficChain,
      });
    if (!hasExternalEndpoints)
      w.addFilter(kubeExternalServicesChain, {
        destination: ip,
        protocol: proto,
        matches: [
          { module: 'comment', comment: externalTrafficFilterComment },
          portMatch(svc.port),
        ],
        ...filterTarget(externalTrafficFilterTarget),
      });
  }

  // Capture load-balancer ingress.
  for (const ip of svc.loadBalancerVIPs) {
    if (hasEndpoints)
      w.addNAT(kubeServicesChain, {
        destination: ip,
        protocol: proto,
        matches: [{ module: 'comment', comment: `${name} loadbalancer IP` }, portMatch(svc.port)],
        jump: loadBalancerTrafficChain,
      });
  }
  if (!hasExternalEndpoints)
    for (const ip of svc.loadBalancerVIPs)
      w.addFilter(kubeExternalServicesChain, {
        destination: ip,
        protocol: proto,
        matches: [
          { module: 'comment', comment: externalTrafficFilterComment },
          portMatch(svc.port),
        ],
        ...filterTarget(externalTrafficFilterTarget),
      });

  // Capture nodeports.
  // Simplification: no nfacct, so no separately counted rule for NodePort traffic to 127.0.0.0/8.
  if (svc.nodePort !== 0) {
    if (hasEndpoints)
      w.addNAT(kubeNodePortsChain, {
        protocol: proto,
        matches: [{ module: 'comment', comment: name }, portMatch(svc.nodePort)],
        jump: externalTrafficChain,
      });
    if (!hasExternalEndpoints)
      w.addFilter(kubeExternalServicesChain, {
        protocol: proto,
        matches: [
          { module: 'comment', comment: externalTrafficFilterComment },
          { module: 'addrtype', dstType: 'LOCAL' },
          portMatch(svc.nodePort),
        ],
        ...filterTarget(externalTrafficFilterTarget),
      });
  }

  // Capture healthCheckNodePorts.
  if (svc.healthCheckNodePort !== 0)
    w.addFilter(kubeNodePortsChain, {
      protocol: 'tcp',
      matches: [
        { module: 'comment', comment: `${name} health check node port` },
        { module: 'tcp', dport: svc.healthCheckNodePort },
      ],
      jump: 'ACCEPT',
    });

  // Set up internal traffic handling: masquerade off-cluster traffic to the cluster IP
  // (LocalTrafficDetector for --detect-local-mode=ClusterCIDR: "! -s <cluster CIDR>").
  if (hasInternalEndpoints) {
    w.addNAT(internalTrafficChain, {
      ...(cfg.masqueradeAll ? {} : { source: cfg.clusterCIDR, notSource: true }),
      destination: svc.clusterIP,
      protocol: proto,
      matches: [{ module: 'comment', comment: `${name} cluster IP` }, portMatch(svc.port)],
      jump: kubeMarkMasqChain,
    });
  }

  // Set up external traffic handling.
  if (usesExternalTrafficChain) {
    w.declareNAT(externalTrafficChain);
    if (!svc.externalPolicyLocal) {
      w.addNAT(externalTrafficChain, {
        matches: [
          { module: 'comment', comment: `masquerade traffic for ${name} external destinations` },
        ],
        jump: kubeMarkMasqChain,
      });
    } else {
      w.addNAT(externalTrafficChain, {
        source: cfg.clusterCIDR,
        matches: [{ module: 'comment', comment: `pod traffic for ${name} external destinations` }],
        jump: clusterPolicyChain,
      });
      w.addNAT(externalTrafficChain, {
        matches: [
          {
            module: 'comment',
            comment: `masquerade LOCAL traffic for ${name} external destinations`,
          },
          { module: 'addrtype', srcType: 'LOCAL' },
        ],
        jump: kubeMarkMasqChain,
      });
      w.addNAT(externalTrafficChain, {
        matches: [
          { module: 'comment', comment: `route LOCAL traffic for ${name} external destinations` },
          { module: 'addrtype', srcType: 'LOCAL' },
        ],
        jump: clusterPolicyChain,
      });
    }
    if (hasExternalEndpoints)
      w.addNAT(externalTrafficChain, { matches: [], jump: externalPolicyChain });
  }

  let route: RouteBase[] | undefined;
  if (usesClusterPolicyChain) {
    w.declareNAT(clusterPolicyChain);
    const r = writeServiceToEndpointRules(
      w,
      name,
      svc,
      clusterPolicyChain,
      clusterEndpoints,
      comment,
    );
    if (hasInternalEndpoints && internalTrafficChain === clusterPolicyChain) route = r;
  }
  if (usesLocalPolicyChain) {
    w.declareNAT(localPolicyChain);
    const r = writeServiceToEndpointRules(w, name, svc, localPolicyChain, localEndpoints, comment);
    if (hasInternalEndpoints && internalTrafficChain === localPolicyChain) route = r;
  }

  // Generate the per-endpoint chains.
  for (const ep of allLocallyReachableEndpoints) {
    const chain = ep.chainName;
    w.declareNAT(chain);
    // Handle traffic that loops back to the originator with SNAT (hairpin).
    w.addNAT(chain, { source: ep.ip, matches: comment(name), jump: kubeMarkMasqChain });
    const matches: Match[] = comment(name);
    if (svc.sessionAffinityClientIP) matches.push({ module: 'recent', op: 'set', name: chain });
    matches.push({ module: proto });
    w.addNAT(chain, {
      protocol: proto,
      matches,
      jump: 'DNAT',
      targetArgs: ['--to-destination', ep.endpoint],
    });
  }

  return { id: nextBlockID++, nat: w.nat, filter: w.filter, lines: w.lines, route };
}

// writeServiceToEndpointRules writes the session-affinity rules, then one rule per endpoint:
// rule i of n matches with probability 1/(n-i) and the last one always, so each gets 1/n.
function writeServiceToEndpointRules(
  w: BlockWriter,
  name: string,
  svc: ServicePortInfo,
  svcChain: string,
  endpoints: EndpointInfo[],
  comment: (c: string) => Match[],
): RouteBase[] {
  if (svc.sessionAffinityClientIP) {
    for (const ep of endpoints) {
      w.addNAT(svcChain, {
        matches: [
          ...comment(`${name} -> ${ep.endpoint}`),
          {
            module: 'recent',
            op: 'rcheck',
            name: ep.chainName,
            seconds: svc.stickyMaxAgeSeconds,
            reap: true,
          },
        ],
        jump: ep.chainName,
      });
    }
  }
  const n = endpoints.length;
  const route: RouteBase[] = [];
  endpoints.forEach((ep, i) => {
    const matches = comment(`${name} -> ${ep.endpoint}`);
    const p = i < n - 1 ? computeProbability(n - i) : null;
    if (p !== null) matches.push({ module: 'statistic', probability: p });
    w.addNAT(svcChain, { matches, jump: ep.chainName });
    route.push({
      endpoint: ep.endpoint,
      chain: ep.chainName,
      ruleProbability: p,
      probability: 1 / n,
      nodeName: ep.nodeName,
    });
  });
  return route;
}

/** FixedRules are the rules kube-proxy writes on every sync whatever the Services. */
interface FixedRules {
  postrouting: Rule[];
  markMasq: Rule[];
  forward: Rule[];
  firewall: Rule[];
  nodePorts: Rule;
}

const fixedCache = new Map<number, FixedRules>();

function fixedRules(mark: number): FixedRules {
  let f = fixedCache.get(mark);
  if (f) return f;
  const m = hex(mark);
  f = {
    postrouting: [
      { matches: [{ module: 'mark', mark, mask: mark, invert: true }], jump: 'RETURN' },
      // Clear the mark: kube-proxy writes --xor-mark M, which the kernel keeps as --set-xmark M/0x0.
      { matches: [], jump: 'MARK', targetArgs: ['--set-xmark', `${m}/0x0`] },
      {
        matches: [{ module: 'comment', comment: 'kubernetes service traffic requiring SNAT' }],
        jump: 'MASQUERADE',
        targetArgs: ['--random-fully'],
      },
    ],
    // --or-mark M is kept as --set-xmark M/M.
    markMasq: [{ matches: [], jump: 'MARK', targetArgs: ['--set-xmark', `${m}/${m}`] }],
    forward: [
      // conntrack's tcp_be_liberal is off by default: drop INVALID packets.
      { matches: [{ module: 'conntrack', ctstate: 'INVALID' }], jump: 'DROP' },
      {
        matches: [
          { module: 'comment', comment: 'kubernetes forwarding rules' },
          { module: 'mark', mark, mask: mark },
        ],
        jump: 'ACCEPT',
      },
      {
        matches: [
          { module: 'comment', comment: 'kubernetes forwarding conntrack rule' },
          { module: 'conntrack', ctstate: 'RELATED,ESTABLISHED' },
        ],
        jump: 'ACCEPT',
      },
    ],
    // localhostNodePorts (the default) on IPv4: block what route_localnet would let in.
    firewall: [localnetFirewallRule()],
    // Empty --nodeport-addresses and localhost NodePorts allowed: no "! -d 127.0.0.0/8".
    nodePorts: {
      matches: [
        {
          module: 'comment',
          comment: 'kubernetes service nodeports; NOTE: this must be the last rule in this chain',
        },
        { module: 'addrtype', dstType: 'LOCAL' },
      ],
      jump: kubeNodePortsChain,
    },
  };
  fixedCache.set(mark, f);
  return f;
}

/** SyncContent is what one sync writes: shared by every node whose service blocks are the same. */
interface SyncContent {
  filter: Map<string, readonly Rule[]>;
  nat: Map<string, readonly Rule[]>;
  lines: number;
  routes: Map<string, RouteBase[]>;
  servicePorts: number;
  totalEndpoints: number;
}

const contentCache = new Map<string, SyncContent>();

// assemble lays the fixed rules and the service blocks out by chain, in upstream order.
function assemble(
  mark: number,
  ports: { svc: ServicePortInfo }[],
  blocks: ServiceBlock[],
  totalEndpoints: number,
): SyncContent {
  const fixed = fixedRules(mark);
  const filterShared = {
    [kubeServicesChain]: [] as Rule[],
    [kubeExternalServicesChain]: [] as Rule[],
    [kubeNodePortsChain]: [] as Rule[],
  };
  const natServices: Rule[] = [];
  const natNodePorts: Rule[] = [];
  const filter = new Map<string, readonly Rule[]>([
    [kubeServicesChain, filterShared[kubeServicesChain]],
    [kubeExternalServicesChain, filterShared[kubeExternalServicesChain]],
    [kubeForwardChain, fixed.forward],
    [kubeNodePortsChain, filterShared[kubeNodePortsChain]],
    [kubeProxyFirewallChain, []],
    [kubeletFirewallChain, fixed.firewall],
  ]);
  const nat = new Map<string, readonly Rule[]>([
    [kubeServicesChain, natServices],
    [kubeNodePortsChain, natNodePorts],
    [kubePostroutingChain, fixed.postrouting],
    [kubeMarkMasqChain, fixed.markMasq],
  ]);
  let lines =
    fixed.postrouting.length +
    fixed.markMasq.length +
    fixed.forward.length +
    fixed.firewall.length +
    1;
  const routes = new Map<string, RouteBase[]>();
  blocks.forEach((b, i) => {
    lines += b.lines;
    for (const [chain, rules] of b.filter)
      filterShared[chain as keyof typeof filterShared].push(...rules);
    for (const [chain, rules] of b.nat) {
      if (chain === kubeServicesChain) natServices.push(...rules);
      else if (chain === kubeNodePortsChain) natNodePorts.push(...rules);
      else nat.set(chain, rules);
    }
    const svc = ports[i].svc;
    if (b.route) routes.set(routeKey(svc.clusterIP, svc.port, svc.protocol), b.route);
  });
  // Finally, tail-call to the nodePorts chain; this must be the last rule of KUBE-SERVICES.
  natServices.push(fixed.nodePorts);
  return { filter, nat, lines, routes, servicePorts: ports.length, totalEndpoints };
}

interface JumpChain {
  table: TableName;
  dstChain: string;
  srcChain: string;
  comment: string;
  ctstateNew: boolean;
}

// iptablesJumpChains mirrors the upstream list: the rules kube-proxy prepends to built-in chains.
const iptablesJumpChains: JumpChain[] = [
  {
    table: 'filter',
    dstChain: kubeExternalServicesChain,
    srcChain: 'INPUT',
    comment: 'kubernetes externally-visible service portals',
    ctstateNew: true,
  },
  {
    table: 'filter',
    dstChain: kubeExternalServicesChain,
    srcChain: 'FORWARD',
    comment: 'kubernetes externally-visible service portals',
    ctstateNew: true,
  },
  {
    table: 'filter',
    dstChain: kubeNodePortsChain,
    srcChain: 'INPUT',
    comment: 'kubernetes health check service ports',
    ctstateNew: false,
  },
  {
    table: 'filter',
    dstChain: kubeServicesChain,
    srcChain: 'FORWARD',
    comment: 'kubernetes service portals',
    ctstateNew: true,
  },
  {
    table: 'filter',
    dstChain: kubeServicesChain,
    srcChain: 'OUTPUT',
    comment: 'kubernetes service portals',
    ctstateNew: true,
  },
  {
    table: 'filter',
    dstChain: kubeForwardChain,
    srcChain: 'FORWARD',
    comment: 'kubernetes forwarding rules',
    ctstateNew: false,
  },
  {
    table: 'filter',
    dstChain: kubeProxyFirewallChain,
    srcChain: 'INPUT',
    comment: 'kubernetes load balancer firewall',
    ctstateNew: true,
  },
  {
    table: 'filter',
    dstChain: kubeProxyFirewallChain,
    srcChain: 'OUTPUT',
    comment: 'kubernetes load balancer firewall',
    ctstateNew: true,
  },
  {
    table: 'filter',
    dstChain: kubeProxyFirewallChain,
    srcChain: 'FORWARD',
    comment: 'kubernetes load balancer firewall',
    ctstateNew: true,
  },
  {
    table: 'nat',
    dstChain: kubeServicesChain,
    srcChain: 'OUTPUT',
    comment: 'kubernetes service portals',
    ctstateNew: false,
  },
  {
    table: 'nat',
    dstChain: kubeServicesChain,
    srcChain: 'PREROUTING',
    comment: 'kubernetes service portals',
    ctstateNew: false,
  },
  {
    table: 'nat',
    dstChain: kubePostroutingChain,
    srcChain: 'POSTROUTING',
    comment: 'kubernetes postrouting rules',
    ctstateNew: false,
  },
  // iptablesKubeletJumpChains: duplicates of kubelet's, so that kube-proxy works without them.
  {
    table: 'filter',
    dstChain: kubeletFirewallChain,
    srcChain: 'INPUT',
    comment: '',
    ctstateNew: false,
  },
  {
    table: 'filter',
    dstChain: kubeletFirewallChain,
    srcChain: 'OUTPUT',
    comment: '',
    ctstateNew: false,
  },
];

const jumpRules: Rule[] = iptablesJumpChains.map((j) => {
  const matches: Match[] = [];
  if (j.ctstateNew) matches.push({ module: 'conntrack', ctstate: 'NEW' });
  if (j.comment) matches.push({ module: 'comment', comment: j.comment });
  return { matches, jump: j.dstChain };
});

/** KubeProxy is kube-proxy on one node (component "kube-proxy@<node>"), in its --proxy-mode. */
export class KubeProxy {
  static readonly NAME = 'kube-proxy';
  readonly name: string;
  readonly nodeName: string;
  readonly nodeIP: string;
  readonly clusterCIDR: string;
  readonly iptables: NodeIptables;
  readonly mode: ProxyMode;
  /** nftables is the node's nftables state (written in nftables mode). */
  readonly nftables = new NodeNFTables();
  /** ipvs is the node's IPVS table (written in ipvs mode). */
  readonly ipvs = new NodeIPVS();
  /** syncs counts syncProxyRules runs; restores counts those that changed the rules. */
  syncs = 0;
  restores = 0;
  private readonly sim: Simulation;
  private readonly cfg: ProxierConfig;
  private readonly serviceInformer: Informer<Service>;
  private readonly sliceInformer: Informer<EndpointSlice>;
  private initialized = false;
  private stopped = true;
  private waitTimer: TimerHandle | undefined;
  private runTimer: TimerHandle | undefined;
  private lastRunAt = -Infinity;
  private needFullSync = true;
  private lastWritten = '';
  private lastGeneration = -1;
  private routeTable = new Map<string, RouteBase[]>();
  private nftRoutes = new Map<string, NftRoute>();
  private readonly serviceCIDR: string;
  /**
   * endpointsMemo keeps, per Service ("namespace/name"), the slices of the last sync (as the
   * index listed them) and their endpoints: a sync usually follows a change to one Service, and
   * unchanged slices (the same cached objects) have the same endpoints.
   */
  private endpointsMemo = new Map<string, { slices: EndpointSlice[]; eps: ServiceEndpoints }>();
  private monitorBase = 0;
  private monitorTimer: TimerHandle | undefined;
  private unwatchFlush: (() => void) | undefined;

  constructor(sim: Simulation, client: Client, opts: KubeProxyOptions) {
    this.sim = sim;
    this.nodeName = opts.nodeName;
    this.nodeIP = opts.nodeIP;
    this.clusterCIDR = opts.clusterCIDR;
    this.name = `${KubeProxy.NAME}@${opts.nodeName}`;
    this.iptables = opts.iptables ?? new NodeIptables(opts.nodeName);
    this.mode = opts.mode ?? 'iptables';
    this.serviceCIDR = opts.serviceCIDR ?? '10.96.0.0/12';
    const masqueradeAll = opts.masqueradeAll ?? false;
    const masqueradeMark = 1 << (opts.masqueradeBit ?? 14);
    this.cfg = {
      clusterCIDR: opts.clusterCIDR,
      masqueradeAll,
      masqueradeMark,
      key: `${opts.clusterCIDR}|${masqueradeAll ? 1 : 0}|${masqueradeMark}`,
    };
    // server.go: skip objects that ask for another proxy, and headless Services' slices.
    const labelSelector = newSelector([
      { key: 'service.kubernetes.io/service-proxy-name', operator: 'DoesNotExist', values: [] },
      { key: 'service.kubernetes.io/headless', operator: 'DoesNotExist', values: [] },
    ]);
    this.serviceInformer = new Informer<Service>(client, 'services', { labelSelector });
    this.sliceInformer = new Informer<EndpointSlice>(client, 'endpointslices', { labelSelector });
    this.sliceInformer.addIndexer('service', (s) => {
      const svc = deriveSlice(s).value.service;
      return svc ? [svc] : [];
    });
    // Handlers only ask for a sync, and only when what kube-proxy reads changed, as
    // ServiceChangeTracker.Update and EndpointsChangeTracker.EndpointSliceUpdate return false
    // for changes that do not matter.
    // Simplification: upstream counts any EndpointSlice update (its cache compares whole
    // objects); here only changes to ports, endpoints, their conditions and nodes do.
    this.serviceInformer.addEventHandler({
      onAdd: (s) => {
        if (deriveService(s).value.length) this.sync();
      },
      onUpdate: (o, n) => {
        if (deriveService(o).sig !== deriveService(n).sig) this.sync();
      },
      onDelete: (s) => {
        if (deriveService(s).value.length) this.sync();
      },
    });
    this.sliceInformer.addEventHandler({
      onAdd: (s) => {
        if (deriveSlice(s).value.service) this.sync();
      },
      onUpdate: (o, n) => {
        if (deriveSlice(o).sig !== deriveSlice(n).sig) this.sync();
      },
      onDelete: (s) => {
        if (deriveSlice(s).value.service) this.sync();
      },
    });
  }

  /** start creates the canary chains, starts the informers and syncs once both have synced. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.needFullSync = true;
    // Simplification: the nftables and IPVS proxiers' own canary checks are not modelled.
    if (this.mode === 'iptables') this.startMonitor();
    this.serviceInformer.start();
    this.sliceInformer.start();
    this.waitForCacheSync();
  }

  /** stop ends the informers and timers. The rules stay in the kernel, as when the process exits. */
  stop(): void {
    this.stopped = true;
    this.initialized = false;
    this.waitTimer?.cancel();
    this.runTimer?.cancel();
    this.monitorTimer?.cancel();
    this.unwatchFlush?.();
    this.waitTimer = undefined;
    this.runTimer = undefined;
    this.monitorTimer = undefined;
    this.unwatchFlush = undefined;
    this.lastRunAt = -Infinity;
    this.serviceInformer.stop();
    this.sliceInformer.stop();
  }

  /**
   * startMonitor mirrors utiliptables.Monitor: create the KUBE-PROXY-CANARY chain in mangle, nat
   * and filter, then check every --iptables-sync-period (30s) that it still exists; once it is
   * gone (the tables were flushed), force a full sync and create the canaries again.
   * Simplification: instead of polling, the check is scheduled for the next poll time when the
   * tables are flushed (NodeIptables.flushAll), which is when a poll would first notice.
   */
  private startMonitor(): void {
    for (const t of ['mangle', 'nat', 'filter'] as const)
      this.iptables.ensureChain(t, kubeProxyCanaryChain);
    this.monitorBase = this.sim.now();
    this.unwatchFlush ??= this.iptables.onFlush(() => {
      if (this.monitorTimer || this.stopped) return;
      const interval = iptablesSyncPeriod(this.sim);
      const k = Math.max(1, Math.ceil((this.sim.now() - this.monitorBase) / interval));
      this.monitorTimer = this.sim.at(
        this.monitorBase + k * interval,
        `${this.name}: iptables monitor`,
        () => {
          this.monitorTimer = undefined;
          if (this.iptables.table('mangle')!.chain(kubeProxyCanaryChain)) return;
          // forceSyncProxyRules, then the monitor's loop creates the canaries again.
          this.needFullSync = true;
          this.syncProxyRules();
          this.startMonitor();
        },
      );
    });
  }

  // waitForCacheSync mirrors cache.WaitForCacheSync (100ms polls), then OnServiceSynced and
  // OnEndpointSlicesSynced, which call syncProxyRules directly, once.
  private waitForCacheSync(): void {
    if (this.stopped) return;
    if (this.serviceInformer.hasSynced && this.sliceInformer.hasSynced) {
      this.initialized = true;
      this.syncProxyRules();
      return;
    }
    this.waitTimer = this.sim.after(100, `${this.name}: wait for cache sync`, () =>
      this.waitForCacheSync(),
    );
  }

  /**
   * sync mirrors Proxier.Sync -> BoundedFrequencyRunner.Run: run syncProxyRules as soon as
   * possible, but never sooner than --iptables-min-sync-period after the previous run; requests
   * made while one is pending join it.
   * Simplification: no hourly resync (the runner's maxInterval): it would change nothing, since
   * only kube-proxy writes these rules and a flush is handled by the monitor.
   */
  sync(): void {
    if (!this.initialized || this.stopped || this.runTimer) return;
    const at = Math.max(this.sim.now(), this.lastRunAt + this.sim.settings.iptablesMinSyncPeriod);
    this.runTimer = this.sim.at(at, `${this.name}: syncProxyRules`, () => {
      this.runTimer = undefined;
      this.lastRunAt = this.sim.now();
      this.syncProxyRules();
    });
  }

  /**
   * syncProxyRules computes all of the filter and nat content kube-proxy owns from the informer
   * caches and writes it with iptables-restore --noflush, recording a `program` trace entry
   * (rules written, service ports, endpoints known, as upstream logs them) when the rules
   * changed. Level-triggered: running it twice changes nothing the second time.
   * Simplification: every sync is a full sync (upstream rewrites only changed services' chains
   * between full syncs; the tables end up the same); service ports are visited in name order
   * (upstream: Go map order); no topology-aware routing; a sync takes no virtual time.
   */
  syncProxyRules(): void {
    if (!this.initialized) return;
    this.syncs++;
    const cfg = this.cfg;

    // svcPortMap and endpointsMap, in a stable order.
    const services = this.serviceInformer.list();
    services.sort(cmpKey);
    const ports: { svc: ServicePortInfo; eps: ServiceEndpoints }[] = [];
    let totalEndpoints = 0;
    const endpointsMemo = new Map<string, { slices: EndpointSlice[]; eps: ServiceEndpoints }>();
    for (const s of services) {
      const infos = deriveService(s).value;
      if (!infos.length) continue;
      const service = infos[0].service;
      const slices = this.sliceInformer.byIndex('service', service);
      let memo = this.endpointsMemo.get(service);
      if (!memo || !sameObjects(memo.slices, slices))
        // serviceEndpoints sorts the array it is given: keep the index's order for the memo.
        memo = { slices, eps: serviceEndpoints(service, [...slices]) };
      endpointsMemo.set(service, memo);
      const eps = memo.eps;
      for (const svc of infos) {
        ports.push({ svc, eps });
        totalEndpoints += eps.byPort.get(`${svc.portName}/${svc.protocol}`)?.length ?? 0;
      }
    }
    this.endpointsMemo = endpointsMemo;
    ports.sort((a, b) => cmpPort(a.svc, b.svc));
    if (this.mode !== 'iptables') {
      this.syncOtherMode(ports, totalEndpoints);
      return;
    }
    const largeClusterMode = totalEndpoints > largeClusterEndpointsThreshold;

    const blocks: ServiceBlock[] = [];
    let fp = `${cfg.masqueradeMark}|`;
    for (const { svc, eps } of ports) {
      const b = serviceBlock(svc, eps, cfg, largeClusterMode, this.nodeName);
      blocks.push(b);
      fp += `${b.id},`;
    }
    const touched = this.iptables.generation !== this.lastGeneration;
    if (!touched && fp === this.lastWritten) return;

    let content = contentCache.get(fp);
    if (!content) {
      content = assemble(cfg.masqueradeMark, ports, blocks, totalEndpoints);
      if (contentCache.size > 1024) contentCache.clear();
      contentCache.set(fp, content);
    }

    // Delete service chains no longer in use.
    // Simplification: also on every sync in large-cluster mode (upstream: once per sync period).
    const deleteChains: string[] = [];
    for (const c of this.iptables.table('nat')!.chains.keys())
      if (!content.nat.has(c) && isServiceChainName(c)) deleteChains.push(c);
    deleteChains.sort();

    if (this.needFullSync || touched) {
      // A full sync first ensures the jump rules from the built-in chains (EnsureRule, Prepend).
      iptablesJumpChains.forEach((j, i) => {
        this.iptables.ensureChain(j.table, j.dstChain);
        this.iptables.ensureRule('prepend', j.table, j.srcChain, jumpRules[i]);
      });
      this.needFullSync = false;
    }
    this.iptables.restore('filter', { chains: content.filter });
    this.iptables.restore('nat', { chains: content.nat, deleteChains });
    this.routeTable = content.routes;
    this.lastWritten = fp;
    this.lastGeneration = this.iptables.generation;
    this.restores++;
    this.sim.record({
      kind: 'program',
      from: this.name,
      to: `iptables@${this.nodeName}`,
      what: 'iptables-restore',
      rules: content.lines,
      services: content.servicePorts,
      endpoints: content.totalEndpoints,
    });
  }

  /**
   * syncOtherMode is syncProxyRules' end in nftables and ipvs mode: the nftables proxier's one
   * transaction, or the IPVS proxier's virtual servers and its remaining iptables rules. A
   * `program` entry is recorded when what the node holds changed.
   */
  private syncOtherMode(
    ports: { svc: ServicePortInfo; eps: ServiceEndpoints }[],
    totalEndpoints: number,
  ): void {
    const withEndpoints = ports.map(({ svc, eps }) => ({
      svc,
      endpoints: eps.byPort.get(`${svc.portName}/${svc.protocol}`) ?? [],
    }));
    let rules: number;
    let fp: string;
    if (this.mode === 'nftables') {
      const r = syncNFTablesRules(withEndpoints, {
        clusterCIDR: this.cfg.clusterCIDR,
        serviceCIDR: this.serviceCIDR,
        nodeIP: this.nodeIP,
        nodeName: this.nodeName,
        masqueradeAll: this.cfg.masqueradeAll,
        masqueradeMark: this.cfg.masqueradeMark,
      });
      applyTable(this.nftables, r.table);
      this.nftRoutes = r.routes;
      rules = 0;
      for (const c of r.table.chains.values()) rules += c.rules.length;
      fp = nftListRuleset(this.nftables);
    } else {
      syncIPVS(this.ipvs, withEndpoints, this.nodeName, this.nodeIP);
      const chains = iptablesIPVS(
        this.cfg.clusterCIDR,
        this.cfg.masqueradeAll,
        this.cfg.masqueradeMark,
        ports.some((p) => p.svc.nodePort !== 0),
      );
      if (this.needFullSync) {
        for (const [chain, src, comment] of ipvsJumpChains) {
          this.iptables.ensureChain('nat', chain);
          this.iptables.ensureRule('prepend', 'nat', src, {
            matches: [{ module: 'comment', comment }],
            jump: chain,
          });
        }
        this.needFullSync = false;
      }
      this.iptables.restore('nat', { chains });
      rules = this.ipvs.services.size;
      fp = ipvsadmList(this.ipvs) + JSON.stringify([...chains]);
    }
    if (fp === this.lastWritten) return;
    this.lastWritten = fp;
    this.restores++;
    this.sim.record({
      kind: 'program',
      from: this.name,
      to: `${this.mode}@${this.nodeName}`,
      what: this.mode === 'nftables' ? 'nft' : 'ipvs',
      rules,
      services: ports.length,
      endpoints: totalEndpoints,
    });
  }

  /**
   * routes lists where new connections to clusterIP:port go from this node, as last programmed:
   * each endpoint with its rule's statistic probability and its overall share. Empty when the
   * service port is unknown or its cluster-IP traffic is rejected or dropped.
   */
  routes(
    clusterIP: string,
    port: number,
    protocol: 'TCP' | 'UDP' | 'SCTP' = 'TCP',
  ): RouteEndpoint[] {
    if (this.mode === 'nftables') return this.nftablesRoutes(clusterIP, port, protocol);
    if (this.mode === 'ipvs') return this.ipvsRoutes(clusterIP, port, protocol);
    const r = this.routeTable.get(routeKey(clusterIP, port, protocol));
    if (!r) return [];
    return r.map(({ nodeName, ...e }) => ({
      ...e,
      local: nodeName !== '' && nodeName === this.nodeName,
    }));
  }

  // nftablesRoutes: the service chain's numgen vmap, one equal share per endpoint chain.
  private nftablesRoutes(ip: string, port: number, protocol: string): RouteEndpoint[] {
    const r = this.nftRoutes.get(routeKey(ip, port, protocol));
    if (!r) return [];
    const n = r.endpoints.length;
    return r.endpoints.map((e) => ({
      endpoint: e.endpoint,
      chain: e.chain,
      ruleProbability: null,
      probability: 1 / n,
      local: e.nodeName !== '' && e.nodeName === this.nodeName,
      pick: { numgen: n },
      chains: ['nat-prerouting', 'services', 'service-ips', r.serviceChain, e.chain],
    }));
  }

  // ipvsRoutes: the virtual server's real servers, chosen by its rr scheduler in the kernel.
  private ipvsRoutes(ip: string, port: number, protocol: string): RouteEndpoint[] {
    const vs = this.ipvs.services.get(virtualServerKey(protocol, ip, port));
    if (!vs || vs.realServers.length === 0) return [];
    const n = vs.realServers.length;
    const ipvs = this.ipvs;
    const rr = {
      next: (): number => {
        const rs = ipvs.schedule(vs)!;
        return vs.realServers.indexOf(rs);
      },
    };
    return vs.realServers.map((rs) => ({
      endpoint: `${rs.address}:${rs.port}`,
      // chain names the real server, as sessionAffinity's memory of a client is per destination.
      chain: `${protocol} ${ip}:${port} -> ${rs.address}:${rs.port}`,
      ruleProbability: null,
      probability: 1 / n,
      local: rs.nodeName !== '' && rs.nodeName === this.nodeName,
      pick: { rr },
      chains: ['KUBE-SERVICES', `${protocol} ${ip}:${port} ${vs.scheduler}`],
    }));
  }

  /**
   * rejectChains names what refuses a forwarded new connection from a Pod in nftables and ipvs
   * mode (undefined in iptables mode, whose packet path names its own chains): to a Service
   * with no endpoints, and to a port a cluster IP does not serve.
   */
  rejectChains(): { noEndpoints: string[]; unservedPort: string[] } | undefined {
    if (this.mode === 'nftables')
      return {
        noEndpoints: [
          'filter-forward',
          'service-endpoints-check',
          'no-endpoint-services',
          'reject-chain',
        ],
        unservedPort: ['filter-forward', 'cluster-ips-check'],
      };
    if (this.mode === 'ipvs')
      // Simplification: KUBE-IPVS-FILTER is named but not written (see ipvs.ts).
      return { noEndpoints: ['KUBE-SERVICES'], unservedPort: ['KUBE-IPVS-FILTER'] };
    return undefined;
  }

  /** hasSynced reports whether kube-proxy is initialized (its first sync has run). */
  get hasSynced(): boolean {
    return this.initialized;
  }
}

/**
 * iptablesSyncPeriod is kube-proxy's --iptables-sync-period (default 30s), the iptables
 * monitor's poll interval. Read from settings.iptablesSyncPeriod when the engine has it.
 */
function iptablesSyncPeriod(sim: Simulation): number {
  return (sim.settings as { iptablesSyncPeriod?: number }).iptablesSyncPeriod ?? 30_000;
}

// The rules IPVS mode prepends to nat's built-in chains (comments as in the iptables mode).
const ipvsJumpChains: [string, string, string][] = [
  ['KUBE-SERVICES', 'OUTPUT', 'kubernetes service portals'],
  ['KUBE-SERVICES', 'PREROUTING', 'kubernetes service portals'],
  ['KUBE-POSTROUTING', 'POSTROUTING', 'kubernetes postrouting rules'],
];

function routeKey(ip: string, port: number, protocol: string): string {
  return `${ip}:${port}/${protocol}`;
}

// sameObjects reports whether two lists hold the same objects in the same order.
function sameObjects<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function cmpPort(a: ServicePortInfo, b: ServicePortInfo): number {
  if (a.nameString !== b.nameString) return a.nameString < b.nameString ? -1 : 1;
  return a.proto < b.proto ? -1 : a.proto > b.proto ? 1 : 0;
}

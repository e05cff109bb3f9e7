// Mirrors pkg/proxy/ipvs/proxier.go (syncProxyRules, syncService, syncEndpoint): kube-proxy in
// IPVS mode binds every Service address to the dummy interface kube-ipvs0 and makes one IPVS
// virtual server per service port and address (cluster IP, external IPs, load-balancer IPs, and
// the node's address for a NodePort), scheduler rr (DefaultScheduler), whose real servers are the
// endpoints, each masqueraded with weight 1; and `ipvsadm -Ln` (ipvsadm 1.31) printing them.
// IPVS mode is deprecated since v1.35 (kubernetes/kubernetes#134539): from v1.35 kube-proxy logs a
// warning and records an IPVSDeprecation event on the Node (v1.34, modelled here, does neither);
// nftables is the successor.
// Simplification: the kernel's rr scheduler is modelled per virtual server as a pointer into its
// real servers in the order they were added; connection counters stay 0; no graceful termination
// (a real server whose endpoint is gone is removed at once, not given weight 0); the
// iptables and ipset rules IPVS mode still writes are reduced to the few iptablesIPVS() returns.

import {
  categorizeEndpoints,
  externallyAccessible,
  type EndpointInfo,
  type ServicePortInfo,
} from './endpoints.ts';
import type { Match, Rule } from './iptables.ts';

/** DefaultScheduler is kube-proxy's --ipvs-scheduler default ("" means rr). */
export const DefaultScheduler = 'rr';
/** DefaultDummyDevice is the interface kube-proxy binds the service addresses to. */
export const DefaultDummyDevice = 'kube-ipvs0';

/** RealServer is one destination of a virtual server. */
export interface RealServer {
  address: string;
  port: number;
  weight: number;
  /** nodeName is the endpoint's node, for the packet path. */
  nodeName: string;
}

/** VirtualServer is one IPVS service: protocol, address and port, and where it sends. */
export interface VirtualServer {
  protocol: 'TCP' | 'UDP' | 'SCTP';
  address: string;
  port: number;
  scheduler: string;
  /** persistent is the persistence timeout in seconds (sessionAffinity ClientIP), or 0. */
  persistent: number;
  realServers: RealServer[];
  /** rrNext is the kernel rr scheduler's position: the real server the next connection gets. */
  rrNext: number;
}

/** NodeIPVS is one node's IPVS table and its kube-ipvs0 dummy interface. */
export class NodeIPVS {
  readonly services = new Map<string, VirtualServer>();
  /** dummyAddresses are the addresses bound to kube-ipvs0, in the order they were bound. */
  readonly dummyAddresses: string[] = [];

  virtualServer(protocol: string, address: string, port: number): VirtualServer | undefined {
    return this.services.get(virtualServerKey(protocol, address, port));
  }

  /**
   * schedule is the rr scheduler choosing a real server for a new connection: each in turn.
   * Level of the kernel: it changes rrNext.
   */
  schedule(vs: VirtualServer): RealServer | undefined {
    const n = vs.realServers.length;
    if (n === 0) return undefined;
    const rs = vs.realServers[vs.rrNext % n]!;
    vs.rrNext = (vs.rrNext + 1) % n;
    return rs;
  }
}

export function virtualServerKey(protocol: string, address: string, port: number): string {
  return `${protocol} ${address}:${port}`;
}

/**
 * syncIPVS brings the node's IPVS table to what the service ports want: virtual servers are
 * added or updated in place (an existing one keeps its rr position when its real servers are
 * unchanged), stale ones deleted, and kube-ipvs0 holds exactly the cluster, external and
 * load-balancer addresses.
 */
export function syncIPVS(
  ipvs: NodeIPVS,
  ports: { svc: ServicePortInfo; endpoints: EndpointInfo[] }[],
  nodeName: string,
  nodeIP: string,
): void {
  const want = new Map<string, VirtualServer>();
  const addresses: string[] = [];
  const add = (svc: ServicePortInfo, address: string, port: number, eps: EndpointInfo[]): void => {
    const key = virtualServerKey(svc.protocol, address, port);
    const realServers = eps.map((ep) => ({
      address: ep.ip,
      port: ep.port,
      weight: 1,
      nodeName: ep.nodeName,
    }));
    const old = ipvs.services.get(key);
    const same =
      old !== undefined &&
      old.realServers.length === realServers.length &&
      old.realServers.every(
        (r, i) => r.address === realServers[i]!.address && r.port === realServers[i]!.port,
      );
    want.set(key, {
      protocol: svc.protocol,
      address,
      port,
      scheduler: DefaultScheduler,
      persistent: svc.sessionAffinityClientIP ? svc.stickyMaxAgeSeconds : 0,
      realServers,
      rrNext: same ? old.rrNext : 0,
    });
  };
  for (const { svc, endpoints } of ports) {
    const { clusterEndpoints, localEndpoints } = categorizeEndpoints(endpoints, svc, nodeName);
    const internal = svc.internalPolicyLocal ? localEndpoints : clusterEndpoints;
    const external = svc.externalPolicyLocal ? localEndpoints : clusterEndpoints;
    // The cluster IP is bound and served even with no endpoints: IPVS answers with a reset.
    add(svc, svc.clusterIP, svc.port, internal);
    addresses.push(svc.clusterIP);
    if (externallyAccessible(svc)) {
      for (const ip of [...svc.externalIPs, ...svc.loadBalancerVIPs]) {
        add(svc, ip, svc.port, external);
        addresses.push(ip);
      }
      if (svc.nodePort !== 0) add(svc, nodeIP, svc.nodePort, external);
    }
  }
  ipvs.services.clear();
  for (const [k, v] of want) ipvs.services.set(k, v);
  const bound = new Set(addresses);
  const kept = ipvs.dummyAddresses.filter((a) => bound.has(a));
  for (const a of addresses) if (!kept.includes(a)) kept.push(a);
  ipvs.dummyAddresses.splice(0, ipvs.dummyAddresses.length, ...kept);
}

// ---- ipvsadm ----

const protoNumber: Record<string, number> = { TCP: 6, UDP: 17, SCTP: 132 };

function ipNumber(ip: string): number {
  return ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}

// ipvs_cmp_services and ipvs_cmp_dests: ipvsadm sorts what it lists by protocol, address, port.
function cmpServices(a: VirtualServer, b: VirtualServer): number {
  return (
    protoNumber[a.protocol]! - protoNumber[b.protocol]! ||
    ipNumber(a.address) - ipNumber(b.address) ||
    a.port - b.port
  );
}

function cmpDests(a: RealServer, b: RealServer): number {
  return ipNumber(a.address) - ipNumber(b.address) || a.port - b.port;
}

/** IPVS_HEADER is what `ipvsadm -Ln` prints first (the kernel's IPVS version and table size). */
export const IPVS_HEADER =
  'IP Virtual Server version 1.2.1 (size=4096)\n' +
  'Prot LocalAddress:Port Scheduler Flags\n' +
  '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n';

function pad(s: string | number, n: number): string {
  return String(s).padEnd(n);
}

/** printService prints one virtual server and its real servers as print_service_entry does. */
export function printService(vs: VirtualServer): string {
  let out = `${vs.protocol}  ${vs.address}:${vs.port} ${vs.scheduler}`;
  if (vs.persistent > 0) out += ` persistent ${vs.persistent}`;
  out += '\n';
  for (const rs of [...vs.realServers].sort(cmpDests))
    out += `  -> ${pad(`${rs.address}:${rs.port}`, 28)} ${pad('Masq', 7)} ${pad(rs.weight, 6)} ${pad(0, 10)} ${pad(0, 10)}\n`;
  return out;
}

/** ipvsadmList prints the whole table, sorted, as `ipvsadm -Ln` does. */
export function ipvsadmList(ipvs: NodeIPVS): string {
  return IPVS_HEADER + [...ipvs.services.values()].sort(cmpServices).map(printService).join('');
}

// ---- the iptables rules IPVS mode still writes ----

/**
 * iptablesIPVS returns the nat chains IPVS mode writes besides its virtual servers
 * (pkg/proxy/ipvs/proxier.go writeIptablesRules), matching the ipsets kube-proxy fills:
 * cluster-IP traffic from outside the Pod network is marked for masquerade, traffic to a local
 * address goes to KUBE-NODE-PORT, cluster-IP traffic is accepted (IPVS takes it in INPUT), and
 * hairpin traffic (KUBE-LOOP-BACK) is masqueraded.
 * Simplification: kept minimal: the ipsets themselves (KUBE-CLUSTER-IP, KUBE-NODE-PORT-TCP,
 * KUBE-LOOP-BACK) are not modelled, nor `ipset list`; the filter table's KUBE-FORWARD,
 * KUBE-IPVS-FILTER and KUBE-PROXY-FIREWALL rules are left out.
 */
export function iptablesIPVS(
  clusterCIDR: string,
  masqueradeAll: boolean,
  mark: number,
  hasNodePorts: boolean,
): Map<string, Rule[]> {
  const c = (comment: string): Match => ({ module: 'comment', comment });
  const m = `0x${mark.toString(16)}`;
  const chains = new Map<string, Rule[]>();
  chains.set('KUBE-SERVICES', [
    {
      ...(masqueradeAll ? {} : { source: clusterCIDR, notSource: true }),
      matches: [
        c('Kubernetes service cluster ip + port for masquerade purpose'),
        { module: 'set', matchSet: 'KUBE-CLUSTER-IP', flags: 'dst,dst' },
      ],
      jump: 'KUBE-MARK-MASQ',
    },
    { matches: [{ module: 'addrtype', dstType: 'LOCAL' }], jump: 'KUBE-NODE-PORT' },
    {
      matches: [{ module: 'set', matchSet: 'KUBE-CLUSTER-IP', flags: 'dst,dst' }],
      jump: 'ACCEPT',
    },
  ]);
  chains.set(
    'KUBE-NODE-PORT',
    hasNodePorts
      ? [
          {
            protocol: 'tcp',
            matches: [
              c('Kubernetes nodeport TCP port for masquerade purpose'),
              { module: 'set', matchSet: 'KUBE-NODE-PORT-TCP', flags: 'dst' },
            ],
            jump: 'KUBE-MARK-MASQ',
          },
        ]
      : [],
  );
  chains.set('KUBE-POSTROUTING', [
    {
      matches: [
        c('Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose'),
        { module: 'set', matchSet: 'KUBE-LOOP-BACK', flags: 'dst,dst,src' },
      ],
      jump: 'MASQUERADE',
    },
    { matches: [{ module: 'mark', mark, mask: mark, invert: true }], jump: 'RETURN' },
    { matches: [], jump: 'MARK', targetArgs: ['--set-xmark', `${m}/0x0`] },
    {
      matches: [c('kubernetes service traffic requiring SNAT')],
      jump: 'MASQUERADE',
      targetArgs: ['--random-fully'],
    },
  ]);
  chains.set('KUBE-MARK-MASQ', [
    { matches: [], jump: 'MARK', targetArgs: ['--set-xmark', `${m}/${m}`] },
  ]);
  return chains;
}

// Mirrors pkg/proxy/nftables/proxier.go (setupNFTables, syncProxyRules, writeServiceToEndpointRules,
// servicePortChainNameBase and servicePortEndpointChainNameBase): what kube-proxy in nftables mode
// writes to the `kube-proxy` table of family ip, and `nft list` printing it back (nft 1.0).
// Rules are kept as `nft list` prints them, the kernel's canonical form: kube-proxy's
// "mark set mark or 0x4000" lists as "meta mark set meta mark | 0x00004000".
// Simplification: single-stack IPv4, so there is no ip6 kube-proxy table; no topology-aware
// routing; stale service chains are deleted at once (upstream flushes them and deletes them a
// second later); map elements list in the order they were added (the kernel's hash order is not
// modelled), plain sets sorted by address as nft sorts them; the affinity sets' dynamic elements
// are not listed; there is no loadBalancerSourceRanges in the API types, so the firewall-ips map
// stays empty and no firewall- chain is written.

import { base32Encode, sha256 } from './sha256.ts';
import {
  categorizeEndpoints,
  externallyAccessible,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type EndpointInfo,
  type ServicePortInfo,
} from './endpoints.ts';

export const kubeProxyTable = 'kube-proxy';
const servicesChain = 'services';
const serviceIPsMap = 'service-ips';
const serviceNodePortsMap = 'service-nodeports';
const nodePortIPsSet = 'nodeport-ips';
const clusterIPsSet = 'cluster-ips';
const serviceEndpointsCheckChain = 'service-endpoints-check';
const nodePortEndpointsCheckChain = 'nodeport-endpoints-check';
const noEndpointServicesMap = 'no-endpoint-services';
const noEndpointNodePortsMap = 'no-endpoint-nodeports';
const rejectChain = 'reject-chain';
const clusterIPsCheckChain = 'cluster-ips-check';
const firewallIPsMap = 'firewall-ips';
const firewallCheckChain = 'firewall-check';
const markMasqChain = 'mark-for-masquerade';
const masqueradingChain = 'masquerading';

/** NftElement is one element of a set or map: key, its comment, and a map's value. */
export interface NftElement {
  key: string;
  comment?: string;
  value?: string;
}

/** NftSet is a named set (no value) or map (verdict map) of a table. */
export interface NftSet {
  kind: 'set' | 'map';
  name: string;
  type: string;
  flags?: string;
  /** timeout in seconds (affinity sets). */
  timeout?: number;
  comment?: string;
  elements: NftElement[];
}

/** NftBaseChain is what hooks a chain into netfilter. */
export interface NftBaseChain {
  type: 'filter' | 'nat';
  hook: 'prerouting' | 'input' | 'forward' | 'output' | 'postrouting';
  priority: number;
}

/** NftChain is one chain: its rules as nft lists them. */
export interface NftChain {
  name: string;
  base?: NftBaseChain;
  comment?: string;
  rules: string[];
}

/** NftTable is one table; sets and chains keep the order they were created in. */
export interface NftTable {
  family: 'ip';
  name: string;
  comment?: string;
  sets: Map<string, NftSet>;
  chains: Map<string, NftChain>;
}

/** NodeNFTables is one node's nftables state. */
export class NodeNFTables {
  readonly tables = new Map<string, NftTable>();
  table(family: string, name: string): NftTable | undefined {
    return this.tables.get(`${family} ${name}`);
  }
}

// ---- names ----

const nameCache = new Map<string, string>();

// hashAndTruncate prefixes name with the first 8 characters of base32(sha256(name)).
function hashAndTruncate(name: string): string {
  let n = nameCache.get(name);
  if (n === undefined) {
    n = `${base32Encode(sha256(name)).slice(0, 8)}-${name}`;
    // chainNameBaseLengthMax: knftables.NameLengthMax (256) - 16.
    if (n.length > 240) n = `${n.slice(0, 237)}...`;
    if (nameCache.size > 200_000) nameCache.clear();
    nameCache.set(name, n);
  }
  return n;
}

/** servicePortChainNameBase is "HASH-namespace/name/protocol/portName". */
export function servicePortChainNameBase(svc: ServicePortInfo): string {
  const [ns, name] = svc.service.split('/');
  return hashAndTruncate(`${ns}/${name}/${svc.proto}/${svc.portName}`);
}

/** servicePortEndpointChainNameBase is "HASH-namespace/name/protocol/portName__ip/port". */
export function servicePortEndpointChainNameBase(svc: ServicePortInfo, ep: EndpointInfo): string {
  const [ns, name] = svc.service.split('/');
  return hashAndTruncate(`${ns}/${name}/${svc.proto}/${svc.portName}__${ep.ip}/${ep.port}`);
}

// ---- the ruleset ----

/** NFTablesConfig is what, besides Services and endpoints, decides the table. */
export interface NFTablesConfig {
  clusterCIDR: string;
  serviceCIDR: string;
  nodeIP: string;
  nodeName: string;
  masqueradeAll: boolean;
  masqueradeMark: number;
}

/** NftRoute is where cluster-IP traffic of one service port goes: one endpoint chain each. */
export interface NftRoute {
  serviceChain: string;
  endpoints: { endpoint: string; chain: string; nodeName: string }[];
}

/** NftSyncResult is the table one sync wants, with the packet path's routes. */
export interface NftSyncResult {
  table: NftTable;
  routes: Map<string, NftRoute>;
}

function mark(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`;
}

// nftablesBaseChains: the filter chains run before DNAT (dstnat - 10), except the output chain
// that must see DNATed addresses (dstnat + 10).
const baseChains: [string, NftBaseChain][] = [
  ['filter-prerouting', { type: 'filter', hook: 'prerouting', priority: -110 }],
  ['filter-input', { type: 'filter', hook: 'input', priority: -110 }],
  ['filter-forward', { type: 'filter', hook: 'forward', priority: -110 }],
  ['filter-output', { type: 'filter', hook: 'output', priority: -110 }],
  ['filter-output-post-dnat', { type: 'filter', hook: 'output', priority: -90 }],
  ['nat-prerouting', { type: 'nat', hook: 'prerouting', priority: -100 }],
  ['nat-output', { type: 'nat', hook: 'output', priority: -100 }],
  ['nat-postrouting', { type: 'nat', hook: 'postrouting', priority: 100 }],
];

// nftablesJumpChains: [destination, source, extra match].
const jumpChains: [string, string, string][] = [
  [nodePortEndpointsCheckChain, 'filter-input', 'ct state new'],
  [serviceEndpointsCheckChain, 'filter-input', 'ct state new'],
  [serviceEndpointsCheckChain, 'filter-forward', 'ct state new'],
  [serviceEndpointsCheckChain, 'filter-output', 'ct state new'],
  [firewallCheckChain, 'filter-prerouting', 'ct state new'],
  [firewallCheckChain, 'filter-output', 'ct state new'],
  [servicesChain, 'nat-output', ''],
  [servicesChain, 'nat-prerouting', ''],
  [masqueradingChain, 'nat-postrouting', ''],
  [clusterIPsCheckChain, 'filter-forward', 'ct state new'],
  [clusterIPsCheckChain, 'filter-output-post-dnat', 'ct state new'],
];

class TableWriter {
  readonly t: NftTable = {
    family: 'ip',
    name: kubeProxyTable,
    comment: 'rules for kube-proxy',
    sets: new Map(),
    chains: new Map(),
  };

  chain(name: string, extra: Partial<NftChain> = {}): NftChain {
    let c = this.t.chains.get(name);
    if (!c) this.t.chains.set(name, (c = { name, rules: [], ...extra }));
    return c;
  }

  rule(chain: string, rule: string): void {
    this.chain(chain).rules.push(rule);
  }

  set(s: Omit<NftSet, 'elements'>): NftSet {
    let x = this.t.sets.get(s.name);
    if (!x) this.t.sets.set(s.name, (x = { ...s, elements: [] }));
    return x;
  }

  element(set: string, e: NftElement): void {
    const s = this.t.sets.get(set)!;
    if (!s.elements.some((x) => x.key === e.key)) s.elements.push(e);
  }
}

// setupNFTables writes the table, base chains, jump rules, and the fixed sets, maps and chains.
function setupNFTables(w: TableWriter, cfg: NFTablesConfig): void {
  for (const [name, base] of baseChains) w.chain(name, { base });
  for (const [dst, src, extra] of jumpChains) {
    w.chain(dst);
    w.rule(src, extra ? `${extra} jump ${dst}` : `jump ${dst}`);
  }
  for (const c of [servicesChain, clusterIPsCheckChain, masqueradingChain, markMasqChain])
    w.chain(c);
  const m = mark(cfg.masqueradeMark);
  w.rule(markMasqChain, `meta mark set meta mark | ${m}`);
  w.rule(masqueradingChain, `meta mark & ${m} == 0x00000000 return`);
  w.rule(masqueradingChain, `meta mark set meta mark ^ ${m}`);
  w.rule(masqueradingChain, 'masquerade fully-random');
  w.set({ kind: 'set', name: clusterIPsSet, type: 'ipv4_addr', comment: 'Active ClusterIPs' });
  w.rule(
    clusterIPsCheckChain,
    `ip daddr @${clusterIPsSet} reject comment "Reject traffic to invalid ports of ClusterIPs"`,
  );
  // An anonymous set of one element lists as the element itself.
  w.rule(
    clusterIPsCheckChain,
    `ip daddr ${cfg.serviceCIDR} drop comment "Drop traffic to unallocated ClusterIPs"`,
  );
  // nftables mode's --nodeport-addresses default is the node's primary IP ("primary").
  w.set({
    kind: 'set',
    name: nodePortIPsSet,
    type: 'ipv4_addr',
    comment: 'IPs that accept NodePort traffic',
  });
  w.element(nodePortIPsSet, { key: cfg.nodeIP });
  w.set({
    kind: 'map',
    name: noEndpointServicesMap,
    type: 'ipv4_addr . inet_proto . inet_service : verdict',
    comment: 'vmap to drop or reject packets to services with no endpoints',
  });
  w.set({
    kind: 'map',
    name: noEndpointNodePortsMap,
    type: 'inet_proto . inet_service : verdict',
    comment: 'vmap to drop or reject packets to service nodeports with no endpoints',
  });
  w.chain(rejectChain, { comment: 'helper for @no-endpoint-services / @no-endpoint-nodeports' });
  w.rule(rejectChain, 'reject');
  w.rule(
    serviceEndpointsCheckChain,
    `ip daddr . meta l4proto . th dport vmap @${noEndpointServicesMap}`,
  );
  w.rule(
    nodePortEndpointsCheckChain,
    `ip daddr @${nodePortIPsSet} meta l4proto . th dport vmap @${noEndpointNodePortsMap}`,
  );
  w.set({
    kind: 'map',
    name: firewallIPsMap,
    type: 'ipv4_addr . inet_proto . inet_service : verdict',
    comment: 'destinations that are subject to LoadBalancerSourceRanges',
  });
  w.chain(firewallCheckChain);
  w.rule(firewallCheckChain, `ip daddr . meta l4proto . th dport vmap @${firewallIPsMap}`);
  w.set({
    kind: 'map',
    name: serviceIPsMap,
    type: 'ipv4_addr . inet_proto . inet_service : verdict',
    comment: 'ClusterIP, ExternalIP and LoadBalancer IP traffic',
  });
  w.set({
    kind: 'map',
    name: serviceNodePortsMap,
    type: 'inet_proto . inet_service : verdict',
    comment: 'NodePort traffic',
  });
  w.rule(servicesChain, `ip daddr . meta l4proto . th dport vmap @${serviceIPsMap}`);
  w.rule(
    servicesChain,
    `ip daddr @${nodePortIPsSet} meta l4proto . th dport vmap @${serviceNodePortsMap}`,
  );
}

/**
 * syncNFTablesRules computes the whole kube-proxy table for the service ports (in name order)
 * and their endpoints, in the order syncProxyRules creates its objects.
 */
export function syncNFTablesRules(
  ports: { svc: ServicePortInfo; endpoints: EndpointInfo[] }[],
  cfg: NFTablesConfig,
): NftSyncResult {
  const w = new TableWriter();
  setupNFTables(w, cfg);
  const routes = new Map<string, NftRoute>();
  for (const { svc, endpoints } of ports) {
    const proto = svc.proto;
    const base = servicePortChainNameBase(svc);
    const clusterPolicyChain = `service-${base}`;
    const localPolicyChain = `local-${base}`;
    const externalTrafficChain = `external-${base}`;
    const epChain = (ep: EndpointInfo): string =>
      `endpoint-${servicePortEndpointChainNameBase(svc, ep)}`;
    const affinitySet = (ep: EndpointInfo): string =>
      `affinity-${servicePortEndpointChainNameBase(svc, ep)}`;
    const { clusterEndpoints, localEndpoints, allLocallyReachableEndpoints, hasEndpoints } =
      categorizeEndpoints(endpoints, svc, cfg.nodeName);

    for (const ep of allLocallyReachableEndpoints) w.chain(epChain(ep));
    const usesClusterPolicyChain = clusterEndpoints.length > 0 && usesClusterEndpoints(svc);
    if (usesClusterPolicyChain) w.chain(clusterPolicyChain);
    const usesLocalPolicyChain = localEndpoints.length > 0 && usesLocalEndpoints(svc);
    if (usesLocalPolicyChain) w.chain(localPolicyChain);

    let internalTrafficChain = clusterPolicyChain;
    let hasInternalEndpoints = hasEndpoints;
    if (svc.internalPolicyLocal) {
      internalTrafficChain = localPolicyChain;
      if (localEndpoints.length === 0) hasInternalEndpoints = false;
    }
    let externalPolicyChain = clusterPolicyChain;
    let hasExternalEndpoints = hasEndpoints;
    if (svc.externalPolicyLocal) {
      externalPolicyChain = localPolicyChain;
      if (localEndpoints.length === 0) hasExternalEndpoints = false;
    }
    const usesExternalTrafficChain = hasEndpoints && externallyAccessible(svc);
    if (usesExternalTrafficChain) w.chain(externalTrafficChain);

    let internalVerdict = '';
    let externalVerdict = '';
    if (!hasEndpoints) {
      internalVerdict = `goto ${rejectChain}`;
      externalVerdict = `goto ${rejectChain}`;
    } else {
      if (!hasInternalEndpoints) internalVerdict = 'drop';
      if (!hasExternalEndpoints) externalVerdict = 'drop';
    }
    const comment = svc.nameString;
    const ipKey = (ip: string, port: number): string => `${ip} . ${proto} . ${port}`;

    // Capture the clusterIP.
    w.element(clusterIPsSet, { key: svc.clusterIP });
    if (hasInternalEndpoints)
      w.element(serviceIPsMap, {
        key: ipKey(svc.clusterIP, svc.port),
        value: `goto ${internalTrafficChain}`,
      });
    else
      w.element(noEndpointServicesMap, {
        key: ipKey(svc.clusterIP, svc.port),
        comment,
        value: internalVerdict,
      });
    // Capture externalIPs.
    for (const ip of svc.externalIPs) {
      if (hasEndpoints)
        w.element(serviceIPsMap, {
          key: ipKey(ip, svc.port),
          value: `goto ${externalTrafficChain}`,
        });
      if (!hasExternalEndpoints)
        w.element(noEndpointServicesMap, {
          key: ipKey(ip, svc.port),
          comment,
          value: externalVerdict,
        });
    }
    // Capture load-balancer ingress.
    for (const ip of svc.loadBalancerVIPs)
      if (hasEndpoints)
        w.element(serviceIPsMap, {
          key: ipKey(ip, svc.port),
          value: `goto ${externalTrafficChain}`,
        });
    if (!hasExternalEndpoints)
      for (const ip of svc.loadBalancerVIPs)
        w.element(noEndpointServicesMap, {
          key: ipKey(ip, svc.port),
          comment,
          value: externalVerdict,
        });
    // Capture nodeports.
    if (svc.nodePort !== 0) {
      if (hasEndpoints)
        w.element(serviceNodePortsMap, {
          key: `${proto} . ${svc.nodePort}`,
          value: `goto ${externalTrafficChain}`,
        });
      if (!hasExternalEndpoints)
        w.element(noEndpointNodePortsMap, {
          key: `${proto} . ${svc.nodePort}`,
          comment,
          value: externalVerdict,
        });
    }

    // Set up internal traffic handling (--detect-local-mode=ClusterCIDR).
    if (hasInternalEndpoints)
      w.rule(
        internalTrafficChain,
        cfg.masqueradeAll
          ? `ip daddr ${svc.clusterIP} ${proto} dport ${svc.port} jump ${markMasqChain}`
          : `ip daddr ${svc.clusterIP} ${proto} dport ${svc.port} ip saddr != ${cfg.clusterCIDR} jump ${markMasqChain}`,
      );
    // Set up external traffic handling.
    if (usesExternalTrafficChain) {
      if (!svc.externalPolicyLocal) w.rule(externalTrafficChain, `jump ${markMasqChain}`);
      else {
        w.rule(
          externalTrafficChain,
          `ip saddr ${cfg.clusterCIDR} goto ${clusterPolicyChain} comment "short-circuit pod traffic"`,
        );
        w.rule(
          externalTrafficChain,
          `fib saddr type local jump ${markMasqChain} comment "masquerade local traffic"`,
        );
        w.rule(
          externalTrafficChain,
          `fib saddr type local goto ${clusterPolicyChain} comment "short-circuit local traffic"`,
        );
      }
      if (hasExternalEndpoints) w.rule(externalTrafficChain, `goto ${externalPolicyChain}`);
    }
    if (svc.sessionAffinityClientIP)
      for (const ep of allLocallyReachableEndpoints)
        w.set({
          kind: 'set',
          name: affinitySet(ep),
          type: 'ipv4_addr',
          flags: 'dynamic,timeout',
          timeout: svc.stickyMaxAgeSeconds,
        });

    const writeServiceToEndpointRules = (chain: string, eps: EndpointInfo[]): void => {
      if (svc.sessionAffinityClientIP)
        for (const ep of eps) w.rule(chain, `ip saddr @${affinitySet(ep)} goto ${epChain(ep)}`);
      // One numgen draw picks among the endpoints: each gets an equal share.
      const vmap = eps.map((ep, i) => `${i} : goto ${epChain(ep)}`).join(', ');
      w.rule(chain, `numgen random mod ${eps.length} vmap { ${vmap} }`);
    };
    if (usesClusterPolicyChain) writeServiceToEndpointRules(clusterPolicyChain, clusterEndpoints);
    if (usesLocalPolicyChain) writeServiceToEndpointRules(localPolicyChain, localEndpoints);

    // Generate the per-endpoint chains.
    for (const ep of allLocallyReachableEndpoints) {
      const chain = epChain(ep);
      w.rule(chain, `ip saddr ${ep.ip} jump ${markMasqChain}`);
      if (svc.sessionAffinityClientIP) w.rule(chain, `update @${affinitySet(ep)} { ip saddr }`);
      w.rule(chain, `meta l4proto ${proto} dnat to ${ep.endpoint}`);
    }

    if (hasInternalEndpoints) {
      const eps = internalTrafficChain === clusterPolicyChain ? clusterEndpoints : localEndpoints;
      routes.set(`${svc.clusterIP}:${svc.port}/${svc.protocol}`, {
        serviceChain: internalTrafficChain,
        endpoints: eps.map((ep) => ({
          endpoint: ep.endpoint,
          chain: epChain(ep),
          nodeName: ep.nodeName,
        })),
      });
    }
  }
  return { table: w.t, routes };
}

/**
 * applyTable writes want into the node's state as one transaction: objects that exist keep their
 * place (and so their place in listings), new ones are added at the end, and service chains and
 * affinity sets no longer wanted are deleted. Map and set elements keep the order they were
 * first added in.
 */
export function applyTable(nft: NodeNFTables, want: NftTable): void {
  const key = `${want.family} ${want.name}`;
  const old = nft.tables.get(key);
  if (!old) {
    nft.tables.set(key, want);
    return;
  }
  const chains = new Map<string, NftChain>();
  for (const name of old.chains.keys()) {
    const c = want.chains.get(name);
    if (c) chains.set(name, c);
  }
  for (const [name, c] of want.chains) if (!chains.has(name)) chains.set(name, c);
  const sets = new Map<string, NftSet>();
  const keepOrder = (o: NftSet | undefined, n: NftSet): NftSet => {
    if (!o) return n;
    const byKey = new Map(n.elements.map((e) => [e.key, e]));
    const elements = o.elements.flatMap((e) => (byKey.has(e.key) ? [byKey.get(e.key)!] : []));
    const have = new Set(elements.map((e) => e.key));
    for (const e of n.elements) if (!have.has(e.key)) elements.push(e);
    return { ...n, elements };
  };
  for (const name of old.sets.keys()) {
    const s = want.sets.get(name);
    if (s) sets.set(name, keepOrder(old.sets.get(name), s));
  }
  for (const [name, s] of want.sets) if (!sets.has(name)) sets.set(name, s);
  nft.tables.set(key, { ...want, chains, sets });
}

// ---- nft list ----

// Standard priority names nft prints (with an offset up to 10), and the hooks they apply to.
const stdPriorities: { name: string; value: number; hooks?: string[] }[] = [
  { name: 'raw', value: -300 },
  { name: 'mangle', value: -150 },
  { name: 'dstnat', value: -100, hooks: ['prerouting'] },
  { name: 'filter', value: 0 },
  { name: 'security', value: 50 },
  { name: 'srcnat', value: 100, hooks: ['postrouting'] },
];

function priorityString(hook: string, prio: number): string {
  for (const p of stdPriorities) {
    if (p.hooks && !p.hooks.includes(hook)) continue;
    const off = prio - p.value;
    if (off === 0) return p.name;
    if (Math.abs(off) <= 10) return `${p.name} ${off < 0 ? '-' : '+'} ${Math.abs(off)}`;
  }
  return String(prio);
}

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}

// timeString is nft's time format: 3h, 1d2h, 90s as 1m30s.
function timeString(seconds: number): string {
  const parts: [number, string][] = [
    [86400, 'd'],
    [3600, 'h'],
    [60, 'm'],
    [1, 's'],
  ];
  let s = seconds;
  let out = '';
  for (const [n, u] of parts) {
    if (s >= n) {
      out += `${Math.floor(s / n)}${u}`;
      s %= n;
    }
  }
  return out || '0s';
}

const ELEMENT_NEWLINE = ',\n\t\t\t     ';

function elementText(e: NftElement): string {
  let s = e.key;
  if (e.comment !== undefined) s += ` comment "${e.comment}"`;
  if (e.value !== undefined) s += ` : ${e.value}`;
  return s;
}

function printSet(s: NftSet): string {
  let out = `\t${s.kind} ${s.name} {\n\t\ttype ${s.type}\n`;
  if (s.flags) out += `\t\tflags ${s.flags}\n`;
  if (s.timeout !== undefined) out += `\t\ttimeout ${timeString(s.timeout)}\n`;
  if (s.comment !== undefined) out += `\t\tcomment "${s.comment}"\n`;
  if (s.elements.length > 0 && !s.flags?.includes('dynamic')) {
    let els = s.elements;
    let text: string;
    if (s.kind === 'map') text = els.map(elementText).join(ELEMENT_NEWLINE);
    else {
      // nft sorts a plain set's elements and prints two IPv4 addresses a line.
      els = [...els].sort((a, b) => ipv4Number(a.key) - ipv4Number(b.key));
      text = '';
      els.forEach((e, i) => {
        if (i > 0) text += i % 2 === 0 ? ELEMENT_NEWLINE : ', ';
        text += elementText(e);
      });
    }
    out += `\t\telements = { ${text} }\n`;
  }
  return `${out}\t}\n`;
}

function printChain(c: NftChain): string {
  let out = `\tchain ${c.name} {\n`;
  if (c.comment !== undefined) out += `\t\tcomment "${c.comment}"\n`;
  if (c.base)
    out += `\t\ttype ${c.base.type} hook ${c.base.hook} priority ${priorityString(c.base.hook, c.base.priority)}; policy accept;\n`;
  for (const r of c.rules) out += `\t\t${r}\n`;
  return `${out}\t}\n`;
}

/** nftListTable prints one table as `nft list table` does: sets and maps, then chains. */
export function nftListTable(t: NftTable): string {
  let out = `table ${t.family} ${t.name} {\n`;
  if (t.comment !== undefined) out += `\tcomment "${t.comment}"\n`;
  const blocks = [...[...t.sets.values()].map(printSet), ...[...t.chains.values()].map(printChain)];
  if (t.comment !== undefined && blocks.length > 0) out += '\n';
  out += blocks.join('\n');
  return `${out}}\n`;
}

/** nftListRuleset prints every table, as `nft list ruleset` does. */
export function nftListRuleset(nft: NodeNFTables): string {
  return [...nft.tables.values()].map(nftListTable).join('');
}

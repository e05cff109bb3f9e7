// Mirrors what kube-proxy reads from the API: pkg/proxy/serviceport.go and servicechangetracker.go
// (one ServicePortInfo per Service port, skipping headless and ExternalName Services),
// pkg/proxy/endpointslicecache.go (EndpointSlices to sorted endpoints per service port) and
// pkg/proxy/topology.go (CategorizeEndpoints). Cached objects are immutable and shared by every
// informer that received them, so what is derived from one object version is computed once for
// all nodes.

import type { EndpointSlice, Service } from '../api/types.ts';
import {
  serviceExternalChainName,
  serviceFirewallChainName,
  servicePortEndpointChainName,
  servicePortPolicyClusterChain,
  servicePortPolicyLocalChainName,
} from './chains.ts';
import type { Protocol } from './iptables.ts';

/** ServicePortInfo mirrors servicePortInfo/BaseServicePortInfo: one port of one Service. */
export interface ServicePortInfo {
  /** nameString is ServicePortName.String(): "default/web:http" ("default/web" if unnamed). */
  nameString: string;
  /** service is "namespace/name". */
  service: string;
  portName: string;
  /** protocol as in the API ("TCP"); proto is the lower-case form rules use. */
  protocol: 'TCP' | 'UDP' | 'SCTP';
  proto: Protocol;
  clusterIP: string;
  port: number;
  nodePort: number;
  healthCheckNodePort: number;
  externalIPs: string[];
  loadBalancerVIPs: string[];
  sessionAffinityClientIP: boolean;
  stickyMaxAgeSeconds: number;
  internalPolicyLocal: boolean;
  externalPolicyLocal: boolean;
  clusterPolicyChainName: string;
  localPolicyChainName: string;
  firewallChainName: string;
  externalChainName: string;
}

/** externallyAccessible: the port takes NodePort, external-IP or load-balancer traffic. */
export function externallyAccessible(s: ServicePortInfo): boolean {
  return s.nodePort !== 0 || s.loadBalancerVIPs.length > 0 || s.externalIPs.length > 0;
}

/**
 * usesClusterEndpoints: internal policy Cluster, or any external traffic (even with external
 * policy Local, the short-circuit rules for pod traffic need the Cluster endpoints).
 */
export function usesClusterEndpoints(s: ServicePortInfo): boolean {
  return !s.internalPolicyLocal || externallyAccessible(s);
}

/** usesLocalEndpoints: internal policy Local, or external policy Local on an exposed port. */
export function usesLocalEndpoints(s: ServicePortInfo): boolean {
  return s.internalPolicyLocal || (s.externalPolicyLocal && externallyAccessible(s));
}

/** Derived is what kube-proxy reads from one object version. */
export interface Derived<T> {
  value: T;
  /** sig compares two versions: equal sigs mean the change does not matter to kube-proxy. */
  sig: string;
  /**
   * serial names this object version in cache keys. It is unique within the process, so two
   * simulations (same resourceVersions, different objects) never share an entry.
   */
  serial: number;
}

let nextSerial = 1;

const serviceCache = new WeakMap<Service, Derived<ServicePortInfo[]>>();

/** isIPv4 accepts dotted-quad addresses (kube-proxy's IPv4 proxier ignores other families). */
function isIPv4(ip: string): boolean {
  return /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}

/**
 * servicePorts mirrors ServiceChangeTracker.serviceToServiceMap: nothing for a Service
 * kube-proxy skips (no cluster IP, headless, ExternalName), else one entry per port.
 */
export function servicePorts(svc: Service): ServicePortInfo[] {
  return deriveService(svc).value;
}

/** deriveService returns servicePorts(svc) with its sig and serial, computed once per version. */
export function deriveService(svc: Service): Derived<ServicePortInfo[]> {
  let d = serviceCache.get(svc);
  if (d) return d;
  const out: ServicePortInfo[] = [];
  const spec = svc.spec ?? {};
  const clusterIP = spec.clusterIP ?? '';
  if (
    clusterIP !== '' &&
    clusterIP !== 'None' &&
    spec.type !== 'ExternalName' &&
    isIPv4(clusterIP)
  ) {
    const extra = spec as {
      healthCheckNodePort?: number;
      sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
    };
    const service = `${svc.metadata.namespace}/${svc.metadata.name}`;
    const lbIngress = spec.type === 'LoadBalancer' ? (svc.status?.loadBalancer?.ingress ?? []) : [];
    const loadBalancerVIPs = lbIngress
      .map((i) => i.ip ?? '')
      .filter((ip) => ip !== '' && isIPv4(ip));
    const externalIPs = (spec.externalIPs ?? []).filter(isIPv4);
    const externalPolicyLocal =
      (spec.type === 'NodePort' || spec.type === 'LoadBalancer') &&
      spec.externalTrafficPolicy === 'Local';
    for (const p of spec.ports ?? []) {
      const portName = p.name ?? '';
      const nameString = portName ? `${service}:${portName}` : service;
      const protocol = p.protocol ?? 'TCP';
      const proto = protocol.toLowerCase() as Protocol;
      const info: ServicePortInfo = {
        nameString,
        service,
        portName,
        protocol,
        proto,
        clusterIP,
        port: p.port,
        nodePort: p.nodePort ?? 0,
        // NeedsHealthCheck: only LoadBalancer Services with externalTrafficPolicy Local.
        healthCheckNodePort:
          externalPolicyLocal && spec.type === 'LoadBalancer'
            ? (extra.healthCheckNodePort ?? 0)
            : 0,
        externalIPs,
        loadBalancerVIPs,
        sessionAffinityClientIP: spec.sessionAffinity === 'ClientIP',
        stickyMaxAgeSeconds: extra.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? 10800,
        internalPolicyLocal: spec.internalTrafficPolicy === 'Local',
        externalPolicyLocal: false,
        clusterPolicyChainName: servicePortPolicyClusterChain(nameString, proto),
        localPolicyChainName: servicePortPolicyLocalChainName(nameString, proto),
        firewallChainName: serviceFirewallChainName(nameString, proto),
        externalChainName: serviceExternalChainName(nameString, proto),
      };
      info.externalPolicyLocal = externalPolicyLocal && externallyAccessible(info);
      out.push(info);
    }
  }
  d = { value: out, sig: JSON.stringify(out), serial: nextSerial++ };
  serviceCache.set(svc, d);
  return d;
}

interface SliceEndpoint {
  ip: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  nodeName: string;
}

interface SliceInfo {
  /** service is "namespace/name" from the kubernetes.io/service-name label, or "" to ignore. */
  service: string;
  ports: { name: string; protocol: 'TCP' | 'UDP' | 'SCTP'; port: number }[];
  endpoints: SliceEndpoint[];
}

const sliceCache = new WeakMap<EndpointSlice, Derived<SliceInfo>>();

/** labelServiceName is discovery.LabelServiceName: the Service a slice belongs to. */
export const labelServiceName = 'kubernetes.io/service-name';

/** deriveSlice reads what kube-proxy uses from one EndpointSlice version, once per version. */
export function deriveSlice(s: EndpointSlice): Derived<SliceInfo> {
  let d = sliceCache.get(s);
  if (d) return d;
  const name = s.metadata.labels?.[labelServiceName] ?? '';
  const info: SliceInfo = { service: '', ports: [], endpoints: [] };
  // The IPv4 proxier only reads IPv4 slices (EndpointsChangeTracker.EndpointSliceUpdate).
  if (name !== '' && s.addressType === 'IPv4') {
    info.service = `${s.metadata.namespace}/${name}`;
    for (const p of s.ports ?? []) {
      // Simplification: a port without a name is taken as "" (upstream ignores a nil name; the
      // EndpointSlice controller always sets one).
      if (!p.port) continue;
      info.ports.push({ name: p.name ?? '', protocol: p.protocol ?? 'TCP', port: p.port });
    }
    for (const e of s.endpoints ?? []) {
      if (!e.addresses?.length) continue;
      info.endpoints.push({
        ip: e.addresses[0],
        ready: e.conditions?.ready ?? true,
        serving: e.conditions?.serving ?? true,
        terminating: e.conditions?.terminating ?? false,
        nodeName: e.nodeName ?? '',
      });
    }
  }
  d = { value: info, sig: JSON.stringify(info), serial: nextSerial++ };
  sliceCache.set(s, d);
  return d;
}

/** EndpointInfo mirrors endpointInfo/BaseEndpointInfo for one service port (any node's view). */
export interface EndpointInfo {
  ip: string;
  port: number;
  /** endpoint is "ip:port", the string chains and comments use. */
  endpoint: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  /** nodeName is the endpoint's node; the endpoint is local to the kube-proxy of that node. */
  nodeName: string;
  chainName: string;
}

// ---- endpoints per service port (pkg/proxy/endpointslicecache.go) ----

export interface ServiceEndpoints {
  /** key names the slice versions the endpoints were computed from. */
  key: string;
  /** byPort maps "portName/PROTOCOL" to endpoints sorted by "ip:port". */
  byPort: Map<string, EndpointInfo[]>;
}

const endpointsCache = new Map<string, ServiceEndpoints>();
const noSlices = new Map<string, EndpointInfo[]>();

/**
 * serviceEndpoints mirrors EndpointSliceCache.getEndpointsMap for one Service: the endpoints of
 * every port, deduplicated by "ip:port" (a non-terminating copy wins) and sorted by it. The
 * result depends only on the slice versions, so it is shared by every node.
 */
export function serviceEndpoints(service: string, slices: EndpointSlice[]): ServiceEndpoints {
  if (!slices.length) return { key: `${service}|`, byPort: noSlices };
  slices.sort((a, b) => cmpKey(a, b));
  let key = `${service}|`;
  for (const s of slices) key += `${deriveSlice(s).serial},`;
  const hit = endpointsCache.get(key);
  if (hit) return hit;
  const sets = new Map<string, Map<string, EndpointInfo>>();
  for (const s of slices) {
    const info = deriveSlice(s).value;
    for (const p of info.ports) {
      const portKey = `${p.name}/${p.protocol}`;
      let set = sets.get(portKey);
      if (!set) sets.set(portKey, (set = new Map()));
      const nameString = p.name ? `${service}:${p.name}` : service;
      const proto = p.protocol.toLowerCase();
      for (const e of info.endpoints) {
        const endpoint = `${e.ip}:${p.port}`;
        if (set.has(endpoint) && e.terminating) continue;
        set.set(endpoint, {
          ip: e.ip,
          port: p.port,
          endpoint,
          ready: e.ready,
          serving: e.serving,
          terminating: e.terminating,
          nodeName: e.nodeName,
          chainName: servicePortEndpointChainName(nameString, proto, endpoint),
        });
      }
    }
  }
  const byPort = new Map<string, EndpointInfo[]>();
  for (const [portKey, set] of sets)
    byPort.set(
      portKey,
      [...set.values()].sort((a, b) =>
        a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0,
      ),
    );
  const out = { key, byPort };
  if (endpointsCache.size > 20_000) endpointsCache.clear();
  endpointsCache.set(key, out);
  return out;
}

/**
 * categorizeEndpoints mirrors pkg/proxy/topology.go#CategorizeEndpoints without topology hints:
 * Cluster policy uses ready endpoints, falling back to serving-and-terminating ones when none is
 * ready; Local policy uses this node's, with the same fallback.
 */
export function categorizeEndpoints(
  endpoints: EndpointInfo[],
  svc: ServicePortInfo,
  nodeName: string,
): {
  clusterEndpoints: EndpointInfo[];
  localEndpoints: EndpointInfo[];
  allLocallyReachableEndpoints: EndpointInfo[];
  hasEndpoints: boolean;
} {
  let clusterEndpoints: EndpointInfo[] = [];
  let localEndpoints: EndpointInfo[] = [];
  let hasEndpoints = false;
  const isLocal = (e: EndpointInfo): boolean => nodeName !== '' && e.nodeName === nodeName;
  if (usesClusterEndpoints(svc)) {
    clusterEndpoints = endpoints.filter((e) => e.ready);
    if (clusterEndpoints.length === 0)
      clusterEndpoints = endpoints.filter((e) => e.serving && e.terminating);
    if (clusterEndpoints.length > 0) hasEndpoints = true;
  }
  if (!usesLocalEndpoints(svc))
    return {
      clusterEndpoints,
      localEndpoints,
      allLocallyReachableEndpoints: clusterEndpoints,
      hasEndpoints,
    };

  let hasLocalReady = false;
  let hasLocalServingTerminating = false;
  for (const e of endpoints) {
    if (e.ready) {
      hasEndpoints = true;
      if (isLocal(e)) hasLocalReady = true;
    } else if (e.serving && e.terminating) {
      hasEndpoints = true;
      if (isLocal(e)) hasLocalServingTerminating = true;
    }
  }
  if (hasLocalReady) localEndpoints = endpoints.filter((e) => isLocal(e) && e.ready);
  else if (hasLocalServingTerminating)
    localEndpoints = endpoints.filter((e) => isLocal(e) && e.serving && e.terminating);

  if (!usesClusterEndpoints(svc))
    return {
      clusterEndpoints,
      localEndpoints,
      allLocallyReachableEndpoints: localEndpoints,
      hasEndpoints,
    };
  const seen = new Set<string>();
  const all: EndpointInfo[] = [];
  for (const e of [...clusterEndpoints, ...localEndpoints]) {
    if (seen.has(e.endpoint)) continue;
    seen.add(e.endpoint);
    all.push(e);
  }
  return { clusterEndpoints, localEndpoints, allLocallyReachableEndpoints: all, hasEndpoints };
}

/** cmpKey orders objects by namespace, then name (byte order), as etcd lists them. */
export function cmpKey(
  a: { metadata: { namespace?: string; name: string } },
  b: { metadata: { namespace?: string; name: string } },
): number {
  const na = a.metadata.namespace ?? '';
  const nb = b.metadata.namespace ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

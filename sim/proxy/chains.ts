// Mirrors the naming parts of pkg/proxy/iptables/proxier.go: the fixed chain names,
// portProtoHash and the per-service chain names built from it, and computeProbability.

import { formatFixed } from './iptables.ts';
import { base32Encode, sha256 } from './sha256.ts';

export const kubeServicesChain = 'KUBE-SERVICES';
export const kubeExternalServicesChain = 'KUBE-EXTERNAL-SERVICES';
export const kubeNodePortsChain = 'KUBE-NODEPORTS';
export const kubePostroutingChain = 'KUBE-POSTROUTING';
export const kubeMarkMasqChain = 'KUBE-MARK-MASQ';
export const kubeForwardChain = 'KUBE-FORWARD';
export const kubeProxyFirewallChain = 'KUBE-PROXY-FIREWALL';
export const kubeProxyCanaryChain = 'KUBE-PROXY-CANARY';
export const kubeletFirewallChain = 'KUBE-FIREWALL';

/** largeClusterEndpointsThreshold: above this many endpoints, per-endpoint comments are dropped. */
export const largeClusterEndpointsThreshold = 1000;

const hashCache = new Map<string, string>();

function hash16(s: string): string {
  let h = hashCache.get(s);
  if (h === undefined) {
    h = base32Encode(sha256(s)).slice(0, 16);
    // The names are pure functions of their input, so one cache serves every node's kube-proxy.
    if (hashCache.size > 200_000) hashCache.clear();
    hashCache.set(s, h);
  }
  return h;
}

/**
 * portProtoHash is base32(sha256(servicePortName + protocol))[:16], where servicePortName is
 * "namespace/name:port" (":port" only for a named port) and protocol is lower case ("tcp").
 */
export function portProtoHash(servicePortName: string, protocol: string): string {
  return hash16(servicePortName + protocol);
}

/** servicePortPolicyClusterChain is KUBE-SVC-<hash>: the endpoints for Cluster traffic policy. */
export function servicePortPolicyClusterChain(servicePortName: string, protocol: string): string {
  return `KUBE-SVC-${portProtoHash(servicePortName, protocol)}`;
}

/** servicePortPolicyLocalChainName is KUBE-SVL-<hash>: the endpoints for Local traffic policy. */
export function servicePortPolicyLocalChainName(servicePortName: string, protocol: string): string {
  return `KUBE-SVL-${portProtoHash(servicePortName, protocol)}`;
}

/** serviceFirewallChainName is KUBE-FW-<hash> (loadBalancerSourceRanges). */
export function serviceFirewallChainName(servicePortName: string, protocol: string): string {
  return `KUBE-FW-${portProtoHash(servicePortName, protocol)}`;
}

/** serviceExternalChainName is KUBE-EXT-<hash>: NodePort, external IP and load-balancer traffic. */
export function serviceExternalChainName(servicePortName: string, protocol: string): string {
  return `KUBE-EXT-${portProtoHash(servicePortName, protocol)}`;
}

/** servicePortEndpointChainName is KUBE-SEP-<hash of name + protocol + "ip:port">. */
export function servicePortEndpointChainName(
  servicePortName: string,
  protocol: string,
  endpoint: string,
): string {
  return `KUBE-SEP-${hash16(servicePortName + protocol + endpoint)}`;
}

const servicePrefixes = ['KUBE-SVC-', 'KUBE-SVL-', 'KUBE-SEP-', 'KUBE-FW-', 'KUBE-EXT-'];

/** isServiceChainName tells kube-proxy's per-service chains from everything else. */
export function isServiceChainName(chain: string): boolean {
  return servicePrefixes.some((p) => chain.startsWith(p));
}

const probabilities: string[] = ['<bad value>'];

/** computeProbability is fmt.Sprintf("%0.10f", 1.0/float64(n)), precomputed as upstream. */
export function computeProbability(n: number): string {
  for (let i = probabilities.length; i <= n; i++) probabilities.push(formatFixed(1 / i, 10));
  return probabilities[n];
}

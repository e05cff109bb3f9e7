// The files the kubelet writes for a Pod's containers: /etc/resolv.conf as
// pkg/kubelet/network/dns/dns.go (GetPodDNS) configures it and containerd writes it, and
// /etc/hosts as pkg/kubelet/kubelet_pods.go (managedHostsFileContent) writes it (see
// "Simplification:" notes).

import type { Pod } from '../api/types.ts';

/** CLUSTER_DNS is the kubelet's clusterDNS as kubeadm sets it: the kube-dns Service's address. */
export const CLUSTER_DNS = '10.96.0.10';

/** CLUSTER_DOMAIN is the kubelet's clusterDomain as kubeadm sets it. */
export const CLUSTER_DOMAIN = 'cluster.local';

/**
 * resolvConf is a container's /etc/resolv.conf for the Pod's dnsPolicy (default ClusterFirst):
 * the cluster's nameserver, the three search domains of the Pod's namespace and `ndots:5`;
 * a hostNetwork Pod with ClusterFirst, and dnsPolicy Default, get the node's own file.
 * containerd writes search, then nameserver, then options.
 * Simplification: the node's own resolv.conf is empty (no upstream resolver or search domains),
 * and dnsConfig (dnsPolicy None) is not modelled.
 */
export function resolvConf(pod: Pod): string {
  const policy = pod.spec.dnsPolicy ?? 'ClusterFirst';
  const cluster =
    policy === 'ClusterFirstWithHostNet' || (policy === 'ClusterFirst' && !pod.spec.hostNetwork);
  if (!cluster) return '';
  const ns = pod.metadata.namespace ?? 'default';
  return `search ${ns}.svc.${CLUSTER_DOMAIN} svc.${CLUSTER_DOMAIN} ${CLUSTER_DOMAIN}\nnameserver ${CLUSTER_DNS}\noptions ndots:5\n`;
}

/**
 * hostsFile is a container's /etc/hosts as the kubelet manages it: localhost and the IPv6
 * names, then the Pod's IP with its hostname (and its fully qualified name when the Pod has a
 * subdomain). A hostNetwork Pod sees the node's own file.
 * Simplification: hostAliases are not modelled; the node's own file is the managed header only.
 */
export function hostsFile(pod: Pod): string {
  let out =
    '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';
  const ip = pod.status?.podIP;
  if (pod.spec.hostNetwork || !ip) return out;
  const hostname = pod.spec.hostname ?? pod.metadata.name;
  const sub = pod.spec.subdomain;
  const ns = pod.metadata.namespace ?? 'default';
  out += sub
    ? `${ip}\t${hostname}.${sub}.${ns}.svc.${CLUSTER_DOMAIN}\t${hostname}\n`
    : `${ip}\t${hostname}\n`;
  return out;
}

// Mirrors CoreDNS's kubernetes plugin (plugin/kubernetes: parse.go, kubernetes.go Records,
// reverse.go) as kubeadm's Corefile configures it (cmd/kubeadm/app/phases/addons/dns/manifests.go:
// `kubernetes cluster.local in-addr.arpa ip6.arpa { pods insecure; fallthrough in-addr.arpa
// ip6.arpa; ttl 30 }`, then `forward . /etc/resolv.conf`), answering as the Kubernetes DNS
// specification (kubernetes/dns docs/specification.md) says (see "Simplification:" notes).
// Simplification: answers are computed from the objects as they are now: the plugin's informer
// lag is not modelled (the `cache 30` plugin's cached answers are: sim/cluster/dataplane.ts).
// Simplification: the cluster has no upstream resolver: a name outside cluster.local (and a
// reverse name the plugin does not know) gets NXDOMAIN, where a cluster on the Internet would
// forward it to the node's resolver.

import type { Service } from '../api/types.ts';
import type { Namespace } from '../registry/core/namespaces/types.ts';
import type { EndpointSlice } from '../registry/discovery/endpointslices/types.ts';

/** ZONE is the cluster domain kubeadm configures. */
export const ZONE = 'cluster.local';

/** TTL is the record TTL kubeadm's Corefile sets (`ttl 30`; the plugin's own default is 5). */
export const TTL = 30;

/**
 * QType is a question's type.
 * Simplification: the zone's SOA and NS records (and MX, ANY) are not modelled: such questions
 * get an empty answer for a name that exists.
 */
export type QType = 'A' | 'AAAA' | 'SRV' | 'PTR' | 'CNAME' | 'TXT' | 'SOA' | 'NS' | 'MX' | 'ANY';

/** ResourceRecord is one answer, named without the trailing dot. */
export type ResourceRecord =
  | { type: 'A'; name: string; ttl: number; address: string }
  | { type: 'CNAME'; name: string; ttl: number; target: string }
  | { type: 'PTR'; name: string; ttl: number; target: string }
  | {
      type: 'SRV';
      name: string;
      ttl: number;
      priority: number;
      weight: number;
      port: number;
      target: string;
    }
  | { type: 'TXT'; name: string; ttl: number; text: string };

export type Rcode = 'NOERROR' | 'NXDOMAIN';

/** DnsReply is what the server answers: rcode, authority (aa) and the answer section. */
export interface DnsReply {
  rcode: Rcode;
  authoritative: boolean;
  answers: ResourceRecord[];
}

/** ClusterDnsView is what the plugin's informers hold: Services, EndpointSlices, Namespaces. */
export interface ClusterDnsView {
  services: readonly Service[];
  endpointSlices: readonly EndpointSlice[];
  namespaces: readonly Namespace[];
}

const nxdomain = (authoritative: boolean): DnsReply => ({
  rcode: 'NXDOMAIN',
  authoritative,
  answers: [],
});
const nodata = (): DnsReply => ({ rcode: 'NOERROR', authoritative: true, answers: [] });

type ServiceSpecDns = { externalName?: string; publishNotReadyAddresses?: boolean };
type EndpointDns = { hostname?: string };

/** answer is the server's reply to one question (the name is matched case-insensitively). */
export function answer(view: ClusterDnsView, qname: string, qtype: QType): DnsReply {
  const name = qname.toLowerCase().replace(/\.$/, '');
  if (name.endsWith('.in-addr.arpa')) return reverse(view, name, qtype);
  if (name !== ZONE && !name.endsWith(`.${ZONE}`)) return nxdomain(false);
  const labels = name === ZONE ? [] : name.slice(0, -ZONE.length - 1).split('.');
  if (labels.length === 1 && labels[0] === 'dns-version')
    return qtype === 'TXT'
      ? {
          rcode: 'NOERROR',
          authoritative: true,
          answers: [{ type: 'TXT', name, ttl: TTL, text: '1.1.0' }],
        }
      : nodata();
  // parse.go parseRequest: [endpoint.]service.namespace.(svc|pod), with _port._proto. for SRV.
  const kind = labels[labels.length - 1];
  if (labels.length === 0 || (kind !== 'svc' && kind !== 'pod'))
    return labels.length === 0 ? nodata() : nxdomain(true);
  const rest = labels.slice(0, -1);
  const namespace = rest[rest.length - 1];
  if (namespace === undefined) return nodata(); // svc.cluster.local itself
  const nsExists = view.namespaces.some((n) => n.metadata.name === namespace);
  if (kind === 'pod') return podRecord(rest, nsExists, name, qtype);
  if (rest.length === 1) return nsExists ? nodata() : nxdomain(true);
  let port: string | undefined;
  let proto: string | undefined;
  let parts = rest.slice(0, -1);
  if (parts.length >= 3 && parts[0]!.startsWith('_') && parts[1]!.startsWith('_')) {
    port = parts[0]!.slice(1);
    proto = parts[1]!.slice(1);
    parts = parts.slice(2);
  }
  if (parts.length > 2) return nxdomain(true);
  const svcName = parts[parts.length - 1]!;
  const endpointName = parts.length === 2 ? parts[0] : undefined;
  const svc = view.services.find(
    (s) => s.metadata.namespace === namespace && s.metadata.name === svcName,
  );
  if (!svc) return nxdomain(true);
  const fqdn = `${svcName}.${namespace}.svc.${ZONE}`;
  const spec = svc.spec as Service['spec'] & ServiceSpecDns;
  if (spec.type === 'ExternalName') {
    if (endpointName !== undefined || port !== undefined) return nxdomain(true);
    if (qtype === 'A' || qtype === 'AAAA' || qtype === 'CNAME')
      return {
        rcode: 'NOERROR',
        authoritative: true,
        answers: [
          { type: 'CNAME', name, ttl: TTL, target: (spec.externalName ?? '').replace(/\.$/, '') },
        ],
      };
    return nodata();
  }
  const headless = spec.clusterIP === 'None';
  const endpoints =
    headless || endpointName !== undefined || qtype === 'SRV' ? readyEndpoints(view, svc) : [];
  if (endpointName !== undefined) {
    const eps = endpoints.filter((e) => e.label === endpointName);
    if (eps.length === 0) return nxdomain(true);
    if (qtype !== 'A') return nodata();
    return {
      rcode: 'NOERROR',
      authoritative: true,
      answers: eps.map((e) => ({ type: 'A', name, ttl: TTL, address: e.address })),
    };
  }
  if (qtype === 'SRV') {
    const ports = (spec.ports ?? []).filter(
      (p) =>
        p.name &&
        (port === undefined || p.name === port) &&
        (proto === undefined || (p.protocol ?? 'TCP').toLowerCase() === proto),
    );
    if (port !== undefined && ports.length === 0) return nxdomain(true);
    const answers: ResourceRecord[] = headless
      ? endpoints.flatMap((e) =>
          ports.map((p) =>
            srv(name, p.port, `${e.label}.${fqdn}`, endpoints.length * ports.length),
          ),
        )
      : ports.map((p) => srv(name, p.port, fqdn, ports.length));
    return { rcode: 'NOERROR', authoritative: true, answers };
  }
  // An address query under a port label (_http._tcp.web...) has no A record.
  if (port !== undefined) return nodata();
  if (headless) {
    // No ready endpoint: the name does not exist (the specification's NXDOMAIN).
    if (endpoints.length === 0) return nxdomain(true);
    if (qtype !== 'A') return nodata();
    return {
      rcode: 'NOERROR',
      authoritative: true,
      answers: endpoints.map((e) => ({ type: 'A', name, ttl: TTL, address: e.address })),
    };
  }
  if (qtype !== 'A' || !spec.clusterIP) return nodata();
  return {
    rcode: 'NOERROR',
    authoritative: true,
    answers: [{ type: 'A', name, ttl: TTL, address: spec.clusterIP }],
  };
}

/** srv is one SRV record with the weight the plugin gives (100 shared among the records). */
function srv(name: string, port: number, target: string, n: number): ResourceRecord {
  return { type: 'SRV', name, ttl: TTL, priority: 0, weight: Math.floor(100 / n), port, target };
}

/** readyEndpoints are a Service's ready endpoint addresses with their DNS labels. */
function readyEndpoints(view: ClusterDnsView, svc: Service): { address: string; label: string }[] {
  const out: { address: string; label: string }[] = [];
  const publishNotReady = (svc.spec as ServiceSpecDns).publishNotReadyAddresses === true;
  for (const slice of view.endpointSlices) {
    if (slice.metadata.namespace !== svc.metadata.namespace) continue;
    if (slice.metadata.labels?.['kubernetes.io/service-name'] !== svc.metadata.name) continue;
    if (slice.addressType !== 'IPv4') continue;
    for (const e of slice.endpoints ?? []) {
      if (!publishNotReady && e.conditions?.ready === false) continue;
      const hostname = (e as EndpointDns).hostname;
      for (const a of e.addresses) {
        // Without endpoint_pod_names, an endpoint with no hostname is named by its dashed IP.
        if (!out.some((o) => o.address === a))
          out.push({ address: a, label: hostname ?? a.replaceAll('.', '-') });
      }
    }
  }
  return out;
}

/** podRecord answers `a-b-c-d.<ns>.pod.<zone>` as `pods insecure` does: any dashed IPv4. */
function podRecord(rest: string[], nsExists: boolean, name: string, qtype: QType): DnsReply {
  if (rest.length !== 2) return rest.length === 1 && nsExists ? nodata() : nxdomain(true);
  const ip = rest[0]!.split('-');
  if (ip.length !== 4 || ip.some((o) => !/^\d{1,3}$/.test(o) || Number(o) > 255))
    return nxdomain(true);
  if (qtype !== 'A') return nodata();
  return {
    rcode: 'NOERROR',
    authoritative: true,
    answers: [{ type: 'A', name, ttl: TTL, address: ip.join('.') }],
  };
}

/** reverse answers PTR for a Service's cluster IP or a ready endpoint's address (reverse.go). */
function reverse(view: ClusterDnsView, name: string, qtype: QType): DnsReply {
  const octets = name.slice(0, -'.in-addr.arpa'.length).split('.');
  if (octets.length !== 4) return nxdomain(false);
  const ip = [...octets].reverse().join('.');
  for (const s of view.services) {
    if (s.spec.clusterIP === ip)
      return ptr(name, qtype, `${s.metadata.name}.${s.metadata.namespace}.svc.${ZONE}`);
  }
  for (const s of view.services) {
    if (s.spec.clusterIP !== 'None') continue;
    const e = readyEndpoints(view, s).find((x) => x.address === ip);
    if (e)
      return ptr(name, qtype, `${e.label}.${s.metadata.name}.${s.metadata.namespace}.svc.${ZONE}`);
  }
  // fallthrough in-addr.arpa: the next plugin (forward) answers; there is no upstream here.
  return nxdomain(false);
}

function ptr(name: string, qtype: QType, target: string): DnsReply {
  if (qtype !== 'PTR') return nodata();
  return {
    rcode: 'NOERROR',
    authoritative: true,
    answers: [{ type: 'PTR', name, ttl: TTL, target }],
  };
}

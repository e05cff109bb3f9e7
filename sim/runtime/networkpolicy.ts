// Mirrors the NetworkPolicy semantics of staging/src/k8s.io/api/networking/v1/types.go (its field
// comments), as a policy-enforcing CNI plugin (Calico's Felix) applies them to one new connection:
// a Pod no policy selects for a direction allows everything in that direction; a Pod that some
// policy with that direction in its policyTypes selects is isolated for it, and allows only what
// the union of those policies' rules allows (no order, no deny rules). A rule matches when the
// connection matches one of its ports (none: every port) and one of its peers (none: every
// peer). Egress is checked at the source Pod, ingress at the destination Pod; both must allow.
// Policies act on connections: the replies of an allowed connection are allowed.
// Traffic from the destination Pod's own node is always allowed in (the ingress field's comment).
// Simplification: ipBlock matches Pod addresses as well as outside ones (Calico does; the API
// leaves it to the plugin); a hostNetwork Pod is never isolated and is seen as its node's
// address; IPv4 only.

import { labelSelectorAsSelector } from '../api/labels.ts';
import type { NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort, Pod } from '../api/types.ts';
import type { Namespace } from '../registry/core/namespaces/types.ts';
import { parseCIDR, parseIP } from '../registry/networking/networkpolicies/cidr.ts';

/** PolicyEndpoint is one end of a connection: a Pod (on the Pod network), or an address. */
export type PolicyEndpoint = { pod: Pod } | { ip: string };

/** Protocol is a connection's transport protocol. */
export type Protocol = 'TCP' | 'UDP' | 'SCTP';

/** DirectionVerdict is what one direction's policies say about a connection. */
export interface DirectionVerdict {
  /** isolatedBy are the policies (namespace/name, sorted) isolating the Pod for the direction. */
  isolatedBy: string[];
  /**
   * firstIsolatedBy is the policy that isolated the Pod first: the oldest of them (by
   * creationTimestamp, then namespace/name).
   */
  firstIsolatedBy?: string;
  /** allowedBy is the first of them (in isolatedBy's order) with a rule allowing it. */
  allowedBy?: string;
  allowed: boolean;
}

/** PolicyVerdict is the outcome of evaluate. */
export interface PolicyVerdict {
  allowed: boolean;
  egress: DirectionVerdict;
  ingress: DirectionVerdict;
  /**
   * byPolicy names the policy that decided, when a policy did: for a dropped connection the
   * policy that first isolated the Pod for the direction that dropped it (egress first), for an
   * allowed one the policy that allowed it through an isolation (ingress's, else egress's).
   */
  byPolicy?: string;
  /** droppedBy is the direction that dropped the connection. */
  droppedBy?: 'Egress' | 'Ingress';
}

/** PolicyView is what evaluate reads: the policies in force and the namespaces' labels. */
export interface PolicyView {
  policies: readonly NetworkPolicy[];
  namespaces: readonly Namespace[];
}

const key = (np: NetworkPolicy): string => `${np.metadata.namespace ?? ''}/${np.metadata.name}`;

// podOf is the endpoint's Pod, if it is a Pod that policies can select (on the Pod network).
function podOf(e: PolicyEndpoint): Pod | undefined {
  return 'pod' in e && !e.pod.spec.hostNetwork ? e.pod : undefined;
}

// addressOf is the endpoint's IPv4 address as bytes (a hostNetwork Pod's is its node's).
function addressOf(e: PolicyEndpoint): number[] | undefined {
  const ip = 'ip' in e ? e.ip : e.pod.status?.podIP;
  return ip ? parseIP(ip) : undefined;
}

// types is a policy's policyTypes as defaulting leaves them (a stored policy always has them).
function types(np: NetworkPolicy): string[] {
  const t = np.spec?.policyTypes;
  if (t?.length) return t;
  return np.spec?.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
}

/** selects says whether a policy selects a Pod: same namespace, podSelector matching its labels. */
export function selects(np: NetworkPolicy, pod: Pod): boolean {
  return (
    pod.metadata.namespace === np.metadata.namespace &&
    labelSelectorAsSelector(np.spec?.podSelector ?? {}).matches(pod.metadata.labels)
  );
}

// peerMatches says whether a rule's peer item matches the other end of the connection.
function peerMatches(
  peer: NetworkPolicyPeer,
  policyNamespace: string,
  other: PolicyEndpoint,
  namespaces: readonly Namespace[],
): boolean {
  if (peer.ipBlock) {
    const cidr = parseCIDR(peer.ipBlock.cidr);
    const a = addressOf(other);
    if (!cidr || !a || !cidr.contains(a)) return false;
    return !(peer.ipBlock.except ?? []).some((e) => parseCIDR(e)?.contains(a));
  }
  const pod = podOf(other);
  if (!pod || (!peer.podSelector && !peer.namespaceSelector)) return false;
  const ns = pod.metadata.namespace ?? '';
  if (peer.namespaceSelector) {
    const labels = namespaces.find((n) => n.metadata.name === ns)?.metadata.labels;
    if (!labelSelectorAsSelector(peer.namespaceSelector).matches(labels)) return false;
  } else if (ns !== policyNamespace) return false;
  return (
    !peer.podSelector || labelSelectorAsSelector(peer.podSelector).matches(pod.metadata.labels)
  );
}

// portMatches says whether a rule's port item matches the destination port and protocol; a
// named port is the destination Pod's container port of that name and protocol.
function portMatches(
  p: NetworkPolicyPort,
  dst: PolicyEndpoint,
  port: number,
  protocol: Protocol,
): boolean {
  if ((p.protocol ?? 'TCP') !== protocol) return false;
  if (p.port === undefined) return true;
  if (typeof p.port === 'number')
    return p.endPort === undefined ? port === p.port : port >= p.port && port <= p.endPort;
  const pod = podOf(dst);
  // Simplification: only the app containers' ports are named ports (not restartable init containers').
  return !!pod?.spec.containers.some((c) =>
    (c.ports ?? []).some(
      (cp) =>
        cp.name === p.port && cp.containerPort === port && (cp.protocol ?? 'TCP') === protocol,
    ),
  );
}

// direction evaluates one direction at the Pod it applies to (the source for egress, the
// destination for ingress); other is the far end.
function direction(
  view: PolicyView,
  dir: 'Ingress' | 'Egress',
  at: Pod | undefined,
  other: PolicyEndpoint,
  dst: PolicyEndpoint,
  port: number,
  protocol: Protocol,
): DirectionVerdict {
  if (!at) return { isolatedBy: [], allowed: true };
  const isolating = view.policies
    .filter((np) => types(np).includes(dir) && selects(np, at))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (isolating.length === 0) return { isolatedBy: [], allowed: true };
  const isolatedBy = isolating.map(key);
  const oldest = isolating.reduce((a, b) =>
    (b.metadata.creationTimestamp ?? '') < (a.metadata.creationTimestamp ?? '') ? b : a,
  );
  const firstIsolatedBy = key(oldest);
  for (const np of isolating) {
    const rules =
      dir === 'Ingress'
        ? (np.spec.ingress ?? []).map((r) => ({ ports: r.ports, peers: r.from }))
        : (np.spec.egress ?? []).map((r) => ({ ports: r.ports, peers: r.to }));
    const ns = np.metadata.namespace ?? '';
    for (const r of rules) {
      const portOK = !r.ports?.length || r.ports.some((p) => portMatches(p, dst, port, protocol));
      const peerOK =
        !r.peers?.length || r.peers.some((p) => peerMatches(p, ns, other, view.namespaces));
      if (portOK && peerOK)
        return { isolatedBy, firstIsolatedBy, allowedBy: key(np), allowed: true };
    }
  }
  return { isolatedBy, firstIsolatedBy, allowed: false };
}

// fromOwnNode says whether the source is the destination Pod's node (its address, or a
// hostNetwork Pod there): ingress from there is always allowed.
function fromOwnNode(src: PolicyEndpoint, dst: PolicyEndpoint): boolean {
  const hostIP = 'pod' in dst ? dst.pod.status?.hostIP : undefined;
  if (!hostIP) return false;
  return 'ip' in src
    ? src.ip === hostIP
    : !!src.pod.spec.hostNetwork && src.pod.status?.podIP === hostIP;
}

/**
 * evaluate says whether the policies in force let a new connection from src to dst's port
 * (after any Service address translation: both ends are Pod or outside addresses) through:
 * egress at src, if src is a Pod, and ingress at dst, if dst is a Pod. Pure: the outcome is a
 * function of its arguments only.
 */
export function evaluate(
  view: PolicyView,
  src: PolicyEndpoint,
  dst: PolicyEndpoint,
  port: number,
  protocol: Protocol,
): PolicyVerdict {
  const egress = direction(view, 'Egress', podOf(src), dst, dst, port, protocol);
  const ingress = fromOwnNode(src, dst)
    ? { isolatedBy: [], allowed: true }
    : direction(view, 'Ingress', podOf(dst), src, dst, port, protocol);
  if (!egress.allowed)
    return {
      allowed: false,
      egress,
      ingress,
      byPolicy: egress.firstIsolatedBy,
      droppedBy: 'Egress',
    };
  if (!ingress.allowed)
    return {
      allowed: false,
      egress,
      ingress,
      byPolicy: ingress.firstIsolatedBy,
      droppedBy: 'Ingress',
    };
  const byPolicy = ingress.allowedBy ?? egress.allowedBy;
  return byPolicy
    ? { allowed: true, egress, ingress, byPolicy }
    : { allowed: true, egress, ingress };
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  LabelSelector,
  Namespace,
  NetworkPolicy,
  NetworkPolicySpec,
  Pod,
} from '../api/types.ts';
import { defaultNetworkPolicy } from '../registry/networking/networkpolicies/strategy.ts';
import { evaluate, type PolicyEndpoint, type PolicyView } from './networkpolicy.ts';

function ns(name: string, labels: Record<string, string> = {}): Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
  } as unknown as Namespace;
}

function pod(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  ip: string,
  ports: { name?: string; containerPort: number; protocol?: 'TCP' | 'UDP' }[] = [],
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'c', image: 'x', ports }] },
    status: { phase: 'Running', podIP: ip },
  } as Pod;
}

function policy(namespace: string, name: string, spec: Partial<NetworkPolicySpec>): NetworkPolicy {
  const np = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace },
    spec: { podSelector: {}, ...structuredClone(spec) },
  } as NetworkPolicy;
  defaultNetworkPolicy(np);
  return np;
}

const NAMESPACES = [ns('default'), ns('shop', { team: 'shop' }), ns('kube-system')];
const frontend = pod('frontend', 'shop', { app: 'frontend' }, '10.244.1.2');
const backend = pod('backend', 'shop', { app: 'backend' }, '10.244.1.3', [
  { name: 'http', containerPort: 8080 },
]);
const db = pod('db', 'shop', { app: 'db' }, '10.244.2.4', [{ name: 'pg', containerPort: 5432 }]);
const other = pod('other', 'default', { app: 'frontend' }, '10.244.3.5');
const dns = pod('coredns', 'kube-system', { 'k8s-app': 'kube-dns' }, '10.244.0.2');

const view = (...policies: NetworkPolicy[]): PolicyView => ({ policies, namespaces: NAMESPACES });
const p = (x: Pod): PolicyEndpoint => ({ pod: x });
const sel = (labels: Record<string, string>): LabelSelector => ({ matchLabels: labels });

describe('evaluate: NetworkPolicy semantics', () => {
  it('default allow: no policy selects either Pod', () => {
    expect(evaluate(view(), p(frontend), p(db), 5432, 'TCP')).toMatchObject({ allowed: true });
    expect(evaluate(view(), p(frontend), p(db), 5432, 'TCP').byPolicy).toBeUndefined();
  });

  it('a default-deny ingress policy isolates every Pod of its namespace, and only those', () => {
    const deny = policy('shop', 'default-deny', {});
    const v = evaluate(view(deny), p(frontend), p(db), 5432, 'TCP');
    expect(v).toMatchObject({
      allowed: false,
      byPolicy: 'shop/default-deny',
      droppedBy: 'Ingress',
    });
    expect(v.ingress.isolatedBy).toEqual(['shop/default-deny']);
    // Egress is not affected, and Pods elsewhere are not isolated.
    expect(evaluate(view(deny), p(frontend), p(other), 80, 'TCP').allowed).toBe(true);
  });

  it('rules add up: an allow beside a deny-all lets exactly what it names through', () => {
    const deny = policy('shop', 'default-deny', {});
    const allow = policy('shop', 'db-from-frontend', {
      podSelector: sel({ app: 'db' }),
      ingress: [{ from: [{ podSelector: sel({ app: 'frontend' }) }], ports: [{ port: 5432 }] }],
    });
    const v = view(deny, allow);
    expect(evaluate(v, p(frontend), p(db), 5432, 'TCP')).toMatchObject({
      allowed: true,
      byPolicy: 'shop/db-from-frontend',
    });
    expect(evaluate(v, p(frontend), p(db), 5432, 'TCP').ingress.isolatedBy).toEqual([
      'shop/db-from-frontend',
      'shop/default-deny',
    ]);
    expect(evaluate(v, p(backend), p(db), 5432, 'TCP').allowed).toBe(false);
    expect(evaluate(v, p(frontend), p(db), 5433, 'TCP').allowed).toBe(false);
    expect(evaluate(v, p(frontend), p(db), 5432, 'UDP').allowed).toBe(false);
    // podSelector alone is the policy's own namespace: a frontend elsewhere is not let in.
    expect(evaluate(v, p(other), p(db), 5432, 'TCP').allowed).toBe(false);
    // A drop names the policy that isolated the Pod first: the older one, whatever the names.
    const older = {
      ...deny,
      metadata: { ...deny.metadata, creationTimestamp: '2026-01-01T00:00:10Z' },
    };
    const newer = {
      ...allow,
      metadata: { ...allow.metadata, creationTimestamp: '2026-01-01T00:00:20Z' },
    };
    expect(evaluate(view(newer, older), p(backend), p(db), 5432, 'TCP').byPolicy).toBe(
      'shop/default-deny',
    );
    const renamed = { ...older, metadata: { ...older.metadata, name: 'zz-deny' } };
    expect(evaluate(view(newer, renamed), p(backend), p(db), 5432, 'TCP').byPolicy).toBe(
      'shop/zz-deny',
    );
    // The frontend itself is isolated by default-deny: nothing reaches it.
    expect(evaluate(v, p(db), p(frontend), 80, 'TCP').allowed).toBe(false);
  });

  it('namespaceSelector alone, both selectors in one peer (AND), and in two peers (OR)', () => {
    const nsOnly = policy('shop', 'a', {
      podSelector: sel({ app: 'db' }),
      ingress: [
        { from: [{ namespaceSelector: sel({ 'kubernetes.io/metadata.name': 'default' }) }] },
      ],
    });
    expect(evaluate(view(nsOnly), p(other), p(db), 5432, 'TCP').allowed).toBe(true);
    expect(evaluate(view(nsOnly), p(frontend), p(db), 5432, 'TCP').allowed).toBe(false);
    const and = policy('shop', 'b', {
      podSelector: sel({ app: 'db' }),
      ingress: [
        {
          from: [
            { namespaceSelector: sel({ team: 'shop' }), podSelector: sel({ app: 'backend' }) },
          ],
        },
      ],
    });
    expect(evaluate(view(and), p(backend), p(db), 5432, 'TCP').allowed).toBe(true);
    expect(evaluate(view(and), p(frontend), p(db), 5432, 'TCP').allowed).toBe(false);
    const or = policy('shop', 'c', {
      podSelector: sel({ app: 'db' }),
      ingress: [
        {
          from: [
            { namespaceSelector: sel({ team: 'shop' }) },
            { podSelector: sel({ app: 'backend' }) },
          ],
        },
      ],
    });
    expect(evaluate(view(or), p(frontend), p(db), 5432, 'TCP').allowed).toBe(true);
    expect(evaluate(view(or), p(other), p(db), 5432, 'TCP').allowed).toBe(false);
    // An empty namespaceSelector is every namespace.
    const any = policy('shop', 'd', {
      podSelector: sel({ app: 'db' }),
      ingress: [{ from: [{ namespaceSelector: {} }] }],
    });
    expect(evaluate(view(any), p(other), p(db), 5432, 'TCP').allowed).toBe(true);
    expect(evaluate(view(any), { ip: '192.0.2.1' }, p(db), 5432, 'TCP').allowed).toBe(false);
  });

  it('ipBlock with except, for outside addresses and Pod addresses', () => {
    const np = policy('shop', 'ext', {
      podSelector: sel({ app: 'db' }),
      ingress: [{ from: [{ ipBlock: { cidr: '192.0.2.0/24', except: ['192.0.2.128/25'] } }] }],
    });
    expect(evaluate(view(np), { ip: '192.0.2.7' }, p(db), 5432, 'TCP').allowed).toBe(true);
    expect(evaluate(view(np), { ip: '192.0.2.200' }, p(db), 5432, 'TCP').allowed).toBe(false);
    expect(evaluate(view(np), p(frontend), p(db), 5432, 'TCP').allowed).toBe(false);
    const pods = policy('shop', 'pods', {
      podSelector: sel({ app: 'db' }),
      ingress: [{ from: [{ ipBlock: { cidr: '10.244.1.0/24', except: ['10.244.1.3/32'] } }] }],
    });
    expect(evaluate(view(pods), p(frontend), p(db), 5432, 'TCP').allowed).toBe(true);
    expect(evaluate(view(pods), p(backend), p(db), 5432, 'TCP').allowed).toBe(false);
  });

  it('ports: a range with endPort, a named port on the destination, a port-less protocol', () => {
    const range = policy('shop', 'r', {
      podSelector: sel({ app: 'backend' }),
      ingress: [{ ports: [{ port: 8000, endPort: 8080 }] }],
    });
    expect(evaluate(view(range), p(frontend), p(backend), 8080, 'TCP').allowed).toBe(true);
    expect(evaluate(view(range), p(frontend), p(backend), 8081, 'TCP').allowed).toBe(false);
    const named = policy('shop', 'n', {
      podSelector: sel({ app: 'backend' }),
      ingress: [{ ports: [{ port: 'http' }] }],
    });
    expect(evaluate(view(named), p(frontend), p(backend), 8080, 'TCP').allowed).toBe(true);
    expect(evaluate(view(named), p(frontend), p(backend), 80, 'TCP').allowed).toBe(false);
    // A named port resolves on the destination: the db has no port named http.
    const namedEgress = policy('shop', 'ne', {
      podSelector: sel({ app: 'frontend' }),
      policyTypes: ['Egress'],
      egress: [{ ports: [{ port: 'http' }] }],
    });
    expect(evaluate(view(namedEgress), p(frontend), p(backend), 8080, 'TCP').allowed).toBe(true);
    expect(evaluate(view(namedEgress), p(frontend), p(db), 8080, 'TCP').allowed).toBe(false);
    const udp = policy('shop', 'u', {
      podSelector: sel({ app: 'backend' }),
      ingress: [{ ports: [{ protocol: 'UDP' }] }],
    });
    expect(evaluate(view(udp), p(frontend), p(backend), 9999, 'UDP').allowed).toBe(true);
    expect(evaluate(view(udp), p(frontend), p(backend), 9999, 'TCP').allowed).toBe(false);
  });

  it('egress isolation at the source breaks DNS until UDP and TCP 53 to kube-dns are allowed', () => {
    const denyEgress = policy('shop', 'deny-egress', { policyTypes: ['Egress'] });
    const v = evaluate(view(denyEgress), p(frontend), p(dns), 53, 'UDP');
    expect(v).toMatchObject({ allowed: false, byPolicy: 'shop/deny-egress', droppedBy: 'Egress' });
    // An egress-only policy does not isolate for ingress.
    expect(evaluate(view(denyEgress), p(other), p(frontend), 80, 'TCP').allowed).toBe(true);
    const allowDNS = policy('shop', 'allow-dns', {
      policyTypes: ['Egress'],
      egress: [
        {
          to: [
            {
              namespaceSelector: sel({ 'kubernetes.io/metadata.name': 'kube-system' }),
              podSelector: sel({ 'k8s-app': 'kube-dns' }),
            },
          ],
          ports: [
            { port: 53, protocol: 'UDP' },
            { port: 53, protocol: 'TCP' },
          ],
        },
      ],
    });
    expect(evaluate(view(denyEgress, allowDNS), p(frontend), p(dns), 53, 'UDP')).toMatchObject({
      allowed: true,
      byPolicy: 'shop/allow-dns',
    });
    expect(evaluate(view(denyEgress, allowDNS), p(frontend), p(db), 5432, 'TCP').allowed).toBe(
      false,
    );
  });

  it('a hostNetwork Pod is never isolated and is seen as its node: only an ipBlock matches it', () => {
    const node = pod('kube-proxy', 'kube-system', { 'k8s-app': 'kube-proxy' }, '10.0.0.11');
    node.spec.hostNetwork = true;
    const denyAll = policy('kube-system', 'deny-all', { policyTypes: ['Ingress', 'Egress'] });
    expect(evaluate(view(denyAll), p(node), p(db), 5432, 'TCP').allowed).toBe(true);
    expect(evaluate(view(denyAll), p(frontend), p(node), 10256, 'TCP').allowed).toBe(true);
    const fromNodes = policy('shop', 'from-nodes', {
      podSelector: sel({ app: 'db' }),
      ingress: [{ from: [{ namespaceSelector: {} }, { ipBlock: { cidr: '10.0.0.0/24' } }] }],
    });
    expect(evaluate(view(fromNodes), p(node), p(db), 5432, 'TCP').byPolicy).toBe('shop/from-nodes');
    const podsOnly = policy('shop', 'pods-only', {
      podSelector: sel({ app: 'db' }),
      ingress: [{ from: [{ namespaceSelector: {} }] }],
    });
    expect(evaluate(view(podsOnly), p(node), p(db), 5432, 'TCP').allowed).toBe(false);
    // Traffic from the Pod's own node is always allowed in, even with no rule for it.
    const local = { ...db, status: { ...db.status, hostIP: '10.0.0.11' } } as Pod;
    expect(evaluate(view(podsOnly), p(node), p(local), 5432, 'TCP').allowed).toBe(true);
    expect(evaluate(view(podsOnly), { ip: '10.0.0.11' }, p(local), 5432, 'TCP').allowed).toBe(true);
    expect(evaluate(view(podsOnly), { ip: '10.0.0.12' }, p(local), 5432, 'TCP').allowed).toBe(
      false,
    );
  });

  it('an empty ingress rule list isolates and allows nothing; one empty rule allows everything', () => {
    const none = policy('shop', 'none', { podSelector: sel({ app: 'db' }), ingress: [] });
    expect(evaluate(view(none), p(frontend), p(db), 1, 'TCP').allowed).toBe(false);
    const all = policy('shop', 'all', { podSelector: sel({ app: 'db' }), ingress: [{}] });
    expect(evaluate(view(none, all), { ip: '203.0.113.9' }, p(db), 1, 'SCTP')).toMatchObject({
      allowed: true,
      byPolicy: 'shop/all',
    });
  });
});

// ---- properties ----

const LABELS: Record<string, string>[] = [{ app: 'a' }, { app: 'b' }, { app: 'c', tier: 'x' }, {}];
const NS = ['default', 'shop', 'kube-system'];
const selArb: fc.Arbitrary<LabelSelector> = fc.oneof(
  fc.constant({}),
  fc.constantFrom(...LABELS.filter((l) => Object.keys(l).length)).map((l) => ({ matchLabels: l })),
  fc.constant<LabelSelector>({
    matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'c'] }],
  }),
);
const nsSelArb: fc.Arbitrary<LabelSelector> = fc.oneof(
  fc.constant({}),
  fc.constantFrom(...NS).map((n) => ({ matchLabels: { 'kubernetes.io/metadata.name': n } })),
  fc.constant({ matchLabels: { team: 'shop' } }),
);
const peerArb = fc.oneof(
  fc.record({ podSelector: selArb }),
  fc.record({ namespaceSelector: nsSelArb }),
  fc.record({ podSelector: selArb, namespaceSelector: nsSelArb }),
  fc.constantFrom('10.244.0.0/16', '10.244.1.0/24', '192.0.2.0/24').map((cidr) => ({
    ipBlock: { cidr, except: cidr === '10.244.0.0/16' ? ['10.244.2.0/24'] : [] },
  })),
);
const portArb = fc.oneof(
  fc.record({ port: fc.constantFrom(80, 8080, 53) }),
  fc.record({ port: fc.constant(8000), endPort: fc.constant(8080) }),
  fc.record({ port: fc.constant('http') }),
  fc.record({ protocol: fc.constant('UDP' as const) }),
);
const ruleArb = fc.record(
  { ports: fc.array(portArb, { maxLength: 2 }), peers: fc.array(peerArb, { maxLength: 2 }) },
  { requiredKeys: [] },
);
const policyArb = fc
  .record({
    namespace: fc.constantFrom(...NS),
    podSelector: selArb,
    ingress: fc.option(fc.array(ruleArb, { maxLength: 2 }), { nil: undefined }),
    egress: fc.option(fc.array(ruleArb, { maxLength: 2 }), { nil: undefined }),
    policyTypes: fc.option(fc.constantFrom(['Ingress'], ['Egress'], ['Ingress', 'Egress']), {
      nil: undefined,
    }),
  })
  .map((r) =>
    policy(r.namespace, 'p', {
      podSelector: r.podSelector,
      ...(r.ingress ? { ingress: r.ingress.map((x) => ({ ports: x.ports, from: x.peers })) } : {}),
      ...(r.egress ? { egress: r.egress.map((x) => ({ ports: x.ports, to: x.peers })) } : {}),
      ...(r.policyTypes ? { policyTypes: [...r.policyTypes] } : {}),
    }),
  );
const policiesArb = fc
  .array(policyArb, { maxLength: 6 })
  .map((ps) =>
    ps.map((np, i): NetworkPolicy => ({ ...np, metadata: { ...np.metadata, name: `p${i}` } })),
  );
const podArb = fc
  .record({
    namespace: fc.constantFrom(...NS),
    labels: fc.constantFrom(...LABELS),
    subnet: fc.constantFrom(1, 2, 3),
    host: fc.integer({ min: 2, max: 9 }),
  })
  .map((r) =>
    pod(`x${r.subnet}-${r.host}`, r.namespace, r.labels, `10.244.${r.subnet}.${r.host}`, [
      { name: 'http', containerPort: 8080 },
    ]),
  );
const endpointArb: fc.Arbitrary<PolicyEndpoint> = fc.oneof(
  podArb.map((x) => ({ pod: x })),
  fc.constantFrom('192.0.2.9', '198.51.100.1').map((ip) => ({ ip })),
);
const connArb = fc.record({
  policies: policiesArb,
  src: endpointArb,
  dst: podArb,
  port: fc.constantFrom(53, 80, 8000, 8080, 9090),
  protocol: fc.constantFrom('TCP' as const, 'UDP' as const),
});

// An independent reading of the API's field comments, as sets: the policies that select the
// Pod for a direction, and whether any rule of any of them matches both a port and a peer.
function oracleAllows(
  policies: NetworkPolicy[],
  dir: 'Ingress' | 'Egress',
  at: Pod,
  far: PolicyEndpoint,
  dst: Pod | undefined,
  port: number,
  protocol: string,
): boolean {
  const matchSel = (s: LabelSelector, labels: Record<string, string> | undefined) =>
    Object.entries(s.matchLabels ?? {}).every(([k, v]) => labels?.[k] === v) &&
    (s.matchExpressions ?? []).every((e) => (e.values ?? []).includes(labels?.[e.key] ?? '\u0000'));
  const ip = (e: PolicyEndpoint) => ('ip' in e ? e.ip : e.pod.status!.podIP!);
  const inCidr = (a: string, c: string) => {
    const [net, bits] = c.split('/');
    const n = (s: string) => s.split('.').reduce((x, o) => x * 256 + Number(o), 0);
    const size = 2 ** (32 - Number(bits));
    return Math.floor(n(a) / size) === Math.floor(n(net!) / size);
  };
  const selecting = policies.filter(
    (np) =>
      np.metadata.namespace === at.metadata.namespace &&
      np.spec.policyTypes!.includes(dir) &&
      matchSel(np.spec.podSelector, at.metadata.labels),
  );
  if (!selecting.length) return true;
  return selecting.some((np) =>
    (dir === 'Ingress'
      ? (np.spec.ingress ?? []).map((r) => [r.ports, r.from] as const)
      : (np.spec.egress ?? []).map((r) => [r.ports, r.to] as const)
    ).some(
      ([ports, peers]) =>
        (!ports?.length ||
          ports.some(
            (pp) =>
              (pp.protocol ?? 'TCP') === protocol &&
              (pp.port === undefined ||
                (pp.port === 'http'
                  ? !!dst && port === 8080
                  : pp.endPort
                    ? port >= Number(pp.port) && port <= pp.endPort
                    : port === pp.port)),
          )) &&
        (!peers?.length ||
          peers.some((peer) => {
            if (peer.ipBlock)
              return (
                inCidr(ip(far), peer.ipBlock.cidr) &&
                !(peer.ipBlock.except ?? []).some((e) => inCidr(ip(far), e))
              );
            if (!('pod' in far)) return false;
            const nsLabels = NAMESPACES.find((n) => n.metadata.name === far.pod.metadata.namespace)!
              .metadata.labels;
            const nsOK = peer.namespaceSelector
              ? matchSel(peer.namespaceSelector, nsLabels)
              : far.pod.metadata.namespace === np.metadata.namespace;
            return (
              nsOK && (!peer.podSelector || matchSel(peer.podSelector, far.pod.metadata.labels))
            );
          })),
    ),
  );
}

describe('evaluate: properties', () => {
  it('the outcome is a function of the policies in force: their order and repetition do not matter', () => {
    fc.assert(
      fc.property(connArb, fc.integer(), (c, seed) => {
        const a = evaluate(view(...c.policies), c.src, { pod: c.dst }, c.port, c.protocol);
        const shuffled = [...c.policies, ...c.policies].sort(
          (x, y) =>
            ((x.metadata.name.charCodeAt(1) * 7919 + seed) % 13) -
            ((y.metadata.name.charCodeAt(1) * 7919 + seed) % 13),
        );
        const b = evaluate(view(...shuffled), c.src, { pod: c.dst }, c.port, c.protocol);
        expect(b.allowed).toBe(a.allowed);
        expect(b.byPolicy).toBe(a.byPolicy);
        expect(evaluate(view(...c.policies), c.src, { pod: c.dst }, c.port, c.protocol)).toEqual(a);
      }),
      { numRuns: 300 },
    );
  });

  it('no connection reaches a Pod a policy isolates without an allowing rule, nor leaves one', () => {
    fc.assert(
      fc.property(connArb, (c) => {
        const v = evaluate(view(...c.policies), c.src, { pod: c.dst }, c.port, c.protocol);
        const ingressOK = oracleAllows(
          c.policies,
          'Ingress',
          c.dst,
          c.src,
          c.dst,
          c.port,
          c.protocol,
        );
        const egressOK =
          !('pod' in c.src) ||
          oracleAllows(c.policies, 'Egress', c.src.pod, { pod: c.dst }, c.dst, c.port, c.protocol);
        expect(v.allowed).toBe(ingressOK && egressOK);
        // A dropped connection names an isolating policy of the direction that dropped it.
        if (!v.allowed) {
          const d = v.droppedBy === 'Egress' ? v.egress : v.ingress;
          expect(d.isolatedBy).toContain(v.byPolicy);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('with no policies in force everything is allowed; a policy adds isolation only where it selects', () => {
    fc.assert(
      fc.property(connArb, (c) => {
        expect(evaluate(view(), c.src, { pod: c.dst }, c.port, c.protocol).allowed).toBe(true);
        // A policy in a namespace neither end is in changes nothing.
        const far = policy('nowhere', 'deny-all', { policyTypes: ['Ingress', 'Egress'] });
        const a = evaluate(view(...c.policies), c.src, { pod: c.dst }, c.port, c.protocol);
        const b = evaluate(view(...c.policies, far), c.src, { pod: c.dst }, c.port, c.protocol);
        expect(b.allowed).toBe(a.allowed);
      }),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Namespace, NetworkPolicy, Pod } from '../api/types.ts';
import type { PacketEntry } from '../engine/trace.ts';
import { evaluate } from '../runtime/networkpolicy.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';

// Two curl clients (a, b) and two agnhost servers behind Services (sa, sb), on either plugin.
function scenario(cni: 'bridge' | 'calico'): string {
  const client = (name: string) => `      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: ${name}, labels: {app: ${name}}}
      spec:
        containers: [{name: curl, image: "curlimages/curl:8.17.0", command: [sleep, "3600"]}]
`;
  const server = (name: string) => `      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: ${name}, labels: {app: ${name}}}
      spec:
        containers:
          - name: netexec
            image: registry.k8s.io/e2e-test-images/agnhost:2.53
            args: [netexec, --http-port=8080]
            ports: [{name: http, containerPort: 8080}]
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: ${name}}
      spec:
        selector: {app: ${name}}
        ports: [{port: 8080}]
`;
  return `name: netpol-properties
seed: 5
cluster:
  settings:
    cni: ${cni}
steps:
  - at: 0s
    apply: |
${`${client('a')}${client('b')}${server('sa')}${server('sb')}`.replace(/^ {6}---\n/, '')}until: 5m
`;
}

const np = (name: string, spec: string) => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: ${name}
spec:
${spec}`;

/** POOL are the policies a run may apply: denies, allows by pod, port, namespace and address. */
const POOL = [
  np('deny-ingress', '  podSelector: {}\n  policyTypes: [Ingress]\n'),
  np('deny-egress', '  podSelector: {}\n  policyTypes: [Egress]\n'),
  np(
    'sa-from-a',
    '  podSelector: {matchLabels: {app: sa}}\n  ingress:\n    - from: [{podSelector: {matchLabels: {app: a}}}]\n      ports: [{port: http}]\n',
  ),
  np(
    'a-to-sa',
    '  podSelector: {matchLabels: {app: a}}\n  policyTypes: [Egress]\n  egress:\n    - to: [{podSelector: {matchLabels: {app: sa}}}]\n',
  ),
  np(
    'allow-dns',
    '  podSelector: {}\n  policyTypes: [Egress]\n  egress:\n    - to: [{namespaceSelector: {}, podSelector: {matchLabels: {k8s-app: kube-dns}}}]\n      ports: [{port: 53, protocol: UDP}, {port: 53, protocol: TCP}]\n',
  ),
  np(
    'sb-from-pods',
    '  podSelector: {matchLabels: {app: sb}}\n  ingress:\n    - from: [{ipBlock: {cidr: 10.244.0.0/16}}]\n      ports: [{port: 8000, endPort: 8080}]\n',
  ),
  np(
    'b-egress-default-ns',
    '  podSelector: {matchLabels: {app: b}}\n  policyTypes: [Egress]\n  egress:\n    - to: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: default}}}]\n      ports: [{port: 9090}]\n',
  ),
];

const runArb = fc.record({
  policies: fc.subarray(POOL.map((_, i) => i)),
  curls: fc.array(fc.record({ from: fc.constantFrom('a', 'b'), to: fc.constantFrom('sa', 'sb') }), {
    minLength: 1,
    maxLength: 4,
  }),
});

interface Outcome {
  exitCode: number;
  packets: PacketEntry[];
}

function run(
  cni: 'bridge' | 'calico',
  c: { policies: number[]; curls: { from: string; to: string }[] },
): { run: ScenarioRun; outcomes: Outcome[] } {
  const r = new ScenarioRun(parseScenario(scenario(cni), 'netpol-properties.yaml'));
  r.runUntil(30_000);
  for (const i of c.policies) {
    const out = r.cluster.kubectl('apply -f -', POOL[i]!);
    if (out.exitCode !== 0) throw new Error(out.stderr);
  }
  const outcomes = c.curls.map(({ from, to }) => {
    const before = r.cluster.sim.trace.length;
    const out = r.cluster.kubectl(`exec ${from} -- curl -s -m 2 ${to}:8080/hostname`);
    const packets = r.cluster.sim.trace
      .slice(before)
      .filter((e): e is PacketEntry => e.kind === 'packet');
    return { exitCode: out.exitCode, packets };
  });
  return { run: r, outcomes };
}

describe('NetworkPolicy enforcement in the cluster: properties', () => {
  it('calico only takes connections away, and each packet agrees with the policies in force', () => {
    fc.assert(
      fc.property(runArb, (c) => {
        const bridge = run('bridge', c);
        const calico = run('calico', c);
        const api = calico.run.cluster.apiserver;
        const view = {
          policies: api.peekAll<NetworkPolicy>('networkpolicies'),
          namespaces: api.peekAll<Namespace>('namespaces'),
        };
        const pods = api.peekAll<Pod>('pods');
        const byName = (key: string) =>
          pods.find((p) => `${p.metadata.namespace}/${p.metadata.name}` === key)!;
        c.curls.forEach((_, i) => {
          const b = bridge.outcomes[i]!;
          const k = calico.outcomes[i]!;
          // The bridge plugin ignores every policy: each curl gets its answer.
          expect(b.exitCode).toBe(0);
          expect(b.packets.every((p) => p.outcome !== 'dropped')).toBe(true);
          // Under calico a curl succeeds only if it did under bridge, and fails with a timeout.
          expect([0, 28]).toContain(k.exitCode);
          for (const p of k.packets) {
            const from = byName(p.from);
            const to = byName(p.to);
            const port = p.protocol === 'UDP' ? 53 : Number(p.endpoint!.split(':')[1]);
            const v = evaluate(view, { pod: from }, { pod: to }, port, p.protocol ?? 'TCP');
            // No packet reaches a Pod the policies isolate without an allowing rule...
            if (p.outcome === 'established') expect(v.allowed).toBe(true);
            // ...and a drop names a policy in force that selects one of the ends.
            if (p.outcome === 'dropped') {
              expect(v.allowed).toBe(false);
              expect(p.policy).toBe(v.byPolicy);
              expect(view.policies.map((x) => `default/${x.metadata.name}`)).toContain(p.policy);
            }
          }
          expect(k.exitCode === 0).toBe(k.packets.some((p) => p.outcome === 'established'));
        });
      }),
      { numRuns: 12 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { Pod, Service } from '../api/types.ts';
import type { PacketEntry } from '../engine/trace.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';

/**
 * scenario: a database (agnhost netexec on 8080) behind Service db, and two curl clients,
 * frontend and other, in namespace default, on the CNI plugin given.
 */
function scenario(cni: 'bridge' | 'calico' | undefined): string {
  const client = (name: string) => `      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: ${name}
        labels: {app: ${name}}
      spec:
        containers:
          - name: curl
            image: curlimages/curl:8.17.0
            command: [sleep, "3600"]
`;
  return `name: netpol
seed: 3
${cni ? `cluster:\n  settings:\n    cni: ${cni}\n` : ''}steps:
  - at: 0s
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: db
      spec:
        replicas: 2
        selector:
          matchLabels: {app: db}
        template:
          metadata:
            labels: {app: db}
          spec:
            containers:
              - name: netexec
                image: registry.k8s.io/e2e-test-images/agnhost:2.53
                args: [netexec, --http-port=8080]
                ports:
                  - name: http
                    containerPort: 8080
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: db
      spec:
        selector: {app: db}
        ports:
          - port: 8080
${client('frontend')}${client('other')}until: 5m
`;
}

const DEFAULT_DENY = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: default-deny
spec:
  podSelector: {}
  policyTypes: [Ingress]
`;

const DB_FROM_FRONTEND = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: db-from-frontend
spec:
  podSelector:
    matchLabels: {app: db}
  ingress:
    - from:
        - podSelector:
            matchLabels: {app: frontend}
      ports:
        - port: http
`;

const FRONTEND_DENY_EGRESS = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: frontend-deny-egress
spec:
  podSelector:
    matchLabels: {app: frontend}
  policyTypes: [Egress]
`;

const ALLOW_DNS = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: allow-dns
spec:
  podSelector: {}
  policyTypes: [Egress]
  egress:
    - to:
        - namespaceSelector:
            matchLabels: {kubernetes.io/metadata.name: kube-system}
          podSelector:
            matchLabels: {k8s-app: kube-dns}
      ports:
        - protocol: UDP
          port: 53
        - protocol: TCP
          port: 53
`;

const FRONTEND_TO_DB = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: frontend-to-db
spec:
  podSelector:
    matchLabels: {app: frontend}
  policyTypes: [Egress]
  egress:
    - to:
        - podSelector:
            matchLabels: {app: db}
      ports:
        - port: 8080
`;

function run(cni?: 'bridge' | 'calico'): ScenarioRun {
  const r = new ScenarioRun(parseScenario(scenario(cni), 'netpol.yaml'));
  r.runUntil(60_000);
  return r;
}

function apply(r: ScenarioRun, manifest: string): void {
  const out = r.cluster.kubectl('apply -f -', manifest);
  expect(out.exitCode, out.stderr).toBe(0);
}

const curl = (r: ScenarioRun, pod: string, args: string) =>
  r.cluster.kubectl(`exec ${pod} -- curl ${args}`);

function packetsSince(r: ScenarioRun, from: number): PacketEntry[] {
  return r.cluster.sim.trace.slice(from).filter((e): e is PacketEntry => e.kind === 'packet');
}

const TIMED_OUT =
  'curl: (28) Connection timed out after 2000 milliseconds\ncommand terminated with exit code 28\n';

describe('NetworkPolicy under calico, which enforces it', () => {
  it('default-deny ingress: nothing reaches the isolated Pods, the drop names the policy', () => {
    const r = run('calico');
    expect(curl(r, 'other', '-s db:8080/hostname').exitCode).toBe(0);
    apply(r, DEFAULT_DENY);
    const before = r.cluster.sim.trace.length;
    const t = r.cluster.sim.now();
    expect(curl(r, 'frontend', '-m 2 db:8080/hostname')).toEqual({
      stdout: '',
      stderr: TIMED_OUT,
      exitCode: 28,
    });
    expect(r.cluster.sim.now()).toBe(t + 2000);
    const [p] = packetsSince(r, before);
    expect(p).toMatchObject({
      from: 'default/frontend',
      dst: `${r.cluster.apiserver.peekAll<Service>('services').find((s) => s.metadata.name === 'db')!.spec.clusterIP}:8080`,
      outcome: 'dropped',
      policy: 'default/default-deny',
    });
    expect(p!.to).toMatch(/^default\/db-/);
    expect(p!.chains[0]).toBe('KUBE-SERVICES');
    // The clients are isolated too: the database cannot reach them either.
    const frontendIP = r.cluster.apiserver
      .peekAll<Pod>('pods')
      .find((x) => x.metadata.name === 'frontend')!.status!.podIP;
    const dbPod = r.cluster.apiserver
      .peekAll<Pod>('pods')
      .find((x) => x.metadata.name.startsWith('db-'))!.metadata.name;
    expect(r.cluster.kubectl(`exec ${dbPod} -- curl -m 2 ${frontendIP}:80`).exitCode).toBe(28);
  });

  it('allow only frontend → database on its http port: the rest stays dropped', () => {
    const r = run('calico');
    apply(r, DEFAULT_DENY);
    // A second later, so that the drop names default-deny: the policy that isolated the Pod first.
    r.runUntil(r.cluster.sim.now() + 1000);
    apply(r, DB_FROM_FRONTEND);
    const before = r.cluster.sim.trace.length;
    const ok = curl(r, 'frontend', '-s db:8080/hostname');
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/^db-/);
    expect(curl(r, 'other', '-m 2 db:8080/hostname').stderr).toBe(TIMED_OUT);
    const outcomes = packetsSince(r, before).map((p) => [p.from, p.outcome, p.policy]);
    expect(outcomes).toEqual([
      ['default/frontend', 'established', undefined],
      ['default/other', 'dropped', 'default/default-deny'],
    ]);
    // Many requests from the frontend all get through, spread over both replicas.
    const many = r.cluster.kubectl(
      `exec frontend -- sh -c 'for i in $(seq 40); do curl -s db:8080/hostname; echo; done'`,
    );
    expect(new Set(many.stdout.split('\n').filter(Boolean)).size).toBe(2);
  });

  it('egress deny breaks DNS until UDP/TCP 53 to kube-dns is allowed', () => {
    const r = run('calico');
    apply(r, FRONTEND_DENY_EGRESS);
    let before = r.cluster.sim.trace.length;
    expect(curl(r, 'frontend', '-m 2 db:8080/hostname').stderr).toBe(
      'curl: (28) Resolving timed out after 2000 milliseconds\ncommand terminated with exit code 28\n',
    );
    const dropped = packetsSince(r, before);
    expect(dropped.length).toBeGreaterThan(0);
    for (const p of dropped)
      expect(p).toMatchObject({
        from: 'default/frontend',
        dst: '10.96.0.10:53',
        protocol: 'UDP',
        outcome: 'dropped',
        policy: 'default/frontend-deny-egress',
      });
    expect(dropped[0]!.to).toMatch(/^kube-system\/coredns-/);
    // No DNS question reached CoreDNS.
    expect(r.cluster.sim.trace.slice(before).some((e) => e.kind === 'dns')).toBe(false);
    // Another Pod is not isolated for egress: its lookups still work.
    expect(curl(r, 'other', '-s db:8080/hostname').exitCode).toBe(0);

    // DNS allowed: the name resolves, but the connection itself is still dropped by egress.
    apply(r, ALLOW_DNS);
    before = r.cluster.sim.trace.length;
    expect(curl(r, 'frontend', '-m 2 db:8080/hostname').stderr).toBe(TIMED_OUT);
    expect(r.cluster.sim.trace.slice(before).some((e) => e.kind === 'dns')).toBe(true);
    expect(packetsSince(r, before).map((p) => [p.protocol, p.outcome, p.policy])).toEqual([
      [undefined, 'dropped', 'default/frontend-deny-egress'],
    ]);

    // And egress to the database allowed too: through.
    apply(r, FRONTEND_TO_DB);
    expect(curl(r, 'frontend', '-s db:8080/hostname').stdout).toMatch(/^db-/);
  });

  it('kubectl get netpol lists what is in force', () => {
    const r = run('calico');
    apply(r, DEFAULT_DENY);
    apply(r, DB_FROM_FRONTEND);
    expect(r.cluster.kubectl('get netpol').stdout).toBe(
      'NAME               POD-SELECTOR   AGE\ndb-from-frontend   app=db         0s\ndefault-deny       <none>         0s\n',
    );
  });
});

describe('NetworkPolicy under bridge, which ignores it', () => {
  for (const cni of [undefined, 'bridge'] as const)
    it(`the same policies change nothing (cni ${cni ?? 'left out'})`, () => {
      const r = run(cni);
      for (const m of [DEFAULT_DENY, DB_FROM_FRONTEND, FRONTEND_DENY_EGRESS]) apply(r, m);
      const before = r.cluster.sim.trace.length;
      expect(curl(r, 'other', '-s db:8080/hostname').stdout).toMatch(/^db-/);
      expect(curl(r, 'frontend', '-s db:8080/hostname').stdout).toMatch(/^db-/);
      expect(packetsSince(r, before).map((p) => p.outcome)).toEqual(['established', 'established']);
      expect(r.cluster.sim.trace.some((e) => e.kind === 'packet' && e.outcome === 'dropped')).toBe(
        false,
      );
    });
});

describe('cluster.settings.cni', () => {
  it('calico runs calico-node on every node and calico-kube-controllers in kube-system', () => {
    const names = (r: ScenarioRun, args: string) =>
      r.cluster
        .kubectl(`get ${args} -n kube-system -o name`)
        .stdout.split('\n')
        .filter((l) => l.includes('calico'));
    const r = run('calico');
    expect(names(r, 'ds,deploy,pdb,cm')).toEqual([
      'daemonset.apps/calico-node',
      'deployment.apps/calico-kube-controllers',
      'poddisruptionbudget.policy/calico-kube-controllers',
      'configmap/calico-config',
    ]);
    const pods = r.cluster.apiserver
      .peekAll<Pod>('pods')
      .filter((p) => p.metadata.labels?.['k8s-app'] === 'calico-node');
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual([
      'control-plane',
      'node-1',
      'node-2',
      'node-3',
    ]);
    for (const p of pods) {
      expect(p.status?.phase).toBe('Running');
      expect(p.status?.initContainerStatuses?.[0]?.state?.terminated?.reason).toBe('Completed');
    }
    expect(names(run('bridge'), 'ds,deploy,pdb,cm,pods')).toEqual([]);
  });

  it('a value other than bridge or calico is a located error', () => {
    expect(() =>
      parseScenario(
        scenario(undefined).replace(
          'seed: 3\n',
          'seed: 3\ncluster:\n  settings:\n    cni: flannel\n',
        ),
        'netpol.yaml',
      ),
    ).toThrow(
      /cluster\.settings\.cni \(line 5, column 10\): found "flannel", expected one of bridge, calico/,
    );
  });
});

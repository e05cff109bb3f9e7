import { describe, expect, it } from 'vitest';
import type { PacketEntry } from '../engine/trace.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';
import { netexecScenario } from '../testing.ts';

/** SCENARIO: three agnhost netexec Pods behind Service web, a curl client, and a few mistakes. */
const SCENARIO = netexecScenario('packet-path');

function run(): ScenarioRun {
  const r = new ScenarioRun(parseScenario(SCENARIO, 'packet-path.yaml'));
  r.runUntil(60_000);
  return r;
}

const curl = (r: ScenarioRun, args: string) => r.cluster.kubectl(`exec client -- curl ${args}`);

describe('curl from a Pod to a Service', () => {
  it('reaches a backend through the Service and returns its answer', () => {
    const r = run();
    const out = curl(r, '-s web/hostname');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(/^web-[a-z0-9]+-[a-z0-9]{5}$/);
  });

  it('spreads new connections over the endpoints in the rules’ proportions', () => {
    const r = run();
    const out = r.cluster.kubectl(
      `exec client -- sh -c 'for i in $(seq 300); do curl -s web/hostname; echo; done'`,
    );
    const counts = new Map<string, number>();
    for (const line of out.stdout.split('\n').filter(Boolean))
      counts.set(line, (counts.get(line) ?? 0) + 1);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(300);
    expect(counts.size).toBe(3);
    // 1/3 each: a binomial(300, 1/3) lies within 100 ± 40 with overwhelming probability.
    for (const n of counts.values()) expect(Math.abs(n - 100)).toBeLessThan(40);
  });

  it('sessionAffinity ClientIP sends one client back to the same endpoint', () => {
    const r = run();
    const out = r.cluster.kubectl(
      `exec client -- sh -c 'for i in $(seq 30); do curl -s web-sticky/hostname; echo; done'`,
    );
    expect(new Set(out.stdout.split('\n').filter(Boolean)).size).toBe(1);
  });

  it('a wrong targetPort reaches a Pod that does not listen there: connection refused', () => {
    const r = run();
    expect(curl(r, 'web-wrong-port')).toEqual({
      stdout: '',
      stderr:
        'curl: (7) Failed to connect to web-wrong-port port 80 after 0 ms: Could not connect to server\ncommand terminated with exit code 7\n',
      exitCode: 7,
    });
    const p = r.cluster.sim.trace.filter((e): e is PacketEntry => e.kind === 'packet').at(-1)!;
    expect(p.outcome).toBe('refused');
    expect(p.endpoint).toMatch(/:9090$/);
    expect(p.chains[0]).toBe('KUBE-SERVICES');
    expect(p.chains[1]).toMatch(/^KUBE-SVC-/);
    expect(p.chains[2]).toMatch(/^KUBE-SEP-/);
  });

  it('a Service with no endpoints is rejected by kube-proxy’s rule: curl says connection refused', () => {
    const r = run();
    expect(curl(r, '-sS nobody').stderr).toBe(
      'curl: (7) Failed to connect to nobody port 80 after 0 ms: Could not connect to server\ncommand terminated with exit code 7\n',
    );
    const p = r.cluster.sim.trace.filter((e): e is PacketEntry => e.kind === 'packet').at(-1)!;
    expect(p.outcome).toBe('rejected');
  });

  it('a typo in the name cannot be resolved after the whole search list', () => {
    const r = run();
    const before = r.cluster.sim.trace.length;
    expect(curl(r, 'wbe').stderr).toBe(
      'curl: (6) Could not resolve host: wbe\ncommand terminated with exit code 6\n',
    );
    const names = r.cluster.sim.trace
      .slice(before)
      .flatMap((e) => (e.kind === 'dns' ? [`${e.qtype} ${e.name}`] : []));
    expect(names).toEqual([
      'A wbe.default.svc.cluster.local',
      'AAAA wbe.default.svc.cluster.local',
      'A wbe.svc.cluster.local',
      'AAAA wbe.svc.cluster.local',
      'A wbe.cluster.local',
      'AAAA wbe.cluster.local',
      'A wbe',
      'AAAA wbe',
    ]);
  });

  it('a port no rule matches is lost: curl -m times out', () => {
    const r = run();
    const t = r.cluster.sim.now();
    const out = curl(r, '-m 2 web:8081');
    expect(out.stderr).toBe(
      'curl: (28) Connection timed out after 2000 milliseconds\ncommand terminated with exit code 28\n',
    );
    expect(r.cluster.sim.now()).toBe(t + 2000);
  });

  it('-v shows the resolution, the connection and the exchange', () => {
    const r = run();
    const out = curl(r, '-sv web/hostname');
    expect(out.stderr).toMatch(
      /^\* Host web:80 was resolved\.\n\* IPv6: \(none\)\n\* IPv4: 10\.\d+\.\d+\.\d+\n\* {3}Trying 10\.[\d.]+:80\.\.\.\n\* Established connection to web \(10\.[\d.]+ port 80\) from 10\.244\.[\d.]+ port \d+ \n\* using HTTP\/1\.x\n> GET \/hostname HTTP\/1\.1\n> Host: web\n> User-Agent: curl\/8\.17\.0\n> Accept: \*\/\*\n> \n\* Request completely sent off\n< HTTP\/1\.1 200 OK\n/,
    );
  });

  it('an nginx Pod has no curl; busybox has wget', () => {
    const r = run();
    const out = r.cluster.kubectl(`exec client -- sh -c 'wget -qO- web/hostname'`);
    // curlimages/curl is Alpine-based: BusyBox's wget is there too.
    expect(out.stdout).toMatch(/^web-/);
  });
});

describe('an image a scenario declares', () => {
  it('serves what cluster.images says on its port, and refuses the others', () => {
    const yaml = `name: custom-image
seed: 2
cluster:
  images:
    example.com/shop:1.0:
      serves:
        - port: 9000
          body: "shop v1\\n"
        - port: 9001
          status: 503
          body: down
steps:
  - at: 0s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata:
        name: shop
        labels: {app: shop}
      spec:
        containers:
          - name: shop
            image: example.com/shop:1.0
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: shop
      spec:
        selector: {app: shop}
        ports:
          - {name: a, port: 80, targetPort: 9000}
          - {name: b, port: 81, targetPort: 9001}
          - {name: c, port: 82, targetPort: 9002}
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: client
      spec:
        containers:
          - name: curl
            image: curlimages/curl:8.17.0
            command: [sleep, "3600"]
until: 1m
`;
    const r = new ScenarioRun(parseScenario(yaml, 'custom-image.yaml'));
    r.runUntil(40_000);
    expect(r.cluster.kubectl('exec client -- curl -s shop').stdout).toBe('shop v1\n');
    expect(
      r.cluster.kubectl(`exec client -- curl -s -o /dev/null -w '%{http_code}' shop:81`).stdout,
    ).toBe('503');
    expect(r.cluster.kubectl('exec client -- curl -s shop:82').exitCode).toBe(7);
  });
});

describe('internalTrafficPolicy: Local', () => {
  it('reaches only an endpoint on the client’s node, and is dropped where there is none', () => {
    const yaml = `name: local-policy
seed: 3
steps:
  - at: 0s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata:
        name: server
        labels: {app: server}
      spec:
        nodeName: node-2
        containers:
          - name: netexec
            image: registry.k8s.io/e2e-test-images/agnhost:2.53
            args: [netexec, --http-port=8080]
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: local
      spec:
        selector: {app: server}
        internalTrafficPolicy: Local
        ports:
          - {port: 80, targetPort: 8080}
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: near
      spec:
        nodeName: node-2
        containers:
          - {name: curl, image: "curlimages/curl:8.17.0", command: [sleep, "3600"]}
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: far
      spec:
        nodeName: node-1
        containers:
          - {name: curl, image: "curlimages/curl:8.17.0", command: [sleep, "3600"]}
until: 1m
`;
    const r = new ScenarioRun(parseScenario(yaml, 'local-policy.yaml'));
    r.runUntil(40_000);
    expect(r.cluster.kubectl('exec near -- curl -s local/hostname').stdout).toBe('server');
    const near = r.cluster.sim.trace.filter((e): e is PacketEntry => e.kind === 'packet').at(-1)!;
    expect(near.chains[1]).toMatch(/^KUBE-SVL-/);
    expect(r.cluster.kubectl('exec far -- curl -sS -m 2 local/hostname').exitCode).toBe(28);
    const far = r.cluster.sim.trace.filter((e): e is PacketEntry => e.kind === 'packet').at(-1)!;
    expect(far.outcome).toBe('timeout');
    expect(far.chains).toContain('DROP (has no local endpoints)');
  });
});

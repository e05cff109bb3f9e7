import { describe, expect, it } from 'vitest';
import type { Pod, Service } from '../api/types.ts';
import type { DnsEntry } from '../engine/trace.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';
import { webScenario } from '../testing.ts';

// A client Pod (busybox, kept running by sleep) in namespace shop and a web Service in default.
const STEPS = `  - at: 1s
    apply: |
      apiVersion: v1
      kind: Namespace
      metadata:
        name: shop
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: web
      spec:
        selector: {app: web}
        ports:
          - port: 80
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: cart
        namespace: shop
      spec:
        selector: {app: cart}
        ports:
          - port: 8080
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: client
        namespace: shop
      spec:
        containers:
          - name: client
            image: busybox:1.36
            command: [sleep, "3600"]
`;

function run(): ScenarioRun {
  const r = new ScenarioRun(
    parseScenario(webScenario('dns-test', { steps: STEPS }), 'dns-test.yaml'),
  );
  r.runUntil(40_000);
  return r;
}

const nslookup = (r: ScenarioRun, name: string) =>
  r.cluster.kubectl(`exec -n shop client -- nslookup ${name}`);

const serviceIP = (r: ScenarioRun, name: string) =>
  r.cluster.apiserver.peekAll<Service>('services').find((s) => s.metadata.name === name)!.spec
    .clusterIP!;

const webIP = (r: ScenarioRun) => serviceIP(r, 'web');

describe('nslookup in a busybox Pod', () => {
  it('asks a dotless name under every search domain, A then AAAA, and prints each reply', () => {
    const r = run();
    const ip = webIP(r);
    // kubernetes is in default, the client in shop, whose search list does not hold default.
    const out = r.cluster.kubectl('exec -n shop client -- nslookup kubernetes');
    expect(out.stdout).toBe(
      'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n' +
        "** server can't find kubernetes.shop.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find kubernetes.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find kubernetes.cluster.local: NXDOMAIN\n\n" +
        "** server can't find kubernetes.shop.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find kubernetes.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find kubernetes.cluster.local: NXDOMAIN\n\n",
    );
    // Any NXDOMAIN makes BusyBox's nslookup exit 1.
    expect(out.exitCode).toBe(1);
    expect(ip).toMatch(/^10\.9[6-9]\./);
  });

  it('finds a Service of its own namespace by its short name, and still exits 1', () => {
    const r = run();
    const out = nslookup(r, 'cart');
    expect(out.stdout).toBe(
      'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n' +
        `Name:\tcart.shop.svc.cluster.local\nAddress: ${serviceIP(r, 'cart')}\n\n` +
        "** server can't find cart.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find cart.cluster.local: NXDOMAIN\n\n" +
        '\n' +
        "** server can't find cart.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find cart.cluster.local: NXDOMAIN\n\n",
    );
    expect(out.exitCode).toBe(1);
  });

  it('finds a Service by its full name, and answers AAAA with nothing (NODATA)', () => {
    const r = run();
    const out = nslookup(r, 'web.default.svc.cluster.local');
    expect(out).toEqual({
      stdout: `Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: ${webIP(r)}\n\n\n`,
      stderr: '',
      exitCode: 0,
    });
  });

  it('does not apply the search list to a name with a dot, unlike the C library', () => {
    const r = run();
    const out = nslookup(r, 'web.default');
    expect(out.stdout).toContain("** server can't find web.default: NXDOMAIN\n");
    expect(out.stdout).not.toContain('web.default.svc');
  });

  it('every question is in the trace, answered by a CoreDNS Pod through kube-proxy’s rules', () => {
    const r = run();
    const before = r.cluster.sim.trace.length;
    nslookup(r, 'web.default.svc.cluster.local');
    const dns = r.cluster.sim.trace.slice(before).filter((e): e is DnsEntry => e.kind === 'dns');
    expect(dns.map((e) => [e.name, e.qtype, e.rcode])).toEqual([
      ['web.default.svc.cluster.local', 'A', 'NOERROR'],
      ['web.default.svc.cluster.local', 'AAAA', 'NOERROR'],
    ]);
    expect(dns[0]!.from).toBe('shop/client');
    expect(dns[0]!.to).toMatch(/^kube-system\/coredns-/);
    expect(dns[0]!.answers).toEqual([`A ${webIP(r)}`]);
  });

  it('with CoreDNS scaled to zero, no reply comes: nslookup waits 5 s and gives up', () => {
    const r = run();
    r.cluster.kubectl('scale -n kube-system deployment coredns --replicas=0');
    r.runUntil(80_000);
    const t = r.cluster.sim.now();
    const out = nslookup(r, 'web.default.svc.cluster.local');
    expect(out.stdout).toBe(';; connection timed out; no servers could be reached\n\n');
    expect(out.exitCode).toBe(1);
    expect(r.cluster.sim.now()).toBe(t + 5000);
  });

  it('an nginx (Debian) Pod has no nslookup', () => {
    const r = run();
    const pod = r.cluster.apiserver
      .peekAll<Pod>('pods')
      .find((p) => p.metadata.name.startsWith('web-'))!;
    const out = r.cluster.kubectl(`exec ${pod.metadata.name} -- nslookup web`);
    expect(out.stderr).toMatch(
      /OCI runtime exec failed: exec failed: unable to start container process: exec: "nslookup": executable file not found in \$PATH: unknown\n$/,
    );
  });
});

describe("CoreDNS's cache (cache 30)", () => {
  it('keeps a not-found answer for 30 s: a Service created meanwhile resolves only after', () => {
    const r = run();
    // One CoreDNS Pod, so every question reaches the same cache.
    r.cluster.kubectl('scale -n kube-system deployment coredns --replicas=1');
    r.runUntil(80_000);
    const ask = () => nslookup(r, 'late.shop.svc.cluster.local').stdout;
    expect(ask()).toContain("** server can't find late.shop.svc.cluster.local: NXDOMAIN");
    r.cluster.kubectl(
      'apply -f -',
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: late\n  namespace: shop\nspec:\n  ports:\n    - port: 80\n',
    );
    r.runUntil(90_000);
    expect(ask()).toContain('NXDOMAIN');
    r.runUntil(111_000);
    expect(ask()).toMatch(/Name:\tlate\.shop\.svc\.cluster\.local\nAddress: 10\./);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';
import { packetPathDiagram } from './packet-path.ts';
import { ruleChains } from './rule-chain.ts';

const run = new ScenarioRun(
  parseScenario(
    readFileSync(new URL('../../content/scenarios/lesson7-services.yaml', import.meta.url), 'utf8'),
    'lesson7-services',
  ),
  { seed: 7 },
)
  .run()
  .result();

describe('packetPathDiagram', () => {
  it('draws the lookup, each DNS question and answer, the DNAT and the target Pod', () => {
    const d = packetPathDiagram(run, { client: 'shop/client', from: 40, to: 40 });
    expect(d.participants.map((p) => p.label)).toEqual([
      'client',
      'resolver (libc)',
      expect.stringMatching(/^CoreDNS …-[a-z0-9]{5}$/),
      'node-1 rules',
      'CNI network',
      expect.stringMatching(/^web-/),
    ]);
    const texts = d.steps.map((s) => s.text);
    expect(texts[0]).toBe('look up web');
    expect(texts).toContain('A? web.shop.svc.cluster.local');
    expect(texts).toContain('NOERROR, no answer');
    expect(texts.find((t) => t.includes('DNAT'))).toMatch(
      /^KUBE-SERVICES → KUBE-SVC-\S+ → KUBE-SEP-\S+: DNAT to 10\.244\.\d+\.\d+:8080$/,
    );
    expect(texts.at(-1)).toBe('SYN-ACK: connected, then the HTTP reply');
    // Arrows are numbered, notes are not.
    expect(d.steps.filter((s) => s.kind !== 'note').map((s) => s.n)).toEqual(
      d.steps.filter((s) => s.kind !== 'note').map((_, i) => i + 1),
    );
  });

  it('shows a refused and a rejected connection for what they are', () => {
    const refused = packetPathDiagram(run, { client: 'shop/client', from: 46, to: 46 });
    expect(refused.steps.at(-1)!.text).toBe('RST: nothing listens on 9090');
    const rejected = packetPathDiagram(run, {
      client: 'shop/client',
      from: 42,
      to: 42,
      lang: 'ja',
    });
    expect(rejected.steps.at(-1)!.text).toBe('REJECT: ICMP port unreachable');
  });
});

describe('packetPathDiagram under calico', () => {
  it('draws a dropped connection and a dropped DNS question with the policy that isolated the Pod', () => {
    const r = new ScenarioRun(
      parseScenario(
        `name: dropped
seed: 1
cluster:
  settings:
    cni: calico
steps:
  - at: 0s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata: {name: client, labels: {app: client}}
      spec:
        containers: [{name: curl, image: "curlimages/curl:8.17.0", command: [sleep, "3600"]}]
      ---
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: deny-egress}
      spec:
        podSelector: {}
        policyTypes: [Egress]
  - at: 30s
    kubectl: exec client -- curl -m 1 10.96.0.1:443
  - at: 40s
    kubectl: exec client -- curl -m 1 kubernetes
until: 50s
`,
        'dropped.yaml',
      ),
    )
      .run()
      .result();
    const tcp = packetPathDiagram(r, { client: 'default/client', from: 30, to: 35 });
    expect(tcp.steps.at(-1)).toMatchObject({
      kind: 'note',
      text: 'dropped: NetworkPolicy default/deny-egress isolates the Pod',
    });
    expect(tcp.steps.map((s) => s.text)).not.toContain('SYN');
    const dns = packetPathDiagram(r, { client: 'default/client', from: 40, to: 45, lang: 'ja' });
    expect(dns.steps.slice(0, 2).map((s) => s.text)).toEqual([
      '10.96.0.10:53 への DNS の問い合わせ',
      '破棄: NetworkPolicy default/deny-egress が Pod を隔離している',
    ]);
  });
});

describe('ruleChains', () => {
  const save = run.outputs.find((o) => o.command === 'iptables-save -t nat')!.stdout;

  it('reads each Service port’s chain, whose shares add up to all new connections', () => {
    const [web] = ruleChains(save, 'shop/web');
    expect(web!.servicePort).toBe('shop/web:http');
    expect(web!.port).toBe(80);
    expect(web!.endpoints.map((e) => e.probability)).toEqual([
      '0.33333333349',
      '0.50000000000',
      null,
    ]);
    expect(web!.endpoints.reduce((a, e) => a + e.share, 0)).toBeCloseTo(1, 9);
    for (const e of web!.endpoints) {
      expect(e.share).toBeCloseTo(1 / 3, 6);
      expect(e.dnat).toMatch(/^10\.244\.\d+\.\d+:8080$/);
    }
  });

  it('a Service without endpoints has no chain in the nat table', () => {
    expect(ruleChains(save, 'shop/nobody')).toEqual([]);
  });
});

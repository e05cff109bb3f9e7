import { describe, expect, it } from 'vitest';
import type { PacketEntry } from '../engine/trace.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';
import { netexecScenario } from '../testing.ts';

/** scenario: three agnhost netexec Pods behind Service web and a curl client, in one mode. */
const scenario = (mode: string) => netexecScenario('proxy-modes', { proxyMode: mode });

function run(mode: string): ScenarioRun {
  const r = new ScenarioRun(parseScenario(scenario(mode), 'proxy-modes.yaml'));
  r.runUntil(60_000);
  return r;
}

function hostnames(r: ScenarioRun, n: number): string[] {
  const out = r.cluster.kubectl(
    `exec client -- sh -c 'for i in $(seq ${n}); do curl -s web/hostname; echo; done'`,
  );
  return out.stdout.split('\n').filter(Boolean);
}

const lastPacket = (r: ScenarioRun) =>
  r.cluster.sim.trace.filter((e): e is PacketEntry => e.kind === 'packet').at(-1)!;

describe('curl through each kube-proxy mode', () => {
  for (const mode of ['iptables', 'nftables', 'ipvs']) {
    it(`${mode}: spreads new connections over the three endpoints`, () => {
      const names = hostnames(run(mode), 300);
      const counts = new Map<string, number>();
      for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
      expect(names).toHaveLength(300);
      expect(counts.size).toBe(3);
      // 1/3 each: binomial(300, 1/3) lies within 100 ± 40 with overwhelming probability, and rr
      // gives exactly 100.
      for (const n of counts.values()) expect(Math.abs(n - 100)).toBeLessThan(40);
    });

    it(`${mode}: a Service with no endpoints is refused`, () => {
      const r = run(mode);
      expect(r.cluster.kubectl('exec client -- curl -sS nobody').exitCode).toBe(7);
      expect(lastPacket(r).outcome).toBe('rejected');
      expect(lastPacket(r).chains.at(-1)).toBe(
        { iptables: 'KUBE-SERVICES', nftables: 'reject-chain', ipvs: 'KUBE-SERVICES' }[mode],
      );
    });

    it(`${mode}: sessionAffinity ClientIP sends one client back to the same endpoint`, () => {
      const r = run(mode);
      const out = r.cluster.kubectl(
        `exec client -- sh -c 'for i in $(seq 20); do curl -s web-sticky/hostname; echo; done'`,
      );
      expect(new Set(out.stdout.split('\n').filter(Boolean)).size).toBe(1);
    });
  }

  it('ipvs: round-robin cycles through the endpoints in turn', () => {
    const names = hostnames(run('ipvs'), 9);
    expect(new Set(names.slice(0, 3)).size).toBe(3);
    expect(names.slice(3, 6)).toEqual(names.slice(0, 3));
    expect(names.slice(6, 9)).toEqual(names.slice(0, 3));
  });

  it('nftables: the packet trace names the nft chains and the endpoint chain', () => {
    const r = run('nftables');
    hostnames(r, 1);
    const p = lastPacket(r);
    expect(p.chains.slice(0, 3)).toEqual(['nat-prerouting', 'services', 'service-ips']);
    expect(p.chains[3]).toMatch(/^service-[A-Z2-7]{8}-default\/web\/tcp\/$/);
    expect(p.chains[4]).toMatch(
      /^endpoint-[A-Z2-7]{8}-default\/web\/tcp\/__10\.244\.[\d.]+\/8080$/,
    );
  });

  it('nftables and ipvs refuse a port the cluster IP does not serve; iptables loses it', () => {
    const exitCode = (mode: string) =>
      run(mode).cluster.kubectl('exec client -- curl -sS -m 2 web:8081').exitCode;
    expect(['nftables', 'ipvs', 'iptables'].map(exitCode)).toEqual([7, 7, 28]);
  });

  it('the node commands show each mode: nft list ruleset, ipvsadm -Ln, iptables-save', () => {
    const nft = run('nftables');
    expect(nft.cluster.exec('node-1', 'nft list ruleset').stdout).toMatch(
      /^table ip kube-proxy \{\n\tcomment "rules for kube-proxy"\n/,
    );
    expect(nft.cluster.exec('node-1', 'sudo iptables-save -t nat').stdout).not.toMatch(
      /KUBE-SERVICES/,
    );
    const ipvs = run('ipvs');
    const vs = ipvs.cluster.exec('node-1', 'ipvsadm -Ln').stdout;
    expect(vs).toMatch(/^IP Virtual Server version 1\.2\.1 \(size=4096\)\n/);
    expect(vs).toMatch(/\nUDP {2}10\.96\.0\.10:53 rr\n/);
    expect(ipvs.cluster.exec('node-1', 'nft list ruleset').stdout).toBe('');
    const ipt = run('iptables');
    expect(ipt.cluster.exec('node-1', 'iptables-save -t nat').stdout).toMatch(/-A KUBE-SERVICES /);
    expect(ipt.cluster.exec('node-1', 'nft list ruleset').stdout).toBe('');
  });

  it('a bad proxyMode is an error naming the field and the modes', () => {
    expect(() => parseScenario(scenario('userspace'), 'proxy-modes.yaml')).toThrow(
      /cluster\.settings\.proxyMode.*found "userspace", expected one of iptables, nftables, ipvs/s,
    );
  });
});

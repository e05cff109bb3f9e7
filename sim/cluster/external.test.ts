import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Node, Service } from '../api/types.ts';
import type { PacketEntry } from '../engine/trace.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';

// lesson7-edge: a fake cloud, ingress-nginx (a NodePort Service) and shop-lb (a LoadBalancer).
function run(): ScenarioRun {
  const r = new ScenarioRun(
    parseScenario(
      readFileSync(new URL('../../content/scenarios/lesson7-edge.yaml', import.meta.url), 'utf8'),
      'lesson7-edge',
    ),
  );
  r.runUntil(60_000);
  return r;
}

const curl = (r: ScenarioRun, args: string) => r.cluster.exec('workstation', `curl ${args}`);

describe('curl from the workstation outside the cluster', () => {
  it("reaches a LoadBalancer Service's EXTERNAL-IP through a node's rules", () => {
    const r = run();
    const out = curl(r, '-s http://203.0.113.10/hostname');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(/^shop-/);
    const p = r.cluster.sim.trace.filter((e): e is PacketEntry => e.kind === 'packet').at(-1)!;
    expect(p.from).toBe('outside/workstation');
    expect(p.outcome).toBe('established');
    expect(p.chains[1]).toMatch(/^KUBE-SVC-/);
  });

  it("reaches the ingress controller on a node's address and its NodePort, routed by the Host header", () => {
    const r = run();
    const svc = r.cluster.apiserver
      .peekAll<Service>('services')
      .find((s) => s.metadata.name === 'ingress-nginx-controller')!;
    const nodePort = svc.spec.ports!.find((p) => p.port === 80)!.nodePort!;
    const node = r.cluster.apiserver
      .peekAll<Node>('nodes')
      .find((n) => n.metadata.name === 'node-2')!;
    const ip = node.status!.addresses!.find((a) => a.type === 'InternalIP')!.address;
    expect(curl(r, `-s -H 'Host: blog.example' http://${ip}:${nodePort}/hostname`).stdout).toMatch(
      /^blog-/,
    );
    expect(curl(r, `-s -H 'Host: shop.example' http://${ip}:${nodePort}/hostname`).stdout).toMatch(
      /^shop-/,
    );
    // A port nothing listens on at a node: the node's kernel refuses.
    expect(curl(r, `-sS http://${ip}:9/`).stderr).toBe(
      `curl: (7) Failed to connect to ${ip} port 9 after 0 ms: Could not connect to server\n`,
    );
  });

  it('has no route to a cluster IP or a Pod address, and resolves no names', () => {
    const r = run();
    const svc = r.cluster.apiserver
      .peekAll<Service>('services')
      .find((s) => s.metadata.name === 'shop')!;
    expect(curl(r, `-sS -m 2 http://${svc.spec.clusterIP}/`).exitCode).toBe(28);
    expect(curl(r, '-sS http://shop.example/').stderr).toBe(
      'curl: (6) Could not resolve host: shop.example\n',
    );
    expect(r.cluster.exec('workstation', 'ls /').exitCode).toBe(127);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario, restore, snapshot } from '../../../sim/index.ts';
import { parse as parseYaml } from 'yaml';
import { decodeHash, encodeHash, parseCommand, type LabState } from './lab-state.ts';
import { nodeStatus, whyChain } from './model.ts';

const yaml = readFileSync(
  new URL('../../../content/scenarios/node-failure.yaml', import.meta.url),
  'utf8',
);
const until = parseScenario(yaml).until;

describe('URL hash', () => {
  const state: LabState = {
    scenario: 'node-failure',
    seed: 7,
    time: 120_000,
    actions: [
      { at: 50_000, fault: 'node-down', node: 'node-1' },
      { at: 60_000, kubectl: 'get pods -l app=wébサーバ' },
      { at: 70_000, exec: 'sudo mv /tmp/kube-apiserver.yaml /etc/kubernetes/manifests/', node: 'control-plane' },
    ],
  };

  it('round-trips a state, non-ASCII included', () => {
    expect(decodeHash(encodeHash(state), 'node-failure', until)).toEqual({ kind: 'ok', state });
  });

  it('reports no hash as none', () => {
    expect(decodeHash('', 'node-failure', until)).toEqual({ kind: 'none' });
    expect(decodeHash('#other=1', 'node-failure', until)).toEqual({ kind: 'none' });
  });

  it('rejects corrupt or hostile hashes without throwing', () => {
    const bad = [
      '#lab=%%%',
      '#lab=bm90IGpzb24',
      `#lab=${btoa('{"v":2}')}`,
      `#lab=${btoa(JSON.stringify({ v: 1, s: 'partition', seed: 7, t: 0, a: [] }))}`,
      `#lab=${btoa(JSON.stringify({ v: 1, s: 'node-failure', seed: 7, t: -5, a: [] }))}`,
      `#lab=${btoa(JSON.stringify({ v: 1, s: 'node-failure', seed: 7, t: 1e12, a: [] }))}`,
      `#lab=${btoa(JSON.stringify({ v: 1, s: 'node-failure', seed: 7, t: 10, a: [{ at: 5, fault: 'etcd-down', node: 'x' }] }))}`,
      `#lab=${btoa(JSON.stringify({ v: 1, s: 'node-failure', seed: 7, t: 10, a: [{ at: 5, fault: 'node-down', node: '<img src=x>' }] }))}`,
      `#lab=${btoa(JSON.stringify({ v: 1, s: 'node-failure', seed: 7, t: 10, a: [{ at: 50, kubectl: 'get pods' }] }))}`,
      `#lab=${btoa(JSON.stringify({ v: 1, s: 'node-failure', seed: 7, t: 10, a: [{ at: 5, exec: 'ls', node: '../x' }] }))}`,
    ];
    for (const h of bad) expect(decodeHash(h, 'node-failure', until).kind, h).toBe('invalid');
  });
});

describe('parseCommand', () => {
  it('reads kubectl and ssh lines', () => {
    expect(parseCommand('  kubectl get pods -o wide ')).toEqual({
      kind: 'kubectl',
      args: 'get pods -o wide',
    });
    expect(parseCommand('ssh node-1 iptables-save -t nat')).toEqual({
      kind: 'exec',
      node: 'node-1',
      line: 'iptables-save -t nat',
    });
    expect(parseCommand('ssh node-1')).toEqual({ kind: 'ssh-usage' });
    expect(parseCommand('ls -l')).toEqual({ kind: 'unknown', program: 'ls' });
    expect(parseCommand('   ')).toEqual({ kind: 'empty' });
  });
});

describe('a run of node-failure', () => {
  const run = restore(snapshot(parseYaml(yaml), 7, 120_000, []));

  it('shows node-1 NotReady two minutes in', () => {
    const node = run.cluster.node('node-1')!;
    expect(nodeStatus(node).status).toBe('NotReady');
  });

  it('explains node-1 by the node lifecycle controller, after its Lease stopped', () => {
    const why = whyChain(run.cluster.sim.trace, 'node', 'node-1');
    expect(why.length).toBeGreaterThan(0);
    expect(
      why.some(
        (w) =>
          w.component === 'node-lifecycle-controller' &&
          w.fields.some((f) => f.startsWith('status.conditions')),
      ),
    ).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario, restore, snapshot } from '../../../sim/index.ts';
import { parse as parseYaml } from 'yaml';
import { decodeHash, encodeHash, MAX_TRANSCRIPT, type Action, type LabState } from './lab-state.ts';
import { perform, replay, streamedRows, type Watch } from './replay.ts';
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
      {
        at: 70_000,
        exec: 'sudo mv /tmp/kube-apiserver.yaml /etc/kubernetes/manifests/',
        node: 'control-plane',
      },
    ],
  };

  it('round-trips a state, non-ASCII included', () => {
    expect(decodeHash(encodeHash(state), 'node-failure', until)).toEqual({ kind: 'ok', state });
  });

  it('carries the console transcript, a manifest and the open Why? panel', () => {
    const full: LabState = {
      ...state,
      actions: [...state.actions, { at: 80_000, kubectl: 'apply -f -', stdin: 'kind: Pod\n' }],
      transcript: [{ line: 'help' }, { line: 'kubectl get pods -l app=wébサーバ', action: 1 }],
      why: 'node:node-1',
    };
    expect(decodeHash(encodeHash(full), 'node-failure', until)).toEqual({
      kind: 'ok',
      state: full,
    });
    // Only the latest lines are kept.
    const long = {
      ...state,
      transcript: Array.from({ length: 150 }, (_, i) => ({ line: `l${i}` })),
    };
    const got = decodeHash(encodeHash(long), 'node-failure', until);
    expect(got.kind === 'ok' && got.state.transcript?.length).toBe(MAX_TRANSCRIPT);
    expect(got.kind === 'ok' && got.state.transcript?.[0]?.line).toBe('l50');
  });

  it('still reads a version 1 link (no transcript)', () => {
    const v1 = `#lab=${btoa(JSON.stringify({ v: 1, s: 'node-failure', seed: 7, t: 10, a: [] }))}`;
    expect(decodeHash(v1, 'node-failure', until)).toEqual({
      kind: 'ok',
      state: { scenario: 'node-failure', seed: 7, time: 10, actions: [] },
    });
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
      `#lab=${btoa(JSON.stringify({ v: 2, s: 'node-failure', seed: 7, t: 10, a: [], c: [{ l: 'get pods', a: 0 }] }))}`,
      `#lab=${btoa(JSON.stringify({ v: 2, s: 'node-failure', seed: 7, t: 10, a: [], c: [{ l: 5 }] }))}`,
      `#lab=${btoa(JSON.stringify({ v: 2, s: 'node-failure', seed: 7, t: 10, a: [], w: 'pod:<script>' }))}`,
      `#lab=${btoa(JSON.stringify({ v: 2, s: 'node-failure', seed: 7, t: 10, a: [{ at: 5, kubectl: 'apply -f -', stdin: 'x'.repeat(30_000) }] }))}`,
    ];
    for (const h of bad) expect(decodeHash(h, 'node-failure', until).kind, h).toBe('invalid');
  });
});

describe('a run of node-failure', () => {
  const run = restore(snapshot(parseYaml(yaml), 7, 120_000, []));

  it('shows node-1 NotReady two minutes in', () => {
    const node = run.cluster.node('node-1')!;
    expect(nodeStatus(node).status).toBe('NotReady');
  });

  it('explains node-1 by the node lifecycle controller, after its Lease stopped', () => {
    const why = whyChain({ trace: run.cluster.sim.trace }, 'node', 'node-1');
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

describe('replaying a shared link', () => {
  const fresh = () => restore(snapshot(parseYaml(yaml), 7, 0, []));
  const watchAt = 30_000;
  const actions: Action[] = [{ at: watchAt, kubectl: 'get deployments -w' }];

  /** live plays the watch as the lab does: in uneven slices, printing rows after each. */
  const live = (until: number) => {
    const run = fresh();
    run.runUntil(watchAt);
    const { result, watch } = perform(run, actions[0]!);
    const w: Watch = { w: watch!, from: run.cluster.apiserver.changes.length };
    let out = result!.stdout;
    for (let t = watchAt; t < until;) {
      t = Math.min(until, t + 1_000 + ((t / 1_000) % 7) * 3_100);
      run.runUntil(t);
      out += streamedRows(run, w);
    }
    return out;
  };

  it('prints the rows a stopped kubectl get -w streamed, as the console showed them', () => {
    const shown = live(120_000);
    // The Deployment changes as its Pods start: the list, then rows.
    expect(shown.split('\n').length).toBeGreaterThan(3);
    expect(shown).toMatch(/\nweb {3}\d\/3 {3}/);
    // The link was made later, after the Deployment changed again (node-1's Pod replaced).
    expect(live(600_000)).not.toBe(shown);
    const { outputs, watch } = replay(fresh(), actions, 600_000, new Map([[0, 120_000]]));
    expect(outputs[0]?.stdout).toBe(shown);
    expect(watch).toBeUndefined();
  });

  it('ends a watch at the next kubectl command, and keeps one still running at the link time', () => {
    const ended = replay(fresh(), [...actions, { at: 120_000, kubectl: 'get nodes' }], 200_000);
    expect(ended.outputs[0]?.stdout).toBe(live(120_000));
    expect(ended.outputs[1]?.stdout).toMatch(/^NAME/);
    expect(ended.watch).toBeUndefined();
    const running = replay(fresh(), actions, 120_000);
    expect(running.outputs[0]?.stdout).toBe(live(120_000));
    expect(running.watch?.w.resource).toBe('deployments');
  });

  it('carries when a watch stopped in the hash, and refuses a stop before its command', () => {
    const state: LabState = {
      scenario: 'node-failure',
      seed: 7,
      time: 200_000,
      actions,
      transcript: [{ line: 'kubectl get deployments -w', action: 0, stopped: 120_000 }],
    };
    expect(decodeHash(encodeHash(state), 'node-failure', until)).toEqual({ kind: 'ok', state });
    const early = encodeHash({ ...state, transcript: [{ line: 'x', action: 0, stopped: 10 }] });
    expect(decodeHash(early, 'node-failure', until).kind).toBe('invalid');
    const local = encodeHash({ ...state, transcript: [{ line: 'help', stopped: 120_000 }] });
    expect(decodeHash(local, 'node-failure', until).kind).toBe('invalid');
  });
});

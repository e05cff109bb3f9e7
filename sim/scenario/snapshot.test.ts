import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ScenarioRun } from './runner.ts';
import { restore, snapshot } from './snapshot.ts';
import { validateScenario } from './loader.ts';

const input = parse(readFileSync(new URL('../../content/scenarios/node-failure.yaml', import.meta.url), 'utf8'));

describe('snapshots', () => {
  it('are plain JSON and restore to the identical state, including the learner\'s actions', () => {
    const live = new ScenarioRun(validateScenario(input), { seed: 9 });
    live.runUntil(40_000);
    live.cluster.kubectl('scale deployment/web --replicas=5');
    live.runUntil(90_000);
    live.cluster.fault('partition', 'node-2');
    live.runUntil(200_000);
    const snap = snapshot(input, 9, 200_000, [
      { at: 40_000, kubectl: 'scale deployment/web --replicas=5' },
      { at: 90_000, fault: 'partition', node: 'node-2' },
    ]);
    const again = restore(JSON.parse(JSON.stringify(snap)));
    expect(JSON.stringify(again.cluster.apiserver.peekAll('pods'))).toBe(JSON.stringify(live.cluster.apiserver.peekAll('pods')));
    expect(JSON.stringify(again.cluster.sim.trace)).toBe(JSON.stringify(live.cluster.sim.trace));
  });
  it('replay node commands, which can change the node (a static Pod manifest moved away)', () => {
    const live = new ScenarioRun(validateScenario(input), { seed: 4 });
    live.runUntil(10_000);
    live.cluster.exec('control-plane', 'sudo mv /etc/kubernetes/manifests/kube-apiserver.yaml /tmp/');
    live.runUntil(60_000);
    const snap = snapshot(input, 4, 60_000, [{ at: 10_000, exec: 'sudo mv /etc/kubernetes/manifests/kube-apiserver.yaml /tmp/', node: 'control-plane' }]);
    const again = restore(JSON.parse(JSON.stringify(snap)));
    expect(JSON.stringify(again.cluster.sim.trace)).toBe(JSON.stringify(live.cluster.sim.trace));
    expect(again.cluster.kubectl('get pods').exitCode).toBe(1);
    expect(again.cluster.exec('control-plane', 'ls /tmp').stdout).toBe('kube-apiserver.yaml\n');
  });
  it('fork: the same snapshot restored twice can then diverge', () => {
    const snap = snapshot(input, 3, 60_000, []);
    const a = restore(snap);
    const b = restore(snap);
    a.cluster.fault('node-down', 'node-2');
    a.runUntil(200_000);
    b.runUntil(200_000);
    expect(a.cluster.kubectl('get nodes').stdout).toMatch(/node-2\s+NotReady/);
    expect(b.cluster.kubectl('get nodes').stdout).toMatch(/node-2\s+Ready/);
  });
});

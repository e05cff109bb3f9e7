// End-to-end behaviour of the whole cluster on the standard scenarios: the outcomes real
// Kubernetes would have.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getNodeCondition, getPodCondition } from '../api/podutil.ts';
import type { Node, Pod, ReplicaSet } from '../api/types.ts';
import { parseTime } from '../engine/clock.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';

function load(name: string) {
  return parseScenario(readFileSync(new URL(`../../content/scenarios/${name}.yaml`, import.meta.url), 'utf8'), `${name}.yaml`);
}

function webPods(run: ScenarioRun): Pod[] {
  return run.cluster.apiserver.peekAll<Pod>('pods').filter((p) => p.metadata.labels?.app === 'web');
}

describe('a fresh cluster', () => {
  it('has a Ready control plane and workers, and kube-system Pods Running at time 0', () => {
    const run = new ScenarioRun(load('apply-to-running'), { freeze: true });
    run.runUntil(0);
    const nodes = run.cluster.apiserver.peekAll<Node>('nodes');
    expect(nodes.map((n) => n.metadata.name)).toEqual(['control-plane', 'node-1', 'node-2', 'node-3']);
    for (const n of nodes) expect(getNodeCondition(n, 'Ready')?.status).toBe('True');
    const sys = run.cluster.apiserver.peekAll<Pod>('pods').filter((p) => p.metadata.namespace === 'kube-system');
    expect(sys.length).toBe(4 + 4 + 2);
    for (const p of sys) expect(p.status.phase).toBe('Running');
    const out = run.cluster.kubectl('get nodes');
    expect(out.stdout.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
    expect(out.stdout).toMatch(/control-plane\s+Ready\s+control-plane\s+60s\s+v1\.34\.1/);
  });

  it('reports the kube-proxy DaemonSet with one ready Pod per node', () => {
    const run = new ScenarioRun(load('apply-to-running'));
    run.runUntil(0);
    const out = run.cluster.kubectl('get daemonsets -n kube-system');
    expect(out.stdout).toMatch(/^kube-proxy\s+4\s+4\s+4\s+4\s+4\s+<none>\s+60s$/m);
  });

  it('answers kubectl get componentstatuses with the deprecation warning, and with the connection error alone while kube-apiserver is down', () => {
    const run = new ScenarioRun(load('apply-to-running'));
    run.runUntil(0);
    const up = run.cluster.kubectl('get componentstatuses');
    expect(up.exitCode).toBe(0);
    expect(up.stdout).toMatch(/^etcd-0\s+Healthy\s+ok/m);
    expect(up.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    run.cluster.fault('apiserver-down');
    const down = run.cluster.kubectl('get componentstatuses');
    expect(down.exitCode).toBe(1);
    expect(down.stdout).toBe('');
    expect(down.stderr).toBe('The connection to the server 10.0.0.10:6443 was refused - did you specify the right host or port?\n');
  });
});

describe('kubectl apply to Running', () => {
  it('runs three Pods within seconds, created by the ReplicaSet controller and bound by the scheduler', () => {
    const run = new ScenarioRun(load('apply-to-running'), { freeze: true });
    run.runUntil(10_000);
    const pods = webPods(run);
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.status.phase).toBe('Running');
      expect(getPodCondition(p, 'Ready')?.status).toBe('True');
      expect(p.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet', controller: true });
    }
    const trace = run.cluster.sim.trace;
    const creates = trace.filter((e) => e.kind === 'request' && e.verb === 'create' && e.resource === 'pods' && e.code === 201);
    expect(new Set(creates.map((e) => e.from))).toEqual(new Set(['replicaset-controller']));
    const binds = trace.filter((e) => e.kind === 'request' && e.resource === 'pods/binding' && e.code === 201);
    expect(binds).toHaveLength(3);
    expect(new Set(binds.map((e) => e.from))).toEqual(new Set(['kube-scheduler']));
    // Only kube-apiserver talks to etcd.
    expect(new Set(trace.filter((e) => e.to === 'etcd').map((e) => e.from))).toEqual(new Set(['kube-apiserver']));
  });
});

describe('node failure', () => {
  it('turns the node NotReady about 50 s after it stops, then replaces its Pod after 300 s', () => {
    const sc = load('node-failure');
    const run = new ScenarioRun(sc, { freeze: true });
    run.runUntil(60_000);
    const victim = webPods(run).find((p) => p.spec.nodeName === 'node-1');
    if (!victim) throw new Error('the scenario must place one of its Pods on node-1');
    const before = new Set(webPods(run).map((p) => p.metadata.uid));
    run.runUntil(sc.until);
    const changes = run.cluster.apiserver.changes;
    const unknownAt = changes.find(
      (c) => c.resource === 'nodes' && c.object.metadata.name === 'node-1' && getNodeCondition(c.object as Node, 'Ready')?.status === 'Unknown',
    )!.t;
    expect(unknownAt).toBeGreaterThanOrEqual(60 + 40);
    expect(unknownAt).toBeLessThanOrEqual(60 + 50 + 5);
    const node = run.cluster.node('node-1')!;
    expect(getNodeCondition(node, 'Ready')).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect(node.spec.taints?.map((t) => `${t.key}:${t.effect}`)).toContain('node.kubernetes.io/unreachable:NoExecute');
    expect(run.cluster.kubectl('get nodes').stdout).toMatch(/node-1\s+NotReady/);
    {
      const deleted = changes.find((c) => c.object.metadata.uid === victim.metadata.uid && c.object.metadata.deletionTimestamp)!;
      expect(deleted.t - unknownAt).toBeGreaterThanOrEqual(299);
      expect(deleted.t - unknownAt).toBeLessThanOrEqual(306);
      const now = webPods(run);
      const running = now.filter((p) => p.status.phase === 'Running' && !p.metadata.deletionTimestamp);
      expect(running).toHaveLength(3);
      expect(running.every((p) => p.spec.nodeName !== 'node-1')).toBe(true);
      const fresh = running.filter((p) => !before.has(p.metadata.uid));
      expect(fresh).toHaveLength(1);
      // The old Pod is never moved: it stays Terminating on the unreachable node.
      const old = now.find((p) => p.metadata.uid === victim.metadata.uid)!;
      expect(old.spec.nodeName).toBe('node-1');
      expect(getPodCondition(old, 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'DeletionByTaintManager' });
      expect(parseTime(old.metadata.deletionTimestamp!)).toBeGreaterThan(0);
    }
  });
});

describe('rolling update', () => {
  it('creates a new ReplicaSet, keeps within maxSurge and maxUnavailable, and rolls back', () => {
    const sc = load('rolling-update');
    const run = new ScenarioRun(sc, { freeze: true }).run();
    const rs = run.cluster.apiserver.peekAll<ReplicaSet>('replicasets').filter((r) => r.metadata.name.startsWith('web-'));
    expect(rs).toHaveLength(2);
    const outputs = run.outputs.map((o) => `${o.command}\n${o.stdout}${o.stderr}`).join('\n');
    expect(outputs).toContain('deployment.apps/web image updated');
    expect(outputs).toContain('deployment.apps/web rolled back');
    const pods = webPods(run).filter((p) => !p.metadata.deletionTimestamp);
    expect(pods).toHaveLength(10);
    expect(pods.every((p) => p.spec.containers[0].image === 'nginx:1.27')).toBe(true);
  });
});

describe('partition', () => {
  it('replaces the Pod of a cut-off node while its container keeps running there, and cleans up after heal', () => {
    const sc = load('partition');
    const run = new ScenarioRun(sc, { freeze: true });
    run.runUntil(59_000);
    const victim = webPods(run).find((p) => p.spec.nodeName === 'node-1');
    if (!victim) throw new Error('the scenario must place one of its Pods on node-1');
    run.runUntil(7 * 60_000);
    const ps = run.cluster.exec('node-1', 'crictl ps');
    {
      expect(ps.stdout).toContain(victim.metadata.name);
      expect(ps.stdout).toMatch(/Running\s+nginx/);
      expect(run.cluster.kubectl('get pods').stdout).toMatch(new RegExp(`${victim.metadata.name}\\s+1/1\\s+Terminating`));
    }
    run.runUntil(sc.until);
    const pods = webPods(run);
    expect(pods.filter((p) => p.status.phase === 'Running' && !p.metadata.deletionTimestamp)).toHaveLength(3);
    // After heal the kubelet finishes the deletion: the old Pod object is gone.
    expect(pods.some((p) => p.metadata.uid === victim.metadata.uid)).toBe(false);
  });
});

describe('broken images', () => {
  it('shows ImagePullBackOff and CrashLoopBackOff with growing restarts', () => {
    const run = new ScenarioRun(load('broken-images'), { freeze: true }).run();
    const [at20, at120] = run.outputs.filter((o) => o.command === 'kubectl get pods');
    expect(at20.stdout).toMatch(/^api-\S+\s+0\/1\s+ImagePullBackOff\s+0\s+20s$/m);
    expect(at20.stdout).toMatch(/^worker-\S+\s+0\/1\s+CrashLoopBackOff\s+1 \(\d+s ago\)\s+20s$/m);
    expect(at120.stdout).toMatch(/^worker-\S+\s+0\/1\s+\S+\s+[3-6] \(\d+s ago\)\s+2m$/m);
  });
});

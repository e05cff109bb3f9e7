// End-to-end behaviour of the whole cluster on the standard scenarios: the outcomes real
// Kubernetes would have.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getNodeCondition, getPodCondition } from '../api/podutil.ts';
import type { Node, Pod, ReplicaSet } from '../api/types.ts';
import { parseTime } from '../engine/clock.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';
import { bornImageSteps } from './cluster.ts';

function load(name: string) {
  return parseScenario(
    readFileSync(new URL(`../../content/scenarios/${name}.yaml`, import.meta.url), 'utf8'),
    `${name}.yaml`,
  );
}

function webPods(run: ScenarioRun): Pod[] {
  return run.cluster.apiserver.peekAll<Pod>('pods').filter((p) => p.metadata.labels?.app === 'web');
}

describe('a fresh cluster', () => {
  it('has a Ready control plane and workers, and kube-system Pods Running at time 0', () => {
    const run = new ScenarioRun(load('apply-to-running'), { freeze: true });
    run.runUntil(0);
    const nodes = run.cluster.apiserver.peekAll<Node>('nodes');
    expect(nodes.map((n) => n.metadata.name)).toEqual([
      'control-plane',
      'node-1',
      'node-2',
      'node-3',
    ]);
    for (const n of nodes) expect(getNodeCondition(n, 'Ready')?.status).toBe('True');
    const sys = run.cluster.apiserver
      .peekAll<Pod>('pods')
      .filter((p) => p.metadata.namespace === 'kube-system');
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
    expect(out.stdout).toMatch(/^kube-proxy\s+4\s+4\s+4\s+4\s+4\s+kubernetes.io\/os=linux\s+60s$/m);
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
    expect(down.stderr).toBe(
      'The connection to the server 10.0.0.10:6443 was refused - did you specify the right host or port?\n',
    );
  });
});

describe('the born image', () => {
  const kubeSystem = (run: ScenarioRun) =>
    run.cluster.apiserver
      .peekAll<Pod>('pods')
      .filter((p) => p.metadata.namespace === 'kube-system')
      .map((p) => `${p.metadata.name} ${p.metadata.uid} ${p.spec.nodeName} ${p.status.podIP}`);

  it('gives every seed the same born cluster, and each seed its own run from there', () => {
    const a = new ScenarioRun(load('apply-to-running'), { seed: 11 }).run();
    const b = new ScenarioRun(load('apply-to-running'), { seed: 12 }).run();
    expect(kubeSystem(a)).toEqual(kubeSystem(b));
    expect(webPods(a).map((p) => p.metadata.name)).not.toEqual(
      webPods(b).map((p) => p.metadata.name),
    );
  });

  it('never draws a UID or generated name its birth drew, whatever the seed', () => {
    for (const seed of [0, 1, 2, 3]) {
      const run = new ScenarioRun(load('apply-to-running'), { seed }).run();
      const all = (
        [
          'pods',
          'replicasets',
          'deployments',
          'services',
          'endpointslices',
          'nodes',
          'leases',
        ] as const
      ).flatMap((r) => run.cluster.apiserver.peekAll(r));
      const uids = all.map((o) => o.metadata.uid);
      expect(new Set(uids).size).toBe(uids.length);
    }
  });

  it('restarts the components without new work: no kube-system Pod restarts, no new Events, node IDs kept', () => {
    const run = new ScenarioRun(load('apply-to-running'), { freeze: true });
    run.runUntil(0);
    const events = run.cluster.apiserver.peekAll<
      { lastTimestamp?: string; eventTime?: string } & Pod
    >('events');
    for (const e of events)
      expect(parseTime(e.lastTimestamp ?? e.eventTime ?? '')).toBeLessThan(-5_000);
    expect(
      events.filter((e) => (e as unknown as { reason: string }).reason === 'RegisteredNode'),
    ).toHaveLength(4);
    for (const p of run.cluster.apiserver.peekAll<Pod>('pods'))
      expect(p.status.containerStatuses?.[0]?.restartCount).toBe(0);
    for (const [name, n] of run.cluster.nodes) {
      const node = run.cluster.node(name)!;
      expect(node.status.nodeInfo?.bootID).toBe(n.runtime.bootID);
      expect(n.runtime.listContainers().filter((c) => c.state === 'CONTAINER_RUNNING').length).toBe(
        run.cluster.apiserver.peekAll<Pod>('pods').filter((p) => p.spec.nodeName === name).length,
      );
    }
  });

  it('lets kubectl and the components change born objects without writing to them (in freeze mode a write throws)', () => {
    const run = new ScenarioRun(load('apply-to-running'), { freeze: true });
    run.runUntil(0);
    const coredns = run.cluster.apiserver
      .peekAll<Pod>('pods')
      .find((p) => p.metadata.name.startsWith('coredns-'))!;
    for (const line of [
      'label nodes node-1 disktype=ssd',
      'taint nodes node-3 k=v:NoSchedule',
      'label pods -n kube-system --all --overwrite tier=system',
      'scale deployment coredns -n kube-system --replicas=3',
      `delete pod -n kube-system ${coredns.metadata.name}`,
      'drain node-2 --ignore-daemonsets',
      'uncordon node-2',
      'set image deployment/coredns -n kube-system coredns=registry.k8s.io/coredns/coredns:v1.12.2',
    ])
      expect(run.cluster.kubectl(line).exitCode, line).toBe(0);
    run.cluster.fault('node-down', 'node-3');
    run.runUntil(600_000);
    expect(run.cluster.kubectl('get deployment coredns -n kube-system').stdout).toMatch(
      /coredns\s+3\/3\s/,
    );
  });

  it("keeps one run's changes to born objects out of every other run", () => {
    const a = new ScenarioRun(load('apply-to-running'));
    a.runUntil(0);
    expect(a.cluster.kubectl('label nodes node-1 disktype=ssd').exitCode).toBe(0);
    expect(a.cluster.kubectl('scale deployment coredns -n kube-system --replicas=3').exitCode).toBe(
      0,
    );
    a.runUntil(30_000);
    const b = new ScenarioRun(load('apply-to-running'));
    b.runUntil(0);
    expect(b.cluster.node('node-1')!.metadata.labels?.disktype).toBeUndefined();
    expect(b.cluster.kubectl('get deployment coredns -n kube-system').stdout).toMatch(
      /coredns\s+2\/2\s/,
    );
  });

  it('can be born in slices with pauses between them, giving the runs an image made at once gives', () => {
    const sc = load('apply-to-running');
    const shape = {
      ...sc,
      cluster: {
        ...sc.cluster,
        nodes: [
          {
            name: 'sliced-1',
            cpu: '4',
            memory: '8Gi',
            pods: 110,
            labels: {},
            taints: [],
            images: [],
          },
        ],
      },
    };
    let pauses = 0;
    for (const steps = bornImageSteps(shape.cluster); !steps.next().done;) pauses++;
    expect(pauses).toBeGreaterThan(5);
    // Runs in freeze mode have an image of their own, made at once when the first one starts.
    const sliced = new ScenarioRun(shape, { seed: 3 }).run();
    const once = new ScenarioRun(shape, { seed: 3, freeze: true }).run();
    expect(JSON.stringify(sliced.result())).toBe(JSON.stringify(once.result()));
  });

  it('is not used for clusters over 64 nodes: those are born in their own run, with its seed', () => {
    const sc = load('apply-to-running');
    const big = {
      ...sc,
      cluster: {
        ...sc.cluster,
        nodes: [
          {
            namePrefix: 'worker-',
            count: 65,
            cpu: '4',
            memory: '8Gi',
            pods: 110,
            labels: {},
            taints: [],
            images: [],
          },
        ],
      },
    };
    const a = new ScenarioRun(big, { seed: 1 });
    const b = new ScenarioRun(big, { seed: 2 });
    a.runUntil(0);
    b.runUntil(0);
    expect(kubeSystem(a)).not.toEqual(kubeSystem(b));
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
      expect(p.metadata.name).toMatch(
        /^web-[bcdfghjklmnpqrstvwxz2456789]+-[bcdfghjklmnpqrstvwxz2456789]{5}$/,
      );
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'ReplicaSet',
        controller: true,
      });
    }
    const trace = run.cluster.sim.trace;
    const creates = trace.filter(
      (e) => e.kind === 'request' && e.verb === 'create' && e.resource === 'pods' && e.code === 201,
    );
    expect(new Set(creates.map((e) => e.from))).toEqual(new Set(['replicaset-controller']));
    const binds = trace.filter(
      (e) => e.kind === 'request' && e.resource === 'pods/binding' && e.code === 201,
    );
    expect(binds).toHaveLength(3);
    expect(new Set(binds.map((e) => e.from))).toEqual(new Set(['kube-scheduler']));
    // Only kube-apiserver talks to etcd.
    expect(new Set(trace.filter((e) => e.to === 'etcd').map((e) => e.from))).toEqual(
      new Set(['kube-apiserver']),
    );
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
      (c) =>
        c.resource === 'nodes' &&
        c.object.metadata.name === 'node-1' &&
        getNodeCondition(c.object as Node, 'Ready')?.status === 'Unknown',
    )!.t;
    expect(unknownAt).toBeGreaterThanOrEqual(60 + 40);
    expect(unknownAt).toBeLessThanOrEqual(60 + 50 + 5);
    const node = run.cluster.node('node-1')!;
    expect(getNodeCondition(node, 'Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    expect(node.spec.taints?.map((t) => `${t.key}:${t.effect}`)).toContain(
      'node.kubernetes.io/unreachable:NoExecute',
    );
    expect(run.cluster.kubectl('get nodes').stdout).toMatch(/node-1\s+NotReady/);
    {
      const deleted = changes.find(
        (c) => c.object.metadata.uid === victim.metadata.uid && c.object.metadata.deletionTimestamp,
      )!;
      expect(deleted.t - unknownAt).toBeGreaterThanOrEqual(299);
      expect(deleted.t - unknownAt).toBeLessThanOrEqual(306);
      const now = webPods(run);
      const running = now.filter(
        (p) => p.status.phase === 'Running' && !p.metadata.deletionTimestamp,
      );
      expect(running).toHaveLength(3);
      expect(running.every((p) => p.spec.nodeName !== 'node-1')).toBe(true);
      const fresh = running.filter((p) => !before.has(p.metadata.uid));
      expect(fresh).toHaveLength(1);
      // The old Pod is never moved: it stays Terminating on the unreachable node.
      const old = now.find((p) => p.metadata.uid === victim.metadata.uid)!;
      expect(old.spec.nodeName).toBe('node-1');
      expect(getPodCondition(old, 'DisruptionTarget')).toMatchObject({
        status: 'True',
        reason: 'DeletionByTaintManager',
      });
      expect(parseTime(old.metadata.deletionTimestamp!)).toBeGreaterThan(0);
    }
  });
});

describe('rolling update', () => {
  it('creates a new ReplicaSet, keeps within maxSurge and maxUnavailable, and rolls back', () => {
    const sc = load('rolling-update');
    const run = new ScenarioRun(sc, { freeze: true }).run();
    const rs = run.cluster.apiserver
      .peekAll<ReplicaSet>('replicasets')
      .filter((r) => r.metadata.name.startsWith('web-'));
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
      expect(run.cluster.kubectl('get pods').stdout).toMatch(
        new RegExp(`${victim.metadata.name}\\s+1/1\\s+Terminating`),
      );
    }
    run.runUntil(sc.until);
    const pods = webPods(run);
    expect(
      pods.filter((p) => p.status.phase === 'Running' && !p.metadata.deletionTimestamp),
    ).toHaveLength(3);
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

describe('client rate limits', () => {
  const scenario = (settings: string) =>
    parseScenario(
      `name: rate\nseed: 1\nuntil: 2m\ncluster:\n  settings:\n${settings}steps:\n  - at: 0s\n    apply: |\n      apiVersion: apps/v1\n      kind: ReplicaSet\n      metadata:\n        name: many\n      spec:\n        replicas: 1000\n        selector:\n          matchLabels:\n            app: many\n        template:\n          metadata:\n            labels:\n              app: many\n          spec:\n            containers:\n              - name: app\n                image: registry.k8s.io/pause:3.10\n`,
      'rate.yaml',
    );
  const podsAt = (settings: string, times: number[]) => {
    const run = new ScenarioRun(scenario(settings), { traceLevel: 'none', recordChanges: false });
    return times.map((t) => {
      run.runUntil(t);
      return run.cluster.apiserver
        .peekAll<Pod>('pods')
        .filter((p) => p.metadata.labels?.app === 'many').length;
    });
  };

  it("hold the ReplicaSet controller to its client's QPS: each create waits for its token", () => {
    // Default 20 QPS, burst 30: the burst goes at once (Pods and their Events), then one create
    // every 50 ms, so 200 Pods in 10 s and the 1,000 at 50 s.
    const [at10, at20, at49, at50] = podsAt('    {}\n', [10_000, 20_000, 49_000, 50_000]);
    expect(at20 - at10).toBe(200);
    expect([at49 < 1000, at50]).toEqual([true, 1000]);
    // Raised to 100 and 100 (scale-5000's setting): 100 a second.
    const [at2, at3, at10Fast] = podsAt(
      '    kubeControllerManagerAPIQPS: 100\n    kubeControllerManagerAPIBurst: 100\n',
      [2_000, 3_000, 10_000],
    );
    expect([at3 - at2, at10Fast]).toEqual([100, 1000]);
  });
});

describe('Event TTL', () => {
  it('kubectl get events shows only the last hour: kube-apiserver stores Events with a 1 h lease', () => {
    const run = new ScenarioRun(load('apply-to-running'), { freeze: true });
    run.runUntil(30 * 60_000);
    const before = run.cluster.kubectl('get events').stdout;
    expect(before).toContain('Scheduled');
    expect(before).toContain('node/node-1');
    // The Deployment's events were written in its first seconds and the nodes' at birth; nothing
    // has been written since, so an hour and a minute after the last write nothing is left.
    run.runUntil(62 * 60_000);
    expect(run.cluster.kubectl('get events').stdout).toBe('');
    expect(run.cluster.kubectl('get events').stderr).toBe(
      'No resources found in default namespace.\n',
    );
    run.cluster.kubectl('cordon node-1');
    run.runUntil(63 * 60_000);
    expect(run.cluster.kubectl('get events').stdout).toMatch(
      /^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE\n\S+ +Normal +NodeNotSchedulable +node\/node-1 +Node node-1 status is now: NodeNotSchedulable\n$/,
    );
  });
});

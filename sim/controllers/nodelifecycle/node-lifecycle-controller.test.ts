import { describe, expect, it } from 'vitest';
import { deepClone } from '../../api/clone.ts';
import type { Event, Lease, Node, NodeCondition, Pod } from '../../api/types.ts';
import { KubeAPIServer } from '../../apiserver/apiserver.ts';
import { Client } from '../../client/client.ts';
import { formatMicroTime, formatTime, parseTime } from '../../engine/clock.ts';
import type { Settings } from '../../engine/settings.ts';
import type { RequestEntry } from '../../engine/trace.ts';
import { Simulation } from '../../engine/simulation.ts';
import { NodeLifecycleController } from './node-lifecycle-controller.ts';
import { frozenAPIServer } from '../../testing.ts';

function newCluster(settings: Partial<Settings> = {}) {
  return frozenAPIServer({ sim: { settings }, namespaces: ['default', 'kube-node-lease'] });
}

function conditions(t: number, ready: 'True' | 'False' = 'True'): NodeCondition[] {
  const ts = formatTime(t);
  const c = (type: string, status: 'True' | 'False', reason: string): NodeCondition => ({
    type,
    status,
    lastHeartbeatTime: ts,
    lastTransitionTime: ts,
    reason,
    message: reason,
  });
  return [
    c('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
    c('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
    c('PIDPressure', 'False', 'KubeletHasSufficientPID'),
    c('Ready', ready, ready === 'True' ? 'KubeletReady' : 'KubeletNotReady'),
  ];
}

function newNode(
  name: string,
  opts: { conds?: NodeCondition[]; labels?: Record<string, string> } = {},
): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, ...opts.labels },
    } as unknown as Node['metadata'],
    spec: {},
    status: { conditions: opts.conds ?? conditions(0) },
  };
}

function newLease(name: string, t: number): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-node-lease' } as Lease['metadata'],
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: formatMicroTime(t) },
  };
}

function newPod(name: string, nodeName: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' } as Pod['metadata'],
    spec: { nodeName, containers: [{ name: 'web', image: 'nginx:1.27' }] },
    status: {
      phase: 'Running',
      podIP: '10.244.1.5',
      conditions: [
        { type: 'PodScheduled', status: 'True', lastTransitionTime: formatTime(0) },
        { type: 'Ready', status: 'True', lastTransitionTime: formatTime(0) },
      ],
    },
  };
}

/** Kubelet is a stand-in that renews the node's Lease every 10s until stopped. */
class FakeKubelet {
  renewing = true;
  lastRenew = -1;
  private readonly sim: Simulation;
  private readonly api: KubeAPIServer;
  readonly node: string;
  constructor(sim: Simulation, api: KubeAPIServer, node: string, offset = 1000) {
    this.sim = sim;
    this.api = api;
    this.node = node;
    sim.after(offset, `renew ${node}`, () => this.renew());
  }
  private renew(): void {
    if (!this.renewing) return;
    if (this.api.down) {
      this.sim.after(10_000, `renew ${this.node}`, () => this.renew());
      return;
    }
    const l = deepClone(this.api.get<Lease>('kubelet', 'leases', 'kube-node-lease', this.node));
    l.spec.renewTime = formatMicroTime(this.sim.now());
    this.api.update(`kubelet@${this.node}`, 'leases', l);
    this.lastRenew = this.sim.now();
    this.sim.after(10_000, `renew ${this.node}`, () => this.renew());
  }
  /** postStatus writes the Ready condition (and a fresh heartbeat), as the kubelet's status loop. */
  postStatus(ready: 'True' | 'False'): void {
    const n = deepClone(this.api.get<Node>('kubelet', 'nodes', undefined, this.node));
    const old = n.status.conditions?.find((c) => c.type === 'Ready');
    const conds = conditions(this.sim.now(), ready);
    if (old?.status === ready) conds[3].lastTransitionTime = old.lastTransitionTime;
    n.status.conditions = conds;
    this.api.update(`kubelet@${this.node}`, 'nodes', n, 'status');
  }
}

function setup(
  names: string[],
  settings: Partial<Settings> = {},
  labels: Record<string, string> = {},
) {
  const { sim, api } = newCluster(settings);
  const kubelets = new Map<string, FakeKubelet>();
  for (const n of names) {
    api.create('test', 'nodes', newNode(n, { labels }));
    api.create('test', 'leases', newLease(n, 0));
    kubelets.set(n, new FakeKubelet(sim, api, n));
  }
  const nlc = new NodeLifecycleController(sim, new Client(api, NodeLifecycleController.NAME));
  nlc.start();
  return { sim, api, nlc, kubelets };
}

const node = (api: KubeAPIServer, name: string) => api.get<Node>('test', 'nodes', undefined, name);
const cond = (n: Node, type: string) => n.status.conditions?.find((c) => c.type === type);
const taints = (n: Node) => (n.spec.taints ?? []).map((t) => `${t.key}:${t.effect}`);
const events = (api: KubeAPIServer) => api.peekAll<Event>('events');

describe('NodeLifecycleController', () => {
  it('registers nodes and removes the admission not-ready:NoSchedule taint once Ready', () => {
    const { sim, api } = setup(['node-1']);
    expect(taints(node(api, 'node-1'))).toEqual(['node.kubernetes.io/not-ready:NoSchedule']);
    sim.runUntil(1000);
    expect(taints(node(api, 'node-1'))).toEqual([]);
    const ev = events(api).find((e) => e.reason === 'RegisteredNode');
    expect(ev?.message).toBe('Node node-1 event: Registered Node node-1 in Controller');
    expect(ev?.source.component).toBe('node-controller');
    expect(ev?.involvedObject.kind).toBe('Node');
  });

  it('keeps a node whose Lease is renewed healthy, writing nothing', () => {
    const { sim, api } = setup(['node-1']);
    sim.runUntil(10_000);
    const rv = node(api, 'node-1').metadata.resourceVersion;
    const before = sim.trace.length;
    sim.runUntil(600_000);
    expect(cond(node(api, 'node-1'), 'Ready')?.status).toBe('True');
    expect(node(api, 'node-1').metadata.resourceVersion).toBe(rv);
    const mine = sim.trace
      .slice(before)
      .filter(
        (e) =>
          e.from === NodeLifecycleController.NAME && (e.kind === 'request' || e.kind === 'timer'),
      );
    expect(mine).toEqual([]);
  });

  it('posts Unknown at the first monitor tick after the grace period, taints and marks pods', () => {
    const { sim, api, kubelets } = setup(['node-1', 'node-2', 'node-3']);
    api.create('test', 'pods', newPod('web-1', 'node-1'));
    sim.runUntil(31_500);
    const k = kubelets.get('node-1')!;
    expect(k.lastRenew).toBe(31_000);
    k.renewing = false;
    // The renewal at 31s is first seen by the tick at 35s: probeTimestamp = 35s, Unknown once now > 85s.
    sim.runUntil(89_999);
    expect(cond(node(api, 'node-1'), 'Ready')?.status).toBe('True');
    sim.runUntil(90_000);
    const n = node(api, 'node-1');
    const ready = cond(n, 'Ready')!;
    expect(ready).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    expect(ready.lastTransitionTime).toBe(formatTime(90_000));
    expect(ready.lastHeartbeatTime).toBe(formatTime(0));
    for (const t of ['MemoryPressure', 'DiskPressure', 'PIDPressure'])
      expect(cond(n, t)?.status).toBe('Unknown');
    // The pod is marked not Ready with a Warning event; the node gets NodeNotReady.
    const pod = api.get<Pod>('test', 'pods', 'default', 'web-1');
    expect(pod.status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      lastTransitionTime: formatTime(90_000),
    });
    expect(
      events(api).find((e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Pod'),
    ).toMatchObject({ type: 'Warning', message: 'Node is not ready' });
    expect(
      events(api).find((e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Node')
        ?.message,
    ).toBe('Node node-1 status is now: NodeNotReady');
    // NoSchedule follows the status at once; NoExecute is queued on the next pass (95s) and
    // applied by the tainting pass 100ms later.
    sim.runUntil(90_010);
    expect(taints(node(api, 'node-1'))).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    sim.runUntil(95_100);
    const t = node(api, 'node-1').spec.taints!.find((x) => x.effect === 'NoExecute')!;
    expect(t).toEqual({
      key: 'node.kubernetes.io/unreachable',
      effect: 'NoExecute',
      timeAdded: formatTime(95_100),
    });
    // The trace shows the pass that changed something.
    expect(
      sim.trace.some((e) => e.kind === 'timer' && e.what === 'monitorNodeHealth' && e.t === 90),
    ).toBe(true);
    expect(
      sim.trace.some(
        (e) => e.kind === 'timer' && e.what === 'doNoExecuteTaintingPass' && e.t === 95.1,
      ),
    ).toBe(true);
  });

  it('honours a shorter nodeMonitorGracePeriod (40s, before v1.32)', () => {
    const { sim, api, kubelets } = setup(['node-1', 'node-2', 'node-3'], {
      nodeMonitorGracePeriod: 40_000,
    });
    sim.runUntil(31_500);
    kubelets.get('node-1')!.renewing = false;
    sim.runUntil(79_999);
    expect(cond(node(api, 'node-1'), 'Ready')?.status).toBe('True');
    sim.runUntil(80_000);
    expect(cond(node(api, 'node-1'), 'Ready')?.lastTransitionTime).toBe(formatTime(80_000));
  });

  it('gives a node that never posted status the startup grace period', () => {
    const { sim, api } = newCluster();
    for (const n of ['node-2', 'node-3']) {
      api.create('test', 'nodes', newNode(n));
      api.create('test', 'leases', newLease(n, 0));
      new FakeKubelet(sim, api, n);
    }
    api.create('test', 'nodes', { ...newNode('node-1'), status: {} });
    new NodeLifecycleController(sim, new Client(api, NodeLifecycleController.NAME)).start();
    sim.runUntil(60_000);
    expect(cond(node(api, 'node-1'), 'Ready')).toBeUndefined();
    sim.runUntil(65_000);
    const ready = cond(node(api, 'node-1'), 'Ready')!;
    expect(ready).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusNeverUpdated',
      message: 'Kubelet never posted node status.',
    });
    expect(ready.lastHeartbeatTime).toBe(node(api, 'node-1').metadata.creationTimestamp);
  });

  it('taints not-ready when the kubelet reports Ready=False, swapping an unreachable taint at once', () => {
    const { sim, api, kubelets } = setup(['node-1', 'node-2', 'node-3']);
    sim.runUntil(31_500);
    const k = kubelets.get('node-1')!;
    k.renewing = false;
    sim.runUntil(100_000);
    expect(taints(node(api, 'node-1')).sort()).toEqual([
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    // The kubelet comes back but reports NotReady.
    sim.runUntil(102_000);
    k.postStatus('False');
    sim.runUntil(102_010);
    expect(taints(node(api, 'node-1')).sort()).toEqual([
      'node.kubernetes.io/not-ready:NoSchedule',
      'node.kubernetes.io/unreachable:NoExecute',
    ]);
    sim.runUntil(105_000);
    expect(taints(node(api, 'node-1')).sort()).toEqual([
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/not-ready:NoSchedule',
    ]);
    expect(cond(node(api, 'node-1'), 'Ready')?.status).toBe('False');
  });

  it('queues a Ready=False node for the not-ready NoExecute taint', () => {
    const { sim, api, kubelets } = setup(['node-1', 'node-2', 'node-3']);
    sim.runUntil(20_500);
    kubelets.get('node-1')!.postStatus('False');
    sim.runUntil(25_000);
    expect(taints(node(api, 'node-1'))).toEqual(['node.kubernetes.io/not-ready:NoSchedule']);
    sim.runUntil(25_100);
    expect(taints(node(api, 'node-1'))).toEqual([
      'node.kubernetes.io/not-ready:NoSchedule',
      'node.kubernetes.io/not-ready:NoExecute',
    ]);
  });

  it('removes the taints when the node is Ready again', () => {
    const { sim, api, kubelets } = setup(['node-1', 'node-2', 'node-3']);
    sim.runUntil(31_500);
    const k = kubelets.get('node-1')!;
    k.renewing = false;
    sim.runUntil(100_000);
    expect(taints(node(api, 'node-1'))).toHaveLength(2);
    k.postStatus('True');
    k.renewing = true;
    sim.runUntil(100_010);
    expect(taints(node(api, 'node-1'))).toEqual(['node.kubernetes.io/unreachable:NoExecute']);
    sim.runUntil(105_000);
    expect(taints(node(api, 'node-1'))).toEqual([]);
    expect(cond(node(api, 'node-1'), 'Ready')?.status).toBe('True');
  });

  it('adds and removes taints with strategic merge patches of nodes (PatchNodeTaints)', () => {
    const { sim, api, kubelets } = setup(['node-1', 'node-2', 'node-3']);
    sim.runUntil(31_500);
    const k = kubelets.get('node-1')!;
    k.renewing = false;
    sim.runUntil(100_000);
    k.postStatus('True');
    k.renewing = true;
    sim.runUntil(105_000);
    const patches = sim.trace.filter(
      (e): e is RequestEntry =>
        e.kind === 'request' &&
        e.verb === 'patch' &&
        e.resource === 'nodes' &&
        e.from === NodeLifecycleController.NAME,
    );
    // The admission not-ready taints of three nodes, then node-1's unreachable taints on and off.
    expect(patches.length).toBeGreaterThanOrEqual(5);
    for (const e of patches) expect(e.patchType).toBe('application/strategic-merge-patch+json');
    expect(taints(node(api, 'node-1'))).toEqual([]);
  });

  it('taints at most one node per 10s in a zone (--node-eviction-rate 0.1)', () => {
    const names = Array.from({ length: 10 }, (_, i) => `node-${i + 1}`);
    const { sim, api, kubelets } = setup(names, {}, { 'topology.kubernetes.io/zone': 'zone-a' });
    sim.runUntil(31_500);
    kubelets.get('node-1')!.renewing = false;
    kubelets.get('node-2')!.renewing = false;
    sim.runUntil(200_000);
    const added = ['node-1', 'node-2'].map((n) =>
      parseTime(node(api, n).spec.taints!.find((t) => t.effect === 'NoExecute')!.timeAdded!),
    );
    // metav1.Time has second precision: 95.1s and 105.1s print as 95s and 105s.
    expect(added).toEqual([95_000, 105_000]);
    const passes = sim.trace
      .filter((e) => e.kind === 'timer' && e.what === 'doNoExecuteTaintingPass')
      .map((e) => e.t);
    expect(passes).toEqual([95.1, 105.1]);
  });

  it('stops tainting when every node is down (master disruption mode)', () => {
    const { sim, api, kubelets, nlc } = setup(['node-1']);
    sim.runUntil(31_500);
    kubelets.get('node-1')!.renewing = false;
    sim.runUntil(300_000);
    expect(cond(node(api, 'node-1'), 'Ready')?.status).toBe('Unknown');
    expect(taints(node(api, 'node-1'))).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    expect(nlc.zoneState('')).toBe('FullDisruption');
  });

  it('taints a cordoned node unschedulable:NoSchedule and untaints it on uncordon', () => {
    const { sim, api } = setup(['node-1']);
    sim.runUntil(1000);
    const n = deepClone(node(api, 'node-1'));
    n.spec.unschedulable = true;
    api.update('kubectl', 'nodes', n);
    sim.runUntil(1010);
    expect(taints(node(api, 'node-1'))).toEqual(['node.kubernetes.io/unschedulable:NoSchedule']);
    const m = deepClone(node(api, 'node-1'));
    delete m.spec.unschedulable;
    api.update('kubectl', 'nodes', m);
    sim.runUntil(1020);
    expect(taints(node(api, 'node-1'))).toEqual([]);
  });

  it('marks a pod bound to a not-Ready node as not Ready', () => {
    const { sim, api, kubelets } = setup(['node-1', 'node-2', 'node-3']);
    sim.runUntil(31_500);
    kubelets.get('node-1')!.renewing = false;
    sim.runUntil(100_000);
    api.create('test', 'pods', newPod('late', 'node-1'));
    sim.runUntil(100_010);
    expect(
      api
        .get<Pod>('test', 'pods', 'default', 'late')
        .status.conditions?.find((c) => c.type === 'Ready')?.status,
    ).toBe('False');
  });

  it('does not judge nodes on caches left stale by a kube-apiserver outage', () => {
    const { sim, api } = setup(['node-1', 'node-2', 'node-3']);
    sim.runUntil(20_000);
    api.down = true;
    api.breakWatches();
    sim.runUntil(140_000);
    api.down = false;
    sim.runUntil(400_000);
    for (const n of ['node-1', 'node-2', 'node-3']) {
      expect(cond(node(api, n), 'Ready')?.status).toBe('True');
      expect(taints(node(api, n))).toEqual([]);
    }
  });
});

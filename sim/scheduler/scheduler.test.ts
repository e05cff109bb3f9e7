import { describe, expect, it } from 'vitest';
import type { Event, Namespace, Node, Pod, ReplicaSet } from '../api/types.ts';
import { KubeAPIServer } from '../apiserver/apiserver.ts';
import { Client, type RateLimits } from '../client/client.ts';
import { Simulation } from '../engine/simulation.ts';
import type { TraceEntry } from '../engine/trace.ts';
import { EtcdStore } from '../etcd/store.ts';
import { Scheduler } from './scheduler.ts';
import { makeNode, makePod, type NodeOptions, type PodOptions } from './testing.ts';
import { frozenAPIServer } from '../testing.ts';

function newCluster(seed = 1, limits?: RateLimits) {
  const { sim, api } = frozenAPIServer({
    sim: { seed, traceLevel: limits ? 'requests' : 'full' },
  });
  const sched = new Scheduler(sim, new Client(api, Scheduler.NAME, limits), {
    eventClient: new Client(api, Scheduler.NAME, limits),
  });
  sched.start();
  // Nodes are created with the not-ready taint (TaintNodesByCondition); a ready node has it removed.
  const node = (name: string, o: NodeOptions = {}) => {
    const n = api.create<Node>('test', 'nodes', makeNode(name, o));
    return api.update<Node>('test', 'nodes', { ...n, spec: { ...n.spec, taints: o.taints } });
  };
  const pod = (name: string, o: PodOptions = {}) => {
    const p = makePod(name, o);
    return api.create<Pod>('test', 'pods', {
      ...p,
      metadata: {
        name,
        namespace: 'default',
        labels: o.labels,
        ownerReferences: p.metadata.ownerReferences,
      } as Pod['metadata'],
    });
  };
  const get = (name: string) => api.get<Pod>('test', 'pods', 'default', name);
  const events = () => api.list<Event>('test', 'events').items;
  return { sim, api, sched, node, pod, get, events };
}

describe('Scheduler', () => {
  it('binds a pending pod through pods/binding and records Scheduled', () => {
    const c = newCluster();
    c.node('n1');
    c.pod('web');
    c.sim.runUntil(100);
    expect(c.get('web').spec.nodeName).toBe('n1');
    const sc = c.get('web').status.conditions?.find((x) => x.type === 'PodScheduled');
    expect(sc?.status).toBe('True');
    const ev = c.events().find((e) => e.reason === 'Scheduled')!;
    expect(ev.message).toBe('Successfully assigned default/web to n1');
    // An events.k8s.io/v1 Event, stored as every Event is (tools/events; pkg/apis/events/v1).
    expect(ev).toMatchObject({
      action: 'Binding',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-control-plane',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: 'Normal',
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', apiVersion: 'v1' },
    });
    expect(ev.count).toBeUndefined();
    expect(ev.eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(
      c.sim.trace.some(
        (t) =>
          t.kind === 'request' &&
          t.verb === 'create' &&
          t.resource === 'events' &&
          t.group === 'events.k8s.io' &&
          t.from === 'kube-scheduler',
      ),
    ).toBe(true);
    const kinds = c.sim.trace.map((t: TraceEntry) => t.kind);
    expect(kinds).toContain('filter');
    expect(kinds).toContain('select');
    expect(
      c.sim.trace.some(
        (t) => t.kind === 'request' && t.resource === 'pods/binding' && t.from === 'kube-scheduler',
      ),
    ).toBe(true);
  });

  it('records FailedScheduling and PodScheduled=False, then schedules the pod when a node that fits appears', () => {
    const c = newCluster();
    c.node('small', { cpu: '1' });
    c.pod('big', { requests: [{ cpu: '2' }] });
    c.sim.runUntil(100);
    expect(c.get('big').spec.nodeName).toBeUndefined();
    const msg =
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
    const failed = c.events().find((e) => e.reason === 'FailedScheduling')!;
    expect(failed.type).toBe('Warning');
    expect(failed.message).toBe(msg);
    expect(failed.reportingComponent).toBe('default-scheduler');
    expect(failed.action).toBe('Scheduling');
    const cond = c.get('big').status.conditions?.find((x) => x.type === 'PodScheduled');
    expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable', message: msg });
    expect(c.sched.queue.whereIs(c.get('big').metadata.uid)).toBe('unschedulable');

    c.node('large', { cpu: '4' });
    c.sim.runUntil(2000);
    expect(c.get('big').spec.nodeName).toBe('large');
  });

  it('counts assumed pods before the binding is observed', () => {
    const c = newCluster();
    c.node('n1', { cpu: '1' });
    c.node('n2', { cpu: '1' });
    for (const n of ['a', 'b']) c.pod(n, { requests: [{ cpu: '600m' }] });
    c.sim.runUntil(100);
    const nodes = ['a', 'b'].map((n) => c.get(n).spec.nodeName);
    expect(new Set(nodes).size).toBe(2);
  });

  it('spreads the pods of a ReplicaSet over nodes and zones (system default PodTopologySpread)', () => {
    const c = newCluster();
    for (const [n, z] of [
      ['a1', 'z1'],
      ['a2', 'z1'],
      ['b1', 'z2'],
      ['b2', 'z2'],
    ])
      c.node(n, { zone: z });
    c.api.create<ReplicaSet>('test', 'replicasets', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' } as ReplicaSet['metadata'],
      spec: {
        replicas: 4,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
      status: { replicas: 0 },
    });
    c.sim.runUntil(50);
    for (let i = 0; i < 4; i++)
      c.pod(`web-${i}`, {
        labels: { app: 'web' },
        ownerReplicaSet: 'web',
        requests: [{ cpu: '100m', memory: '100Mi' }],
      });
    c.sim.runUntil(500);
    const placed = [0, 1, 2, 3].map((i) => c.get(`web-${i}`).spec.nodeName);
    expect(new Set(placed).size).toBe(4);
  });

  it('retries a pod rejected for cpu when an assigned pod is deleted (AssignedPodDelete)', () => {
    const c = newCluster();
    c.node('n1', { cpu: '1' });
    c.pod('a', { requests: [{ cpu: '800m' }] });
    c.sim.runUntil(100);
    c.pod('b', { requests: [{ cpu: '500m' }] });
    c.sim.runUntil(200);
    expect(c.get('b').spec.nodeName).toBeUndefined();
    c.api.delete('test', 'pods', 'default', 'a', { gracePeriodSeconds: 0 });
    c.sim.runUntil(2000);
    expect(c.get('b').spec.nodeName).toBe('n1');
  });

  it('forgets the assumed pod, backs off and retries when binding fails', () => {
    const sim = new Simulation({ seed: 1 });
    const api = new KubeAPIServer(sim, new EtcdStore());
    api.create('test', 'namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'default' },
    } as Namespace);
    let failures = 1;
    class FlakyClient extends Client {
      override bind(namespace: string, name: string, uid: string, nodeName: string): void {
        if (failures-- > 0)
          throw new Error(
            'Post "https://10.0.0.1:6443/api/v1/namespaces/default/pods/p/binding": EOF',
          );
        super.bind(namespace, name, uid, nodeName);
      }
    }
    const sched = new Scheduler(sim, new FlakyClient(api, Scheduler.NAME));
    sched.start();
    const n = api.create<Node>('test', 'nodes', makeNode('n1'));
    api.update<Node>('test', 'nodes', { ...n, spec: {} });
    sim.runUntil(10);
    const p = api.create<Pod>('test', 'pods', {
      ...makePod('p'),
      metadata: { name: 'p', namespace: 'default' } as Pod['metadata'],
    });
    sim.runUntil(20);
    expect(sched.cache.isAssumedPod(p.metadata.uid)).toBe(false);
    expect(sched.cache.getNodeInfo('n1')!.pods.length).toBe(0);
    expect(sched.queue.whereIs(p.metadata.uid)).toBe('backoff');
    const cond = api
      .get<Pod>('test', 'pods', 'default', 'p')
      .status.conditions?.find((x) => x.type === 'PodScheduled');
    expect(cond).toMatchObject({ status: 'False', reason: 'SchedulerError' });
    sim.runUntil(2000);
    expect(api.get<Pod>('test', 'pods', 'default', 'p').spec.nodeName).toBe('n1');
  });

  it('ignores pods for another scheduler and pods that are already bound', () => {
    const c = newCluster();
    c.node('n1');
    c.pod('other', {
      spec: { containers: [{ name: 'c', image: 'x' }], schedulerName: 'my-scheduler' },
    });
    c.pod('static', { nodeName: 'n1', requests: [{ cpu: '1' }] });
    c.sim.runUntil(100);
    expect(c.get('other').spec.nodeName).toBeUndefined();
    expect(c.events().filter((e) => e.involvedObject.name === 'other')).toEqual([]);
    expect(c.sched.cache.getNodeInfo('n1')!.requested.milliCPU).toBe(1000);
  });

  it('traces one filter entry per node evaluated, one score entry per feasible node, and the choice', () => {
    const c = newCluster();
    c.node('cp', {
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    });
    c.node('w1');
    c.node('w2');
    c.sim.runUntil(10);
    c.pod('p', { requests: [{ cpu: '100m', memory: '100Mi' }] });
    c.sim.runUntil(100);
    const filters = c.sim.trace.filter((t) => t.kind === 'filter');
    expect(filters.map((f) => [f.node, f.feasible])).toEqual([
      ['cp', false],
      ['w1', true],
      ['w2', true],
    ]);
    expect(filters[0].plugins.at(-1)).toEqual({
      plugin: 'TaintToleration',
      status: 'UnschedulableAndUnresolvable',
      reason: 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }',
    });
    const scores = c.sim.trace.filter((t) => t.kind === 'score');
    expect(scores.map((s) => s.node)).toEqual(['w1', 'w2']);
    for (const s of scores) {
      expect(s.total).toBe(s.plugins.reduce((a, p) => a + p.score * p.weight, 0));
      expect(s.plugins.find((p) => p.plugin === 'TaintToleration')).toEqual({
        plugin: 'TaintToleration',
        score: 100,
        weight: 3,
      });
    }
    const select = c.sim.trace.find((t) => t.kind === 'select')!;
    expect(select).toMatchObject({ pod: 'default/p', feasibleNodes: 2, evaluatedNodes: 3 });
  });

  it('records only the choice at trace level "requests"', () => {
    const c = newCluster();
    c.sim.traceLevel = 'requests';
    c.node('w1');
    c.node('w2');
    c.sim.runUntil(10);
    c.pod('p');
    c.sim.runUntil(100);
    expect(c.sim.trace.some((t) => t.kind === 'filter' || t.kind === 'score')).toBe(false);
    expect(c.sim.trace.filter((t) => t.kind === 'select')).toHaveLength(1);
  });

  it('is deterministic for a seed', () => {
    const run = (seed: number) => {
      const c = newCluster(seed);
      for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) c.node(n);
      for (let i = 0; i < 12; i++) c.pod(`p${i}`);
      c.sim.runUntil(500);
      return Array.from({ length: 12 }, (_, i) => c.get(`p${i}`).spec.nodeName);
    };
    expect(run(7)).toEqual(run(7));
  });

  // bindTimes are the virtual times (ms) of the pods/binding POSTs in the trace.
  const bindTimes = (c: ReturnType<typeof newCluster>) =>
    c.sim.trace
      .filter((t) => t.kind === 'request' && t.resource === 'pods/binding')
      .map((t) => Math.round(t.t * 1000));

  it('sends bindings at its client QPS once the burst is used', () => {
    const c = newCluster(1, { qps: 2, burst: 3 });
    c.node('n1');
    // The informers' lists and watches (8 requests) left the bucket in debt at start; by 5 s it is full.
    c.sim.runUntil(5_000);
    for (let i = 0; i < 6; i++) c.pod(`p${i}`);
    c.sim.runUntil(15_000);
    const [t0, ...rest] = bindTimes(c);
    expect([t0, ...rest].map((t) => t - t0)).toEqual([0, 0, 0, 500, 1_000, 1_500]);
    for (let i = 0; i < 6; i++) expect(c.get(`p${i}`).spec.nodeName).toBe('n1');
  });

  it('takes virtual time per cycle that grows with the nodes it evaluates', () => {
    const spanFor = (nodes: number) => {
      const c = newCluster(1, { qps: 5000, burst: 5000 });
      for (let i = 0; i < nodes; i++) c.node(`n${i}`);
      c.sim.runUntil(10);
      for (let i = 0; i < 30; i++) c.pod(`p${i}`);
      c.sim.runUntil(10_000);
      const times = bindTimes(c);
      expect(times).toHaveLength(30);
      return times[29] - times[0];
    };
    // 100 nodes: all 100 filtered and scored, 0.66 ms a cycle; 400 nodes: numFeasibleNodesToFind
    // is 188 (47%), 1.24 ms a cycle. 30 cycles: about 19 ms and 36 ms.
    const small = spanFor(100);
    const large = spanFor(400);
    expect(small).toBeGreaterThanOrEqual(18);
    expect(small).toBeLessThanOrEqual(20);
    expect(large).toBeGreaterThanOrEqual(35);
    expect(large).toBeLessThanOrEqual(37);
  });
});

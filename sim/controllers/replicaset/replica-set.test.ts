import { describe, it, expect } from 'vitest';
import { deepClone } from '../../api/clone.ts';
import type {
  AnyObject,
  Event,
  Pod,
  ReplicaSet,
  ObjectMeta,
  ObjectMetaInput,
} from '../../api/types.ts';
import { newConflict, StatusError } from '../../apiserver/errors.ts';
import { Client } from '../../client/client.ts';
import type { RequestEntry } from '../../engine/trace.ts';
import {
  FakeKubelet,
  newTestCluster,
  runningAndReady,
  type TestCluster,
} from '../deployment/testing.ts';
import { getPodsToDelete, ReplicaSetController } from './replica-set.ts';

function newReplicaSet(name: string, replicas: number, minReadySeconds?: number): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' } as ReplicaSet['metadata'],
    spec: {
      replicas,
      minReadySeconds,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
    },
    status: { replicas: 0 },
  };
}

function setup(seed = 1): TestCluster & { rsc: ReplicaSetController } {
  const c = newTestCluster(seed);
  const rsc = new ReplicaSetController(c.sim, new Client(c.apiserver, ReplicaSetController.NAME));
  rsc.start();
  return { ...c, rsc };
}

function pods(c: TestCluster): Pod[] {
  return c.apiserver.peekAll<Pod>('pods');
}

function events(c: TestCluster, reason?: string): Event[] {
  return c.apiserver.peekAll<Event>('events').filter((e) => !reason || e.reason === reason);
}

function scale(c: TestCluster, name: string, replicas: number): void {
  const rs = deepClone(c.kubectl.get<ReplicaSet>('replicasets', 'default', name));
  rs.spec.replicas = replicas;
  c.kubectl.update('replicasets', rs);
}

describe('ReplicaSetController', () => {
  it('creates the Pods with generateName, the template labels and a controller reference', () => {
    const c = setup();
    const rs = c.kubectl.create('replicasets', newReplicaSet('web-7d4b9c8f5d', 3));
    c.sim.runUntil(1000);

    const ps = pods(c);
    expect(ps).toHaveLength(3);
    for (const p of ps) {
      expect(p.metadata.generateName).toBe('web-7d4b9c8f5d-');
      expect(p.metadata.name).toMatch(/^web-7d4b9c8f5d-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(p.metadata.labels).toEqual({ app: 'web-7d4b9c8f5d' });
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web-7d4b9c8f5d',
          uid: rs.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    const created = events(c, 'SuccessfulCreate');
    expect(created.map((e) => e.message).sort()).toEqual(
      ps.map((p) => `Created pod: ${p.metadata.name}`).sort(),
    );
    expect(created[0].source.component).toBe('replicaset-controller');
    expect(created[0].involvedObject).toMatchObject({ kind: 'ReplicaSet', name: 'web-7d4b9c8f5d' });

    const st = c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web-7d4b9c8f5d').status;
    expect(st).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 3,
      observedGeneration: 1,
    });
  });

  it('creates in slow-start batches 1, 2, 4, ... and stops after a failing batch', () => {
    const c = setup();
    // Fail the 3rd create: batch 1 (1 Pod) and batch 2 (2 Pods, one failing) go out, batch 3 never does.
    const client = c.rsc.client;
    const realCreate = client.create.bind(client);
    let creates = 0;
    client.create = <T extends AnyObject>(resource: Parameters<Client['create']>[0], obj: T): T => {
      if (resource === 'pods' && ++creates === 3)
        throw new StatusError({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: 'pods "x" is forbidden: exceeded quota',
          reason: 'Forbidden',
          code: 403,
        });
      return realCreate(resource, obj);
    };
    c.kubectl.create('replicasets', newReplicaSet('web', 10));
    c.sim.runUntil(3); // the first sync only
    expect(creates).toBe(3);
    expect(pods(c)).toHaveLength(2);
    expect(events(c, 'FailedCreate').map((e) => e.message)).toEqual([
      'Error creating: pods "x" is forbidden: exceeded quota',
    ]);
    // The status written by that sync carries the failure.
    const rs = c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web');
    expect(rs.status.conditions?.[0]).toMatchObject({
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: 'pods "x" is forbidden: exceeded quota',
    });
    // The requeue (with back-off) creates the rest, batch by batch: 1, 2, 4, 1.
    c.sim.runUntil(5000);
    expect(pods(c)).toHaveLength(10);
    expect(
      c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web').status.conditions,
    ).toBeUndefined();
  });

  it('creates all Pods of a sync in one burst, capped at burstReplicas', () => {
    const c = newTestCluster(1, { burstReplicas: 4 });
    const rsc = new ReplicaSetController(c.sim, new Client(c.apiserver, ReplicaSetController.NAME));
    rsc.start();
    c.kubectl.create('replicasets', newReplicaSet('web', 10));
    c.sim.runUntil(3);
    expect(pods(c)).toHaveLength(4);
    c.sim.runUntil(1000);
    expect(pods(c)).toHaveLength(10);
    const creates = c.sim.trace.filter(
      (e): e is RequestEntry =>
        e.kind === 'request' && e.verb === 'create' && e.resource === 'pods',
    );
    expect(creates).toHaveLength(10);
  });

  it('does not create more Pods while creations are not yet observed (expectations)', () => {
    const c = setup();
    c.kubectl.create('replicasets', newReplicaSet('web', 3));
    c.sim.runUntil(10_000);
    expect(pods(c)).toHaveLength(3);
    expect(events(c, 'SuccessfulCreate')).toHaveLength(3);
  });

  it('deletes the Pods ranked first: unscheduled, then pending, then not ready', () => {
    const c = setup();
    c.kubectl.create('replicasets', newReplicaSet('web', 4));
    c.sim.runUntil(100);
    const [p1, p2, p3, p4] = pods(c).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    // p1 Running and Ready, p2 Running not Ready, p3 bound but Pending, p4 unscheduled.
    for (const [p, node] of [
      [p1, 'node-a'],
      [p2, 'node-b'],
      [p3, 'node-c'],
    ] as const)
      c.kubectl.bind('default', p.metadata.name, p.metadata.uid, node);
    c.kubectl.updateStatus(
      'pods',
      runningAndReady(c.kubectl.get<Pod>('pods', 'default', p1.metadata.name), c.sim.now()),
    );
    const running = deepClone(c.kubectl.get<Pod>('pods', 'default', p2.metadata.name));
    running.status.phase = 'Running';
    c.kubectl.updateStatus('pods', running);
    c.sim.runUntil(200);

    scale(c, 'web', 1);
    c.sim.runUntil(300);
    const deleted = events(c, 'SuccessfulDelete').map((e) => e.message);
    expect(deleted).toEqual([p4, p3, p2].map((p) => `Deleted pod: ${p.metadata.name}`));
    const active = pods(c).filter((p) => !p.metadata.deletionTimestamp);
    expect(active.map((p) => p.metadata.name)).toEqual([p1.metadata.name]);
    // Bound Pods are deleted gracefully; v1.34 does not report them (terminatingReplicas is alpha).
    const st = c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web').status;
    expect(st).toMatchObject({
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      observedGeneration: 2,
    });
    expect(st.terminatingReplicas).toBeUndefined();
  });

  it('reports availability only after minReadySeconds, requeueing itself to notice', () => {
    const c = setup();
    const kubelet = new FakeKubelet(c, { readyDelay: 1000 });
    kubelet.start();
    c.kubectl.create('replicasets', newReplicaSet('web', 2, 10));
    c.sim.runUntil(5000);
    let st = c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web').status;
    expect(st.readyReplicas).toBe(2);
    expect(st.availableReplicas).toBeUndefined();
    c.sim.runUntil(13_500);
    st = c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web').status;
    expect(st.availableReplicas).toBe(2);
  });

  it('replaces a Pod as soon as it is being deleted', () => {
    const c = setup();
    const kubelet = new FakeKubelet(c, { stopDelay: 30_000 });
    kubelet.start();
    c.kubectl.create('replicasets', newReplicaSet('web', 2));
    c.sim.runUntil(5000);
    const victim = pods(c)[0];
    c.kubectl.delete('pods', 'default', victim.metadata.name);
    c.sim.runUntil(5100);
    const all = pods(c);
    expect(all).toHaveLength(3);
    expect(all.filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(2);
  });

  it('requeues with back-off when the status update conflicts', () => {
    const c = setup();
    const client = c.rsc.client;
    const realUpdateStatus = client.updateStatus.bind(client);
    let failures = 2;
    client.updateStatus = <T extends AnyObject>(
      resource: Parameters<Client['updateStatus']>[0],
      obj: T,
    ): T => {
      if (resource === 'replicasets' && failures-- > 0)
        throw newConflict(
          'replicasets.apps',
          obj.metadata.name,
          'the object has been modified; please apply your changes to the latest version and try again',
        );
      return realUpdateStatus(resource, obj);
    };
    c.kubectl.create('replicasets', newReplicaSet('web', 1));
    c.sim.runUntil(1000);
    expect(c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web').status.replicas).toBe(1);
    expect(pods(c)).toHaveLength(1);
  });

  it('is level-triggered: a second sync changes nothing', () => {
    const c = setup();
    c.kubectl.create('replicasets', newReplicaSet('web', 3));
    c.sim.runUntil(1000);
    const before = c.sim.trace.length;
    expect([...c.rsc.syncReplicaSet('default/web')]).toEqual([]); // no token to wait for
    expect(c.sim.trace.slice(before).filter((e) => e.kind === 'request')).toEqual([]);
  });

  it('stops and starts again with fresh state', () => {
    const c = setup();
    c.rsc.stop();
    c.kubectl.create('replicasets', newReplicaSet('web', 2));
    c.sim.runUntil(1000);
    expect(pods(c)).toHaveLength(0);
    c.rsc.start();
    c.sim.runUntil(2000);
    expect(pods(c)).toHaveLength(2);
  });
});

describe('ReplicaSetController claims Pods', () => {
  it('releases a Pod whose labels no longer match, and replaces it', () => {
    const c = setup();
    new FakeKubelet(c).start();
    c.kubectl.create('replicasets', newReplicaSet('web', 3));
    c.sim.runUntil(5000);
    const victim = pods(c)[0];
    // The classic quarantine: relabel a Pod to take it out of service for debugging.
    c.kubectl.patch('pods', 'default', victim.metadata.name, {
      metadata: { labels: { app: 'debug' } },
    });
    c.sim.runUntil(10_000);
    const released = c.kubectl.get<Pod>('pods', 'default', victim.metadata.name);
    expect(released.metadata.ownerReferences).toBeUndefined();
    // The release is a strategic merge patch deleting the reference by uid (RealPodControl.PatchPod).
    const releaseReq = c.sim.trace.find(
      (e) =>
        e.kind === 'request' &&
        e.verb === 'patch' &&
        e.from === 'replicaset-controller' &&
        e.name === victim.metadata.name,
    );
    expect(releaseReq).toMatchObject({ patchType: 'application/strategic-merge-patch+json' });
    const all = pods(c);
    expect(all).toHaveLength(4);
    const rs = c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web');
    expect(
      all.filter((p) => p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid),
    ).toHaveLength(3);
    expect(rs.status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3 });
  });

  it('adopts a matching orphan Pod and deletes the surplus', () => {
    const c = setup();
    const rs = c.kubectl.create('replicasets', newReplicaSet('web', 2));
    c.sim.runUntil(1000);
    c.kubectl.create<Pod>('pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'stray',
        namespace: 'default',
        labels: { app: 'web' },
      } as ObjectMetaInput as ObjectMeta,
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      status: {},
    });
    c.sim.runUntil(2000);
    const active = pods(c).filter((p) => !p.metadata.deletionTimestamp);
    expect(active).toHaveLength(2);
    for (const p of active) expect(p.metadata.ownerReferences?.[0]?.uid).toBe(rs.metadata.uid);
    // The stray Pod was adopted (a live GET of the ReplicaSet came first), then, as the newest
    // unscheduled Pod, deleted.
    const adoptReq = c.sim.trace.find(
      (e) => e.kind === 'request' && e.verb === 'patch' && e.name === 'stray',
    );
    expect(adoptReq).toMatchObject({ patchType: 'application/strategic-merge-patch+json' });
    expect(events(c, 'SuccessfulDelete').map((e) => e.message)).toEqual(['Deleted pod: stray']);
  });

  it('keeps its counts in step with the Pods through relabels, readiness and deletions', () => {
    const c = setup(3);
    const kubelet = new FakeKubelet(c, { readyDelay: 300, stopDelay: 700 });
    kubelet.start();
    c.kubectl.create('replicasets', newReplicaSet('web', 6));
    const recount = () => {
      const rs = c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web');
      const mine = pods(c).filter(
        (p) =>
          p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid &&
          p.metadata.labels?.app === 'web',
      );
      const active = mine.filter((p) => !p.metadata.deletionTimestamp);
      return {
        replicas: active.length,
        readyReplicas:
          active.filter((p) =>
            p.status.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'),
          ).length || undefined,
      };
    };
    const rng = c.sim.rng.fork('test');
    let checked = 0;
    for (let step = 0; step < 30; step++) {
      c.sim.runUntil(c.sim.now() + 1500);
      // Compare whenever nothing is in flight (the agenda holds no event in the next 20ms).
      if (c.sim.nextEventTime() > c.sim.now() + 20) {
        const st = c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web').status;
        expect({
          replicas: st.replicas,
          readyReplicas: st.readyReplicas,
        }).toEqual(recount());
        checked++;
      }
      const live = pods(c).filter((p) => !p.metadata.deletionTimestamp);
      const p = live[rng.intn(live.length)];
      switch (rng.intn(3)) {
        case 0:
          c.kubectl.delete('pods', 'default', p.metadata.name);
          break;
        case 1:
          if (p.metadata.labels?.app === 'web')
            c.kubectl.patch('pods', 'default', p.metadata.name, {
              metadata: { labels: { app: 'web', extra: String(step) } },
            });
          break;
        default:
          scale(c, 'web', 3 + rng.intn(6));
      }
    }
    expect(checked).toBeGreaterThan(5);
    c.sim.runUntil(c.sim.now() + 10_000);
    const st = c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web').status;
    expect({
      replicas: st.replicas,
      readyReplicas: st.readyReplicas,
    }).toEqual(recount());
    expect(st.replicas).toBe(
      c.kubectl.get<ReplicaSet>('replicasets', 'default', 'web').spec.replicas,
    );
  });
});

describe('getPodsToDelete', () => {
  const pod = (name: string, node: string, uid = name): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid,
      resourceVersion: '1',
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    spec: { containers: [], nodeName: node },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    },
  });

  it('prefers Pods on nodes crowded with related Pods', () => {
    const a = pod('a', 'n1');
    const b = pod('b', 'n2');
    const c = pod('c', 'n2');
    const other = pod('other-rs', 'n1');
    const other2 = pod('other-rs-2', 'n1');
    // n1 has 3 related Pods (a and two of another ReplicaSet), n2 has 2.
    expect(
      getPodsToDelete([b, c, a], [a, b, c, other, other2], 1, 60_000).map((p) => p.metadata.name),
    ).toEqual(['a']);
  });

  it('does not sort when every Pod goes', () => {
    const a = pod('a', 'n1');
    const b = pod('b', '');
    expect(getPodsToDelete([a, b], [], 2, 0).map((p) => p.metadata.name)).toEqual(['a', 'b']);
  });
});

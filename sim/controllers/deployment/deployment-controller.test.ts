import { describe, it, expect } from 'vitest';
import { deepClone } from '../../api/clone.ts';
import { isPodReady } from '../../api/podutil.ts';
import type {
  Deployment,
  Event,
  Pod,
  ReplicaSet,
  ObjectMeta,
  ObjectMetaInput,
} from '../../api/types.ts';
import { Client } from '../../client/client.ts';
import type { RequestEntry } from '../../engine/trace.ts';
import { computeHash } from '../controller-utils.ts';
import { ReplicaSetController } from '../replicaset/replica-set.ts';
import { DeploymentController } from './deployment-controller.ts';
import {
  FakeKubelet,
  newDeployment,
  newTestCluster,
  runUntilChecking,
  type DeploymentOptions,
  type TestCluster,
} from './testing.ts';

interface Cluster extends TestCluster {
  dc: DeploymentController;
  rsc: ReplicaSetController;
  kubelet: FakeKubelet;
}

function setup(seed = 1, kubelet: ConstructorParameters<typeof FakeKubelet>[1] = {}): Cluster {
  const c = newTestCluster(seed);
  const dc = new DeploymentController(c.sim, new Client(c.apiserver, DeploymentController.NAME));
  const rsc = new ReplicaSetController(c.sim, new Client(c.apiserver, ReplicaSetController.NAME));
  const k = new FakeKubelet(c, kubelet);
  dc.start();
  rsc.start();
  k.start();
  return { ...c, dc, rsc, kubelet: k };
}

const deployment = (c: TestCluster, name = 'web') =>
  c.kubectl.get<Deployment>('deployments', 'default', name);
const replicaSets = (c: TestCluster) => c.apiserver.peekAll<ReplicaSet>('replicasets');
const pods = (c: TestCluster) => c.apiserver.peekAll<Pod>('pods');
const activePods = (c: TestCluster) => pods(c).filter((p) => !p.metadata.deletionTimestamp);
const events = (c: TestCluster, reason: string) =>
  c.apiserver
    .peekAll<Event>('events')
    .filter((e) => e.reason === reason)
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
const hashOf = (p: { metadata: { labels?: Record<string, string> } }) =>
  p.metadata.labels?.['pod-template-hash'];

function create(c: TestCluster, name: string, o: DeploymentOptions = {}): Deployment {
  return c.kubectl.create('deployments', newDeployment(name, o));
}

function edit(c: TestCluster, name: string, fn: (d: Deployment) => void): void {
  const d = deepClone(deployment(c, name));
  fn(d);
  c.kubectl.update('deployments', d);
}

function setImage(c: TestCluster, name: string, image: string): void {
  edit(c, name, (d) => (d.spec.template.spec.containers[0].image = image));
}

describe('DeploymentController', () => {
  it('creates <deployment>-<hash> with the pod-template-hash label, revision annotations and an owner', () => {
    const c = setup();
    const d = create(c, 'web', { replicas: 3 });
    c.sim.runUntil(100);

    const rss = replicaSets(c);
    expect(rss).toHaveLength(1);
    const rs = rss[0];
    const hash = computeHash(d.spec.template);
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.metadata.name).toMatch(/^web-[456789bcdf]{1,10}$/);
    expect(rs.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.spec.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash } });
    expect(rs.spec.template.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.spec.replicas).toBe(3);
    expect(rs.metadata.annotations).toEqual({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    expect(rs.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        uid: d.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);

    const ps = pods(c);
    expect(ps).toHaveLength(3);
    for (const p of ps) {
      expect(p.metadata.generateName).toBe(`web-${hash}-`);
      expect(p.metadata.name).toMatch(new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(p.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    }
    expect(events(c, 'ScalingReplicaSet').map((e) => e.message)).toEqual([
      `Scaled up replica set web-${hash} from 0 to 3`,
    ]);
    expect(deployment(c).metadata.annotations).toEqual({
      'deployment.kubernetes.io/revision': '1',
    });
  });

  it('creates the Pods of the first sync in slow-start order, 1 then 2', () => {
    const c = setup();
    create(c, 'web', { replicas: 3 });
    c.sim.runUntil(100);
    const podCreates = c.sim.trace.filter(
      (e): e is RequestEntry =>
        e.kind === 'request' && e.verb === 'create' && e.resource === 'pods',
    );
    expect(podCreates.map((e) => e.from)).toEqual([
      'replicaset-controller',
      'replicaset-controller',
      'replicaset-controller',
    ]);
    // The ReplicaSet is created before any Pod, by the deployment controller.
    const rsCreate = c.sim.trace.find(
      (e) => e.kind === 'request' && e.verb === 'create' && e.resource === 'replicasets',
    )!;
    expect(rsCreate.from).toBe('deployment-controller');
    expect(rsCreate.seq).toBeLessThan(podCreates[0].seq);
  });

  it('reports a complete rollout with upstream conditions and status', () => {
    const c = setup();
    create(c, 'web', { replicas: 3 });
    c.sim.runUntil(10_000);
    const d = deployment(c);
    const rsName = replicaSets(c)[0].metadata.name;
    expect(d.status).toMatchObject({
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
    expect(d.status.unavailableReplicas).toBeUndefined();
    // DeploymentReplicaSetTerminatingReplicas is alpha and off in v1.34.
    expect(d.status.terminatingReplicas).toBeUndefined();
    const conds = Object.fromEntries((d.status.conditions ?? []).map((x) => [x.type, x]));
    expect(conds.Available).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    });
    expect(conds.Progressing).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "${rsName}" has successfully progressed.`,
    });
  });

  it('goes through NewReplicaSetCreated and ReplicaSetUpdated on the way', () => {
    const c = setup();
    create(c, 'web', { replicas: 3 });
    const seen = new Set<string>();
    runUntilChecking(c.sim, 10_000, () => {
      const p = deployment(c).status.conditions?.find((x) => x.type === 'Progressing');
      if (p) seen.add(`${p.reason}: ${p.message}`);
    });
    const rsName = replicaSets(c)[0].metadata.name;
    expect([...seen]).toEqual([
      `NewReplicaSetCreated: Created new replica set "${rsName}"`,
      `ReplicaSetUpdated: ReplicaSet "${rsName}" is progressing.`,
      `NewReplicaSetAvailable: ReplicaSet "${rsName}" has successfully progressed.`,
    ]);
  });

  it('scales a settled Deployment through its one ReplicaSet', () => {
    const c = setup();
    create(c, 'web', { replicas: 3 });
    c.sim.runUntil(10_000);
    edit(c, 'web', (d) => (d.spec.replicas = 5));
    c.sim.runUntil(20_000);
    const rs = replicaSets(c)[0];
    expect(rs.spec.replicas).toBe(5);
    expect(rs.metadata.annotations?.['deployment.kubernetes.io/desired-replicas']).toBe('5');
    expect(rs.metadata.annotations?.['deployment.kubernetes.io/max-replicas']).toBe('7');
    expect(activePods(c)).toHaveLength(5);
    expect(events(c, 'ScalingReplicaSet').map((e) => e.message)).toContain(
      `Scaled up replica set ${rs.metadata.name} from 3 to 5`,
    );
    edit(c, 'web', (d) => (d.spec.replicas = 2));
    c.sim.runUntil(30_000);
    expect(events(c, 'ScalingReplicaSet').map((e) => e.message)).toContain(
      `Scaled down replica set ${rs.metadata.name} from 5 to 2`,
    );
    expect(activePods(c)).toHaveLength(2);
  });

  it('rolls out a new template within maxSurge and maxUnavailable at every moment', () => {
    const c = setup(3, { readyDelay: 2000 });
    create(c, 'web', { replicas: 10 }); // defaults: 25% / 25% -> at most 13 Pods, at least 8 available
    c.sim.runUntil(20_000);
    expect(activePods(c).filter(isPodReady)).toHaveLength(10);
    const oldHash = hashOf(replicaSets(c)[0]);

    setImage(c, 'web', 'nginx:1.28');
    let maxPods = 0;
    let minAvailable = Infinity;
    runUntilChecking(c.sim, 120_000, () => {
      const active = activePods(c);
      maxPods = Math.max(maxPods, active.length);
      minAvailable = Math.min(minAvailable, active.filter(isPodReady).length);
    });
    expect(maxPods).toBe(13);
    expect(minAvailable).toBe(8);

    const rss = replicaSets(c);
    expect(rss).toHaveLength(2);
    const newRS = rss.find((r) => hashOf(r) !== oldHash)!;
    const oldRS = rss.find((r) => hashOf(r) === oldHash)!;
    expect(newRS.spec.replicas).toBe(10);
    expect(oldRS.spec.replicas).toBe(0);
    expect(newRS.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(oldRS.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(deployment(c).metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(activePods(c).every((p) => hashOf(p) === hashOf(newRS))).toBe(true);
    const msgs = events(c, 'ScalingReplicaSet').map((e) => e.message);
    expect(msgs).toContain(`Scaled up replica set ${newRS.metadata.name} from 0 to 3`);
    expect(msgs).toContain(`Scaled down replica set ${oldRS.metadata.name} from 10 to 8`);
    expect(msgs[msgs.length - 1]).toMatch(
      new RegExp(`^Scaled down replica set ${oldRS.metadata.name} from \\d+ to 0$`),
    );
    const p = deployment(c).status.conditions?.find((x) => x.type === 'Progressing');
    expect(p?.message).toBe(`ReplicaSet "${newRS.metadata.name}" has successfully progressed.`);
  });

  it('never scales up and down in the same pass', () => {
    const c = setup(5, { readyDelay: 1500 });
    create(c, 'web', { replicas: 4, maxSurge: 1, maxUnavailable: 1 });
    c.sim.runUntil(20_000);
    setImage(c, 'web', 'nginx:1.28');
    c.sim.runUntil(120_000);
    // Group the deployment controller's ReplicaSet writes by the sync (cause) that made them.
    const scales = c.sim.trace.filter(
      (e): e is RequestEntry =>
        e.kind === 'request' &&
        e.from === 'deployment-controller' &&
        e.verb === 'update' &&
        e.resource === 'replicasets',
    );
    expect(scales.length).toBeGreaterThan(0);
    const byTime = new Map<number, Set<string>>();
    for (const e of scales) {
      const set = byTime.get(e.t) ?? new Set();
      set.add(e.name!);
      byTime.set(e.t, set);
    }
    for (const names of byTime.values()) expect(names.size).toBe(1);
  });

  it('Recreate scales every old Pod away before the new ReplicaSet scales up', () => {
    const c = setup(2, { readyDelay: 1000, stopDelay: 3000 });
    create(c, 'web', { replicas: 3, strategy: { type: 'Recreate' } });
    c.sim.runUntil(10_000);
    const oldHash = hashOf(replicaSets(c)[0]);
    setImage(c, 'web', 'nginx:1.28');
    let overlap = false;
    let sawGap = false;
    runUntilChecking(c.sim, 60_000, () => {
      const ps = pods(c);
      const oldPods = ps.filter((p) => hashOf(p) === oldHash);
      const newPods = ps.filter((p) => hashOf(p) !== oldHash);
      if (oldPods.length && newPods.length) overlap = true;
      if (!oldPods.length && !newPods.length) sawGap = true;
    });
    expect(overlap).toBe(false);
    expect(sawGap).toBe(true);
    const rss = replicaSets(c);
    const newRS = rss.find((r) => hashOf(r) !== oldHash)!;
    expect(newRS.spec.replicas).toBe(3);
    expect(activePods(c).filter(isPodReady)).toHaveLength(3);
    const msgs = events(c, 'ScalingReplicaSet').map((e) => e.message);
    const down = msgs.findIndex((m) => m.startsWith('Scaled down'));
    const up = msgs.findIndex(
      (m) => m === `Scaled up replica set ${newRS.metadata.name} from 0 to 3`,
    );
    expect(down).toBeGreaterThan(0);
    expect(up).toBeGreaterThan(down);
  });

  it('scales proportionally when resized in the middle of a rollout', () => {
    const c = setup(4, { readyDelay: 1000 });
    create(c, 'web', { replicas: 10 });
    c.sim.runUntil(20_000);
    const oldHash = hashOf(replicaSets(c)[0]);
    // The new Pods never become Ready: the rollout stops at old 8, new 5 (13 = 10 + 3).
    c.kubelet.becomesReady = (p) => hashOf(p) === oldHash;
    setImage(c, 'web', 'nginx:broken');
    c.sim.runUntil(60_000);
    let rss = replicaSets(c);
    const size = (pred: (r: ReplicaSet) => boolean) => rss.find(pred)!.spec.replicas;
    expect(size((r) => hashOf(r) === oldHash)).toBe(8);
    expect(size((r) => hashOf(r) !== oldHash)).toBe(5);

    // 20 replicas allow 25: 12 more, shared 8:5 -> old +7, new +5.
    edit(c, 'web', (d) => (d.spec.replicas = 20));
    c.sim.runUntil(61_000);
    rss = replicaSets(c);
    expect(size((r) => hashOf(r) === oldHash)).toBe(15);
    expect(size((r) => hashOf(r) !== oldHash)).toBe(10);
    for (const r of rss)
      expect(r.metadata.annotations?.['deployment.kubernetes.io/max-replicas']).toBe('25');
  });

  it('reports ProgressDeadlineExceeded when the new Pods never become available', () => {
    const c = setup(6, { readyDelay: 1000 });
    create(c, 'web', { replicas: 2, progressDeadlineSeconds: 30 });
    c.sim.runUntil(10_000);
    const oldHash = hashOf(replicaSets(c)[0]);
    c.kubelet.becomesReady = (p) => hashOf(p) === oldHash;
    setImage(c, 'web', 'nginx:broken');
    c.sim.runUntil(30_000);
    let p = deployment(c).status.conditions?.find((x) => x.type === 'Progressing');
    expect(p?.reason).toBe('ReplicaSetUpdated');
    c.sim.runUntil(60_000);
    const newRS = replicaSets(c).find((r) => hashOf(r) !== oldHash)!;
    p = deployment(c).status.conditions?.find((x) => x.type === 'Progressing');
    expect(p).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: `ReplicaSet "${newRS.metadata.name}" has timed out progressing.`,
    });
    // Old Pods keep serving: the Deployment stays Available.
    const a = deployment(c).status.conditions?.find((x) => x.type === 'Available');
    expect(a?.status).toBe('True');
  });

  it('keeps revisionHistoryLimit old ReplicaSets once a rollout completes', () => {
    const c = setup(7, { readyDelay: 500 });
    create(c, 'web', { replicas: 2, revisionHistoryLimit: 1 });
    c.sim.runUntil(10_000);
    for (const image of ['nginx:1.28', 'nginx:1.29', 'nginx:1.30']) {
      setImage(c, 'web', image);
      c.sim.runUntil(c.sim.now() + 30_000);
    }
    const rss = replicaSets(c);
    expect(rss).toHaveLength(2);
    const revs = rss
      .map((r) => r.metadata.annotations?.['deployment.kubernetes.io/revision'])
      .sort();
    expect(revs).toEqual(['3', '4']);
  });

  it('does not roll out while paused, and does on resume', () => {
    const c = setup(8, { readyDelay: 500 });
    create(c, 'web', { replicas: 2 });
    c.sim.runUntil(10_000);
    edit(c, 'web', (d) => {
      d.spec.paused = true;
      d.spec.template.spec.containers[0].image = 'nginx:1.28';
    });
    c.sim.runUntil(20_000);
    expect(replicaSets(c)).toHaveLength(1);
    const p = deployment(c).status.conditions?.find((x) => x.type === 'Progressing');
    expect(p).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    });

    edit(c, 'web', (d) => (d.spec.paused = false));
    c.sim.runUntil(60_000);
    expect(replicaSets(c)).toHaveLength(2);
    expect(activePods(c).every((x) => x.spec.containers[0].image === 'nginx:1.28')).toBe(true);
  });

  it('rolls back by reusing the old ReplicaSet, moving its revision to the history', () => {
    const c = setup(9, { readyDelay: 500 });
    create(c, 'web', { replicas: 2 });
    c.sim.runUntil(10_000);
    const first = replicaSets(c)[0].metadata.name;
    setImage(c, 'web', 'nginx:1.28');
    c.sim.runUntil(40_000);
    setImage(c, 'web', 'nginx:1.27');
    c.sim.runUntil(80_000);
    const rss = replicaSets(c);
    expect(rss).toHaveLength(2);
    const rs = rss.find((r) => r.metadata.name === first)!;
    expect(rs.spec.replicas).toBe(2);
    expect(rs.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(rs.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(deployment(c).metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
  });

  it('adopts a matching orphan ReplicaSet with the same template instead of creating one', () => {
    const c = setup(12, { readyDelay: 500 });
    const template = newDeployment('web').spec.template;
    const orphan = c.kubectl.create<ReplicaSet>('replicasets', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-manual',
        namespace: 'default',
        labels: { app: 'web' },
      } as ObjectMetaInput as ObjectMeta,
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template },
      status: { replicas: 0 },
    });
    c.sim.runUntil(5000);
    create(c, 'web', { replicas: 2 });
    c.sim.runUntil(15_000);
    const rss = replicaSets(c);
    expect(rss.map((r) => r.metadata.name)).toEqual(['web-manual']);
    const rs = rss[0];
    expect(rs.metadata.uid).toBe(orphan.metadata.uid);
    expect(rs.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Deployment',
      name: 'web',
      controller: true,
    });
    expect(rs.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    // Adopted with a strategic merge patch (RealRSControl.PatchReplicaSet).
    const adoptReq = c.sim.trace.find(
      (e) => e.kind === 'request' && e.verb === 'patch' && e.name === 'web-manual',
    );
    expect(adoptReq).toMatchObject({ patchType: 'application/strategic-merge-patch+json' });
    const p = deployment(c).status.conditions?.find((x) => x.type === 'Progressing');
    expect(p?.reason).toBe('NewReplicaSetAvailable');
  });

  it('releases an owned ReplicaSet whose labels stop matching', () => {
    const c = setup(13, { readyDelay: 500 });
    create(c, 'web', { replicas: 1 });
    c.sim.runUntil(5000);
    const rs = replicaSets(c)[0];
    c.kubectl.patch('replicasets', 'default', rs.metadata.name, {
      metadata: { labels: { app: 'other' } },
    });
    c.sim.runUntil(10_000);
    expect(
      c.kubectl.get<ReplicaSet>('replicasets', 'default', rs.metadata.name).metadata
        .ownerReferences,
    ).toBeUndefined();
    // The Deployment has lost its ReplicaSet and creates it again under a collision-free name.
    const mine = replicaSets(c).filter((r) => r.metadata.ownerReferences?.[0]?.name === 'web');
    expect(mine).toHaveLength(1);
    expect(mine[0].metadata.name).not.toBe(rs.metadata.name);
    expect(deployment(c).status.collisionCount).toBe(1);
  });

  it('is deterministic: the same seed gives the same trace', () => {
    const run = () => {
      const c = setup(11, { readyDelay: 700 });
      create(c, 'web', { replicas: 5 });
      c.sim.runUntil(10_000);
      setImage(c, 'web', 'nginx:1.28');
      c.sim.runUntil(60_000);
      return JSON.stringify(c.sim.trace);
    };
    expect(run()).toBe(run());
  });

  it('stays quiet once settled: a resync writes nothing', () => {
    const c = setup();
    create(c, 'web', { replicas: 3 });
    c.sim.runUntil(10_000);
    const before = c.sim.trace.length;
    expect([...c.dc.syncDeployment('default/web')]).toEqual([]); // no token to wait for
    expect(c.sim.trace.slice(before).filter((e) => e.kind === 'request')).toEqual([]);
  });
});

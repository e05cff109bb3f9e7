// Run facts that lesson prose quotes (times, names, scores) and that no figure component can show.
// Each test runs the scenario and seed the lesson names and checks one sentence. When one fails,
// the simulator's behaviour changed: update the sentence named in the test (English and Japanese
// page) to what the run now does, then this test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioRun, type RunResult } from '../../sim/index.ts';

const SCENARIOS = join(process.cwd(), 'content', 'scenarios');
const L3 = 'lessons/03-node-failure/01-when-a-node-fails.mdx';
const L4 = 'lessons/04-resources-and-rollouts/01-resources-rollouts-scaling.mdx';
const L5 = 'lessons/05-interview-drill/01-interview-drill.mdx';

// Objects in a run are plain API objects; the tests read a few fields by path.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Obj = any;
interface Change {
  t: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: string;
  object: Obj;
}
/** allChanges is the run's changes, with objects read loosely. */
const allChanges = (r: RunResult): Change[] => r.changes;

const cache = new Map<string, RunResult>();
function run(name: string, seed: number): RunResult {
  const key = `${name}@${seed}`;
  let r = cache.get(key);
  if (!r) {
    const file = join(SCENARIOS, `${name}.yaml`);
    r = new ScenarioRun(parseScenario(readFileSync(file, 'utf8'), file), { seed }).run().result();
    cache.set(key, r);
  }
  return r;
}

/** rounded rounds virtual seconds to the digits the prose uses. */
const rounded = (t: number, digits: number): number => Number(t.toFixed(digits));

function changesOf(r: RunResult, resource: string, name?: string, namespace?: string): Change[] {
  return allChanges(r).filter(
    (c) =>
      c.resource === resource &&
      (name === undefined || c.object.metadata.name === name) &&
      (namespace === undefined || c.object.metadata.namespace === namespace),
  );
}

/** leaseRenewals lists the times a node's Lease was written (its renewals). */
function leaseRenewals(r: RunResult, node: string): number[] {
  return changesOf(r, 'leases', node, 'kube-node-lease').map((c) => c.t);
}

const condition = (o: Obj, type: string): Obj =>
  (o.status?.conditions ?? []).find((c: Obj) => c.type === type);
const taints = (o: Obj): string[] => (o.spec?.taints ?? []).map((t: Obj) => `${t.key}:${t.effect}`);

/** firstTime is the first change to resource/name after `after` for which pred holds. */
function firstTime(
  r: RunResult,
  resource: string,
  name: string,
  pred: (o: Obj) => boolean,
  after = 0,
): number | undefined {
  return changesOf(r, resource, name).find((c) => c.t > after && pred(c.object))?.t;
}

/** nodeFacts are the times the lesson 3 tables quote for node-1 and its web Pod. */
function nodeFacts(r: RunResult) {
  const unknown = firstTime(
    r,
    'nodes',
    'node-1',
    (o) => condition(o, 'Ready')?.status === 'Unknown',
  );
  const noSchedule = firstTime(r, 'nodes', 'node-1', (o) =>
    taints(o).includes('node.kubernetes.io/unreachable:NoSchedule'),
  );
  const noExecute = firstTime(r, 'nodes', 'node-1', (o) =>
    taints(o).includes('node.kubernetes.io/unreachable:NoExecute'),
  );
  const old = webPods(r).find(
    (p) => p.spec.nodeName === 'node-1' && p.metadata.creationTimestamp === '2026-01-01T00:00:00Z',
  );
  const deleted = old
    ? firstTime(r, 'pods', old.metadata.name, (o) => o.metadata.deletionTimestamp !== undefined)
    : undefined;
  const replacement = webPods(r).find(
    (p) => changesOf(r, 'pods', p.metadata.name).find((c) => c.type === 'ADDED')!.t > 60,
  );
  const replacementRunning = replacement
    ? firstTime(
        r,
        'pods',
        replacement.metadata.name,
        (o) => condition(o, 'Ready')?.status === 'True',
      )
    : undefined;
  return { unknown, noSchedule, noExecute, old, deleted, replacement, replacementRunning };
}

/** webPods lists every default/web Pod the run ever had, as last seen. */
function webPods(r: RunResult): Obj[] {
  const last = new Map<string, Obj>();
  for (const c of allChanges(r))
    if (
      c.resource === 'pods' &&
      c.object.metadata.namespace === 'default' &&
      c.object.metadata.labels?.app === 'web'
    )
      last.set(c.object.metadata.name, c.object);
  return [...last.values()];
}

describe(`${L3} (node-failure, seed 7)`, () => {
  const r = () => run('node-failure', 7);

  it("lesson3-node-failure.yaml (lesson 3's copy with extra kubectl steps) runs exactly like node-failure", () => {
    const copy = run('lesson3-node-failure', 7);
    expect(JSON.stringify(copy.changes)).toBe(JSON.stringify(allChanges(r())));
  });

  it('"`kubelet@node-1` renewed its Lease at 43.64 s and again at 53.74 s" (its last renewals before the fault)', () => {
    const before = leaseRenewals(r(), 'node-1').filter((t) => t < 60);
    expect(before.slice(-2).map((t) => rounded(t, 2))).toEqual([43.64, 53.74]);
    expect(leaseRenewals(r(), 'node-1').filter((t) => t >= 60)).toEqual([]);
  });

  it('"node-3 and node-2 renew at 60.8 s and 63.2 s"', () => {
    const firstAfterFault = (n: string) =>
      rounded(
        leaseRenewals(r(), n).find((t) => t > 60)!,
        1,
      );
    expect(firstAfterFault('node-3')).toBe(60.8);
    expect(firstAfterFault('node-2')).toBe(63.2);
  });

  it('"the Ready condition\'s last heartbeat is from 00:00:10" while "the Lease was last renewed at 00:00:53"', () => {
    const node = r().objects.nodes!.find((n) => n.metadata.name === 'node-1');
    expect(condition(node, 'Ready').lastHeartbeatTime).toBe('2026-01-01T00:00:10Z');
    const lease: Obj = r().objects.leases!.find((l) => l.metadata.name === 'node-1');
    expect(String(lease.spec.renewTime)).toMatch(/^2026-01-01T00:00:53/);
  });

  it('"the controller saw node-1\'s last renewal (53.74 s) on its monitor pass at 55 s ... The pass at 110 s ... set Ready to Unknown"', () => {
    const last = leaseRenewals(r(), 'node-1')
      .filter((t) => t < 60)
      .at(-1)!;
    expect(Math.ceil(last / 5) * 5).toBe(55);
    expect(nodeFacts(r()).unknown).toBe(110);
  });

  it('"It set the `Ready` condition of the `web` Pod on node-1 to `False`" at 110 s', () => {
    const { old } = nodeFacts(r());
    expect(
      firstTime(
        r(),
        'pods',
        old.metadata.name,
        (o) => condition(o, 'Ready')?.status === 'False',
        60,
      ),
    ).toBe(110);
  });

  it('"It added the taint `node.kubernetes.io/unreachable:NoSchedule` (at 110.002 s) ... at 115.1 s, it added `node.kubernetes.io/unreachable:NoExecute`"', () => {
    const f = nodeFacts(r());
    expect(f.noSchedule).toBe(110.002);
    expect(rounded(f.noExecute!, 1)).toBe(115.1);
  });

  it('"At 415.1 s the timer fired": the old Pod gets `DisruptionTarget=True`, reason `DeletionByTaintManager`, then a deletionTimestamp', () => {
    const { old, deleted } = nodeFacts(r());
    expect(rounded(deleted!, 1)).toBe(415.1);
    const dt = condition(old, 'DisruptionTarget');
    expect(dt?.status).toBe('True');
    expect(dt?.reason).toBe('DeletionByTaintManager');
    const marked = firstTime(
      r(),
      'pods',
      old.metadata.name,
      (o) => condition(o, 'DisruptionTarget') !== undefined,
    )!;
    expect(marked).toBeLessThanOrEqual(deleted!);
  });

  it('"the old Pod stays `Terminating` for the rest of the run (15 minutes)"', () => {
    const { old } = nodeFacts(r());
    expect(r().until).toBe(900);
    const atEnd = r().objects.pods!.find((p) => p.metadata.name === old.metadata.name);
    expect(atEnd?.metadata.deletionTimestamp).toBeDefined();
  });

  it('"`web-866d49775d` had two active Pods ... and 2 ms later it created a new Pod"; "415.104 s: the ReplicaSet controller creates `web-866d49775d-pt429`"', () => {
    const { deleted, replacement } = nodeFacts(r());
    expect(replacement.metadata.name).toBe('web-866d49775d-pt429');
    expect(replacement.metadata.ownerReferences[0].name).toBe('web-866d49775d');
    const created = changesOf(r(), 'pods', replacement.metadata.name).find(
      (c) => c.type === 'ADDED',
    )!.t;
    expect(created).toBe(415.104);
    expect(rounded(created - deleted!, 3)).toBe(0.002);
  });

  it('"415.106 s: the scheduler ... scores node-2 and node-3 (a tie, 681 points each ...) and binds the Pod to node-2"', () => {
    const pod = `default/${nodeFacts(r()).replacement.metadata.name}`;
    const scores = r().trace.filter((e) => e.kind === 'score' && e.pod === pod);
    expect(scores.map((e) => (e.kind === 'score' ? `${e.node}=${e.total}` : ''))).toEqual([
      'node-2=681',
      'node-3=681',
    ]);
    const select = r().trace.find((e) => e.kind === 'select' && e.pod === pod);
    expect(select?.t).toBe(415.106);
    expect(select?.kind === 'select' && select.node).toBe('node-2');
    const filters = r().trace.filter((e) => e.kind === 'filter' && e.pod === pod && !e.feasible);
    expect(filters.map((e) => (e.kind === 'filter' ? e.node : '')).sort()).toEqual([
      'control-plane',
      'node-1',
    ]);
  });

  it('"416.1 s: the kubelet on node-2 reports the Pod Running and Ready"', () => {
    const { replacement, replacementRunning } = nodeFacts(r());
    expect(rounded(replacementRunning!, 1)).toBe(416.1);
    expect(replacement.spec.nodeName).toBe('node-2');
    expect(replacement.status.phase).toBe('Running');
  });

  it('"The old Pod `web-866d49775d-t5x2t` (uid `d0a1dd3e-…`) ... The replacement `web-866d49775d-pt429` (uid `ccd9849e-…`)"', () => {
    const { old, replacement } = nodeFacts(r());
    expect(old.metadata.name).toBe('web-866d49775d-t5x2t');
    expect(old.metadata.uid).toMatch(/^d0a1dd3e-/);
    expect(old.spec.nodeName).toBe('node-1');
    expect(replacement.metadata.uid).toMatch(/^ccd9849e-/);
  });

  it('the table "Moving the timeline": node-failure 110 s, 115.1 s, 415.1 s, 416.1 s', () => {
    const f = nodeFacts(r());
    expect([
      f.unknown,
      rounded(f.noExecute!, 1),
      rounded(f.deleted!, 1),
      rounded(f.replacementRunning!, 1),
    ]).toEqual([110, 115.1, 415.1, 416.1]);
  });

  it('the table "Moving the timeline": node-failure-40s 100 s, 105.1 s, 405.1 s, 406.1 s', () => {
    const f = nodeFacts(run('node-failure-40s', 7));
    expect([
      f.unknown,
      rounded(f.noExecute!, 1),
      rounded(f.deleted!, 1),
      rounded(f.replacementRunning!, 1),
    ]).toEqual([100, 105.1, 405.1, 406.1]);
  });

  it('the table "Moving the timeline": node-failure-toleration-60s 110 s, 115.1 s, 175.1 s, 176.1 s', () => {
    const f = nodeFacts(run('node-failure-toleration-60s', 7));
    expect([
      f.unknown,
      rounded(f.noExecute!, 1),
      rounded(f.deleted!, 1),
      rounded(f.replacementRunning!, 1),
    ]).toEqual([110, 115.1, 175.1, 176.1]);
  });
});

describe(`${L3} (partition, seed 7)`, () => {
  const r = () => run('partition', 7);

  it('"the run follows the same timeline: `Unknown` at 110 s, the NoExecute taint at 115.1 s, the Pod deleted and its replacement created at 415.1 s and Running on node-2 at 416.1 s"', () => {
    const f = nodeFacts(r());
    expect([
      f.unknown,
      rounded(f.noExecute!, 1),
      rounded(f.deleted!, 1),
      rounded(f.replacementRunning!, 1),
    ]).toEqual([110, 115.1, 415.1, 416.1]);
    const created = changesOf(r(), 'pods', f.replacement.metadata.name).find(
      (c) => c.type === 'ADDED',
    )!.t;
    expect(rounded(created, 1)).toBe(415.1);
    expect(f.replacement.spec.nodeName).toBe('node-2');
  });

  it('"At 480 s the link comes back. The kubelet renews its Lease at 482.4 s and posts `Ready=True` at 488.7 s"', () => {
    const heal = r().trace.find((e) => e.kind === 'fault' && e.fault === 'heal');
    expect(heal?.t).toBe(480);
    expect(
      rounded(
        leaseRenewals(r(), 'node-1').find((t) => t > 480)!,
        1,
      ),
    ).toBe(482.4);
    const ready = firstTime(
      r(),
      'nodes',
      'node-1',
      (o) => condition(o, 'Ready')?.status === 'True',
      480,
    )!;
    expect(rounded(ready, 1)).toBe(488.7);
  });

  it('"the node lifecycle controller removes the NoSchedule taint at once and the NoExecute taint on its pass at 490 s"', () => {
    const ready = firstTime(
      r(),
      'nodes',
      'node-1',
      (o) => condition(o, 'Ready')?.status === 'True',
      480,
    )!;
    const noSchedule = firstTime(
      r(),
      'nodes',
      'node-1',
      (o) => !taints(o).includes('node.kubernetes.io/unreachable:NoSchedule'),
      480,
    )!;
    const noExecute = firstTime(
      r(),
      'nodes',
      'node-1',
      (o) => !taints(o).includes('node.kubernetes.io/unreachable:NoExecute'),
      480,
    )!;
    expect(noSchedule - ready).toBeLessThan(0.01);
    expect(noExecute).toBe(490);
  });

  it('"At 501.2 s the kubelet ... stops the container, and removes the Pod object (501.8 s)"; "From 416.1 s to 501.2 s, about 85 seconds"', () => {
    const { old, replacementRunning } = nodeFacts(r());
    const stop = r().trace.find(
      (e) =>
        e.kind === 'call' &&
        e.method === 'StopContainer' &&
        e.pod === `default/${old.metadata.name}`,
    )!;
    expect(rounded(stop.t, 1)).toBe(501.2);
    const gone = changesOf(r(), 'pods', old.metadata.name).find((c) => c.type === 'DELETED')!.t;
    expect(rounded(gone, 1)).toBe(501.8);
    expect(Math.round(stop.t - replacementRunning!)).toBe(85);
  });
});

describe(`${L4} (lesson4-scale, seed 4)`, () => {
  const r = () => run('lesson4-scale', 4);
  const created = (name: string) => changesOf(r(), 'pods', name).find((c) => c.type === 'ADDED')!.t;
  const everyPod = () =>
    webPods(r())
      .map((p) => p.metadata.name)
      .sort();

  it('"Its name is the Deployment\'s name plus the `pod-template-hash` of the template: `web-d76966756`"; "`web-d76966756-m6lxk`"', () => {
    const rs = r().objects.replicasets!.filter((x) => x.metadata.namespace === 'default');
    expect(rs.map((x) => x.metadata.name)).toEqual(['web-d76966756']);
    expect(everyPod()).toContain('web-d76966756-m6lxk');
  });

  it('"Only three of the four new Pods were bound. Fifteen seconds later, one is still `Pending`" (web-d76966756-gpzp2)', () => {
    const fresh = everyPod().filter((n) => created(n) === 30.004);
    expect(fresh).toEqual([
      'web-d76966756-cxxbq',
      'web-d76966756-dcz4r',
      'web-d76966756-gphtr',
      'web-d76966756-gpzp2',
    ]);
    const bound = fresh.filter(
      (n) => firstTime(r(), 'pods', n, (o) => o.spec.nodeName !== undefined) !== undefined,
    );
    expect(bound).toHaveLength(3);
    expect(fresh.filter((n) => !bound.includes(n))).toEqual(['web-d76966756-gpzp2']);
  });

  it('"node-1 holds two `web` Pods (2 × 1500m = 3000m); node-2 and node-3 hold two each plus a CoreDNS Pod (100m)"', () => {
    const at45 = new Map<string, Obj>();
    for (const c of allChanges(r()))
      if (c.t <= 45 && c.resource === 'pods')
        at45.set(
          `${c.object.metadata.namespace}/${c.object.metadata.name}`,
          c.type === 'DELETED' ? undefined : c.object,
        );
    const on = (node: string, prefix: string) =>
      [...at45.values()].filter(
        (p) => p && p.spec.nodeName === node && p.metadata.name.startsWith(prefix),
      ).length;
    expect([on('node-1', 'web-'), on('node-2', 'web-'), on('node-3', 'web-')]).toEqual([2, 2, 2]);
    // CoreDNS was placed during the cluster's birth, before 0, so it is in objects, not in changes.
    const dns = r().objects.pods!.filter((p) => p.metadata.name.startsWith('coredns-'));
    expect(
      ['node-1', 'node-2', 'node-3'].map(
        (n) => dns.filter((p: Obj) => p.spec.nodeName === n).length,
      ),
    ).toEqual([0, 1, 1]);
    expect(dns.map((p: Obj) => p.spec.containers[0].resources.requests.cpu)).toEqual([
      '100m',
      '100m',
    ]);
  });

  it('"At 60 s ... it deleted `web-d76966756-gpzp2` and `web-d76966756-cxxbq`"', () => {
    const gone = changesOf(r(), 'pods').filter(
      (c) =>
        c.t >= 60 &&
        c.t < 61 &&
        (c.type === 'DELETED' || c.object.metadata.deletionTimestamp !== undefined),
    );
    expect([...new Set(gone.map((c) => c.object.metadata.name))].sort()).toEqual([
      'web-d76966756-cxxbq',
      'web-d76966756-gpzp2',
    ]);
  });

  it('"the three Pods that became ready at 31 s from the three that had been ready since 3 s"; "`cxxbq` became ready at 31.2 s and `gphtr` only at 31.6 s"', () => {
    const readyAt = (n: string) =>
      firstTime(r(), 'pods', n, (o) => condition(o, 'Ready')?.status === 'True')!;
    expect(
      ['ms6kv', 'm6lxk', 's5r8x'].map((s) => Math.floor(readyAt(`web-d76966756-${s}`))),
    ).toEqual([3, 3, 3]);
    expect(
      ['cxxbq', 'dcz4r', 'gphtr'].map((s) => Math.floor(readyAt(`web-d76966756-${s}`))),
    ).toEqual([31, 31, 31]);
    expect(rounded(readyAt('web-d76966756-cxxbq'), 1)).toBe(31.2);
    expect(rounded(readyAt('web-d76966756-gphtr'), 1)).toBe(31.6);
  });

  it('"At 90 s the scenario runs `kubectl delete pod web-d76966756-ms6kv` ... 2 ms later the ReplicaSet controller ... creates ... `web-d76966756-g9z2c`. It lands on node-1"', () => {
    const late = everyPod().filter((n) => created(n) > 60);
    expect(late).toEqual(['web-d76966756-g9z2c']);
    expect(created('web-d76966756-g9z2c')).toBe(90.002);
    expect(webPods(r()).find((p) => p.metadata.name === 'web-d76966756-g9z2c').spec.nodeName).toBe(
      'node-1',
    );
    const del = r().outputs.find((o) => o.command.startsWith('kubectl delete pod'));
    expect(del?.command).toBe('kubectl delete pod web-d76966756-ms6kv');
    expect(del?.t).toBe(90);
  });
});

/** replicaSetsAt is each ReplicaSet's spec.replicas just after time t, by image. */
function replicaSetsAt(r: RunResult, t: number): Record<string, number> {
  const last = new Map<string, Obj>();
  for (const c of allChanges(r))
    if (c.resource === 'replicasets' && c.t <= t) last.set(c.object.metadata.name, c.object);
  return Object.fromEntries(
    [...last.values()].map((rs) => [rs.spec.template.spec.containers[0].image, rs.spec.replicas]),
  );
}

describe(`${L4} (rolling-update, seed 3; lesson4-rollout-3, seed 4)`, () => {
  it('"The update from 30 s is complete by 36 s" (rolling-update)', () => {
    const r = run('rolling-update', 3);
    const done = allChanges(r).find(
      (c) =>
        c.resource === 'deployments' &&
        c.t > 30 &&
        c.object.status?.conditions?.some((k: Obj) => k.reason === 'NewReplicaSetAvailable'),
    )!;
    expect(done.t).toBeGreaterThan(35);
    expect(done.t).toBeLessThanOrEqual(36);
  });

  it('the table in "Rolling updates": 20 s 3/1, 23.3 s 2/2, 26.6 s 1/3, 30.5 s 0/3 (lesson4-rollout-3)', () => {
    const r = run('lesson4-rollout-3', 4);
    const scaledAt = (image: string, n: number, after: number) =>
      rounded(
        allChanges(r).find(
          (c) =>
            c.resource === 'replicasets' &&
            c.t > after &&
            c.object.spec.template.spec.containers[0].image === image &&
            c.object.spec.replicas === n,
        )!.t,
        1,
      );
    expect(replicaSetsAt(r, 20.01)).toEqual({ 'nginx:1.27': 3, 'nginx:1.28': 1 });
    expect([scaledAt('nginx:1.27', 2, 20), scaledAt('nginx:1.28', 2, 20)]).toEqual([23.3, 23.3]);
    expect([scaledAt('nginx:1.27', 1, 20), scaledAt('nginx:1.28', 3, 20)]).toEqual([26.6, 26.6]);
    expect(scaledAt('nginx:1.27', 0, 20)).toBe(30.5);
    expect(replicaSetsAt(r, 31)).toEqual({ 'nginx:1.27': 0, 'nginx:1.28': 3 });
  });
});

describe(`${L5} (drill-apiserver-down, seed 9)`, () => {
  it('"kube-apiserver stops at 60 s and comes back at 5 minutes. At 2 minutes, node-1\'s runtime still runs the `web` container"', () => {
    const r = run('drill-apiserver-down', 9);
    const faults = r.trace
      .filter((e) => e.kind === 'fault')
      .map((e) => (e.kind === 'fault' ? `${e.fault}@${e.t}` : ''));
    expect(faults).toEqual(['apiserver-down@60', 'apiserver-up@300']);
    const ps = r.outputs.find((o) => o.command === 'crictl ps' && o.t === 120);
    expect(ps?.stdout).toMatch(/Running\s+nginx\s.*web-/);
  });
});

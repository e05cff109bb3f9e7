// Run facts that lesson prose quotes (times, names, scores) and that no figure component can show.
// Each test runs the scenario and seed the lesson names and checks one sentence. When one fails,
// the simulator's behaviour changed: update the sentence named in the test (English and Japanese
// page) to what the run now does, then this test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  componentGraph,
  parseScenario,
  ScenarioRun,
  type RunResult,
  type TraceEntry,
} from '../../sim/index.ts';

const SCENARIOS = join(process.cwd(), 'content', 'scenarios');
const L1 = 'lessons/01-architecture/01-control-plane-and-nodes.mdx';
const L2 = 'lessons/02-apply-to-running/01-from-apply-to-running.mdx';
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

/** live plays a scenario up to t virtual seconds and returns the run, for commands the lab suggests. */
function live(name: string, seed: number, t: number): ScenarioRun {
  const file = join(SCENARIOS, `${name}.yaml`);
  const s = new ScenarioRun(parseScenario(readFileSync(file, 'utf8'), file), { seed });
  s.runUntil(t * 1000);
  return s;
}

/** entries lists the run's trace entries of one kind, typed. */
function entries<K extends TraceEntry['kind']>(
  r: RunResult,
  kind: K,
): Extract<TraceEntry, { kind: K }>[] {
  return r.trace.filter((e): e is Extract<TraceEntry, { kind: K }> => e.kind === kind);
}

/** output is the stdout of the scenario step that ran command at t. */
function output(r: RunResult, command: string, t: number): string {
  const o = r.outputs.find((x) => x.command === command && x.t === t);
  if (!o) throw new Error(`no output of "${command}" at ${t} s`);
  return o.stdout;
}

/** rows splits a kubectl table into rows of columns, without the header. */
const rows = (table: string): Obj[] =>
  table
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/));

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

/** timeline is the row of the lesson's "Moving the timeline" table: Unknown, NoExecute, deleted, Running. */
const timeline = (f: ReturnType<typeof nodeFacts>): (number | undefined)[] => [
  f.unknown,
  rounded(f.noExecute!, 1),
  rounded(f.deleted!, 1),
  rounded(f.replacementRunning!, 1),
];

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

describe(`${L1} (cluster-tour and apply-to-running, seed 1)`, () => {
  const r = () => run('apply-to-running', 1);
  const tour = () => run('cluster-tour', 1);
  const podsA = () => rows(output(tour(), 'kubectl get pods -A -o wide', 60));

  it('"Everything on this page comes from one simulator run, the `apply-to-running` scenario": cluster-tour (its copy with kubectl steps at 60 s) runs exactly like it', () => {
    expect(JSON.stringify(tour().changes)).toBe(JSON.stringify(allChanges(r())));
  });

  it('"a cluster with one control-plane node and three workers"; `kubectl get nodes` lists both kinds', () => {
    const nodes = rows(output(tour(), 'kubectl get nodes', 60));
    expect(nodes.map(([name, status, roles]) => `${name} ${status} ${roles}`)).toEqual([
      'control-plane Ready control-plane',
      'node-1 Ready <none>',
      'node-2 Ready <none>',
      'node-3 Ready <none>',
    ]);
  });

  it('"a taint, `node-role.kubernetes.io/control-plane:NoSchedule`, that keeps ordinary Pods off it" (and no worker has a taint)', () => {
    const t = Object.fromEntries(r().objects.nodes!.map((n) => [n.metadata.name, taints(n)]));
    expect(t).toEqual({
      'control-plane': ['node-role.kubernetes.io/control-plane:NoSchedule'],
      'node-1': [],
      'node-2': [],
      'node-3': [],
    });
  });

  it('"etcd, kube-apiserver, kube-controller-manager and kube-scheduler each appear once, with the node name as a suffix ... their IP is the node\'s address, 10.0.0.10"', () => {
    const cp = podsA().filter(
      ([ns, name]) => ns === 'kube-system' && name.endsWith('-control-plane'),
    );
    expect(cp.map(([, name, , , , , ip, node]) => `${name} ${ip} ${node}`)).toEqual([
      'etcd-control-plane 10.0.0.10 control-plane',
      'kube-apiserver-control-plane 10.0.0.10 control-plane',
      'kube-controller-manager-control-plane 10.0.0.10 control-plane',
      'kube-scheduler-control-plane 10.0.0.10 control-plane',
    ]);
    const node: Obj = r().objects.nodes!.find((n) => n.metadata.name === 'control-plane');
    expect(node.status.addresses.find((a: Obj) => a.type === 'InternalIP').address).toBe(
      '10.0.0.10',
    );
  });

  it('"kube-proxy appears once per node, all four of them"; "CoreDNS ... two replicas on worker nodes"; no Pod for the kubelet, the runtime, the CNI plugin or a controller', () => {
    const sys = podsA().filter(([ns]) => ns === 'kube-system');
    const nodesOf = (prefix: string) =>
      sys.filter(([, name]) => name.startsWith(prefix)).map(([, , , , , , , node]) => node);
    expect(nodesOf('kube-proxy-').sort()).toEqual(['control-plane', 'node-1', 'node-2', 'node-3']);
    expect(nodesOf('coredns-').sort()).toEqual(['node-2', 'node-3']);
    const kinds = new Set(
      sys.map(([, name]) =>
        name.replace(/-(control-plane|[a-z0-9]{5}|[a-z0-9]{8,10}-[a-z0-9]{5})$/, ''),
      ),
    );
    expect([...kinds].sort()).toEqual([
      'coredns',
      'etcd',
      'kube-apiserver',
      'kube-controller-manager',
      'kube-proxy',
      'kube-scheduler',
    ]);
  });

  it('"Node agents are drawn once for all four nodes"; "The only arrows that skip the hub are inside a node: the kubelet calling the container runtime, and the runtime calling the CNI plugin"', () => {
    const g = componentGraph(r().trace, { mergeNodes: true });
    const label = (id: string) => g.nodes.find((n) => n.id === id)!.label;
    const kubelet = g.nodes.find((n) => n.label === 'kubelet')!;
    expect(kubelet.instances).toEqual([
      'kubelet@control-plane',
      'kubelet@node-1',
      'kubelet@node-2',
      'kubelet@node-3',
    ]);
    const offHub = g.edges
      .filter((e) => label(e.from) !== 'kube-apiserver' && label(e.to) !== 'kube-apiserver')
      .map((e) => `${label(e.from)} -> ${label(e.to)} ${e.kind}`);
    expect(offHub).toEqual([
      'kubelet -> container-runtime calls',
      'container-runtime -> cni-plugin calls',
    ]);
  });

  it('"etcd is drawn with a single arrow, from kube-apiserver"', () => {
    const touching = new Set(
      r()
        .trace.filter((e) => e.from === 'etcd' || e.to === 'etcd')
        .map((e) => `${e.kind} ${e.from} -> ${e.to}`),
    );
    expect([...touching]).toEqual(['store kube-apiserver -> etcd']);
  });

  it('"`kubectl describe pod kube-apiserver-control-plane -n kube-system` shows the flag `--etcd-servers=https://127.0.0.1:2379`" (and no other Pod has an etcd address)', () => {
    const s = live('apply-to-running', 1, 30);
    const flags = (pod: string) =>
      s.cluster.kubectl(`describe pod ${pod} -n kube-system`).stdout.match(/--etcd-servers=\S+/g);
    expect(flags('kube-apiserver-control-plane')).toEqual([
      '--etcd-servers=https://127.0.0.1:2379',
    ]);
    for (const pod of ['kube-controller-manager-control-plane', 'kube-scheduler-control-plane'])
      expect(flags(pod)).toBeNull();
  });

  it('"kubectl watches nothing"; "The node lifecycle and taint eviction controllers watched all the time but wrote nothing"; "The kubelet watches only what concerns its own node: the Pods bound to it, and its own Node object"', () => {
    const watched = (c: string) =>
      new Set(
        entries(r(), 'watch')
          .filter((e) => e.to === c)
          .map((e) => e.resource),
      );
    const wrote = (c: string) => entries(r(), 'request').filter((e) => e.from === c);
    expect(watched('kubectl').size).toBe(0);
    for (const c of ['node-lifecycle-controller', 'taint-eviction-controller']) {
      expect(watched(c).size).toBeGreaterThan(0);
      expect(wrote(c)).toEqual([]);
    }
    for (const n of ['node-1', 'node-2', 'node-3']) {
      const events = entries(r(), 'watch').filter((e) => e.to === `kubelet@${n}`);
      expect(new Set(events.map((e) => e.resource))).toEqual(new Set(['pods', 'nodes']));
      for (const e of events) {
        if (e.resource === 'nodes') {
          expect(e.name).toBe(n);
          continue;
        }
        const pod = webPods(r()).find((p) => p.metadata.name === e.name);
        expect(pod?.spec.nodeName).toBe(n);
      }
    }
  });

  it('"in this run, the controllers and the scheduler send only writes (`create`, `update`). Their reads all come from their caches"', () => {
    const senders = new Set([
      'kube-scheduler',
      'deployment-controller',
      'replicaset-controller',
      'endpointslice-controller',
      'node-lifecycle-controller',
      'taint-eviction-controller',
      'garbage-collector',
    ]);
    const verbs = new Set(
      entries(r(), 'request')
        .filter((e) => senders.has(e.from))
        .map((e) => e.verb),
    );
    expect([...verbs].sort()).toEqual(['create', 'update']);
  });

  it('"kubectl creates the Deployment; ... a watch event to the Deployment controller, which creates a ReplicaSet; the watch event for that ReplicaSet wakes the ReplicaSet controller, which creates Pods"', () => {
    const bySeq = new Map(r().trace.map((e) => [e.seq, e]));
    const causeOf = (e: TraceEntry) => (e.cause === undefined ? undefined : bySeq.get(e.cause));
    const rs = entries(r(), 'request').find(
      (e) => e.verb === 'create' && e.resource === 'replicasets',
    )!;
    expect(rs.from).toBe('deployment-controller');
    const w1 = causeOf(rs)!;
    expect(w1.kind === 'watch' && `${w1.type} ${w1.resource} ${w1.to}`).toBe(
      'ADDED deployments deployment-controller',
    );
    const pods = entries(r(), 'request').filter(
      (e) => e.verb === 'create' && e.resource === 'pods',
    );
    expect(pods.map((e) => e.from)).toEqual(Array(3).fill('replicaset-controller'));
    const w2 = causeOf(pods[0]!)!;
    expect(w2.kind === 'watch' && `${w2.type} ${w2.resource} ${w2.to}`).toBe(
      'ADDED replicasets replicaset-controller',
    );
  });

  it('"`ssh control-plane crictl ps` ... The four control-plane components and kube-proxy are there; the kubelet is not"', () => {
    const ps = live('apply-to-running', 1, 30).cluster.exec('control-plane', 'crictl ps').stdout;
    // Columns: CONTAINER IMAGE CREATED (several words) STATE NAME ATTEMPT POD-ID POD NAMESPACE.
    const containers = rows(ps)
      .map((c) => c[c.length - 5])
      .sort();
    expect(containers).toEqual([
      'etcd',
      'kube-apiserver',
      'kube-controller-manager',
      'kube-proxy',
      'kube-scheduler',
    ]);
  });
});

describe(`${L2} (apply-to-running, seed 1)`, () => {
  const r = () => run('apply-to-running', 1);
  const POD = 'web-68c7d7979f-6s7d4';
  const calls = (pod: string) => entries(r(), 'call').filter((e) => e.pod === `default/${pod}`);
  const programs = (node: string) =>
    entries(r(), 'program').filter((e) => e.from === `kube-proxy@${node}`);
  const sliceUpdates = () =>
    entries(r(), 'request').filter(
      (e) => e.resource === 'endpointslices' && e.name === 'web-d7r6d' && e.verb === 'update',
    );
  const statusReports = (pod: string) =>
    entries(r(), 'request').filter(
      (e) => e.verb === 'patch' && e.resource === 'pods/status' && e.name === pod,
    );
  const runningReport = (pod: string) =>
    statusReports(pod).find((e) => e.fields?.includes('status.podIP'))!;

  it('"`kubectl apply` first asks kube-apiserver for each object (`get deployments web` answers `404 NotFound`), then creates it"; it printed `deployment.apps/web created` and `service/web created`', () => {
    const kubectl = entries(r(), 'request').filter((e) => e.from === 'kubectl' && e.t === 0);
    expect(kubectl.map((e) => `${e.verb} ${e.resource} ${e.name} ${e.code}`)).toEqual([
      'get deployments web 404',
      'create deployments web 201',
      'get services web 404',
      'create services web 201',
    ]);
    expect(kubectl[0]!.reason).toBe('NotFound');
    expect(output(r(), 'kubectl apply -f -', 0)).toBe(
      'deployment.apps/web created\nservice/web created\n',
    );
  });

  it('"every Pod created later from this template gets two tolerations ... `node.kubernetes.io/not-ready` and `node.kubernetes.io/unreachable` for 300 s"', () => {
    for (const p of webPods(r()))
      expect(
        p.spec.tolerations.map((t: Obj) => `${t.key}:${t.effect}:${t.tolerationSeconds}`),
      ).toEqual([
        'node.kubernetes.io/not-ready:NoExecute:300',
        'node.kubernetes.io/unreachable:NoExecute:300',
      ]);
  });

  it('"it creates one, `web-68c7d7979f`"; "creates three Pods with `generateName: web-68c7d7979f-`"; "the first one created, `web-68c7d7979f-6s7d4`"', () => {
    const rs = r().objects.replicasets!.filter((x) => x.metadata.namespace === 'default');
    expect(rs.map((x) => x.metadata.name)).toEqual(['web-68c7d7979f']);
    expect(rs[0]!.metadata.labels!['pod-template-hash']).toBe('68c7d7979f');
    const added = changesOf(r(), 'pods', undefined, 'default').filter((c) => c.type === 'ADDED');
    expect(added).toHaveLength(3);
    expect(added.map((c) => c.object.metadata.generateName)).toEqual(
      Array(3).fill('web-68c7d7979f-'),
    );
    expect(added[0]!.object.metadata.name).toBe(POD);
  });

  it('"For `web-68c7d7979f-6s7d4` it evaluated four nodes. The Filter phase ruled out the control-plane node (the TaintToleration plugin reports `node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }`) and left three feasible nodes"', () => {
    const filters = entries(r(), 'filter').filter((e) => e.pod === `default/${POD}`);
    expect(filters.map((e) => `${e.node} ${e.feasible}`)).toEqual([
      'control-plane false',
      'node-1 true',
      'node-2 true',
      'node-3 true',
    ]);
    const rejected = filters[0]!.plugins.filter((p) => p.status !== 'Success');
    expect(rejected).toEqual([
      {
        plugin: 'TaintToleration',
        status: 'UnschedulableAndUnresolvable',
        reason: 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }',
      },
    ]);
    // The Japanese figure description: "4 ノード中 3 ノードを候補として node-1 を選び".
    const select = entries(r(), 'select').find((e) => e.pod === `default/${POD}`)!;
    expect([select.evaluatedNodes, select.feasibleNodes, select.node]).toEqual([4, 3, 'node-1']);
  });

  it('"the Score phase gave node-1 the highest total"', () => {
    const scores = entries(r(), 'score').filter((e) => e.pod === `default/${POD}`);
    expect(scores.map((e) => e.node)).toEqual(['node-1', 'node-2', 'node-3']);
    const [n1, ...rest] = scores.map((e) => e.total);
    for (const t of rest) expect(n1).toBeGreaterThan(t);
  });

  it('"`create pods/binding` ... sets the Pod\'s `spec.nodeName` to `node-1` and its `PodScheduled` condition to `True`. The scheduler never contacts node-1"', () => {
    const binding = entries(r(), 'request').find(
      (e) => e.resource === 'pods/binding' && e.name === POD,
    )!;
    expect([binding.from, binding.verb, binding.fields]).toEqual([
      'kube-scheduler',
      'create',
      ['spec.nodeName', 'status.conditions'],
    ]);
    const bound = changesOf(r(), 'pods', POD).find((c) => c.object.spec.nodeName !== undefined)!;
    expect(bound.object.spec.nodeName).toBe('node-1');
    expect(condition(bound.object, 'PodScheduled')?.status).toBe('True');
    const from = new Set(
      r()
        .trace.filter((e) => e.from === 'kube-scheduler')
        .map((e) => e.to),
    );
    expect([...from].sort()).toEqual(['kube-apiserver', 'kube-scheduler']);
  });

  it('"The kubelet first reports what it knows (`patch pods/status`: the host IP, the start time, conditions ...), then works through the container runtime over CRI"', () => {
    const first = statusReports(POD)[0]!;
    expect(first.from).toBe('kubelet@node-1');
    expect(first.fields).toEqual(
      expect.arrayContaining(['status.hostIP', 'status.startTime', 'status.conditions']),
    );
    expect(first.fields).not.toContain('status.podIP');
    expect(first.seq).toBeLessThan(calls(POD)[0]!.seq);
  });

  it("the CRI steps 1 to 3: `RunPodSandbox` (the runtime runs the CNI plugin's `ADD`), `ImageStatus`, `PullImage`, `CreateContainer`, `StartContainer`", () => {
    expect(calls(POD).map((e) => `${e.from} ${e.method}`)).toEqual([
      'kubelet@node-1 RunPodSandbox',
      'container-runtime@node-1 ADD',
      'kubelet@node-1 ImageStatus',
      'kubelet@node-1 PullImage',
      'kubelet@node-1 CreateContainer',
      'kubelet@node-1 StartContainer',
    ]);
    expect(calls(POD).find((e) => e.method === 'ImageStatus')?.result).toBe('not found');
  });

  it('"an address from node-1\'s Pod CIDR, 10.244.1.0/24: here 10.244.1.2"; "the CNI plugin handed out 10.244.1.2 at 0.008 s"', () => {
    const node: Obj = r().objects.nodes!.find((n) => n.metadata.name === 'node-1');
    expect(node.spec.podCIDR).toBe('10.244.1.0/24');
    const add = calls(POD).find((e) => e.method === 'ADD')!;
    expect([add.to, add.result, add.t]).toEqual(['cni-plugin@node-1', '10.244.1.2', 0.008]);
  });

  it('"The pull is the slow part: the figure\'s gap between 0.6 s and 2.8 s"', () => {
    const pull = calls(POD).find((e) => e.method === 'PullImage')!;
    const next = calls(POD).find((e) => e.method === 'CreateContainer')!;
    expect([rounded(pull.t, 1), rounded(next.t, 1)]).toEqual([0.6, 2.8]);
    const steps = calls(POD).map((e, i, all) => (i === 0 ? 0 : e.t - all[i - 1]!.t));
    expect(Math.max(...steps)).toBe(next.t - pull.t);
  });

  it('"The kubelet reports again with `patch pods/status`: phase `Running`, the Pod IP, and the `Ready` condition `True`"', () => {
    const report = runningReport(POD);
    expect(report.fields).toEqual(expect.arrayContaining(['status.phase', 'status.podIP']));
    const p = changesOf(r(), 'pods', POD).find((c) => c.t >= report.t && c.object.status.podIP)!;
    expect([p.object.status.phase, p.object.status.podIP]).toEqual(['Running', '10.244.1.2']);
    expect(condition(p.object, 'Ready')?.status).toBe('True');
  });

  it('"At 1 s every Pod already has a node: the scheduler was done within milliseconds. The IP column is still `<none>`"', () => {
    const at1 = rows(output(r(), 'kubectl get pods -o wide', 1));
    expect(at1.map(([name, , status, , , ip, node]) => `${name} ${status} ${ip} ${node}`)).toEqual([
      `${POD} ContainerCreating <none> node-1`,
      'web-68c7d7979f-rshp6 ContainerCreating <none> node-2',
      'web-68c7d7979f-tqpmx ContainerCreating <none> node-3',
    ]);
    const selects = entries(r(), 'select').filter((e) => e.t < 1);
    expect(selects).toHaveLength(3);
    for (const e of selects) expect(e.t).toBeLessThan(0.01);
    const at30 = rows(output(r(), 'kubectl get pods -o wide', 30));
    expect(at30.map(([name, , status, , , ip]) => `${name} ${status} ${ip}`)).toEqual([
      `${POD} Running 10.244.1.2`,
      'web-68c7d7979f-rshp6 Running 10.244.2.3',
      'web-68c7d7979f-tqpmx Running 10.244.3.3',
    ]);
  });

  it('"kube-apiserver gave it a cluster IP, 10.96.70.61"; "the EndpointSlice `web-d7r6d` right away. At that moment no Pod had an IP, so the slice was empty"', () => {
    const svc: Obj = r().objects.services!.find((s) => s.metadata.name === 'web');
    expect(svc.spec.clusterIP).toBe('10.96.70.61');
    const created = changesOf(r(), 'endpointslices', 'web-d7r6d').find((c) => c.type === 'ADDED')!;
    expect(created.t).toBeLessThan(0.01);
    expect(created.object.endpoints ?? []).toEqual([]);
    expect(created.object.metadata.labels['kubernetes.io/service-name']).toBe('web');
  });

  it('"kube-proxy on every node, the control-plane node included, ... wrote the Service\'s iptables rules within the same millisecond"', () => {
    for (const node of ['control-plane', 'node-1', 'node-2', 'node-3']) {
      const seen = entries(r(), 'watch').find(
        (e) => e.to === `kube-proxy@${node}` && e.resource === 'services' && e.name === 'web',
      )!;
      const wrote = programs(node).find((e) => e.t >= seen.t)!;
      expect(wrote.t - seen.t).toBeLessThan(0.001);
    }
  });

  it('"The Pods on node-2 and node-3 reported first, at 3.224 s, and went into the slice together, in one update"', () => {
    const reported = (pod: string) => runningReport(pod);
    expect(['web-68c7d7979f-rshp6', 'web-68c7d7979f-tqpmx'].map((p) => reported(p).t)).toEqual([
      3.224, 3.224,
    ]);
    expect(['web-68c7d7979f-rshp6', 'web-68c7d7979f-tqpmx'].map((p) => reported(p).from)).toEqual([
      'kubelet@node-2',
      'kubelet@node-3',
    ]);
    const first = sliceUpdates()[0]!;
    const slice = changesOf(r(), 'endpointslices', 'web-d7r6d').find((c) => c.t === first.t)!;
    expect(slice.object.endpoints.map((e: Obj) => e.addresses[0]).sort()).toEqual([
      '10.244.2.3',
      '10.244.3.3',
    ]);
  });

  it('"The Pod on node-1 reported at 3.972 s and was added by a second update"', () => {
    expect(runningReport(POD).t).toBe(3.972);
    const updates = sliceUpdates();
    expect(updates).toHaveLength(2);
    const slice = changesOf(r(), 'endpointslices', 'web-d7r6d').find((c) => c.t === updates[1]!.t)!;
    expect(slice.object.endpoints.map((e: Obj) => e.addresses[0])).toContain('10.244.1.2');
    expect(slice.object.endpoints).toHaveLength(3);
  });

  it('"kube-proxy did not rewrite its rules at 3.976 s, when that second update reached it, but at 4.228 s: it runs `iptables-restore` at most once a second"', () => {
    const seen = entries(r(), 'watch').filter(
      (e) =>
        e.to === 'kube-proxy@node-1' && e.resource === 'endpointslices' && e.name === 'web-d7r6d',
    );
    expect(seen.map((e) => e.t)).toEqual([0.004, 3.228, 3.976]);
    const writes = programs('node-1').filter((e) => e.t > 3 && e.t < 5);
    expect(writes.map((e) => e.t)).toEqual([3.228, 4.228]);
    expect(rounded(writes[1]!.t - writes[0]!.t, 3)).toBe(1);
    // The Japanese figure description: 46 rules at the first rewrite, 49 at 4.228 s.
    expect(writes.map((e) => e.rules)).toEqual([46, 49]);
  });

  it('"The scenario runs `iptables-save -t nat` on node-1 at 30 s": the `web` rules (cluster IP jump, masquerade from outside 10.244.0.0/16, 1/3 then 1/2, DNAT to 10.244.1.2:80)', () => {
    const nat = output(r(), 'iptables-save -t nat', 30);
    const lines = nat.split('\n');
    const svc = lines.find(
      (l) => l.includes('"default/web:http cluster IP"') && l.startsWith('-A KUBE-SERVICES'),
    )!;
    expect(svc).toMatch(/-d 10\.96\.70\.61\/32 -p tcp .* --dport 80 -j (KUBE-SVC-\S+)$/);
    const chain = svc.split(' -j ')[1];
    const rules = lines.filter((l) => l.startsWith(`-A ${chain} `));
    expect(rules).toHaveLength(4);
    expect(rules[0]).toMatch(/! -s 10\.244\.0\.0\/16 .*-j KUBE-MARK-MASQ$/);
    expect(rules.slice(1).map((l) => l.match(/--probability (\S+)/)?.[1])).toEqual([
      '0.33333333349',
      '0.50000000000',
      undefined,
    ]);
    expect(rules[1]).toContain('-> 10.244.1.2:80');
    const sep = rules[1]!.split(' -j ')[1];
    expect(lines.filter((l) => l.startsWith(`-A ${sep} `)).at(-1)).toMatch(
      /-j DNAT --to-destination 10\.244\.1\.2:80$/,
    );
    for (const c of ['PREROUTING', 'OUTPUT'])
      expect(lines).toContain(
        `-A ${c} -m comment --comment "kubernetes service portals" -j KUBE-SERVICES`,
      );
  });

  it('Try it: "`ssh node-1 iptables-save -t nat` before and after 3.2 s, to see the `web` endpoints appear"; after 4 s the Pods are `Running`, with an IP', () => {
    const webRules = (t: number) =>
      live('apply-to-running', 1, t)
        .cluster.exec('node-1', 'iptables-save -t nat')
        .stdout.split('\n')
        .filter((l) => l.includes('default/web:http') && l.includes('DNAT')).length;
    expect(webRules(3.1)).toBe(0);
    expect(webRules(3.3)).toBe(2);
    const at4 = rows(live('apply-to-running', 1, 4).cluster.kubectl('get pods -o wide').stdout);
    for (const [, , status, , , ip] of at4) {
      expect(status).toBe('Running');
      expect(ip).toMatch(/^10\.244\./);
    }
  });

  it('Try it: "`kubectl describe pod web-68c7d7979f-6s7d4`: the Events list ... `Scheduled` and ... `Pulling`, `Pulled`, `Created` and `Started`"', () => {
    const out = live('apply-to-running', 1, 30).cluster.kubectl(`describe pod ${POD}`).stdout;
    const events = out.split('Events:')[1]!;
    expect([...events.matchAll(/^\s+Normal\s+(\w+)/gm)].map((m) => m[1])).toEqual([
      'Scheduled',
      'Pulling',
      'Pulled',
      'Created',
      'Started',
    ]);
    expect(out).toMatch(
      /Tolerations:\s+node\.kubernetes\.io\/not-ready:NoExecute op=Exists for 300s\n\s+node\.kubernetes\.io\/unreachable:NoExecute op=Exists for 300s/,
    );
  });
});

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
    expect(timeline(f)).toEqual([110, 115.1, 415.1, 416.1]);
  });

  it('the table "Moving the timeline": node-failure-40s 100 s, 105.1 s, 405.1 s, 406.1 s', () => {
    const f = nodeFacts(run('node-failure-40s', 7));
    expect(timeline(f)).toEqual([100, 105.1, 405.1, 406.1]);
  });

  it('the table "Moving the timeline": node-failure-toleration-60s 110 s, 115.1 s, 175.1 s, 176.1 s', () => {
    const f = nodeFacts(run('node-failure-toleration-60s', 7));
    expect(timeline(f)).toEqual([110, 115.1, 175.1, 176.1]);
  });
});

describe(`${L3} (partition, seed 7)`, () => {
  const r = () => run('partition', 7);

  it('"the run follows the same timeline: `Unknown` at 110 s, the NoExecute taint at 115.1 s, the Pod deleted and its replacement created at 415.1 s and Running on node-2 at 416.1 s"', () => {
    const f = nodeFacts(r());
    expect(timeline(f)).toEqual([110, 115.1, 415.1, 416.1]);
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

const L7 = 'lessons/07-services-dns/01-services-dns-packets.mdx';

describe(`${L7} (lesson7-services, seed 7)`, () => {
  const r = run('lesson7-services', 7);
  const dnsAt = (t: number) => entries(r, 'dns').filter((e) => e.t === t);
  const packetAt = (t: number) => entries(r, 'packet').filter((e) => e.t === t);

  it('"a client Pod with curl runs on node-1"; "node-1\'s Pod range (10.244.1.0/24)"', () => {
    const client: Obj = r.objects.pods?.find((p: Obj) => p.metadata.name === 'client');
    expect(client?.spec.nodeName).toBe('node-1');
    const node: Obj = r.objects.nodes?.find((n: Obj) => n.metadata.name === 'node-1');
    expect(node?.spec.podCIDR).toBe('10.244.1.0/24');
    expect(client?.status.podIP).toMatch(/^10\.244\.1\./);
  });

  it('"web has no dot ... asks for web.shop.svc.cluster.local, A and AAAA, and gets the cluster IP at once"', () => {
    expect(dnsAt(40).map((e) => `${e.qtype} ${e.name} ${e.rcode}`)).toEqual([
      'A web.shop.svc.cluster.local NOERROR',
      'AAAA web.shop.svc.cluster.local NOERROR',
    ]);
    expect(dnsAt(40)[0]!.to).toMatch(/^kube-system\/coredns-/);
  });

  it('"curl api.default from shop ... 4 questions"; "a typo ... 8 questions"', () => {
    expect(dnsAt(41)).toHaveLength(4);
    expect(dnsAt(41).map((e) => e.name)).toEqual([
      'api.default.shop.svc.cluster.local',
      'api.default.shop.svc.cluster.local',
      'api.default.svc.cluster.local',
      'api.default.svc.cluster.local',
    ]);
    expect(dnsAt(47)).toHaveLength(8);
  });

  it('"The first endpoint rule matches with probability 1/3 ... the second takes 1/2; the last takes the rest"', () => {
    const save = r.outputs.find((o) => o.command === 'iptables-save -t nat' && o.t === 49)!.stdout;
    const probs = save
      .split('\n')
      .filter((l) => l.startsWith('-A KUBE-SVC-') && l.includes('"shop/web:http -> '))
      .map((l) => /--probability (\S+)/.exec(l)?.[1] ?? 'rest');
    expect(probs).toEqual(['0.33333333349', '0.50000000000', 'rest']);
  });

  it('"no endpoints ... exit 7"; "the wrong targetPort ... also exit 7, but the EndpointSlice is full"; "the wrong name. Exit 6"', () => {
    const exit = (t: number) =>
      entries(r, 'command').find((e) => e.t === t && e.command.includes('curl'))?.exitCode;
    expect(exit(42)).toBe(7);
    expect(packetAt(42)[0]?.outcome).toBe('rejected');
    expect(exit(46)).toBe(7);
    expect(packetAt(46)[0]?.outcome).toBe('refused');
    expect(packetAt(46)[0]?.endpoint).toMatch(/:9090$/);
    expect(exit(47)).toBe(6);
  });

  it('"rewrites the node\'s rules with one iptables-restore, at most once a second"', () => {
    const restores = entries(r, 'program')
      .filter((e) => e.from === 'kube-proxy@node-1' && e.t >= 0)
      .map((e) => e.t);
    for (let i = 1; i < restores.length; i++)
      expect(restores[i]! - restores[i - 1]!).toBeGreaterThanOrEqual(1 - 1e-9);
  });
});

describe(`${L7} (lesson7-edge, seed 3)`, () => {
  const r = run('lesson7-edge', 3);
  const out = (command: string, t?: number) =>
    r.outputs.find((o) => o.command === command && (t === undefined || o.t === t))!.stdout;

  it('"EXTERNAL-IP stays <pending>" until the fake cloud gives "an address from a documentation range a few seconds after"', () => {
    expect(out('kubectl get services shop-lb', 2)).toMatch(/<pending>/);
    expect(out('kubectl get services shop-lb', 70)).toMatch(/\s203\.0\.113\.\d+\s/);
  });

  it('"one Ingress routes two hosts to two Services"; "a host that no rule names gets ... a 404"', () => {
    expect(
      out(
        `kubectl exec client -- curl -s -H 'Host: shop.example' http://ingress-nginx-controller.ingress-nginx/hostname`,
      ),
    ).toMatch(/^shop-/);
    expect(
      out(
        `kubectl exec client -- curl -s -H 'Host: blog.example' http://ingress-nginx-controller.ingress-nginx/hostname`,
      ),
    ).toMatch(/^blog-/);
    expect(
      out(
        `kubectl exec client -- curl -s -o /dev/null -w '%{http_code}' -H 'Host: other.example' http://ingress-nginx-controller.ingress-nginx/`,
      ),
    ).toBe('404');
    expect(
      out(
        `kubectl exec client -- curl -s -H 'Host: shop.example' http://nginx-gateway.nginx-gateway/hostname`,
      ),
    ).toMatch(/^shop-/);
  });

  it('"From a workstation outside the cluster ... that address leads through the load balancer to a node"', () => {
    expect(out('curl -s http://203.0.113.10/hostname')).toMatch(/^shop-/);
    const p = entries(r, 'packet').find((e) => e.from === 'outside/workstation')!;
    expect(p.node).toMatch(/^(node-\d|control-plane)$/);
    expect(p.chains).toContain('KUBE-SERVICES');
  });

  it('"The controller forwards to a backend Pod\'s own address, not to the Service\'s cluster IP"', () => {
    const shopIPs = new Set(
      (r.objects.pods ?? [])
        .filter((p: Obj) => p.metadata.labels?.app === 'shop')
        .map((p: Obj) => p.status.podIP),
    );
    const forwarded = entries(r, 'packet').filter((e) => e.from.startsWith('ingress-nginx/'));
    expect(forwarded.length).toBeGreaterThan(0);
    expect(forwarded.some((e) => shopIPs.has(e.dst.replace(/:\d+$/, '')))).toBe(true);
  });
});

describe(`${L7} (lesson7-policy and lesson7-policy-bridge, seed 5)`, () => {
  it('"The frontend gets its answer; the Pod other gets silence" under Calico; "other gets its answer too" under bridge', () => {
    const calico = run('lesson7-policy', 5);
    const bridge = run('lesson7-policy-bridge', 5);
    const exit = (r: RunResult, pod: string) =>
      entries(r, 'command').find((e) => e.command.includes(`exec -n shop ${pod} -- curl`))
        ?.exitCode;
    expect(exit(calico, 'frontend')).toBe(0);
    expect(exit(calico, 'other')).toBe(28);
    const dropped = entries(calico, 'packet').find((e) => e.from === 'shop/other')!;
    expect(dropped.outcome).toBe('dropped');
    expect(exit(bridge, 'other')).toBe(0);
  });
});

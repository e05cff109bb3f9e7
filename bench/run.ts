/// <reference types="node" />
// Benchmarks for the simulator. Run with `npm run bench` (all) or
// `npm run bench -- grading|ha|scheduler|scale` (ha: node-failure with one and three control-plane
// nodes; grading times the quiz's trace level, requests, and the full
// trace, or one level given: `grading none`; `scale 2h` runs the 150,000 Pods on for two virtual
// hours; SCALE_NODES=500 runs either at a tenth of the size), or
// `npm run bench -- compare <scenario> <checkout> <checkout>...` to time two versions of sim/ in one
// process. They print figures; nothing here asserts on time.
// Record results in BENCHMARKS.md with the command that produced them.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseScenario } from '../sim/scenario/loader.ts';
import { ScenarioRun } from '../sim/scenario/runner.ts';
import type { Pod } from '../sim/api/types.ts';
import type { TraceLevel } from '../sim/engine/trace.ts';

function load(name: string) {
  return parseScenario(
    readFileSync(new URL(`../content/scenarios/${name}.yaml`, import.meta.url), 'utf8'),
    name,
  );
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
}

/**
 * grading: the standard scenarios run as the quiz grader runs them. The grader records requests
 * and changes (src/quiz/grade.ts), and the full trace only for questions that read CRI/CNI calls,
 * watch deliveries or scheduler plugin results; both are timed unless a trace level is given
 * (`npm run bench -- grading none`). "birth" is the part spent building the cluster (virtual -60 s
 * to 0, untraced), included in the total.
 */
// V8 needs over a hundred runs before every hot function has tiered up (JIT tiers, inline caches,
// allocation-site feedback): with 30 the measured runs still included compilation (p95 3x median).
const WARMUP = 150;

function grading(traceLevel: TraceLevel): void {
  for (const name of ['node-failure', 'apply-to-running', 'rolling-update']) {
    const sc = load(name);
    for (let i = 0; i < WARMUP; i++) new ScenarioRun(sc, { seed: i, traceLevel }).run();
    const times: number[] = [];
    const births: number[] = [];
    let events = 0;
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      const run = new ScenarioRun(sc, { seed: 100 + i, traceLevel });
      births.push(performance.now() - t0);
      run.run();
      times.push(performance.now() - t0);
      events = run.cluster.sim.eventsProcessed;
    }
    console.log(
      `grading ${name} (trace ${traceLevel}): median ${median(times).toFixed(2)} ms (birth ${median(births).toFixed(2)} ms), p95 ${p95(times).toFixed(2)} ms per run (${events} events, ${sc.until / 1000}s virtual, 60 runs after ${WARMUP} warm-up)`,
    );
  }
}

/**
 * scaleWorkload is scale-5000's cluster with another workload: `deployments` Deployments of
 * `replicas` Pods each, run until `until` (a duration). SCALE_NODES shrinks the cluster for profiling.
 */
function scaleWorkload(deployments: number, replicas: number, until: string) {
  const text = readFileSync(
    new URL('../content/scenarios/scale-5000.yaml', import.meta.url),
    'utf8',
  );
  const head = text
    .slice(0, text.indexOf('\nsteps:\n'))
    .replace(/count: 5000/, `count: ${process.env.SCALE_NODES ?? 5000}`);
  const docs = Array.from({ length: deployments }, (_, i) =>
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: load-${i + 1}`,
      'spec:',
      `  replicas: ${replicas}`,
      '  selector:',
      '    matchLabels:',
      `      app: load-${i + 1}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app: load-${i + 1}`,
      '    spec:',
      '      containers:',
      '        - name: app',
      '          image: registry.k8s.io/pause:3.10',
      '          resources:',
      '            requests:',
      '              cpu: 10m',
      '              memory: 16Mi',
    ].join('\n'),
  );
  const steps = `\nsteps:\n  - at: 0s\n    apply: |\n${docs.join('\n---\n').replace(/^/gm, '      ')}\nuntil: ${until}\n`;
  return parseScenario(head + steps, 'scale-workload');
}

/**
 * scale: 5,000 nodes and 150,000 Pods through Deployments (content/scenarios/scale-5000.yaml),
 * until all are Running; `scale 2h` runs 30 Deployments of 5,000 replicas on for two virtual hours.
 */
function scale(variant: string | undefined): void {
  // SCALE_NODES (for profiling) shrinks the workload with the cluster: 30 Pods per node.
  // SCALE_NODES shrinks scale-5000 in the same shape: 5 Deployments of 6 Pods per node, 30m.
  const nodes = Number(process.env.SCALE_NODES ?? 5000);
  const sc =
    variant === '2h'
      ? scaleWorkload(30, nodes, '2h')
      : process.env.SCALE_NODES
        ? scaleWorkload(5, 6 * nodes, '30m')
        : load('scale-5000');
  const total = 30 * nodes;
  const t0 = performance.now();
  const run = new ScenarioRun(sc, { traceLevel: 'none', recordChanges: false });
  const tBoot = performance.now();
  const api = run.cluster.apiserver;
  let tAll = 0;
  let allAt = 0;
  for (let t = 60_000; t <= sc.until; t += 60_000) {
    run.runUntil(t);
    const pods = api.peekAll<Pod>('pods').filter((p) => p.metadata.namespace === 'default');
    const running = pods.filter((p) => p.status.phase === 'Running').length;
    const bound = pods.filter((p) => p.spec.nodeName).length;
    console.error(
      `  t=${t / 1000}s pods=${pods.length} bound=${bound} running=${running} wall=${((performance.now() - t0) / 1000).toFixed(1)}s`,
    );
    if (running >= total) {
      tAll = performance.now();
      allAt = t;
      break;
    }
  }
  // The 2h variant runs on, idle but for the Leases, node status and controllers' periodic work.
  if (variant === '2h') run.runUntil(sc.until);
  const wall = (performance.now() - t0) / 1000;
  const rssGiB = process.resourceUsage().maxRSS / 1024 / 1024;
  const cpu = process.cpuUsage();
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const limiter = run.cluster.scheduler.client.limiter;
  console.log(
    `scale ${variant ?? ''} ${nodes} nodes / ${total} pods: ${tAll ? `all Running by virtual ${allAt / 1000}s (wall ${((tAll - t0) / 1000).toFixed(1)} s)` : 'NOT all Running'}; ran to virtual ${run.cluster.sim.now() / 1000}s; wall ${wall.toFixed(1)} s (bootstrap ${((tBoot - t0) / 1000).toFixed(1)} s); peak RSS ${rssGiB.toFixed(2)} GiB; CPU ${cpuSeconds.toFixed(1)} s (all threads); ${run.cluster.sim.eventsProcessed} events; kube-scheduler bindings throttled ${limiter?.throttled ?? 0}`,
  );
}

/**
 * scheduler: kube-scheduler alone, as upstream's scheduler_perf measures it (test/integration/
 * scheduler_perf, SchedulingBasic): kube-apiserver and etcd, 5,000 ready nodes, no kubelets and no
 * controllers, and Pods already created (owned by a ReplicaSet, so that PodTopologySpread's default
 * constraints apply as in the scale scenario). The figure is Pods bound per second from the
 * scheduler's start to the last binding, with the full cycle: queue, Filter and Score plugins over
 * numFeasibleNodesToFind nodes, binding through pods/binding and the Scheduled Event.
 */
async function schedulerAlone(): Promise<void> {
  const { Simulation } = await import('../sim/engine/simulation.ts');
  const { EtcdStore } = await import('../sim/etcd/store.ts');
  const { KubeAPIServer } = await import('../sim/apiserver/apiserver.ts');
  const { Client } = await import('../sim/client/client.ts');
  const { Scheduler } = await import('../sim/scheduler/scheduler.ts');
  const { makeNode, makePod } = await import('../sim/scheduler/testing.ts');
  type Obj = import('../sim/api/types.ts').AnyObject;
  type NodeT = import('../sim/api/types.ts').Node;
  const NODES = 5_000;
  const PODS = 30_000;
  const sim = new Simulation({ seed: 1, traceLevel: 'none' });
  const api = new KubeAPIServer(sim, new EtcdStore());
  api.recordChanges = false;
  api.create('bench', 'namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'default' },
  } as Obj);
  for (let i = 1; i <= NODES; i++) {
    const n = api.create<NodeT>(
      'bench',
      'nodes',
      makeNode(`worker-${i}`, { cpu: '8', memory: '32Gi' }),
    );
    // A ready node: the not-ready taint TaintNodesByCondition put on it at creation is gone.
    api.update<NodeT>('bench', 'nodes', { ...n, spec: { ...n.spec, taints: [] } });
  }
  const rs = api.create<Obj>('bench', 'replicasets', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'load', namespace: 'default' },
    spec: {
      replicas: PODS,
      selector: { matchLabels: { app: 'load' } },
      template: {
        metadata: { labels: { app: 'load' } },
        spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
      },
    },
  } as unknown as Obj);
  for (let i = 0; i < PODS; i++) {
    const p = makePod(`load-${i}`, {
      labels: { app: 'load' },
      requests: [{ cpu: '10m', memory: '16Mi' }],
      image: 'registry.k8s.io/pause:3.10',
    });
    p.metadata.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'load',
        uid: rs.metadata.uid,
        controller: true,
      },
    ];
    const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, ...metadata } = p.metadata;
    api.create('bench', 'pods', { ...p, metadata } as Obj, true);
  }
  const sched = new Scheduler(sim, new Client(api, Scheduler.NAME));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  sched.start();
  sim.runUntil(sim.now() + 60_000);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const placed = api.peekAll<Pod>('pods').filter((p) => p.spec.nodeName);
  const bound = placed.length;
  const perNode = new Map<string, number>();
  for (const p of placed) perNode.set(p.spec.nodeName!, (perNode.get(p.spec.nodeName!) ?? 0) + 1);
  console.log(
    `scheduler alone, ${NODES} nodes, ${PODS} Pods: ${bound} bound in ${wall.toFixed(2)} s wall (${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU): ${(bound / wall).toFixed(0)} Pods per wall-second (scheduler_perf's threshold for the real scheduler at 5,000 nodes: about 680); ${perNode.size} nodes used, ${Math.min(...perNode.values())}-${Math.max(...perNode.values())} Pods each`,
  );
}

/**
 * compare times the grading runs of one scenario for several checkouts of the repository (paths
 * to a clone or worktree each), loaded into one process and alternated run by run, so that the
 * machine's own drift (this virtual machine's speed varies by 10-25% over minutes) falls on all of
 * them alike. Each checkout reads its own scenario file. Birth is the ScenarioRun constructor.
 */
async function compare(name: string, roots: string[]): Promise<void> {
  const versions = await Promise.all(
    roots.map(async (root) => {
      const abs = new URL(`${root.replace(/\/$/, '')}/`, `file://${process.cwd()}/`);
      const loader = (await import(
        new URL('sim/scenario/loader.ts', abs).href
      )) as typeof import('../sim/scenario/loader.ts');
      const runner = (await import(
        new URL('sim/scenario/runner.ts', abs).href
      )) as typeof import('../sim/scenario/runner.ts');
      const sc = loader.parseScenario(
        readFileSync(new URL(`content/scenarios/${name}.yaml`, abs), 'utf8'),
        name,
      );
      return {
        root,
        sc,
        Run: runner.ScenarioRun,
        births: [] as number[],
        runs: [] as number[],
        events: 0,
      };
    }),
  );
  for (let i = 0; i < WARMUP; i++) for (const v of versions) new v.Run(v.sc, { seed: i }).run();
  for (let i = 0; i < 100; i++)
    for (const v of versions) {
      const t0 = performance.now();
      const run = new v.Run(v.sc, { seed: 100 + i });
      const t1 = performance.now();
      const e0 = run.cluster.sim.eventsProcessed;
      run.run();
      v.births.push(t1 - t0);
      v.runs.push(performance.now() - t1);
      v.events = run.cluster.sim.eventsProcessed - e0;
    }
  for (const v of versions)
    console.log(
      `compare ${name} ${v.root}: median ${median(v.births.map((b, i) => b + v.runs[i])).toFixed(2)} ms (birth ${median(v.births).toFixed(2)} ms + run ${median(v.runs).toFixed(2)} ms, ${v.events} events after birth; 100 runs alternated after ${WARMUP} warm-up)`,
    );
}

/**
 * ha: the node-failure grading run (trace requests) with one control-plane node and with three
 * (the same scenario with `cluster.controlPlane.count: 3`), alternated run by run in one process.
 */
function ha(): void {
  const one = load('node-failure');
  const three = { ...one, cluster: { ...one.cluster, controlPlane: { count: 3 as const } } };
  const times = { one: [] as number[], three: [] as number[] };
  const events = { one: 0, three: 0 };
  for (let i = 0; i < WARMUP + 150; i++)
    for (const [k, sc] of [['one', one], ['three', three]] as const) {
      const t0 = performance.now();
      const run = new ScenarioRun(sc, { seed: 100 + i, traceLevel: 'requests' });
      run.run();
      if (i >= WARMUP) times[k].push(performance.now() - t0);
      events[k] = run.cluster.sim.eventsProcessed;
    }
  console.log(
    `ha node-failure (trace requests), median of 150 runs each after ${WARMUP} warm-up, alternated: count 1 ${median(times.one).toFixed(2)} ms (${events.one} events), count 3 ${median(times.three).toFixed(2)} ms (${events.three} events): ${(median(times.three) / median(times.one)).toFixed(2)}x`,
  );
}

const which = process.argv[2] ?? 'all';
if (which === 'compare') {
  const [name, ...roots] = process.argv.slice(3);
  if (!name || roots.length === 0)
    throw new Error('usage: npm run bench -- compare <scenario> <checkout> [<checkout>...]');
  await compare(name, roots);
  process.exit(0);
}
const traceLevels = (
  process.argv[3] && which === 'grading' ? [process.argv[3]] : ['requests', 'full']
) as TraceLevel[];
for (const l of traceLevels)
  if (!['full', 'requests', 'none'].includes(l))
    throw new Error(`unknown trace level ${l}: want full, requests or none`);
if (which === 'grading' || which === 'all') for (const l of traceLevels) grading(l);
if (which === 'ha' || which === 'all') ha();
if (which === 'scheduler' || which === 'all') await schedulerAlone();
if (which === 'scale' || which === 'all') scale(process.argv[3]);

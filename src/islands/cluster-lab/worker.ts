// The cluster lab's simulator worker: owns one ScenarioRun, answers the island's requests
// (protocol.ts) and returns a compact ViewState after each. Seeking backwards restores from the
// snapshot of the actions taken before the target time: replay is cheap and exact.

/// <reference lib="webworker" />
import { sequenceSvg } from '../../lib/figures/sequence-svg.ts';
import {
  componentTable,
  parseScenario,
  restore,
  sequenceDiagram,
  snapshot,
  TABLE_HEADERS,
  type Node,
  type Pod,
  type Scenario,
  type ScenarioRun,
  type Service,
  type EndpointSlice,
  type TraceEntry,
} from '../../../sim/index.ts';
import { parse as parseYaml } from 'yaml';
import { describeEntry, nodeStatus, podStatus, whyChain } from './model.ts';
import type { Action, LabFault } from './lab-state.ts';
import type { Request, Response, TraceLite, ViewState } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

let scenarioInput: unknown;
let scenario: Scenario | undefined;
let seed = 0;
let run: ScenarioRun | undefined;
let actions: Action[] = [];
let sent = 0;

const ANIMATED = new Set(['request', 'watch', 'call', 'fault', 'command']);
const MAX_EVENTS = 60;
const MAX_PODS_SHOWN = 40;
/** ADVANCE_BUDGET_MS is the most wall time one playback request may take (see advance). */
const ADVANCE_BUDGET_MS = 150;

function build(time: number, acts: Action[]): void {
  run = restore(snapshot(scenarioInput as never, seed, time, acts));
  actions = acts;
  sent = run.cluster.sim.trace.length;
}

function now(): number {
  return run!.cluster.sim.now();
}

function lite(e: TraceEntry): TraceLite {
  return { t: e.t, seq: e.seq, kind: e.kind, from: e.from, to: e.to, label: describeEntry(e) };
}

function state(): ViewState {
  const c = run!.cluster;
  const api = c.apiserver;
  const nodes = api.peekAll<Node>('nodes').map((n) => {
    const agents = c.nodes.get(n.metadata.name);
    return {
      name: n.metadata.name,
      ...nodeStatus(n),
      cordoned: Boolean(n.spec?.unschedulable),
      taints: (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`),
      controlPlane: Object.hasOwn(n.metadata.labels ?? {}, 'node-role.kubernetes.io/control-plane'),
      power: agents?.power ?? true,
      partitioned: agents?.partitioned ?? false,
    };
  });
  // A learner may scale to thousands of Pods: the view carries at most MAX_PODS_SHOWN of them per
  // node (kube-system's always) and counts the rest, so drawing stays cheap at any size.
  const pods: ViewState['pods'] = [];
  const hidden: Record<string, number> = {};
  const shown = new Map<string, number>();
  for (const p of api.peekAll<Pod>('pods')) {
    const node = p.spec.nodeName ?? '';
    const namespace = p.metadata.namespace ?? 'default';
    const n = shown.get(node) ?? 0;
    if (namespace !== 'kube-system' && n >= MAX_PODS_SHOWN) {
      hidden[node] = (hidden[node] ?? 0) + 1;
      continue;
    }
    if (namespace !== 'kube-system') shown.set(node, n + 1);
    pods.push({ name: p.metadata.name, namespace, node, ...podStatus(p) });
  }
  const slices = api.peekAll<EndpointSlice>('endpointslices');
  const services = api.peekAll<Service>('services').map((s) => ({
    name: s.metadata.name,
    namespace: s.metadata.namespace ?? 'default',
    clusterIP: s.spec?.clusterIP ?? '',
    endpoints: slices
      .filter(
        (e) =>
          e.metadata.namespace === s.metadata.namespace &&
          e.metadata.labels?.['kubernetes.io/service-name'] === s.metadata.name,
      )
      .reduce(
        (n, e) => n + (e.endpoints ?? []).filter((x) => x.conditions?.ready !== false).length,
        0,
      ),
  }));
  const trace = c.sim.trace;
  const fresh = trace
    .slice(sent)
    .filter((e) => ANIMATED.has(e.kind) && !(e.kind === 'request' && e.verb === 'watch'));
  sent = trace.length;
  return {
    time: now(),
    until: run!.until,
    nodes,
    pods,
    hiddenPods: hidden,
    services,
    components: [
      { name: 'kube-apiserver', up: !api.down },
      { name: 'etcd', up: !c.etcd.down },
      { name: 'kube-scheduler', up: true },
      { name: 'kube-controller-manager', up: true },
    ],
    events: fresh.slice(-MAX_EVENTS).map(lite),
    actions,
    traceLength: trace.length,
  };
}

/** advance plays the run forward to toMs (never past the scenario's end). */
/**
 * advance plays on to toMs. With a budget (playback), it stops early, between two virtual
 * instants, once that much wall time has gone: a learner who scales to thousands of Pods keeps
 * the controls responsive, and playback simply catches up on the next frames. Where it stops
 * changes nothing in the run: playing to t in pieces is the same as playing to t at once.
 */
function advance(toMs: number, budgetMs = Infinity): void {
  const r = run!;
  const t = Math.min(Math.max(toMs, now()), r.until);
  const stopAt = performance.now() + budgetMs;
  while (now() < t) {
    r.runUntil(Math.max(now(), Math.min(r.cluster.sim.nextEventTime(), t)));
    if (performance.now() > stopAt) break;
  }
}

/** step advances to the time of the next trace entry: the next event that records something. */
function step(): void {
  const r = run!;
  const start = r.cluster.sim.trace.length;
  for (let i = 0; i < 10_000 && r.cluster.sim.trace.length === start && now() < r.until; i++) {
    const nextStep = scenario!.steps.find((s) => s.at > now())?.at ?? Infinity;
    const target = Math.min(r.cluster.sim.nextEventTime(), nextStep, r.until);
    r.runUntil(Math.max(target, now()));
    if (target <= now() && r.cluster.sim.trace.length === start) r.cluster.sim.step();
  }
}

/** seek moves to ms: forward by playing on, backward by replaying the actions taken before ms. */
function seek(ms: number): void {
  const t = Math.min(Math.max(0, ms), run!.until);
  if (t >= now()) advance(t);
  else
    build(
      t,
      actions.filter((a) => a.at <= t),
    );
}

function handle(req: Request): Response {
  if (req.type === 'init') {
    scenarioInput = parseYaml(req.scenarioYaml);
    scenario = parseScenario(req.scenarioYaml);
    seed = req.seed;
    build(req.time ?? 0, req.actions ?? []);
    return { id: req.id, ok: true, state: state() };
  }
  if (!run) return { id: req.id, ok: false, error: 'not initialised' };
  switch (req.type) {
    case 'advance':
      advance(req.toMs, ADVANCE_BUDGET_MS);
      return { id: req.id, ok: true, state: state() };
    case 'step':
      step();
      return { id: req.id, ok: true, state: state() };
    case 'seek':
      seek(req.ms);
      return { id: req.id, ok: true, state: state() };
    case 'kubectl': {
      const result = run.cluster.kubectl(req.line);
      actions = [...actions, { at: now(), kubectl: req.line }];
      return { id: req.id, ok: true, state: state(), result };
    }
    case 'exec': {
      // Node commands are actions too: mv and systemctl change the node, so seeking replays them.
      const result = run.cluster.exec(req.node, req.line);
      actions = [...actions, { at: now(), exec: req.line, node: req.node }];
      return { id: req.id, ok: true, state: state(), result };
    }
    case 'fault': {
      if (!run.cluster.nodes.has(req.node))
        return { id: req.id, ok: false, error: `node "${req.node}" not found` };
      run.cluster.fault(req.kind as LabFault, req.node);
      actions = [...actions, { at: now(), fault: req.kind, node: req.node }];
      return { id: req.id, ok: true, state: state() };
    }
    case 'why':
      return {
        id: req.id,
        ok: true,
        state: state(),
        why: whyChain(run.cluster.sim.trace, req.kind, req.name),
      };
    case 'figures': {
      // The learner's part of the run: from their first action, or the whole run if none yet.
      const trace = run.cluster.sim.trace;
      const from = actions.length > 0 ? Math.min(...actions.map((a) => a.at)) / 1000 : undefined;
      const d = sequenceDiagram(
        { trace, changes: run.cluster.apiserver.changes },
        {
          from,
          collapseWatches: true,
          reads: false,
          etcd: false,
          fields: true,
          maxSteps: 80,
          title: scenario!.name,
        },
      );
      const rows = componentTable(trace, { lang: req.lang });
      const svg = sequenceSvg(d, { id: 'lab-own-run', lang: req.lang });
      return {
        id: req.id,
        ok: true,
        state: state(),
        figures: {
          svg,
          steps: d.steps.map((s) => ({
            n: s.n,
            t: s.t,
            from: s.from,
            to: s.to,
            text: s.text,
            dotted: s.dotted,
          })),
          participants: d.participants,
          mermaid: d.mermaid,
          rows: rows.map((r) => ({
            component: r.component,
            where: r.where,
            watches: r.watches,
            decides: r.decides,
            writes: r.writes,
          })),
          headers: [...TABLE_HEADERS[req.lang]],
        },
      };
    }
  }
}

const onRequest = (ev: MessageEvent<Request>): void => {
  const req = ev.data;
  let res: Response;
  try {
    res = handle(req);
  } catch (err) {
    res = {
      id: req.id,
      ok: false,
      error: err instanceof Error ? err.message : String(err),
      state: run ? state() : undefined,
    };
  }
  self.postMessage(res);
};
self.onmessage = onRequest;

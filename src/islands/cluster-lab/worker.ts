// The cluster lab's simulator worker: owns one ScenarioRun, answers the island's requests
// (protocol.ts) and returns a compact ViewState after each. Seeking backwards restores from the
// snapshot of the actions taken before the target time: replay is cheap and exact.

/// <reference lib="webworker" />
import { sequenceSvg } from '../../lib/figures/sequence-svg.ts';
import {
  componentTable,
  heartbeatSeqs,
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
  type WhyWrite,
} from '../../../sim/index.ts';
import { parse as parseYaml } from 'yaml';
import { describeEntry, nodeStatus, podStatus, whyChain } from './model.ts';
import type { Action, LabFault } from './lab-state.ts';
import { replay, streamedRows, type Watch } from './replay.ts';
import type {
  CommandResult,
  FiguresResult,
  FiguresWindow,
  Request,
  Response,
  TraceLite,
  ViewState,
} from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

let scenarioInput: unknown;
let scenario: Scenario | undefined;
let seed = 0;
let run: ScenarioRun | undefined;
let actions: Action[] = [];
let sent = 0;
/** watch is the running `kubectl get -w`, and how many changes it has printed. */
let watch: Watch | undefined;

const ANIMATED = new Set(['request', 'watch', 'call', 'fault', 'command']);
const MAX_EVENTS = 60;
const MAX_PODS_SHOWN = 40;
/** ADVANCE_BUDGET_MS is the most wall time one playback request may take (see advance). */
const ADVANCE_BUDGET_MS = 150;

/**
 * build replays the actions on a fresh run up to time, as restore does, keeping what each printed
 * (a shared link shows the console transcript it was made with, `kubectl get -w` rows included:
 * replay.ts). stops are when the learner stopped each watch, by action index; a watch still
 * running at time streams on.
 */
function build(
  time: number,
  acts: Action[],
  stops?: ReadonlyMap<number, number>,
): (CommandResult | undefined)[] {
  run = restore(snapshot(scenarioInput as never, seed, 0, []));
  const replayed = replay(run, acts, time, stops);
  actions = acts;
  sent = run.cluster.sim.trace.length;
  // A seek backwards (no stops) ends a watch, as before; a restored link keeps a running one.
  watch = stops ? replayed.watch : undefined;
  return replayed.outputs;
}

const MAX_NAMES = 200;
/**
 * MAX_FIGURE_STEPS only guards against a window so busy the SVG would not draw (thousands of
 * Pods); a node's failure, taint and eviction in a 15 min window stay far below it.
 */
const MAX_FIGURE_STEPS = 600;

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
  const names: Record<string, string[]> = {
    nodes: nodes.map((n) => n.name),
    pods: pods.map((p) => p.name),
  };
  for (const r of ['deployments', 'replicasets', 'services', 'daemonsets'] as const)
    names[r] = api
      .peekAll<Service>(r)
      .slice(0, MAX_NAMES)
      .map((o) => o.metadata.name);
  const rows = watch ? streamedRows(run!, watch) || undefined : undefined;
  return {
    names,
    watching: watch !== undefined,
    ...(rows ? { watchRows: rows } : {}),
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
    const outputs = build(
      req.time ?? 0,
      req.actions ?? [],
      new Map((req.stops ?? []).map((s) => [s.action, s.at])),
    );
    return { id: req.id, ok: true, state: state(), outputs };
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
      // A manifest from the editor is applied as a scenario's apply step is: kubectl apply -f -
      // with the manifest on stdin (sim/scenario/runner.ts#runStep).
      const action: Action =
        req.stdin === undefined
          ? { at: now(), kubectl: req.line }
          : { at: now(), kubectl: req.line, stdin: req.stdin };
      const { watch: w, ...result } = run.cluster.kubectl(req.line, req.stdin);
      actions = [...actions, action];
      // A new command ends a running watch, as typing one after Ctrl+C would.
      watch = w ? { w, from: run.cluster.apiserver.changes.length } : undefined;
      return { id: req.id, ok: true, state: state(), result };
    }
    case 'unwatch':
      watch = undefined;
      return { id: req.id, ok: true, state: state() };
    case 'exec': {
      watch = undefined;
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
        why: markLearnerFaults(
          whyChain(
            { trace: run.cluster.sim.trace, changes: run.cluster.apiserver.changes },
            req.kind,
            req.name,
            { gracePeriod: run.cluster.sim.settings.nodeMonitorGracePeriod / 1000 },
          ),
        ),
      };
    case 'figures':
      return { id: req.id, ok: true, state: state(), figures: figures(req.lang, req.window) };
  }
}

/** markLearnerFaults says which faults in a chain the learner injected (the rest are the scenario's). */
function markLearnerFaults(writes: WhyWrite[]): WhyWrite[] {
  for (const w of writes)
    for (const l of w.because) {
      if (l.kind !== 'fault' || !l.params) continue;
      const mine = actions.some(
        (a) =>
          'fault' in a &&
          a.fault === l.params!.fault &&
          (a.node ?? '') === l.params!.node &&
          Math.abs(a.at - l.t * 1000) < 1,
      );
      l.params.by = mine ? 'learner' : 'scenario';
    }
  return writes;
}

/**
 * figures draws the learner's run in a window around a chosen moment: the span before it when it
 * is the current time, the span after it (from a little before) when it is an action. Heartbeats
 * are left out unless asked for, and no arrow cap applies, so a window reaches what it covers.
 */
function figures(lang: 'en' | 'ja', win: FiguresWindow): FiguresResult {
  const r = run!;
  const end = now() / 1000;
  const at = win.around / 1000;
  let from: number;
  let to: number;
  if (win.span === 0) [from, to] = [0, end];
  else if (win.around >= now()) [from, to] = [Math.max(0, end - win.span / 1000), end];
  else [from, to] = [Math.max(0, at - 5), Math.min(end, at - 5 + win.span / 1000)];
  const all = r.cluster.sim.trace;
  const changes = r.cluster.apiserver.changes;
  const beats = win.heartbeats ? new Set<number>() : heartbeatSeqs({ trace: all, changes });
  const trace = beats.size ? all.filter((e) => !beats.has(e.seq)) : all;
  const left = all.filter(
    (e) => beats.has(e.seq) && e.kind === 'request' && e.t >= from && e.t <= to,
  ).length;
  const d = sequenceDiagram(
    { trace, changes },
    {
      from,
      to,
      collapseWatches: true,
      reads: false,
      etcd: false,
      fields: true,
      maxSteps: MAX_FIGURE_STEPS,
      title: scenario!.name,
    },
  );
  const rows = componentTable(
    trace.filter((e) => e.t >= from && e.t <= to),
    { lang },
  );
  const svg = sequenceSvg(d, { id: 'lab-own-run', lang });
  return {
    from,
    to,
    left,
    svg,
    steps: d.steps.map((s) => ({
      kind: s.kind,
      n: s.n,
      t: s.t,
      from: s.from,
      to: s.to,
      text: s.text,
      dotted: s.dotted,
    })),
    participants: d.participants,
    mermaid: d.mermaid,
    rows: rows.map((x) => ({
      component: x.component,
      where: x.where,
      watches: x.watches,
      decides: x.decides,
      writes: x.writes,
    })),
    headers: [...TABLE_HEADERS[lang]],
  };
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

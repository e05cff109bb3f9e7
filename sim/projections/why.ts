// "Why?": the writes that made an object what it is, each followed back through the trace to its
// cause. Where the trace records no cause because the cause is an absence (a Lease nobody renewed)
// or a wait (a toleration running out), the chain names it from what the trace and the changes
// show, and carries on to the fault behind it. Pure: (run, target) -> chain.
//
// The links past a timer follow kube-controller-manager's own logic:
// - node_lifecycle_controller.go#tryUpdateNodeHealth: Ready becomes Unknown once no Lease renewal
//   and no status update has been seen for --node-monitor-grace-period (50 s since v1.32).
// - node_lifecycle_controller.go#doNoExecuteTaintingPass: a node whose Ready is Unknown (False)
//   gets the NoExecute taint node.kubernetes.io/unreachable (not-ready).
// - tainteviction/taint_eviction.go#processPodOnNode: a Pod that tolerates the taint for
//   tolerationSeconds is deleted that long after the taint was added; the 300 s default comes from
//   the DefaultTolerationSeconds admission plugin.

import type { Node, Pod, Taint } from '../api/types.ts';
import type { RequestEntry, TraceEntry } from '../engine/trace.ts';
import { entryObject, indexTrace, parentsOf, type TraceIndex } from './follow.ts';
import type { Change, RunLike } from './util.ts';

/** WhyLinkKind says what a link is; the island words each kind in the page's language. */
export type WhyLinkKind = 'entry' | 'lease' | 'fault' | 'command' | 'taint' | 'toleration';

/**
 * WhyLink is one step of a causal chain. text is the trace entry in kubectl's words (kind
 * "entry" and "command"); the other kinds carry their facts in params.
 */
export interface WhyLink {
  t: number;
  component: string;
  kind: WhyLinkKind;
  text: string;
  params?: Record<string, string | number>;
}

/** WhyWrite is one write that changed the chosen object, with what led to it. */
export interface WhyWrite {
  t: number;
  component: string;
  write: string;
  fields: string[];
  /** result says what the write set, where it matters ("Ready=Unknown: Kubelet stopped..."). */
  result?: string;
  /** because is the chain of causes, nearest first. */
  because: WhyLink[];
}

export interface WhyOptions {
  /** limit keeps the latest writes (default 10). */
  limit?: number;
  /** depth bounds each chain (default 12 links). */
  depth?: number;
  /** gracePeriod is --node-monitor-grace-period in seconds (default 50, v1.32 and later). */
  gracePeriod?: number;
}

/** describeEntry says what one trace entry did, in kubectl's and Kubernetes' own words. */
export function describeEntry(e: TraceEntry): string {
  const obj = (ns: string | undefined, name: string | undefined) =>
    name ? ` ${ns ? `${ns}/` : ''}${name}` : '';
  switch (e.kind) {
    case 'request':
      return `${e.verb} ${e.resource}${obj(e.namespace, e.name)}${e.fields?.length ? ` (${e.fields.join(', ')})` : ''} → ${e.code}`;
    case 'watch':
      return `watch ${e.type} ${e.resource}${obj(e.namespace, e.name)}`;
    case 'store':
      return `${e.op} ${e.key}`;
    case 'call':
      return `${e.method}${e.pod ? ` ${e.pod}` : e.object ? ` ${e.object}` : ''}`;
    case 'timer':
      return `timer ${e.what}${e.object ? ` ${e.object}` : ''}`;
    case 'fault':
      return `fault ${e.fault}${e.node ? ` ${e.node}` : ''}`;
    case 'command':
      return e.command;
    case 'select':
      return `select ${e.node} for ${e.pod}`;
    case 'program':
      return `${e.what} (${e.rules} rules)`;
    default:
      return e.kind;
  }
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete']);
const NLC = 'node-lifecycle-controller';
/** NODE_FAULTS stop a node's kubelet from reaching kube-apiserver (sim/scenario/schema.ts). */
const NODE_FAULTS = new Set(['node-down', 'partition', 'kubelet-stop']);
/** CLUSTER_FAULTS stop every kubelet's writes at once. */
const CLUSTER_FAULTS = new Set(['apiserver-down', 'etcd-down']);

const ok = (e: TraceEntry): e is RequestEntry => e.kind === 'request' && e.code < 300;

function link(e: TraceEntry): WhyLink {
  if (e.kind === 'fault')
    return {
      t: e.t,
      component: e.from,
      kind: 'fault',
      text: describeEntry(e),
      params: { fault: e.fault, node: e.node ?? '' },
    };
  return {
    t: e.t,
    component: e.kind === 'watch' ? e.to : e.from,
    kind: e.kind === 'command' ? 'command' : 'entry',
    text: describeEntry(e),
  };
}

/** Ctx is one chain's lookup state. */
interface Ctx {
  trace: TraceEntry[];
  idx: TraceIndex;
  changes: Change[];
  grace: number;
}

/** objectAt returns the object as a write left it (the change at its etcd revision). */
function objectAt<T>(c: Ctx, w: RequestEntry): T | undefined {
  const s = c.idx.storeOf.get(w.seq);
  if (!s) return undefined;
  const rv = String(s.revision);
  for (let i = c.changes.length - 1; i >= 0; i--) {
    const ch = c.changes[i];
    if (ch.object.metadata.resourceVersion === rv && ch.object.metadata.name === s.name)
      return ch.object as T;
  }
  return undefined;
}

/** lastBefore is the latest entry before t (or at t, before seq) matching pred. */
function lastBefore(c: Ctx, t: number, seq: number, pred: (e: TraceEntry) => boolean) {
  for (let i = c.trace.length - 1; i >= 0; i--) {
    const e = c.trace[i];
    if (e.seq >= seq) continue;
    if (e.t <= t && pred(e)) return e;
  }
  return undefined;
}

const isNodeWrite = (e: TraceEntry, node: string, resource: string) =>
  ok(e) && e.from === NLC && e.resource === resource && e.name === node;

/** nodeOf is the node a Pod was bound to, from the changes, else the scheduler's choice. */
function nodeOf(c: Ctx, ns: string, name: string): string | undefined {
  for (let i = c.changes.length - 1; i >= 0; i--) {
    const ch = c.changes[i];
    const m = ch.object.metadata;
    if (ch.resource !== 'pods' || m.name !== name || (m.namespace ?? '') !== ns) continue;
    const n = (ch.object as Pod).spec?.nodeName;
    if (n) return n;
  }
  const key = `${ns}/${name}`;
  for (let i = c.trace.length - 1; i >= 0; i--) {
    const e = c.trace[i];
    if (e.kind === 'select' && e.pod === key) return e.node;
  }
  return undefined;
}

function podObject(c: Ctx, ns: string, name: string): Pod | undefined {
  for (let i = c.changes.length - 1; i >= 0; i--) {
    const ch = c.changes[i];
    const m = ch.object.metadata;
    if (ch.resource === 'pods' && m.name === name && (m.namespace ?? '') === ns)
      return ch.object as Pod;
  }
  return undefined;
}

/**
 * leaseLinks explains a node-health pass that found node silent: the node's Lease was last
 * renewed at T and nothing since, longer than the grace period; and the fault that silenced it.
 */
function leaseLinks(c: Ctx, node: string, at: TraceEntry): WhyLink[] {
  const renew = lastBefore(
    c,
    at.t,
    at.seq,
    (e) =>
      ok(e) &&
      e.from === `kubelet@${node}` &&
      (e.resource === 'leases' || e.resource === 'nodes/status'),
  );
  const out: WhyLink[] = [];
  const since = renew?.t ?? 0;
  out.push({
    t: since,
    component: `kubelet@${node}`,
    kind: 'lease',
    text: `lease kube-node-lease/${node} last renewed at ${since.toFixed(3)} s, then ${(at.t - since).toFixed(1)} s without a renewal (> node-monitor-grace-period ${c.grace} s)`,
    params: {
      lease: `kube-node-lease/${node}`,
      node,
      last: renew ? since.toFixed(3) : '',
      silent: (at.t - since).toFixed(1),
      grace: c.grace,
    },
  });
  // The fault is what came between the last renewal and the pass: the node stopped, was cut off,
  // its kubelet was stopped (a fault or `systemctl stop kubelet` over ssh), or the control plane
  // stopped answering.
  const fault = c.trace.find(
    (e) =>
      e.t >= since &&
      e.seq < at.seq &&
      ((e.kind === 'fault' &&
        ((e.node === node && NODE_FAULTS.has(e.fault)) || CLUSTER_FAULTS.has(e.fault))) ||
        (e.kind === 'command' &&
          e.from === `shell@${node}` &&
          /\bsystemctl\s+stop\s+kubelet\b/.test(e.command))),
  );
  if (fault) out.push(link(fault));
  return out;
}

/**
 * extend continues a chain past an entry whose cause the trace does not record (a timer): it
 * returns the links that explain it and the entry to walk on from, if any.
 */
function extend(c: Ctx, e: TraceEntry): { links: WhyLink[]; next?: TraceEntry } {
  if (e.kind !== 'timer' || e.object === undefined) return { links: [] };
  if (e.what === 'monitorNodeHealth') return { links: leaseLinks(c, e.object, e) };
  if (e.what === 'doNoExecuteTaintingPass') {
    // The tainting pass acts on a Ready condition the health pass wrote.
    const ready = lastBefore(c, e.t, e.seq, (x) => isNodeWrite(x, e.object!, 'nodes/status'));
    return ready ? { links: [link(ready)], next: ready } : { links: [] };
  }
  if (e.what === 'taintEviction') {
    const i = e.object.indexOf('/');
    const ns = i < 0 ? '' : e.object.slice(0, i);
    const name = e.object.slice(i + 1);
    const node = nodeOf(c, ns, name);
    if (!node) return { links: [] };
    // The NoExecute taint that started the wait: the latest taint write before it fired.
    let taint: Taint | undefined;
    const write = lastBefore(c, e.t, e.seq, (x) => {
      if (!isNodeWrite(x, node, 'nodes') || !(x as RequestEntry).fields?.includes('spec.taints'))
        return false;
      const obj = objectAt<Node>(c, x as RequestEntry);
      taint = obj?.spec?.taints?.find((tt) => tt.effect === 'NoExecute');
      return obj === undefined || taint !== undefined;
    }) as RequestEntry | undefined;
    if (!write) return { links: [] };
    const key = taint?.key ?? 'node.kubernetes.io/unreachable';
    const tol = podObject(c, ns, name)?.spec?.tolerations?.find(
      (x) =>
        (x.key === key || x.key === undefined || x.key === '') &&
        (x.effect === 'NoExecute' || x.effect === undefined || x.effect === ''),
    );
    const seconds = tol?.tolerationSeconds;
    const links: WhyLink[] = [];
    if (seconds !== undefined)
      links.push({
        t: e.t,
        component: 'taint-eviction-controller',
        kind: 'toleration',
        text: `${ns}/${name} tolerates ${key}:NoExecute for tolerationSeconds ${seconds}${seconds === 300 ? ' (DefaultTolerationSeconds)' : ''}`,
        params: {
          pod: name,
          taint: `${key}:NoExecute`,
          seconds,
          byDefault: seconds === 300 ? 1 : 0,
        },
      });
    links.push({
      t: write.t,
      component: write.from,
      kind: 'taint',
      text: `${describeEntry(write)}: ${key}:NoExecute on ${node}`,
      params: { node, taint: `${key}:NoExecute` },
    });
    return { links, next: write };
  }
  return { links: [] };
}

/** chainOf follows one write back to its causes, nearest first. */
function chainOf(c: Ctx, w: TraceEntry, depth: number): WhyLink[] {
  const because: WhyLink[] = [];
  const seen = new Set<number>([w.seq]);
  let cur: TraceEntry | undefined = w;
  while (cur && because.length < depth) {
    const parents: TraceEntry[] = parentsOf(cur, c.idx).filter(
      (p) => p.kind !== 'store' && !seen.has(p.seq),
    );
    // A watch event's own write comes first; otherwise the entry's recorded cause.
    const next: TraceEntry | undefined = parents.find((p) => p.kind === 'request') ?? parents[0];
    if (next) {
      seen.add(next.seq);
      because.push(link(next));
      cur = next;
      continue;
    }
    const more = extend(c, cur);
    because.push(...more.links);
    cur = more.next && !seen.has(more.next.seq) ? more.next : undefined;
    if (cur) seen.add(cur.seq);
  }
  return because.slice(0, depth);
}

/** readyResult says what a node status write set Ready to, as kubectl describe shows it. */
function readyResult(c: Ctx, w: RequestEntry): string | undefined {
  if (w.resource !== 'nodes/status' || !w.fields?.includes('status.conditions')) return undefined;
  const ready = objectAt<Node>(c, w)?.status?.conditions?.find((x) => x.type === 'Ready');
  if (!ready) return undefined;
  return `Ready=${ready.status}${ready.reason ? ` ${ready.reason}` : ''}${ready.message ? `: ${ready.message}` : ''}`;
}

/**
 * whyChain lists the writes that changed a Pod or Node (request entries, with the fields they
 * changed), latest `limit`, each with its causes back to the fault where the run shows one.
 */
export function whyChain(
  run: RunLike,
  kind: 'pod' | 'node',
  name: string,
  opts: WhyOptions = {},
): WhyWrite[] {
  const idx = indexTrace(run.trace);
  const c: Ctx = {
    trace: run.trace,
    idx,
    changes: run.changes ?? [],
    grace: opts.gracePeriod ?? 50,
  };
  const resource = kind === 'pod' ? 'pods' : 'nodes';
  const writes = run.trace.filter((e): e is RequestEntry => {
    if (e.kind !== 'request' || !WRITE_VERBS.has(e.verb) || e.code >= 300) return false;
    const o = entryObject(e, idx);
    return o?.resource === resource && o.name === name;
  });
  return writes.slice(-(opts.limit ?? 10)).map((w) => {
    const result = readyResult(c, w);
    return {
      t: w.t,
      component: w.from,
      write: `${w.verb} ${w.resource}`,
      fields: w.fields ?? [],
      ...(result !== undefined ? { result } : {}),
      because: chainOf(c, w, opts.depth ?? 12),
    };
  });
}

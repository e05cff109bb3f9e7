// measure reads a question's Measure off a simulator run. Pure: (run, measure) -> value. It is the
// only place a quiz key comes from, so a key can never disagree with what the simulator did.

import type { AnyObject, RunResult, TraceEntry } from '../../sim/index.ts';
import type { EventRef, Measure, ObjectQuery, RequestMatch, Where } from './schema.ts';

/** Measured is what a measure yields: seconds or a count, a field value, or a set of components. */
export type Measured = number | string | string[];

/** RunView is the part of a run that measures read. */
export interface RunView {
  /** initial is every object at time 0, when the scenario starts (changes are recorded from 0). */
  initial: Partial<Record<string, AnyObject[]>>;
  trace: TraceEntry[];
  changes: RunResult['changes'];
  /** stepTimes are the scenario steps' times in seconds. */
  stepTimes: number[];
  /** until is the end of the run in seconds. */
  until: number;
}

/** MeasureError is a measure that found nothing to measure: the question or scenario is wrong. */
export class MeasureError extends Error {}

const CLUSTER_SCOPED = new Set(['nodes']);

/** componentOf maps kubelet@node-1 to kubelet: questions ask about kinds of component. */
export function componentOf(actor: string): string {
  const at = actor.indexOf('@');
  return at < 0 ? actor : actor.slice(0, at);
}

function fieldMatches(v: unknown, test: Where[string]): boolean {
  if (test === null || typeof test !== 'object')
    return v !== undefined && String(v) === String(test);
  if (test.exists !== undefined && (v !== undefined && v !== null) !== test.exists) return false;
  if (test.ne !== undefined && v !== undefined && String(v) === String(test.ne)) return false;
  if (test.in !== undefined && !test.in.some((x) => String(x) === String(v))) return false;
  if (test.gt !== undefined && !(typeof v === 'number' && v > test.gt)) return false;
  if (test.lt !== undefined && !(typeof v === 'number' && v < test.lt)) return false;
  return true;
}

/**
 * getPath reads a dotted path with list selectors, as in status.conditions[type=Ready].status or
 * spec.taints[key=node.kubernetes.io/unreachable,effect=NoExecute].timeAdded (all pairs must match),
 * [i] indexes, as in endpoints[0].addresses[0], and [key] for map keys with dots, as in
 * metadata.labels[kubernetes.io/service-name].
 */
export function getPath(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const m of path.matchAll(/([^.[\]]+)|\[([^\]]+)\]/g)) {
    if (v === null || typeof v !== 'object') return undefined;
    if (m[1] !== undefined) {
      v = (v as Record<string, unknown>)[m[1]];
      continue;
    }
    if (!(m[2] ?? '').includes('=')) {
      // [i] indexes a list; [some.key/with-dots] reads a map key that contains dots or slashes.
      if (!/^\d+$/.test(m[2] ?? '')) {
        v = (v as Record<string, unknown>)[m[2] ?? ''];
        continue;
      }
      v = Array.isArray(v) ? v[Number(m[2])] : undefined;
      continue;
    }
    const pairs = (m[2] ?? '').split(',').map((p) => p.split('=') as [string, string | undefined]);
    v = Array.isArray(v)
      ? v.find(
          (x) =>
            x &&
            typeof x === 'object' &&
            pairs.every(([k, want]) => String((x as Record<string, unknown>)[k]) === want),
        )
      : undefined;
  }
  return v;
}

/** matchesWhere reports whether an object passes every field test. */
export function matchesWhere(obj: AnyObject, where: Where | undefined): boolean {
  if (!where) return true;
  for (const [path, test] of Object.entries(where)) {
    const v =
      path === 'ready'
        ? getPath(obj, 'status.conditions[type=Ready].status') === 'True'
        : getPath(obj, path);
    if (!fieldMatches(v, test)) return false;
  }
  return true;
}

function inNamespace(resource: string, obj: AnyObject, ns: string | undefined): boolean {
  if (CLUSTER_SCOPED.has(resource) || ns === '*') return true;
  return (obj.metadata.namespace ?? 'default') === (ns ?? 'default');
}

/** requestMatches picks kube-apiserver requests made during the scenario (t >= 0). */
export function requestMatches(
  e: TraceEntry,
  m: RequestMatch,
): e is Extract<TraceEntry, { kind: 'request' }> {
  if (e.kind !== 'request' || e.t < 0) return false;
  if (m.code !== undefined ? e.code !== m.code : e.code < 200 || e.code >= 300) return false;
  if (m.verb && e.verb !== m.verb) return false;
  if (m.resource && e.resource !== m.resource) return false;
  if (m.name && e.name !== m.name) return false;
  if (m.actor && componentOf(e.from) !== m.actor && e.from !== m.actor) return false;
  if (m.field && !(e.fields ?? []).includes(m.field)) return false;
  return true;
}

/** objectsAt replays the recorded changes up to time t (seconds) and returns the live objects. */
export function objectsAt(run: RunView, resource: string, t: number): AnyObject[] {
  const live = new Map<string, AnyObject>();
  for (const o of run.initial[resource] ?? [])
    live.set(`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o);
  for (const c of run.changes) {
    if (c.t > t) break;
    if (c.resource !== resource) continue;
    const key = `${c.object.metadata.namespace ?? ''}/${c.object.metadata.name}`;
    if (c.type === 'DELETED') live.delete(key);
    else live.set(key, c.object);
  }
  return [...live.values()];
}

function select(run: RunView, q: ObjectQuery, defaultAt: number): AnyObject[] {
  return objectsAt(run, q.resource, q.at ?? defaultAt).filter(
    (o) =>
      inNamespace(q.resource, o, q.namespace) &&
      (q.name === undefined || o.metadata.name === q.name) &&
      matchesWhere(o, q.where),
  );
}

/** eventTime is the time in seconds of the event a ref names, or undefined if it never happened. */
export function eventTime(run: RunView, ref: EventRef): number | undefined {
  if ('at' in ref) return ref.at;
  if ('step' in ref) return run.stepTimes[ref.step];
  const nth = ('nth' in ref ? ref.nth : undefined) ?? 1;
  let seen = 0;
  if ('fault' in ref) {
    for (const e of run.trace)
      if (
        e.kind === 'fault' &&
        e.fault === ref.fault &&
        (ref.node === undefined || e.node === ref.node) &&
        ++seen === nth
      )
        return e.t;
    return undefined;
  }
  const after = ref.after ? eventTime(run, ref.after) : -Infinity;
  if (after === undefined) return undefined;
  if ('request' in ref) {
    for (const e of run.trace)
      if (e.t >= after && requestMatches(e, ref.request) && ++seen === nth) return e.t;
    return undefined;
  }
  if ('call' in ref) {
    for (const e of run.trace)
      if (
        e.t >= after &&
        e.kind === 'call' &&
        e.method === ref.call.method &&
        (!ref.call.actor || componentOf(e.from) === ref.call.actor) &&
        ++seen === nth
      )
        return e.t;
    return undefined;
  }
  const m = ref.change;
  // An object is "new" if its uid did not exist at the `after` moment.
  const oldUids = new Set<string>();
  if (m.new) for (const o of objectsAt(run, m.resource, after)) oldUids.add(o.metadata.uid ?? '');
  for (const c of run.changes) {
    if (c.t < after || c.t < 0 || c.resource !== m.resource) continue;
    if (m.type && c.type !== m.type) continue;
    if (!inNamespace(m.resource, c.object, m.namespace)) continue;
    if (m.new && oldUids.has(c.object.metadata.uid ?? '')) continue;
    if (!matchesWhere(c.object, m.where)) continue;
    if (++seen === nth) return c.t;
  }
  return undefined;
}

function requireTime(run: RunView, ref: EventRef): number {
  const t = eventTime(run, ref);
  if (t === undefined)
    throw new MeasureError(`the event ${JSON.stringify(ref)} never happens in this run`);
  return t;
}

/** extremeCount is the largest or smallest number of matching objects over the run. */
function extremeCount(
  run: RunView,
  q: ObjectQuery & { from?: number },
  which: 'max' | 'min',
): number {
  const matching = new Set<string>();
  for (const o of run.initial[q.resource] ?? [])
    if (
      inNamespace(q.resource, o, q.namespace) &&
      (q.name === undefined || o.metadata.name === q.name) &&
      matchesWhere(o, q.where)
    )
      matching.add(`${o.metadata.namespace ?? ''}/${o.metadata.name}`);
  let best: number | undefined;
  let started = false;
  for (let i = 0; i < run.changes.length; i++) {
    const c = run.changes[i]!;
    if (
      c.resource === q.resource &&
      inNamespace(q.resource, c.object, q.namespace) &&
      (q.name === undefined || c.object.metadata.name === q.name)
    ) {
      const key = `${c.object.metadata.namespace ?? ''}/${c.object.metadata.name}`;
      if (c.type !== 'DELETED' && matchesWhere(c.object, q.where)) matching.add(key);
      else matching.delete(key);
    }
    // Only look at settled moments: after the last change at this instant.
    const next = run.changes[i + 1];
    if (next && next.t === c.t) continue;
    if (c.t < 0) continue;
    if (!started) started = q.from !== undefined ? c.t >= q.from : matching.size > 0;
    if (!started) continue;
    const n = matching.size;
    best = best === undefined ? n : which === 'max' ? Math.max(best, n) : Math.min(best, n);
  }
  return best ?? 0;
}

/** measure evaluates a measure over a run. defaultAt is when object queries look by default. */
export function measure(run: RunView, m: Measure, defaultAt = run.until): Measured {
  if ('duration' in m)
    return round(requireTime(run, m.duration.to) - requireTime(run, m.duration.from));
  if ('time' in m) return round(requireTime(run, m.time));
  if ('actors' in m) {
    const out = new Set<string>();
    for (const e of run.trace) if (requestMatches(e, m.actors)) out.add(componentOf(e.from));
    if (out.size === 0)
      throw new MeasureError(`no request matches ${JSON.stringify(m.actors)} in this run`);
    return [...out].sort();
  }
  if ('count' in m) return select(run, m.count, defaultAt).length;
  if ('field' in m) {
    const [o] = select(run, m.field, defaultAt);
    if (!o)
      throw new MeasureError(
        `no ${m.field.resource} matches ${JSON.stringify(m.field.where ?? {})}${m.field.name ? ` named ${m.field.name}` : ''}`,
      );
    const v = getPath(o, m.field.path);
    if (v === undefined || v === null)
      throw new MeasureError(`${m.field.resource}/${o.metadata.name} has no ${m.field.path}`);
    return typeof v === 'number' ? v : String(v);
  }
  if ('queries' in m) return dnsEntries(run, m.queries).length;
  if ('packet' in m) {
    const e = packetEntries(run, m.packet)[(m.packet.nth ?? 1) - 1];
    if (!e) throw new MeasureError(`no connection matches ${JSON.stringify(m.packet)} in this run`);
    const v = m.packet.path === 'to' ? e.to : e[m.packet.path];
    if (v === undefined || v === '')
      throw new MeasureError(`the connection has no ${m.packet.path}`);
    return v;
  }
  if ('exitCode' in m) {
    const e = stepCommand(run, m.exitCode.step);
    if (!e) throw new MeasureError(`step ${m.exitCode.step} runs no command`);
    return e.exitCode;
  }
  if ('max' in m) return extremeCount(run, m.max, 'max');
  return extremeCount(run, m.min, 'min');
}

type DnsTrace = Extract<TraceEntry, { kind: 'dns' }>;
type PacketTrace = Extract<TraceEntry, { kind: 'packet' }>;

/** dnsEntries are the DNS questions a queries measure counts. */
export function dnsEntries(
  run: RunView,
  q: Extract<Measure, { queries: unknown }>['queries'],
): DnsTrace[] {
  const after = q.after ? eventTime(run, q.after) : -Infinity;
  const before = q.before ? eventTime(run, q.before) : Infinity;
  if (after === undefined || before === undefined) return [];
  return run.trace.filter(
    (e): e is DnsTrace =>
      e.kind === 'dns' &&
      e.t >= after &&
      e.t < before &&
      (q.from === undefined || e.from === q.from) &&
      (q.name === undefined || e.name === q.name) &&
      (q.qtype === undefined || e.qtype === q.qtype) &&
      (q.rcode === undefined || e.rcode === q.rcode),
  );
}

/** packetEntries are the connections a packet measure reads, in order. */
export function packetEntries(
  run: RunView,
  q: Extract<Measure, { packet: unknown }>['packet'],
): PacketTrace[] {
  const after = q.after ? eventTime(run, q.after) : -Infinity;
  if (after === undefined) return [];
  return run.trace.filter(
    (e): e is PacketTrace =>
      e.kind === 'packet' && e.t >= after && (q.from === undefined || e.from === q.from),
  );
}

/**
 * stepCommand is the command entry of a scenario step: of the commands recorded from the step's
 * time until the next step's, the one in the step's place among the steps at that time. A command
 * is recorded when it ends, which is later than its step when it lets time pass (curl -m, sleep);
 * an apply step records `kubectl apply -f -`, a fault none.
 */
export function stepCommand(
  run: RunView,
  step: number,
): Extract<TraceEntry, { kind: 'command' }> | undefined {
  const t = run.stepTimes[step];
  if (t === undefined) return undefined;
  const place = run.stepTimes.slice(0, step).filter((x) => x === t).length;
  const next = Math.min(...run.stepTimes.filter((x) => x > t), Infinity);
  return run.trace.filter(
    (e): e is Extract<TraceEntry, { kind: 'command' }> =>
      e.kind === 'command' && e.t >= t - 1e-9 && e.t < next - 1e-9,
  )[place];
}

/** round keeps measured seconds to milliseconds, so float noise never decides a grade. */
function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/**
 * needsFullTrace reports whether a question reads what only the full trace records: CRI and CNI
 * calls, or the fields a request changed (a RequestMatch with `field`).
 */
export function needsFullTrace(m: unknown): boolean {
  if (Array.isArray(m)) return m.some(needsFullTrace);
  if (m === null || typeof m !== 'object') return false;
  const o = m as Record<string, unknown>;
  if ('call' in o || typeof o.field === 'string') return true;
  return Object.values(o).some(needsFullTrace);
}

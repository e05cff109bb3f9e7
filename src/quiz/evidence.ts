// evidence picks, from a variant's run, the few moments that decided a question: what the quiz
// shows as "What the cluster did" after a wrong answer. Pure: (question, run) -> facts, so it runs
// in the quiz worker next to the grader and in the tests.

import type { AnyObject, TraceEntry } from '../../sim/index.ts';
import {
  componentOf,
  dnsEntries,
  eventTime,
  getPath,
  matchesWhere,
  objectsAt,
  packetEntries,
  requestMatches,
  stepCommand,
  type RunView,
} from './measure.ts';
import { formatNumber } from './grade.ts';
import type { EventRef, Measure, Question, RequestMatch, Text } from './schema.ts';

/** Fact is one moment of the run, in both languages; t is seconds from the scenario's start. */
export interface Fact {
  t: number;
  text: Text;
}

/** MAX_FACTS keeps the list short enough to read at a glance. */
export const MAX_FACTS = 10;

const both = (s: string): Text => ({ en: s, ja: s });

/** requestFacts lists the matching requests: who asked what, and when (at most `limit`). */
export function requestFacts(run: RunView, m: RequestMatch, limit = 6): Fact[] {
  const hits = run.trace.filter((e) => requestMatches(e, m));
  const out: Fact[] = hits.slice(0, limit).map((e) => {
    const r = e as Extract<TraceEntry, { kind: 'request' }>;
    return {
      t: r.t,
      text: both(`${r.from}: ${r.verb} ${r.resource}${r.name ? ` ${r.name}` : ''}`),
    };
  });
  if (hits.length > limit) {
    const n = hits.length - limit;
    out.push({
      t: hits[limit]!.t,
      text: { en: `… and ${n} more such requests`, ja: `…ほか同様のリクエスト ${n} 件` },
    });
  }
  return out;
}

const readyOf = (o: AnyObject) =>
  getPath(o, 'status.conditions[type=Ready].status') as string | undefined;
const taintsOf = (o: AnyObject) =>
  ((getPath(o, 'spec.taints') as { key: string; effect: string }[] | undefined) ?? []).map(
    (t) => `${t.key}:${t.effect}`,
  );

/**
 * contextFacts tells the story of [from, to]: faults, node Ready and taint changes, Pods created,
 * bound, Running, terminating and deleted. System Pods are left out.
 */
export function contextFacts(run: RunView, from: number, to: number): Fact[] {
  const out: Fact[] = [];
  for (const e of run.trace) {
    if (e.t > to) break;
    if (e.kind === 'fault' && e.t >= from)
      out.push({
        t: e.t,
        text: {
          en: `fault ${e.fault}${e.node ? ` on ${e.node}` : ''}`,
          ja: `障害 ${e.fault}${e.node ? `(${e.node})` : ''}`,
        },
      });
  }
  const prev = new Map<string, AnyObject>();
  for (const [resource, objs] of Object.entries(run.initial))
    for (const o of objs ?? [])
      prev.set(`${resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o);
  for (const c of run.changes) {
    if (c.t > to) break;
    const o = c.object;
    const key = `${c.resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    const before = prev.get(key);
    if (c.type === 'DELETED') prev.delete(key);
    else prev.set(key, o);
    if (c.t < from || c.t < 0) continue;
    const name = o.metadata.name;
    if (c.resource === 'nodes') {
      const was = before ? readyOf(before) : undefined;
      const now = readyOf(o);
      if (before && was !== now)
        out.push({
          t: c.t,
          text: {
            en: `node ${name} Ready: ${was ?? '-'} → ${now ?? '-'}`,
            ja: `ノード ${name} の Ready: ${was ?? '-'} → ${now ?? '-'}`,
          },
        });
      const added = taintsOf(o).filter(
        (x) => !(before ? taintsOf(before) : []).includes(x) && !x.startsWith('node-role'),
      );
      if (before && added.length)
        out.push({
          t: c.t,
          text: {
            en: `node ${name} tainted ${added.join(', ')}`,
            ja: `ノード ${name} に taint ${added.join(', ')}`,
          },
        });
    }
    if (c.resource === 'pods' && (o.metadata.namespace ?? 'default') !== 'kube-system') {
      const phase = getPath(o, 'status.phase') as string | undefined;
      const node = getPath(o, 'spec.nodeName') as string | undefined;
      if (c.type === 'DELETED')
        out.push({ t: c.t, text: { en: `pod ${name} deleted`, ja: `Pod ${name} が削除された` } });
      else if (!before)
        out.push({ t: c.t, text: { en: `pod ${name} created`, ja: `Pod ${name} が作成された` } });
      else if (o.metadata.deletionTimestamp && !before.metadata.deletionTimestamp)
        out.push({
          t: c.t,
          text: { en: `pod ${name} terminating`, ja: `Pod ${name} が終了処理に入った` },
        });
      else if (node && !getPath(before, 'spec.nodeName'))
        out.push({
          t: c.t,
          text: {
            en: `pod ${name} bound to ${node}`,
            ja: `Pod ${name} が ${node} にバインドされた`,
          },
        });
      else if (phase && phase !== getPath(before, 'status.phase'))
        out.push({
          t: c.t,
          text: {
            en: `pod ${name} ${phase}${node ? ` on ${node}` : ''}`,
            ja: `Pod ${name} が ${phase}${node ? `(${node})` : ''}`,
          },
        });
    }
  }
  return out.sort((a, b) => a.t - b.t);
}

/** trim keeps the first and last facts of a long story, and every fact in `keep`. */
function trim(facts: Fact[], keep: Set<Fact> = new Set()): Fact[] {
  if (facts.length <= MAX_FACTS) return facts;
  const head = Math.ceil(MAX_FACTS / 2);
  const tail = MAX_FACTS - head;
  const chosen = new Set([...facts.slice(0, head), ...facts.slice(-tail), ...keep]);
  return facts.filter((f) => chosen.has(f));
}

function momentFact(t: number, label: Text): Fact {
  return { t, text: label };
}

const MEASURED_FROM: Text = { en: 'the measured interval starts', ja: '計測区間の始まり' };
const MEASURED_TO: Text = { en: 'the measured interval ends', ja: '計測区間の終わり' };
const THE_MOMENT: Text = { en: 'the moment the question asks about', ja: '問題が問う時点' };

function refTime(run: RunView, ref: EventRef): number | undefined {
  try {
    return eventTime(run, ref);
  } catch {
    return undefined;
  }
}

/** measureFacts explains one measure over the run. */
export function measureFacts(run: RunView, m: Measure): Fact[] {
  if ('actors' in m) return requestFacts(run, m.actors);
  if ('duration' in m) {
    const a = refTime(run, m.duration.from);
    const b = refTime(run, m.duration.to);
    if (a === undefined || b === undefined) return [];
    const ends = [momentFact(a, MEASURED_FROM), momentFact(b, MEASURED_TO)];
    const story = contextFacts(run, a, b);
    return trim(
      [...story, ...ends].sort((x, y) => x.t - y.t || (x === ends[1] ? 1 : 0)),
      new Set(ends),
    );
  }
  if ('time' in m) {
    const t = refTime(run, m.time);
    if (t === undefined) return [];
    const end = momentFact(t, THE_MOMENT);
    return trim([...contextFacts(run, 0, t), end], new Set([end]));
  }
  if ('count' in m || 'field' in m) {
    const q = 'count' in m ? m.count : m.field;
    const at = q.at ?? run.until;
    const objs = objectsAt(run, q.resource, at).filter(
      (o) =>
        (q.namespace === '*' ||
          q.resource === 'nodes' ||
          (o.metadata.namespace ?? 'default') === (q.namespace ?? 'default')) &&
        (q.name === undefined || o.metadata.name === q.name) &&
        matchesWhere(o, q.where),
    );
    const shown: Fact[] =
      'field' in m
        ? objs.slice(0, 1).map((o) => ({
            t: at,
            text: both(
              `${q.resource}/${o.metadata.name}: ${m.field.path} = ${String(getPath(o, m.field.path) ?? '-')}`,
            ),
          }))
        : [
            {
              t: at,
              text: {
                en: `${objs.length} ${q.resource} match${objs.length ? `: ${objs.map((o) => o.metadata.name).join(', ')}` : ''}`,
                ja: `条件に合う ${q.resource}: ${objs.length} 個${objs.length ? `(${objs.map((o) => o.metadata.name).join(', ')})` : ''}`,
              },
            },
          ];
    // The story starts at the first fault, if any: what broke is what decides the state.
    const fault = run.trace.find((e) => e.kind === 'fault' && e.t >= 0 && e.t <= at);
    const story = contextFacts(run, fault?.t ?? 0, at);
    return trim([...story, ...shown], new Set(shown));
  }
  if ('queries' in m)
    return dnsEntries(run, m.queries).map((e) => ({
      t: e.t,
      text: both(
        `${e.from} → ${e.to}: ${e.qtype} ${e.name}? ${e.rcode}${e.answers.length ? ` (${e.answers.join(', ')})` : ''}`,
      ),
    }));
  if ('packet' in m)
    return packetEntries(run, m.packet).map((e) => ({
      t: e.t,
      text: both(
        `${e.from} → ${e.dst}: ${[...e.chains, e.endpoint ? `DNAT ${e.endpoint}` : ''].filter(Boolean).join(' → ')}${e.chains.length ? ' ' : ''}(node ${e.node}): ${e.outcome}${e.to ? ` at ${e.to}` : ''}`,
      ),
    }));
  if ('exitCode' in m) {
    const e = stepCommand(run, m.exitCode.step);
    return e ? [{ t: e.t, text: both(`$ ${e.command} → exit ${e.exitCode}`) }] : [];
  }
  // max / min: the story of the whole run.
  return trim(contextFacts(run, 0, run.until));
}

/**
 * evidence returns what the cluster did at the decisive moments of a variant's run: for a timed
 * measure, the story between its events; for actors, the matching requests; for an ordering, each
 * item's time; for a matching, who made each kind of request. What-if and task answers are judged
 * by their checks, and interviews by the learner, so they have no evidence here.
 */
export function evidence(q: Question, run: RunView): Fact[] {
  switch (q.kind) {
    case 'choice':
    case 'numeric':
    case 'predict':
      return measureFacts(run, q.measure);
    case 'ordering':
      return q.items
        .map((it) => ({ t: refTime(run, it.at), label: it.label }))
        .filter((x): x is { t: number; label: Text } => x.t !== undefined)
        .sort((a, b) => a.t - b.t)
        .map((x) => ({ t: x.t, text: x.label }));
    case 'matching':
      return trim(
        q.right
          .flatMap((r) =>
            'actors' in r.measure
              ? firstPerActor(run, r.measure.actors)
              : measureFacts(run, r.measure),
          )
          .sort((a, b) => a.t - b.t),
      );
    case 'what-if':
      // The learner's own run: the moments its checks measured, so changing a value moves them.
      return trim(
        dedupe(q.checks.flatMap((c) => measureFacts(run, c.measure))).sort((a, b) => a.t - b.t),
      );
    default:
      return [];
  }
}

/** dedupe drops facts that several checks both found (same moment, same text). */
function dedupe(facts: Fact[]): Fact[] {
  const seen = new Set<string>();
  return facts.filter((f) => {
    const k = `${f.t}|${f.text.en}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** firstPerActor keeps each component's first matching request. */
function firstPerActor(run: RunView, m: RequestMatch): Fact[] {
  const seen = new Set<string>();
  const out: Fact[] = [];
  for (const e of run.trace) {
    if (!requestMatches(e, m)) continue;
    const c = componentOf(e.from);
    if (seen.has(c)) continue;
    seen.add(c);
    out.push({
      t: e.t,
      text: both(`${e.from}: ${e.verb} ${e.resource}${e.name ? ` ${e.name}` : ''}`),
    });
  }
  return out;
}

/** formatFact prints a fact for a language: "60 s — fault node-down on node-1". */
export function formatFact(f: Fact, lang: 'en' | 'ja'): string {
  return `${formatNumber(f.t)} ${lang === 'ja' ? '秒' : 's'} — ${f.text[lang]}`;
}

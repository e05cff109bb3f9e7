// Sequence diagrams from a run's trace: who sent what to whom, in order. Returns a structured
// model (for our own renderer and for text alternatives) and the same diagram as Mermaid text.
// A projection in the sense of STYLE.md §4: a pure function of the trace and the options.

import { defaultSettings, type Settings } from '../engine/settings.ts';
import type { TraceEntry } from '../engine/trace.ts';
import {
  causeClosure,
  entryObject,
  indexTrace,
  resolveFollow,
  sameObject,
  type FollowSpec,
  type ObjectRef,
  type TraceIndex,
} from './follow.ts';
import {
  accLines,
  compareComponents,
  formatSeconds,
  kindOf,
  mermaidText,
  plural,
  uniqueIds,
  type RunLike,
} from './util.ts';

export type { FollowSpec, ObjectRef } from './follow.ts';

/** SequenceOptions choose what the diagram shows. Times are virtual seconds. */
export interface SequenceOptions {
  /**
   * participants lists the components to show, in this order; a trailing "*" matches a prefix
   * ("kubelet@*"). Default: every component that appears, in the canonical order.
   */
  participants?: string[];
  /**
   * maxParticipants caps the lifelines when participants is not given: kube-apiserver (the hub)
   * and then the components with the most arrows, drawn in the canonical order. The rest are named
   * in hiddenParticipants. Default: no cap (the figure components pass 5).
   */
  maxParticipants?: number;
  /** follow keeps only what concerns these objects, plus every entry that led to it. */
  follow?: FollowSpec | FollowSpec[];
  from?: number;
  to?: number;
  /** collapseWatches draws one arrow per (event type, resource, watcher) in a burst of deliveries. */
  collapseWatches?: boolean;
  /** number adds Mermaid `autonumber`. */
  number?: boolean;
  /** waitNotes inserts a note where nothing happens for longer than waitThreshold seconds. */
  waitNotes?: boolean;
  /** waitThreshold is the gap (s) that earns a wait note; default 5. */
  waitThreshold?: number;
  /** maxSteps caps the number of arrows; a final note says how many were left out. */
  maxSteps?: number;
  /**
   * watchDeliveries: "causal" keeps only watch events that caused a shown entry; "all" keeps every
   * delivery. Default: "causal" when following, "all" otherwise.
   */
  watchDeliveries?: 'all' | 'causal';
  /** etcd shows kube-apiserver's writes to etcd; default true. */
  etcd?: boolean;
  /** reads shows get and list requests; default true. */
  reads?: boolean;
  /** events shows requests and watch events for Event objects; default false. */
  events?: boolean;
  /** names: "others" (default) omits the followed object's name from arrows, as the title names it. */
  names?: 'always' | 'others' | 'never';
  /** fields appends the fields an update changed: "patch nodes (spec.taints)". Default false. */
  fields?: boolean;
  /** settings used to name wait notes; default: the run's defaults. */
  settings?: Partial<Settings>;
  title?: string;
  description?: string;
}

/** Participant is one lifeline. id is Mermaid-safe. */
export interface Participant {
  id: string;
  label: string;
}

/** SequenceStep is one arrow or note, in display order. */
export interface SequenceStep {
  /** n is the arrow's number as Mermaid autonumber counts it; 0 for notes. */
  n: number;
  t: number;
  from: string;
  to: string;
  /** packet and reply are the packet path's (packet-path.ts): a packet or question, and its answer. */
  kind: 'request' | 'store' | 'watch' | 'call' | 'packet' | 'reply' | 'note';
  text: string;
  /** dotted is true for watch deliveries (Mermaid `-->>`). */
  dotted: boolean;
  /** over lists the participants a note spans. */
  over?: string[];
  /** seqs are the trace entries this step stands for (several when watches are collapsed). */
  seqs: number[];
}

/** SequenceDiagram is the model plus its Mermaid text. */
export interface SequenceDiagram {
  title: string;
  description: string;
  participants: Participant[];
  steps: SequenceStep[];
  notes: SequenceStep[];
  /** targets are the followed objects, resolved. */
  targets: ObjectRef[];
  /** hiddenParticipants are the components maxParticipants left out, in canonical order. */
  hiddenParticipants: string[];
  mermaid: string;
}

interface Draft {
  key: number;
  step: Omit<SequenceStep, 'n'>;
}

const READ_VERBS = new Set(['get', 'list', 'watch']);

/**
 * stepsDiagram numbers hand-built steps (notes are not numbered) and draws them over the
 * participants in order, keeping only those a step uses: the packet path's and a Raft write's
 * diagrams (packet-path.ts, commit.ts).
 */
export function stepsDiagram(
  order: readonly (string | undefined)[],
  steps: readonly Omit<SequenceStep, 'n'>[],
  title: string,
  description: string,
): SequenceDiagram {
  const participants: Participant[] = [];
  const seen = new Set<string>();
  for (const label of order) {
    if (!label || seen.has(label)) continue;
    if (!steps.some((s) => s.from === label || s.to === label || s.over?.includes(label))) continue;
    seen.add(label);
    participants.push({ id: `p${participants.length}`, label });
  }
  let n = 0;
  const numbered: SequenceStep[] = steps.map((s) => ({ ...s, n: s.kind === 'note' ? 0 : ++n }));
  const idOf = new Map(participants.map((p) => [p.label, p.id]));
  const lines = [
    'sequenceDiagram',
    'autonumber',
    ...participants.map((p) => `  participant ${p.id} as ${mermaidText(p.label)}`),
    ...numbered.map((s) =>
      s.kind === 'note'
        ? `  Note over ${(s.over ?? [s.from]).map((o) => idOf.get(o)).join(',')}: ${mermaidText(s.text)}`
        : `  ${idOf.get(s.from)}${s.dotted ? '-->>' : '->>'}${idOf.get(s.to)}: ${mermaidText(s.text)}`,
    ),
  ];
  return {
    title,
    description,
    participants,
    steps: numbered,
    notes: numbered.filter((s) => s.kind === 'note'),
    targets: [],
    hiddenParticipants: [],
    mermaid: lines.join('\n'),
  };
}

/** sequenceDiagram projects a run's trace onto a sequence diagram. */
export function sequenceDiagram(run: RunLike, opts: SequenceOptions = {}): SequenceDiagram {
  const trace = run.trace;
  const idx = indexTrace(trace);
  const specs =
    opts.follow === undefined ? [] : Array.isArray(opts.follow) ? opts.follow : [opts.follow];
  const targets = specs.map((s) => resolveFollow(s, run));
  const following = targets.length > 0;
  const isTarget = (e: TraceEntry) => targets.some((t) => sameObject(t, entryObject(e, idx)));
  const showEvents = opts.events ?? false;
  const isEventEntry = (e: TraceEntry) =>
    (e.kind === 'request' && e.resource.split('/')[0] === 'events') ||
    ((e.kind === 'store' || e.kind === 'watch') && e.resource === 'events');

  // 1. Choose the entries.
  let chosen: Set<number>;
  if (following) {
    const direct = trace.filter(
      (e) => !isEventEntry(e) && e.kind !== 'filter' && e.kind !== 'score' && isTarget(e),
    );
    chosen = causeClosure(direct, idx);
    // A request's etcd write and a kubectl request's command belong with it.
    for (const seq of [...chosen]) {
      const s = idx.storeOf.get(seq);
      if (s) chosen.add(s.seq);
      const c = idx.commandOf.get(seq);
      if (c) chosen.add(c.seq);
    }
  } else {
    chosen = new Set(trace.map((e) => e.seq));
  }
  const keep = (e: TraceEntry): boolean => {
    if (!chosen.has(e.seq)) return false;
    if (!showEvents && isEventEntry(e)) return false;
    switch (e.kind) {
      case 'request':
        return opts.reads !== false || !READ_VERBS.has(e.verb);
      case 'store':
        return opts.etcd !== false;
      case 'command':
        return e.from === 'kubectl';
      case 'filter':
      case 'score':
        return false;
      default:
        return true;
    }
  };
  let kept = trace.filter(keep);
  if ((opts.watchDeliveries ?? (following ? 'causal' : 'all')) === 'causal') {
    const causes = new Set<number>();
    for (const e of kept) if (e.kind !== 'watch' && e.cause !== undefined) causes.add(e.cause);
    kept = kept.filter((e) => e.kind !== 'watch' || causes.has(e.seq));
  }
  // keptSeqs lets a command's note sit just before its first request that is shown.
  const keptSeqs = new Set(kept.map((e) => e.seq));

  // 2. Turn entries into draft steps, ordered so that a request precedes its etcd write and a
  // kubectl command's note precedes its requests.
  const nameShown = (e: TraceEntry) =>
    opts.names === 'always' || (opts.names !== 'never' && !isTarget(e));
  const drafts: Draft[] = [];
  for (const e of kept) {
    const d = draft(e, idx, nameShown(e), keptSeqs, opts.fields ?? false);
    if (d) drafts.push(d);
  }
  drafts.sort((a, b) => a.key - b.key);
  let steps = drafts.map((d) => d.step);

  // 3. Window.
  if (opts.from !== undefined) steps = steps.filter((s) => s.t >= opts.from!);
  if (opts.to !== undefined) steps = steps.filter((s) => s.t <= opts.to!);

  // 4. Participants.
  const appearing = new Set<string>();
  for (const s of steps) {
    if (s.kind === 'note') for (const o of s.over ?? []) appearing.add(o);
    else {
      appearing.add(s.from);
      appearing.add(s.to);
    }
  }
  let order: string[];
  if (opts.participants) {
    order = [];
    for (const p of opts.participants) {
      const matches = p.endsWith('*')
        ? [...appearing].filter((a) => a.startsWith(p.slice(0, -1))).sort(compareComponents)
        : [p];
      for (const m of matches) if (!order.includes(m)) order.push(m);
    }
  } else {
    order = [...appearing].filter((a) => !a.startsWith('~')).sort(compareComponents);
  }
  let hiddenParticipants: string[] = [];
  if (
    !opts.participants &&
    opts.maxParticipants !== undefined &&
    order.length > opts.maxParticipants
  ) {
    const arrows = new Map(order.map((p) => [p, 0]));
    for (const s of steps)
      if (s.kind !== 'note')
        for (const p of new Set([s.from, s.to])) arrows.set(p, (arrows.get(p) ?? 0) + 1);
    const ranked = [...order].sort(
      (a, b) =>
        Number(b === 'kube-apiserver') - Number(a === 'kube-apiserver') ||
        arrows.get(b)! - arrows.get(a)! ||
        compareComponents(a, b),
    );
    const kept = new Set(ranked.slice(0, Math.max(opts.maxParticipants, 1)));
    hiddenParticipants = order.filter((p) => !kept.has(p));
    order = order.filter((p) => kept.has(p));
  }
  const allowed = new Set(order);
  steps = steps.flatMap((s) => {
    if (s.kind !== 'note') return allowed.has(s.from) && allowed.has(s.to) ? [s] : [];
    const over = (s.over ?? []).filter((o) => allowed.has(o));
    if (over.length) return [{ ...s, over, from: over[0], to: over[over.length - 1] }];
    // A note about a node whose agents are hidden (a fault) goes on the first lifeline.
    if (s.over?.some((o) => o.startsWith('~')) && order.length)
      return [{ ...s, over: [order[0]], from: order[0], to: order[0] }];
    return [];
  });
  const used = new Set<string>();
  for (const s of steps) {
    used.add(s.from);
    used.add(s.to);
  }
  order = order.filter((p) => used.has(p));

  // 5. Collapse bursts of watch deliveries.
  if (opts.collapseWatches) steps = collapseWatches(steps);

  // 6. Wait notes.
  if (opts.waitNotes) {
    const threshold = opts.waitThreshold ?? 5;
    const settings = { ...defaultSettings, ...opts.settings };
    const noteOver = order.includes('kube-apiserver') ? 'kube-apiserver' : order[0];
    const out: Omit<SequenceStep, 'n'>[] = [];
    for (let i = 0; i < steps.length; i++) {
      const gap = i > 0 ? steps[i].t - steps[i - 1].t : 0;
      if (i > 0 && gap > threshold && noteOver !== undefined)
        out.push({
          t: steps[i].t,
          from: noteOver,
          to: noteOver,
          kind: 'note',
          text: waitLabel(gap, settings),
          dotted: false,
          over: [noteOver],
          seqs: [],
        });
      out.push(steps[i]);
    }
    steps = out;
  }

  // 7. Cap.
  if (opts.maxSteps !== undefined) {
    let arrows = 0;
    let cut = steps.length;
    for (let i = 0; i < steps.length; i++) {
      if (steps[i].kind === 'note') continue;
      if (++arrows > opts.maxSteps) {
        cut = i;
        break;
      }
    }
    if (cut < steps.length) {
      const rest = steps.slice(cut).filter((s) => s.kind !== 'note').length;
      const over = order.includes('kube-apiserver') ? 'kube-apiserver' : order[0];
      steps = steps.slice(0, cut);
      steps.push({
        t: steps.length ? steps[steps.length - 1].t : 0,
        from: over,
        to: over,
        kind: 'note',
        text: `… ${plural(rest, 'more message')} not shown`,
        dotted: false,
        over: [over],
        seqs: [],
      });
    }
  }

  // 8. Number and render.
  let n = 0;
  const numbered: SequenceStep[] = steps.map((s) => ({ n: s.kind === 'note' ? 0 : ++n, ...s }));
  const ids = uniqueIds(order);
  const participants = order.map((p) => ({ id: ids.get(p)!, label: p }));
  const title = opts.title ?? defaultTitle(targets, opts);
  const description = opts.description ?? defaultDescription(numbered, order);
  const lines = ['sequenceDiagram', ...accLines(title, description)];
  if (opts.number) lines.push('  autonumber');
  for (const p of participants)
    lines.push(p.id === p.label ? `  participant ${p.id}` : `  participant ${p.id} as ${p.label}`);
  for (const s of numbered) {
    if (s.kind === 'note') {
      const over = (s.over ?? [s.from]).map((o) => ids.get(o)!);
      const span = over.length > 1 ? `${over[0]},${over[over.length - 1]}` : over[0];
      lines.push(`  Note over ${span}: ${mermaidText(s.text)}`);
    } else {
      lines.push(
        `  ${ids.get(s.from)}${s.dotted ? '-->>' : '->>'}${ids.get(s.to)}: ${mermaidText(s.text)}`,
      );
    }
  }
  return {
    title,
    description,
    participants,
    steps: numbered,
    notes: numbered.filter((s) => s.kind === 'note'),
    targets,
    hiddenParticipants,
    mermaid: `${lines.join('\n')}\n`,
  };
}

function draft(
  e: TraceEntry,
  idx: TraceIndex,
  showName: boolean,
  kept: Set<number>,
  fields: boolean,
): Draft | undefined {
  const base = { t: e.t, dotted: false, seqs: [e.seq] };
  switch (e.kind) {
    case 'request': {
      const obj = entryObject(e, idx);
      let text = `${e.verb} ${e.resource}`;
      if (
        showName &&
        obj &&
        !(e.verb === 'create' && e.name?.endsWith('-') && !idx.storeOf.has(e.seq))
      )
        text += ` ${obj.name}`;
      if (fields && e.fields?.length) text += ` (${e.fields.join(', ')})`;
      if (e.code >= 300) text += ` → ${e.code}${e.reason ? ` ${e.reason}` : ''}`;
      return { key: e.seq, step: { ...base, from: e.from, to: e.to, kind: 'request', text } };
    }
    case 'store': {
      const r = idx.requestOf.get(e.seq);
      const text = showName ? `${e.op} ${e.key}` : `${e.op} ${e.resource}`;
      // The write is recorded just before its request; draw it just after.
      return {
        key: r ? r.seq + 0.5 : e.seq,
        step: { ...base, from: e.from, to: e.to, kind: 'store', text },
      };
    }
    case 'watch': {
      let text = `watch: ${e.type} ${kindOf(e.resource)}`;
      if (showName && e.name !== undefined) text += ` ${e.name}`;
      return {
        key: e.seq,
        step: { ...base, from: e.from, to: e.to, kind: 'watch', text, dotted: true },
      };
    }
    case 'call': {
      let text = e.method;
      if (e.container !== undefined) text += ` ${e.container}`;
      else if (e.image !== undefined && e.method === 'PullImage') text += ` ${e.image}`;
      if (e.method === 'ADD' && e.result) text += ` → ${e.result}`;
      if (e.to === 'cloud' && e.result) text += ` → ${e.result}`;
      if (showName && e.pod !== undefined) text += ` (${e.pod.split('/').pop()})`;
      else if (showName && e.object !== undefined) text += ` (${e.object.split('/').pop()})`;
      return { key: e.seq, step: { ...base, from: e.from, to: e.to, kind: 'call', text } };
    }
    case 'program':
      return {
        key: e.seq,
        step: {
          ...base,
          from: e.from,
          to: e.to,
          kind: 'call',
          text: `${e.what} (${plural(e.rules, 'rule')})`,
        },
      };
    case 'select': {
      const who = showName ? `${e.pod.split('/').pop()}: ` : '';
      const text = `${who}Filter: ${e.feasibleNodes} of ${e.evaluatedNodes} nodes feasible, Score: ${e.node} is best`;
      return {
        key: e.seq,
        step: { ...base, from: e.from, to: e.from, kind: 'note', text, over: [e.from] },
      };
    }
    case 'timer': {
      const text = `timer: ${e.what}${e.object !== undefined ? ` ${e.object}` : ''}`;
      return {
        key: e.seq,
        step: { ...base, from: e.from, to: e.from, kind: 'note', text, over: [e.from] },
      };
    }
    case 'fault': {
      const node = e.node ?? e.to;
      // "~" marks a placeholder lifeline: the note moves to kubelet@node, or to the first lifeline.
      const text = `fault: ${e.fault}${e.node ? ` ${e.node}` : ''}`;
      return {
        key: e.seq,
        step: {
          ...base,
          from: `kubelet@${node}`,
          to: `kubelet@${node}`,
          kind: 'note',
          text,
          over: [`kubelet@${node}`, `~${node}`],
        },
      };
    }
    case 'command': {
      const reqs = (idx.requestsOf.get(e.seq) ?? []).filter((r) => kept.has(r.seq));
      const key = reqs.length ? reqs[0].seq - 0.5 : e.seq;
      return {
        key,
        step: {
          ...base,
          from: e.from,
          to: e.from,
          kind: 'note',
          text: `$ ${e.command}`,
          over: [e.from],
        },
      };
    }
    default:
      return undefined;
  }
}

function collapseWatches(steps: Omit<SequenceStep, 'n'>[]): Omit<SequenceStep, 'n'>[] {
  const out: Omit<SequenceStep, 'n'>[] = [];
  let i = 0;
  while (i < steps.length) {
    if (steps[i].kind !== 'watch') {
      out.push(steps[i++]);
      continue;
    }
    // A burst: consecutive watch deliveries at the same instant.
    const t = steps[i].t;
    const groups = new Map<string, Omit<SequenceStep, 'n'>[]>();
    while (i < steps.length && steps[i].kind === 'watch' && steps[i].t === t) {
      const s = steps[i++];
      const head = s.text.split(' ').slice(0, 3).join(' ');
      const k = `${s.from}\u0000${s.to}\u0000${head}`;
      const g = groups.get(k);
      if (g) g.push(s);
      else groups.set(k, [s]);
    }
    for (const g of groups.values()) {
      if (g.length === 1) out.push(g[0]);
      else {
        const head = g[0].text.split(' ').slice(0, 3).join(' ');
        out.push({ ...g[0], text: `${head} ×${g.length}`, seqs: g.flatMap((s) => s.seqs) });
      }
    }
  }
  return out;
}

/**
 * waitLabel names a gap: "50 s later: node-monitor-grace-period" when the gap matches a setting
 * that explains it, "12.5 s later" otherwise. The grace period matches up to two node-monitor
 * periods late (the controller only looks every nodeMonitorPeriod); the others within 10%.
 */
export function waitLabel(gapSeconds: number, settings: Settings = defaultSettings): string {
  const s = (ms: number) => ms / 1000;
  const grace = s(settings.nodeMonitorGracePeriod);
  const known: { lo: number; hi: number; label: string }[] = [
    {
      lo: grace - 1,
      hi: grace + 2 * s(settings.nodeMonitorPeriod),
      label: 'node-monitor-grace-period',
    },
    {
      lo: settings.defaultUnreachableTolerationSeconds * 0.9,
      hi: settings.defaultUnreachableTolerationSeconds * 1.1,
      label: `default toleration (tolerationSeconds: ${settings.defaultUnreachableTolerationSeconds})`,
    },
    {
      lo: s(settings.nodeLeaseRenewInterval) * 0.9,
      hi: s(settings.nodeLeaseRenewInterval) * 1.1,
      label: 'lease renew interval',
    },
  ];
  const hit = known.find((k) => gapSeconds >= k.lo && gapSeconds <= k.hi);
  return `${formatSeconds(gapSeconds)} s later${hit ? `: ${hit.label}` : ''}`;
}

function defaultTitle(targets: ObjectRef[], opts: SequenceOptions): string {
  let title: string;
  if (targets.length === 0) title = 'Messages between Kubernetes components';
  else {
    const first = `${kindOf(targets[0].resource)} ${targets[0].name}`;
    title = `What happened to ${first}${targets.length > 1 ? ` and ${plural(targets.length - 1, 'more object')}` : ''}, and what led to it`;
  }
  if (opts.from !== undefined || opts.to !== undefined)
    title += ` (${formatSeconds(opts.from ?? 0)} s to ${opts.to !== undefined ? `${formatSeconds(opts.to)} s` : 'the end'})`;
  return title;
}

function defaultDescription(steps: SequenceStep[], order: string[]): string {
  const arrows = steps.filter((s) => s.kind !== 'note');
  if (arrows.length === 0) return 'No messages.';
  const count = (k: SequenceStep['kind']) =>
    arrows
      .filter((s) => s.kind === k)
      .reduce((n, s) => n + (s.kind === 'watch' ? s.seqs.length : 1), 0);
  const parts = [
    plural(count('request'), 'API request'),
    plural(count('store'), 'etcd write'),
    plural(count('watch'), 'watch event'),
    plural(arrows.filter((s) => s.kind === 'call' && s.to !== 'cloud').length, 'node-local call'),
    plural(arrows.filter((s) => s.kind === 'call' && s.to === 'cloud').length, 'cloud API call'),
  ].filter((p) => !p.startsWith('0 '));
  const t0 = formatSeconds(steps[0].t);
  const t1 = formatSeconds(steps[steps.length - 1].t);
  return `${plural(arrows.length, 'message')} among ${order.join(', ')} from ${t0} s to ${t1} s: ${parts.join(', ')}.`;
}

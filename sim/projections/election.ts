// Leader election in a highly available control plane, over virtual time: each etcd member's Raft
// role and term (the run's raft StateChange entries, sim/etcd/raft.ts), which kube-scheduler and
// kube-controller-manager instance holds its Lease in kube-system (the Lease objects' committed
// changes, written by sim/client/leaderelection.ts) and the faults. A projection in the sense of
// STYLE.md §4: a pure function of the run; the figure is drawn by src/lib/figures/election-svg.ts.
//
// Raft entries are recorded only at trace level 'full' (the figures' level). A cluster is born
// settled (EtcdCluster.bootstrapLeader records no StateChange, and a settled cluster's heartbeats
// are quiet), so a member's role before its first StateChange is read from its first message: the
// member that sends appends or heartbeats leads, the others follow, in the term the message
// carries. Every committed write is an append (EtcdCluster.propose traces it), and the Leases are
// renewed every 2 s, so the born leader speaks within the run's first seconds. A stopped member records nothing
// (setMemberUp(false)), so it is drawn down from the fault that stopped it to its next StateChange
// (a restarted member starts as a follower and says so).

import type { Lease } from '../api/types.ts';
import type { FaultEntry, RaftEntry } from '../engine/trace.ts';
import type { RunLike } from './util.ts';

/** ElectionState is what a lane shows: a Raft role, down, or a Lease held (or running out). */
export type ElectionState =
  'follower' | 'pre-candidate' | 'candidate' | 'leader' | 'down' | 'holds' | 'expiring';

/** ElectionSegment is one stretch of a lane in one state, from..to (virtual seconds). */
export interface ElectionSegment {
  from: number;
  to: number;
  state: ElectionState;
  /** term is the member's Raft term (etcd lanes). */
  term?: number;
  /** holder is the node whose instance holds the Lease (lease lanes). */
  holder?: string;
}

/** ElectionLane is one row: an etcd member (its node) or a leader-elected component's Lease. */
export interface ElectionLane {
  kind: 'etcd' | 'lease';
  /** name is the node (etcd lanes) or the Lease, kube-scheduler or kube-controller-manager. */
  name: string;
  segments: ElectionSegment[];
}

/** Handover is a moment a new leader took over after a fault: an etcd leader or a Lease holder. */
export interface Handover {
  lane: string;
  kind: 'etcd' | 'lease';
  t: number;
  /** node is the new leader's (holder's) node. */
  node: string;
  term?: number;
  /** fault is the latest fault before t that stopped or cut off the previous leader's node. */
  fault?: { t: number; fault: string; node?: string };
  /** after is t - fault.t, seconds. */
  after?: number;
}

export interface ElectionTimeline {
  from: number;
  to: number;
  lanes: ElectionLane[];
  faults: { t: number; fault: string; node?: string }[];
  handovers: Handover[];
  title: string;
  description: string;
}

export interface ElectionOptions {
  /** from and to limit the window (virtual seconds); default the whole run. */
  from?: number;
  to?: number;
  /** end is the run's end (RunResult.until); default the last entry's time. */
  end?: number;
  lang?: 'en' | 'ja';
}

/** LEASES are the kube-system Leases the control plane's components elect their leader with. */
export const ELECTION_LEASES = ['kube-scheduler', 'kube-controller-manager'] as const;

/** RENEWING: a holder whose last renewal is this close to the run's end is still renewing (s). */
const RENEWING = 4.4;

const STOPS = new Set(['node-down', 'etcd-member-down', 'etcd-down']);
const CUTS = new Set(['node-down', 'etcd-member-down', 'etcd-down', 'partition', 'apiserver-down']);

const TEXT = {
  en: {
    title: 'Leader election: etcd members and the kube-system Leases over time',
    etcd: (node: string, t: string, term: number | undefined, after: string) =>
      `etcd on ${node} became leader (term ${term}) at ${t} s${after ? `, ${after} s after the fault` : ''}`,
    lease: (lease: string, node: string, t: string, after: string) =>
      `${lease}'s Lease moved to ${node} at ${t} s${after ? `, ${after} s after the fault` : ''}`,
    fault: (f: string, node: string | undefined, t: string) =>
      `${t} s: fault ${f}${node ? ` on ${node}` : ''}`,
    description: (from: string, to: string, lanes: string, events: string) =>
      `Band chart from ${from} to ${to} s, one lane per ${lanes}. ${events}`,
    lanes: 'etcd member (its Raft role and term) and per Lease (its holder)',
  },
  ja: {
    title: 'リーダー選出: etcd メンバーと kube-system の Lease の推移',
    etcd: (node: string, t: string, term: number | undefined, after: string) =>
      `${t} 秒に ${node} の etcd がリーダーになった（term ${term}）${after ? `。障害から ${after} 秒後` : ''}`,
    lease: (lease: string, node: string, t: string, after: string) =>
      `${t} 秒に ${lease} の Lease が ${node} に移った${after ? `。障害から ${after} 秒後` : ''}`,
    fault: (f: string, node: string | undefined, t: string) =>
      `${t} 秒: 障害 ${f}${node ? `（${node}）` : ''}`,
    description: (from: string, to: string, lanes: string, events: string) =>
      `${from} 秒から ${to} 秒までの帯グラフ。${lanes}。${events}`,
    lanes: 'etcd メンバーごとに Raft の役割と term を、Lease ごとに保持者を 1 行で示す',
  },
};

/** sec prints seconds to the millisecond (as the figures' seconds()). */
function sec(s: number): string {
  return String(Math.round(s * 1000) / 1000);
}

/** electionTimeline projects a run onto one lane per etcd member and per leader-elected Lease. */
export function electionTimeline(
  run: RunLike & { until?: number },
  opts: ElectionOptions = {},
): ElectionTimeline {
  const text = TEXT[opts.lang ?? 'en'];
  const raft = run.trace.filter((e): e is RaftEntry => e.kind === 'raft');
  const faults = run.trace
    .filter((e): e is FaultEntry => e.kind === 'fault')
    .map((e) => ({ t: e.t, fault: e.fault, ...(e.node !== undefined ? { node: e.node } : {}) }));
  const end = opts.end ?? run.until ?? Math.max(0, ...run.trace.map((e) => e.t));
  const nodeOf = (who: string) => who.slice(who.indexOf('@') + 1);
  const members = [...new Set(raft.flatMap((e) => [nodeOf(e.from), nodeOf(e.to)]))].sort((a, b) =>
    a.localeCompare(b, 'en', { numeric: true }),
  );

  // ---- etcd lanes ----
  const lanes: ElectionLane[] = [];
  for (const node of members) {
    const own = raft.filter((e) => nodeOf(e.from) === node);
    const first = own[0];
    let state: ElectionState = 'follower';
    let term = first?.term;
    if (first && first.msg !== 'StateChange')
      state = first.msg === 'MsgHeartbeat' || first.msg === 'MsgApp' ? 'leader' : 'follower';
    const points: { t: number; state: ElectionState; term?: number }[] = [];
    if (!first || first.msg !== 'StateChange' || first.t > 0)
      points.push({ t: 0, state, ...(term !== undefined ? { term } : {}) });
    const stops = faults.filter(
      (f) =>
        STOPS.has(f.fault) &&
        (f.node === node || (f.node === undefined && f.fault === 'etcd-down')),
    );
    const changes = own.filter((e) => e.msg === 'StateChange');
    // Merge the member's StateChanges with the faults that stopped it, in time order.
    const events = [
      ...changes.map((e) => ({ t: e.t, seq: e.seq, state: e.state!, term: e.term })),
      ...stops.map((f) => ({ t: f.t, seq: -1, state: 'down' as const, term: undefined })),
    ].sort((a, b) => a.t - b.t || a.seq - b.seq);
    for (const ev of events) {
      state = ev.state;
      if (ev.term !== undefined) term = ev.term;
      points.push({ t: ev.t, state, ...(state !== 'down' && term !== undefined ? { term } : {}) });
    }
    lanes.push({ kind: 'etcd', name: node, segments: segments(points, end) });
  }

  // ---- Lease lanes ----
  for (const name of ELECTION_LEASES) {
    const writes = (run.changes ?? []).filter(
      (c) =>
        c.resource === 'leases' &&
        c.object.metadata.namespace === 'kube-system' &&
        c.object.metadata.name === name &&
        c.type !== 'DELETED',
    );
    if (!writes.length) continue;
    const segs: ElectionSegment[] = [];
    // A holder holds from its first write of the record to its last renewal; the record stays
    // valid for leaseDurationSeconds after that (others wait that long before taking over).
    let cur: { holder: string; from: number; last: number; duration: number } | undefined;
    const close = (next: number) => {
      if (!cur) return;
      segs.push({ from: cur.from, to: cur.last, state: 'holds', holder: cur.holder });
      const expires = Math.min(cur.last + cur.duration, next);
      if (expires > cur.last)
        segs.push({ from: cur.last, to: expires, state: 'expiring', holder: cur.holder });
      cur = undefined;
    };
    for (const c of writes) {
      const spec = (c.object as Lease).spec ?? {};
      const holder = (spec.holderIdentity ?? '').split('_')[0]!;
      const duration = spec.leaseDurationSeconds ?? 15;
      if (cur && cur.holder === holder) {
        cur.last = c.t;
        cur.duration = duration;
        continue;
      }
      close(c.t);
      // A Lease the run's first change modifies was born with the cluster, held since before 0.
      const born = c === writes[0] && c.type === 'MODIFIED';
      if (holder) cur = { holder, from: born ? 0 : c.t, last: c.t, duration };
    }
    if (cur) {
      // Still renewing at the end when the last renewal is within two retry periods (2 s) of it.
      if (end - cur.last <= RENEWING) cur.last = end;
      close(end);
    }
    lanes.push({
      kind: 'lease',
      name,
      segments: segs.filter((s) => s.to > s.from || s.state === 'holds'),
    });
  }

  // ---- handovers: a new leader after a fault that stopped or cut off the previous one ----
  const handovers: Handover[] = [];
  const etcdLeaders = lanes
    .filter((l) => l.kind === 'etcd')
    .flatMap((l) =>
      l.segments.filter((s) => s.state === 'leader').map((s) => ({ s, node: l.name })),
    )
    .sort((a, b) => a.s.from - b.s.from);
  for (let i = 1; i < etcdLeaders.length; i++) {
    const { s, node } = etcdLeaders[i]!;
    handovers.push(
      handover('etcd', 'etcd', s.from, node, etcdLeaders[i - 1]!.node, faults, s.term),
    );
  }
  for (const l of lanes.filter((x) => x.kind === 'lease')) {
    const holds = l.segments.filter((s) => s.state === 'holds');
    for (let i = 1; i < holds.length; i++)
      handovers.push(
        handover(l.name, 'lease', holds[i]!.from, holds[i]!.holder!, holds[i - 1]!.holder!, faults),
      );
  }
  handovers.sort((a, b) => a.t - b.t);

  const from = opts.from ?? 0;
  const to = opts.to ?? end;
  const clip = (l: ElectionLane): ElectionLane => ({
    ...l,
    segments: l.segments
      .map((s) => ({ ...s, from: Math.max(s.from, from), to: Math.min(s.to, to) }))
      .filter((s) => s.to > s.from),
  });
  const inWindow = (t: number) => t >= from && t <= to;
  const shownFaults = faults.filter((f) => inWindow(f.t));
  const shownHandovers = handovers.filter((h) => inWindow(h.t));
  const events = [
    ...shownFaults.map((f) => ({ t: f.t, s: text.fault(f.fault, f.node, sec(f.t)) })),
    ...shownHandovers.map((h) => ({
      t: h.t,
      s:
        h.kind === 'etcd'
          ? text.etcd(h.node, sec(h.t), h.term, h.after !== undefined ? sec(h.after) : '')
          : text.lease(h.lane, h.node, sec(h.t), h.after !== undefined ? sec(h.after) : ''),
    })),
  ]
    .sort((a, b) => a.t - b.t)
    .map((e) => e.s);
  const sep = opts.lang === 'ja' ? '。' : '. ';
  return {
    from,
    to,
    lanes: lanes.map(clip),
    faults: shownFaults,
    handovers: shownHandovers,
    title: text.title,
    description: text.description(
      sec(from),
      sec(to),
      text.lanes,
      events.length ? events.join(sep) + (opts.lang === 'ja' ? '。' : '.') : '',
    ),
  };
}

/** segments turns state points into back-to-back segments, merging equal neighbours. */
function segments(
  points: { t: number; state: ElectionState; term?: number }[],
  end: number,
): ElectionSegment[] {
  const out: ElectionSegment[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const to = points[i + 1]?.t ?? end;
    const last = out[out.length - 1];
    if (last && last.state === p.state && last.term === p.term) {
      last.to = to;
      continue;
    }
    if (last && last.from === p.t && last.to === p.t) out.pop();
    out.push({ from: p.t, to, state: p.state, ...(p.term !== undefined ? { term: p.term } : {}) });
  }
  return out.filter((s, i) => s.to > s.from || i === out.length - 1);
}

function handover(
  lane: string,
  kind: 'etcd' | 'lease',
  t: number,
  node: string,
  previous: string,
  faults: { t: number; fault: string; node?: string }[],
  term?: number,
): Handover {
  let fault: Handover['fault'];
  for (const f of faults)
    if (f.t <= t && CUTS.has(f.fault) && (f.node === previous || f.node === undefined)) fault = f;
  return {
    lane,
    kind,
    t,
    node,
    ...(term !== undefined ? { term } : {}),
    ...(fault ? { fault, after: Math.round((t - fault.t) * 1000) / 1000 } : {}),
  };
}

// The path of one write through a highly available control plane: kubectl's request to
// kube-apiserver, kube-apiserver's transaction with etcd, the leader's append (MsgApp) to each
// follower it reaches and their answers (MsgAppResp), the commit once a majority holds the entry,
// and the answers back. A projection in the sense of STYLE.md §4: a pure function of the trace;
// the model is a SequenceDiagram, drawn by the same renderer as the other sequence figures.
//
// The Raft messages are the ones EtcdCluster.propose records (sim/etcd/raft.ts) just before the
// store entry of the write they carry, at the same instant: a proposal's replication takes no
// virtual time there (see the top of raft.ts), so this figure shows order, not latency.
// Simplification (of the model, said in the notes): kube-apiserver's instances answer as one and
// talk to the leader directly (upstream each talks to its local member, which forwards a
// proposal to the leader).

import type { RaftEntry, RequestEntry, StoreEntry, TraceEntry } from '../engine/trace.ts';
import { stepsDiagram, type SequenceDiagram, type SequenceStep } from './sequence.ts';
import type { RunLike } from './util.ts';

/** CommitOptions choose the write: the first one a client made in the window that etcd committed. */
export interface CommitOptions {
  /** client is the request's user; default kubectl. */
  client?: string;
  /** resource (without subresource) and name narrow the choice. */
  resource?: string;
  name?: string;
  from?: number;
  to?: number;
  lang?: 'en' | 'ja';
}

/** CommitSequence is the diagram plus what it found: the entry's index and the quorum. */
export interface CommitSequence extends SequenceDiagram {
  /** index and term are the Raft log entry of the write; undefined when none was traced. */
  index?: number;
  term?: number;
  leader?: string;
  /** acks are the followers that answered; members every member of the Raft cluster. */
  acks: string[];
  members: string[];
  quorum: number;
  revision?: number;
  request?: RequestEntry;
}

/** STATUS names the HTTP status codes a successful write answers with. */
const STATUS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted' };

const WRITES = new Set(['create', 'update', 'patch', 'delete']);

const TEXT = {
  en: {
    request: (r: RequestEntry) => `${r.verb} ${r.resource}${r.name ? ` ${r.name}` : ''}`,
    txn: (s: StoreEntry) => `${s.op} ${s.key}`,
    append: (i: number, term: number) => `appends entry ${i} (term ${term}) to its log`,
    msgApp: (i: number, term: number, commit: number) =>
      `MsgApp: entry ${i}, term ${term} (commit ${commit})`,
    msgAppResp: (i: number) => `MsgAppResp: has up to ${i}`,
    commit: (i: number, n: number, all: number, q: number) =>
      `entry ${i} committed: ${n} of ${all} members hold it (a majority is ${q})`,
    absent: (ms: string) => `${ms}: stopped or cut off, gets no MsgApp`,
    ok: (rev: number) => `OK, revision ${rev}`,
    answer: (r: RequestEntry) => `${r.code} ${STATUS[r.code] ?? ''}`.trim(),
    title: (r: RequestEntry) =>
      `One write through etcd's Raft: ${r.verb} ${r.resource}${r.name ? ` ${r.name}` : ''}`,
    description: (who: string, leader: string, n: number, all: number, i: number) =>
      `${who}'s write reaches kube-apiserver, which writes it to etcd; the leader, etcd on ${leader}, appends it as entry ${i} and sends it to each follower it reaches; with ${n} of ${all} members holding it (a majority) the entry is committed and the write is answered.`,
    noRaft: (who: string) =>
      `${who}'s write reaches kube-apiserver, which writes it to etcd (no Raft messages were traced for it).`,
    simplification:
      'kube-apiserver talks to the leader directly here (upstream its local member forwards the proposal); replication takes no virtual time.',
  },
  ja: {
    request: (r: RequestEntry) => `${r.verb} ${r.resource}${r.name ? ` ${r.name}` : ''}`,
    txn: (s: StoreEntry) => `${s.op} ${s.key}`,
    append: (i: number, term: number) => `エントリ ${i}（term ${term}）をログに追加`,
    msgApp: (i: number, term: number, commit: number) =>
      `MsgApp: エントリ ${i}、term ${term}（commit ${commit}）`,
    msgAppResp: (i: number) => `MsgAppResp: ${i} まで保持`,
    commit: (i: number, n: number, all: number, q: number) =>
      `エントリ ${i} をコミット: ${all} メンバー中 ${n} が保持（過半数は ${q}）`,
    absent: (ms: string) => `${ms}: 停止または切断中で MsgApp は届かない`,
    ok: (rev: number) => `OK、revision ${rev}`,
    answer: (r: RequestEntry) => `${r.code} ${STATUS[r.code] ?? ''}`.trim(),
    title: (r: RequestEntry) =>
      `etcd の Raft を通る 1 回の書き込み: ${r.verb} ${r.resource}${r.name ? ` ${r.name}` : ''}`,
    description: (who: string, leader: string, n: number, all: number, i: number) =>
      `${who} の書き込みは kube-apiserver に届き、kube-apiserver が etcd に書き込みます。リーダーである ${leader} の etcd はそれをエントリ ${i} としてログに追加し、届くフォロワーそれぞれに送ります。${all} メンバー中 ${n} が保持する（過半数）とエントリはコミットされ、書き込みに応答が返ります。`,
    noRaft: (who: string) =>
      `${who} の書き込みは kube-apiserver に届き、kube-apiserver が etcd に書き込みます（Raft のメッセージは記録されていません）。`,
    simplification:
      'ここでは kube-apiserver がリーダーと直接やりとりします（本来はローカルのメンバーが提案を転送します）。複製に仮想時間はかかりません。',
  },
};

/** commitSequence projects one committed write onto a sequence diagram of its Raft round. */
export function commitSequence(run: RunLike, opts: CommitOptions = {}): CommitSequence {
  const t = TEXT[opts.lang ?? 'en'];
  const client = opts.client ?? 'kubectl';
  const trace = run.trace;
  const members = [
    ...new Set(trace.flatMap((e) => (e.kind === 'raft' ? [e.from, e.to] : []))),
  ].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const quorum = Math.floor(members.length / 2) + 1;
  const inWindow = (e: TraceEntry) =>
    (opts.from === undefined || e.t >= opts.from) && (opts.to === undefined || e.t <= opts.to);
  // The request entry follows its store entry (kube-apiserver records the request when it
  // answers), and the Raft entries precede the store entry (etcd commits before it answers).
  let request: RequestEntry | undefined;
  let store: StoreEntry | undefined;
  let at = -1;
  for (let i = 0; i < trace.length && !request; i++) {
    const e = trace[i]!;
    if (
      e.kind !== 'request' ||
      e.from !== client ||
      !WRITES.has(e.verb) ||
      e.code >= 300 ||
      !inWindow(e) ||
      (opts.resource !== undefined && e.resource.split('/')[0] !== opts.resource) ||
      (opts.name !== undefined && e.name !== opts.name)
    )
      continue;
    for (let j = i - 1; j >= 0 && trace[j]!.t === e.t; j--) {
      const s = trace[j]!;
      if (s.kind === 'request') break;
      if (s.kind === 'store' && s.op !== 'range' && s.resource === e.resource.split('/')[0]) {
        store = s;
        at = j;
        break;
      }
    }
    if (store) request = e;
  }
  const raft: RaftEntry[] = [];
  for (let j = at - 1; j >= 0 && request; j--) {
    const e = trace[j]!;
    if (e.t !== request.t || e.kind !== 'raft' || (e.msg !== 'MsgApp' && e.msg !== 'MsgAppResp'))
      break;
    raft.unshift(e);
  }
  const apps = raft.filter((e) => e.msg === 'MsgApp');
  const resps = raft.filter((e) => e.msg === 'MsgAppResp');
  const leader = apps[0]?.from;
  const index = apps[0] ? apps[0].index! + 1 : undefined;
  const term = apps[0]?.term;
  const acks = resps.map((e) => e.from);

  const steps: Omit<SequenceStep, 'n'>[] = [];
  const add = (
    from: string,
    to: string,
    kind: SequenceStep['kind'],
    text: string,
    e: TraceEntry,
    dotted = false,
    over?: string[],
  ) =>
    steps.push({
      t: e.t,
      from,
      to,
      kind,
      text,
      dotted,
      ...(kind === 'note' ? { over: over ?? [from] } : {}),
      seqs: [e.seq],
    });
  const api = 'kube-apiserver';
  if (request && store) {
    add(client, api, 'request', t.request(request), request);
    // Without traced Raft messages (a single control-plane node, or a lower trace level) the
    // store write is drawn to etcd as a whole.
    const etcd = leader ?? 'etcd';
    add(api, etcd, 'store', t.txn(store), store);
    if (leader && index !== undefined && term !== undefined) {
      add(leader, leader, 'note', t.append(index, term), apps[0]!);
      const absent = members.filter((m) => m !== leader && !apps.some((a) => a.to === m));
      for (const a of apps) add(leader, a.to, 'packet', t.msgApp(index, term, a.commit ?? 0), a);
      for (const r of resps) add(r.from, leader, 'reply', t.msgAppResp(r.index ?? index), r, true);
      if (absent.length)
        add(
          absent[0]!,
          absent[0]!,
          'note',
          t.absent(absent.map((m) => m.split('@')[1]).join(', ')),
          request,
          false,
          absent,
        );
      if (acks.length + 1 >= quorum)
        add(
          leader,
          leader,
          'note',
          t.commit(index, acks.length + 1, members.length, quorum),
          resps.at(-1) ?? apps[0]!,
        );
    }
    add(etcd, api, 'reply', t.ok(store.revision), store, true);
    add(api, client, 'reply', t.answer(request), request, true);
  }
  const order = [client, api, ...(leader ? [leader] : ['etcd']), ...members];
  const leaderNode = leader?.split('@')[1] ?? '';
  const description = !request
    ? ''
    : leader && index !== undefined
      ? `${t.description(client, leaderNode, acks.length + 1, members.length, index)} ${t.simplification}`
      : t.noRaft(client);
  return {
    ...stepsDiagram(order, steps, request ? t.title(request) : '', description),
    ...(index !== undefined ? { index } : {}),
    ...(term !== undefined ? { term } : {}),
    ...(leader ? { leader } : {}),
    acks,
    members,
    quorum,
    ...(store ? { revision: store.revision } : {}),
    ...(request ? { request } : {}),
  };
}

// etcd's consensus: the members of a Raft cluster (etcd-io/raft raft.go, as etcd v3.6 configures
// it in server/etcdserver/raft.go and server/embed/config.go): a heartbeat every tick (100 ms), an
// election timeout of 10 ticks, each follower's timeout drawn again at every reset from
// [10, 19] ticks (resetRandomizedElectionTimeout), Pre-Vote and CheckQuorum on. A follower that
// hears no leader for its timeout runs a pre-vote at term + 1 without raising its own term
// (raft.go campaign(campaignPreElection)); on a majority of pre-votes it raises its term, votes
// for itself and asks for votes; a majority makes it leader, which appends an empty entry of its
// term and commits it once a majority has it. A member grants a vote when its log is not newer
// than the candidate's and it has not voted for another in the term; it ignores (pre-)votes while
// it has heard from a leader within the election timeout (the leader lease that CheckQuorum
// enables). A leader that has not heard from a majority for an election timeout steps down.
// Writes are proposed through the leader and committed when a majority holds them.
//
// Simplification: entries carry a summary of the write, not its data: the key space every member
// applies is the one EtcdStore (store.ts), which changes only while a leader has a quorum, so
// a member's state is the store's as of its applied index. A proposal is replicated to every
// member that is up and connected at once (the round trip takes no virtual time, as every request
// here), and a member that was cut off or stopped catches up with one append (or snapshot) when
// it hears the leader again. Elections and heartbeats take their messages' latency (1 ms one way).
// Each member ticks on its own grid (a phase drawn once, as its process started at its own
// moment): a follower's election timeout of T ticks fires on its T-th tick after it last heard
// its leader, 0-100 ms short of T x 100 ms.

import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import type { Rng } from '../engine/rng.ts';
import type { RaftEntry } from '../engine/trace.ts';

export type RaftRole = 'follower' | 'pre-candidate' | 'candidate' | 'leader';

/** MemberStatus is what etcdctl endpoint status reports of a member, and its role. */
export interface MemberStatus {
  /** id is the member ID, 16 hex digits. */
  id: string;
  name: string;
  up: boolean;
  role: RaftRole;
  isLeader: boolean;
  /** leader is the name of the member this one follows (or itself), if it knows one. */
  leader: string | undefined;
  raftTerm: number;
  /** raftIndex is the last index of the member's log. */
  raftIndex: number;
  commitIndex: number;
  raftAppliedIndex: number;
}

export interface LogEntry {
  index: number;
  term: number;
  summary: string;
}

interface Member {
  readonly name: string;
  readonly id: string;
  readonly rng: Rng;
  /** phase is where in each 100 ms the member's ticks fall. */
  readonly phase: number;
  up: boolean;
  role: RaftRole;
  term: number;
  votedFor: string | undefined;
  lead: string | undefined;
  /** log holds the entries after firstIndex - 1 (older ones are in the snapshot). */
  log: { term: number; summary: string }[];
  firstIndex: number;
  /** snapshotTerm is the term of entry firstIndex - 1. */
  snapshotTerm: number;
  commit: number;
  applied: number;
  /** heardAt is when the member last heard from its leader (or granted a vote). */
  heardAt: number;
  timeoutMs: number;
  timer: TimerHandle | undefined;
  /** timerAt is when timer fires; it checks the deadline again then (heartbeats move it). */
  timerAt: number;
  /** beatOrigin is when a leader's heartbeats started: they fall every heartbeatMs after it. */
  beatOrigin: number;
  votes: Set<string>;
  /** leader state: each peer's highest matched index and whether it answered since the last check. */
  match: Map<string, number>;
  active: Set<string>;
  heartbeat: TimerHandle | undefined;
  quorumCheck: TimerHandle | undefined;
}

type Message = {
  msg: RaftEntry['msg'];
  from: string;
  to: string;
  term: number;
  index?: number;
  logTerm?: number;
  commit?: number;
  reject?: boolean;
};

/** COMPACT_AFTER: a log longer than this keeps only its newest half (etcd snapshots every 10,000). */
const COMPACT_AFTER = 20_000;

export class EtcdCluster {
  readonly heartbeatMs: number;
  readonly electionMs: number;
  readonly peerLatencyMs: number;
  private readonly members = new Map<string, Member>();
  private readonly names: readonly string[];
  private connected: (a: string, b: string) => boolean = () => true;
  /** onChange is called when leader() or serve() of a member may have changed. */
  onChange: (() => void) | undefined;

  private readonly sim: Simulation;

  constructor(
    sim: Simulation,
    names: readonly string[],
    opts: { heartbeatMs?: number; electionMs?: number; peerLatencyMs?: number } = {},
  ) {
    this.sim = sim;
    this.heartbeatMs = opts.heartbeatMs ?? 100;
    this.electionMs = opts.electionMs ?? 1000;
    this.peerLatencyMs = opts.peerLatencyMs ?? 1;
    this.names = names;
    for (const name of names) {
      const rng = sim.rng.fork(`etcd/${name}`);
      this.members.set(name, {
        name,
        id: memberID(name),
        rng,
        phase: rng.intn(this.heartbeatMs),
        up: true,
        role: 'follower',
        term: 1,
        votedFor: undefined,
        lead: undefined,
        log: [],
        firstIndex: 1,
        snapshotTerm: 0,
        commit: 0,
        applied: 0,
        heardAt: sim.now(),
        timeoutMs: 0,
        timer: undefined,
        timerAt: Infinity,
        beatOrigin: 0,
        votes: new Set(),
        match: new Map(),
        active: new Set(),
        heartbeat: undefined,
        quorumCheck: undefined,
      });
    }
  }

  get quorum(): number {
    return Math.floor(this.names.length / 2) + 1;
  }

  /** start starts every member as a follower of term 1 with no leader: the first election follows. */
  start(): void {
    for (const m of this.members.values()) this.reset(m);
  }

  /**
   * bootstrapLeader starts the cluster settled, as a cluster that has run for a while: name leads
   * term 2, every member's log holds its empty entry, committed and applied.
   */
  bootstrapLeader(name: string): void {
    for (const m of this.members.values()) {
      m.term = 2;
      m.votedFor = name;
      m.lead = name;
      m.log = [{ term: 2, summary: '' }];
      m.commit = m.applied = 1;
      m.role = m.name === name ? 'leader' : 'follower';
      m.heardAt = this.sim.now();
    }
    const l = this.members.get(name)!;
    for (const n of this.names) if (n !== name) l.match.set(n, 1);
    this.becomeLeaderTimers(l);
    for (const m of this.members.values()) if (m.role !== 'leader') this.reset(m);
    this.maybeQuiesce(l);
  }

  member(name: string): Member {
    const m = this.members.get(name);
    if (!m) throw new Error(`etcd member "${name}" not found`);
    return m;
  }

  setMemberUp(name: string, up: boolean): void {
    const m = this.member(name);
    if (m.up === up) return;
    this.wake();
    m.up = up;
    if (!up) {
      // The process stops: its term, vote and log are on disk; nothing else survives.
      this.disarm(m);
      if (m.role === 'leader') this.stopLeaderTimers(m);
      m.role = 'follower';
      m.lead = undefined;
      m.votes.clear();
      this.changed();
      return;
    }
    // A restarted member is a follower that has heard no leader yet.
    m.role = 'follower';
    m.lead = undefined;
    m.applied = Math.min(m.applied, m.commit);
    this.reset(m);
    m.heardAt = -Infinity;
    this.trace(m.name, m.name, { msg: 'StateChange', term: m.term, state: 'follower' });
    this.changed();
  }

  /** setConnected says which members' messages reach each other; call again when it changes. */
  setConnected(fn: (a: string, b: string) => boolean): void {
    this.wake();
    this.connected = fn;
    this.changed();
  }

  private reaches(a: Member, b: Member): boolean {
    return a.up && b.up && this.connected(a.name, b.name);
  }

  /** leader is the member that leads with a quorum it can reach, if any. */
  leader(): string | undefined {
    for (const m of this.members.values())
      if (m.up && m.role === 'leader' && this.reachable(m) >= this.quorum) return m.name;
    return undefined;
  }

  // reachable counts the members a leader's appends would be accepted by: itself and those it
  // reaches whose term is not past its own (a member of a later term refuses them).
  private reachable(l: Member): number {
    let n = 0;
    for (const m of this.members.values()) if (m === l || this.follows(l, m)) n++;
    return n;
  }

  private follows(l: Member, m: Member): boolean {
    return m !== l && this.reaches(l, m) && m.term <= l.term;
  }

  /**
   * serve says whether a linearizable request (a write, or a read with a ReadIndex round) that
   * arrives at member name can complete now: 'ok', or the error the client gets
   * (server/etcdserver/errors: the proposal times out without a leader or a quorum).
   */
  serve(name: string): string {
    const m = this.member(name);
    if (!m.up) return 'etcdserver: request timed out';
    const l = m.lead !== undefined ? this.members.get(m.lead) : undefined;
    if (!l || l.role !== 'leader' || l.term !== m.term || (l !== m && !this.reaches(m, l)))
      return 'etcdserver: request timed out';
    if (this.reachable(l) < this.quorum) return 'etcdserver: request timed out';
    return 'ok';
  }

  /** propose appends one entry through member name and returns its index; it throws serve's error. */
  propose(name: string, summary: string): number {
    const err = this.serve(name);
    if (err !== 'ok') throw new Error(err);
    const l = this.member(this.member(name).lead!);
    l.log.push({ term: l.term, summary });
    const index = lastIndex(l);
    for (const m of this.members.values())
      if (this.follows(l, m)) {
        // The append reaches it at once (see the top of the file): it follows l in l's term.
        if (m.term < l.term || m.role !== 'follower' || m.lead !== l.name)
          this.becomeFollower(m, l.term, l.name);
        m.heardAt = this.sim.now();
        // Traced for the figures (the commit sequence): the append and its answer, at this
        // instant, as the messages a real leader sends (prev index and term, its commit).
        this.trace(l.name, m.name, {
          msg: 'MsgApp',
          term: l.term,
          index: index - 1,
          logTerm: termAt(l, index - 1),
          commit: l.commit,
        });
        this.replicate(l, m);
        this.trace(m.name, l.name, { msg: 'MsgAppResp', term: m.term, index: lastIndex(m) });
      }
    this.advanceCommit(l);
    this.compact(l);
    return index;
  }

  status(name: string): MemberStatus {
    const m = this.member(name);
    return {
      id: m.id,
      name,
      up: m.up,
      role: m.role,
      isLeader: m.up && m.role === 'leader',
      leader: m.lead,
      raftTerm: m.term,
      raftIndex: lastIndex(m),
      commitIndex: m.commit,
      raftAppliedIndex: m.applied,
    };
  }

  /** logTail is a member's last n entries. */
  logTail(name: string, n: number): LogEntry[] {
    const m = this.member(name);
    const from = Math.max(m.firstIndex, lastIndex(m) - n + 1);
    const out: LogEntry[] = [];
    for (let i = from; i <= lastIndex(m); i++) out.push({ index: i, ...m.log[i - m.firstIndex] });
    return out;
  }

  // ---- timers ----

  /** ticksSince counts m's ticks after time t, up to now (raft.go electionElapsed). */
  private ticksSince(m: Member, t: number): number {
    if (t === -Infinity) return Infinity;
    const beat = this.heartbeatMs;
    const first = t + ((((m.phase - t) % beat) + beat) % beat || beat);
    const now = this.sim.now();
    return now < first ? 0 : 1 + Math.floor((now - first) / beat);
  }

  /** reset is raft.go reset: a new randomised election timeout, and electionElapsed back to 0. */
  private reset(m: Member): void {
    // resetRandomizedElectionTimeout: electiontimeout + rand.Intn(electiontimeout) ticks.
    const ticks = this.electionMs / this.heartbeatMs;
    m.timeoutMs = (ticks + m.rng.intn(ticks)) * this.heartbeatMs;
    this.touch(m);
  }

  /** touch sets electionElapsed to 0 (a message from the leader, a vote granted). */
  private touch(m: Member): void {
    m.heardAt = this.sim.now();
    this.arm(m);
  }

  /** deadline is the member's tick on which its election timeout passes. */
  private deadline(m: Member): number {
    const beat = this.heartbeatMs;
    const t = m.heardAt === -Infinity ? this.sim.now() : m.heardAt;
    const firstTick = (((m.phase - t) % beat) + beat) % beat || beat;
    return t + firstTick + m.timeoutMs - beat;
  }

  // arm keeps one timer per member: a heartbeat only moves heardAt, and the timer, when it
  // fires, looks at the deadline again (one event per timeout, not one per heartbeat).
  private arm(m: Member): void {
    if (m.role === 'leader' || !m.up) return;
    // A follower of a quiet leader has no timer (see quiescence below).
    const q = this.quiet;
    if (q && m.lead === q.name && m.term === q.term) return;
    const at = this.deadline(m);
    if (m.timer && m.timerAt <= at) return;
    m.timer?.cancel();
    m.timerAt = at;
    m.timer = this.sim.at(at, `etcd@${m.name}: election timeout`, () => this.fire(m), 0);
  }

  private fire(m: Member): void {
    m.timer = undefined;
    m.timerAt = Infinity;
    if (this.deadline(m) > this.sim.now()) return this.arm(m);
    // tickElection: electionElapsed back to 0, then MsgHup (a pre-vote first).
    m.heardAt = this.sim.now();
    this.campaign(m, true);
  }

  private disarm(m: Member): void {
    m.timer?.cancel();
    m.timer = undefined;
    m.timerAt = Infinity;
  }

  // ---- quiescence ----
  //
  // Simplification (of the engine's work, not of what happens): at trace levels that do not
  // record Raft messages, a settled cluster (a leader that every up member reaches and follows
  // in its term, every log matched) stops its heartbeat and election timers; the first change
  // (a member stopped or started, a partition) brings them back as they would have been, from
  // the leader's heartbeat grid: each follower heard the last heartbeat sent before now, the
  // leader heard every follower since its last quorum check. Nothing else changes while the
  // cluster is settled, so a run takes the same course at every trace level.
  private quiet: Member | undefined;

  private maybeQuiesce(l: Member): void {
    if (this.quiet || this.sim.records('raft') || l.role !== 'leader' || !l.up) return;
    // CheckQuorum would step a leader down without a quorum of up members.
    let up = 0;
    for (const m of this.members.values()) if (m.up) up++;
    if (up < this.quorum) return;
    for (const m of this.members.values()) {
      if (m === l || !m.up) continue;
      if (!this.reaches(l, m) || m.term !== l.term || m.lead !== l.name || m.role !== 'follower')
        return;
      if (lastIndex(m) !== lastIndex(l) || m.commit !== l.commit) return;
    }
    this.quiet = l;
    l.heartbeat?.cancel();
    l.heartbeat = undefined;
    l.quorumCheck?.cancel();
    l.quorumCheck = undefined;
    for (const m of this.members.values()) if (m !== l) this.disarm(m);
  }

  /** wake brings a quiet cluster's timers back, as the heartbeats would have left them. */
  private wake(): void {
    const l = this.quiet;
    if (!l) return;
    this.quiet = undefined;
    const now = this.sim.now();
    const beat = this.heartbeatMs;
    const lat = this.peerLatencyMs;
    // Beats fall at beatOrigin + k * beat (k >= 1); the next is at or after now.
    const k = Math.max(1, Math.ceil((now - l.beatOrigin) / beat));
    const next = l.beatOrigin + k * beat;
    const last = next - beat;
    for (const m of this.members.values()) {
      if (m === l || !m.up || !this.reaches(l, m)) {
        if (m !== l) this.arm(m);
        continue;
      }
      // The last heartbeat arrived at last + lat, unless it is still on its way.
      if (last + lat <= now) m.heardAt = last + lat;
      else {
        m.heardAt = last - beat + lat;
        this.send(l, m, { msg: 'MsgHeartbeat', term: l.term, commit: l.commit }, last + lat - now);
      }
      l.active.add(m.name);
      this.arm(m);
    }
    this.leaderTimers(l, next);
  }

  private becomeLeaderTimers(l: Member): void {
    this.stopLeaderTimers(l);
    l.active.clear();
    l.beatOrigin = this.sim.now();
    this.leaderTimers(l, l.beatOrigin + this.heartbeatMs);
  }

  // leaderTimers runs the leader's heartbeats from firstBeat on, every heartbeatMs, and its
  // quorum check every election timeout from its start (both on the grid from beatOrigin).
  private leaderTimers(l: Member, firstBeat: number): void {
    const beat = () => {
      l.heartbeat = this.sim.after(this.heartbeatMs, `etcd@${l.name}: heartbeat`, beat, 0);
      for (const m of this.members.values())
        if (m !== l)
          this.send(l, m, {
            msg: 'MsgHeartbeat',
            term: l.term,
            commit: Math.min(l.match.get(m.name) ?? 0, l.commit),
          });
    };
    l.heartbeat = this.sim.at(firstBeat, `etcd@${l.name}: heartbeat`, beat, 0);
    // CheckQuorum: every election timeout the leader counts who answered since the last check.
    const check = () => {
      if (l.active.size + 1 < this.quorum) {
        this.becomeFollower(l, l.term, undefined);
        return;
      }
      l.active.clear();
      l.quorumCheck = this.sim.after(this.electionMs, `etcd@${l.name}: check quorum`, check, 0);
      this.maybeQuiesce(l);
    };
    const e = this.electionMs;
    const nextCheck =
      l.beatOrigin + Math.max(1, Math.ceil((this.sim.now() - l.beatOrigin) / e)) * e;
    l.quorumCheck = this.sim.at(nextCheck, `etcd@${l.name}: check quorum`, check, 0);
  }

  private stopLeaderTimers(l: Member): void {
    l.heartbeat?.cancel();
    l.quorumCheck?.cancel();
    l.heartbeat = l.quorumCheck = undefined;
  }

  // ---- roles ----

  private campaign(m: Member, pre: boolean): void {
    if (!m.up || m.role === 'leader') return;
    m.votes = new Set([m.name]);
    if (pre) {
      m.role = 'pre-candidate';
      m.lead = undefined;
      this.trace(m.name, m.name, { msg: 'StateChange', term: m.term, state: 'pre-candidate' });
    } else {
      m.role = 'candidate';
      m.term++;
      m.votedFor = m.name;
      m.lead = undefined;
      this.trace(m.name, m.name, { msg: 'StateChange', term: m.term, state: 'candidate' });
    }
    this.changed();
    // becomeCandidate resets (a new timeout); becomePreCandidate does not.
    if (!pre) this.reset(m);
    else this.arm(m);
    if (m.votes.size >= this.quorum) return this.won(m, pre);
    for (const p of this.members.values())
      if (p !== m)
        this.send(m, p, {
          msg: pre ? 'MsgPreVote' : 'MsgVote',
          term: pre ? m.term + 1 : m.term,
          index: lastIndex(m),
          logTerm: lastTerm(m),
        });
  }

  private won(m: Member, pre: boolean): void {
    if (pre) return this.campaign(m, false);
    m.role = 'leader';
    m.lead = m.name;
    this.disarm(m);
    m.match.clear();
    for (const n of this.names) if (n !== m.name) m.match.set(n, 0);
    this.trace(m.name, m.name, { msg: 'StateChange', term: m.term, state: 'leader' });
    // The new leader appends an empty entry of its term (raft.go becomeLeader).
    m.log.push({ term: m.term, summary: '' });
    this.becomeLeaderTimers(m);
    for (const p of this.members.values()) if (p !== m) this.sendAppend(m, p);
    this.advanceCommit(m);
    this.changed();
  }

  private becomeFollower(m: Member, term: number, lead: string | undefined): void {
    const was = m.role;
    if (was === 'leader') this.stopLeaderTimers(m);
    if (term > m.term) {
      m.term = term;
      m.votedFor = undefined;
    }
    m.role = 'follower';
    m.lead = lead;
    m.votes.clear();
    if (was !== 'follower' || lead === undefined)
      this.trace(m.name, m.name, { msg: 'StateChange', term: m.term, state: 'follower' });
    this.reset(m);
    this.changed();
  }

  // ---- messages ----

  private send(
    from: Member,
    to: Member,
    body: Omit<Message, 'from' | 'to'>,
    delay = this.peerLatencyMs,
  ): void {
    if (!from.up) return;
    const msg: Message = { ...body, from: from.name, to: to.name };
    this.trace(from.name, to.name, body);
    // A message is lost when either end is down or they are cut off, now or on arrival.
    if (!this.reaches(from, to)) return;
    this.sim.after(
      delay,
      `etcd@${to.name}: ${body.msg}`,
      () => {
        if (this.reaches(from, to)) this.step(to, msg);
      },
      0,
    );
  }

  private sendAppend(l: Member, m: Member): void {
    const prev = l.match.get(m.name) ?? 0;
    this.send(l, m, {
      msg: 'MsgApp',
      term: l.term,
      index: prev,
      logTerm: termAt(l, prev),
      commit: l.commit,
    });
  }

  /** step is raft.go Step for one received message. */
  private step(m: Member, msg: Message): void {
    if (!m.up) return;
    const from = this.members.get(msg.from)!;
    const vote = msg.msg === 'MsgVote' || msg.msg === 'MsgPreVote';
    if (msg.term > m.term) {
      // The leader lease (CheckQuorum): a member that heard its leader within the election
      // timeout ignores a (pre-)vote for a higher term.
      const lease = this.electionMs / this.heartbeatMs;
      if (vote && m.lead !== undefined && this.ticksSince(m, m.heardAt) < lease) return;
      if (msg.msg === 'MsgPreVote' || (msg.msg === 'MsgPreVoteResp' && !msg.reject)) {
        // A pre-vote, or a granted answer to one, does not change the term.
      } else {
        const lead = msg.msg === 'MsgApp' || msg.msg === 'MsgHeartbeat' ? msg.from : undefined;
        this.becomeFollower(m, msg.term, lead);
      }
    } else if (msg.term < m.term) {
      // A stale leader learns the newer term from the answer; a stale pre-candidate is refused.
      if (msg.msg === 'MsgApp' || msg.msg === 'MsgHeartbeat')
        this.send(m, from, { msg: 'MsgAppResp', term: m.term });
      else if (msg.msg === 'MsgPreVote')
        this.send(m, from, { msg: 'MsgPreVoteResp', term: m.term, reject: true });
      return;
    }
    switch (msg.msg) {
      case 'MsgPreVote':
      case 'MsgVote': {
        const canVote =
          m.votedFor === msg.from ||
          (m.votedFor === undefined && m.lead === undefined) ||
          (msg.msg === 'MsgPreVote' && msg.term > m.term);
        const upToDate =
          msg.logTerm! > lastTerm(m) || (msg.logTerm === lastTerm(m) && msg.index! >= lastIndex(m));
        const resp = msg.msg === 'MsgVote' ? 'MsgVoteResp' : 'MsgPreVoteResp';
        if (canVote && upToDate) {
          this.send(m, from, { msg: resp, term: msg.term });
          if (msg.msg === 'MsgVote') {
            m.votedFor = msg.from;
            this.touch(m);
          }
        } else this.send(m, from, { msg: resp, term: m.term, reject: true });
        return;
      }
      case 'MsgPreVoteResp':
      case 'MsgVoteResp': {
        const pre = msg.msg === 'MsgPreVoteResp';
        if (m.role !== (pre ? 'pre-candidate' : 'candidate') || msg.reject) return;
        m.votes.add(msg.from);
        if (m.votes.size >= this.quorum) this.won(m, pre);
        return;
      }
      case 'MsgHeartbeat':
      case 'MsgApp': {
        if (m.role !== 'follower' || m.lead !== msg.from)
          this.becomeFollower(m, msg.term, msg.from);
        this.touch(m);
        if (msg.msg === 'MsgApp') {
          // Catch up with the leader's log in one append (or a snapshot when it is compacted).
          this.replicate(from, m);
          this.send(m, from, { msg: 'MsgAppResp', term: m.term, index: lastIndex(m) });
        } else {
          m.commit = Math.max(m.commit, Math.min(msg.commit ?? 0, lastIndex(m)));
          m.applied = m.commit;
          this.send(m, from, { msg: 'MsgHeartbeatResp', term: m.term });
        }
        return;
      }
      case 'MsgAppResp':
      case 'MsgHeartbeatResp': {
        if (m.role !== 'leader') return;
        m.active.add(msg.from);
        if (msg.msg === 'MsgAppResp' && msg.index !== undefined) {
          m.match.set(msg.from, Math.max(m.match.get(msg.from) ?? 0, msg.index));
          this.advanceCommit(m);
        } else if ((m.match.get(msg.from) ?? 0) < lastIndex(m)) this.sendAppend(m, from);
        return;
      }
    }
  }

  /** replicate makes m's log the leader's (entries after a conflict replaced) and its commit follow. */
  private replicate(l: Member, m: Member): void {
    const last = lastIndex(l);
    if (m.firstIndex !== l.firstIndex || lastIndex(m) !== last || lastTerm(m) !== lastTerm(l)) {
      if (lastIndex(m) < l.firstIndex - 1 || m.firstIndex > l.firstIndex) {
        // A snapshot: the member's log is behind what the leader keeps.
        m.firstIndex = l.firstIndex;
        m.snapshotTerm = l.snapshotTerm;
        m.log = l.log.slice();
      } else {
        // Keep the member's entries up to its first conflict with the leader's, then the leader's.
        // Entries up to what l has matched with m are the same: start after them.
        let i = Math.max(m.firstIndex, l.firstIndex, (l.match.get(m.name) ?? 0) + 1);
        const end = Math.min(lastIndex(m), last);
        while (i <= end && termAt(m, i) === termAt(l, i)) i++;
        // Cut m's log at the first conflict and append the leader's entries from there.
        m.log.length = Math.min(m.log.length, i - m.firstIndex);
        for (let k = i; k <= last; k++) m.log.push(l.log[k - l.firstIndex]);
      }
    }
    l.match.set(m.name, last);
    m.commit = Math.max(m.commit, Math.min(l.commit, last));
    m.applied = m.commit;
  }

  /** advanceCommit commits the highest index of the leader's term a majority holds (raft.go maybeCommit). */
  private advanceCommit(l: Member): void {
    // The quorum-th highest match (the leader's own log counts): usually every member holds the
    // last entry, so count those first and sort only when fewer do.
    const last = lastIndex(l);
    let atLast = 1;
    for (const v of l.match.values()) if (v >= last) atLast++;
    let n = last;
    if (atLast < this.quorum) {
      const matched = [last, ...l.match.values()].sort((a, b) => b - a);
      n = matched[this.quorum - 1];
    }
    if (n > l.commit && termAt(l, n) === l.term) {
      l.commit = l.applied = n;
      for (const m of this.members.values())
        if (this.follows(l, m) && (l.match.get(m.name) ?? 0) >= n && lastIndex(m) >= n)
          m.commit = m.applied = n;
    }
  }

  private compact(m: Member): void {
    if (m.log.length <= COMPACT_AFTER) return;
    const drop = COMPACT_AFTER / 2;
    m.snapshotTerm = m.log[drop - 1].term;
    m.log = m.log.slice(drop);
    m.firstIndex += drop;
  }

  private changed(): void {
    this.onChange?.();
  }

  private trace(
    from: string,
    to: string,
    body: Omit<Message, 'from' | 'to'> & { state?: RaftRole },
  ): void {
    if (!this.sim.records('raft')) return;
    this.sim.record({ kind: 'raft', from: `etcd@${from}`, to: `etcd@${to}`, ...body });
  }
}

function lastIndex(m: Member): number {
  return m.firstIndex - 1 + m.log.length;
}

function lastTerm(m: Member): number {
  return m.log.length ? m.log[m.log.length - 1].term : m.snapshotTerm;
}

function termAt(m: Member, i: number): number {
  if (i === m.firstIndex - 1) return m.snapshotTerm;
  if (i < m.firstIndex || i > lastIndex(m)) return 0;
  return m.log[i - m.firstIndex].term;
}

/**
 * memberID is a member's ID, 16 hex digits derived from its name, as etcd derives it from the
 * member's peer URLs and the cluster token (server/etcdserver/api/membership/member.go
 * computeMemberID, a SHA-1 there; a simpler hash here).
 */
export function memberID(name: string): string {
  const mix = (seed: number): string => {
    let h = seed >>> 0;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
    // murmur3's finaliser spreads every input bit over the word.
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    return ((h ^ (h >>> 16)) >>> 0).toString(16).padStart(8, '0');
  };
  // etcd prints an ID as %x of its uint64: no leading zeros.
  return (mix(0x811c9dc5) + mix(0x9e3779b9)).replace(/^0+(?=.)/, '');
}

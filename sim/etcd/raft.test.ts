// etcd's Raft cluster on the engine clock: elections within Raft's randomised bounds, Pre-Vote
// and CheckQuorum, writes only with a quorum, catch-up of a returning member, and the safety
// properties (one leader per term, no committed entry lost) over many seeds and fault sequences.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../engine/simulation.ts';
import type { RaftEntry } from '../engine/trace.ts';
import { EtcdCluster } from './raft.ts';

const names = (n: number) => Array.from({ length: n }, (_, i) => `cp-${i + 1}`);

function cluster(n: number, seed = 1): { sim: Simulation; etcd: EtcdCluster } {
  const sim = new Simulation({ seed });
  const etcd = new EtcdCluster(sim, names(n));
  return { sim, etcd };
}

const leaders = (sim: Simulation) =>
  sim.trace.filter((e): e is RaftEntry => e.kind === 'raft' && e.state === 'leader');

describe('EtcdCluster', () => {
  it('elects one leader 0.9-2.0 s after start and keeps it while heartbeats flow', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { sim, etcd } = cluster(3, seed);
      etcd.start();
      sim.runUntil(60_000);
      const won = leaders(sim);
      expect(won).toHaveLength(1);
      // A follower's timeout is its 10th-19th tick: 0.9-1.9 s from its start.
      expect(won[0].t).toBeGreaterThanOrEqual(0.9);
      expect(won[0].t).toBeLessThan(2.0);
      expect(etcd.leader()).toBe(won[0].from.slice('etcd@'.length));
      // Heartbeats every 100 ms keep every follower's term where the election left it.
      for (const n of names(3)) expect(etcd.status(n).raftTerm).toBe(won[0].term);
    }
  });

  it('elects a new leader within the election bounds after the leader stops, and writes resume', () => {
    let firstRound = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const { sim, etcd } = cluster(3, seed);
      etcd.bootstrapLeader('cp-1');
      sim.runUntil(5_000);
      expect(etcd.serve('cp-2')).toBe('ok');
      etcd.setMemberUp('cp-1', false);
      expect(etcd.serve('cp-2')).toBe('etcdserver: request timed out');
      sim.runUntil(10_000);
      const next = leaders(sim).filter((e) => e.t >= 5);
      expect(next.length).toBeGreaterThanOrEqual(1);
      // The last heartbeat came at most 100 ms before the stop; a follower waits 0.9-1.9 s, and
      // a split vote (both followers' timeouts on ticks a millisecond apart) costs another.
      expect(next[0].t).toBeGreaterThan(5.8);
      expect(next[0].t).toBeLessThan(9.0);
      if (next[0].t < 7.0) firstRound++;
      expect(['cp-2', 'cp-3']).toContain(etcd.leader());
      const index = etcd.propose('cp-3', 'put /registry/pods/default/web');
      expect(etcd.status('cp-2').commitIndex).toBe(index);
      expect(etcd.status('cp-3').commitIndex).toBe(index);
    }
    expect(firstRound).toBeGreaterThanOrEqual(16);
  });

  it('refuses writes without a quorum; the lone member never raises its term (Pre-Vote)', () => {
    const { sim, etcd } = cluster(3, 4);
    etcd.bootstrapLeader('cp-1');
    sim.runUntil(2_000);
    etcd.setMemberUp('cp-1', false);
    etcd.setMemberUp('cp-2', false);
    sim.runUntil(60_000);
    expect(etcd.leader()).toBeUndefined();
    expect(etcd.serve('cp-3')).toBe('etcdserver: request timed out');
    expect(() => etcd.propose('cp-3', 'put /registry/x')).toThrow('etcdserver: request timed out');
    expect(etcd.status('cp-3').raftTerm).toBe(2);
    // One member back: a quorum of two elects a leader and the writes go through.
    etcd.setMemberUp('cp-2', true);
    sim.runUntil(65_000);
    expect(['cp-2', 'cp-3']).toContain(etcd.leader());
    expect(etcd.serve('cp-2')).toBe('ok');
    const index = etcd.propose('cp-2', 'put /registry/x');
    // The returning first leader catches up on its next heartbeat.
    etcd.setMemberUp('cp-1', true);
    sim.runUntil(70_000);
    expect(etcd.status('cp-1').raftAppliedIndex).toBe(index);
    expect(etcd.status('cp-1').raftTerm).toBe(etcd.status('cp-2').raftTerm);
  });

  it('makes a cut-off leader step down within an election timeout (CheckQuorum)', () => {
    const { sim, etcd } = cluster(3, 2);
    etcd.bootstrapLeader('cp-1');
    sim.runUntil(3_000);
    etcd.setConnected((a, b) => a === b || (a !== 'cp-1' && b !== 'cp-1'));
    sim.runUntil(5_100);
    expect(etcd.status('cp-1').role).toBe('follower');
    expect(['cp-2', 'cp-3']).toContain(etcd.leader());
    expect(etcd.serve('cp-1')).toBe('etcdserver: request timed out');
    // The minority side's pre-votes never reach anyone: its term stays.
    sim.runUntil(30_000);
    expect(etcd.status('cp-1').raftTerm).toBe(2);
  });

  it('tolerates two failures of five, not three', () => {
    const { sim, etcd } = cluster(5, 3);
    etcd.bootstrapLeader('cp-1');
    etcd.setMemberUp('cp-1', false);
    etcd.setMemberUp('cp-2', false);
    sim.runUntil(10_000);
    expect(etcd.leader()).toBeDefined();
    expect(etcd.serve('cp-5')).toBe('ok');
    etcd.setMemberUp(etcd.leader()!, false);
    sim.runUntil(30_000);
    expect(etcd.leader()).toBeUndefined();
  });

  it('never has two leaders in one term and never loses a committed entry (property)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { sim, etcd } = cluster(seed % 2 ? 3 : 5, seed);
      const rng = sim.rng.fork('test/faults');
      const all = names(seed % 2 ? 3 : 5);
      etcd.start();
      const committed: { index: number; summary: string }[] = [];
      for (let t = 1_000; t < 120_000; t += 500) {
        sim.runUntil(t);
        const r = rng.intn(10);
        const who = all[rng.intn(all.length)];
        if (r === 0) etcd.setMemberUp(who, false);
        else if (r === 1) etcd.setMemberUp(who, true);
        else if (r === 2) etcd.setConnected((a, b) => a === b || (a !== who && b !== who));
        else if (r === 3) etcd.setConnected(() => true);
        else if (etcd.serve(who) === 'ok') {
          const summary = `put ${t}`;
          committed.push({ index: etcd.propose(who, summary), summary });
        }
        // Every leader holds every entry committed so far, at its index.
        const l = etcd.leader();
        if (l)
          for (const c of committed.slice(-20)) {
            const e = etcd.logTail(l, 100_000).find((x) => x.index === c.index);
            expect(e?.summary).toBe(c.summary);
          }
      }
      const terms = new Map<number, string>();
      for (const e of leaders(sim)) {
        const prev = terms.get(e.term);
        if (prev !== undefined) expect(prev).toBe(e.from);
        terms.set(e.term, e.from);
      }
    }
  });

  it('takes the same course when its messages are not recorded (quiet heartbeats)', () => {
    const events = [0, 0];
    for (let seed = 1; seed <= 30; seed++) {
      const n = seed % 2 ? 3 : 5;
      const runs = (['full', 'requests'] as const).map((traceLevel) => {
        const sim = new Simulation({ seed, traceLevel });
        return { sim, etcd: new EtcdCluster(sim, names(n)) };
      });
      for (const r of runs) r.etcd.bootstrapLeader('cp-1');
      const rng = new Simulation({ seed }).rng.fork('test/faults');
      const all = names(n);
      for (let t = 700; t < 90_000; t += 700 + rng.intn(3_000)) {
        const r = rng.intn(6);
        const who = all[rng.intn(all.length)];
        const states = runs.map(({ sim, etcd }) => {
          sim.runUntil(t);
          if (r === 0) etcd.setMemberUp(who, false);
          else if (r === 1) etcd.setMemberUp(who, true);
          else if (r === 2) etcd.setConnected((a, b) => a === b || (a !== who && b !== who));
          else if (r === 3) etcd.setConnected(() => true);
          else if (etcd.serve(who) === 'ok') etcd.propose(who, `put ${t}`);
          return JSON.stringify([etcd.leader(), all.map((m) => etcd.status(m))]);
        });
        expect(states[1]).toBe(states[0]);
      }
      events[0] += runs[0].sim.eventsProcessed;
      events[1] += runs[1].sim.eventsProcessed;
    }
    expect(events[1]).toBeLessThan(events[0] / 2);
    // A settled cluster's quiet minute takes a handful of events, against 40 messages a second.
    const sim = new Simulation({ seed: 1, traceLevel: 'requests' });
    const etcd = new EtcdCluster(sim, names(3));
    etcd.bootstrapLeader('cp-2');
    sim.runUntil(60_000);
    expect(sim.eventsProcessed).toBeLessThan(10);
    etcd.setMemberUp('cp-2', false);
    sim.runUntil(70_000);
    expect(['cp-1', 'cp-3']).toContain(etcd.leader());
  });

  it('is deterministic: the same seed gives the same messages', () => {
    const run = () => {
      const { sim, etcd } = cluster(3, 9);
      etcd.start();
      sim.runUntil(3_000);
      etcd.setMemberUp(etcd.leader()!, false);
      sim.runUntil(8_000);
      return JSON.stringify(sim.trace);
    };
    expect(run()).toBe(run());
  });
});

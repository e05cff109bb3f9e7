/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import type { Event, Lease } from '../api/types.ts';
import type { RequestEntry } from '../engine/trace.ts';
import { formatMicroTime } from '../engine/clock.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { frozenAPIServer, golden } from '../testing.ts';
import { Client } from './client.ts';
import { EventRecorder } from './events.ts';
import { LeaderElector, newLeaderElectionID, type LeaderElectionConfig } from './leaderelection.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Happening is a callback an elector made, at the virtual time it made it. */
interface Happening {
  t: number;
  host: string;
  what: 'started' | 'stopped' | 'new leader';
  leader?: string;
}

/**
 * testbed is kube-apiserver with kube-system, and candidate(host) makes a kube-scheduler
 * candidate on host (user kube-scheduler@<host>, so api.unreachable.add(host) cuts it off) whose
 * callbacks are logged in happenings.
 */
function testbed(seed = 1) {
  const { sim, api } = frozenAPIServer({ sim: { seed }, namespaces: ['kube-system'] });
  const happenings: Happening[] = [];
  const idRng = sim.rng.fork('test/ids');
  const candidate = (host: string, config: Partial<LeaderElectionConfig> = {}) => {
    const user = `kube-scheduler@${host}`;
    const el = new LeaderElector(
      sim,
      new Client(api, user),
      new EventRecorder(new Client(api, user), 'default-scheduler'),
      {
        lockNamespace: 'kube-system',
        lockName: 'kube-scheduler',
        identity: newLeaderElectionID(host, idRng),
        ...config,
      },
      {
        onStartedLeading: () => happenings.push({ t: sim.now(), host, what: 'started' }),
        onStoppedLeading: () => happenings.push({ t: sim.now(), host, what: 'stopped' }),
        onNewLeader: (leader) =>
          happenings.push({ t: sim.now(), host, what: 'new leader', leader }),
      },
    );
    return el;
  };
  const lease = () => api.get<Lease>('test', 'leases', 'kube-system', 'kube-scheduler');
  // leaseRequests are host's requests to leases, their times in milliseconds (the trace's are seconds).
  const leaseRequests = (host: string): RequestEntry[] =>
    sim.trace
      .filter(
        (e): e is RequestEntry =>
          e.kind === 'request' && e.resource === 'leases' && e.from === `kube-scheduler@${host}`,
      )
      .map((e) => ({ ...e, t: Math.round(e.t * 1000) }));
  const events = () =>
    api.list<Event>('test', 'events').items.filter((e) => e.reason === 'LeaderElection');
  const started = (host: string) =>
    happenings.filter((h) => h.host === host && h.what === 'started').map((h) => h.t);
  const stopped = (host: string) =>
    happenings.filter((h) => h.host === host && h.what === 'stopped').map((h) => h.t);
  return { sim, api, candidate, lease, leaseRequests, events, happenings, started, stopped };
}

/** lastRenewal is the time of host's last successful write of the Lease. */
function lastRenewal(reqs: RequestEntry[], before = Infinity): number {
  const writes = reqs.filter(
    (r) => (r.verb === 'update' || r.verb === 'create') && r.code < 300 && r.t <= before,
  );
  return writes[writes.length - 1].t;
}

describe('LeaderElector', () => {
  it('a single candidate creates the Lease at once, with the upstream fields, and renews every 2 s', () => {
    const tb = testbed();
    const a = tb.candidate('cp-1');
    expect(a.identity).toMatch(/^cp-1_/);
    expect(a.identity.slice('cp-1_'.length)).toMatch(UUID);
    a.run();
    tb.sim.runUntil(0);
    expect(a.isLeader()).toBe(true);
    expect(tb.started('cp-1')).toEqual([0]);
    const l = tb.lease();
    expect(l.spec).toEqual({
      holderIdentity: a.identity,
      leaseDurationSeconds: 15,
      acquireTime: formatMicroTime(0),
      renewTime: formatMicroTime(0),
      leaseTransitions: 0,
    });
    tb.sim.runUntil(10_500);
    // GET (404), POST, then renew's immediate round, then one PUT every RetryPeriod.
    const reqs = tb.leaseRequests('cp-1').map((r) => `${r.t} ${r.verb} ${r.code}`);
    expect(reqs).toEqual([
      '0 get 404',
      '0 create 201',
      '0 update 200',
      '2000 update 200',
      '4000 update 200',
      '6000 update 200',
      '8000 update 200',
      '10000 update 200',
    ]);
    expect(tb.lease().spec.renewTime).toBe(formatMicroTime(10_000));
    expect(tb.lease().spec.acquireTime).toBe(formatMicroTime(0));
    expect(a.getLeader()).toBe(a.identity);
    const [ev] = tb.events();
    expect(ev.message).toBe(`${a.identity} became leader`);
    expect(ev.type).toBe('Normal');
    expect(ev.source).toEqual({ component: 'default-scheduler' });
    expect(ev.involvedObject).toMatchObject({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace: 'kube-system',
      name: 'kube-scheduler',
      uid: l.metadata.uid,
    });
    expect(tb.happenings.filter((h) => h.what === 'new leader').map((h) => h.leader)).toEqual([
      a.identity,
    ]);
  });

  it('the standby keeps retrying every 2 to 4.4 s and never leads while the leader renews', () => {
    const tb = testbed();
    const a = tb.candidate('cp-1');
    a.run();
    tb.sim.runUntil(0);
    const b = tb.candidate('cp-2');
    b.run();
    tb.sim.runUntil(120_000);
    expect(a.isLeader()).toBe(true);
    expect(b.isLeader()).toBe(false);
    expect(b.getLeader()).toBe(a.identity);
    const gets = tb.leaseRequests('cp-2').map((r) => r.t);
    expect(tb.leaseRequests('cp-2').every((r) => r.verb === 'get')).toBe(true);
    expect(gets.length).toBeGreaterThan(120 / 4.4);
    for (let i = 1; i < gets.length; i++) {
      expect(gets[i] - gets[i - 1]).toBeGreaterThanOrEqual(2000);
      expect(gets[i] - gets[i - 1]).toBeLessThanOrEqual(4400);
    }
    // The gaps are jittered, not fixed.
    expect(new Set(gets.slice(1).map((t, i) => t - gets[i])).size).toBeGreaterThan(5);
  });

  it('when the leader dies the standby takes over 15 s after it last saw the record change, within one retry', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const tb = testbed(seed);
      const a = tb.candidate('cp-1');
      const b = tb.candidate('cp-2');
      a.run();
      tb.sim.runUntil(0);
      b.run();
      const death = 30_000 + seed * 777;
      tb.sim.runUntil(death);
      a.stop();
      tb.sim.runUntil(death + 40_000);
      const last = lastRenewal(tb.leaseRequests('cp-1'));
      const [takeover] = tb.started('cp-2');
      // B's observation of the last renewal is its first GET after it.
      const observed = tb.leaseRequests('cp-2').find((r) => r.verb === 'get' && r.t >= last)!.t;
      expect(takeover - observed).toBeGreaterThanOrEqual(15_000);
      expect(takeover - observed).toBeLessThanOrEqual(15_000 + 4_400);
      expect(takeover - last).toBeLessThanOrEqual(15_000 + 2 * 4_400);
      expect(b.isLeader()).toBe(true);
      expect(tb.lease().spec.holderIdentity).toBe(b.identity);
      expect(tb.lease().spec.leaseTransitions).toBe(1);
      expect(tb.lease().spec.acquireTime).toBe(formatMicroTime(takeover));
      // A died: it neither released nor said it stopped.
      expect(tb.stopped('cp-1')).toEqual([]);
      expect(tb.events().map((e) => e.message)).toEqual([
        `${a.identity} became leader`,
        `${b.identity} became leader`,
      ]);
    }
  });

  it('a leader cut off from kube-apiserver stops leading 10 to 12 s after its last renewal, before anyone takes over', () => {
    const tb = testbed();
    const a = tb.candidate('cp-1');
    const b = tb.candidate('cp-2');
    a.run();
    tb.sim.runUntil(0);
    b.run();
    tb.sim.runUntil(20_001);
    tb.api.unreachable.add('cp-1');
    tb.sim.runUntil(60_000);
    const last = lastRenewal(tb.leaseRequests('cp-1'));
    expect(last).toBe(20_000);
    const [lost] = tb.stopped('cp-1');
    // The round after the last renewal starts RetryPeriod later and gives up RenewDeadline after that.
    expect(lost - last).toBeGreaterThanOrEqual(10_000);
    expect(lost - last).toBeLessThanOrEqual(12_000);
    expect(a.isLeader()).toBe(false);
    const [takeover] = tb.started('cp-2');
    expect(takeover).toBeGreaterThan(lost);
    expect(takeover - last).toBeGreaterThanOrEqual(15_000);
    expect(tb.lease().spec.holderIdentity).toBe(b.identity);
    // A's "stopped leading" could not be sent either.
    expect(tb.events().map((e) => e.message)).toEqual([
      `${a.identity} became leader`,
      `${b.identity} became leader`,
    ]);
  });

  it('a failed renewal that recovers before the deadline keeps the lead', () => {
    const tb = testbed();
    const a = tb.candidate('cp-1');
    a.run();
    tb.sim.runUntil(10_001);
    tb.api.unreachable.add('cp-1');
    tb.sim.runUntil(17_000);
    tb.api.unreachable.delete('cp-1');
    tb.sim.runUntil(40_000);
    expect(a.isLeader()).toBe(true);
    expect(tb.stopped('cp-1')).toEqual([]);
    expect(tb.lease().spec.acquireTime).toBe(formatMicroTime(0));
    expect(tb.lease().spec.leaseTransitions).toBe(0);
  });

  it('a 409 Conflict on the fast path falls back to GET and renews from the fresh Lease', () => {
    const tb = testbed();
    const a = tb.candidate('cp-1');
    a.run();
    tb.sim.runUntil(5_000);
    // Someone else writes the Lease (a label): the leader's cached resourceVersion is stale.
    const l = tb.lease();
    tb.api.update<Lease>('test', 'leases', {
      ...l,
      metadata: { ...l.metadata, labels: { touched: 'yes' } },
    });
    tb.sim.runUntil(6_500);
    const at6 = tb.leaseRequests('cp-1').filter((r) => r.t === 6_000);
    expect(at6.map((r) => `${r.verb} ${r.code}`)).toEqual(['update 409', 'get 200', 'update 200']);
    expect(a.isLeader()).toBe(true);
    expect(tb.lease().metadata.labels).toEqual({ touched: 'yes' });
    expect(tb.lease().spec.renewTime).toBe(formatMicroTime(6_000));
  });

  it('when kube-apiserver is down longer than the lease, the leader stops and a candidate leads once it is back', () => {
    const branches = new Set<boolean>();
    for (let seed = 1; seed <= 12; seed++) {
      const tb = testbed(seed);
      const a = tb.candidate('cp-1');
      const b = tb.candidate('cp-2');
      a.run();
      tb.sim.runUntil(0);
      b.run();
      tb.sim.runUntil(10_001);
      // On even seeds the outage begins right after B's next look.
      if (seed % 2 === 0) {
        const looks = tb.leaseRequests('cp-2').length;
        while (tb.leaseRequests('cp-2').length === looks) tb.sim.runUntil(tb.sim.now() + 1);
      }
      const downAt = tb.sim.now();
      tb.api.down = true;
      tb.sim.runUntil(40_000);
      const lastA = lastRenewal(tb.leaseRequests('cp-1'));
      expect(tb.stopped('cp-1')).toHaveLength(1);
      expect(tb.stopped('cp-1')[0] - lastA).toBeLessThanOrEqual(12_000);
      expect(a.isLeader() || b.isLeader()).toBe(false);
      tb.api.down = false;
      tb.sim.runUntil(80_000);
      // B judges by what it saw: if its last look before the outage showed A's last renewal, the
      // lease has long expired for it and it takes over at its first try; if not, the record it
      // reads after the outage is news, and it waits a full LeaseDuration from that look.
      const [takeover] = tb.started('cp-2');
      const firstLook = tb.leaseRequests('cp-2').find((r) => r.t > 40_000)!.t;
      expect(firstLook - 40_000).toBeLessThanOrEqual(4_400);
      const lastBefore = tb.leaseRequests('cp-2').filter((r) => r.t <= downAt && r.code === 200);
      const sawLastRenewal = lastBefore[lastBefore.length - 1].t >= lastA;
      branches.add(sawLastRenewal);
      if (sawLastRenewal) expect(takeover).toBe(firstLook);
      else {
        expect(takeover - firstLook).toBeGreaterThanOrEqual(15_000);
        expect(takeover - firstLook).toBeLessThanOrEqual(15_000 + 4_400);
      }
      expect(tb.lease().spec.leaseTransitions).toBe(1);
    }
    // Both cases happened.
    expect(branches.size).toBe(2);
  });

  it('exactly one leads at any time, from the Lease and the callbacks alike (property over seeds)', () => {
    let losses = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const tb = testbed(seed);
      const rng = tb.sim.rng.fork('test/faults');
      const hosts = ['cp-1', 'cp-2', 'cp-3'];
      const electors = new Map(hosts.map((h) => [h, tb.candidate(h)]));
      for (const [i, e] of [...electors.values()].entries())
        tb.sim.after(i * rng.intn(3000), 'start', () => e.run());
      // Faults: partitions that heal, and one death.
      for (let k = 0; k < 6; k++) {
        const host = hosts[rng.intn(3)];
        const at = 5_000 + rng.intn(150_000);
        tb.sim.after(at, 'cut', () => tb.api.unreachable.add(host));
        tb.sim.after(at + rng.intn(30_000), 'heal', () => tb.api.unreachable.delete(host));
      }
      const died = new Map<string, number>();
      const victim = hosts[rng.intn(3)];
      tb.sim.after(60_000 + rng.intn(60_000), 'die', () => {
        electors.get(victim)!.stop();
        died.set(victim, tb.sim.now());
      });
      // Sample the callbacks' view every 100 ms. A candidate that stopped leading exits, and the
      // kubelet starts it again (a new process, a new identity) a second later.
      let maxLeaders = 0;
      const restarted = new Map(hosts.map((h) => [h, 0]));
      const sample = () => {
        maxLeaders = Math.max(
          maxLeaders,
          [...electors.values()].filter((e) => e.isLeader()).length,
        );
        for (const h of hosts)
          if (tb.stopped(h).length > restarted.get(h)! && !died.has(h)) {
            restarted.set(h, restarted.get(h)! + 1);
            tb.sim.after(1000, 'restart', () => {
              const e = tb.candidate(h);
              electors.set(h, e);
              e.run();
            });
          }
        tb.sim.after(100, 'sample', sample);
      };
      tb.sim.after(0, 'sample', sample);
      tb.sim.runUntil(240_000);
      expect(maxLeaders, `seed ${seed}`).toBe(1);
      // Someone leads at the end: the survivors took over.
      expect(
        [...electors.values()].some((e) => e.isLeader()),
        `seed ${seed}`,
      ).toBe(true);
      // From the Lease's point of view: a holder's writes never interleave with another's while it
      // still believes it leads (between its started and stopped callbacks).
      const intervals = hosts.flatMap((h) =>
        tb.started(h).map((s, i) => ({ h, s, e: tb.stopped(h)[i] ?? died.get(h) ?? Infinity })),
      );
      for (const x of intervals)
        for (const y of intervals)
          if (x !== y) expect(x.e <= y.s || y.e <= x.s, `seed ${seed}`).toBe(true);
      losses += hosts.reduce((n, h) => n + tb.stopped(h).length, 0);
    }
    // The faults did take leads away (not only from standbys).
    expect(losses).toBeGreaterThan(20);
  });

  it('judges validity by its own observation, never by renewTime in the object', () => {
    const tb = testbed();
    // A Lease left by a holder that died long ago: renewTime says it expired at 15 s.
    tb.api.create<Lease>('test', 'leases', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'kube-scheduler', namespace: 'kube-system' },
      spec: {
        holderIdentity: 'ghost',
        leaseDurationSeconds: 15,
        acquireTime: formatMicroTime(0),
        renewTime: formatMicroTime(0),
        leaseTransitions: 3,
      },
    } as Lease);
    tb.sim.runUntil(100_000);
    const b = tb.candidate('cp-2');
    b.run();
    tb.sim.runUntil(200_000);
    const [takeover] = tb.started('cp-2');
    // It waits a full LeaseDuration from its first look.
    expect(takeover).toBeGreaterThanOrEqual(115_000);
    expect(takeover).toBeLessThanOrEqual(115_000 + 4_400);
    expect(tb.lease().spec.leaseTransitions).toBe(4);
  });

  it('does not steal a lease whose holder keeps renewing with a clock an hour behind', () => {
    const tb = testbed();
    const holder = new Client(tb.api, 'kube-scheduler@cp-9');
    let skewed = tb.api.create<Lease>('test', 'leases', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'kube-scheduler', namespace: 'kube-system' },
      spec: { holderIdentity: 'cp-9_x', leaseDurationSeconds: 15, leaseTransitions: 0 },
    } as Lease);
    let renewing = true;
    const renew = () => {
      if (!renewing) return;
      const renewTime = formatMicroTime(tb.sim.now() - 3_600_000);
      skewed = holder.update<Lease>('leases', { ...skewed, spec: { ...skewed.spec, renewTime } });
      tb.sim.after(2000, 'skewed renew', renew);
    };
    renew();
    const b = tb.candidate('cp-2');
    b.run();
    tb.sim.runUntil(60_000);
    expect(tb.started('cp-2')).toEqual([]);
    renewing = false;
    tb.sim.runUntil(100_000);
    const [takeover] = tb.started('cp-2');
    expect(takeover).toBeGreaterThanOrEqual(60_000 + 15_000);
    expect(takeover).toBeLessThanOrEqual(60_000 + 15_000 + 2 * 4_400);
  });

  it('a standby whose last look is stale does not take over a lease that was renewed meanwhile', () => {
    const tb = testbed();
    const a = tb.candidate('cp-1');
    const b = tb.candidate('cp-2');
    a.run();
    tb.sim.runUntil(0);
    b.run();
    tb.sim.runUntil(1_000);
    // B loses sight of the Lease for 30 s: by its last look the lease would have expired.
    tb.api.unreachable.add('cp-2');
    tb.sim.runUntil(31_000);
    tb.api.unreachable.delete('cp-2');
    tb.sim.runUntil(90_000);
    expect(tb.started('cp-2')).toEqual([]);
    expect(a.isLeader()).toBe(true);
    expect(tb.leaseRequests('cp-2').every((r) => r.verb === 'get')).toBe(true);
  });

  it('cancel with releaseOnCancel (kube-scheduler) gives the Lease up, so the standby takes over at its next try', () => {
    const tb = testbed();
    const a = tb.candidate('cp-1', { releaseOnCancel: true });
    const b = tb.candidate('cp-2', { releaseOnCancel: true });
    a.run();
    tb.sim.runUntil(0);
    b.run();
    tb.sim.runUntil(30_500);
    a.cancel();
    expect(tb.stopped('cp-1')).toEqual([30_500]);
    expect(tb.lease().spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    tb.sim.runUntil(40_000);
    const [takeover] = tb.started('cp-2');
    expect(takeover - 30_500).toBeLessThanOrEqual(4_400);
    expect(tb.lease().spec.leaseTransitions).toBe(1);
    expect(tb.events().map((e) => e.message)).toEqual([
      `${a.identity} became leader`,
      `${a.identity} stopped leading`,
      `${b.identity} became leader`,
    ]);
  });

  it('cancel without releaseOnCancel (kube-controller-manager) leaves the Lease to expire', () => {
    const tb = testbed();
    const a = tb.candidate('cp-1');
    const b = tb.candidate('cp-2');
    a.run();
    tb.sim.runUntil(0);
    b.run();
    tb.sim.runUntil(30_500);
    a.cancel();
    b.cancel();
    expect(tb.stopped('cp-1')).toEqual([30_500]);
    // Run defers OnStoppedLeading, so the cancelled standby gets it too.
    expect(tb.stopped('cp-2')).toEqual([30_500]);
    expect(tb.lease().spec.holderIdentity).toBe(a.identity);
  });

  it('rejects the configurations NewLeaderElector rejects', () => {
    const tb = testbed();
    expect(() => tb.candidate('cp-1', { leaseDurationMs: 10_000 })).toThrow(
      'leaseDuration must be greater than renewDeadline',
    );
    expect(() => tb.candidate('cp-1', { retryPeriodMs: 9_000 })).toThrow(
      'renewDeadline must be greater than retryPeriod*JitterFactor',
    );
  });

  it('same seed, same trace', () => {
    const run = (seed: number) => {
      const tb = testbed(seed);
      const a = tb.candidate('cp-1');
      const b = tb.candidate('cp-2');
      a.run();
      b.run();
      tb.sim.after(25_000, 'die', () => a.stop());
      tb.sim.runUntil(70_000);
      return JSON.stringify(tb.sim.trace);
    };
    expect(run(7)).toBe(run(7));
    expect(run(7)).not.toBe(run(8));
  });

  it('kubectl get leases -n kube-system shows the holder', () => {
    const tb = testbed();
    tb.candidate('cp-1').run();
    tb.sim.runUntil(0);
    tb.candidate('cp-2').run();
    tb.sim.runUntil(125_000);
    const r = runKubectl(
      { client: new Client(tb.api, 'kubectl'), now: () => tb.sim.now() },
      'kubectl get leases -n kube-system',
    );
    expect(r.stderr).toBe('');
    golden(new URL('./testdata/get-leases-leader-election.txt', import.meta.url), r.stdout);
  });
});

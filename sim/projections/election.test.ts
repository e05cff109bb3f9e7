import { describe, expect, it } from 'vitest';
import { electionTimeline } from './election.ts';
import { runNamed } from './testing.ts';

// ha-quorum: control-plane-1 (etcd's leader, and the Leases' holder) stops at 20 s; etcd on
// control-plane-3 stops at 60 s (no quorum); control-plane-1 comes back at 120 s.
const run = runNamed('ha-quorum', 7);

describe('electionTimeline', () => {
  const tl = electionTimeline(run, { end: run.until });
  const lane = (name: string) => tl.lanes.find((l) => l.name === name)!;

  it('has one lane per etcd member and one per Lease', () => {
    expect(tl.lanes.map((l) => `${l.kind} ${l.name}`)).toEqual([
      'etcd control-plane-1',
      'etcd control-plane-2',
      'etcd control-plane-3',
      'lease kube-scheduler',
      'lease kube-controller-manager',
    ]);
  });

  it('shows the born leader, its node stopping, and a new leader of a higher term within 2 s', () => {
    expect(lane('control-plane-1').segments[0]).toEqual({
      from: 0,
      to: 20,
      state: 'leader',
      term: 2,
    });
    expect(lane('control-plane-1').segments[1]).toMatchObject({ from: 20, state: 'down' });
    const cp2 = lane('control-plane-2').segments;
    expect(cp2.map((s) => s.state).slice(0, 4)).toEqual([
      'follower',
      'pre-candidate',
      'candidate',
      'leader',
    ]);
    const etcd = tl.handovers.find((h) => h.kind === 'etcd')!;
    expect(etcd).toMatchObject({ node: 'control-plane-2', term: 3 });
    expect(etcd.fault).toEqual({ t: 20, fault: 'node-down', node: 'control-plane-1' });
    expect(etcd.after).toBeGreaterThanOrEqual(1);
    expect(etcd.after).toBeLessThan(2);
  });

  it("moves each Lease to a standby once the stopped holder's record runs out", () => {
    for (const name of ['kube-scheduler', 'kube-controller-manager']) {
      const segs = lane(name).segments;
      expect(segs[0]).toMatchObject({ from: 0, state: 'holds', holder: 'control-plane-1' });
      // The last renewal before 20 s is valid for leaseDurationSeconds (15 s) after it.
      expect(segs[1]).toMatchObject({ state: 'expiring', holder: 'control-plane-1' });
      expect(segs[1]!.to - segs[1]!.from).toBe(15);
      const h = tl.handovers.find((x) => x.lane === name)!;
      // A standby: control-plane-3 is stopped from 60 s, control-plane-1 from 20 s.
      expect(['control-plane-2', 'control-plane-3']).toContain(h.node);
      expect(h.after).toBeGreaterThan(15);
      expect(h.after).toBeLessThan(19.5);
    }
  });

  it('shows the leader stepping down without a quorum, pre-voting until the quorum returns', () => {
    const cp2 = lane('control-plane-2').segments;
    const down = cp2.find((s) => s.from > 60 && s.state === 'follower')!;
    expect(down.from).toBeGreaterThan(60);
    expect(down.from).toBeLessThan(62.5);
    expect(cp2.find((s) => s.state === 'pre-candidate' && s.from > 60)!.to).toBeGreaterThan(120);
    expect(cp2.at(-1)).toMatchObject({ state: 'leader', term: 4, to: 240 });
    expect(lane('control-plane-3').segments.at(-1)).toMatchObject({ from: 60, state: 'down' });
  });

  it('clips to a window, keeping only its faults and handovers, and speaks Japanese', () => {
    const w = electionTimeline(run, { end: run.until, from: 15, to: 45, lang: 'ja' });
    for (const l of w.lanes)
      for (const s of l.segments) {
        expect(s.from).toBeGreaterThanOrEqual(15);
        expect(s.to).toBeLessThanOrEqual(45);
      }
    expect(w.faults).toEqual([{ t: 20, fault: 'node-down', node: 'control-plane-1' }]);
    expect(w.handovers.map((h) => h.lane)).toEqual([
      'etcd',
      'kube-scheduler',
      'kube-controller-manager',
    ]);
    expect(w.title).toBe('リーダー選出: etcd メンバーと kube-system の Lease の推移');
    expect(w.description).toContain('障害から 1.273 秒後');
  });
});

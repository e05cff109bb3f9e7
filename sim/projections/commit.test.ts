import { describe, expect, it } from 'vitest';
import { commitSequence } from './commit.ts';
import { runNamed } from './testing.ts';

const run = runNamed('ha-quorum', 7);

describe('commitSequence', () => {
  it("draws kubectl's write, the leader's append to both followers, their answers and the commit", () => {
    const d = commitSequence(run, { from: 0, to: 1 });
    expect(d.participants.map((p) => p.label)).toEqual([
      'kubectl',
      'kube-apiserver',
      'etcd@control-plane-1',
      'etcd@control-plane-2',
      'etcd@control-plane-3',
    ]);
    expect(d.leader).toBe('etcd@control-plane-1');
    expect(d.term).toBe(2);
    expect(d.acks).toEqual(['etcd@control-plane-2', 'etcd@control-plane-3']);
    expect(d.quorum).toBe(2);
    const texts = d.steps.map((s) => `${s.from} -> ${s.to}: ${s.text}`);
    expect(texts[0]).toBe('kubectl -> kube-apiserver: create deployments web');
    expect(texts[1]).toBe(
      'kube-apiserver -> etcd@control-plane-1: txn-create /registry/deployments/default/web',
    );
    expect(texts).toContain(
      `etcd@control-plane-1 -> etcd@control-plane-2: MsgApp: entry ${d.index}, term 2 (commit ${d.index! - 1})`,
    );
    expect(texts).toContain(
      `etcd@control-plane-3 -> etcd@control-plane-1: MsgAppResp: has up to ${d.index}`,
    );
    expect(texts.at(-1)).toBe('kube-apiserver -> kubectl: 201 Created');
    const commit = d.steps.findIndex((s) => s.text.startsWith(`entry ${d.index} committed`));
    const lastResp = d.steps.findLastIndex((s) => s.text.startsWith('MsgAppResp'));
    expect(commit).toBeGreaterThan(lastResp);
    // Arrows are numbered, notes are not.
    expect(d.steps.filter((s) => s.kind !== 'note').map((s) => s.n)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  it('commits with one follower of two when a member is stopped, and says who got nothing', () => {
    const d = commitSequence(run, { from: 170, lang: 'ja' });
    expect(d.request).toMatchObject({ verb: 'patch', resource: 'deployments/scale', t: 180 });
    expect(d.leader).toBe('etcd@control-plane-2');
    expect(d.acks).toEqual(['etcd@control-plane-1']);
    expect(d.notes.map((n) => n.text)).toContain(
      'control-plane-3: 停止または切断中で MsgApp は届かない',
    );
    expect(d.notes.at(-1)!.text).toBe(
      `エントリ ${d.index} をコミット: 3 メンバー中 2 が保持（過半数は 2）`,
    );
  });

  it('draws nothing for a window without a committed write (the scale without a quorum)', () => {
    expect(commitSequence(run, { from: 62, to: 70 }).steps).toEqual([]);
  });
});

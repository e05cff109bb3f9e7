import { describe, expect, it } from 'vitest';
import { runNamed } from './testing.ts';
import { heartbeatSeqs } from './heartbeats.ts';

const run = runNamed('node-failure', 7);
const beats = heartbeatSeqs(run);
const requests = run.trace.filter((e) => e.kind === 'request');

describe('heartbeatSeqs', () => {
  it('takes every kubelet Lease renewal, its etcd write and its watch events', () => {
    const renewals = requests.filter(
      (e) =>
        e.kind === 'request' &&
        e.resource === 'leases' &&
        e.namespace === 'kube-node-lease' &&
        e.verb === 'update',
    );
    expect(renewals.length).toBeGreaterThan(100);
    for (const r of renewals) expect(beats.has(r.seq)).toBe(true);
    const watches = run.trace.filter((e) => e.kind === 'watch' && e.resource === 'leases');
    expect(watches.every((w) => beats.has(w.seq))).toBe(true);
  });

  it('keeps the writes that change something: Ready=Unknown, taints, Pod deletions', () => {
    const kept = requests.filter((e) => !beats.has(e.seq));
    const has = (pred: (e: (typeof requests)[number]) => boolean) => kept.some(pred);
    expect(
      has(
        (e) =>
          e.kind === 'request' &&
          e.from === 'node-lifecycle-controller' &&
          e.resource === 'nodes/status',
      ),
    ).toBe(true);
    expect(has((e) => e.kind === 'request' && e.resource === 'nodes' && e.verb === 'patch')).toBe(
      true,
    );
    expect(
      has(
        (e) =>
          e.kind === 'request' && e.from === 'taint-eviction-controller' && e.verb === 'delete',
      ),
    ).toBe(true);
    // The kubelet's first status (Ready=True) is no heartbeat; its later unchanged ones are.
    const statuses = requests.filter(
      (e) => e.kind === 'request' && e.from === 'kubelet@node-2' && e.resource === 'nodes/status',
    );
    expect(beats.has(statuses[0].seq)).toBe(false);
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses.slice(1).every((e) => beats.has(e.seq))).toBe(true);
  });
});

/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { golden, runNamed as run } from './testing.ts';
import type { Lease } from '../api/types.ts';
import { parseTime } from '../engine/clock.ts';
import { defaultSettings } from '../engine/settings.ts';
import { fieldSeries, nodeTimeline, podTimeline, replicaSetReplicas } from './timeline.ts';

const failure = run('node-failure', 7);
const rolling = run('rolling-update', 3);

describe('nodeTimeline (node-failure seed 7)', () => {
  const tl = nodeTimeline(failure.changes, 'node-1');

  it('matches the golden points', () => {
    golden('node-failure.node-1.json', `${JSON.stringify(tl, null, 2)}\n`);
  });

  it('turns Ready Unknown about node-monitor-grace-period after the last Lease renewal, then taints NoExecute', () => {
    const fault = failure.trace.find((e) => e.kind === 'fault')!;
    const renewals = failure.changes
      .filter(
        (c) => c.resource === 'leases' && c.object.metadata.name === 'node-1' && c.t <= fault.t,
      )
      .map((c) => parseTime((c.object as Lease).spec.renewTime!) / 1000);
    const lastRenewal = Math.max(...renewals);
    const unknown = tl.find((p) => p.ready === 'Unknown')!;
    const grace = defaultSettings.nodeMonitorGracePeriod / 1000;
    const period = defaultSettings.nodeMonitorPeriod / 1000;
    // The controller notices a renewal at its next pass and checks every period.
    expect(unknown.t - lastRenewal).toBeGreaterThanOrEqual(grace);
    expect(unknown.t - lastRenewal).toBeLessThanOrEqual(grace + 2 * period);
    const noExecute = tl.find((p) =>
      p.taints.includes('node.kubernetes.io/unreachable:NoExecute'),
    )!;
    expect(noExecute.t).toBeGreaterThanOrEqual(unknown.t);
    expect(noExecute.ready).toBe('Unknown');
    // Points only where something changed.
    for (let i = 1; i < tl.length; i++)
      expect(JSON.stringify({ ...tl[i], t: 0 })).not.toBe(JSON.stringify({ ...tl[i - 1], t: 0 }));
  });
});

describe('podTimeline (node-failure seed 7)', () => {
  const tl = podTimeline(failure.changes, { namespace: 'default', label: 'app=web' });

  it('matches the golden points', () => {
    golden('node-failure.pods.json', `${JSON.stringify(tl, null, 2)}\n`);
  });

  it('shows the Pod on node-1 Terminating 300 s after the NoExecute taint, and its replacement Running', () => {
    const taintAt = nodeTimeline(failure.changes, 'node-1').find((p) =>
      p.taints.some((t) => t.endsWith(':NoExecute')),
    )!.t;
    const evicted = tl.find((p) => p.nodeName === 'node-1' && p.status === 'Terminating')!;
    expect(evicted.t - taintAt).toBeCloseTo(defaultSettings.defaultUnreachableTolerationSeconds, 0);
    const replacement = tl.find((p) => p.t > evicted.t && p.status === 'Running')!;
    expect(replacement.nodeName).not.toBe('node-1');
    expect(new Set(tl.map((p) => p.status))).toEqual(
      new Set(['Pending', 'ContainerCreating', 'Running', 'Terminating']),
    );
  });
});

describe('replicaSetReplicas (rolling-update seed 3)', () => {
  const tl = replicaSetReplicas(rolling.changes, 'web');

  it('matches the golden series', () => {
    golden('rolling-update.replicasets.json', `${JSON.stringify(tl, null, 2)}\n`);
  });

  it('never exceeds replicas + maxSurge, and never drops below replicas - maxUnavailable once available', () => {
    expect(tl.replicas).toBe(10);
    expect(tl.maxSurge).toBe(3);
    expect(tl.maxUnavailable).toBe(2);
    const max = tl.replicas! + tl.maxSurge!;
    for (const p of tl.totals) expect(p.specReplicas).toBeLessThanOrEqual(max);
    // The surge is actually used: the bound is tight, so this test can fail.
    expect(Math.max(...tl.totals.map((p) => p.specReplicas))).toBe(max);
    const firstFull = tl.totals.findIndex((p) => p.availableReplicas === tl.replicas);
    for (const p of tl.totals.slice(firstFull))
      expect(p.availableReplicas).toBeGreaterThanOrEqual(tl.replicas! - tl.maxUnavailable!);
  });

  it('has one series per ReplicaSet with only changed points', () => {
    expect(tl.replicaSets.map((s) => s.images[0]).sort()).toEqual(['nginx:1.27', 'nginx:1.28']);
    for (const s of tl.replicaSets)
      for (let i = 1; i < s.points.length; i++)
        expect(JSON.stringify({ ...s.points[i], t: 0 })).not.toBe(
          JSON.stringify({ ...s.points[i - 1], t: 0 }),
        );
  });
});

describe('fieldSeries', () => {
  it('follows a path with a list selector, emitting only changes', () => {
    expect(
      fieldSeries(failure.changes, 'nodes', 'node-1', 'status.conditions[type=Ready].status'),
    ).toEqual([
      { t: expect.any(Number), value: 'True' },
      { t: 110, value: 'Unknown' },
    ]);
    const replicas = fieldSeries(
      rolling.changes,
      'deployments',
      'default/web',
      'spec.template.spec.containers[0].image',
    ).map((p) => p.value);
    expect(replicas).toEqual(['nginx:1.27', 'nginx:1.28', 'nginx:1.27']);
  });
});

import { describe, it, expect } from 'vitest';
import type { Pod, PodTemplateSpec } from '../api/types.ts';
import { formatTime } from '../engine/clock.ts';
import { Rng } from '../engine/rng.ts';
import {
  activePodsWithRanksLess,
  computeHash,
  ControllerExpectations,
  ExpectationsTimeout,
  filterActivePods,
  PodDeletionCost,
  safeEncodeString,
  slowStartBatch,
  sortActivePodsWithRanks,
  UIDTrackingControllerExpectations,
  type ActivePodsWithRanks,
} from './controller-utils.ts';

const HOUR = 3600_000;
// now is a whole second, so that second-precision timestamps of "now" equal it.
const now = 40 * 24 * HOUR;
const then = now - 30 * 24 * HOUR; // about a month before

interface PodOpts {
  node?: string;
  phase?: Pod['status']['phase'];
  ready?: boolean;
  readySince?: number;
  restarts?: number[];
  created?: number;
  annotations?: Record<string, string>;
  uid?: string;
  deleting?: boolean;
}

function newPod(name: string, o: PodOpts = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: o.uid ?? '',
      resourceVersion: '1',
      creationTimestamp: o.created === undefined ? '' : formatTime(o.created),
      annotations: o.annotations,
      deletionTimestamp: o.deleting ? formatTime(now) : undefined,
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }], nodeName: o.node ?? '' },
    status: {
      phase: o.phase ?? 'Pending',
      conditions: o.ready
        ? [
            {
              type: 'Ready',
              status: 'True',
              lastTransitionTime: o.readySince === undefined ? undefined : formatTime(o.readySince),
            },
          ]
        : [],
      containerStatuses: (o.restarts ?? []).map((r, i) => ({
        name: `c${i}`,
        state: {},
        lastState: {},
        ready: !!o.ready,
        restartCount: r,
        image: 'nginx',
        imageID: '',
      })),
    },
  };
}

function names(pods: Pod[]): string[] {
  return pods.map((p) => p.metadata.name);
}

describe('ActivePodsWithRanks', () => {
  // TestSortingActivePods (pkg/controller/controller_utils_test.go), all ranks equal.
  const sortingPods = (): Pod[] => [
    newPod('unscheduled', { node: '', phase: 'Pending' }),
    newPod('scheduledButPending', { node: 'bar', phase: 'Pending' }),
    newPod('unknownPhase', { node: 'foo', phase: 'Unknown' }),
    newPod('runningButNotReady', { node: 'foo', phase: 'Running' }),
    newPod('runningNoLastTransitionTime', {
      node: 'foo',
      phase: 'Running',
      ready: true,
      restarts: [3, 0],
    }),
    newPod('runningWithLastTransitionTime', {
      node: 'foo',
      phase: 'Running',
      ready: true,
      readySince: now,
      restarts: [3, 0],
    }),
    newPod('runningLongerTime', {
      node: 'foo',
      phase: 'Running',
      ready: true,
      readySince: then,
      restarts: [3, 0],
    }),
    newPod('lowerContainerRestartCount', {
      node: 'foo',
      phase: 'Running',
      ready: true,
      readySince: then,
      restarts: [2, 1],
      created: now,
    }),
    newPod('oldest', {
      node: 'foo',
      phase: 'Running',
      ready: true,
      readySince: then,
      restarts: [2, 1],
      created: then,
    }),
  ];
  const wantOrder = [
    'unscheduled',
    'scheduledButPending',
    'unknownPhase',
    'runningButNotReady',
    'runningNoLastTransitionTime',
    'runningWithLastTransitionTime',
    'runningLongerTime',
    'lowerContainerRestartCount',
    'oldest',
  ];

  it('sorts as TestSortingActivePods expects, from any starting order', () => {
    const rng = new Rng(7);
    for (let round = 0; round < 20; round++) {
      const pods = sortingPods();
      for (let i = pods.length - 1; i > 0; i--) {
        const j = rng.intn(i + 1);
        [pods[i], pods[j]] = [pods[j], pods[i]];
      }
      const s: ActivePodsWithRanks = { pods, rank: pods.map(() => 1), now };
      sortActivePodsWithRanks(s);
      expect(names(s.pods)).toEqual(wantOrder);
    }
  });

  // TestSortingActivePodsWithRanks: lesser is deleted before greater.
  const pod = (
    name: string,
    node: string,
    phase: Pod['status']['phase'],
    ready: boolean,
    restarts: number,
    readySince?: number,
    created?: number,
    annotations?: Record<string, string>,
  ) =>
    newPod(name, {
      node,
      phase,
      ready,
      restarts: ready ? [restarts] : [],
      readySince,
      created,
      annotations,
    });
  const unscheduled = pod('unscheduled', '', 'Pending', false, 0);
  const scheduledPending = pod('pending', 'node', 'Pending', false, 0);
  const unknownPhase = pod('unknown-phase', 'node', 'Unknown', false, 0);
  const runningNotReady = pod('not-ready', 'node', 'Running', false, 0);
  const readyNoLastTransitionTime = pod(
    'ready-no-last-transition-time',
    'node',
    'Running',
    true,
    0,
  );
  const readyNow = pod('ready-now', 'node', 'Running', true, 0, now, now);
  const readyThen = pod('ready-then', 'node', 'Running', true, 0, then, then);
  const readyNowHighRestarts = pod('ready-high-restarts', 'node', 'Running', true, 9001, now, now);
  const readyNowCreatedThen = pod('ready-now-created-then', 'node', 'Running', true, 0, now, then);
  const lowCost = pod('low-deletion-cost', 'node', 'Running', true, 0, now, then, {
    [PodDeletionCost]: '10',
  });
  const highCost = pod('high-deletion-cost', 'node', 'Running', true, 0, now, then, {
    [PodDeletionCost]: '100',
  });
  const unscheduled5Hours = pod(
    'unscheduled-5-hours',
    '',
    'Pending',
    false,
    0,
    now - 5 * HOUR,
    now - 5 * HOUR,
  );
  const unscheduled8Hours = pod(
    'unscheduled-8-hours',
    '',
    'Pending',
    false,
    0,
    now - 8 * HOUR,
    now - 8 * HOUR,
  );
  const ready2Hours = pod('ready-2-hours', '', 'Running', true, 0, now - 2 * HOUR, then);
  const ready5Hours = pod('ready-5-hours', '', 'Running', true, 0, now - 5 * HOUR, then);
  const ready8Hours = pod('ready-8-hours', '', 'Running', true, 0, now - 8 * HOUR, then);

  const inequality: [Pod, number, Pod, number][] = [
    [unscheduled, 1, scheduledPending, 2],
    [unscheduled, 2, scheduledPending, 1],
    [scheduledPending, 1, unknownPhase, 2],
    [unknownPhase, 1, runningNotReady, 2],
    [runningNotReady, 1, readyNoLastTransitionTime, 1],
    [readyNoLastTransitionTime, 1, readyNow, 1],
    [readyNow, 2, readyNoLastTransitionTime, 1],
    [readyNow, 1, readyThen, 1],
    [readyNow, 2, readyThen, 1],
    [readyNowHighRestarts, 1, readyNow, 1],
    [readyNow, 2, readyNowHighRestarts, 1],
    [readyNow, 1, readyNowCreatedThen, 1],
    [readyNowCreatedThen, 2, readyNow, 1],
    [lowCost, 2, highCost, 1],
    [ready2Hours, 1, ready5Hours, 1],
  ];
  it.each(
    inequality.map(([a, ra, b, rb]) => [a.metadata.name, ra, b.metadata.name, rb, a, b] as const),
  )('%s (rank %d) goes before %s (rank %d)', (_a, ra, _b, rb, a, b) => {
    const s: ActivePodsWithRanks = { pods: [a, b], rank: [ra, rb], now };
    expect(activePodsWithRanksLess(s, 0, 1)).toBe(true);
    expect(activePodsWithRanksLess(s, 1, 0)).toBe(false);
  });

  it('treats times in the same power-of-two age bucket as equal (LogarithmicScaleDown)', () => {
    for (const [a, b] of [
      [unscheduled5Hours, unscheduled8Hours],
      [ready5Hours, ready8Hours],
      [readyNow, readyNow],
      [readyThen, readyThen],
    ]) {
      const s: ActivePodsWithRanks = { pods: [a, b], rank: [1, 1], now };
      expect(activePodsWithRanksLess(s, 0, 1)).toBe(false);
      expect(activePodsWithRanksLess(s, 1, 0)).toBe(false);
    }
  });

  it('breaks a bucket tie by UID', () => {
    const a = newPod('a', {
      node: 'n',
      phase: 'Running',
      ready: true,
      readySince: now - 5 * HOUR,
      uid: 'uid-b',
    });
    const b = newPod('b', {
      node: 'n',
      phase: 'Running',
      ready: true,
      readySince: now - 8 * HOUR,
      uid: 'uid-a',
    });
    const s: ActivePodsWithRanks = { pods: [a, b], rank: [1, 1], now };
    expect(activePodsWithRanksLess(s, 1, 0)).toBe(true);
    expect(activePodsWithRanksLess(s, 0, 1)).toBe(false);
  });

  it('compares times plainly when now is the zero time', () => {
    const s: ActivePodsWithRanks = { pods: [ready5Hours, ready8Hours], rank: [1, 1] };
    expect(activePodsWithRanksLess(s, 0, 1)).toBe(true);
  });

  it('prefers more co-located related Pods (higher rank)', () => {
    const s: ActivePodsWithRanks = { pods: [readyThen, readyNow], rank: [3, 1], now };
    expect(activePodsWithRanksLess(s, 0, 1)).toBe(true);
  });
});

describe('filterActivePods', () => {
  it('drops terminal and terminating Pods', () => {
    const pods = [
      newPod('running', { phase: 'Running' }),
      newPod('failed', { phase: 'Failed' }),
      newPod('succeeded', { phase: 'Succeeded' }),
      newPod('deleting', { phase: 'Running', deleting: true }),
      newPod('pending', { phase: 'Pending' }),
    ];
    expect(names(filterActivePods(pods))).toEqual(['running', 'pending']);
  });
});

describe('computeHash', () => {
  const template: PodTemplateSpec = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
  };

  it('renders the FNV-32a sum as SafeEncodeString of its decimal digits', () => {
    const h = computeHash(template);
    expect(h).toMatch(/^[456789bcdf]{1,10}$/);
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });

  it('is deterministic and ignores key order', () => {
    const reordered = {
      spec: { containers: [{ image: 'nginx:1.27', name: 'web' }] },
      metadata: { labels: { app: 'web' } },
    } as PodTemplateSpec;
    expect(computeHash(template)).toBe(computeHash(reordered));
  });

  it('changes with the template and with the collision count', () => {
    const other: PodTemplateSpec = {
      ...template,
      spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] },
    };
    expect(computeHash(other)).not.toBe(computeHash(template));
    expect(computeHash(template, 1)).not.toBe(computeHash(template, 2));
    expect(computeHash(template)).not.toBe(computeHash(template, 2147483647));
  });
});

describe('ControllerExpectations', () => {
  it('waits until every expected create and delete is observed', () => {
    let t = 0;
    const e = new ControllerExpectations(() => t);
    expect(e.satisfiedExpectations('default/rs')).toBe(true);
    e.expectCreations('default/rs', 2);
    expect(e.satisfiedExpectations('default/rs')).toBe(false);
    e.creationObserved('default/rs');
    expect(e.satisfiedExpectations('default/rs')).toBe(false);
    e.creationObserved('default/rs');
    expect(e.satisfiedExpectations('default/rs')).toBe(true);
    e.expectDeletions('default/rs', 1);
    expect(e.satisfiedExpectations('default/rs')).toBe(false);
    e.deletionObserved('default/rs');
    expect(e.satisfiedExpectations('default/rs')).toBe(true);
    t = 1;
  });

  it('expires after ExpectationsTimeout (5m)', () => {
    let t = 1000;
    const e = new ControllerExpectations(() => t);
    e.expectCreations('k', 3);
    t += ExpectationsTimeout;
    expect(e.satisfiedExpectations('k')).toBe(false);
    t += 1;
    expect(e.satisfiedExpectations('k')).toBe(true);
  });

  it('counts a tracked delete once (UIDTrackingControllerExpectations)', () => {
    const e = new UIDTrackingControllerExpectations(() => 0);
    e.expectDeletionsOf('k', ['default/a', 'default/b']);
    e.deletionObservedOf('k', 'default/a');
    e.deletionObservedOf('k', 'default/a');
    e.deletionObservedOf('k', 'default/other');
    expect(e.satisfiedExpectations('k')).toBe(false);
    e.deletionObservedOf('k', 'default/b');
    expect(e.satisfiedExpectations('k')).toBe(true);
  });
});

describe('slowStartBatch', () => {
  it('goes out in batches of 1, 2, 4, then the remainder: 10 = 1 + 2 + 4 + 3', () => {
    let calls = 0;
    expect(slowStartBatch(10, 1, () => (calls++, true))).toBe(10);
    expect(calls).toBe(10);
    // Failing call k makes the run stop at the end of k's batch: the distinct stopping points
    // are the batch ends.
    const ends = new Set<number>();
    for (let failAt = 1; failAt <= 10; failAt++) {
      let c = 0;
      slowStartBatch(10, 1, () => ++c !== failAt);
      ends.add(c);
    }
    const sizes = [...ends].map((e, i, all) => e - (i ? all[i - 1] : 0));
    expect(sizes).toEqual([1, 2, 4, 3]);
  });

  it('finishes the failing batch and skips the rest', () => {
    let c = 0;
    // The 2nd call fails: batch 2 (calls 2 and 3) runs fully, then nothing more.
    const successes = slowStartBatch(10, 1, () => ++c !== 2);
    expect(c).toBe(3);
    expect(successes).toBe(2);
  });

  it('does nothing for zero and caps the first batch at count', () => {
    let c = 0;
    expect(slowStartBatch(0, 1, () => (c++, true))).toBe(0);
    expect(c).toBe(0);
    expect(slowStartBatch(3, 5, () => (c++, true))).toBe(3);
    expect(c).toBe(3);
  });
});

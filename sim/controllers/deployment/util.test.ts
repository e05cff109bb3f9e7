import { describe, it, expect } from 'vitest';
import type { Deployment, DeploymentStatus, IntOrString, ReplicaSet } from '../../api/types.ts';
import { formatTime } from '../../engine/clock.ts';
import {
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  equalIgnoreHash,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  getProportion,
  getReplicaSetFraction,
  getScaledValueFromIntOrPercent,
  getTerminatingReplicaCountForReplicaSets,
  isSaturated,
  lastRevision,
  maxRevision,
  maxSurge,
  maxUnavailable,
  minAvailable,
  NewRSAvailableReason,
  newRSNewReplicas,
  removeDeploymentCondition,
  resolveFenceposts,
  setDeploymentCondition,
  setNewReplicaSetAnnotations,
  TimedOutReason,
} from './util.ts';

function newDeployment(
  replicas: number,
  o: {
    maxSurge?: IntOrString;
    maxUnavailable?: IntOrString;
    type?: 'RollingUpdate' | 'Recreate';
    status?: DeploymentStatus;
    progressDeadlineSeconds?: number;
    generation?: number;
  } = {},
): Deployment {
  const type = o.type ?? 'RollingUpdate';
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: 'd-uid',
      resourceVersion: '1',
      creationTimestamp: formatTime(0),
      generation: o.generation ?? 1,
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
      strategy:
        type === 'RollingUpdate'
          ? { type, rollingUpdate: { maxSurge: o.maxSurge, maxUnavailable: o.maxUnavailable } }
          : { type },
      progressDeadlineSeconds: o.progressDeadlineSeconds,
    },
    status: o.status ?? {},
  };
}

function newRS(
  name: string,
  replicas: number,
  o: {
    created?: number;
    annotations?: Record<string, string>;
    available?: number;
    image?: string;
    hash?: string;
  } = {},
): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '1',
      creationTimestamp: formatTime(o.created ?? 0),
      annotations: o.annotations,
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web', ...(o.hash ? { 'pod-template-hash': o.hash } : {}) } },
        spec: { containers: [{ name: 'web', image: o.image ?? 'nginx:1.27' }] },
      },
    },
    status: { replicas, availableReplicas: o.available ?? 0 },
  };
}

describe('getScaledValueFromIntOrPercent', () => {
  it('rounds percentages up or down and passes ints through', () => {
    expect(getScaledValueFromIntOrPercent('25%', 10, true)).toBe(3);
    expect(getScaledValueFromIntOrPercent('25%', 10, false)).toBe(2);
    expect(getScaledValueFromIntOrPercent(4, 10, false)).toBe(4);
  });

  it('refuses a string without % ("90")', () => {
    expect(() => getScaledValueFromIntOrPercent('90', 10, true)).toThrow(
      'invalid value for IntOrString: invalid type: string is not a percentage',
    );
    expect(() => getScaledValueFromIntOrPercent('abc%', 10, true)).toThrow(/invalid value "abc%"/);
  });
});

describe('resolveFenceposts', () => {
  // TestResolveFenceposts (deployment_util_test.go).
  const table: [
    IntOrString | undefined,
    IntOrString | undefined,
    number,
    number,
    number,
    boolean,
  ][] = [
    ['0%', '0%', 0, 0, 1, false],
    ['39%', '39%', 10, 4, 3, false],
    ['oops', '39%', 10, 0, 0, true],
    ['55%', 'urg', 10, 0, 0, true],
    [undefined, '39%', 10, 0, 3, false],
    ['39%', undefined, 10, 4, 0, false],
    [undefined, undefined, 10, 0, 1, false],
    // Derived: the defaults on 10 and 1 replicas, and 0%/0% on any size.
    ['25%', '25%', 10, 3, 2, false],
    ['25%', '25%', 1, 1, 0, false],
    ['0%', '0%', 7, 0, 1, false],
  ];
  it.each(table)(
    'surge %s unavailable %s of %d -> %d, %d',
    (s, u, desired, wantSurge, wantUnavailable, wantError) => {
      if (wantError) {
        expect(() => resolveFenceposts(s, u, desired)).toThrow();
        return;
      }
      expect(resolveFenceposts(s, u, desired)).toEqual([wantSurge, wantUnavailable]);
    },
  );
});

describe('maxUnavailable, maxSurge, minAvailable', () => {
  // TestMaxUnavailable (maxSurge 1).
  const table: [number, IntOrString, number][] = [
    [10, 5, 5],
    [10, 10, 10],
    [5, 10, 5],
    [0, 10, 0],
    [10, '50%', 5],
    [10, '100%', 10],
    [5, '100%', 5],
  ];
  it.each(table)('replicas %d, maxUnavailable %s -> %d', (replicas, mu, want) => {
    expect(maxUnavailable(newDeployment(replicas, { maxSurge: 1, maxUnavailable: mu }))).toBe(want);
  });

  it('is 0 for Recreate', () => {
    const d = newDeployment(10, { type: 'Recreate' });
    expect(maxUnavailable(d)).toBe(0);
    expect(maxSurge(d)).toBe(0);
    expect(minAvailable(d)).toBe(0);
  });

  it('resolves the defaults: 10 replicas at 25%/25% allow 13 Pods and need 8 available', () => {
    const d = newDeployment(10, { maxSurge: '25%', maxUnavailable: '25%' });
    expect(maxSurge(d)).toBe(3);
    expect(maxUnavailable(d)).toBe(2);
    expect(minAvailable(d)).toBe(8);
  });
});

describe('newRSNewReplicas', () => {
  // TestNewRSNewReplicas: the other ReplicaSet has 5 replicas; maxUnavailable 1.
  const table: [string, 'RollingUpdate' | 'Recreate', number, number, number, number][] = [
    ['can not scale up - to newRSReplicas', 'RollingUpdate', 1, 5, 1, 5],
    ['scale up - to depReplicas', 'RollingUpdate', 6, 2, 10, 6],
    ['recreate - to depReplicas', 'Recreate', 3, 1, 1, 3],
  ];
  it.each(table)('%s', (_name, type, depReplicas, newRSReplicas, surge, want) => {
    const d = newDeployment(depReplicas, { type, maxSurge: surge, maxUnavailable: 1 });
    if (type === 'Recreate')
      d.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: surge, maxUnavailable: 1 } };
    expect(newRSNewReplicas(d, [newRS('rs5', 5)], newRS('new', newRSReplicas))).toBe(want);
  });

  it('adds no more than the surge allows', () => {
    const d = newDeployment(10, { maxSurge: '25%', maxUnavailable: '25%' });
    const old = newRS('old', 10);
    const fresh = newRS('new', 0);
    expect(newRSNewReplicas(d, [old, fresh], fresh)).toBe(3);
  });
});

describe('deploymentComplete', () => {
  // TestDeploymentComplete: desired, current, updated, available, maxUnavailable, maxSurge.
  const table: [string, number, number, number, number, number, number, boolean][] = [
    ['not complete: min but not all pods become available', 5, 5, 5, 4, 1, 0, false],
    ['not complete: min availability is not honored', 5, 5, 5, 3, 1, 0, false],
    ['complete', 5, 5, 5, 5, 0, 0, true],
    ['not complete: all pods are available but not updated', 5, 5, 4, 5, 0, 0, false],
    ['not complete: still running old pods', 1, 2, 1, 1, 0, 1, false],
    ['not complete: one replica deployment never comes up', 1, 1, 1, 0, 1, 1, false],
  ];
  it.each(table)('%s', (_name, desired, current, updated, available, mu, ms, want) => {
    const d = newDeployment(desired, {
      maxUnavailable: mu,
      maxSurge: ms,
      status: { replicas: current, updatedReplicas: updated, availableReplicas: available },
    });
    d.metadata.generation = 0;
    expect(deploymentComplete(d, d.status)).toBe(want);
  });

  it('needs the latest generation observed', () => {
    const d = newDeployment(1, {
      generation: 2,
      status: { replicas: 1, updatedReplicas: 1, availableReplicas: 1, observedGeneration: 1 },
    });
    expect(deploymentComplete(d, d.status)).toBe(false);
  });
});

describe('deploymentProgressing', () => {
  // TestDeploymentProgressing: current, updated, ready, available before and after.
  const table: [string, number[], number[], boolean][] = [
    ['progressing: updated pods', [10, 4, 4, 4], [10, 6, 4, 4], true],
    ['not progressing', [10, 4, 4, 4], [10, 4, 4, 4], false],
    ['progressing: old pods removed', [10, 4, 6, 6], [8, 4, 6, 6], true],
    ['not progressing: less new pods', [10, 7, 3, 3], [10, 6, 3, 3], false],
    ['progressing: less overall but more new pods', [10, 4, 7, 7], [8, 8, 5, 5], true],
    ['progressing: more ready pods', [10, 10, 9, 8], [10, 10, 10, 8], true],
    ['progressing: more available pods', [10, 10, 10, 9], [10, 10, 10, 10], true],
  ];
  const st = ([
    replicas,
    updatedReplicas,
    readyReplicas,
    availableReplicas,
  ]: number[]): DeploymentStatus => ({
    replicas,
    updatedReplicas,
    readyReplicas,
    availableReplicas,
  });
  it.each(table)('%s', (_name, before, after, want) => {
    const d = newDeployment(10, { status: st(before) });
    expect(deploymentProgressing(d, st(after))).toBe(want);
  });
});

describe('deploymentTimedOut', () => {
  // TestDeploymentTimedOut: the condition was last updated at 00:01:09 or 00:01:11; now is 00:01:20.
  const at = (min: number, sec: number) => (min * 60 + sec) * 1000;
  const withCond = (reason: string, pds: number | undefined, from: number) =>
    newDeployment(1, {
      progressDeadlineSeconds: pds,
      status: {
        conditions: [
          { type: 'Progressing', status: 'True', reason, lastUpdateTime: formatTime(from) },
        ],
      },
    });
  const table: [string, Deployment, boolean][] = [
    [
      'nil progressDeadlineSeconds specified - no timeout',
      withCond('', undefined, at(1, 9)),
      false,
    ],
    [
      'infinite progressDeadlineSeconds specified - no timeout',
      withCond('', 2147483647, at(1, 9)),
      false,
    ],
    ['progressDeadlineSeconds: 10s, now - started => 11s', withCond('', 10, at(1, 9)), true],
    ['progressDeadlineSeconds: 10s, now - started => 9s', withCond('', 10, at(1, 11)), false],
    ['previous status was a complete deployment', withCond(NewRSAvailableReason, 10, 0), false],
    ['already timed out', withCond(TimedOutReason, 10, at(1, 19)), true],
  ];
  it.each(table)('%s', (_name, d, want) => {
    expect(deploymentTimedOut(d, d.status, at(1, 20))).toBe(want);
  });

  it('compares strictly: exactly at the deadline is not yet timed out', () => {
    const d = withCond('', 10, at(1, 10));
    expect(deploymentTimedOut(d, d.status, at(1, 20))).toBe(false);
  });
});

describe('proportional scaling', () => {
  it('getReplicaSetFraction scales by (replicas + surge) / max-replicas', () => {
    // 10 -> 20 replicas at 25%: 25 allowed; the RS of 8 was annotated with max-replicas 13.
    const d = newDeployment(20, { maxSurge: '25%', maxUnavailable: '25%' });
    const rs = newRS('old', 8, { annotations: { 'deployment.kubernetes.io/max-replicas': '13' } });
    expect(getReplicaSetFraction(rs, d)).toBe(Math.round((8 * 25) / 13) - 8);
  });

  it('is the whole ReplicaSet (negative) when scaling to zero', () => {
    const d = newDeployment(0, { maxSurge: '25%', maxUnavailable: '25%' });
    expect(getReplicaSetFraction(newRS('old', 8), d)).toBe(-8);
  });

  it('falls back to status.replicas without the annotation', () => {
    const d = newDeployment(20, { maxSurge: 0, maxUnavailable: 1, status: { replicas: 10 } });
    expect(getReplicaSetFraction(newRS('old', 5), d)).toBe(5);
  });

  it('getProportion is capped by what is left to add or remove', () => {
    const d = newDeployment(20, { maxSurge: '25%', maxUnavailable: '25%' });
    const rs = newRS('old', 8, { annotations: { 'deployment.kubernetes.io/max-replicas': '13' } });
    expect(getProportion(rs, d, 12, 0)).toBe(7);
    expect(getProportion(rs, d, 12, 10)).toBe(2);
    expect(getProportion(rs, d, 12, 12)).toBe(0);
    expect(getProportion(newRS('zero', 0), d, 12, 0)).toBe(0);
    const down = newDeployment(5, { maxSurge: '25%', maxUnavailable: '25%' });
    expect(getProportion(rs, down, -6, 0)).toBe(Math.max(Math.round((8 * 7) / 13) - 8, -6));
  });
});

describe('conditions', () => {
  it('keeps lastTransitionTime when the status does not change and skips identical reasons', () => {
    const s: DeploymentStatus = {};
    setDeploymentCondition(s, {
      type: 'Available',
      status: 'True',
      reason: 'A',
      lastTransitionTime: 't1',
      lastUpdateTime: 't1',
    });
    setDeploymentCondition(s, {
      type: 'Progressing',
      status: 'True',
      reason: 'P',
      lastTransitionTime: 't1',
      lastUpdateTime: 't1',
    });
    setDeploymentCondition(s, {
      type: 'Available',
      status: 'True',
      reason: 'A',
      lastTransitionTime: 't2',
      lastUpdateTime: 't2',
    });
    expect(s.conditions![0].lastUpdateTime).toBe('t1');
    setDeploymentCondition(s, {
      type: 'Available',
      status: 'True',
      reason: 'B',
      lastTransitionTime: 't3',
      lastUpdateTime: 't3',
    });
    expect(s.conditions!.map((c) => c.type)).toEqual(['Progressing', 'Available']);
    expect(s.conditions![1]).toMatchObject({
      reason: 'B',
      lastTransitionTime: 't1',
      lastUpdateTime: 't3',
    });
    removeDeploymentCondition(s, 'Progressing');
    removeDeploymentCondition(s, 'Available');
    expect(s.conditions).toBeUndefined();
  });
});

describe('revisions and annotations', () => {
  it('maxRevision and lastRevision skip unparseable revisions', () => {
    const rss = [
      newRS('a', 0, { annotations: { 'deployment.kubernetes.io/revision': '3' } }),
      newRS('b', 0, { annotations: { 'deployment.kubernetes.io/revision': '7' } }),
      newRS('c', 0, { annotations: { 'deployment.kubernetes.io/revision': 'x' } }),
      newRS('d', 0),
    ];
    expect(maxRevision(rss)).toBe(7);
    expect(lastRevision(rss)).toBe(3);
  });

  it('setNewReplicaSetAnnotations sets revision, replicas annotations, and keeps history on rollback', () => {
    const d = newDeployment(4, { maxSurge: '25%', maxUnavailable: '25%' });
    d.metadata.annotations = {
      team: 'a',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
    };
    const rs = newRS('new', 0);
    expect(setNewReplicaSetAnnotations(d, rs, '1', false, 2000)).toBe(true);
    expect(rs.metadata.annotations).toEqual({
      team: 'a',
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '4',
      'deployment.kubernetes.io/max-replicas': '5',
    });
    // Rolled back to: revision 1 becomes 3, and 1 goes to the history.
    expect(setNewReplicaSetAnnotations(d, rs, '3', true, 2000)).toBe(true);
    expect(rs.metadata.annotations!['deployment.kubernetes.io/revision']).toBe('3');
    expect(rs.metadata.annotations!['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(setNewReplicaSetAnnotations(d, rs, '5', true, 2000)).toBe(true);
    expect(rs.metadata.annotations!['deployment.kubernetes.io/revision-history']).toBe('1,3');
    expect(setNewReplicaSetAnnotations(d, rs, '2', true, 2000)).toBe(false);
  });

  it('isSaturated needs spec, annotation and availability to agree', () => {
    const d = newDeployment(3);
    const ann = { 'deployment.kubernetes.io/desired-replicas': '3' };
    expect(isSaturated(d, newRS('rs', 3, { annotations: ann, available: 3 }))).toBe(true);
    expect(isSaturated(d, newRS('rs', 3, { annotations: ann, available: 2 }))).toBe(false);
    expect(isSaturated(d, newRS('rs', 3, { available: 3 }))).toBe(false);
    expect(isSaturated(d, undefined)).toBe(false);
  });
});

describe('finding ReplicaSets', () => {
  it('findNewReplicaSet ignores the pod-template-hash label and picks the oldest match', () => {
    const d = newDeployment(3);
    const old = newRS('web-old', 3, { image: 'nginx:1.26', hash: 'aaa', created: 0 });
    const cur2 = newRS('web-cur2', 0, { hash: 'ccc', created: 5000 });
    const cur = newRS('web-cur', 0, { hash: 'bbb', created: 1000 });
    const list = [cur2, old, cur];
    expect(findNewReplicaSet(d, list)?.metadata.name).toBe('web-cur');
    const { requiredRSs, allRSs } = findOldReplicaSets(d, [cur2, old, cur]);
    expect(allRSs.map((r) => r.metadata.name)).toEqual(['web-old', 'web-cur2']);
    expect(requiredRSs.map((r) => r.metadata.name)).toEqual(['web-old']);
  });

  it('equalIgnoreHash treats empty maps like missing ones', () => {
    const d = newDeployment(1);
    const rs = newRS('x', 1, { hash: 'h' });
    rs.spec.template.metadata!.annotations = {};
    expect(equalIgnoreHash(rs.spec.template, d.spec.template)).toBe(true);
    rs.spec.template.metadata!.annotations = { a: 'b' };
    expect(equalIgnoreHash(rs.spec.template, d.spec.template)).toBe(false);
  });

  it('findActiveOrLatest returns the only active ReplicaSet, else the newest', () => {
    const a = newRS('a', 0, { created: 0 });
    const b = newRS('b', 0, { created: 1000 });
    expect(findActiveOrLatest(undefined, [a, b])?.metadata.name).toBe('b');
    expect(findActiveOrLatest(newRS('n', 0), [a, b])?.metadata.name).toBe('n');
    expect(findActiveOrLatest(newRS('n', 0), [a, newRS('c', 2)])?.metadata.name).toBe('c');
    expect(findActiveOrLatest(newRS('n', 1), [newRS('c', 2)])).toBeUndefined();
  });

  it('getTerminatingReplicaCountForReplicaSets is unknown when a synced ReplicaSet does not report it', () => {
    const a = newRS('a', 1);
    a.status = { replicas: 1, terminatingReplicas: 2, observedGeneration: 1 };
    const b = newRS('b', 1);
    b.status = { replicas: 0 };
    expect(getTerminatingReplicaCountForReplicaSets([a, b])).toBe(2);
    b.status = { replicas: 1, observedGeneration: 1 };
    expect(getTerminatingReplicaCountForReplicaSets([a, b])).toBeUndefined();
  });
});

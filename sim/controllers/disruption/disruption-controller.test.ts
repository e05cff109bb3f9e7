import { describe, expect, it } from 'vitest';
import { getPodCondition } from '../../api/podutil.ts';
import type { Pod, PodDisruptionBudget } from '../../api/types.ts';
import { StatusError } from '../../apiserver/errors.ts';
import { parseScenario } from '../../scenario/loader.ts';
import { ScenarioRun } from '../../scenario/runner.ts';
import { webScenario } from '../../testing.ts';
import { getScaledValueFromIntOrPercent } from './disruption-controller.ts';

const SCENARIO = webScenario('pdb-test');

function pdb(spec: PodDisruptionBudget['spec']): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default' } as PodDisruptionBudget['metadata'],
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    status: {} as PodDisruptionBudget['status'],
  };
}

function running(spec: PodDisruptionBudget['spec']): ScenarioRun {
  const run = new ScenarioRun(parseScenario(SCENARIO, 'pdb-test.yaml'), { freeze: true });
  run.runUntil(30_000);
  run.cluster.apiserver.create('kubectl', 'poddisruptionbudgets', pdb(spec));
  run.runUntil(32_000);
  return run;
}

function budget(run: ScenarioRun): PodDisruptionBudget {
  return run.cluster.apiserver.get<PodDisruptionBudget>(
    'test',
    'poddisruptionbudgets',
    'default',
    'web',
  );
}

function webPods(run: ScenarioRun): Pod[] {
  return run.cluster.apiserver.peekAll<Pod>('pods').filter((p) => p.metadata.labels?.app === 'web');
}

describe('disruption controller', () => {
  it('rounds percents up as intstr.GetScaledValueFromIntOrPercent does', () => {
    expect(getScaledValueFromIntOrPercent('50%', 3, true)).toBe(2);
    expect(getScaledValueFromIntOrPercent('34%', 3, true)).toBe(2);
    expect(getScaledValueFromIntOrPercent('33%', 3, true)).toBe(1);
    expect(getScaledValueFromIntOrPercent(2, 3, true)).toBe(2);
  });

  it('keeps status for an integer minAvailable: desired is the number, expected the selected Pods', () => {
    const st = budget(running({ minAvailable: 2 })).status;
    expect(st).toMatchObject({
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      disruptionsAllowed: 1,
      observedGeneration: 1,
    });
    expect(st.conditions).toEqual([
      {
        type: 'DisruptionAllowed',
        status: 'True',
        observedGeneration: 1,
        lastTransitionTime: expect.any(String),
        reason: 'SufficientPods',
        message: '',
      },
    ]);
  });

  it('counts the Deployment scale for maxUnavailable and rounds a percent up', () => {
    // maxUnavailable 50% of 3 rounds up to 2: desiredHealthy 1, two disruptions allowed.
    const st = budget(running({ maxUnavailable: '50%' })).status;
    expect(st).toMatchObject({
      currentHealthy: 3,
      desiredHealthy: 1,
      expectedPods: 3,
      disruptionsAllowed: 2,
    });
  });

  it('allows no disruption when minAvailable equals the healthy Pods (InsufficientPods)', () => {
    const st = budget(running({ minAvailable: '100%' })).status;
    expect(st).toMatchObject({
      currentHealthy: 3,
      desiredHealthy: 3,
      expectedPods: 3,
      disruptionsAllowed: 0,
    });
    expect(st.conditions?.[0]).toMatchObject({
      type: 'DisruptionAllowed',
      status: 'False',
      reason: 'InsufficientPods',
    });
  });
});

describe('pods/eviction', () => {
  it('answers 429 naming the budget when it allows no disruption', () => {
    const run = running({ minAvailable: 3 });
    const pod = webPods(run)[0];
    let err: StatusError | undefined;
    try {
      run.cluster.apiserver.evict('kubectl', {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: pod.metadata.name, namespace: 'default' },
      });
    } catch (e) {
      err = e as StatusError;
    }
    expect(err?.status.code).toBe(429);
    expect(err?.status.reason).toBe('TooManyRequests');
    expect(err?.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(err?.status.details?.causes).toEqual([
      {
        reason: 'DisruptionBudget',
        field: '',
        message: 'The disruption budget web needs 3 healthy pods and has 3 currently',
      },
    ]);
    expect(
      run.cluster.apiserver.get<Pod>('test', 'pods', 'default', pod.metadata.name).metadata
        .deletionTimestamp,
    ).toBeUndefined();
    const req = run.cluster.sim.trace.filter(
      (e) => e.kind === 'request' && e.resource === 'pods/eviction',
    );
    expect(req).toMatchObject([
      {
        verb: 'create',
        resource: 'pods/eviction',
        name: pod.metadata.name,
        code: 429,
        reason: 'TooManyRequests',
      },
    ]);
  });

  it('takes a disruption, marks the Pod DisruptionTarget and deletes it; the controller then recounts', () => {
    const run = running({ minAvailable: 2 });
    const pod = webPods(run)[0];
    run.cluster.apiserver.evict('kubectl', {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: pod.metadata.name, namespace: 'default' },
    });
    const after = run.cluster.apiserver.get<Pod>('test', 'pods', 'default', pod.metadata.name);
    expect(after.metadata.deletionTimestamp).toBeDefined();
    expect(getPodCondition(after, 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
    });
    const st = budget(run).status;
    expect(st.disruptionsAllowed).toBe(0);
    expect(Object.keys(st.disruptedPods ?? {})).toEqual([pod.metadata.name]);
    expect(st.conditions?.[0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
    // kube-apiserver's own client wrote the budget's status.
    expect(
      run.cluster.sim.trace.some(
        (e) =>
          e.kind === 'request' &&
          e.from === 'kube-apiserver' &&
          e.resource === 'poddisruptionbudgets/status',
      ),
    ).toBe(true);
    // A second eviction is refused until the replacement is Ready.
    const other = webPods(run).find(
      (p) => p.metadata.name !== pod.metadata.name && !p.metadata.deletionTimestamp,
    )!;
    expect(() =>
      run.cluster.apiserver.evict('kubectl', {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: other.metadata.name, namespace: 'default' },
      }),
    ).toThrow("Cannot evict pod as it would violate the pod's disruption budget.");
    run.runUntil(60_000);
    const later = budget(run).status;
    expect(later).toMatchObject({
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      disruptionsAllowed: 1,
    });
    expect(later.disruptedPods).toBeUndefined();
  });
});

// Init containers as the kubelet runs them (kuberuntime computeInitContainerActions, SyncPod step 6)
// and reports them (generateAPIPodStatus, GeneratePodInitializedCondition, getPhase), seen through
// kubectl as a learner would see them.
import { describe, expect, it } from 'vitest';
import { getPodCondition } from '../api/podutil.ts';
import type { Event, Pod } from '../api/types.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';

const scenario = parseScenario(
  `name: init-containers
seed: 4
cluster:
  images:
    example.com/initfail:1:
      crashAfter: 2s
      exitCode: 1
steps:
  - at: 0s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata:
        name: withinit
      spec:
        initContainers:
          - name: wait
            image: busybox:1.36
            command: ["sh", "-c", "sleep 5"]
          - name: migrate
            image: busybox:1.36
            command: ["sh", "-c", "sleep 3"]
        containers:
          - name: app
            image: nginx:1.27
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: initfail
      spec:
        initContainers:
          - name: i
            image: example.com/initfail:1
        containers:
          - name: c
            image: nginx:1.27
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: initnever
      spec:
        restartPolicy: Never
        initContainers:
          - name: i
            image: example.com/initfail:1
        containers:
          - name: c
            image: nginx:1.27
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: withsidecar
      spec:
        initContainers:
          - name: log-shipper
            image: busybox:1.36
            restartPolicy: Always
            command: ["sh", "-c", "tail -f /dev/null"]
        containers:
          - name: app
            image: nginx:1.27
until: 60s
`,
  'init-containers.yaml',
);

function statusColumn(run: ScenarioRun, name: string): string {
  const line = run.cluster.kubectl(`get pod ${name}`).stdout.split('\n')[1];
  return line.split(/\s{2,}/).slice(1, 3).join(' ');
}

function pod(run: ScenarioRun, name: string): Pod {
  return run.cluster.apiserver.peekAll<Pod>('pods').find((p) => p.metadata.name === name)!;
}

function startedAt(run: ScenarioRun, podName: string, container: string): number | undefined {
  const e = run.cluster.apiserver
    .peekAll<Event>('events')
    .find((x) => x.involvedObject.name === podName && x.reason === 'Started' && x.message === `Started container ${container}`);
  return e ? Date.parse(e.firstTimestamp!) : undefined;
}

describe('init containers', () => {
  it('run one after another, each to completion, before the app container starts', () => {
    const run = new ScenarioRun(scenario, { freeze: true });
    run.runUntil(3_000);
    expect(statusColumn(run, 'withinit')).toBe('0/1 Init:0/2');
    const before = pod(run, 'withinit');
    expect(getPodCondition(before, 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [wait migrate]',
    });
    expect(before.status.phase).toBe('Pending');
    expect(before.status.containerStatuses?.[0].state.waiting?.reason).toBe('PodInitializing');
    run.runUntil(8_000);
    expect(statusColumn(run, 'withinit')).toBe('0/1 Init:1/2');
    run.runUntil(60_000);
    expect(statusColumn(run, 'withinit')).toBe('1/1 Running');
    const wait = startedAt(run, 'withinit', 'wait')!;
    const migrate = startedAt(run, 'withinit', 'migrate')!;
    const app = startedAt(run, 'withinit', 'app')!;
    // Each starts only after the one before has run its sleep (5 s, then 3 s).
    expect(migrate - wait).toBeGreaterThanOrEqual(5_000);
    expect(app - migrate).toBeGreaterThanOrEqual(3_000);
    const after = pod(run, 'withinit');
    expect(getPodCondition(after, 'Initialized')?.status).toBe('True');
    for (const s of after.status.initContainerStatuses!) {
      expect(s.ready).toBe(true);
      expect(s.started).toBe(false);
      expect(s.state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    }
    expect(after.status.initContainerStatuses!.map((s) => s.name)).toEqual(['wait', 'migrate']);
  });

  it('restart with back-off when one fails, and the app container never starts', () => {
    const run = new ScenarioRun(scenario, { freeze: true });
    run.runUntil(8_000);
    expect(statusColumn(run, 'initfail')).toBe('0/1 Init:Error');
    run.runUntil(12_000);
    expect(statusColumn(run, 'initfail')).toBe('0/1 Init:CrashLoopBackOff');
    run.runUntil(60_000);
    const p = pod(run, 'initfail');
    expect(p.status.phase).toBe('Pending');
    expect(p.status.initContainerStatuses![0].restartCount).toBeGreaterThanOrEqual(2);
    expect(p.status.containerStatuses![0].state.waiting?.reason).toBe('PodInitializing');
    expect(startedAt(run, 'initfail', 'c')).toBeUndefined();
  });

  it('fail the Pod for good when its restartPolicy is Never', () => {
    const run = new ScenarioRun(scenario, { freeze: true });
    run.runUntil(60_000);
    expect(statusColumn(run, 'initnever')).toBe('0/1 Init:Error');
    const p = pod(run, 'initnever');
    expect(p.status.phase).toBe('Failed');
    expect(p.status.initContainerStatuses![0]).toMatchObject({ restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } });
    // TerminatePod leaves app containers of a pod that never initialized waiting.
    expect(p.status.containerStatuses![0].state.waiting?.reason).toBe('PodInitializing');
    expect(getPodCondition(p, 'Ready')).toMatchObject({ status: 'False', reason: 'PodFailed' });
  });

  it('keep a sidecar (restartPolicy Always) running beside the app container', () => {
    const run = new ScenarioRun(scenario, { freeze: true });
    run.runUntil(60_000);
    expect(statusColumn(run, 'withsidecar')).toBe('2/2 Running');
    const p = pod(run, 'withsidecar');
    expect(p.status.initContainerStatuses![0]).toMatchObject({ ready: true, started: true });
    expect(p.status.initContainerStatuses![0].state.running).toBeDefined();
    expect(startedAt(run, 'withsidecar', 'app')!).toBeGreaterThanOrEqual(startedAt(run, 'withsidecar', 'log-shipper')!);
  });

  it("record their events against spec.initContainers{name}, the app container's against spec.containers{name}", () => {
    const run = new ScenarioRun(scenario, { freeze: true });
    run.runUntil(20_000);
    const fieldPaths = (reason: string) =>
      run.cluster.apiserver
        .peekAll<Event>('events')
        .filter((x) => x.involvedObject.name === 'withinit' && x.reason === reason)
        .map((x) => x.involvedObject.fieldPath)
        .sort();
    const want = ['spec.containers{app}', 'spec.initContainers{migrate}', 'spec.initContainers{wait}'];
    expect(fieldPaths('Created')).toEqual(want);
    expect(fieldPaths('Started')).toEqual(want);
    // The Pod's own events (Scheduled) have none.
    expect(fieldPaths('Scheduled')).toEqual([undefined]);
  });
});

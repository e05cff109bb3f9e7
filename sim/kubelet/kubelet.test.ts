import { describe, expect, it } from 'vitest';
import type { Event, Pod } from '../api/types.ts';
import { formatTime, parseTime } from '../engine/clock.ts';
import type { CallEntry, RequestEntry } from '../engine/trace.ts';
import { imageID } from '../runtime/images.ts';
import {
  callMethods,
  createAndBind,
  getLease,
  getNode,
  getPod,
  newPod,
  newTestNode,
  podStatusString,
  statusHistory,
} from './testutil.ts';

function events(t: ReturnType<typeof newTestNode>, name?: string): Event[] {
  return t.apiserver
    .peekAll<Event>('events')
    .filter((e) => !name || e.involvedObject.name === name);
}

describe('Kubelet: node registration, status and lease', () => {
  it('registers the Node NotReady, then reports Ready with upstream conditions', () => {
    const t = newTestNode();
    const node0 = getNode(t)!;
    expect(node0.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': 'node-1',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'beta.kubernetes.io/arch': 'amd64',
    });
    expect(node0.spec.podCIDR).toBe('10.244.1.0/24');
    expect(node0.spec.taints).toEqual([
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    ]);
    expect(node0.status.conditions!.map((c) => [c.type, c.status])).toEqual([
      ['MemoryPressure', 'False'],
      ['DiskPressure', 'False'],
      ['PIDPressure', 'False'],
      ['Ready', 'False'],
    ]);
    expect(node0.status.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.11' },
      { type: 'Hostname', address: 'node-1' },
    ]);
    // The scenario's 4 CPU and 8Gi are what Pods can request: capacity adds the 100Mi eviction threshold.
    expect(node0.status.capacity).toMatchObject({ cpu: '4', memory: '8292Mi', pods: '110' });
    expect(node0.status.allocatable).toMatchObject({ cpu: '4', memory: '8Gi', pods: '110' });
    expect(node0.status.nodeInfo).toMatchObject({
      kubeletVersion: 'v1.34.1',
      containerRuntimeVersion: 'containerd://2.1.4',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      kernelVersion: '6.1.0-40-amd64',
      operatingSystem: 'linux',
      architecture: 'amd64',
    });
    expect(node0.status.images!.some((i) => i.names.includes('registry.k8s.io/pause:3.10'))).toBe(
      true,
    );

    t.sim.runUntil(2_000);
    const ready = getNode(t)!.status.conditions!.find((c) => c.type === 'Ready')!;
    expect(ready).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
    });
    expect(parseTime(ready.lastTransitionTime!)).toBe(1_000);
    const reasons = events(t, 'node-1').map((e) => e.reason);
    expect(reasons).toEqual([
      'Starting',
      'NodeHasSufficientMemory',
      'NodeHasNoDiskPressure',
      'NodeHasSufficientPID',
      'NodeAllocatableEnforced',
      'NodeReady',
    ]);
    expect(events(t, 'node-1').find((e) => e.reason === 'NodeReady')!.message).toBe(
      'Node node-1 status is now: NodeReady',
    );
  });

  it('posts nodes/status only when something changed or every nodeStatusReportFrequency', () => {
    const t = newTestNode();
    t.sim.runUntil(20 * 60_000);
    const posts = t.sim.trace
      .filter((e): e is RequestEntry => e.kind === 'request' && e.resource === 'nodes/status')
      .map((e) => e.t);
    // Ready at 1s, then the 5-minute report (each tick is 10s-10.4s, so reports land just after).
    expect(posts[0]).toBe(1);
    expect(posts.length).toBeGreaterThanOrEqual(4);
    expect(posts.length).toBeLessThanOrEqual(6);
    for (let i = 1; i < posts.length; i++)
      expect(posts[i] - posts[i - 1]).toBeGreaterThanOrEqual(300);
    const ready = getNode(t)!.status.conditions!.find((c) => c.type === 'Ready')!;
    expect(parseTime(ready.lastHeartbeatTime!)).toBe(Math.floor(posts[posts.length - 1]) * 1000);
  });

  it('patches nodes/status and pods/status as strategic merge patches (PatchNodeStatus, PatchPodStatus)', () => {
    const t = newTestNode();
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    const patches = t.sim.trace.filter(
      (e): e is RequestEntry =>
        e.kind === 'request' && e.verb === 'patch' && e.from === 'kubelet@node-1',
    );
    expect(new Set(patches.map((e) => e.resource))).toEqual(
      new Set(['nodes/status', 'pods/status']),
    );
    for (const e of patches) expect(e.patchType).toBe('application/strategic-merge-patch+json');
    // The Ready condition went from False (reason, message) to True without them: the strategic
    // patch names the removed fields, so the stored condition has none left over.
    const ready = getPod(t, 'web')!.status.conditions!.find((c) => c.type === 'Ready')!;
    expect(ready.status).toBe('True');
    expect(ready.reason).toBeUndefined();
    expect(ready.message).toBeUndefined();
  });

  it('records NodeNotSchedulable and NodeSchedulable at the status update after a cordon and uncordon', () => {
    const t = newTestNode();
    t.sim.runUntil(20_000);
    const watches = t.sim.trace.filter(
      (e): e is RequestEntry =>
        e.kind === 'request' && e.resource === 'nodes' && e.from === 'kubelet@node-1',
    );
    // The node informer lists and watches before registration creates the Node.
    expect(watches.map((e) => e.verb)).toEqual(['list', 'watch', 'create']);
    const schedulable = () =>
      events(t)
        .filter((e) => e.reason === 'NodeNotSchedulable' || e.reason === 'NodeSchedulable')
        .map((e) => [e.reason, e.message, e.source.component, e.involvedObject.kind]);
    expect(schedulable()).toEqual([]);
    t.apiserver.patch('kubectl', 'nodes', undefined, 'node-1', { spec: { unschedulable: true } });
    t.sim.runUntil(31_000);
    expect(schedulable()).toEqual([
      ['NodeNotSchedulable', 'Node node-1 status is now: NodeNotSchedulable', 'kubelet', 'Node'],
    ]);
    t.apiserver.patch('kubectl', 'nodes', undefined, 'node-1', { spec: { unschedulable: null } });
    t.sim.runUntil(42_000);
    expect(schedulable()).toEqual([
      ['NodeNotSchedulable', 'Node node-1 status is now: NodeNotSchedulable', 'kubelet', 'Node'],
      ['NodeSchedulable', 'Node node-1 status is now: NodeSchedulable', 'kubelet', 'Node'],
    ]);
  });

  it('creates the node Lease and renews it every ~10s (4% jitter) with an owner reference', () => {
    const t = newTestNode();
    t.sim.runUntil(0);
    const lease0 = getLease(t)!;
    expect(lease0.metadata.namespace).toBe('kube-node-lease');
    expect(lease0.spec).toMatchObject({ holderIdentity: 'node-1', leaseDurationSeconds: 40 });
    expect(lease0.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: getNode(t)!.metadata.uid },
    ]);
    t.sim.runUntil(60_000);
    const renewals = t.sim.trace
      .filter(
        (e): e is RequestEntry =>
          e.kind === 'request' && e.resource === 'leases' && e.verb === 'update',
      )
      .map((e) => e.t);
    expect(renewals.length).toBe(5);
    expect(renewals[0]).toBeGreaterThanOrEqual(10);
    for (let i = 1; i < renewals.length; i++) {
      expect(renewals[i] - renewals[i - 1]).toBeGreaterThanOrEqual(10);
      expect(renewals[i] - renewals[i - 1]).toBeLessThanOrEqual(10.4);
    }
    const renewTime = getLease(t)!.spec.renewTime!;
    expect(renewTime).toMatch(/^2026-01-01T00:00:\d\d\.\d{6}Z$/);
    expect(parseTime(renewTime)).toBe(Math.round(renewals[renewals.length - 1] * 1000));
  });

  it('kubelet-stop: the lease stops renewing; start renews it again and emits Starting', () => {
    const t = newTestNode();
    t.sim.runUntil(30_000);
    t.kubelet.stop();
    const before = getLease(t)!.spec.renewTime;
    t.sim.runUntil(120_000);
    expect(getLease(t)!.spec.renewTime).toBe(before);
    t.kubelet.start();
    t.sim.runUntil(121_000);
    expect(parseTime(getLease(t)!.spec.renewTime!)).toBe(120_000);
    expect(events(t, 'node-1').filter((e) => e.reason === 'Starting')).toHaveLength(2);
  });

  it('corrects Ready=Unknown written by the node lifecycle controller after a partition heals', () => {
    const t = newTestNode();
    t.sim.runUntil(30_000);
    t.apiserver.unreachable.add('node-1');
    t.sim.runUntil(90_000);
    // Stand-in for the node lifecycle controller.
    const n = getNode(t)!;
    t.apiserver.patch(
      'node-lifecycle-controller',
      'nodes',
      undefined,
      'node-1',
      {
        status: {
          conditions: n.status.conditions!.map((c) => ({
            ...c,
            status: 'Unknown',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
          })),
        },
      },
      'status',
    );
    t.apiserver.unreachable.delete('node-1');
    t.sim.runUntil(120_000);
    const ready = getNode(t)!.status.conditions!.find((c) => c.type === 'Ready')!;
    expect(ready.status).toBe('True');
    expect(parseTime(ready.lastTransitionTime!)).toBeGreaterThan(90_000);
    expect(parseTime(getLease(t)!.spec.renewTime!)).toBeGreaterThan(90_000);
  });
});

describe('Kubelet: starting pods', () => {
  it('goes ContainerCreating then Running, with an IP from the podCIDR and upstream status fields', () => {
    const t = newTestNode();
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    const h = statusHistory(t, 'web');
    expect(h.map((x) => x.status)).toEqual(['Pending', 'ContainerCreating', 'Running']);
    const creating = h[1].pod;
    expect(creating.status.containerStatuses![0]).toEqual({
      name: 'nginx',
      state: { waiting: { reason: 'ContainerCreating' } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: 'nginx:1.27',
      imageID: '',
      started: false,
    });
    expect(
      creating.status.conditions!.map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '']),
    ).toEqual([
      ['PodReadyToStartContainers', 'False', '', ''],
      ['Initialized', 'True', '', ''],
      ['Ready', 'False', 'ContainersNotReady', 'containers with unready status: [nginx]'],
      ['ContainersReady', 'False', 'ContainersNotReady', 'containers with unready status: [nginx]'],
      ['PodScheduled', 'True', '', ''],
    ]);
    expect(creating.status.hostIP).toBe('10.0.0.11');
    expect(creating.status.startTime).toBe(formatTime(2_000));

    const pod = getPod(t, 'web')!;
    expect(pod.status.phase).toBe('Running');
    expect(pod.status.podIP).toBe('10.244.1.2');
    expect(pod.status.podIPs).toEqual([{ ip: '10.244.1.2' }]);
    expect(pod.status.hostIPs).toEqual([{ ip: '10.0.0.11' }]);
    expect(pod.status.conditions!.every((c) => c.status === 'True')).toBe(true);
    const cs = pod.status.containerStatuses![0];
    expect(cs).toMatchObject({
      name: 'nginx',
      ready: true,
      started: true,
      restartCount: 0,
      image: 'docker.io/library/nginx:1.27',
    });
    expect(cs.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(cs.state.running!.startedAt).toBeDefined();
    // PodScheduled keeps the scheduler's transition time.
    expect(pod.status.conditions!.find((c) => c.type === 'PodScheduled')!.lastTransitionTime).toBe(
      formatTime(2_000),
    );
  });

  it('makes the CRI and CNI calls in upstream order, with the kubelet events', () => {
    const t = newTestNode();
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    expect(callMethods(t, 'web')).toEqual([
      'RunPodSandbox',
      'ADD',
      'ImageStatus',
      'PullImage',
      'CreateContainer',
      'StartContainer',
    ]);
    const calls = t.sim.trace.filter(
      (e): e is CallEntry => e.kind === 'call' && e.pod === 'default/web',
    );
    expect(calls[0]).toMatchObject({ from: 'kubelet@node-1', to: 'container-runtime@node-1' });
    expect(calls[1]).toMatchObject({
      from: 'container-runtime@node-1',
      to: 'cni-plugin@node-1',
      result: '10.244.1.2',
    });
    // ImageStatus comes before the pull (GetImageRef).
    const all = callMethods(t);
    expect(all.indexOf('ImageStatus')).toBeLessThan(all.indexOf('PullImage'));
    const ev = events(t, 'web');
    expect(ev.map((e) => e.reason)).toEqual(['Pulling', 'Pulled', 'Created', 'Started']);
    expect(ev[0].message).toBe('Pulling image "nginx:1.27"');
    expect(ev[1].message).toMatch(
      /^Successfully pulled image "nginx:1\.27" in 2\.221s \(2\.221s including waiting\)\. Image size: 72195292 bytes\.$/,
    );
    expect(ev[2].message).toBe('Created container: nginx');
    expect(ev[3].message).toBe('Started container nginx');
    expect(ev[0].source).toEqual({ component: 'kubelet', host: 'node-1' });
  });

  it('skips the pull when the image is present (IfNotPresent)', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    expect(callMethods(t, 'web')).toEqual([
      'RunPodSandbox',
      'ADD',
      'ImageStatus',
      'CreateContainer',
      'StartContainer',
    ]);
    expect(events(t, 'web')[0].message).toBe(
      'Container image "nginx:1.27" already present on machine',
    );
    const running = statusHistory(t, 'web').find((x) => x.status === 'Running')!;
    // sandbox 600ms + create/start 300ms, reported at the next PLEG relist (< 1s).
    expect(running.t - 2).toBeGreaterThanOrEqual(0.9);
    expect(running.t - 2).toBeLessThan(2);
  });

  it('serializes image pulls: the second pod waits, as "including waiting" shows', () => {
    const t = newTestNode();
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('a', 'redis:7'));
    createAndBind(t, newPod('b', 'httpd:2.4'));
    t.sim.runUntil(20_000);
    const pulled = events(t, 'b').find((e) => e.reason === 'Pulled')!.message;
    const m = /in ([\d.]+)s \(([\d.]+)s including waiting\)/.exec(pulled)!;
    expect(Number(m[2])).toBeGreaterThan(Number(m[1]));
    expect(getPod(t, 'b')!.status.phase).toBe('Running');
  });

  it('a failing image goes ErrImagePull then ImagePullBackOff, retrying with doubling back-off', () => {
    const t = newTestNode();
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('typo', 'nginx:doesnotexist'));
    t.sim.runUntil(80_000);
    const h = statusHistory(t, 'typo').map((x) => x.status);
    expect(h.slice(0, 4)).toEqual([
      'Pending',
      'ContainerCreating',
      'ErrImagePull',
      'ImagePullBackOff',
    ]);
    const pod = getPod(t, 'typo')!;
    expect(pod.status.phase).toBe('Pending');
    expect(pod.status.podIP).toBe('10.244.1.2');
    const pulls = t.sim.trace
      .filter((e): e is CallEntry => e.kind === 'call' && e.method === 'PullImage')
      .map((e) => e.t);
    // Failures at ~2.6s; retries when the 10s, 20s, 40s back-offs expire.
    const gaps = pulls.slice(1).map((x, i) => x - pulls[i] - 0.5);
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    [10, 20, 40].forEach((g, i) => expect(gaps[i]).toBeCloseTo(g, 3));
    const ev = events(t, 'typo');
    const failed = ev.find((e) => e.reason === 'Failed' && e.message.startsWith('Failed to pull'))!;
    expect(failed.type).toBe('Warning');
    expect(failed.message).toBe(
      'Failed to pull image "nginx:doesnotexist": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": docker.io/library/nginx:doesnotexist: not found',
    );
    expect(ev.some((e) => e.message === 'Error: ErrImagePull')).toBe(true);
    expect(ev.some((e) => e.message === 'Error: ImagePullBackOff')).toBe(true);
    expect(ev.find((e) => e.reason === 'BackOff')!.message).toBe(
      'Back-off pulling image "nginx:doesnotexist"',
    );
    const waiting = statusHistory(t, 'typo').find((x) => x.status === 'ImagePullBackOff')!.pod
      .status.containerStatuses![0].state.waiting!;
    // v1.32+: the waiting message ends with the last pull's error (image_manager.go prevPullErrMsg).
    expect(waiting.message).toBe(
      'Back-off pulling image "nginx:doesnotexist": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": docker.io/library/nginx:doesnotexist: not found',
    );
    // Every one of these events is about the container (pkg/kubelet/container/ref.go).
    for (const e of ev.filter((x) => ['Pulling', 'Failed', 'BackOff'].includes(x.reason)))
      expect(e.involvedObject.fieldPath).toBe('spec.containers{nginx}');
  });

  it('a crashing image ends in CrashLoopBackOff with 10s, 20s, 40s back-off and lastState', () => {
    const t = newTestNode({
      images: { 'crashy:1.0': { crashAfter: '5s', exitCode: 2 } },
      preloaded: ['crashy:1.0'],
    });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('app', 'crashy:1.0'));
    t.sim.runUntil(200_000);
    const starts = t.sim.trace
      .filter((e): e is CallEntry => e.kind === 'call' && e.method === 'StartContainer')
      .map((e) => e.t);
    // Each container lives 5s (+0.15s start); restart gaps after exit: ~0, 10, 20, 40, 80.
    const gaps = starts.slice(1).map((s, i) => Math.round(s - starts[i] - 5.15));
    expect(gaps.slice(0, 5)).toEqual([0, 10, 20, 40, 80].map((g) => gaps[0] + g));
    expect(gaps[0]).toBeLessThanOrEqual(1);
    const h = statusHistory(t, 'app').map((x) => x.status);
    expect(h.slice(0, 6)).toEqual([
      'Pending',
      'ContainerCreating',
      'Running',
      'Error',
      'Running',
      'Error',
    ]);
    expect(h).toContain('CrashLoopBackOff');
    const clb = statusHistory(t, 'app').find((x) => x.status === 'CrashLoopBackOff')!.pod;
    const cs = clb.status.containerStatuses![0];
    expect(cs.restartCount).toBe(1);
    expect(cs.state.waiting!.message).toBe(
      `back-off 10s restarting failed container=crashy pod=app_default(${clb.metadata.uid})`,
    );
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 2, reason: 'Error' });
    expect(clb.status.phase).toBe('Running');
    const backoff = events(t, 'app').find((e) => e.reason === 'BackOff')!;
    expect(backoff).toMatchObject({
      type: 'Warning',
      message: `Back-off restarting failed container crashy in pod app_default(${clb.metadata.uid})`,
      involvedObject: { fieldPath: 'spec.containers{crashy}' },
    });
    // One Event per reason and container, its count bumped by each repeat (a PATCH).
    expect(backoff.count).toBeGreaterThan(1);
    expect(getPod(t, 'app')!.status.containerStatuses![0].restartCount).toBeGreaterThanOrEqual(5);
    // Container GC keeps one dead instance per container.
    expect(
      t.runtime.podContainers(clb.metadata.uid).filter((c) => c.state === 'CONTAINER_EXITED')
        .length,
    ).toBeLessThanOrEqual(2);
  });

  it('busybox without a command completes at once and crash-loops with Completed', () => {
    const t = newTestNode({ preloaded: ['busybox:1.36'] });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('bb', 'busybox:1.36'));
    t.sim.runUntil(30_000);
    const h = statusHistory(t, 'bb').map((x) => x.status);
    expect(h).toContain('Completed');
    expect(h).toContain('CrashLoopBackOff');
  });

  it('a restartPolicy Never pod that finishes becomes Succeeded and releases its IP', () => {
    const t = newTestNode({ preloaded: ['busybox:1.36'] });
    t.sim.runUntil(2_000);
    createAndBind(
      t,
      newPod('job', 'busybox:1.36', { restartPolicy: 'Never' }, [
        { command: ['sh', '-c', 'sleep 5'] },
      ]),
    );
    t.sim.runUntil(20_000);
    const pod = getPod(t, 'job')!;
    expect(pod.status.phase).toBe('Succeeded');
    expect(podStatusString(pod)).toBe('Completed');
    expect(pod.status.conditions!.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'PodCompleted',
    });
    expect(t.runtime.cni.allocatedCount).toBe(0);
    expect(callMethods(t, 'job')).toContain('StopPodSandbox');
    // A finished pod is not run again after a reboot.
    t.kubelet.nodeDown();
    t.kubelet.nodeUp();
    t.sim.runUntil(40_000);
    expect(callMethods(t, 'job').filter((m) => m === 'RunPodSandbox')).toHaveLength(1);
    expect(getPod(t, 'job')!.status.phase).toBe('Succeeded');
  });
});

describe('Kubelet: deleting pods', () => {
  it('graceful delete: Terminating, Killing, StopContainer, StopPodSandbox, DEL, then gone', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    t.sim.runUntil(2_000);
    const created = createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    t.apiserver.delete('kubectl', 'pods', 'default', 'web');
    expect(podStatusString(getPod(t, 'web')!)).toBe('Terminating');
    t.sim.runUntil(12_000);
    expect(getPod(t, 'web')).toBeUndefined();
    expect(callMethods(t, 'web').slice(-3)).toEqual(['StopContainer', 'StopPodSandbox', 'DEL']);
    const killing = events(t, 'web').find((e) => e.reason === 'Killing')!;
    expect(killing.message).toBe('Stopping container nginx');
    expect(killing.involvedObject.fieldPath).toBe('spec.containers{nginx}');
    // The last status before deletion is terminal, and the kubelet deletes with grace 0 and a UID precondition.
    const h = statusHistory(t, 'web');
    const last = h[h.length - 2].pod;
    expect(last.status.phase).toBe('Succeeded');
    expect(last.status.containerStatuses![0].state.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
    const del = t.sim.trace.filter(
      (e): e is RequestEntry =>
        e.kind === 'request' && e.verb === 'delete' && e.from === 'kubelet@node-1',
    );
    expect(del).toHaveLength(1);
    expect(t.runtime.cni.allocatedCount).toBe(0);
    // Container GC removes the sandbox within a minute.
    t.sim.runUntil(80_000);
    expect(t.runtime.podSandboxes(created.metadata.uid)).toHaveLength(0);
    expect(callMethods(t, 'web')).toContain('RemovePodSandbox');
  });

  it('a container that ignores SIGTERM (sleep as PID 1) takes the whole grace period', () => {
    const t = newTestNode({ preloaded: ['busybox:1.36'] });
    t.sim.runUntil(2_000);
    createAndBind(
      t,
      newPod('sleepy', 'busybox:1.36', { terminationGracePeriodSeconds: 30 }, [
        { command: ['sleep', '3600'] },
      ]),
    );
    t.sim.runUntil(10_000);
    t.apiserver.delete('kubectl', 'pods', 'default', 'sleepy');
    t.sim.runUntil(39_000);
    expect(podStatusString(getPod(t, 'sleepy')!)).toBe('Terminating');
    t.sim.runUntil(41_000);
    const h = statusHistory(t, 'sleepy');
    expect(h[h.length - 1].status).toBe('DELETED');
    const last = h[h.length - 2].pod;
    expect(last.status.phase).toBe('Failed');
    expect(last.status.containerStatuses![0].state.terminated).toMatchObject({
      exitCode: 137,
      reason: 'Error',
    });
  });

  it('a pod deleted while the kubelet is stopped stays Terminating until it returns', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    t.kubelet.stop();
    t.apiserver.delete('kubectl', 'pods', 'default', 'web');
    t.sim.runUntil(200_000);
    expect(podStatusString(getPod(t, 'web')!)).toBe('Terminating');
    // Containers keep running under containerd.
    expect(t.runtime.listContainers().filter((c) => c.state === 'CONTAINER_RUNNING')).toHaveLength(
      1,
    );
    t.kubelet.start();
    t.sim.runUntil(205_000);
    expect(getPod(t, 'web')).toBeUndefined();
    expect(t.runtime.listContainers().filter((c) => c.state === 'CONTAINER_RUNNING')).toHaveLength(
      0,
    );
  });

  it('a deletion during a partition is acted on locally only after the partition heals', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    t.apiserver.unreachable.add('node-1');
    t.apiserver.breakWatches();
    t.apiserver.delete('kubectl', 'pods', 'default', 'web');
    t.sim.runUntil(100_000);
    expect(podStatusString(getPod(t, 'web')!)).toBe('Terminating');
    expect(t.runtime.listContainers().filter((c) => c.state === 'CONTAINER_RUNNING')).toHaveLength(
      1,
    );
    t.apiserver.unreachable.delete('node-1');
    t.sim.runUntil(160_000);
    expect(getPod(t, 'web')).toBeUndefined();
  });

  it('deleting a pod during a long image pull cancels the sync', () => {
    const t = newTestNode({ images: { 'big:1': { size: '4GB' } } });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('big', 'big:1'));
    t.sim.runUntil(5_000);
    t.apiserver.delete('kubectl', 'pods', 'default', 'big');
    t.sim.runUntil(9_000);
    expect(getPod(t, 'big')).toBeUndefined();
  });
});

describe('Kubelet: kubelet restarts and node reboots', () => {
  it('a kubelet restart adopts running containers without restarting them', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    const statusWrites = () =>
      t.sim.trace.filter((e) => e.kind === 'request' && e.resource === 'pods/status').length;
    const before = statusWrites();
    t.kubelet.stop();
    t.sim.runUntil(20_000);
    t.kubelet.start();
    t.sim.runUntil(40_000);
    expect(callMethods(t, 'web').filter((m) => m === 'StartContainer')).toHaveLength(1);
    expect(statusWrites()).toBe(before);
    expect(callMethods(t).slice(-2)).not.toContain('RunPodSandbox');
    expect(getPod(t, 'web')!.status.containerStatuses![0].restartCount).toBe(0);
  });

  it('a kubelet restart stops runtime pods the API no longer has (force-deleted meanwhile)', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    t.kubelet.stop();
    t.apiserver.delete('kubectl', 'pods', 'default', 'web', { gracePeriodSeconds: 0 });
    expect(getPod(t, 'web')).toBeUndefined();
    t.kubelet.start();
    t.sim.runUntil(15_000);
    expect(t.runtime.listContainers().filter((c) => c.state === 'CONTAINER_RUNNING')).toHaveLength(
      0,
    );
    expect(t.runtime.cni.allocatedCount).toBe(0);
  });

  it('node-down loses containers; node-up restarts bound pods with restartCount + 1 and a Rebooted event', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    t.sim.runUntil(2_000);
    const pod = createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    const oldID = getPod(t, 'web')!.status.containerStatuses![0].containerID;
    const bootID = getNode(t)!.status.nodeInfo!.bootID;
    t.apiserver.unreachable.add('node-1');
    t.kubelet.nodeDown();
    expect(t.runtime.listContainers()).toHaveLength(0);
    expect(t.runtime.cni.allocatedCount).toBe(0);
    expect(t.kubelet.crictl(['ps']).exitCode).toBe(1);
    t.sim.runUntil(60_000);
    t.apiserver.unreachable.delete('node-1');
    t.kubelet.nodeUp();
    t.sim.runUntil(70_000);
    const after = getPod(t, 'web')!;
    expect(after.metadata.uid).toBe(pod.metadata.uid);
    expect(after.status.phase).toBe('Running');
    const cs = after.status.containerStatuses![0];
    expect(cs.restartCount).toBe(1);
    expect(cs.containerID).not.toBe(oldID);
    expect(getNode(t)!.status.nodeInfo!.bootID).not.toBe(bootID);
    expect(events(t, 'node-1').some((e) => e.reason === 'Rebooted' && e.type === 'Warning')).toBe(
      true,
    );
    // In between, the pod showed ContainerCreating with the lost container as ContainerStatusUnknown.
    const mid = statusHistory(t, 'web').find(
      (x) => x.t >= 60 && x.status === 'ContainerCreating',
    )!.pod;
    expect(mid.status.containerStatuses![0].lastState.terminated).toMatchObject({
      reason: 'ContainerStatusUnknown',
      exitCode: 137,
    });
  });

  it('node-up finalizes pods deleted while the node was down', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    t.apiserver.unreachable.add('node-1');
    t.kubelet.nodeDown();
    t.apiserver.delete('taint-eviction-controller', 'pods', 'default', 'web');
    t.sim.runUntil(400_000);
    expect(podStatusString(getPod(t, 'web')!)).toBe('Terminating');
    t.apiserver.unreachable.delete('node-1');
    t.kubelet.nodeUp();
    t.sim.runUntil(405_000);
    expect(getPod(t, 'web')).toBeUndefined();
    expect(callMethods(t, 'web').filter((m) => m === 'RunPodSandbox')).toHaveLength(1);
  });
});

describe('Kubelet: bootstrap adoption', () => {
  it('adoptRunning registers a Running pod with no CRI calls and no status writes', () => {
    const t = newTestNode({ start: false });
    const pod = t.apiserver.create('bootstrap', 'pods', {
      ...newPod('coredns', 'registry.k8s.io/coredns/coredns:v1.12.0'),
      metadata: { name: 'coredns', namespace: 'kube-system' },
      spec: {
        ...newPod('coredns', 'registry.k8s.io/coredns/coredns:v1.12.0').spec,
        nodeName: 'node-1',
      },
    } as Pod);
    const running = t.apiserver.update<Pod>(
      'bootstrap',
      'pods',
      {
        ...pod,
        status: {
          ...pod.status,
          phase: 'Running',
          podIP: '10.244.1.7',
          podIPs: [{ ip: '10.244.1.7' }],
          startTime: formatTime(0),
          containerStatuses: [
            {
              name: 'coredns',
              ready: true,
              restartCount: 0,
              image: 'registry.k8s.io/coredns/coredns:v1.12.0',
              imageID: '',
              started: true,
              state: { running: { startedAt: formatTime(0) } },
              lastState: {},
            },
          ],
        },
      },
      'status',
    );
    t.kubelet.adoptRunning(running);
    t.kubelet.start({ preRunning: true });
    t.sim.runUntil(30_000);
    expect(callMethods(t, 'coredns')).toEqual([]);
    expect(
      t.sim.trace.filter(
        (e) => e.kind === 'request' && e.resource === 'pods/status' && e.from === 'kubelet@node-1',
      ),
    ).toHaveLength(0);
    expect(t.runtime.cni.allocatedCount).toBe(1);
    expect(t.runtime.podSandboxes(pod.metadata.uid)[0].ip).toBe('10.244.1.7');
    expect(t.runtime.imageStatus(undefined, 'registry.k8s.io/coredns/coredns:v1.12.0')?.id).toBe(
      imageID('registry.k8s.io/coredns/coredns:v1.12.0'),
    );
    expect(events(t, 'node-1')).toHaveLength(0);
    // preRunning registers the node Ready at once.
    expect(getNode(t)!.status.conditions!.find((c) => c.type === 'Ready')!.status).toBe('True');
  });
});

describe('Kubelet: determinism', () => {
  it('the same seed gives the same trace', () => {
    const run = () => {
      const t = newTestNode({ seed: 7, images: { 'crashy:1': { crashAfter: '3s' } } });
      t.sim.runUntil(1_500);
      createAndBind(t, newPod('a', 'nginx:1.27'));
      createAndBind(t, newPod('b', 'crashy:1'));
      createAndBind(t, newPod('c', 'nginx:doesnotexist'));
      t.sim.runUntil(120_000);
      t.apiserver.delete('kubectl', 'pods', 'default', 'a');
      t.sim.runUntil(200_000);
      return JSON.stringify(t.sim.trace);
    };
    expect(run()).toBe(run());
  });
});

describe('Kubelet: more upstream behaviours', () => {
  it('re-asserts pod readiness that MarkPodsNotReady cleared while the node was partitioned', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    t.apiserver.unreachable.add('node-1');
    t.apiserver.breakWatches();
    const pod = getPod(t, 'web')!;
    // Stand-in for the node lifecycle controller's MarkPodsNotReady.
    t.apiserver.patch(
      'node-lifecycle-controller',
      'pods',
      'default',
      'web',
      {
        status: {
          conditions: pod.status.conditions!.map((c) =>
            c.type === 'Ready'
              ? { ...c, status: 'False', lastTransitionTime: formatTime(60_000) }
              : c,
          ),
        },
      },
      'status',
    );
    t.sim.runUntil(100_000);
    t.apiserver.unreachable.delete('node-1');
    t.sim.runUntil(140_000);
    expect(getPod(t, 'web')!.status.conditions!.find((c) => c.type === 'Ready')!.status).toBe(
      'True',
    );
  });

  it('a changed container image restarts that container ("definition changed")', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27', 'nginx:1.28'] });
    t.sim.runUntil(2_000);
    const p = createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    const cur = getPod(t, 'web')!;
    t.apiserver.update('kubectl', 'pods', {
      ...cur,
      spec: { ...cur.spec, containers: [{ ...cur.spec.containers[0], image: 'nginx:1.28' }] },
    } as Pod);
    t.sim.runUntil(20_000);
    expect(events(t, 'web').find((e) => e.reason === 'Killing')!.message).toBe(
      'Container nginx definition changed, will be restarted',
    );
    const cs = getPod(t, 'web')!.status.containerStatuses![0];
    expect(cs).toMatchObject({
      image: 'docker.io/library/nginx:1.28',
      restartCount: 1,
      ready: true,
    });
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(t.runtime.podSandboxes(p.metadata.uid)).toHaveLength(1);
  });

  it('a full pod CIDR fails sandbox creation with FailedCreatePodSandBox and retries', () => {
    const t = newTestNode({ preloaded: ['nginx:1.27'] });
    for (let i = 0; i < 253; i++) t.runtime.cni.reserve(`x${i}`, `10.244.1.${i + 2}`);
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(30_000);
    const ev = events(t, 'web').find((e) => e.reason === 'FailedCreatePodSandBox')!;
    expect(ev.type).toBe('Warning');
    expect(ev.message).toMatch(
      /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]{64}": plugin type="bridge" failed \(add\): failed to allocate for range 0: no IP addresses available in range set: 10\.244\.1\.1-10\.244\.1\.254$/,
    );
    expect(
      events(t, 'web').filter((e) => e.reason === 'FailedCreatePodSandBox').length,
    ).toBeGreaterThanOrEqual(2);
    expect(podStatusString(getPod(t, 'web')!)).toBe('ContainerCreating');
    t.runtime.cni.reset();
    t.sim.runUntil(60_000);
    expect(getPod(t, 'web')!.status.phase).toBe('Running');
  });

  it('restartPolicy OnFailure restarts failures and stops after a success', () => {
    const t = newTestNode({ preloaded: ['busybox:1.36'] });
    t.sim.runUntil(2_000);
    createAndBind(
      t,
      newPod('fail', 'busybox:1.36', { restartPolicy: 'OnFailure' }, [
        { command: ['sh', '-c', 'sleep 2; exit 1'] },
      ]),
    );
    createAndBind(
      t,
      newPod('ok', 'busybox:1.36', { restartPolicy: 'OnFailure' }, [
        { command: ['sh', '-c', 'sleep 2'] },
      ]),
    );
    t.sim.runUntil(40_000);
    expect(getPod(t, 'fail')!.status.phase).toBe('Running');
    expect(getPod(t, 'fail')!.status.containerStatuses![0].restartCount).toBeGreaterThanOrEqual(2);
    expect(getPod(t, 'ok')!.status.phase).toBe('Succeeded');
  });

  it('a hostNetwork pod gets the node IP and no CNI call', () => {
    const t = newTestNode({ preloaded: ['registry.k8s.io/kube-proxy:v1.34.1'] });
    t.sim.runUntil(2_000);
    createAndBind(
      t,
      newPod('kube-proxy-abcde', 'registry.k8s.io/kube-proxy:v1.34.1', { hostNetwork: true }),
    );
    t.sim.runUntil(5_000);
    expect(getPod(t, 'kube-proxy-abcde')!.status.podIP).toBe('10.0.0.11');
    expect(callMethods(t, 'kube-proxy-abcde')).not.toContain('ADD');
  });

  it('recordEvents: false records no Events', () => {
    const t = newTestNode({ recordEvents: false });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('web', 'nginx:1.27'));
    t.sim.runUntil(10_000);
    expect(events(t)).toHaveLength(0);
    expect(getPod(t, 'web')!.status.phase).toBe('Running');
  });
});

describe('Kubelet: force deletion', () => {
  it('a force-deleted pod disappears at once from the API; the kubelet then kills its containers within 2s', () => {
    const t = newTestNode({ preloaded: ['busybox:1.36'] });
    t.sim.runUntil(2_000);
    createAndBind(t, newPod('sleepy', 'busybox:1.36', {}, [{ command: ['sleep', '3600'] }]));
    t.sim.runUntil(10_000);
    t.apiserver.delete('kubectl', 'pods', 'default', 'sleepy', { gracePeriodSeconds: 0 });
    expect(getPod(t, 'sleepy')).toBeUndefined();
    t.sim.runUntil(11_000);
    expect(t.runtime.listContainers().filter((c) => c.state === 'CONTAINER_RUNNING')).toHaveLength(
      1,
    );
    t.sim.runUntil(12_200);
    expect(t.runtime.listContainers().filter((c) => c.state === 'CONTAINER_RUNNING')).toHaveLength(
      0,
    );
    expect(t.runtime.cni.allocatedCount).toBe(0);
    expect(
      t.sim.trace.filter(
        (e) =>
          e.kind === 'request' &&
          e.from === 'kubelet@node-1' &&
          e.resource.startsWith('pods') &&
          e.t > 10,
      ),
    ).toHaveLength(0);
  });
});

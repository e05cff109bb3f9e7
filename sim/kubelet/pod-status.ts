// Mirrors pkg/kubelet/kubelet_pods.go (generateAPIPodStatus, convertToAPIContainerStatuses, getPhase)
// and pkg/kubelet/status/generate.go (GeneratePodReadyCondition, GenerateContainersReadyCondition,
// GeneratePodInitializedCondition, GeneratePodReadyToStartContainersCondition), plus the condition
// merging of pkg/kubelet/status/status_manager.go (mergePodStatus, updateLastTransitionTime).
// Simplification: no init, sidecar or ephemeral containers, no probes (a running container is
// ready and started), no resources/volumeMounts/user in container statuses.

import type {
  Container,
  ContainerState,
  ContainerStatus,
  Pod,
  PodCondition,
  PodIP,
  PodPhase,
  PodStatus,
} from '../api/types.ts';
import { formatTime } from '../engine/clock.ts';
import type { CRIContainer, PodSandbox } from '../runtime/container-runtime.ts';
import { normalizeImage, repoDigest } from '../runtime/images.ts';

/** Kubelet waiting reasons (pkg/kubelet/kuberuntime and pkg/kubelet/images). */
export const ContainerCreating = 'ContainerCreating';
export const CrashLoopBackOff = 'CrashLoopBackOff';
export const ErrImagePull = 'ErrImagePull';
export const ImagePullBackOff = 'ImagePullBackOff';
export const ErrImageNeverPull = 'ErrImageNeverPull';
export const CreateContainerError = 'CreateContainerError';
export const RunContainerError = 'RunContainerError';
/** ContainerReasonStatusUnknown is used when a container the API knew about has vanished. */
export const ContainerReasonStatusUnknown = 'ContainerStatusUnknown';

/** kubeletConditions are the pod condition types the kubelet owns (kubetypes.PodConditionByKubelet). */
export const kubeletConditions = new Set([
  'PodScheduled',
  'Ready',
  'Initialized',
  'ContainersReady',
  'PodReadyToStartContainers',
]);

/** StartFailure is an entry of the kubelet's reasonCache: why a container could not start. */
export interface StartFailure {
  reason: string;
  message: string;
}

export interface PodStatusInput {
  /** pod is the newest API object known (its status is the "old" status). */
  pod: Pod;
  sandboxes: readonly PodSandbox[];
  containers: readonly CRIContainer[];
  reasons: ReadonlyMap<string, StartFailure> | undefined;
  hostIP: string;
  /** podIsTerminal: every container has stopped and none will restart (or the pod is deleted). */
  podIsTerminal: boolean;
  now: number;
}

/** containerID formats a CRI container ID as the API shows it. */
export function apiContainerID(id: string): string {
  return `containerd://${id}`;
}

// shouldContainerBeRestarted mirrors kubecontainer.ShouldContainerBeRestarted.
export function shouldContainerBeRestarted(pod: Pod, latest: CRIContainer | undefined): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  if (!latest) return true;
  if (latest.state === 'CONTAINER_RUNNING') return false;
  if (latest.state !== 'CONTAINER_EXITED') return true;
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (policy === 'Never') return false;
  if (policy === 'OnFailure') return latest.exitCode !== 0;
  return true;
}

// convertContainerStatus mirrors kubelet's convertContainerStatus for one runtime instance.
function convertContainerStatus(c: CRIContainer): ContainerStatus {
  const running = c.state === 'CONTAINER_RUNNING';
  return {
    name: c.metadata.name,
    state: convertContainerState(c),
    lastState: {},
    ready: running,
    restartCount: c.metadata.attempt,
    image: normalizeImage(c.image).full,
    imageID: repoDigest(c.image),
    containerID: apiContainerID(c.id),
    started: running,
  };
}

// convertContainerState is the state part of convertContainerStatus.
function convertContainerState(c: CRIContainer): ContainerState {
  if (c.state === 'CONTAINER_RUNNING')
    return { running: { startedAt: formatTime(c.startedAt ?? c.createdAt) } };
  if (c.state === 'CONTAINER_EXITED')
    return {
      terminated: {
        exitCode: c.exitCode ?? 0,
        reason: c.reason,
        startedAt: formatTime(c.startedAt ?? c.createdAt),
        finishedAt: formatTime(c.finishedAt ?? c.createdAt),
        containerID: apiContainerID(c.id),
      },
    };
  return { waiting: {} };
}

/** latestByName groups a pod's containers by name, newest first. */
export function latestByName(containers: readonly CRIContainer[]): Map<string, CRIContainer[]> {
  const m = new Map<string, CRIContainer[]>();
  // A name's list starts as [c] (pushing onto an empty array reserves room for 16 more, and most
  // names have one instance).
  for (const c of containers) {
    const l = m.get(c.metadata.name);
    if (l) l.push(c);
    else m.set(c.metadata.name, [c]);
  }
  for (const l of m.values()) if (l.length > 1) l.sort((a, b) => b.createdAt - a.createdAt);
  return m;
}

/** convertToAPIContainerStatuses mirrors the kubelet function of that name for app containers. */
export function convertToAPIContainerStatuses(
  in_: PodStatusInput,
  byName: Map<string, CRIContainer[]>,
): ContainerStatus[] {
  const { pod, reasons, podIsTerminal } = in_;
  const oldStatuses = pod.status?.containerStatuses;
  // map sizes the list once (pushing onto an empty array reserves room for 16 more).
  return pod.spec.containers.map((spec) =>
    containerStatusFor(
      pod,
      spec,
      lastStatusNamed(oldStatuses, spec.name),
      byName.get(spec.name),
      reasons,
      podIsTerminal,
    ),
  );
}

// lastStatusNamed is the last of statuses with that name (a pod has a handful of containers, so a
// scan is cheaper than a map).
function lastStatusNamed(
  statuses: readonly ContainerStatus[] | undefined,
  name: string,
): ContainerStatus | undefined {
  if (!statuses) return undefined;
  for (let i = statuses.length - 1; i >= 0; i--) if (statuses[i].name === name) return statuses[i];
  return undefined;
}

function containerStatusFor(
  pod: Pod,
  spec: Container,
  old: ContainerStatus | undefined,
  instances: CRIContainer[] | undefined,
  reasons: ReadonlyMap<string, StartFailure> | undefined,
  podIsTerminal: boolean,
): ContainerStatus {
  let status: ContainerStatus;
  if (instances?.length) {
    // The newest instance gives the state; the one before it gives lastState.
    status = convertContainerStatus(instances[0]);
    if (instances[1]) status.lastState = convertContainerState(instances[1]);
  } else if (old?.state.terminated) status = { ...old };
  else {
    // Default: waiting ContainerCreating, seeded from the old status.
    status = {
      name: spec.name,
      state: { waiting: { reason: ContainerCreating } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: spec.image,
      imageID: '',
      started: false,
    };
    if (old) {
      status.restartCount = old.restartCount;
      status.lastState = old.lastState;
    }
  }
  // A container that will be (re)started and failed to start shows why (reasonCache).
  const latest = instances?.[0];
  const failure = reasons?.get(spec.name);
  if (failure && shouldContainerBeRestarted(pod, latest)) {
    if (status.state.terminated) status.lastState = status.state;
    status.state = { waiting: { reason: failure.reason, message: failure.message } };
    status.ready = false;
    status.started = false;
  }
  // The API says it was running but the runtime has no trace of it (the node rebooted).
  const isDefaultWaiting = status.state.waiting?.reason === ContainerCreating;
  if (
    isDefaultWaiting &&
    old?.state.running &&
    !status.lastState.terminated &&
    !instances?.length
  ) {
    status.lastState = {
      terminated: {
        exitCode: 137,
        reason: ContainerReasonStatusUnknown,
        message:
          'The container could not be located when the pod was deleted.  The container used to be Running',
      },
    };
    if (!pod.metadata.deletionTimestamp) status.restartCount += 1;
  }
  // A terminal pod reports every container as terminated.
  if (podIsTerminal && !status.state.terminated) {
    status.state = {
      terminated: {
        exitCode: 137,
        reason: ContainerReasonStatusUnknown,
        message: 'The container could not be located when the pod was terminated',
      },
    };
    status.ready = false;
    status.started = false;
  }
  return status;
}

/** getPhase mirrors kubelet's getPhase for pods without init containers. */
export function getPhase(pod: Pod, statuses: ContainerStatus[], podIsTerminal: boolean): PodPhase {
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const s of statuses) {
    if (s.state.running) running++;
    else if (s.state.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state.waiting) {
      if (s.lastState.terminated) stopped++;
      else waiting++;
    }
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    const mirror = !!pod.metadata.annotations?.['kubernetes.io/config.mirror'];
    if (podIsTerminal && !mirror) return stopped === succeeded ? 'Succeeded' : 'Failed';
    const policy = pod.spec.restartPolicy ?? 'Always';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

// condition builds a pod condition; its lastTransitionTime is kept from the old condition of that
// type when the status is unchanged (updateLastTransitionTime), else it is now.
function condition(
  type: string,
  ok: boolean,
  oldConds: readonly PodCondition[] | undefined,
  now: string,
  reason?: string,
  message?: string,
): PodCondition {
  const status = ok ? 'True' : 'False';
  let prev: PodCondition | undefined;
  if (oldConds)
    for (const o of oldConds)
      if (o.type === type) {
        prev = o;
        break;
      }
  const lastTransitionTime =
    prev && prev.status === status && prev.lastTransitionTime ? prev.lastTransitionTime : now;
  // Each shape is one literal (fields in the order the API shows them), not grown field by field.
  if (!reason && !message) return { type, status, lastProbeTime: null, lastTransitionTime };
  if (reason && message)
    return { type, status, lastProbeTime: null, reason, message, lastTransitionTime };
  const c: PodCondition = { type, status, lastProbeTime: null };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  c.lastTransitionTime = lastTransitionTime;
  return c;
}

/** generateAPIPodStatus computes the status the kubelet reports for a pod. */
export function generateAPIPodStatus(
  in_: PodStatusInput,
  byName = latestByName(in_.containers),
): PodStatus {
  const { pod, sandboxes, hostIP, now } = in_;
  const old = pod.status ?? {};
  const containerStatuses = convertToAPIContainerStatuses(in_, byName);
  let phase = getPhase(pod, containerStatuses, in_.podIsTerminal);
  // Pods never leave a terminal phase.
  if (old.phase === 'Succeeded' || old.phase === 'Failed') phase = old.phase;

  const latest = sandboxes.length ? sandboxes[sandboxes.length - 1] : undefined;
  const sandboxReady = latest?.state === 'SANDBOX_READY';
  const podIP = sandboxReady ? latest.ip : old.podIP;

  // The unready containers' names, space-separated (built only when there are any: the status
  // is generated on every sync of every pod).
  let unready: string | undefined;
  for (const cs of containerStatuses)
    if (!cs.ready) unready = unready === undefined ? cs.name : `${unready} ${cs.name}`;
  const completed = phase === 'Succeeded';
  const readyReason = completed
    ? 'PodCompleted'
    : unready !== undefined
      ? 'ContainersNotReady'
      : undefined;
  const readyMessage =
    !completed && unready !== undefined
      ? `containers with unready status: [${unready}]`
      : undefined;
  const nowStr = formatTime(now);
  const oldConds = old.conditions;
  const ready = !completed && unready === undefined;
  const conds: PodCondition[] = [
    condition('PodReadyToStartContainers', sandboxReady && !!latest.ip, oldConds, nowStr),
    condition('Initialized', true, oldConds, nowStr),
    condition('Ready', ready, oldConds, nowStr, readyReason, readyMessage),
    condition('ContainersReady', ready, oldConds, nowStr, readyReason, readyMessage),
    condition('PodScheduled', true, oldConds, nowStr),
  ];

  const s: PodStatus = { phase, conditions: conds };
  if (old.message) s.message = old.message;
  if (old.reason) s.reason = old.reason;
  // The IP lists of the old status are kept when they say the same (stored objects are read-only),
  // rather than rebuilt on every sync.
  if (hostIP) {
    s.hostIP = hostIP;
    s.hostIPs = sameIPs(old.hostIPs, hostIP) ? old.hostIPs : [{ ip: hostIP }];
  }
  if (podIP) {
    s.podIP = podIP;
    s.podIPs = sameIPs(old.podIPs, podIP) ? old.podIPs : [{ ip: podIP }];
  }
  s.startTime = old.startTime ?? nowStr;
  s.containerStatuses = containerStatuses;
  if (old.qosClass) s.qosClass = old.qosClass;
  return s;
}

// sameIPs says whether ips is exactly [{ ip }].
function sameIPs(ips: readonly PodIP[] | undefined, ip: string): ips is PodIP[] {
  return ips?.length === 1 && ips[0].ip === ip;
}

/**
 * mergePodStatus mirrors status_manager.go mergePodStatus: conditions the kubelet does not own
 * (DisruptionTarget, readiness gates) are kept from the API status, ahead of the kubelet's own, and
 * fields the kubelet never writes (nominatedNodeName...) are carried over.
 */
export function mergePodStatus(oldStatus: PodStatus | undefined, next: PodStatus): PodStatus {
  const old = oldStatus ?? {};
  // { ...old, ...next } without the droppable fields next leaves unset, built without delete (an
  // object that loses a property turns into a slow dictionary-mode object); keys keep the order
  // the spread would give them.
  const merged: Record<string, unknown> = {};
  const n = next as Record<string, unknown>;
  for (const k in old)
    if (n[k] !== undefined || !droppedWhenUnset.has(k))
      merged[k] = (old as Record<string, unknown>)[k];
  for (const k in n) if (n[k] !== undefined || !droppedWhenUnset.has(k)) merged[k] = n[k];
  let foreign: PodCondition[] | undefined;
  for (const c of old.conditions ?? [])
    if (!kubeletConditions.has(c.type)) (foreign ??= []).push(c);
  merged.conditions = foreign ? [...foreign, ...(next.conditions ?? [])] : next.conditions;
  return merged as PodStatus;
}

/** droppedWhenUnset are the fields mergePodStatus drops when the kubelet's status leaves unset. */
const droppedWhenUnset = new Set(['podIP', 'podIPs', 'hostIP', 'hostIPs', 'message', 'reason']);

/**
 * needsReconcile mirrors the spirit of status_manager.go needsReconcile: does the API status
 * disagree with what the kubelet last decided, in what matters (phase, IP, readiness, container
 * states)? Used when someone else wrote the status (e.g. MarkPodsNotReady during a partition).
 */
export function needsReconcile(api: PodStatus | undefined, desired: PodStatus): boolean {
  if (!api) return true;
  if (api.phase !== desired.phase || api.podIP !== desired.podIP) return true;
  for (const t of reconciledConditions)
    if (conditionStatus(api.conditions, t) !== conditionStatus(desired.conditions, t)) return true;
  const ac = api.containerStatuses ?? [];
  const dc = desired.containerStatuses ?? [];
  if (ac.length !== dc.length) return true;
  for (let i = 0; i < dc.length; i++) {
    const a = ac[i];
    const d = dc[i];
    if (a.name !== d.name || a.ready !== d.ready || a.restartCount !== d.restartCount) return true;
    if (!!a.state.running !== !!d.state.running || !!a.state.terminated !== !!d.state.terminated)
      return true;
    if (a.state.waiting?.reason !== d.state.waiting?.reason) return true;
  }
  return false;
}

/** reconciledConditions are the condition types needsReconcile compares. */
const reconciledConditions = ['Ready', 'ContainersReady', 'PodReadyToStartContainers'];

// conditionStatus is the status of the first condition of that type.
function conditionStatus(
  conds: readonly PodCondition[] | undefined,
  type: string,
): string | undefined {
  if (conds) for (const c of conds) if (c.type === type) return c.status;
  return undefined;
}

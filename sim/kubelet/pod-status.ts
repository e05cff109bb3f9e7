// Mirrors pkg/kubelet/kubelet_pods.go (generateAPIPodStatus, convertToAPIContainerStatuses, getPhase)
// and pkg/kubelet/status/generate.go (GeneratePodReadyCondition, GenerateContainersReadyCondition,
// GeneratePodInitializedCondition, GeneratePodReadyToStartContainersCondition), plus the condition
// merging of pkg/kubelet/status/status_manager.go (mergePodStatus, updateLastTransitionTime).
// Init containers are reported as upstream does (initContainerStatuses, the Initialized condition,
// the Pending phase until they complete, PodInitializing), sidecars (restartPolicy Always) too.
// Simplification: no ephemeral containers, no probes (a running container is ready and started),
// no resources/volumeMounts/user in container statuses.

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
import { isRestartableInitContainer } from '../api/podutil.ts';
import { formatTime } from '../engine/clock.ts';
import type { CRIContainer, PodSandbox } from '../runtime/container-runtime.ts';
import { normalizeImage, repoDigest } from '../runtime/images.ts';

/** Kubelet waiting reasons (pkg/kubelet/kuberuntime and pkg/kubelet/images). */
export const ContainerCreating = 'ContainerCreating';
/** PodInitializing is the default waiting reason of every container of a pod with init containers. */
export const PodInitializing = 'PodInitializing';
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

/**
 * convertToAPIContainerStatuses mirrors the kubelet function of that name, for the app containers
 * or (isInit) the init containers. In a pod with init containers every container waits as
 * PodInitializing by default. Init containers get the readiness the prober manager gives them
 * (UpdatePodStatus): a regular one is ready once it has exited 0, a sidecar while it runs.
 */
export function convertToAPIContainerStatuses(
  in_: PodStatusInput,
  byName: Map<string, CRIContainer[]>,
  isInit = false,
): ContainerStatus[] {
  const { pod, reasons } = in_;
  const oldStatuses = isInit ? pod.status?.initContainerStatuses : pod.status?.containerStatuses;
  const defaultReason = pod.spec.initContainers?.length ? PodInitializing : ContainerCreating;
  const specs = isInit ? (pod.spec.initContainers ?? []) : pod.spec.containers;
  // map sizes the list once (pushing onto an empty array reserves room for 16 more).
  return specs.map((spec) => {
    const s = containerStatusFor(
      pod,
      spec,
      lastStatusNamed(oldStatuses, spec.name),
      byName.get(spec.name),
      reasons,
      defaultReason,
      isInit,
    );
    if (isInit && !isRestartableInitContainer(spec)) s.ready = s.state.terminated?.exitCode === 0;
    return s;
  });
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
  defaultReason: string,
  isInit: boolean,
): ContainerStatus {
  let status: ContainerStatus;
  if (instances?.length) {
    // The newest instance gives the state; the one before it gives lastState.
    status = convertContainerStatus(instances[0]);
    if (instances[1]) status.lastState = convertContainerState(instances[1]);
  } else if (old?.state.terminated) status = { ...old };
  else {
    // Default: waiting ContainerCreating (PodInitializing in a pod with init containers), seeded
    // from the old status.
    status = {
      name: spec.name,
      state: { waiting: { reason: defaultReason } },
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
  // A container that will be (re)started and failed to start shows why (reasonCache); an init
  // container that exited 0 is never restarted.
  const latest = instances?.[0];
  const failure = reasons?.get(spec.name);
  const initDone = isInit && latest?.state === 'CONTAINER_EXITED' && latest.exitCode === 0;
  if (failure && !initDone && shouldContainerBeRestarted(pod, latest)) {
    if (status.state.terminated) status.lastState = status.state;
    status.state = { waiting: { reason: failure.reason, message: failure.message } };
    status.ready = false;
    status.started = false;
  }
  // The API says it was running but the runtime has no trace of it (the node rebooted).
  const isDefaultWaiting = status.state.waiting?.reason === defaultReason;
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
  return status;
}

/**
 * terminateStatuses mirrors status_manager.go TerminatePod: a terminal pod reports its containers
 * as terminated, the app containers once the pod has initialized (hasPodInitialized), and of the
 * init containers every one but the suffix that never tried to start (initializedContainers).
 */
function terminateStatuses(
  pod: Pod,
  statuses: ContainerStatus[],
  initStatuses: ContainerStatus[] | undefined,
): void {
  if (!initStatuses || hasPodInitialized(pod, statuses, initStatuses))
    for (const s of statuses) markTerminated(s);
  if (!initStatuses?.length) return;
  let end = 0;
  for (let i = initStatuses.length - 1; i >= 0; i--)
    if (!initStatuses[i].state.waiting || initStatuses[i].lastState.terminated) {
      end = i;
      break;
    }
  for (let i = 0; i <= end; i++) markTerminated(initStatuses[i]);
}

function markTerminated(s: ContainerStatus): void {
  if (s.state.terminated) return;
  s.state = {
    terminated: {
      exitCode: 137,
      reason: ContainerReasonStatusUnknown,
      message: 'The container could not be located when the pod was terminated',
    },
  };
  s.ready = false;
  s.started = false;
}

// hasPodInitialized mirrors status_manager.go hasPodInitialized: an app container left waiting, or
// the last init container completed (a sidecar: runs and has started).
function hasPodInitialized(
  pod: Pod,
  statuses: readonly ContainerStatus[],
  initStatuses: readonly ContainerStatus[],
): boolean {
  for (const s of statuses) if (s.lastState.terminated || !s.state.waiting) return true;
  const inits = pod.spec.initContainers ?? [];
  const last = initStatuses[initStatuses.length - 1];
  if (!last) return false;
  if (isRestartableInitContainer(inits[inits.length - 1])) return !!last.state.running && !!last.started;
  return last.lastState.terminated?.exitCode === 0 || last.state.terminated?.exitCode === 0;
}

/**
 * getPhase mirrors kubelet's getPhase: statuses are the app containers' (in spec order) and
 * initStatuses the init containers'. A regular init container still to run or running keeps the
 * pod Pending until an app container has started; one that failed fails a pod that never
 * restarts; a sidecar counts as running, and as pending until it has started.
 */
export function getPhase(
  pod: Pod,
  statuses: ContainerStatus[],
  podIsTerminal: boolean,
  initStatuses: readonly ContainerStatus[] = [],
): PodPhase {
  let pendingInitialization = 0;
  let failedInitialization = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  const inits = pod.spec.initContainers;
  if (inits)
    for (const c of inits) {
      const s = lastStatusNamed(initStatuses, c.name);
      if (!isRestartableInitContainer(c)) {
        if (!s || s.state.running) pendingInitialization++;
        else if (s.state.terminated) {
          if (s.state.terminated.exitCode !== 0) failedInitialization++;
        } else if (s.lastState.terminated) {
          if (s.lastState.terminated.exitCode !== 0) failedInitialization++;
        } else pendingInitialization++;
        continue;
      }
      // A sidecar: terminated ones do not count.
      if (!s) continue;
      if (s.state.running) {
        if (!s.started) pendingInitialization++;
        running++;
      } else if (s.state.waiting && !s.lastState.terminated) {
        pendingInitialization++;
        waiting++;
      }
    }
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
  if (failedInitialization > 0 && pod.spec.restartPolicy === 'Never') return 'Failed';
  if (pendingInitialization > 0 && !hasAnyRegularContainerStarted(statuses)) return 'Pending';
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

/** hasAnyRegularContainerStarted mirrors kubecontainer.HasAnyRegularContainerStarted. */
function hasAnyRegularContainerStarted(statuses: readonly ContainerStatus[]): boolean {
  for (const s of statuses) if (s.state.running || s.state.terminated) return true;
  return false;
}

/**
 * initializedCondition mirrors status.GeneratePodInitializedCondition: True without init
 * containers, once every one has completed (a sidecar: started), or once an app container has
 * started; else False, ContainersNotInitialized, naming the incomplete ones.
 */
function initializedCondition(
  pod: Pod,
  statuses: readonly ContainerStatus[],
  initStatuses: readonly ContainerStatus[],
  phase: PodPhase,
  oldConds: readonly PodCondition[] | undefined,
  now: string,
): PodCondition {
  const inits = pod.spec.initContainers;
  if (!inits?.length) return condition('Initialized', true, oldConds, now);
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const s = lastStatusNamed(initStatuses, c.name);
    if (!s) unknown.push(c.name);
    else if (isRestartableInitContainer(c) ? !s.started : !s.ready) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0)
    return condition('Initialized', true, oldConds, now, 'PodCompleted');
  if (hasAnyRegularContainerStarted(statuses)) return condition('Initialized', true, oldConds, now);
  const messages: string[] = [];
  // Go prints a []string as [a b].
  if (unknown.length) messages.push(`containers with unknown status: [${unknown.join(' ')}]`);
  if (incomplete.length) messages.push(`containers with incomplete status: [${incomplete.join(' ')}]`);
  if (messages.length)
    return condition('Initialized', false, oldConds, now, 'ContainersNotInitialized', messages.join(', '));
  return condition('Initialized', true, oldConds, now);
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
  const initStatuses = pod.spec.initContainers?.length
    ? convertToAPIContainerStatuses(in_, byName, true)
    : undefined;
  if (in_.podIsTerminal) terminateStatuses(pod, containerStatuses, initStatuses);
  let phase = getPhase(pod, containerStatuses, in_.podIsTerminal, initStatuses);
  // Pods never leave a terminal phase.
  if (old.phase === 'Succeeded' || old.phase === 'Failed') phase = old.phase;

  const latest = sandboxes.length ? sandboxes[sandboxes.length - 1] : undefined;
  const sandboxReady = latest?.state === 'SANDBOX_READY';
  const podIP = sandboxReady ? latest.ip : old.podIP;

  // The unready containers' names (sidecars first, as GenerateContainersReadyCondition lists
  // them), space-separated (built only when there are any: the status is generated on every sync
  // of every pod).
  let unready: string | undefined;
  if (initStatuses)
    pod.spec.initContainers!.forEach((c, i) => {
      if (isRestartableInitContainer(c) && !initStatuses[i].ready)
        unready = unready === undefined ? c.name : `${unready} ${c.name}`;
    });
  for (const cs of containerStatuses)
    if (!cs.ready) unready = unready === undefined ? cs.name : `${unready} ${cs.name}`;
  // A pod in a terminal phase is not ready, with the phase as the reason
  // (generateContainersReadyConditionForTerminalPhase).
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const readyReason = terminal
    ? phase === 'Succeeded'
      ? 'PodCompleted'
      : 'PodFailed'
    : unready !== undefined
      ? 'ContainersNotReady'
      : undefined;
  const readyMessage =
    !terminal && unready !== undefined
      ? `containers with unready status: [${unready}]`
      : undefined;
  const nowStr = formatTime(now);
  const oldConds = old.conditions;
  const ready = !terminal && unready === undefined;
  const conds: PodCondition[] = [
    condition('PodReadyToStartContainers', sandboxReady && !!latest.ip, oldConds, nowStr),
    initializedCondition(pod, containerStatuses, initStatuses ?? [], phase, oldConds, nowStr),
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
  if (initStatuses) s.initContainerStatuses = initStatuses;
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
  return (
    statusesDiffer(api.containerStatuses, desired.containerStatuses) ||
    statusesDiffer(api.initContainerStatuses, desired.initContainerStatuses)
  );
}

// statusesDiffer compares two container status lists in what needsReconcile looks at.
function statusesDiffer(
  api: readonly ContainerStatus[] | undefined,
  desired: readonly ContainerStatus[] | undefined,
): boolean {
  const ac = api ?? [];
  const dc = desired ?? [];
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

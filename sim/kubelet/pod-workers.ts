// Mirrors pkg/kubelet/pod_workers.go (one worker per pod: syncing → terminating → terminated, a
// deletion interrupting an in-flight sync), pkg/kubelet/kubelet.go SyncPod / SyncTerminatingPod /
// SyncTerminatedPod, and pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions,
// SyncPod's steps: kill what must go, create the sandbox, start each container; doBackOff for
// CrashLoopBackOff) with kuberuntime_container.go (startContainer, killContainer).
// Each sync is level-triggered: it compares the pod spec with the runtime's state and acts on the
// difference. CRI calls take virtual time, so a sync is a chain of steps; a worker runs one chain at
// a time, and an update that arrives meanwhile re-syncs when it ends.
// Simplification: the generic PLEG's 1s relist is modelled as a re-sync at the kubelet's next relist
// tick after anything changed, and the status the next sync reports is posted then. There is no
// periodic 1-minute resync of steady pods, no admission (the scheduler is trusted), no ephemeral
// containers, and no probes or lifecycle hooks. Init containers run one after another before the
// app containers, as computeInitContainerActions decides (kuberuntime_container.go), sidecars
// (restartPolicy Always) included.

import { isRestartableInitContainer } from '../api/podutil.ts';
import type { Container, Pod } from '../api/types.ts';
import { formatDuration } from '../engine/clock.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import type { ContainerRuntime, CRIContainer, PodSandbox } from '../runtime/container-runtime.ts';
import type { Backoff } from './backoff.ts';
import type { ImageManager } from './image-manager.ts';
import { containerFieldPath } from './container-ref.ts';
import {
  CrashLoopBackOff,
  CreateContainerError,
  generateAPIPodStatus,
  latestByName,
  RunContainerError,
  shouldContainerBeRestarted,
  type StartFailure,
} from './pod-status.ts';
import type { StatusManager } from './status-manager.ts';

/** minimumGracePeriodInSeconds is kuberuntime_container.go's floor for killContainer. */
export const minimumGracePeriodInSeconds = 2;
/** backOffPeriod is kubelet.go's backOffPeriod: how soon a failed sandbox creation is retried. */
export const backOffPeriod = 10_000;

export interface PodWorkersHost {
  readonly sim: Simulation;
  readonly name: string;
  readonly runtime: ContainerRuntime;
  readonly statusManager: StatusManager;
  readonly imageManager: ImageManager;
  readonly crashBackoff: Backoff;
  readonly imageBackoff: Backoff;
  readonly hostIP: string;
  /** podLogs is /var/log/pods: the last container attempt per pod and container; survives reboots. */
  readonly podLogs: Map<string, Map<string, number>>;
  /** event records an Event about pod; fieldPath names the container it is about, if any. */
  event(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string, fieldPath?: string): void;
  guard<A extends unknown[]>(fn: (...a: A) => void): (...a: A) => void;
  alive(): boolean;
  /** relistTime is the next PLEG relist tick (strictly after now). */
  relistTime(): number;
  /** collectPod asks container GC to remove a deleted pod's sandboxes. */
  collectPod(uid: string): void;
  /** pruneContainers asks container GC to remove old dead instances of a pod's containers. */
  pruneContainers(uid: string): void;
}

type WorkerPhase = 'syncing' | 'terminating' | 'terminated';

interface PodWorker {
  uid: string;
  pod: Pod;
  /** removed: the pod is gone from the API (deleted, or never known: an orphan). */
  removed: boolean;
  orphan: boolean;
  phase: WorkerPhase;
  busy: boolean;
  again: boolean;
  timer: TimerHandle | undefined;
  timerAt: number;
  /** adopted: bootstrap registered it as running; its first status is assumed, not sent. */
  adopted: boolean;
  /** retryAt is the earliest back-off expiry seen by the running chain. */
  retryAt: number;
  /** changed: the running chain changed runtime state or a waiting reason. */
  changed: boolean;
  /** inPull: the running chain waits for an image pull, which a deletion may cancel. */
  inPull: boolean;
  /** cancel ends the running chain at once (its pending callbacks are then ignored). */
  cancel: (() => void) | undefined;
  /** syncWhat names the worker's sync timer, and fire is its callback: both made once per pod. */
  syncWhat: string;
  fire: () => void;
}

interface PodView {
  sandboxes: readonly PodSandbox[];
  containers: readonly CRIContainer[];
  byName: Map<string, CRIContainer[]>;
}

interface PodActions {
  createSandbox: boolean;
  attempt: number;
  sandboxId: string;
  toKill: { c: CRIContainer; message?: string }[];
  /** initToStart are the init containers to start, in spec order (InitContainersToStart). */
  initToStart: { spec: Container; prev: CRIContainer | undefined }[];
  toStart: { spec: Container; prev: CRIContainer | undefined }[];
}

type Step = (next: () => void, stop: () => void) => void;

function podKey(pod: Pod): string {
  return `${pod.metadata.namespace}/${pod.metadata.name}`;
}

// The Created and Started messages of each container name: every container start records both,
// and each Event keeps its message, so one string per name serves them all.
const messagesByName = new Map<string, { created: string; started: string }>();

function containerMessages(name: string): { created: string; started: string } {
  let m = messagesByName.get(name);
  if (!m) {
    m = { created: `Created container: ${name}`, started: `Started container ${name}` };
    if (messagesByName.size > 10_000) messagesByName.clear();
    messagesByName.set(name, m);
  }
  return m;
}

// formatPod mirrors pkg/kubelet/util/format.Pod: name_namespace(uid).
function formatPod(pod: Pod): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
}

/** PodWorkers drives every pod bound to the node. */
export class PodWorkers {
  private readonly host: PodWorkersHost;
  private readonly workers = new Map<string, PodWorker>();
  private readonly reasonCache = new Map<string, Map<string, StartFailure>>();
  private readonly adoptedUIDs = new Set<string>();

  constructor(host: PodWorkersHost) {
    this.host = host;
  }

  /** size is the number of pods the kubelet is managing. */
  get size(): number {
    return this.workers.size;
  }

  /** has says whether a pod UID has a worker. */
  has(uid: string): boolean {
    return this.workers.has(uid);
  }

  /** stop cancels every worker's timers (the kubelet process exited). */
  stop(): void {
    for (const w of this.workers.values()) w.timer?.cancel();
    this.workers.clear();
    this.reasonCache.clear();
  }

  /** markAdopted says a pod was registered as already running (kubelet.adoptRunning). */
  markAdopted(uid: string): void {
    const w = this.workers.get(uid);
    if (w && w.phase === 'syncing') w.adopted = true;
    else this.adoptedUIDs.add(uid);
  }

  // ---- inputs ----

  /** updatePod mirrors podWorkers.UpdatePod for a pod from the API (add or update). */
  updatePod(pod: Pod): void {
    const uid = pod.metadata.uid;
    let w = this.workers.get(uid);
    if (!w) {
      w = this.newWorker(uid, pod, false);
      w.adopted = this.adoptedUIDs.delete(uid);
      return;
    }
    const prev = w.pod;
    w.pod = pod;
    if (w.phase !== 'syncing') return;
    if (pod.metadata.deletionTimestamp && !prev.metadata.deletionTimestamp)
      this.schedule(w, this.host.sim.now());
    else if (specChanged(prev, pod)) this.schedule(w, this.host.sim.now());
  }

  /** removePod mirrors HandlePodRemoves: the pod is gone from the API; stop it if it still runs. */
  removePod(pod: Pod): void {
    const uid = pod.metadata.uid;
    this.host.statusManager.removePod(uid);
    const w = this.workers.get(uid);
    if (!w) {
      if (this.host.runtime.podSandboxes(uid).length) this.host.collectPod(uid);
      return;
    }
    w.removed = true;
    if (w.phase === 'terminated' && !w.busy) this.finish(w);
    else this.schedule(w, this.host.sim.now());
  }

  /**
   * killOrphans mirrors HandlePodCleanups: stop runtime pods the API does not know (call it once
   * the pod informer has listed, so every known pod already has a worker).
   */
  killOrphans(): void {
    for (const uid of this.host.runtime.knownPodUIDs()) {
      if (this.workers.has(uid)) continue;
      const sb = this.host.runtime.podSandboxes(uid);
      const m = sb[sb.length - 1].metadata;
      const stub = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: m.name,
          namespace: m.namespace,
          uid,
          resourceVersion: '0',
          creationTimestamp: '',
        },
        spec: { containers: [], terminationGracePeriodSeconds: minimumGracePeriodInSeconds },
        status: {},
      } as unknown as Pod;
      this.newWorker(uid, stub, true);
    }
  }

  // newWorker starts a worker and schedules its first sync now.
  private newWorker(uid: string, pod: Pod, orphan: boolean): PodWorker {
    const w: PodWorker = {
      uid,
      pod,
      removed: orphan,
      orphan,
      phase: 'syncing',
      busy: false,
      again: false,
      timer: undefined,
      timerAt: Infinity,
      adopted: false,
      retryAt: Infinity,
      changed: false,
      inPull: false,
      cancel: undefined,
      // A pod's namespace and name never change for its UID, so the label is built once.
      syncWhat: `${this.host.name}: sync ${podKey(pod)}`,
      fire: () => {
        w.timer = undefined;
        w.timerAt = Infinity;
        this.sync(w);
      },
    };
    this.workers.set(uid, w);
    this.schedule(w, this.host.sim.now());
    return w;
  }

  /** onContainerExit is PLEG's ContainerDied: re-sync the pod at the next relist. */
  onContainerExit(c: CRIContainer): void {
    const w = this.workers.get(c.podUid);
    if (w && w.phase === 'syncing') this.schedule(w, this.host.relistTime());
  }

  // ---- scheduling ----

  private schedule(w: PodWorker, at: number): void {
    if (w.timer && w.timerAt <= at) return;
    w.timer?.cancel();
    w.timerAt = at;
    w.timer = this.host.sim.at(at, w.syncWhat, w.fire);
  }

  private sync(w: PodWorker): void {
    if (!this.host.alive() || this.workers.get(w.uid) !== w) return;
    if (w.busy) {
      // A deletion cancels a sync waiting for an image pull (upstream cancels the sync's context);
      // any other step is short and is let finish.
      if ((w.removed || w.pod.metadata.deletionTimestamp) && w.inPull && w.cancel) w.cancel();
      else {
        w.again = true;
        return;
      }
    }
    if (w.phase === 'terminated') {
      if (w.removed) this.finish(w);
      return;
    }
    if (w.removed || w.pod.metadata.deletionTimestamp || w.phase === 'terminating')
      return this.terminate(w);
    // A pod in a terminal phase is never started again (even after a reboot emptied the runtime).
    const phase = (this.host.statusManager.latestPod(w.uid, w.pod) ?? w.pod).status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return this.terminate(w);
    this.syncPod(w);
  }

  private view(uid: string): PodView {
    const containers = this.host.runtime.podContainers(uid);
    return {
      sandboxes: this.host.runtime.podSandboxes(uid),
      containers,
      byName: latestByName(containers),
    };
  }

  private setReason(w: PodWorker, name: string, f: StartFailure): void {
    let m = this.reasonCache.get(w.uid);
    if (!m) this.reasonCache.set(w.uid, (m = new Map()));
    const old = m.get(name);
    if (!old || old.reason !== f.reason || old.message !== f.message) w.changed = true;
    m.set(name, { reason: f.reason, message: f.message });
  }

  private clearReason(w: PodWorker, name: string): void {
    const m = this.reasonCache.get(w.uid);
    if (m?.delete(name)) w.changed = true;
  }

  /** updateStatus generates the pod's API status from the runtime and hands it to the status manager. */
  private updateStatus(w: PodWorker, podIsTerminal: boolean, v = this.view(w.uid)): void {
    if (w.orphan) return;
    const sm = this.host.statusManager;
    const pod = sm.latestPod(w.uid, w.pod) ?? w.pod;
    const status = generateAPIPodStatus(
      {
        pod,
        sandboxes: v.sandboxes,
        containers: v.containers,
        reasons: this.reasonCache.get(w.uid),
        hostIP: this.host.hostIP,
        podIsTerminal,
        now: this.host.sim.now(),
      },
      v.byName,
    );
    if (w.adopted) {
      w.adopted = false;
      sm.assumePodStatus(pod, status);
    } else sm.setPodStatus(pod, status);
  }

  // ---- SyncPod ----

  // syncPod mirrors Kubelet.SyncPod: report status, then make the runtime match the spec.
  private syncPod(w: PodWorker): void {
    const v = this.view(w.uid);
    this.updateStatus(w, false, v);
    if (isPodTerminal(w.pod, v)) return this.terminate(w);
    const a = computePodActions(w.pod, v);
    if (!a) return;
    this.runSync(w, a, v);
  }

  private runSync(w: PodWorker, a: PodActions, v: PodView): void {
    const { runtime, name } = this.host;
    const pod = w.pod;
    const steps: Step[] = [];
    let sandboxId = a.sandboxId;
    if (a.toKill.length)
      steps.push((next) => this.killContainers(w, a.toKill, gracePeriod(pod), next));
    if (a.createSandbox) {
      const old = v.sandboxes;
      steps.push((next, stop) =>
        runtime.runPodSandbox(
          name,
          {
            name: pod.metadata.name,
            namespace: pod.metadata.namespace ?? 'default',
            uid: w.uid,
            attempt: a.attempt,
            hostNetwork: !!pod.spec.hostNetwork,
          },
          this.host.guard((err, id) => {
            if (err) {
              this.host.event(
                pod,
                'Warning',
                'FailedCreatePodSandBox',
                `Failed to create pod sandbox: ${err}`,
              );
              w.retryAt = Math.min(w.retryAt, this.host.sim.now() + backOffPeriod);
              return stop();
            }
            sandboxId = id;
            w.changed = true;
            if (old.length) this.host.pruneContainers(w.uid);
            next();
          }),
        ),
      );
    }
    // Init containers start before the app containers (SyncPod step 6). A regular init container
    // that fails to start ends the sync; a sidecar that does lets the next one go on.
    for (const s of a.initToStart)
      steps.push((next, stop) =>
        this.startContainer(w, s.spec, s.prev, () => sandboxId, next, isRestartableInitContainer(s.spec) ? next : stop),
      );
    for (const s of a.toStart)
      steps.push((next) => this.startContainer(w, s.spec, s.prev, () => sandboxId, next));
    this.runChain(w, steps);
  }

  // runChain runs steps one after another; a deletion stops it between steps. A step calls next()
  // to go on or stop() to end the chain early (a failed sandbox).
  private runChain(w: PodWorker, steps: Step[]): void {
    w.busy = true;
    w.changed = false;
    w.retryAt = Infinity;
    let i = 0;
    let finished = false;
    const end = () => {
      if (finished) return;
      finished = true;
      w.busy = false;
      w.cancel = undefined;
      if (!this.host.alive() || this.workers.get(w.uid) !== w) return;
      const now = this.host.sim.now();
      if (w.again || w.removed || w.pod.metadata.deletionTimestamp) {
        w.again = false;
        this.schedule(w, now);
        return;
      }
      if (w.changed) this.schedule(w, this.host.relistTime());
      // Simplification: a back-off retry fires exactly when the back-off expires; upstream the worker
      // re-syncs 10-15s after a failed sync (backOffPeriod, jittered) and on PLEG events.
      if (w.retryAt < Infinity) this.schedule(w, Math.max(now, w.retryAt));
    };
    const next = () => {
      if (finished) return;
      if (w.removed || w.pod.metadata.deletionTimestamp || i >= steps.length) return end();
      steps[i++](next, end);
    };
    const cancel = () => {
      finished = true;
      w.busy = false;
      w.inPull = false;
      w.cancel = undefined;
    };
    w.cancel = cancel;
    next();
  }

  /**
   * startContainer mirrors kuberuntime's doBackOff + startContainer (pull, create, start); it calls
   * next when the container started and failed when it did not (next by default).
   */
  private startContainer(
    w: PodWorker,
    spec: Container,
    prev: CRIContainer | undefined,
    sandboxId: () => string,
    next: () => void,
    failed: () => void = next,
  ): void {
    const { runtime, name, sim } = this.host;
    const pod = w.pod;
    const uid = w.uid;
    const now = sim.now();
    // Every event below is about the container (kubecontainer.GenerateContainerRef).
    const ref = containerFieldPath(pod, spec.name);
    if (prev && prev.state === 'CONTAINER_EXITED') {
      const finished = prev.finishedAt ?? now;
      const cb = this.host.crashBackoff;
      if (cb.isInBackOffSince(uid, spec.name, finished, now)) {
        this.host.event(
          pod,
          'Warning',
          'BackOff',
          `Back-off restarting failed container ${spec.name} in pod ${formatPod(pod)}`,
          ref,
        );
        this.setReason(w, spec.name, {
          reason: CrashLoopBackOff,
          message: `back-off ${formatDuration(cb.get(uid, spec.name))} restarting failed container=${spec.name} pod=${formatPod(pod)}`,
        });
        w.retryAt = Math.min(w.retryAt, finished + cb.get(uid, spec.name));
        return failed();
      }
      cb.next(uid, spec.name, finished, now);
    }
    w.inPull = true;
    this.host.imageManager.ensureImageExists(
      pod,
      spec,
      this.host.guard((fail, _imageRef) => {
        w.inPull = false;
        if (fail) {
          this.host.event(pod, 'Warning', 'Failed', `Error: ${fail.reason}`, ref);
          this.setReason(w, spec.name, fail);
          if (fail.retryAt !== undefined) w.retryAt = Math.min(w.retryAt, fail.retryAt);
          return failed();
        }
        if (w.removed || w.pod.metadata.deletionTimestamp) return next();
        const logs = this.host.podLogs.get(uid)?.get(spec.name);
        const attempt = prev ? prev.metadata.attempt + 1 : logs !== undefined ? logs + 1 : 0;
        runtime.createContainer(
          name,
          sandboxId(),
          { name: spec.name, attempt, image: spec.image, command: spec.command, args: spec.args },
          this.host.guard((err, id) => {
            if (err) {
              this.host.event(pod, 'Warning', 'Failed', `Error: ${err}`, ref);
              this.setReason(w, spec.name, { reason: CreateContainerError, message: err });
              w.retryAt = Math.min(w.retryAt, sim.now() + backOffPeriod);
              return failed();
            }
            let logsByName = this.host.podLogs.get(uid);
            if (!logsByName) this.host.podLogs.set(uid, (logsByName = new Map()));
            logsByName.set(spec.name, attempt);
            w.changed = true;
            this.host.event(pod, 'Normal', 'Created', containerMessages(spec.name).created, ref);
            runtime.startContainer(
              name,
              id,
              this.host.guard((err2) => {
                if (err2) {
                  this.host.event(pod, 'Warning', 'Failed', `Error: ${err2}`, ref);
                  this.setReason(w, spec.name, { reason: RunContainerError, message: err2 });
                  return failed();
                }
                this.host.event(pod, 'Normal', 'Started', containerMessages(spec.name).started, ref);
                this.clearReason(w, spec.name);
                if (prev) this.host.pruneContainers(uid);
                next();
              }),
            );
          }),
        );
      }),
    );
  }

  /** killContainers mirrors killContainersWithSyncResult: stop in parallel, then continue. */
  private killContainers(
    w: PodWorker,
    list: { c: CRIContainer; message?: string }[],
    grace: number,
    next: () => void,
  ): void {
    let pending = list.length;
    if (!pending) return next();
    for (const { c, message } of list) {
      if (!w.orphan)
        this.host.event(
          w.pod,
          'Normal',
          'Killing',
          message ?? `Stopping container ${c.metadata.name}`,
          containerFieldPath(w.pod, c.metadata.name),
        );
      this.host.runtime.stopContainer(
        this.host.name,
        c.id,
        Math.max(grace, minimumGracePeriodInSeconds),
        this.host.guard(() => {
          w.changed = true;
          if (--pending === 0) next();
        }),
      );
    }
  }

  // ---- termination ----

  /**
   * terminate mirrors SyncTerminatingPod + SyncTerminatedPod: stop every running container with
   * the grace period (Killing events), stop the sandbox (CNI DEL), report the terminal status and
   * let the status manager delete the pod.
   */
  private terminate(w: PodWorker): void {
    if (w.phase === 'terminated') return;
    w.phase = 'terminating';
    if (w.busy) {
      w.again = true;
      return;
    }
    w.busy = true;
    const v = this.view(w.uid);
    const running = v.containers.filter((c) => c.state === 'CONTAINER_RUNNING').map((c) => ({ c }));
    // Orphans and force-deleted pods (gone without a graceful deletion) get the 2s minimum.
    const forced = w.removed && !w.pod.metadata.deletionTimestamp;
    const grace = w.orphan || forced ? minimumGracePeriodInSeconds : gracePeriod(w.pod);
    const stopSandboxes = () => {
      const ready = this.host.runtime
        .podSandboxes(w.uid)
        .filter((s) => s.state === 'SANDBOX_READY');
      let pending = ready.length;
      if (!pending) return done();
      for (const sb of ready)
        this.host.runtime.stopPodSandbox(
          this.host.name,
          sb.id,
          this.host.guard(() => {
            if (--pending === 0) done();
          }),
        );
    };
    const done = () => {
      w.busy = false;
      w.phase = 'terminated';
      if (!this.host.alive() || this.workers.get(w.uid) !== w) return;
      if (w.removed) return this.finish(w);
      this.updateStatus(w, true);
      this.host.statusManager.markCanBeDeleted(w.pod);
    };
    this.killContainers(w, running, grace, this.host.guard(stopSandboxes));
  }

  // finish forgets a pod that is gone from the API and whose containers have stopped.
  private finish(w: PodWorker): void {
    w.timer?.cancel();
    this.workers.delete(w.uid);
    this.reasonCache.delete(w.uid);
    this.host.crashBackoff.deletePod(w.uid);
    this.host.imageBackoff.deletePod(w.uid);
    this.host.podLogs.delete(w.uid);
    this.host.statusManager.removePod(w.uid);
    this.host.collectPod(w.uid);
  }
}

/** gracePeriod is the pod's deletion grace period, else its termination grace period. */
export function gracePeriod(pod: Pod): number {
  return pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
}

function specChanged(a: Pod, b: Pod): boolean {
  const x = a.spec.containers;
  const y = b.spec.containers;
  if (x.length !== y.length) return true;
  for (let i = 0; i < x.length; i++)
    if (x[i].image !== y[i].image || x[i].name !== y[i].name) return true;
  return false;
}

/**
 * isPodTerminal: a pod whose restart policy lets its containers stay stopped has finished when
 * every container has run and exited and none is to be restarted, or when one of its init
 * containers failed and the policy is Never (computeInitContainerActions' KillPod).
 */
function isPodTerminal(pod: Pod, v: PodView): boolean {
  if ((pod.spec.restartPolicy ?? 'Always') === 'Always') return false;
  if (pod.spec.restartPolicy === 'Never' && initFailed(pod, v)) return true;
  if (!pod.spec.containers.length) return false;
  for (const c of pod.spec.containers) {
    const latest = v.byName.get(c.name)?.[0];
    if (!latest || latest.state !== 'CONTAINER_EXITED' || shouldContainerBeRestarted(pod, latest))
      return false;
  }
  return true;
}

// initFailed says a regular init container's latest instance failed (isInitContainerFailed).
function initFailed(pod: Pod, v: PodView): boolean {
  for (const c of pod.spec.initContainers ?? []) {
    if (isRestartableInitContainer(c)) continue;
    const s = v.byName.get(c.name)?.[0];
    if (s && s.state === 'CONTAINER_EXITED' && s.exitCode !== 0) return true;
  }
  return false;
}

// exitedInstance is a container's latest instance if it has exited (what a restart counts from).
function exitedInstance(v: PodView, name: string): CRIContainer | undefined {
  const s = v.byName.get(name)?.[0];
  return s?.state === 'CONTAINER_EXITED' ? s : undefined;
}

/** computePodActions mirrors kuberuntime_manager.go computePodActions. */
function computePodActions(pod: Pod, v: PodView): PodActions | undefined {
  const latest = v.sandboxes.length ? v.sandboxes[v.sandboxes.length - 1] : undefined;
  const createSandbox = !latest || latest.state !== 'SANDBOX_READY';
  const inits = pod.spec.initContainers;
  // A pod whose containers all run as specified (most syncs) needs nothing: say so before
  // building the actions.
  if (!createSandbox && !inits?.length && upToDate(pod, v, latest.id)) return undefined;
  const a: PodActions = {
    createSandbox,
    attempt: latest ? latest.metadata.attempt + (createSandbox ? 1 : 0) : 0,
    sandboxId: createSandbox ? '' : latest.id,
    toKill: [],
    initToStart: [],
    toStart: [],
  };
  if (createSandbox) {
    // Everything starts again in a new sandbox; what still runs in an old one is killed first.
    for (const c of v.containers) if (c.state === 'CONTAINER_RUNNING') a.toKill.push({ c });
    // A pod with init containers starts over with the first of them.
    if (inits?.length) {
      a.initToStart.push({ spec: inits[0], prev: exitedInstance(v, inits[0].name) });
      return a;
    }
    for (const spec of pod.spec.containers) {
      const prev = v.byName.get(spec.name)?.[0];
      if (
        pod.spec.restartPolicy === 'OnFailure' &&
        prev?.state === 'CONTAINER_EXITED' &&
        prev.exitCode === 0
      )
        continue;
      a.toStart.push({ spec, prev: prev?.state === 'CONTAINER_EXITED' ? prev : undefined });
    }
    return a;
  }
  if (inits?.length) {
    const initialized = computeInitContainerActions(pod, v, a);
    // Until the pod is initialized the app containers wait.
    if (!initialized) return a.toKill.length || a.initToStart.length ? a : undefined;
  }
  for (const spec of pod.spec.containers) {
    const inst = v.byName.get(spec.name)?.[0];
    if (!inst) {
      a.toStart.push({ spec, prev: undefined });
      continue;
    }
    if (inst.state === 'CONTAINER_RUNNING') {
      if (inst.podSandboxId !== latest.id) {
        a.toKill.push({ c: inst });
        a.toStart.push({ spec, prev: inst });
      } else if (inst.image !== spec.image) {
        a.toKill.push({
          c: inst,
          message: `Container ${spec.name} definition changed, will be restarted`,
        });
        a.toStart.push({ spec, prev: inst });
      }
      continue;
    }
    if (shouldContainerBeRestarted(pod, inst)) a.toStart.push({ spec, prev: inst });
  }
  return a.toKill.length || a.initToStart.length || a.toStart.length ? a : undefined;
}

/**
 * computeInitContainerActions mirrors kuberuntime_container.go computeInitContainerActions (the
 * SidecarContainers version, without probes or resizing): walking the init containers from the
 * last, it finds the next one to start (or a failed one to restart), keeps sidecars running, and
 * says whether the pod has initialized. A failed regular init container of a pod that never
 * restarts is left to isPodTerminal (KillPod).
 */
function computeInitContainerActions(pod: Pod, v: PodView, a: PodActions): boolean {
  const inits = pod.spec.initContainers!;
  // An app container created or running means every init container ran at some point.
  let podHasInitialized = false;
  for (const c of pod.spec.containers) {
    const s = v.byName.get(c.name)?.[0];
    if (s && (s.state === 'CONTAINER_CREATED' || s.state === 'CONTAINER_RUNNING')) {
      podHasInitialized = true;
      break;
    }
  }
  let isPreviouslyInitialized = podHasInitialized;
  const restartOnFailure = pod.spec.restartPolicy !== 'Never';
  const toStart: number[] = [];
  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i];
    const s = v.byName.get(c.name)?.[0];
    const restartable = isRestartableInitContainer(c);
    if (!s) {
      if (isPreviouslyInitialized && restartable) toStart.push(i);
      continue;
    }
    if (isPreviouslyInitialized && !restartable) continue;
    if (s.state === 'CONTAINER_CREATED') toStart.push(i);
    else if (s.state === 'CONTAINER_RUNNING') {
      if (restartable) {
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!isPreviouslyInitialized) toStart.push(i + 1);
        if (s.image !== c.image) {
          a.toKill.push({ c: s, message: `Init container ${c.name} definition changed` });
          toStart.push(i);
        }
      }
    } else if (s.state === 'CONTAINER_EXITED') {
      if (restartable) toStart.push(i);
      else if (s.exitCode !== 0) {
        if (!restartOnFailure) {
          a.initToStart = [];
          return false;
        }
        toStart.push(i);
      } else if (i === inits.length - 1) podHasInitialized = true;
      else toStart.push(i + 1);
    } else {
      // An unknown state: kill it and start again (a regular one only if the pod restarts).
      if (!restartable && !restartOnFailure) {
        a.initToStart = [];
        return false;
      }
      a.toKill.push({ c: s, message: `Init container is in "unknown" state, try killing it before restart` });
      toStart.push(i);
    }
    isPreviouslyInitialized = true;
  }
  if (!isPreviouslyInitialized) toStart.push(0);
  for (let k = toStart.length - 1; k >= 0; k--) {
    const spec = inits[toStart[k]];
    a.initToStart.push({ spec, prev: exitedInstance(v, spec.name) });
  }
  return podHasInitialized;
}

// upToDate says computePodActions would find nothing to do in a ready sandbox: every container
// has an instance running in it with the spec's image, or one that is not to be restarted.
function upToDate(pod: Pod, v: PodView, sandboxId: string): boolean {
  for (const spec of pod.spec.containers) {
    const inst = v.byName.get(spec.name)?.[0];
    if (!inst) return false;
    if (inst.state === 'CONTAINER_RUNNING') {
      if (inst.podSandboxId !== sandboxId || inst.image !== spec.image) return false;
    } else if (shouldContainerBeRestarted(pod, inst)) return false;
  }
  return true;
}

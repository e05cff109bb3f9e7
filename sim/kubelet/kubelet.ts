// Mirrors pkg/kubelet/kubelet.go (NewMainKubelet, Run, syncLoop, HandlePodAdditions/Updates/
// Removes, HandlePodCleanups) as one node agent: it registers its Node, renews its Lease, posts
// node status, watches the pods bound to it (fieldSelector spec.nodeName=<node>) and drives each
// through the container runtime (CRI) and CNI, reporting pod status and events. Its client user is
// kubelet@<node>.
// The machine and the process are modelled apart: stop()/start() is the kubelet process (its
// containers keep running); nodeDown()/nodeUp() is the machine (containers and sandboxes vanish,
// images stay on disk, the boot ID changes).
// Static Pods: with a staticPodPath, the file source (config-file.ts) decides which of the node's
// mirror Pods run: a mirror Pod whose manifest is gone is stopped, and started again when the
// manifest is back, whether or not kube-apiserver answers (pkg/kubelet/kubelet.go
// HandlePodAdditions/HandlePodRemoves for the file source, handleMirrorPod).
// Simplification: mirror Pods are written by bootstrap, not by the kubelet, and the static Pod runs
// under its mirror Pod's UID; the kubelet never deletes or recreates a mirror Pod (upstream
// kubelet_pods.go deleteOrphanedMirrorPods, pod_workers.go), so one stays in the API, with its last
// status, while its manifest is away, and an update or deletion of a mirror Pod through the API
// does not touch the static Pod. The kubelet remembers the mirror Pods it has seen across restarts.
// Simplification: no volumes, probes, eviction manager, admission (the scheduler is trusted), image
// GC, cgroups or device plugins; pods the API binds to the node are run as they are. Events carry
// no fieldPath (spec.containers{name}).

import type { Node, Pod, Taint } from '../api/types.ts';
import type { Client } from '../client/client.ts';
import { EventRecorder } from '../client/events.ts';
import { Informer } from '../client/informer.ts';
import { parseTime } from '../engine/clock.ts';
import type { Rng } from '../engine/rng.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import type { ContainerRuntime, CRIContainer } from '../runtime/container-runtime.ts';
import { crictl, type CommandResult } from '../runtime/crictl.ts';
import { Backoff } from './backoff.ts';
import { FileSource, type ManifestReader } from './config-file.ts';
import { ImageManager, type ImageManagerHost } from './image-manager.ts';
import { NodeLeaseController } from './node-lease.ts';
import { NodeStatusManager } from './node-status.ts';
import { latestByName } from './pod-status.ts';
import { PodWorkers, type PodWorkersHost } from './pod-workers.ts';
import { StatusManager } from './status-manager.ts';

/** plegRelistPeriod is pkg/kubelet/kubelet.go genericPlegRelistPeriod. */
export const plegRelistPeriod = 1_000;
/** containerGCPeriod is pkg/kubelet/kubelet.go ContainerGCPeriod. */
export const containerGCPeriod = 60_000;

export interface KubeletOptions {
  nodeName: string;
  cpu: string | number;
  memory: string;
  /** pods is maxPods (capacity.pods). */
  pods: number;
  labels?: Record<string, string>;
  /** taints the kubelet registers with (--register-with-taints), e.g. control-plane NoSchedule. */
  taints?: Taint[];
  podCIDR: string;
  internalIP: string;
  /**
   * externalCloudProvider is --cloud-provider=external: the cloud-controller-manager sets the
   * Node's addresses, and the kubelet's are only the first ones (see NodeInfoOptions).
   */
  externalCloudProvider?: boolean;
  /** images present on the node's disk at boot. */
  images?: string[];
  kubeletVersion?: string;
  osImage?: string;
  kernelVersion?: string;
  ephemeralStorage?: string;
  runtime: ContainerRuntime;
  /** recordEvents: false drops the kubelet's Events (for large benchmarks). Default true. */
  recordEvents?: boolean;
  /** staticPodPath is the static Pod directory (kubeadm: /etc/kubernetes/manifests), read from files. */
  staticPodPath?: string;
  files?: ManifestReader;
}

/** isMirrorPod mirrors pkg/kubelet/types IsMirrorPod: the kubernetes.io/config.mirror annotation. */
export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined;
}

export interface KubeletStartOptions {
  /**
   * preRunning: the node has been up for a while (cluster bootstrap at t=0): register Ready at
   * once, no startup events, no runtime relist in the trace, and random phases for the loops.
   */
  preRunning?: boolean;
}

/** Kubelet is the node agent of one node. */
export class Kubelet implements PodWorkersHost, ImageManagerHost {
  static readonly NAME = 'kubelet';
  readonly sim: Simulation;
  readonly client: Client;
  /** name is the trace identity and client user, "kubelet@<node>". */
  readonly name: string;
  readonly nodeName: string;
  readonly runtime: ContainerRuntime;
  readonly hostIP: string;
  readonly podLogs = new Map<string, Map<string, number>>();
  crashBackoff: Backoff;
  imageBackoff: Backoff;
  statusManager: StatusManager;
  imageManager: ImageManager;
  podWorkers: PodWorkers;
  readonly nodeStatus: NodeStatusManager;
  readonly nodeLease: NodeLeaseController;
  private readonly informer: Informer<Pod>;
  /**
   * nodeInformer is NewMainKubelet's node informer (pkg/kubelet/kubelet.go): a watch of the
   * kubelet's own Node (fieldSelector metadata.name=<node>) behind its nodeLister, which the
   * status loop reads spec.unschedulable from.
   */
  private readonly nodeInformer: Informer<Node>;
  /** recorder is remade at every process start: the event correlator's memory is per process. */
  private recorder: EventRecorder | undefined;
  /** nodeRef is the object node events are about (made at the first one). */
  private nodeRef: Node | undefined;
  private readonly recordEvents: boolean;
  private readonly rng: Rng;
  private running = false;
  private epoch = 0;
  private relistPhase = 0;
  private gcPhase = 0;
  private gcTimer: TimerHandle | undefined;
  private orphanTimer: TimerHandle | undefined;
  private readonly gcPods = new Set<string>();
  private readonly prunePods = new Set<string>();
  private readonly pendingAdopted = new Set<string>();
  private readonly fileSource: FileSource | undefined;
  /** staticPods are the keys the file source last read; undefined without a staticPodPath. */
  private staticPods: Set<string> | undefined;
  /** mirrorPods are the mirror Pods seen, by namespace/name, as the static Pods to run. */
  private readonly mirrorPods = new Map<string, Pod>();

  constructor(sim: Simulation, client: Client, opts: KubeletOptions) {
    this.sim = sim;
    this.client = client;
    this.nodeName = opts.nodeName;
    this.name = `${Kubelet.NAME}@${opts.nodeName}`;
    this.runtime = opts.runtime;
    this.hostIP = opts.internalIP;
    if (!this.runtime.internalIP) this.runtime.internalIP = opts.internalIP;
    this.rng = sim.rng.fork(this.name);
    if (opts.images?.length) this.runtime.preloadImages(opts.images);
    this.recordEvents = opts.recordEvents !== false;
    const s = sim.settings;
    this.crashBackoff = new Backoff(s.backOffInitial, s.backOffMax);
    this.imageBackoff = new Backoff(s.backOffInitial, s.backOffMax);
    this.nodeInformer = new Informer<Node>(client, 'nodes', {
      fieldSelector: { 'metadata.name': opts.nodeName },
    });
    this.informer = new Informer<Pod>(client, 'pods', {
      fieldSelector: { 'spec.nodeName': opts.nodeName },
    });
    this.informer.addEventHandler({
      onAdd: (p) => {
        if (this.admit(p)) this.podWorkers.updatePod(p);
      },
      onUpdate: (_old, p) => {
        if (!this.admit(p)) return;
        this.podWorkers.updatePod(p);
        this.statusManager.onPodUpdate(p);
      },
      onDelete: (p) => {
        if (!this.staticPods || !isMirrorPod(p)) this.podWorkers.removePod(p);
      },
    });
    if (opts.staticPodPath && opts.files)
      this.fileSource = new FileSource(sim, this.name, opts.files, opts.staticPodPath, opts.nodeName, (keys) => this.setStaticPods(keys));
    this.statusManager = new StatusManager(sim, client, this.informer);
    this.imageManager = new ImageManager(this, this.imageBackoff);
    this.podWorkers = new PodWorkers(this);
    this.nodeStatus = new NodeStatusManager(
      sim,
      client,
      this.rng,
      this.runtime,
      {
        nodeName: opts.nodeName,
        cpu: opts.cpu,
        memory: opts.memory,
        pods: opts.pods,
        ephemeralStorage: opts.ephemeralStorage,
        labels: opts.labels,
        taints: opts.taints,
        podCIDR: opts.podCIDR,
        internalIP: opts.internalIP,
        externalCloudProvider: opts.externalCloudProvider,
        kubeletVersion: opts.kubeletVersion ?? 'v1.34.1',
        osImage: opts.osImage ?? 'Debian GNU/Linux 12 (bookworm)',
        kernelVersion: opts.kernelVersion ?? '6.1.0-40-amd64',
      },
      (type, reason, message) => this.nodeEvent(type, reason, message),
      this.nodeInformer,
    );
    this.nodeLease = new NodeLeaseController(sim, client, this.rng, {
      nodeName: opts.nodeName,
      leaseDurationSeconds: s.nodeLeaseDurationSeconds,
      renewInterval: s.nodeLeaseRenewInterval,
      node: () => this.nodeStatus.node,
    });
  }

  /** isRunning says whether the kubelet process is up. */
  get isRunning(): boolean {
    return this.running;
  }

  /** node is the Node object as the kubelet last wrote or read it. */
  get node(): Node | undefined {
    return this.nodeStatus.node;
  }

  // ---- process lifecycle ----

  /**
   * start is the kubelet process starting (Run): register or update the Node, relist the runtime,
   * watch the node's pods, start the lease and status loops; afterwards, stop runtime pods the API
   * no longer has. Everything in memory starts empty: back-offs, status cache, pod workers.
   */
  start(opts: KubeletStartOptions = {}): void {
    if (this.running) return;
    if (!this.runtime.running) this.runtime.powerOn();
    const pre = !!opts.preRunning;
    this.recorder = this.recordEvents
      ? new EventRecorder(this.client, Kubelet.NAME, this.nodeName)
      : undefined;
    this.running = true;
    this.epoch++;
    const s = this.sim.settings;
    this.crashBackoff = new Backoff(s.backOffInitial, s.backOffMax);
    this.imageBackoff = new Backoff(s.backOffInitial, s.backOffMax);
    this.statusManager = new StatusManager(this.sim, this.client, this.informer);
    this.imageManager = new ImageManager(this, this.imageBackoff);
    this.podWorkers = new PodWorkers(this);
    for (const uid of this.pendingAdopted) this.podWorkers.markAdopted(uid);
    this.pendingAdopted.clear();
    const epoch = this.epoch;
    const onExit = (c: CRIContainer) => {
      if (epoch === this.epoch) this.podWorkers.onContainerExit(c);
    };
    this.runtime.onContainerExit = onExit;
    this.relistPhase = this.sim.now() + this.rng.intn(plegRelistPeriod);
    this.gcPhase = this.sim.now() + this.rng.intn(containerGCPeriod);
    if (!pre) this.nodeEvent('Normal', 'Starting', 'Starting kubelet.');
    // NewMainKubelet starts the node informer before Run registers the Node.
    this.nodeInformer.start();
    this.nodeStatus.start(pre);
    if (!pre) {
      this.nodeEvent(
        'Normal',
        'NodeAllocatableEnforced',
        'Updated Node Allocatable limit across pods',
      );
      this.runtime.listPodSandbox(this.name);
      this.runtime.listContainers(this.name);
    }
    if (this.fileSource) {
      // The file source reads the directory at once, and the static Pods start from their files
      // even if kube-apiserver does not answer (it may be one of them).
      this.staticPods = this.fileSource.start();
      for (const key of this.staticPods) {
        const pod = this.mirrorPods.get(key);
        if (pod) this.podWorkers.updatePod(pod);
      }
    }
    // Simplification: the pod source starts without waiting for the node informer to sync
    // (upstream's NewSourceApiserver polls nodeHasSynced every second first).
    this.informer.start();
    this.nodeLease.start(pre ? this.rng.intn(s.nodeLeaseRenewInterval) : 0);
    this.scheduleOrphanCheck(0);
  }

  /**
   * stop is the kubelet process exiting (the kubelet-stop fault): watches and timers stop and all
   * in-memory state is lost; containers keep running under containerd.
   */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.epoch++;
    this.informer.stop();
    this.nodeInformer.stop();
    this.fileSource?.stop();
    this.nodeLease.stop();
    this.nodeStatus.stop();
    this.statusManager.stop();
    this.podWorkers.stop();
    this.gcTimer?.cancel();
    this.gcTimer = undefined;
    this.orphanTimer?.cancel();
    this.orphanTimer = undefined;
    this.gcPods.clear();
    this.prunePods.clear();
    this.runtime.onContainerExit = undefined;
  }

  /**
   * nodeDown is the machine stopping (the node-down fault): the kubelet stops and containerd's
   * containers, sandboxes and pod IPs are gone. Reachability of kube-apiserver is the caller's
   * business (KubeAPIServer.unreachable), as for every component on the node.
   */
  nodeDown(): void {
    this.stop();
    this.runtime.powerOff();
  }

  /**
   * nodeUp is a fresh boot (the node-up fault): an empty runtime with the images still on disk, a
   * new boot ID, and a kubelet that re-registers, restarts the pods still bound here (new
   * sandboxes, restartCount + 1) and finalizes those being deleted.
   */
  nodeUp(opts: KubeletStartOptions = {}): void {
    this.runtime.powerOn();
    this.start(opts);
  }

  /**
   * restoreMachine makes this kubelet and its runtime the machine a stored Node describes (a node
   * restored from the born image, sim/cluster/cluster.ts): the same machine, system and boot IDs.
   */
  restoreMachine(node: Node): void {
    const info = node.status?.nodeInfo;
    if (!info) return;
    this.nodeStatus.keepIdentity(info);
    this.runtime.bootID = info.bootID;
  }

  /**
   * adoptRunning registers a pod as already running in the runtime (bootstrap objects created with
   * status Running): a ready sandbox keeping status.podIP and running containers keeping their
   * restart counts, with no trace entries. Call it before start() or at the same instant.
   */
  adoptRunning(pod: Pod): void {
    const cs = pod.status?.containerStatuses ?? [];
    const time = (t: string | undefined) => {
      const v = t ? parseTime(t) : NaN;
      return Number.isNaN(v) ? undefined : v;
    };
    const logs = new Map<string, number>();
    this.runtime.adopt(
      {
        name: pod.metadata.name,
        namespace: pod.metadata.namespace ?? 'default',
        uid: pod.metadata.uid,
        attempt: 0,
        hostNetwork: !!pod.spec.hostNetwork,
        ip: pod.status?.podIP,
        startedAt: time(pod.status?.startTime),
      },
      pod.spec.containers.map((c) => {
        const st = cs.find((x) => x.name === c.name);
        const attempt = st?.restartCount ?? 0;
        logs.set(c.name, attempt);
        return {
          name: c.name,
          attempt,
          image: c.image,
          command: c.command,
          args: c.args,
          id: st?.containerID?.replace(/^containerd:\/\//, ''),
          startedAt: time(st?.state.running?.startedAt) ?? time(pod.status?.startTime),
        };
      }),
    );
    this.podLogs.set(pod.metadata.uid, logs);
    if (this.running) this.podWorkers.markAdopted(pod.metadata.uid);
    else this.pendingAdopted.add(pod.metadata.uid);
  }

  // ---- static Pods ----

  /**
   * admit says whether a Pod from the API goes to the pod workers. A mirror Pod stands for a
   * static Pod: it runs only while its manifest is in staticPodPath, and changes made to it
   * through the API (a deletion) do not reach the static Pod.
   */
  private admit(pod: Pod): boolean {
    if (!this.staticPods || !isMirrorPod(pod)) return true;
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (pod.metadata.deletionTimestamp) return false;
    this.mirrorPods.set(key, pod);
    return this.staticPods.has(key);
  }

  /**
   * setStaticPods takes a file source SET: stop the static Pods whose manifest went away and start
   * those whose manifest appeared, without asking kube-apiserver.
   * Simplification: a static Pod whose manifest went away is stopped like a Pod gone from the API,
   * with the 2 s minimum grace period (upstream: its terminationGracePeriodSeconds, 30 s unless set).
   */
  private setStaticPods(keys: Set<string>): void {
    const before = this.staticPods ?? new Set<string>();
    this.staticPods = keys;
    if (!this.running) return;
    for (const key of before)
      if (!keys.has(key)) {
        const pod = this.mirrorPods.get(key);
        if (pod) this.podWorkers.removePod(pod);
      }
    // Level-triggered: a static Pod whose worker finished while its manifest was away (or that
    // the API never delivered since the kubelet started) is started from the file's Pod.
    for (const key of keys) {
      const pod = this.mirrorPods.get(key);
      if (pod && (!before.has(key) || !this.podWorkers.has(pod.metadata.uid))) this.podWorkers.updatePod(pod);
    }
  }

  /** crictl runs `crictl <args>` on this node. */
  crictl(args: string[]): CommandResult {
    return crictl(this.runtime, args, this.sim.now());
  }

  // ---- host services for the pod workers and the image manager ----

  alive(): boolean {
    return this.running;
  }

  /** guard drops a callback if the kubelet process restarted since it was made. */
  guard<A extends unknown[]>(fn: (...a: A) => void): (...a: A) => void {
    const epoch = this.epoch;
    // Guarded callbacks take at most two arguments (a CRI Done's err and result): passing them by
    // name spares a rest array and a spread on every runtime answer.
    const call = fn as unknown as (a: unknown, b: unknown) => void;
    return ((a: unknown, b: unknown) => {
      if (epoch === this.epoch && this.running) call(a, b);
    }) as unknown as (...a: A) => void;
  }

  /** event records an Event about a pod, or one of its containers (fieldPath), source kubelet, host = node. */
  event(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string, fieldPath?: string): void {
    this.recorder?.event(pod, type, reason, message, fieldPath);
  }

  // nodeEvent records an Event about the Node (upstream's nodeRef has UID = node name).
  private nodeEvent(type: 'Normal' | 'Warning', reason: string, message: string): void {
    if (!this.recorder) return;
    // The reference never changes (the recorder only reads it), so it is made once.
    this.nodeRef ??= {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: this.nodeName, uid: this.nodeName, namespace: '' },
    } as unknown as Node;
    this.recorder.event(this.nodeRef, type, reason, message);
  }

  relistTime(): number {
    const p = this.relistPhase;
    return p + (Math.floor((this.sim.now() - p) / plegRelistPeriod) + 1) * plegRelistPeriod;
  }

  // ---- housekeeping: orphans and container GC ----

  // scheduleOrphanCheck runs HandlePodCleanups once the pod informer has listed.
  private scheduleOrphanCheck(delay: number): void {
    this.orphanTimer?.cancel();
    this.orphanTimer = this.sim.after(delay, `${this.name}: housekeeping`, () => {
      this.orphanTimer = undefined;
      if (!this.running) return;
      if (!this.informer.hasSynced) return this.scheduleOrphanCheck(plegRelistPeriod);
      this.podWorkers.killOrphans();
    });
  }

  collectPod(uid: string): void {
    this.gcPods.add(uid);
    this.ensureGC();
  }

  pruneContainers(uid: string): void {
    this.prunePods.add(uid);
    this.ensureGC();
  }

  private ensureGC(): void {
    if (this.gcTimer || !this.running) return;
    const p = this.gcPhase;
    const at = p + (Math.floor((this.sim.now() - p) / containerGCPeriod) + 1) * containerGCPeriod;
    this.gcTimer = this.sim.at(at, `${this.name}: container GC`, () => this.garbageCollect());
  }

  /**
   * garbageCollect mirrors kuberuntime_gc.go: remove the sandboxes (and containers) of deleted
   * pods, keep one dead instance per container (MaxPerPodContainer = 1), and drop old empty
   * NotReady sandboxes.
   */
  private garbageCollect(): void {
    this.gcTimer = undefined;
    if (!this.running) return;
    const noop = () => {};
    for (const uid of this.gcPods) {
      if (this.podWorkers.has(uid)) continue;
      for (const sb of this.runtime.podSandboxes(uid))
        this.runtime.removePodSandbox(this.name, sb.id, noop);
    }
    this.gcPods.clear();
    for (const uid of this.prunePods) {
      if (!this.podWorkers.has(uid)) continue;
      for (const list of latestByName(this.runtime.podContainers(uid)).values()) {
        let keptDead = false;
        for (const c of list) {
          if (c.state !== 'CONTAINER_EXITED') continue;
          if (!keptDead) keptDead = true;
          else this.runtime.removeContainer(this.name, c.id, noop);
        }
      }
      const sbs = this.runtime.podSandboxes(uid);
      for (let i = 0; i < sbs.length - 1; i++)
        if (
          sbs[i].state === 'SANDBOX_NOTREADY' &&
          this.runtime.sandboxContainers(sbs[i].id).length === 0
        )
          this.runtime.removePodSandbox(this.name, sbs[i].id, noop);
    }
    this.prunePods.clear();
  }
}

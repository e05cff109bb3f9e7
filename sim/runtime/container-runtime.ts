// Mirrors the Container Runtime Interface (staging/src/k8s.io/cri-api/pkg/apis/runtime/v1/api.proto)
// as containerd 2.x implements it: RuntimeService (RunPodSandbox, StopPodSandbox, RemovePodSandbox,
// CreateContainer, StartContainer, StopContainer, RemoveContainer, ListPodSandbox, ListContainers)
// and ImageService (ImageStatus, PullImage, ListImages). Every RPC the kubelet makes is a `call`
// trace entry from kubelet@<node> to container-runtime@<node>, and takes virtual time: the method
// answers through a callback after its modelled duration.
// Simplification: no shims, cgroups, mounts or logs; a container's process is an ExitPlan (see
// images.ts). Reading runtime state for pod status (PodSandboxStatus, ContainerStatus) is free and
// untraced; only the kubelet's startup relist records ListPodSandbox/ListContainers.

import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import type { Rng } from '../engine/rng.ts';
import { CNIError, CNIPlugin, type IPAMMode } from './cni.ts';
import {
  exitPlan,
  ImageCatalog,
  imageID,
  normalizeImage,
  PAUSE_IMAGE,
  repoDigest,
  type ExitPlan,
} from './images.ts';

export type ContainerState =
  'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
export type PodSandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';

/** PodSandboxMetadata mirrors runtimeapi.PodSandboxMetadata. */
export interface PodSandboxMetadata {
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
}

/** PodSandboxConfig is what RunPodSandbox receives (the fields the simulator uses). */
export interface PodSandboxConfig extends PodSandboxMetadata {
  /** hostNetwork sandboxes share the node's network: no CNI call, the pod IP is the node IP. */
  hostNetwork?: boolean;
}

/** PodSandbox mirrors runtimeapi.PodSandbox plus the IP from PodSandboxStatus. Read-only. */
export interface PodSandbox {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  /** createdAt is virtual ms (CRI reports nanoseconds). */
  createdAt: number;
  ip: string;
  hostNetwork: boolean;
  runtimeHandler: string;
}

/** ContainerConfig is what CreateContainer receives. */
export interface ContainerConfig {
  name: string;
  /** attempt is the restart count (ContainerMetadata.attempt). */
  attempt: number;
  /** image is the image as the user wrote it (ImageSpec.user_specified_image). */
  image: string;
  command?: string[];
  args?: string[];
}

/** CRIContainer mirrors runtimeapi.Container plus ContainerStatus fields. Read-only. */
export interface CRIContainer {
  id: string;
  podSandboxId: string;
  metadata: { name: string; attempt: number };
  /** image is the user-specified image; imageRef is the image ID ("sha256:..."). */
  image: string;
  imageRef: string;
  state: ContainerState;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  /** reason is containerd's: "Completed" for exit 0, "Error" otherwise. */
  reason?: string;
  /** labels kept for crictl: io.kubernetes.pod.{name,namespace,uid}. */
  podName: string;
  podNamespace: string;
  podUid: string;
}

interface ContainerRecord extends CRIContainer {
  plan: ExitPlan;
  exitTimer?: TimerHandle;
  stopWaiters?: (() => void)[];
}

/** ImageRecord is one image in the node's content store. */
export interface ImageRecord {
  /** id is the config digest, "sha256:...". */
  id: string;
  /** repoTags like "docker.io/library/nginx:1.27"; repoDigests like "...@sha256:...". */
  repoTags: string[];
  repoDigests: string[];
  size: number;
}

/** Done is how a CRI call answers: err is the gRPC error text, or undefined on success. */
export type Done<T> = (err: string | undefined, result: T) => void;

export interface ContainerRuntimeOptions {
  nodeName: string;
  /** cni is the node's CNI plugin; without one, a plugin is made for podCIDR. */
  cni?: CNIPlugin;
  podCIDR?: string;
  /** internalIP is the node's address, used as the pod IP of hostNetwork sandboxes. */
  internalIP?: string;
  /** images is the image catalogue (sizes, pull failures, crashes); shared by all nodes. */
  images?: ImageCatalog;
  /** preloaded images are on disk at boot (the pause image always is). */
  preloaded?: string[];
  /** version is reported as nodeInfo.containerRuntimeVersion. */
  version?: string;
  ipam?: IPAMMode;
}

/** Modelled durations (ms) not covered by Settings. Simplification: constants. */
export const StopPodSandboxLatency = 100;
export const RemoveLatency = 20;

// newID's digits: the char codes of 0-9a-f, and a scratch array for the 64 of one ID.
const hexCodes = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const idCodes: number[] = new Array<number>(64).fill(0);

// noContainers is the container list of a sandbox that has none yet.
const noContainers: readonly CRIContainer[] = [];

/** ContainerRuntime is one node's containerd, with its CNI plugin. */
export class ContainerRuntime {
  static readonly NAME = 'container-runtime';
  /** name is the trace identity, "container-runtime@<node>". */
  readonly name: string;
  readonly nodeName: string;
  readonly version: string;
  readonly cni: CNIPlugin;
  readonly catalog: ImageCatalog;
  internalIP: string;
  /** running is false while the machine is powered off; calls then fail. */
  running = true;
  /** bootID changes on every power-on (nodeInfo.bootID). */
  bootID: string;
  /** imagesVersion changes whenever an image is added (node status reports the image list). */
  imagesVersion = 0;
  /** onContainerExit is the kubelet's PLEG stand-in: called when a container's process ends. */
  onContainerExit: ((c: CRIContainer) => void) | undefined;
  /**
   * onStateChange is told after a container starts or stops running and after the machine powers
   * off or on (the cluster watches the control plane's static Pods with it).
   */
  onStateChange: (() => void) | undefined;
  private readonly sim: Simulation;
  private readonly rng: Rng;
  private epoch = 0;
  private readonly sandboxes = new Map<string, PodSandbox>();
  private readonly sandboxesByPod = new Map<string, PodSandbox[]>();
  private readonly containers = new Map<string, ContainerRecord>();
  private readonly containersBySandbox = new Map<string, ContainerRecord[]>();
  private readonly images = new Map<string, ImageRecord>();

  constructor(sim: Simulation, opts: ContainerRuntimeOptions) {
    this.sim = sim;
    this.nodeName = opts.nodeName;
    this.name = `${ContainerRuntime.NAME}@${opts.nodeName}`;
    this.version = opts.version ?? 'containerd://2.1.4';
    this.rng = sim.rng.fork(this.name);
    this.catalog = opts.images ?? new ImageCatalog();
    this.internalIP = opts.internalIP ?? '';
    if (!opts.cni && !opts.podCIDR)
      throw new Error(`${this.name}: a cni plugin or a podCIDR is required`);
    this.cni =
      opts.cni ??
      new CNIPlugin(sim, { nodeName: opts.nodeName, podCIDR: opts.podCIDR!, ipam: opts.ipam });
    this.bootID = this.newUUID();
    this.preloadImages([PAUSE_IMAGE, ...(opts.preloaded ?? [])]);
  }

  // ---- identity helpers ----

  /** newID returns a 64-hex-character container or sandbox ID (two draws, widened by splitmix32). */
  private newID(): string {
    let a = this.rng.next();
    const b = this.rng.next();
    for (let i = 0; i < 8; i++) {
      a = (a + 0x9e3779b9 + b) | 0;
      let t = Math.imul(a ^ (a >>> 16), 0x21f0aaad);
      t = Math.imul(t ^ (t >>> 15), 0x735a2d97);
      t ^= t >>> 15;
      // Eight hex digits per word, most significant first (as toString(16).padStart(8, '0')).
      for (let d = 0; d < 8; d++) idCodes[i * 8 + d] = hexCodes[(t >>> (28 - 4 * d)) & 15];
    }
    // One flat string, instead of 24 intermediate ones.
    return String.fromCharCode.apply(null, idCodes);
  }

  private newUUID(): string {
    const h = this.newID();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  // call records a CRI call. Callers check traced() first, so that the fields are not even built
  // when the trace level drops the entry (scale runs make millions).
  private call(
    caller: string,
    method: string,
    f: { pod?: string; container?: string; image?: string; result?: string },
  ): void {
    this.sim.record({ kind: 'call', from: caller, to: this.name, method, ...f });
  }

  private traced(): boolean {
    return this.sim.records('call');
  }

  // later runs fn after ms unless the machine powered off meanwhile.
  private later(ms: number, what: string, fn: () => void): TimerHandle {
    const epoch = this.epoch;
    return this.sim.after(ms, `${this.name}: ${what}`, () => {
      if (epoch === this.epoch) fn();
    });
  }

  private unavailable<T>(done: Done<T>, empty: T): void {
    done(
      `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory"`,
      empty,
    );
  }

  // ---- ImageService ----

  /** preloadImages puts images on disk without pulling (node image, bootstrap). */
  preloadImages(images: string[]): void {
    for (const i of images) this.storeImage(i);
  }

  private storeImage(image: string): ImageRecord {
    const ref = normalizeImage(image);
    const id = imageID(image);
    let rec = this.images.get(id);
    if (!rec) {
      rec = {
        id,
        repoTags: [],
        repoDigests: [repoDigest(image)],
        size: this.catalog.lookup(image).sizeBytes,
      };
      this.images.set(id, rec);
    }
    if (!rec.repoTags.includes(ref.full)) {
      rec.repoTags.push(ref.full);
      this.imagesVersion++;
    }
    return rec;
  }

  /** imageStatus is CRI ImageStatus: the image record, or undefined when absent. */
  imageStatus(caller: string | undefined, image: string, pod?: string): ImageRecord | undefined {
    const rec = this.images.get(imageID(image));
    if (caller && this.traced())
      this.call(caller, 'ImageStatus', { pod, image, result: rec ? rec.id : 'not found' });
    return rec;
  }

  /** listImages is CRI ListImages, sorted by repo tag. */
  listImages(): ImageRecord[] {
    return [...this.images.values()].sort((a, b) =>
      (a.repoTags[0] ?? a.id).localeCompare(b.repoTags[0] ?? b.id),
    );
  }

  /** pullDuration is how long PullImage takes for image right now. */
  pullDuration(image: string): number {
    const s = this.sim.settings;
    if (this.images.has(imageID(image)) || this.catalog.pullError(image))
      return s.imagePullBaseLatency;
    return (
      s.imagePullBaseLatency +
      Math.round((this.catalog.lookup(image).sizeBytes / s.imagePullBytesPerSecond) * 1000)
    );
  }

  /**
   * pullImage is CRI PullImage: resolve the reference, fetch the layers and unpack them.
   * Simplification: a present image still costs one registry round trip (imagePullBaseLatency);
   * an absent one adds size / imagePullBytesPerSecond.
   */
  pullImage(
    caller: string,
    image: string,
    done: Done<{ imageRef: string; size: number; durationMs: number }>,
    pod?: string,
  ): void {
    const empty = { imageRef: '', size: 0, durationMs: 0 };
    if (!this.running) return this.unavailable(done, empty);
    const err = this.catalog.pullError(image);
    const ms = this.pullDuration(image);
    if (this.traced())
      this.call(caller, 'PullImage', { pod, image, result: err ?? imageID(image) });
    this.later(ms, `PullImage ${image}`, () => {
      if (err) return done(err, empty);
      const rec = this.storeImage(image);
      done(undefined, { imageRef: rec.id, size: rec.size, durationMs: ms });
    });
  }

  // ---- RuntimeService: sandboxes ----

  /**
   * runPodSandbox is CRI RunPodSandbox: create the pause container and its network namespace, and
   * call CNI ADD for an IP (hostNetwork sandboxes use the node's IP). Takes sandboxStartLatency,
   * plus a pull of the pause image if it is missing.
   */
  runPodSandbox(caller: string, config: PodSandboxConfig, done: Done<string>): void {
    if (!this.running) return this.unavailable(done, '');
    const pod = `${config.namespace}/${config.name}`;
    const id = this.newID();
    if (this.traced()) this.call(caller, 'RunPodSandbox', { pod, result: id });
    let ms = this.sim.settings.sandboxStartLatency;
    if (!this.images.has(imageID(PAUSE_IMAGE))) {
      ms += this.pullDuration(PAUSE_IMAGE);
      this.storeImage(PAUSE_IMAGE);
    }
    let ip = this.internalIP;
    if (!config.hostNetwork) {
      try {
        ip = this.cni.add(this.name, id, pod);
      } catch (e) {
        const msg = e instanceof CNIError ? e.message : String(e);
        this.later(ms, `RunPodSandbox ${pod}`, () =>
          done(
            `rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": ${msg}`,
            '',
          ),
        );
        return;
      }
    }
    this.later(ms, `RunPodSandbox ${pod}`, () => {
      const sb: PodSandbox = {
        id,
        metadata: {
          name: config.name,
          namespace: config.namespace,
          uid: config.uid,
          attempt: config.attempt,
        },
        state: 'SANDBOX_READY',
        createdAt: this.sim.now(),
        ip,
        hostNetwork: !!config.hostNetwork,
        runtimeHandler: '',
      };
      this.addSandbox(sb);
      done(undefined, id);
    });
  }

  // addSandbox files a new sandbox. A pod's first sandbox starts a list of one, and a sandbox's
  // container list is started by its first container (addContainer): pushing onto an empty array
  // reserves room for 16 more, which every pod would keep for its whole life.
  private addSandbox(sb: PodSandbox): void {
    this.sandboxes.set(sb.id, sb);
    const list = this.sandboxesByPod.get(sb.metadata.uid);
    if (list) list.push(sb);
    else this.sandboxesByPod.set(sb.metadata.uid, [sb]);
  }

  private addContainer(c: ContainerRecord): void {
    this.containers.set(c.id, c);
    const list = this.containersBySandbox.get(c.podSandboxId);
    if (list) list.push(c);
    else this.containersBySandbox.set(c.podSandboxId, [c]);
  }

  /**
   * stopPodSandbox is CRI StopPodSandbox: kill any container still running in it (SIGKILL), then
   * CNI DEL. The sandbox stays, NotReady, until RemovePodSandbox.
   */
  stopPodSandbox(caller: string, id: string, done: Done<void>): void {
    if (!this.running) return this.unavailable(done, undefined);
    const sb = this.sandboxes.get(id);
    const pod = sb ? `${sb.metadata.namespace}/${sb.metadata.name}` : undefined;
    if (this.traced()) this.call(caller, 'StopPodSandbox', { pod });
    this.later(StopPodSandboxLatency, `StopPodSandbox ${pod}`, () => {
      if (sb) this.stopSandboxNow(sb);
      done(undefined, undefined);
    });
  }

  private stopSandboxNow(sb: PodSandbox): void {
    for (const c of this.containersBySandbox.get(sb.id) ?? [])
      if (c.state === 'CONTAINER_RUNNING') this.exitNow(c, 137, false);
    if (sb.state === 'SANDBOX_READY' && !sb.hostNetwork)
      this.cni.del(this.name, sb.id, `${sb.metadata.namespace}/${sb.metadata.name}`);
    sb.state = 'SANDBOX_NOTREADY';
  }

  /** removePodSandbox is CRI RemovePodSandbox: stop if needed, then delete it and its containers. */
  removePodSandbox(caller: string, id: string, done: Done<void>): void {
    if (!this.running) return this.unavailable(done, undefined);
    const sb = this.sandboxes.get(id);
    const pod = sb ? `${sb.metadata.namespace}/${sb.metadata.name}` : undefined;
    if (this.traced()) this.call(caller, 'RemovePodSandbox', { pod });
    this.later(RemoveLatency, `RemovePodSandbox ${pod}`, () => {
      if (sb && this.sandboxes.has(id)) {
        this.stopSandboxNow(sb);
        for (const c of this.containersBySandbox.get(id) ?? []) this.containers.delete(c.id);
        this.containersBySandbox.delete(id);
        this.sandboxes.delete(id);
        const list = (this.sandboxesByPod.get(sb.metadata.uid) ?? []).filter((s) => s.id !== id);
        if (list.length) this.sandboxesByPod.set(sb.metadata.uid, list);
        else this.sandboxesByPod.delete(sb.metadata.uid);
      }
      done(undefined, undefined);
    });
  }

  // ---- RuntimeService: containers ----

  /** createContainer is CRI CreateContainer (half of containerStartLatency). */
  createContainer(
    caller: string,
    podSandboxId: string,
    config: ContainerConfig,
    done: Done<string>,
  ): void {
    if (!this.running) return this.unavailable(done, '');
    const sb = this.sandboxes.get(podSandboxId);
    const pod = sb ? `${sb.metadata.namespace}/${sb.metadata.name}` : undefined;
    const id = this.newID();
    if (this.traced())
      this.call(caller, 'CreateContainer', {
        pod,
        container: config.name,
        image: config.image,
        result: id,
      });
    const ms = Math.round(this.sim.settings.containerStartLatency / 2);
    this.later(ms, `CreateContainer ${pod} ${config.name}`, () => {
      if (!sb || sb.state !== 'SANDBOX_READY' || !this.sandboxes.has(podSandboxId))
        return done(
          `rpc error: code = NotFound desc = failed to get sandbox "${podSandboxId}": not found`,
          '',
        );
      const rec = this.images.get(imageID(config.image));
      if (!rec)
        return done(
          `rpc error: code = NotFound desc = failed to get image "${config.image}": not found`,
          '',
        );
      const c: ContainerRecord = {
        id,
        podSandboxId,
        metadata: { name: config.name, attempt: config.attempt },
        image: config.image,
        imageRef: rec.id,
        state: 'CONTAINER_CREATED',
        createdAt: this.sim.now(),
        podName: sb.metadata.name,
        podNamespace: sb.metadata.namespace,
        podUid: sb.metadata.uid,
        plan: exitPlan(this.catalog.lookup(config.image), config.command, config.args),
      };
      this.addContainer(c);
      done(undefined, id);
    });
  }

  /** startContainer is CRI StartContainer (the other half of containerStartLatency). */
  startContainer(caller: string, id: string, done: Done<void>): void {
    if (!this.running) return this.unavailable(done, undefined);
    const c = this.containers.get(id);
    if (this.traced())
      this.call(caller, 'StartContainer', {
        pod: c ? `${c.podNamespace}/${c.podName}` : undefined,
        container: c?.metadata.name,
      });
    const s = this.sim.settings.containerStartLatency;
    this.later(s - Math.round(s / 2), `StartContainer ${id.slice(0, 13)}`, () => {
      if (!c || !this.containers.has(id))
        return done(
          `rpc error: code = NotFound desc = an error occurred when try to find container "${id}": not found`,
          undefined,
        );
      if (c.state !== 'CONTAINER_CREATED')
        return done(
          `rpc error: code = Unknown desc = container "${id}" is not in created state`,
          undefined,
        );
      if (this.sandboxes.get(c.podSandboxId)?.state !== 'SANDBOX_READY')
        return done(
          `rpc error: code = Unknown desc = failed to start containerd task "${id}": sandbox container "${c.podSandboxId}" is not running`,
          undefined,
        );
      c.state = 'CONTAINER_RUNNING';
      c.startedAt = this.sim.now();
      this.scheduleExit(c);
      this.onStateChange?.();
      done(undefined, undefined);
    });
  }

  private scheduleExit(c: ContainerRecord): void {
    const after = c.plan.afterMs;
    if (after === undefined) return;
    c.exitTimer = this.later(after, `exit ${c.podNamespace}/${c.podName} ${c.metadata.name}`, () =>
      this.exitNow(c, c.plan.exitCode, true),
    );
  }

  // exitNow ends a running container's process and tells the kubelet (PLEG).
  private exitNow(c: ContainerRecord, exitCode: number, notify: boolean): void {
    if (c.state !== 'CONTAINER_RUNNING') return;
    c.exitTimer?.cancel();
    c.exitTimer = undefined;
    c.state = 'CONTAINER_EXITED';
    c.exitCode = exitCode;
    c.reason = exitCode === 0 ? 'Completed' : 'Error';
    c.finishedAt = this.sim.now();
    const waiters = c.stopWaiters;
    c.stopWaiters = undefined;
    for (const w of waiters ?? []) w();
    this.onStateChange?.();
    if (notify) this.onContainerExit?.(c);
  }

  /**
   * stopContainer is CRI StopContainer(timeout): send the stop signal; a process that handles it
   * exits after containerStopLatency with code 0; one that ignores it (a shell or sleep as PID 1)
   * is killed when the timeout expires (exit 137). A zero timeout kills at once.
   */
  stopContainer(caller: string, id: string, timeoutSeconds: number, done: Done<void>): void {
    if (!this.running) return this.unavailable(done, undefined);
    const c = this.containers.get(id);
    if (this.traced())
      this.call(caller, 'StopContainer', {
        pod: c ? `${c.podNamespace}/${c.podName}` : undefined,
        container: c?.metadata.name,
        result: `timeout=${timeoutSeconds}s`,
      });
    if (!c || c.state !== 'CONTAINER_RUNNING') {
      this.later(0, `StopContainer ${id.slice(0, 13)}`, () => done(undefined, undefined));
      return;
    }
    const epoch = this.epoch;
    (c.stopWaiters ??= []).push(() => {
      if (epoch === this.epoch)
        this.later(0, `StopContainer ${id.slice(0, 13)} done`, () => done(undefined, undefined));
    });
    if (c.stopWaiters.length > 1) return;
    const timeoutMs = Math.max(0, timeoutSeconds * 1000);
    const graceful = !c.plan.ignoresSigterm && this.sim.settings.containerStopLatency <= timeoutMs;
    const ms = graceful ? this.sim.settings.containerStopLatency : timeoutMs;
    this.later(ms, `stop ${c.podNamespace}/${c.podName} ${c.metadata.name}`, () =>
      this.exitNow(c, graceful ? 0 : 137, false),
    );
  }

  /** removeContainer is CRI RemoveContainer (a running container is killed first). */
  removeContainer(caller: string, id: string, done: Done<void>): void {
    if (!this.running) return this.unavailable(done, undefined);
    const c = this.containers.get(id);
    if (this.traced())
      this.call(caller, 'RemoveContainer', {
        pod: c ? `${c.podNamespace}/${c.podName}` : undefined,
        container: c?.metadata.name,
      });
    this.later(RemoveLatency, `RemoveContainer ${id.slice(0, 13)}`, () => {
      if (c && this.containers.has(id)) {
        this.exitNow(c, 137, false);
        this.containers.delete(id);
        const list = this.containersBySandbox.get(c.podSandboxId);
        if (list) {
          const i = list.indexOf(c);
          if (i >= 0) list.splice(i, 1);
        }
      }
      done(undefined, undefined);
    });
  }

  // ---- listing (CRI ListPodSandbox / ListContainers) ----

  /** listPodSandbox is CRI ListPodSandbox; a caller makes it a traced RPC. */
  listPodSandbox(caller?: string): PodSandbox[] {
    if (caller && this.traced())
      this.call(caller, 'ListPodSandbox', { result: `${this.sandboxes.size} sandboxes` });
    return [...this.sandboxes.values()];
  }

  /** listContainers is CRI ListContainers; a caller makes it a traced RPC. */
  listContainers(caller?: string): CRIContainer[] {
    if (caller && this.traced())
      this.call(caller, 'ListContainers', { result: `${this.containers.size} containers` });
    return [...this.containers.values()];
  }

  /** podSandboxes returns a pod's sandboxes, oldest first (untraced status read). */
  podSandboxes(podUid: string): readonly PodSandbox[] {
    return this.sandboxesByPod.get(podUid) ?? [];
  }

  /** sandboxContainers returns a sandbox's containers, oldest first (untraced status read). */
  sandboxContainers(sandboxId: string): readonly CRIContainer[] {
    return this.containersBySandbox.get(sandboxId) ?? noContainers;
  }

  /** podContainers returns every container of a pod across its sandboxes, oldest first. */
  podContainers(podUid: string): readonly CRIContainer[] {
    const sandboxes = this.podSandboxes(podUid);
    // Most pods have one sandbox: its own list is the answer (read-only, like podSandboxes'),
    // instead of a copy made on every pod sync.
    if (sandboxes.length === 1) return this.sandboxContainers(sandboxes[0].id);
    const out: CRIContainer[] = [];
    for (const sb of sandboxes) {
      const list = this.containersBySandbox.get(sb.id);
      if (list) for (const c of list) out.push(c);
    }
    return out;
  }

  /** getContainer returns one container by ID. */
  getContainer(id: string): CRIContainer | undefined {
    return this.containers.get(id);
  }

  /** knownPodUIDs lists the pods that have at least one sandbox. */
  knownPodUIDs(): string[] {
    return [...this.sandboxesByPod.keys()];
  }

  // ---- bootstrap and machine lifecycle ----

  /**
   * adopt records a pod that is already running (cluster bootstrap): a ready sandbox with the given
   * IP and running containers, with no trace entries and no elapsed time.
   */
  adopt(
    config: PodSandboxConfig & { ip?: string; startedAt?: number },
    containers: (ContainerConfig & { id?: string; startedAt?: number })[],
  ): PodSandbox {
    const id = this.newID();
    let ip = config.hostNetwork ? this.internalIP : (config.ip ?? '');
    if (!config.hostNetwork && !(ip && this.cni.reserve(id, ip)))
      ip = this.cni.add(this.name, id, `${config.namespace}/${config.name}`);
    const now = this.sim.now();
    const sb: PodSandbox = {
      id,
      metadata: {
        name: config.name,
        namespace: config.namespace,
        uid: config.uid,
        attempt: config.attempt,
      },
      state: 'SANDBOX_READY',
      createdAt: Math.min(config.startedAt ?? now, now),
      ip,
      hostNetwork: !!config.hostNetwork,
      runtimeHandler: '',
    };
    this.addSandbox(sb);
    for (const cc of containers) {
      this.storeImage(cc.image);
      const started = Math.min(cc.startedAt ?? sb.createdAt, now);
      const c: ContainerRecord = {
        id: cc.id && /^[0-9a-f]{64}$/.test(cc.id) ? cc.id : this.newID(),
        podSandboxId: id,
        metadata: { name: cc.name, attempt: cc.attempt },
        image: cc.image,
        imageRef: imageID(cc.image),
        state: 'CONTAINER_RUNNING',
        createdAt: started,
        startedAt: started,
        podName: config.name,
        podNamespace: config.namespace,
        podUid: config.uid,
        plan: exitPlan(this.catalog.lookup(cc.image), cc.command, cc.args),
      };
      this.addContainer(c);
      this.scheduleExit(c);
    }
    return sb;
  }

  /**
   * powerOff models the machine stopping: every process dies, containerd's sandboxes and
   * containers are gone and the IPAM state is reset; images stay on disk.
   * Simplification: containerd keeps exited records on disk across a reboot; here they vanish.
   */
  powerOff(): void {
    this.epoch++;
    for (const c of this.containers.values()) c.exitTimer?.cancel();
    this.containers.clear();
    this.containersBySandbox.clear();
    this.sandboxes.clear();
    this.sandboxesByPod.clear();
    this.cni.reset();
    this.running = false;
    this.onStateChange?.();
  }

  /** powerOn boots the machine: containerd starts empty, with a new boot ID. */
  powerOn(): void {
    if (this.running) return;
    this.epoch++;
    this.running = true;
    this.bootID = this.newUUID();
    this.onStateChange?.();
  }
}

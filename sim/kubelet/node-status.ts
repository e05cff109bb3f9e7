// Mirrors pkg/kubelet/kubelet_node_status.go (registerWithAPIServer, initialNode, syncNodeStatus,
// tryUpdateNodeStatus) and pkg/kubelet/nodestatus/setters.go (MemoryPressureCondition,
// DiskPressureCondition, PIDPressureCondition, ReadyCondition, NodeAddress, MachineInfo, Images,
// VersionInfo): the kubelet registers its Node, then every nodeStatusUpdateFrequency (jittered 4%)
// computes the status and patches nodes/status when it changed or when nodeStatusReportFrequency
// has passed since the last report. Setters record the node events (NodeHasSufficientMemory...,
// NodeReady, Rebooted, and NodeNotSchedulable / NodeSchedulable when the node informer's Node
// changes spec.unschedulable).
// Simplification: the status is computed from the Node of the kubelet's own last write, not from
// the node informer's copy (upstream's tryUpdateNodeStatus reads the nodeLister; here the informer
// is read for spec.unschedulable only); it GETs the Node again only after it could not reach
// kube-apiserver, so conditions the node lifecycle controller set meanwhile (Unknown) are seen and
// corrected.
// Simplification: registration uses the podCIDR the node IPAM controller would assign.

import { deepEqual } from '../api/clone.ts';
import type {
  ContainerImage,
  Node,
  NodeCondition,
  NodeStatus,
  NodeSystemInfo,
  Taint,
} from '../api/types.ts';
import {
  canonicalQuantity,
  formatQuantity,
  parseQuantity,
  type QuantityFormat,
} from '../api/quantity.ts';
import { isAlreadyExists } from '../apiserver/errors.ts';
import { createTwoWayMergePatch, StrategicMergePatchType } from '../apiserver/patch.ts';
import type { Client } from '../client/client.ts';
import type { Lister } from '../client/informer.ts';
import { formatTime } from '../engine/clock.ts';
import type { Rng } from '../engine/rng.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import type { ContainerRuntime } from '../runtime/container-runtime.ts';

/** nodeStatusMaxImages is the kubelet default (--node-status-max-images). */
const nodeStatusMaxImages = 50;
/** statusJitter is the JitterUntil factor of the status loop. */
const statusJitter = 0.04;
/** Simplification: the container runtime reports ready this long after the kubelet starts. */
export const runtimeReadyDelay = 1_000;
/**
 * Simplification: the eviction-hard defaults memory.available<100Mi and nodefs.available<10% are
 * the only reservations (no system-reserved or kube-reserved).
 */
const evictionHardMemoryKi = 100 * 1024;
/** nodeFsAvailablePercentage is nodefs.available<10% as the kubelet parses it (a float32). */
const nodeFsAvailablePercentage = 0.1;

export interface NodeInfoOptions {
  nodeName: string;
  /** cpu and memory are the node's allocatable cpu and memory, as a scenario declares them. */
  cpu: string | number;
  memory: string;
  pods: number;
  ephemeralStorage?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  podCIDR: string;
  internalIP: string;
  /**
   * externalCloudProvider mirrors the NodeAddress setter with --cloud-provider=external
   * (pkg/kubelet/nodestatus/setters.go): addresses already on the Node are the cloud's and are
   * kept; a Node without any gets the --node-ip ones, which the cloud-controller-manager replaces.
   * Simplification: the alpha.kubernetes.io/provided-node-ip annotation is not set.
   */
  externalCloudProvider?: boolean;
  kubeletVersion: string;
  osImage: string;
  kernelVersion: string;
}

export type NodeEventFn = (type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** A condition the setters want: type, status, reason, message and the event of a transition. */
type WantedCondition = readonly [string, 'True' | 'False', string, string, string];

const pressureConditions: readonly WantedCondition[] = [
  [
    'MemoryPressure',
    'False',
    'KubeletHasSufficientMemory',
    'kubelet has sufficient memory available',
    'NodeHasSufficientMemory',
  ],
  [
    'DiskPressure',
    'False',
    'KubeletHasNoDiskPressure',
    'kubelet has no disk pressure',
    'NodeHasNoDiskPressure',
  ],
  [
    'PIDPressure',
    'False',
    'KubeletHasSufficientPID',
    'kubelet has sufficient PID available',
    'NodeHasSufficientPID',
  ],
];

/** wantReady and wantNotReady are the conditions computeStatus sets, by runtime readiness. */
const wantReady: readonly WantedCondition[] = [
  ...pressureConditions,
  ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', 'NodeReady'],
];
const wantNotReady: readonly WantedCondition[] = [
  ...pressureConditions,
  [
    'Ready',
    'False',
    'KubeletNotReady',
    'container runtime status check may not have completed yet',
    'NodeNotReady',
  ],
];

/** NodeStatusManager registers the Node and keeps its status current. */
export class NodeStatusManager {
  /** node is the Node as the kubelet last wrote or read it. */
  node: Node | undefined;
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly rng: Rng;
  private readonly opts: NodeInfoOptions;
  private readonly runtime: ContainerRuntime;
  private readonly event: NodeEventFn;
  private machineID: string;
  private systemUUID: string;
  /**
   * capacity and allocatable depend only on the options, so they are made once; every computed
   * status shares them (nothing writes to a computed status).
   */
  private readonly capacity: Record<string, string>;
  private readonly allocatable: Record<string, string>;
  /** statusWhat names the status loop's timer; statusTick is its callback (made once). */
  private readonly statusWhat: string;
  private readonly statusTick: () => void;
  /** imageList is the Images setter's list for the runtime's imageListVersion. */
  private imageList: ContainerImage[] = [];
  private imageListVersion = -1;
  private timer: TimerHandle | undefined;
  private stopped = true;
  private registered = false;
  private needsRefresh = true;
  // What the last computed status depended on (keyValid false: nothing computed since a reset).
  private keyValid = false;
  private lastReady = false;
  private lastImagesVersion = 0;
  private lastBootID = '';
  private lastReport = -Infinity;
  private readySince = 0;
  private registerSleep = 100;
  /** nodeLister is the kubelet's node informer cache (its own Node only). */
  private readonly nodeLister: Lister<Node> | undefined;
  /** lastNodeUnschedulable is Kubelet.lastNodeUnschedulable: the spec.unschedulable last seen. */
  private lastNodeUnschedulable = false;

  constructor(
    sim: Simulation,
    client: Client,
    rng: Rng,
    runtime: ContainerRuntime,
    opts: NodeInfoOptions,
    event: NodeEventFn,
    nodeLister?: Lister<Node>,
  ) {
    this.sim = sim;
    this.client = client;
    this.rng = rng;
    this.runtime = runtime;
    this.opts = opts;
    this.event = event;
    this.nodeLister = nodeLister;
    const hex = (n: number) => {
      let s = '';
      while (s.length < n) s += this.rng.next().toString(16).padStart(8, '0');
      return s.slice(0, n);
    };
    this.machineID = hex(32);
    const u = hex(32);
    this.systemUUID = `${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 20)}-${u.slice(20)}`;
    // The MachineInfo setter: cpu is NewMilliQuantity(cores*1000, DecimalSI), memory and
    // ephemeral-storage NewQuantity(bytes, BinarySI), pods NewQuantity(maxPods, DecimalSI); each
    // is encoded in canonical form ("8Gi", "100Gi", "4", "110"). Allocatable is capacity minus the
    // hard eviction thresholds (Quantity.Sub keeps capacity's format): memory.available<100Mi and
    // nodefs.available<10%, the latter as int64(float64(capacity) * float64(float32(0.1))).
    // A scenario declares a node's allocatable cpu and memory (what Pods can request), so the
    // machine's memory is that plus the 100Mi eviction threshold.
    const memory =
      BigInt(Math.floor(parseQuantity(opts.memory) ?? 0)) + BigInt(evictionHardMemoryKi) * 1024n;
    const storage = BigInt(Math.floor(parseQuantity(opts.ephemeralStorage ?? '100Gi') ?? 0));
    const storageReserved = BigInt(
      Math.trunc(Number(storage) * Math.fround(nodeFsAvailablePercentage)),
    );
    const milliCPU = BigInt(Math.ceil(Math.round((parseQuantity(opts.cpu) ?? 0) * 1e6) / 1e3));
    const positive = (v: bigint) => (v < 0n ? 0n : v);
    // What kube-apiserver stores: it decodes the text again (ParseQuantity), so a BinarySI value
    // written without a suffix reads as DecimalSI ("96636764000" is stored as "96636764k").
    const stored = (v: bigint, scale: number, format: QuantityFormat) => {
      const text = formatQuantity(v, scale, format);
      return canonicalQuantity(text) ?? text;
    };
    this.capacity = {
      cpu: stored(milliCPU, -3, 'DecimalSI'),
      'ephemeral-storage': stored(storage, 0, 'BinarySI'),
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: stored(memory, 0, 'BinarySI'),
      pods: stored(BigInt(opts.pods), 0, 'DecimalSI'),
    };
    this.allocatable = {
      ...this.capacity,
      'ephemeral-storage': stored(positive(storage - storageReserved), 0, 'BinarySI'),
      memory: stored(positive(memory - BigInt(evictionHardMemoryKi) * 1024n), 0, 'BinarySI'),
    };
    this.statusWhat = `${client.user}: node status`;
    const tick = () => {
      this.timer = undefined;
      if (!this.stopped) this.syncNodeStatus();
    };
    this.statusTick = tick;
  }

  /** keepIdentity takes the machine's IDs from its Node (a node restored from the born image). */
  keepIdentity(info: NodeSystemInfo): void {
    this.machineID = info.machineID;
    this.systemUUID = info.systemUUID;
  }

  /**
   * start registers the Node (retrying with back-off) and starts the status loop. A fresh boot
   * registers NotReady and turns Ready once the runtime is up; preRunning registers Ready at once.
   * The loop's first tick comes after a random phase in [0, nodeStatusUpdateFrequency).
   */
  start(preRunning: boolean): void {
    this.stopped = false;
    this.registered = false;
    this.needsRefresh = true;
    this.lastReport = -Infinity;
    this.keyValid = false;
    this.readySince = preRunning ? this.sim.now() : this.sim.now() + runtimeReadyDelay;
    this.registerSleep = 100;
    this.lastNodeUnschedulable = false;
    this.registerWithAPIServer(preRunning);
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private get ready(): boolean {
    return this.sim.now() >= this.readySince;
  }

  private schedule(delay: number, what: string, fn: () => void): void {
    this.timer?.cancel();
    this.timer = this.sim.after(delay, `${this.client.user}: ${what}`, () => {
      this.timer = undefined;
      if (!this.stopped) fn();
    });
  }

  private interval(): number {
    return Math.round(
      this.sim.settings.nodeStatusUpdateFrequency * (1 + statusJitter * this.rng.float()),
    );
  }

  // registerWithAPIServer mirrors the kubelet's registration loop (100ms doubling to 7s).
  private registerWithAPIServer(preRunning: boolean): void {
    const node = this.initialNode(preRunning);
    if (this.tryRegister(node)) {
      this.registered = true;
      const phase = this.rng.intn(this.sim.settings.nodeStatusUpdateFrequency);
      // A fresh kubelet reports Ready as soon as the runtime is up (fastStatusUpdateOnce).
      const first = preRunning ? phase : runtimeReadyDelay;
      this.schedule(first, 'node status', () => this.syncNodeStatus(true));
      return;
    }
    this.registerSleep = Math.min(this.registerSleep * 2, 7_000);
    this.schedule(this.registerSleep, 'register node', () =>
      this.registerWithAPIServer(preRunning),
    );
  }

  private tryRegister(node: Node): boolean {
    if (!this.client.reachable()) return false;
    try {
      this.node = this.client.create<Node>('nodes', node);
      this.lastReport = this.sim.now();
      this.needsRefresh = false;
      return true;
    } catch (e) {
      if (!isAlreadyExists(e)) return false;
    }
    try {
      this.node = this.client.get<Node>('nodes', undefined, this.opts.nodeName);
      this.needsRefresh = false;
      return true;
    } catch {
      return false;
    }
  }

  /** initialNode mirrors kubelet_node_status.go initialNode plus the first run of the setters. */
  initialNode(preRunning: boolean): Node {
    const o = this.opts;
    const labels: Record<string, string> = {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': o.nodeName,
      'kubernetes.io/os': 'linux',
      ...(o.labels ?? {}),
    };
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: o.nodeName,
        labels,
        annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
      },
      spec: {
        podCIDR: o.podCIDR,
        podCIDRs: [o.podCIDR],
        ...(o.taints?.length ? { taints: o.taints.map((t) => ({ ...t })) } : {}),
      },
      status: {},
    } as unknown as Node;
    node.status = this.computeStatus(undefined, !preRunning, preRunning);
    return node;
  }

  /** nodeInfo mirrors the MachineInfo and VersionInfo setters. */
  nodeInfo(): NodeSystemInfo {
    // kubeProxyVersion is no longer reported (DisableNodeKubeProxyVersion), so it is omitted.
    return {
      machineID: this.machineID,
      systemUUID: this.systemUUID,
      bootID: this.runtime.bootID,
      kernelVersion: this.opts.kernelVersion,
      osImage: this.opts.osImage,
      containerRuntimeVersion: this.runtime.version,
      kubeletVersion: this.opts.kubeletVersion,
      operatingSystem: 'linux',
      architecture: 'amd64',
    } as NodeSystemInfo;
  }

  // images is the Images setter. The list changes only when the runtime adds an image, so it is
  // built once per imagesVersion (statuses share it; nothing writes to a computed status).
  private images(): ContainerImage[] {
    if (this.imageListVersion !== this.runtime.imagesVersion) {
      this.imageList = this.runtime
        .listImages()
        .map((i) => ({ names: [...i.repoDigests, ...i.repoTags], sizeBytes: i.size }))
        .sort((a, b) => b.sizeBytes - a.sizeBytes)
        .slice(0, nodeStatusMaxImages);
      this.imageListVersion = this.runtime.imagesVersion;
    }
    return this.imageList;
  }

  /**
   * computeStatus runs the setters against the previous status: conditions keep their
   * lastTransitionTime unless their status changes; heartbeats are now. Events are recorded for
   * transitions when recordEvents is set.
   */
  computeStatus(
    prev: NodeStatus | undefined,
    recordEvents: boolean,
    readyNow = this.ready,
  ): NodeStatus {
    const o = this.opts;
    const now = formatTime(this.sim.now());
    const { capacity, allocatable } = this;
    const want = readyNow ? wantReady : wantNotReady;
    const conditions: NodeCondition[] = [];
    for (const [type, status, reason, message, eventReason] of want) {
      const old = conditionOfType(prev?.conditions, type);
      const changed = !old || old.status !== status;
      conditions.push({
        type,
        status,
        lastHeartbeatTime: now,
        lastTransitionTime: changed ? now : old.lastTransitionTime,
        reason,
        message,
      });
      // The Ready setter records only transitions of an existing condition; the others also the first.
      if (recordEvents && changed && (type !== 'Ready' || old))
        this.event('Normal', eventReason, `Node ${o.nodeName} status is now: ${eventReason}`);
    }
    return {
      capacity,
      allocatable,
      conditions,
      addresses:
        o.externalCloudProvider && prev?.addresses?.length
          ? prev.addresses
          : [
              { type: 'InternalIP', address: o.internalIP },
              { type: 'Hostname', address: o.nodeName },
            ],
      nodeInfo: this.nodeInfo(),
      images: this.images(),
    };
  }

  /** syncNodeStatus mirrors kubelet.syncNodeStatus → updateNodeStatus → tryUpdateNodeStatus. */
  syncNodeStatus(first = false): void {
    this.timer?.cancel();
    this.timer = this.sim.after(
      first && this.readySince > this.sim.now()
        ? this.readySince - this.sim.now()
        : this.interval(),
      this.statusWhat,
      this.statusTick,
    );
    if (!this.registered) return;
    if (!this.client.reachable()) {
      this.needsRefresh = true;
      return;
    }
    try {
      if (this.needsRefresh || !this.node) {
        this.node = this.client.get<Node>('nodes', undefined, this.opts.nodeName);
        this.needsRefresh = false;
        this.keyValid = false;
      }
      // Nothing the setters read has changed and no report is due: skip the computation.
      const ready = this.ready;
      const imagesVersion = this.runtime.imagesVersion;
      const bootID = this.runtime.bootID;
      const reportDue =
        this.sim.now() - this.lastReport >= this.sim.settings.nodeStatusReportFrequency;
      const sameKey =
        this.keyValid &&
        ready === this.lastReady &&
        imagesVersion === this.lastImagesVersion &&
        bootID === this.lastBootID;
      if (sameKey && !reportDue) return this.recordNodeSchedulableEvent();
      const prev = this.node.status;
      const oldBoot = prev?.nodeInfo?.bootID;
      const next = this.computeStatus(prev, true);
      if (oldBoot && oldBoot !== next.nodeInfo?.bootID)
        this.event(
          'Warning',
          'Rebooted',
          `Node ${this.opts.nodeName} has been rebooted, boot id: ${next.nodeInfo?.bootID}`,
        );
      this.recordNodeSchedulableEvent();
      const changed = nodeStatusHasChanged(prev, next);
      if (!changed && !reportDue) {
        this.setKey(ready, imagesVersion, bootID);
        return;
      }
      const patch = nodeStatusPatch(prev, next);
      if (!patch) return;
      this.node = this.client.patch<Node>(
        'nodes',
        undefined,
        this.opts.nodeName,
        { status: patch },
        'status',
        StrategicMergePatchType,
      );
      this.lastReport = this.sim.now();
      this.setKey(ready, imagesVersion, bootID);
    } catch {
      this.needsRefresh = true;
    }
  }

  /**
   * recordNodeSchedulableEvent mirrors the last of the kubelet's node status setters
   * (kubelet_node_status.go recordNodeSchedulableEvent): when the Node's spec.unschedulable
   * differs from the last seen, record NodeNotSchedulable or NodeSchedulable. The Node is the
   * node informer's (tryUpdateNodeStatus reads it from the nodeLister), or the kubelet's own last
   * write while the informer has none.
   */
  private recordNodeSchedulableEvent(): void {
    const node = this.nodeLister?.get(undefined, this.opts.nodeName) ?? this.node;
    const unschedulable = !!node?.spec.unschedulable;
    if (unschedulable === this.lastNodeUnschedulable) return;
    const reason = unschedulable ? 'NodeNotSchedulable' : 'NodeSchedulable';
    this.event('Normal', reason, `Node ${this.opts.nodeName} status is now: ${reason}`);
    this.lastNodeUnschedulable = unschedulable;
  }

  private setKey(ready: boolean, imagesVersion: number, bootID: string): void {
    this.keyValid = true;
    this.lastReady = ready;
    this.lastImagesVersion = imagesVersion;
    this.lastBootID = bootID;
  }
}

/**
 * nodeStatusPatch is the status part of the patch nodeutil.PatchNodeStatus (pkg/util/node/node.go)
 * sends to nodes/status as a strategic merge patch: strategicpatch.CreateTwoWayMergePatch from the
 * old status to the new, conditions patched by type. Addresses are tagged patchStrategy merge by
 * mistake, so when they change upstream replaces them whole (fixupPatchForNodeStatusAddresses: the
 * new list and a $patch: replace element, no $setElementOrder). Undefined when nothing changed.
 */
export function nodeStatusPatch(
  from: NodeStatus | undefined,
  to: NodeStatus,
): Record<string, unknown> | undefined {
  const patch = createTwoWayMergePatch(from, to, ['status']);
  if (from?.addresses?.length && !deepEqual(from.addresses, to.addresses)) {
    delete patch['$setElementOrder/addresses'];
    patch.addresses = [...(to.addresses ?? []), { $patch: 'replace' }];
  }
  return Object.keys(patch).length ? patch : undefined;
}

// conditionOfType is the first condition of that type (a loop: no closure per lookup).
function conditionOfType(
  conds: readonly NodeCondition[] | undefined,
  type: string,
): NodeCondition | undefined {
  if (conds) for (const c of conds) if (c.type === type) return c;
  return undefined;
}

/** nodeStatusHasChanged mirrors the kubelet's check: any difference but heartbeat times. */
export function nodeStatusHasChanged(a: NodeStatus | undefined, b: NodeStatus): boolean {
  const strip = (s: NodeStatus | undefined) => ({
    ...(s ?? {}),
    conditions: (s?.conditions ?? []).map((c) => ({ ...c, lastHeartbeatTime: undefined })),
  });
  return !deepEqual(strip(a), strip(b));
}

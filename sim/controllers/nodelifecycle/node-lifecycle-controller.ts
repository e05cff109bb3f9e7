// Mirrors pkg/controller/nodelifecycle/node_lifecycle_controller.go (see "Simplification:" notes):
// monitorNodeHealth turns a node whose kubelet stopped posting status and renewing its Lease into
// Ready=Unknown, taints not-ready and unreachable nodes NoExecute through a rate-limited per-zone
// queue (doNoExecuteTaintingPass), keeps the NoSchedule condition taints in step
// (doNoScheduleTaintingPass) and marks the Pods of a node that stopped being Ready as not Ready.
// Simplification: the beta/GA os and arch label reconciliation (reconcileNodeLabels) and the
// DaemonSet informer are not modelled.

import { deepClone } from '../../api/clone.ts';
import { getNodeCondition } from '../../api/podutil.ts';
import type {
  KubeObject,
  Lease,
  Node,
  NodeCondition,
  NodeStatus,
  Pod,
  Taint,
} from '../../api/types.ts';
import { isNotFound, StatusError } from '../../apiserver/errors.ts';
import type { Client } from '../../client/client.ts';
import { EventRecorder } from '../../client/events.ts';
import { PodNodeNameKeyIndex, podNodeNameIndexFunc } from '../controller-utils.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../../client/keys.ts';
import { RateLimitingQueue } from '../../client/workqueue.ts';
import { formatTime, parseTime, timeBefore } from '../../engine/clock.ts';
import type { Simulation, TimerHandle } from '../../engine/simulation.ts';
import {
  NodeEvictionPeriod,
  RateLimitedTimedQueue,
  TokenBucketRateLimiter,
  type TimedValue,
} from './rate-limited-queue.ts';
import {
  removeTaintOffNode,
  swapNodeControllerTaint,
  taintExists,
  TaintNodeDiskPressure,
  TaintNodeMemoryPressure,
  TaintNodeNetworkUnavailable,
  TaintNodeNotReady,
  TaintNodePIDPressure,
  TaintNodeUnreachable,
  TaintNodeUnschedulable,
  taintSetDiff,
} from './taints.ts';

/** UnreachableTaintTemplate is the NoExecute taint for a node whose Ready condition is Unknown. */
export const UnreachableTaintTemplate: Taint = { key: TaintNodeUnreachable, effect: 'NoExecute' };
/** NotReadyTaintTemplate is the NoExecute taint for a node whose Ready condition is False. */
export const NotReadyTaintTemplate: Taint = { key: TaintNodeNotReady, effect: 'NoExecute' };
/** noExecuteTaints are both, in the order markNodeAsReachable removes them. */
const noExecuteTaints: readonly Taint[] = [UnreachableTaintTemplate, NotReadyTaintTemplate];

/** nodeConditionToTaintKeyStatusMap: which condition status gives which NoSchedule taint key. */
const nodeConditionToTaintKeyStatusMap: Record<string, Partial<Record<string, string>>> = {
  Ready: { False: TaintNodeNotReady, Unknown: TaintNodeUnreachable },
  MemoryPressure: { True: TaintNodeMemoryPressure },
  DiskPressure: { True: TaintNodeDiskPressure },
  NetworkUnavailable: { True: TaintNodeNetworkUnavailable },
  PIDPressure: { True: TaintNodePIDPressure },
};

/** taintKeyToNodeConditionMap: the taint keys the NoSchedule pass owns. */
const taintKeyToNodeConditionMap: Record<string, string> = {
  [TaintNodeNotReady]: 'Ready',
  [TaintNodeUnreachable]: 'Ready',
  [TaintNodeNetworkUnavailable]: 'NetworkUnavailable',
  [TaintNodeMemoryPressure]: 'MemoryPressure',
  [TaintNodeDiskPressure]: 'DiskPressure',
  [TaintNodePIDPressure]: 'PIDPressure',
};

/** ZoneState is the disruption state of one zone. */
export type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

/** NodeHealthUpdateRetry is how often monitorNodeHealth retries a failed status update. */
const NodeHealthUpdateRetry = 5;
/** nodeNameKeyIndex is the pod indexer upstream adds. */
export const nodeNameKeyIndex = PodNodeNameKeyIndex;
/** labelNodeDisruptionExclusion excludes a node from the zone disruption computation. */
const labelNodeDisruptionExclusion = 'node.kubernetes.io/exclude-disruption';
/** NamespaceNodeLease holds the kubelets' Leases. */
const NamespaceNodeLease = 'kube-node-lease';

/** NodeLifecycleOptions are the kube-controller-manager flags not kept in Settings. */
export interface NodeLifecycleOptions {
  /** --node-eviction-rate (0.1 nodes per second per zone). */
  evictionLimiterQPS?: number;
  /** --secondary-node-eviction-rate (0.01). */
  secondaryEvictionLimiterQPS?: number;
  /** --large-cluster-size-threshold (50). */
  largeClusterThreshold?: number;
  /** --unhealthy-zone-threshold (0.55). */
  unhealthyZoneThreshold?: number;
  /**
   * quietRegistration skips the RegisteredNode Events of the first pass: the cluster restored from
   * its born image (cluster.ts) already holds them from the controller that saw the nodes join.
   */
  quietRegistration?: boolean;
}

/** nodeHealthData is what the controller remembers of a node between passes. */
interface NodeHealthData {
  /** probeTimestamp is the controller's local time (virtual ms) of the last sign of life. */
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  status: NodeStatus;
  lease?: Lease;
}

/** TryUpdateResult is what tryUpdateNodeHealth returns besides the (maybe updated) node. */
interface TryUpdateResult {
  gracePeriod: number;
  observedReadyCondition: NodeCondition;
  currentReadyCondition: NodeCondition | undefined;
  node: Node;
}

/**
 * getZoneKey mirrors component-helpers/node/topology.GetZoneKey: region and zone (GA labels, else
 * the beta failure-domain ones) joined by ":\0:", or "" when neither is set.
 */
export function getZoneKey(node: Node): string {
  // Cached per object: cached objects never change, and monitorNodeHealth asks for every node.
  let z = zoneKeys.get(node);
  if (z === undefined) zoneKeys.set(node, (z = computeZoneKey(node)));
  return z;
}

const zoneKeys = new WeakMap<Node, string>();

function computeZoneKey(node: Node): string {
  const l = node.metadata.labels;
  if (!l) return '';
  const zone =
    l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  const region =
    l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\x00:${zone}`;
}

// sameCondition is apiequality.Semantic.DeepEqual on two NodeConditions.
function sameCondition(a: NodeCondition | undefined, b: NodeCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.type === b.type &&
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '') &&
    (a.lastHeartbeatTime ?? '') === (b.lastHeartbeatTime ?? '') &&
    (a.lastTransitionTime ?? '') === (b.lastTransitionTime ?? '')
  );
}

// readyOf is GetNodeCondition(status, NodeReady).
function readyOf(status: NodeStatus | undefined): NodeCondition | undefined {
  for (const c of status?.conditions ?? []) if (c.type === 'Ready') return c;
  return undefined;
}

// renewedAfter is savedLease.Spec.RenewTime.Before(observed.Spec.RenewTime) (false if either is nil).
function renewedAfter(saved: Lease, observed: Lease): boolean {
  if (saved === observed) return false;
  const a = saved.spec?.renewTime;
  const b = observed.spec?.renewTime;
  if (!a || !b || a === b) return false;
  return timeBefore(a, b);
}

/** LeaderLost aborts a pass whose writes cannot reach kube-apiserver or etcd. */
class LeaderLost extends Error {}

/** NodeLifecycleController is kube-controller-manager's node-lifecycle-controller. */
export class NodeLifecycleController {
  static readonly NAME = 'node-lifecycle-controller';

  readonly nodes: Informer<Node>;
  readonly leases: Informer<Lease>;
  readonly pods: Informer<Pod>;
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly nodeUpdateQueue: RateLimitingQueue;
  private readonly podUpdateQueue: RateLimitingQueue;

  private readonly nodeMonitorPeriod: number;
  private readonly nodeStartupGracePeriod: number;
  private readonly nodeMonitorGracePeriod: number;
  private readonly evictionLimiterQPS: number;
  private readonly secondaryEvictionLimiterQPS: number;
  private readonly largeClusterThreshold: number;
  private readonly unhealthyZoneThreshold: number;
  private quietRegistration: boolean;

  private readonly knownNodeSet = new Map<string, Node>();
  private readonly nodeHealthMap = new Map<string, NodeHealthData>();
  private readonly zoneNoExecuteTainter = new Map<string, RateLimitedTimedQueue>();
  private readonly zoneStates = new Map<string, ZoneState>();
  private readonly nodesToRetry = new Set<string>();
  /** leaseKeys remembers each known node's Lease cache key, looked up on every pass. */
  private readonly leaseKeys = new Map<string, string>();
  // Scratch maps of one monitorNodeHealth pass (zone -> Ready conditions, zone -> new state),
  // cleared at the start of each pass rather than allocated on every tick.
  private readonly zoneToNodeConditions = new Map<string, (NodeCondition | undefined)[]>();
  private readonly newZoneStates = new Map<string, ZoneState>();

  private monitorTimer: TimerHandle | undefined;
  private taintingTimer: { at: number; handle: TimerHandle } | undefined;
  /** startedAt anchors the 100ms grid doNoExecuteTaintingPass runs on. */
  private startedAt = 0;
  /** inPass is true while a timer-driven pass (monitor or tainting) runs. */
  private inPass = false;
  /** passCause is the seq of this pass's timer entry, recorded lazily on its first change. */
  private passCause = 0;
  private running = false;
  /** leaderLost is set while kube-apiserver or etcd cannot be reached (see monitorTick). */
  private leaderLost = false;

  constructor(
    sim: Simulation,
    client: Client,
    opts: NodeLifecycleOptions = {},
    informers = new SharedInformerFactory(client),
  ) {
    this.sim = sim;
    this.client = client;
    // Upstream's recorder reports as component "node-controller".
    this.recorder = new EventRecorder(client, 'node-controller');
    this.nodeMonitorPeriod = sim.settings.nodeMonitorPeriod;
    this.nodeStartupGracePeriod = sim.settings.nodeStartupGracePeriod;
    this.nodeMonitorGracePeriod = sim.settings.nodeMonitorGracePeriod;
    this.evictionLimiterQPS = opts.evictionLimiterQPS ?? 0.1;
    this.secondaryEvictionLimiterQPS = opts.secondaryEvictionLimiterQPS ?? 0.01;
    this.largeClusterThreshold = opts.largeClusterThreshold ?? 50;
    this.unhealthyZoneThreshold = opts.unhealthyZoneThreshold ?? 0.55;
    this.quietRegistration = opts.quietRegistration ?? false;

    this.nodes = informers.informerFor<Node>('nodes', NodeLifecycleController.NAME);
    this.leases = informers.informerFor<Lease>('leases', NodeLifecycleController.NAME);
    this.pods = informers
      .informerFor<Pod>('pods', NodeLifecycleController.NAME)
      .addIndexer(nodeNameKeyIndex, podNodeNameIndexFunc);

    // Simplification: upstream's node_lifecycle_controller queue is a plain workqueue whose
    // failures are only logged; here a failed NoSchedule pass is retried with back-off.
    this.nodeUpdateQueue = new RateLimitingQueue(
      sim,
      { name: 'node_lifecycle_controller' },
      (key) => this.processNodeUpdate(key),
    );
    this.podUpdateQueue = new RateLimitingQueue(
      sim,
      { name: 'node_lifecycle_controller_pods' },
      (key) => this.processPod(key),
    );

    this.pods.addEventHandler(
      {
        onAdd: (pod) => this.podUpdated(undefined, pod),
        onUpdate: (old, cur) => this.podUpdated(old, cur),
      },
      NodeLifecycleController.NAME,
    );
    this.nodes.addEventHandler(
      {
        onAdd: (node) => this.nodeUpdateQueue.add(node.metadata.name),
        onUpdate: (_old, cur) => this.nodeUpdateQueue.add(cur.metadata.name),
        onDelete: (node) => this.nodesToRetry.delete(node.metadata.name),
      },
      NodeLifecycleController.NAME,
    );
  }

  start(): void {
    this.running = true;
    this.startedAt = this.sim.now();
    this.leases.start();
    this.nodes.start();
    this.pods.start();
    // wait.UntilWithContext runs monitorNodeHealth at once, then every nodeMonitorPeriod.
    this.monitorTimer = this.sim.after(
      0,
      `${NodeLifecycleController.NAME}: monitorNodeHealth`,
      () => this.monitorTick(),
      0,
    );
  }

  stop(): void {
    this.running = false;
    this.monitorTimer?.cancel();
    this.taintingTimer?.handle.cancel();
    this.taintingTimer = undefined;
    this.nodeUpdateQueue.shutDown();
    this.podUpdateQueue.shutDown();
    this.leases.stop();
    this.nodes.stop();
    this.pods.stop();
  }

  private synced(): boolean {
    return this.nodes.hasSynced && this.leases.hasSynced && this.pods.hasSynced;
  }

  private monitorTick(): void {
    if (!this.running) return;
    this.monitorTimer = this.sim.after(
      this.nodeMonitorPeriod,
      `${NodeLifecycleController.NAME}: monitorNodeHealth`,
      () => this.monitorTick(),
      0,
    );
    // Simplification: leader election is modelled only this far. Without kube-apiserver (or
    // etcd) kube-controller-manager cannot renew its leader lease and exits; once the cluster is
    // back it starts again from fresh caches, so no node is judged on state cached before the
    // outage. Here the controller stops judging while it cannot reach the cluster and then
    // restarts its informers and forgets what it knew.
    if (!this.client.reachable()) {
      this.leaderLost = true;
      return;
    }
    if (this.leaderLost) this.restartAfterLeaderLoss();
    // Upstream waits for the caches once before starting; a pass with an unsynced cache is skipped.
    if (!this.synced()) return;
    this.beginPass();
    try {
      this.monitorNodeHealth();
    } catch (e) {
      if (!(e instanceof LeaderLost)) throw e;
      this.leaderLost = true;
    } finally {
      this.endPass();
    }
  }

  // restartAfterLeaderLoss is a kube-controller-manager restart: empty state, fresh list and watch.
  private restartAfterLeaderLoss(): void {
    this.leaderLost = false;
    this.knownNodeSet.clear();
    this.nodeHealthMap.clear();
    this.zoneNoExecuteTainter.clear();
    this.zoneStates.clear();
    this.nodesToRetry.clear();
    this.leaseKeys.clear();
    this.taintingTimer?.handle.cancel();
    this.taintingTimer = undefined;
    for (const inf of [this.leases, this.nodes, this.pods])
      inf.restart(NodeLifecycleController.NAME);
  }

  private beginPass(): void {
    this.inPass = true;
    this.passCause = 0;
  }

  private endPass(): void {
    this.inPass = false;
    this.passCause = 0;
  }

  // changing records the pass's trace entry the first time it changes something, so that
  // unchanged passes (nearly all of them) leave no trace, and makes later requests its effects.
  private changing(what: string, object?: string): void {
    if (!this.inPass) return;
    if (this.passCause) {
      this.sim.cause = this.passCause;
      return;
    }
    const seq = this.sim.record({
      kind: 'timer',
      from: NodeLifecycleController.NAME,
      to: NodeLifecycleController.NAME,
      what,
      object,
    });
    this.passCause = seq;
    if (seq) this.sim.cause = seq;
  }

  // recordEvent is the recorder with the pass's trace entry as cause.
  private recordEvent(
    what: string,
    obj: KubeObject,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): void {
    this.changing(what);
    this.recorder.event(obj, type, reason, message);
  }

  /**
   * monitorNodeHealth verifies that kubelets keep updating node health (status or Lease) and
   * posts Ready=Unknown for those that stopped; it queues unhealthy nodes for NoExecute tainting
   * and marks the Pods of a node that left Ready as not Ready. It reads caches only, and writes
   * only when something changed.
   */
  monitorNodeHealth(): void {
    const what = 'monitorNodeHealth';
    const nodes = this.nodes.list();
    const { added, deleted, newZoneRepresentatives } = this.classifyNodes(nodes);
    for (const n of newZoneRepresentatives) this.addPodEvictorForNewZone(n);
    for (const n of added) {
      if (!this.quietRegistration)
        this.recordEvent(
          what,
          n,
          'Normal',
          'RegisteredNode',
          `Node ${n.metadata.name} event: Registered Node ${n.metadata.name} in Controller`,
        );
      this.knownNodeSet.set(n.metadata.name, n);
      this.addPodEvictorForNewZone(n);
      this.markNodeAsReachable(n, what);
    }
    for (const n of deleted) {
      this.recordEvent(
        what,
        n,
        'Normal',
        'RemovingNode',
        `Node ${n.metadata.name} event: Removing Node ${n.metadata.name} from Controller`,
      );
      this.knownNodeSet.delete(n.metadata.name);
      this.leaseKeys.delete(n.metadata.name);
    }
    if (added.length) this.quietRegistration = false;

    const zoneToNodeConditions = this.zoneToNodeConditions;
    zoneToNodeConditions.clear();
    for (const cached of nodes) this.updateNode(cached, zoneToNodeConditions, what);
    this.handleDisruption(zoneToNodeConditions, nodes, what);
    this.scheduleTaintingPass();
  }

  // updateNode is monitorNodeHealth's per-node function (updateNodeFunc upstream).
  private updateNode(
    cached: Node,
    zoneToNodeConditions: Map<string, (NodeCondition | undefined)[]>,
    what: string,
  ): void {
    let node = cached;
    let res: TryUpdateResult | undefined;
    for (let i = 0; i < NodeHealthUpdateRetry; i++) {
      try {
        res = this.tryUpdateNodeHealth(node, what);
        break;
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        if (e.reason === 'ConnectionError') throw new LeaderLost(e.message);
        try {
          node = this.client.get<Node>('nodes', undefined, node.metadata.name);
        } catch {
          return; // Probably deleted; no pods will be evicted.
        }
      }
    }
    if (!res) return;
    node = res.node;
    const name = node.metadata.name;
    const { observedReadyCondition, currentReadyCondition } = res;
    // The zone is looked up once per node and pass (a WeakMap lookup on a cold object at scale).
    const zone = getZoneKey(node);
    if (!(node.metadata.labels && labelNodeDisruptionExclusion in node.metadata.labels)) {
      let list = zoneToNodeConditions.get(zone);
      if (!list) zoneToNodeConditions.set(zone, (list = []));
      list.push(currentReadyCondition);
    }
    if (currentReadyCondition) {
      this.processTaintBaseEviction(node, observedReadyCondition, what, zone);
      const needsRetry = this.nodesToRetry.size > 0 && this.nodesToRetry.has(name);
      const transitioned =
        currentReadyCondition.status !== 'True' && observedReadyCondition.status === 'True';
      if (transitioned)
        this.recordEvent(
          what,
          node,
          'Normal',
          'NodeNotReady',
          `Node ${name} status is now: NodeNotReady`,
        );
      if (transitioned || (needsRetry && observedReadyCondition.status !== 'True')) {
        // Only now are the node's Pods read: a healthy pass costs nothing per Pod.
        const pods = this.pods.byIndex(nodeNameKeyIndex, name);
        if (!this.markPodsNotReady(pods, name, what)) {
          this.nodesToRetry.add(name);
          return;
        }
      }
    }
    if (this.nodesToRetry.size > 0) this.nodesToRetry.delete(name);
  }

  /**
   * tryUpdateNodeHealth mirrors upstream: probeTimestamp moves to now when the Ready condition's
   * lastHeartbeatTime changed or the node's Lease was renewed; once now is past probeTimestamp
   * plus the grace period (nodeStartupGracePeriod for a node that never posted Ready,
   * nodeMonitorGracePeriod otherwise), Ready, MemoryPressure, DiskPressure and PIDPressure become
   * Unknown. It never writes False. Throws the API error if the status update fails.
   */
  tryUpdateNodeHealth(node: Node, what = 'monitorNodeHealth'): TryUpdateResult {
    const now = this.sim.now();
    const name = node.metadata.name;
    const saved = this.nodeHealthMap.get(name);
    let nodeHealth = saved;
    let gracePeriod: number;
    let observedReadyCondition: NodeCondition;
    let currentReadyCondition = getNodeCondition(node, 'Ready');
    if (!currentReadyCondition) {
      // The kubelet never posted status: a fake Unknown condition dated at creation.
      observedReadyCondition = {
        type: 'Ready',
        status: 'Unknown',
        lastHeartbeatTime: node.metadata.creationTimestamp,
        lastTransitionTime: node.metadata.creationTimestamp,
      };
      gracePeriod = this.nodeStartupGracePeriod;
      const created = parseTime(node.metadata.creationTimestamp);
      nodeHealth = nodeHealth
        ? { ...nodeHealth, status: node.status }
        : { status: node.status, probeTimestamp: created, readyTransitionTimestamp: created };
    } else {
      // Cached objects are never mutated (the update below works on a clone): no copy needed.
      observedReadyCondition = currentReadyCondition;
      gracePeriod = this.nodeMonitorGracePeriod;
    }

    const savedCondition = nodeHealth ? readyOf(nodeHealth.status) : undefined;
    const savedLease = nodeHealth?.lease;
    if (!nodeHealth) {
      nodeHealth = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
    } else if (!savedCondition && currentReadyCondition) {
      nodeHealth = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
    } else if (savedCondition && !currentReadyCondition) {
      nodeHealth = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
    } else if (
      savedCondition &&
      currentReadyCondition &&
      savedCondition.lastHeartbeatTime !== currentReadyCondition.lastHeartbeatTime
    ) {
      const transitionTime =
        savedCondition.lastTransitionTime !== currentReadyCondition.lastTransitionTime
          ? now
          : nodeHealth.readyTransitionTimestamp;
      nodeHealth = {
        status: node.status,
        probeTimestamp: now,
        readyTransitionTimestamp: transitionTime,
      };
    }
    // A renewed Lease always counts as a sign of life, even if status never changes.
    const observedLease = this.leases.getByKey(this.leaseKey(name));
    if (observedLease && (!savedLease || renewedAfter(savedLease, observedLease))) {
      nodeHealth = { ...nodeHealth, lease: observedLease, probeTimestamp: now };
    }
    // A map entry set again to the same value changes nothing (not even the order): skip it.
    if (nodeHealth !== saved) this.nodeHealthMap.set(name, nodeHealth);

    // A Ready condition already Unknown is left as it is, so there is nothing to post.
    if (
      now > nodeHealth.probeTimestamp + gracePeriod &&
      currentReadyCondition?.status !== 'Unknown'
    ) {
      // Neither status nor Lease within the grace period: post Unknown, whatever the value was.
      const updated = deepClone(node);
      const conds = (updated.status.conditions ??= []);
      const nowTs = formatTime(now);
      for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
        const c = conds.find((x) => x.type === type);
        if (!c) {
          conds.push({
            type,
            status: 'Unknown',
            lastHeartbeatTime: node.metadata.creationTimestamp,
            lastTransitionTime: nowTs,
            reason: 'NodeStatusNeverUpdated',
            message: 'Kubelet never posted node status.',
          });
        } else if (c.status !== 'Unknown') {
          c.status = 'Unknown';
          c.reason = 'NodeStatusUnknown';
          c.message = 'Kubelet stopped posting node status.';
          c.lastTransitionTime = nowTs;
        }
      }
      currentReadyCondition = conds.find((x) => x.type === 'Ready');
      if (!sameCondition(currentReadyCondition, observedReadyCondition)) {
        this.changing(what, name);
        const written = this.client.updateStatus<Node>('nodes', updated);
        this.nodeHealthMap.set(name, {
          status: written.status,
          probeTimestamp: nodeHealth.probeTimestamp,
          readyTransitionTimestamp: now,
          lease: observedLease,
        });
        return { gracePeriod, observedReadyCondition, currentReadyCondition, node: updated };
      }
    }
    return { gracePeriod, observedReadyCondition, currentReadyCondition, node };
  }

  // leaseKey is the cache key of the node's Lease ("kube-node-lease/<node>"), built once per node.
  private leaseKey(name: string): string {
    let key = this.leaseKeys.get(name);
    if (key === undefined) this.leaseKeys.set(name, (key = `${NamespaceNodeLease}/${name}`));
    return key;
  }

  /**
   * processTaintBaseEviction mirrors upstream: a node observed Ready=False or Unknown is queued
   * for the matching NoExecute taint (or has the opposite one swapped at once); a Ready node has
   * both removed. It acts on the Ready condition seen at the start of the pass, so the taint for
   * a node this pass turned Unknown is queued on the next pass.
   */
  private processTaintBaseEviction(
    node: Node,
    observed: NodeCondition,
    what: string,
    zone = getZoneKey(node),
  ): void {
    const now = this.sim.now();
    switch (observed.status) {
      case 'False':
        if (taintExists(node.spec.taints, UnreachableTaintTemplate)) {
          this.changing(what, node.metadata.name);
          swapNodeControllerTaint(
            this.client,
            now,
            [NotReadyTaintTemplate],
            [UnreachableTaintTemplate],
            node,
          );
        } else this.markNodeForTainting(node, 'False', zone);
        break;
      case 'Unknown':
        if (taintExists(node.spec.taints, NotReadyTaintTemplate)) {
          this.changing(what, node.metadata.name);
          swapNodeControllerTaint(
            this.client,
            now,
            [UnreachableTaintTemplate],
            [NotReadyTaintTemplate],
            node,
          );
        } else this.markNodeForTainting(node, 'Unknown', zone);
        break;
      case 'True':
        this.markNodeAsReachable(node, what, zone);
        break;
    }
  }

  // markNodeForTainting mirrors upstream: a node not yet carrying the taint is (re)queued now.
  private markNodeForTainting(
    node: Node,
    status: 'False' | 'Unknown',
    zone = getZoneKey(node),
  ): boolean {
    const q = this.zoneNoExecuteTainter.get(zone);
    if (!q) return false;
    const tmpl = status === 'False' ? NotReadyTaintTemplate : UnreachableTaintTemplate;
    if (!taintExists(node.spec.taints, tmpl)) q.remove(node.metadata.name);
    return q.add(node.metadata.name, node.metadata.uid, this.sim.now());
  }

  // markNodeAsReachable removes both NoExecute taints (no request when neither is present) and
  // takes the node out of its zone's tainting queue.
  private markNodeAsReachable(node: Node, what: string, zone = getZoneKey(node)): boolean {
    const name = node.metadata.name;
    // Nearly every node has no taints at all: no taint to look for.
    if (node.spec.taints?.length)
      for (const t of noExecuteTaints) {
        if (!taintExists(node.spec.taints, t)) continue;
        this.changing(what, name);
        try {
          removeTaintOffNode(this.client, name, node, t);
        } catch {
          return false; // Retried on the next pass.
        }
      }
    return this.zoneNoExecuteTainter.get(zone)?.remove(name) ?? false;
  }

  /**
   * doNoExecuteTaintingPass mirrors upstream: for every zone, take nodes off the rate-limited
   * queue and swap in the NoExecute taint matching their Ready condition.
   */
  doNoExecuteTaintingPass(): void {
    const now = this.sim.now();
    for (const q of this.zoneNoExecuteTainter.values()) {
      q.try(now, (v: TimedValue) => {
        const node = this.nodes.get(undefined, v.value);
        if (!node) return [true, 0];
        const cond = getNodeCondition(node, 'Ready');
        if (!cond) return [false, 50];
        let add: Taint;
        let opposite: Taint;
        if (cond.status === 'False') {
          add = NotReadyTaintTemplate;
          opposite = UnreachableTaintTemplate;
        } else if (cond.status === 'Unknown') {
          add = UnreachableTaintTemplate;
          opposite = NotReadyTaintTemplate;
        } else return [true, 0]; // Ready again: nothing to taint.
        this.changing('doNoExecuteTaintingPass', v.value);
        return [swapNodeControllerTaint(this.client, now, [add], [opposite], node), 0];
      });
    }
    this.scheduleTaintingPass();
  }

  /**
   * scheduleTaintingPass arms the tainting timer for when a zone queue can next make progress.
   * Upstream polls every NodeEvictionPeriod (100ms) from start; the timer lands on that grid, so
   * a node queued by a monitor pass is tainted 100ms later, and only while there is work.
   */
  private scheduleTaintingPass(): void {
    if (!this.running) return;
    const now = this.sim.now();
    let at = Infinity;
    for (const q of this.zoneNoExecuteTainter.values()) {
      const t = q.nextAttemptAt();
      if (t !== undefined) at = Math.min(at, t);
    }
    if (at === Infinity) return;
    at =
      this.startedAt +
      Math.ceil((Math.max(at, now) - this.startedAt) / NodeEvictionPeriod) * NodeEvictionPeriod;
    // The tick at exactly now has run already (or, beside a monitor pass, raced ahead of it).
    if (at <= now) at += NodeEvictionPeriod;
    if (this.taintingTimer && this.taintingTimer.at <= at) return;
    this.taintingTimer?.handle.cancel();
    const handle = this.sim.at(
      at,
      `${NodeLifecycleController.NAME}: doNoExecuteTaintingPass`,
      () => {
        this.taintingTimer = undefined;
        if (!this.running) return;
        this.beginPass();
        try {
          this.doNoExecuteTaintingPass();
        } finally {
          this.endPass();
        }
      },
      0,
    );
    this.taintingTimer = { at, handle };
  }

  // processNodeUpdate is doNodeProcessingPassWorker for one key.
  private processNodeUpdate(name: string): void {
    try {
      this.doNoScheduleTaintingPass(name);
      this.nodeUpdateQueue.forget(name);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      this.nodeUpdateQueue.addRateLimited(name);
    }
  }

  /**
   * doNoScheduleTaintingPass keeps the node's NoSchedule taints in step with its conditions
   * (nodeConditionToTaintKeyStatusMap) and spec.unschedulable. It removes the not-ready:NoSchedule
   * taint admission puts on new nodes once Ready is True. Level-triggered.
   */
  doNoScheduleTaintingPass(nodeName: string): void {
    const node = this.nodes.get(undefined, nodeName);
    if (!node) return;
    const taints: Taint[] = [];
    for (const c of node.status?.conditions ?? []) {
      const key = nodeConditionToTaintKeyStatusMap[c.type]?.[c.status];
      if (key) taints.push({ key, effect: 'NoSchedule' });
    }
    if (node.spec.unschedulable) taints.push({ key: TaintNodeUnschedulable, effect: 'NoSchedule' });
    const nodeTaints = (node.spec.taints ?? []).filter(
      (t) =>
        t.effect === 'NoSchedule' &&
        (t.key === TaintNodeUnschedulable || t.key in taintKeyToNodeConditionMap),
    );
    const { add, del } = taintSetDiff(taints, nodeTaints);
    if (add.length === 0 && del.length === 0) return;
    if (!swapNodeControllerTaint(this.client, this.sim.now(), add, del, node))
      throw new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        message: `failed to swap taints of node ${nodeName}`,
        reason: 'InternalError',
        code: 500,
      });
  }

  // podUpdated enqueues a Pod newly bound to a node. Filter: only when that node is, as far as
  // this controller knows, not Ready; a later transition marks every Pod of the node anyway.
  private podUpdated(old: Pod | undefined, cur: Pod): void {
    const nodeName = cur.spec?.nodeName;
    if (!nodeName || (old && old.spec?.nodeName === nodeName)) return;
    const health = this.nodeHealthMap.get(nodeName);
    const ready = health && readyOf(health.status);
    if (!ready || ready.status === 'True') return;
    this.podUpdateQueue.add(metaNamespaceKey(cur));
  }

  /** processPod marks a Pod assigned to a node that is not Ready as not Ready. */
  processPod(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pod = this.pods.get(namespace, name);
    if (!pod) return;
    const nodeName = pod.spec.nodeName ?? '';
    const health = this.nodeHealthMap.get(nodeName);
    if (!health) return;
    if (!this.nodes.get(undefined, nodeName)) {
      this.podUpdateQueue.addRateLimited(key);
      return;
    }
    const ready = readyOf(health.status);
    if (!ready) return;
    if (ready.status !== 'True') {
      if (!this.markPodsNotReady([pod], nodeName, 'processPod'))
        this.podUpdateQueue.addRateLimited(key);
      else this.podUpdateQueue.forget(key);
    }
  }

  /**
   * markPodsNotReady mirrors controllerutil.MarkPodsNotReady: each Pod's Ready condition becomes
   * False (reason and message kept, lastTransitionTime now), with a Warning NodeNotReady event on
   * the Pod. Returns false if any update failed for another reason than NotFound.
   */
  markPodsNotReady(pods: readonly Pod[], nodeName: string, what: string): boolean {
    let ok = true;
    for (const p of pods) {
      if (p.spec.nodeName !== nodeName) continue;
      const conds = p.status?.conditions ?? [];
      const i = conds.findIndex((c) => c.type === 'Ready');
      if (i < 0 || conds[i].status === 'False') continue;
      const pod = deepClone(p);
      pod.status.conditions![i] = {
        ...conds[i],
        status: 'False',
        lastTransitionTime: formatTime(this.sim.now()),
      };
      this.changing(what, metaNamespaceKey(p));
      try {
        this.client.updateStatus<Pod>('pods', pod);
      } catch (e) {
        if (isNotFound(e)) continue;
        if (!(e instanceof StatusError)) throw e;
        ok = false;
      }
      this.recorder.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
    }
    return ok;
  }

  // classifyNodes splits nodes into newly seen, gone, and known ones in a zone without a state.
  private classifyNodes(all: readonly Node[]): {
    added: Node[];
    deleted: Node[];
    newZoneRepresentatives: Node[];
  } {
    const added: Node[] = [];
    const deleted: Node[] = [];
    const newZoneRepresentatives: Node[] = [];
    for (const n of all) {
      if (!this.knownNodeSet.has(n.metadata.name)) added.push(n);
      else if (!this.zoneStates.has(getZoneKey(n))) newZoneRepresentatives.push(n);
    }
    if (this.knownNodeSet.size + added.length !== all.length) {
      const present = new Set(all.map((n) => n.metadata.name));
      for (const [name, n] of this.knownNodeSet) if (!present.has(name)) deleted.push(n);
    }
    return { added, deleted, newZoneRepresentatives };
  }

  // addPodEvictorForNewZone creates the zone's state and tainting queue on first sight.
  private addPodEvictorForNewZone(node: Node): void {
    const zone = getZoneKey(node);
    if (this.zoneStates.has(zone)) return;
    this.zoneStates.set(zone, 'Initial');
    this.zoneNoExecuteTainter.set(
      zone,
      new RateLimitedTimedQueue(new TokenBucketRateLimiter(this.evictionLimiterQPS)),
    );
  }

  /**
   * computeZoneState mirrors ComputeZoneState: FullDisruption with no Ready node, Partial when
   * more than 2 nodes and at least unhealthyZoneThreshold of them are not Ready, else Normal.
   */
  computeZoneState(conditions: readonly (NodeCondition | undefined)[]): [number, ZoneState] {
    let ready = 0;
    let notReady = 0;
    for (const c of conditions) {
      if (c && c.status === 'True') ready++;
      else notReady++;
    }
    if (ready === 0 && notReady > 0) return [notReady, 'FullDisruption'];
    if (notReady > 2 && notReady / (notReady + ready) >= this.unhealthyZoneThreshold)
      return [notReady, 'PartialDisruption'];
    return [notReady, 'Normal'];
  }

  /**
   * handleDisruption mirrors upstream: when every zone is fully disrupted the controller assumes
   * the problem is its own (master disruption mode), removes the NoExecute taints and stops
   * tainting; a partially disrupted zone slows down (or, up to largeClusterThreshold nodes,
   * stops); leaving full disruption resets every node's probe timestamp.
   */
  private handleDisruption(
    zoneToNodeConditions: Map<string, (NodeCondition | undefined)[]>,
    nodes: readonly Node[],
    what: string,
  ): void {
    const now = this.sim.now();
    const newZoneStates = this.newZoneStates;
    newZoneStates.clear();
    let allAreFullyDisrupted = true;
    for (const [k, v] of zoneToNodeConditions) {
      const [, newState] = this.computeZoneState(v);
      if (newState !== 'FullDisruption') allAreFullyDisrupted = false;
      newZoneStates.set(k, newState);
      if (!this.zoneStates.has(k)) this.zoneStates.set(k, 'Initial');
    }
    let allWasFullyDisrupted = true;
    // Deleting the entry being visited is safe while iterating a Map, so no copy is needed.
    for (const [k, v] of this.zoneStates) {
      if (!zoneToNodeConditions.has(k)) {
        this.zoneStates.delete(k);
        continue;
      }
      if (v !== 'FullDisruption') {
        allWasFullyDisrupted = false;
        break;
      }
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return;
    if (allAreFullyDisrupted) {
      // Entering master disruption mode.
      for (const n of nodes) this.markNodeAsReachable(n, what);
      for (const k of this.zoneStates.keys()) this.zoneNoExecuteTainter.get(k)?.swapLimiter(0, now);
      for (const k of this.zoneStates.keys()) this.zoneStates.set(k, 'FullDisruption');
      return;
    }
    if (allWasFullyDisrupted) {
      // Exiting master disruption mode: every node gets a fresh grace period.
      for (const n of nodes) {
        const v = this.nodeHealthMap.get(n.metadata.name);
        if (v)
          this.nodeHealthMap.set(n.metadata.name, {
            ...v,
            probeTimestamp: now,
            readyTransitionTimestamp: now,
          });
      }
      for (const k of this.zoneStates.keys()) {
        const s = newZoneStates.get(k) ?? 'Normal';
        this.setLimiterInZone(k, zoneToNodeConditions.get(k)?.length ?? 0, s);
        this.zoneStates.set(k, s);
      }
      return;
    }
    for (const [k, v] of this.zoneStates) {
      const s = newZoneStates.get(k);
      if (s === undefined || v === s) continue;
      this.setLimiterInZone(k, zoneToNodeConditions.get(k)?.length ?? 0, s);
      this.zoneStates.set(k, s);
    }
  }

  // setLimiterInZone picks the zone's tainting rate for its state.
  private setLimiterInZone(zone: string, zoneSize: number, state: ZoneState): void {
    const q = this.zoneNoExecuteTainter.get(zone);
    if (!q) return;
    const now = this.sim.now();
    if (state === 'Normal') q.swapLimiter(this.evictionLimiterQPS, now);
    // ReducedQPSFunc: large zones slow down, small ones stop.
    else if (state === 'PartialDisruption')
      q.swapLimiter(
        zoneSize > this.largeClusterThreshold ? this.secondaryEvictionLimiterQPS : 0,
        now,
      );
    // HealthyQPSFunc.
    else if (state === 'FullDisruption') q.swapLimiter(this.evictionLimiterQPS, now);
  }

  /** zoneState reports a zone's disruption state (for tests and describe-like views). */
  zoneState(zone = ''): ZoneState | undefined {
    return this.zoneStates.get(zone);
  }
}

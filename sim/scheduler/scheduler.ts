// Mirrors pkg/scheduler/scheduler.go, eventhandlers.go and the ScheduleOne / handleSchedulingFailure
// / bind parts of schedule_one.go: kube-scheduler as one component (see "Simplification:" notes).

import type { Selector } from '../api/labels.ts';
import type { Node, Pod, PodCondition, ReplicaSet, Service } from '../api/types.ts';
import { deepEqual } from '../api/clone.ts';
import type { Client } from '../client/client.ts';
import { EventRecorderV1 } from '../client/events-v1.ts';
import { Informer } from '../client/informer.ts';
import { formatTime } from '../engine/clock.ts';
import type { Rng } from '../engine/rng.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import { Cache, sameLabels } from './cache.ts';
import {
  Code,
  CycleState,
  DefaultSchedulerName,
  Status,
  defaultProfile,
  type Handle,
  type PodInfo,
  type Profile,
} from './framework.ts';
import { defaultSelector } from './plugins/helper.ts';
import { newInTreeRegistry } from './plugins/registry.ts';
import {
  ActionType,
  EventAssignedPodAdd,
  EventAssignedPodDelete,
  EventNodeAdd,
  PriorityQueue,
  type QueuedPodInfo,
} from './queue.ts';
import { Framework } from './runtime.ts';
import {
  ErrNoNodesAvailable,
  SchedulingAlgorithm,
  fitErrorToMessage,
  schedulingCycleCost,
} from './schedule-one.ts';

/** NoteLengthLimit is the longest Event note (validation.NoteLengthLimit). */
export const NoteLengthLimit = 1024;

/** truncateMessage mirrors truncateMessage: cut to NoteLengthLimit with a " ..." suffix. */
export function truncateMessage(message: string): string {
  if (message.length <= NoteLengthLimit) return message;
  const suffix = ' ...';
  return message.slice(0, NoteLengthLimit - suffix.length) + suffix;
}

/** assignedPod mirrors assignedPod: the pod has a node. */
export function assignedPod(p: Pod): boolean {
  return !!p.spec.nodeName;
}

/** isTerminal: the scheduler's pod informer lists with status.phase!=Succeeded,status.phase!=Failed. */
function isTerminal(p: Pod): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}

/**
 * updatePodCondition mirrors podutil.UpdatePodCondition: it returns the new condition list, or
 * undefined when the condition is already there unchanged. lastTransitionTime moves only when
 * the status changes.
 */
export function updatePodCondition(
  conditions: readonly PodCondition[] | undefined,
  c: PodCondition,
  now: string,
): PodCondition[] | undefined {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((x) => x.type === c.type);
  const next: PodCondition = { ...c, lastTransitionTime: now };
  if (i < 0) {
    list.push(next);
    return list;
  }
  const old = list[i];
  if (old.status === next.status) next.lastTransitionTime = old.lastTransitionTime;
  const isEqual =
    old.status === next.status &&
    old.reason === next.reason &&
    old.message === next.message &&
    (old.lastProbeTime ?? null) === (next.lastProbeTime ?? null) &&
    old.lastTransitionTime === next.lastTransitionTime;
  list[i] = next;
  return isEqual ? undefined : list;
}

/** SchedulerOptions configure the profiles (KubeSchedulerConfiguration). */
export interface SchedulerOptions {
  profiles?: Profile[];
  /** hostname is the machine kube-scheduler runs on, for its events' reportingInstance. */
  hostname?: string;
  /** eventClient is the clientset for Events (upstream a second one, with its own token bucket). */
  eventClient?: Client;
}

/**
 * Scheduler is kube-scheduler: it watches Pods, Nodes, Services and ReplicaSets, keeps unassigned
 * Pods in the scheduling queue and assigned ones in its cache, and runs one scheduling cycle per
 * engine event while activeQ has Pods. It binds through pods/binding and, on failure, records a
 * FailedScheduling event and sets the PodScheduled condition to False.
 *
 * Construct with `new Scheduler(sim, client)` (the client's user is "kube-scheduler") and call
 * `start()`. Simplification: one profile ("default-scheduler") unless others are given; no
 * leader election; binding happens in the same engine event as the scheduling cycle unless the
 * cycle's virtual cost or the client's token bucket puts it later (upstream binds on a goroutine
 * while the next cycle runs). Simplification: the DefaultPreemption
 * PostFilter is not run: a Pod that only evicting lower-priority Pods could place stays Pending,
 * and the FailedScheduling message always reports that no preemption victims were found
 * (pkg/scheduler/framework/preemption).
 */
export class Scheduler {
  static readonly NAME = 'kube-scheduler';
  /**
   * REPORTING_CONTROLLER is the events' reportingController (the profile's schedulerName): its
   * recorder writes events.k8s.io/v1 Events (NewEventBroadcasterAdapter), reportingInstance
   * "default-scheduler-<hostname>".
   */
  static readonly REPORTING_CONTROLLER = DefaultSchedulerName;

  readonly sim: Simulation;
  readonly client: Client;
  readonly podInformer: Informer<Pod>;
  readonly nodeInformer: Informer<Node>;
  readonly serviceInformer: Informer<Service>;
  readonly replicaSetInformer: Informer<ReplicaSet>;
  cache!: Cache;
  queue!: PriorityQueue;
  algorithm!: SchedulingAlgorithm;
  readonly profiles = new Map<string, Framework>();
  private readonly profileConfigs: Profile[];
  private readonly recorder: EventRecorderV1;
  private readonly rng: Rng;
  private pendingCycle: TimerHandle | undefined;
  /**
   * busyUntil is the virtual time (ms, fractional) at which the scheduling cycles run so far are
   * over: each adds schedulingCycleCost. The next cycle starts at it, rounded down to whole
   * milliseconds, so cycles that together take under a millisecond share their millisecond.
   */
  private busyUntil = -Infinity;
  private running = false;
  /** scheduled and failed count scheduling outcomes, for summaries and benchmarks. */
  scheduledCount = 0;
  failedCount = 0;

  constructor(sim: Simulation, client: Client, opts: SchedulerOptions = {}) {
    this.sim = sim;
    this.client = client;
    this.rng = sim.rng.fork(Scheduler.NAME);
    this.recorder = new EventRecorderV1(
      opts.eventClient ?? client,
      Scheduler.REPORTING_CONTROLLER,
      opts.hostname ?? 'control-plane',
    );
    this.profileConfigs = opts.profiles ?? [defaultProfile];
    this.podInformer = new Informer<Pod>(client, 'pods');
    this.nodeInformer = new Informer<Node>(client, 'nodes');
    this.serviceInformer = new Informer<Service>(client, 'services').addIndexer(
      'namespace',
      (s) => [s.metadata.namespace ?? ''],
    );
    this.replicaSetInformer = new Informer<ReplicaSet>(client, 'replicasets');
    this.reset();
    this.addAllEventHandlers();
  }

  /** reset builds a fresh cache, queue and frameworks, as a restarted process has. */
  private reset(): void {
    this.cache = new Cache();
    this.queue?.stop();
    this.queue = new PriorityQueue(this.sim, () => this.kick());
    const handle: Handle = this.cache.handle((pod) => this.defaultSelector(pod));
    this.profiles.clear();
    const registry = newInTreeRegistry();
    for (const p of this.profileConfigs)
      this.profiles.set(p.schedulerName, new Framework(p, registry, handle));
    this.algorithm = new SchedulingAlgorithm(
      this.sim,
      this.rng,
      () => this.cache.nodeInfoList(),
      (n) => this.cache.getNodeInfo(n),
    );
  }

  /** start starts the informers; the queue fills from their initial lists. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.recorder.start();
    this.nodeInformer.start();
    this.serviceInformer.start();
    this.replicaSetInformer.start();
    this.podInformer.start();
  }

  /** stop stops the informers and forgets all state, as when the process exits. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.recorder.stop();
    this.pendingCycle?.cancel();
    this.pendingCycle = undefined;
    this.podInformer.stop();
    this.nodeInformer.stop();
    this.serviceInformer.stop();
    this.replicaSetInformer.stop();
    this.reset();
  }

  // defaultSelectors caches DefaultSelector per namespace, owner and labels; any Service or
  // ReplicaSet event clears it (sim bookkeeping: the result is what upstream computes each cycle).
  private readonly defaultSelectors = new Map<string, Selector>();

  /** defaultSelector mirrors helper.DefaultSelector with the scheduler's listers. */
  private defaultSelector(pod: PodInfo): Selector {
    pod.labelsKey ??= JSON.stringify(pod.labels);
    const owner = pod.pod.metadata.ownerReferences?.find((o) => o.controller === true);
    const key = `${pod.namespace}\0${owner ? `${owner.kind}/${owner.name}` : ''}\0${pod.labelsKey}`;
    let sel = this.defaultSelectors.get(key);
    if (!sel) {
      sel = defaultSelector(
        pod,
        this.serviceInformer.byIndex('namespace', pod.namespace),
        (ns, name) => this.replicaSetInformer.get(ns, name),
      );
      this.defaultSelectors.set(key, sel);
    }
    return sel;
  }

  private responsibleForPod(p: Pod): boolean {
    return this.profiles.has(p.spec.schedulerName ?? DefaultSchedulerName);
  }

  // ---- eventhandlers.go ----

  private addAllEventHandlers(): void {
    // Simplification: one pod informer with two filtered handlers, as upstream; terminal pods
    // are treated as absent, as the field selector status.phase!=Succeeded,!=Failed does.
    const assigned = (p: Pod) => !isTerminal(p) && assignedPod(p);
    const unassigned = (p: Pod) => !isTerminal(p) && !assignedPod(p) && this.responsibleForPod(p);
    this.podInformer.addEventHandler({
      onAdd: (p) => {
        if (assigned(p)) this.addPodToCache(p);
        else if (unassigned(p)) this.addPodToSchedulingQueue(p);
      },
      onUpdate: (o, n) => {
        const oa = assigned(o);
        const na = assigned(n);
        if (oa && na) this.updatePodInCache(o, n);
        else if (!oa && na) this.addPodToCache(n);
        else if (oa && !na) this.deletePodFromCache(o);
        const ou = unassigned(o);
        const nu = unassigned(n);
        if (ou && nu) this.updatePodInSchedulingQueue(o, n);
        else if (!ou && nu) this.addPodToSchedulingQueue(n);
        else if (ou && !nu) this.deletePodFromSchedulingQueue(o);
      },
      onDelete: (p) => {
        if (assigned(p)) this.deletePodFromCache(p);
        else if (unassigned(p)) this.deletePodFromSchedulingQueue(p);
      },
    });
    const clearSelectors = {
      onAdd: () => this.defaultSelectors.clear(),
      onUpdate: () => this.defaultSelectors.clear(),
      onDelete: () => this.defaultSelectors.clear(),
    };
    this.serviceInformer.addEventHandler(clearSelectors);
    this.replicaSetInformer.addEventHandler({
      // ReplicaSet selectors are immutable: only a new or deleted ReplicaSet changes the answer.
      onAdd: () => this.defaultSelectors.clear(),
      onDelete: () => this.defaultSelectors.clear(),
    });
    this.nodeInformer.addEventHandler({
      onAdd: (n) => this.addNodeToCache(n),
      onUpdate: (o, n) => this.updateNodeInCache(o, n),
      onDelete: (n) => this.deleteNodeFromCache(n),
    });
  }

  private addNodeToCache(node: Node): void {
    this.cache.addNode(node);
    this.queue.moveAllToActiveOrBackoffQueue(EventNodeAdd);
  }

  private updateNodeInCache(oldNode: Node, newNode: Node): void {
    this.cache.updateNode(oldNode, newNode);
    const actionType = nodeSchedulingPropertiesChange(newNode, oldNode);
    if (actionType !== 0)
      this.queue.moveAllToActiveOrBackoffQueue({
        resource: 'Node',
        actionType,
        label: 'NodeUpdate',
      });
  }

  private deleteNodeFromCache(node: Node): void {
    this.cache.removeNode(node);
    this.queue.moveAllToActiveOrBackoffQueue({
      resource: 'Node',
      actionType: ActionType.Delete,
      label: 'NodeDelete',
    });
  }

  private addPodToCache(pod: Pod): void {
    this.cache.addPod(pod);
    this.queue.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd);
  }

  private updatePodInCache(oldPod: Pod, newPod: Pod): void {
    this.cache.updatePod(oldPod, newPod);
    if (!sameLabels(oldPod.metadata.labels, newPod.metadata.labels)) {
      this.queue.moveAllToActiveOrBackoffQueue({
        resource: 'AssignedPod',
        actionType: ActionType.UpdatePodLabel,
        label: 'AssignedPodUpdate',
      });
    }
  }

  private deletePodFromCache(pod: Pod): void {
    this.cache.removePod(pod);
    this.queue.moveAllToActiveOrBackoffQueue(EventAssignedPodDelete);
  }

  private addPodToSchedulingQueue(pod: Pod): void {
    this.queue.add(pod);
  }

  private updatePodInSchedulingQueue(oldPod: Pod, newPod: Pod): void {
    // Bypass update events that carry an identical object, and pods already assumed.
    if (oldPod.metadata.resourceVersion === newPod.metadata.resourceVersion) return;
    if (this.cache.isAssumedPod(newPod.metadata.uid)) return;
    this.queue.update(oldPod, newPod);
  }

  private deletePodFromSchedulingQueue(pod: Pod): void {
    this.queue.delete(pod);
  }

  // ---- the scheduling loop ----

  /** kick schedules the next cycle, one engine event per pod (sched.ScheduleOne in wait.Until). */
  private kick(): void {
    if (this.pendingCycle || !this.running) return;
    // The next cycle starts when the previous ones are done (busyUntil, in whole milliseconds).
    const at = Math.max(this.sim.now(), Math.floor(this.busyUntil));
    this.pendingCycle = this.sim.at(at, 'kube-scheduler: scheduleOne', () => {
      this.pendingCycle = undefined;
      this.scheduleOne();
      if (this.queue.activeLength > 0) this.kick();
    });
  }

  private frameworkForPod(pod: Pod): Framework | undefined {
    return this.profiles.get(pod.spec.schedulerName ?? DefaultSchedulerName);
  }

  /** scheduleOne mirrors ScheduleOne: one pod through the scheduling and binding cycles. */
  scheduleOne(): void {
    const qp = this.queue.pop();
    if (!qp) return;
    const cause = this.sim.cause;
    if (qp.cause) this.sim.cause = qp.cause;
    try {
      this.scheduleQueuedPod(qp);
    } finally {
      this.sim.cause = cause;
    }
  }

  private scheduleQueuedPod(qp: QueuedPodInfo): void {
    const pod = qp.podInfo.pod;
    const fwk = this.frameworkForPod(pod);
    if (!fwk) return;
    // skipPodSchedule: a pod being deleted, or one already assumed.
    if (pod.metadata.deletionTimestamp) {
      this.recorder.eventf(
        pod,
        'Warning',
        'FailedScheduling',
        'Scheduling',
        `skip schedule deleting pod: ${pod.metadata.namespace}/${pod.metadata.name}`,
      );
      return;
    }
    if (this.cache.isAssumedPod(qp.podInfo.uid)) return;

    const state = new CycleState();
    const outcome = this.algorithm.schedulePod(fwk, state, qp.podInfo);
    switch (outcome.kind) {
      case 'noNodes':
        this.handleSchedulingFailure(
          qp,
          new Status(Code.UnschedulableAndUnresolvable, [ErrNoNodesAvailable]),
        );
        return;
      case 'error':
        this.handleSchedulingFailure(qp, new Status(Code.Error, outcome.status.reasons));
        return;
      case 'fitError': {
        const fe = outcome.fitError;
        this.charge(fe.numAllNodes, 0);
        // Run PostFilter (DefaultPreemption) to attempt to make the pod schedulable later.
        const post = fwk.runPostFilterPlugins(
          qp.podInfo,
          this.cache.nodeInfoList(),
          fe.diagnosis.nodeToStatus,
        );
        if (post) fe.diagnosis.postFilterMsg = post.message();
        qp.unschedulablePlugins = fe.diagnosis.unschedulablePlugins;
        this.handleSchedulingFailure(qp, new Status(Code.Unschedulable, [fitErrorToMessage(fe)]));
        return;
      }
      case 'scheduled':
        break;
    }
    const result = outcome.result;
    this.charge(result.evaluatedNodes, result.feasibleNodes > 1 ? result.feasibleNodes : 0);
    // assume: the cache counts the pod on the node before the binding is observed.
    const assumedPod: Pod = { ...pod, spec: { ...pod.spec, nodeName: result.suggestedHost } };
    const assumedPodInfo: PodInfo = { ...qp.podInfo, pod: assumedPod };
    this.cache.assumePod(assumedPodInfo);
    if (this.sim.records('select'))
      this.sim.record({
        kind: 'select',
        from: Scheduler.NAME,
        to: Scheduler.NAME,
        pod: `${qp.podInfo.namespace}/${pod.metadata.name}`,
        node: result.suggestedHost,
        feasibleNodes: result.feasibleNodes,
        evaluatedNodes: result.evaluatedNodes,
      });
    this.bindingCycle(qp, assumedPod, result.suggestedHost);
  }

  // charge adds a cycle's cost: filtering evaluatedNodes and scoring scoredNodes.
  private charge(evaluatedNodes: number, scoredNodes: number): void {
    this.busyUntil =
      Math.max(this.busyUntil, this.sim.now()) + schedulingCycleCost(evaluatedNodes, scoredNodes);
  }

  /**
   * bindingCycle mirrors bindingCycle with DefaultBinder: POST pods/binding. Upstream binds on a
   * goroutine, which waits in the client's rate limiter while the next cycles run; here the POST
   * is sent at the time its token comes (at once while the bucket has tokens).
   */
  private bindingCycle(qp: QueuedPodInfo, assumedPod: Pod, host: string): void {
    // The POST goes when the cycle is over (its virtual cost) and the client has a token.
    const at = Math.max(this.client.reserve(), Math.floor(this.busyUntil));
    if (at > this.sim.now()) {
      const cache = this.cache;
      this.sim.at(at, 'kube-scheduler: bind', () => {
        if (this.running && this.cache === cache) this.bind(qp, assumedPod, host);
      });
      return;
    }
    this.bind(qp, assumedPod, host);
  }

  // bind sends the binding whose token bindingCycle took and finishes the binding cycle.
  private bind(qp: QueuedPodInfo, assumedPod: Pod, host: string): void {
    const ns = qp.podInfo.namespace;
    const name = assumedPod.metadata.name;
    try {
      this.client.bind(ns, name, assumedPod.metadata.uid, host, true);
    } catch (e) {
      this.cache.finishBinding(qp.podInfo.uid);
      // handleBindingCycleError: forget the assumed pod; its resources are free again.
      this.cache.forgetPod(qp.podInfo.uid);
      this.queue.moveAllToActiveOrBackoffQueue(EventAssignedPodDelete);
      this.handleSchedulingFailure(
        qp,
        new Status(Code.Error, [e instanceof Error ? e.message : String(e)]),
      );
      return;
    }
    this.cache.finishBinding(qp.podInfo.uid);
    this.scheduledCount++;
    this.recorder.eventf(
      assumedPod,
      'Normal',
      'Scheduled',
      'Binding',
      `Successfully assigned ${ns}/${name} to ${host}`,
    );
  }

  /**
   * handleSchedulingFailure mirrors handleSchedulingFailure: requeue the pod (unless it is gone
   * or got a node meanwhile), record a FailedScheduling Warning event, and set the PodScheduled
   * condition to False with reason Unschedulable (or SchedulerError) and the message.
   */
  private handleSchedulingFailure(qp: QueuedPodInfo, status: Status): void {
    this.failedCount++;
    const pod = qp.podInfo.pod;
    const reason = status.isRejected() ? 'Unschedulable' : 'SchedulerError';
    const errMsg = status.message();
    const cached = this.podInformer.get(qp.podInfo.namespace, pod.metadata.name);
    if (cached && !cached.spec.nodeName && cached.metadata.uid === qp.podInfo.uid) {
      this.queue.addUnschedulableIfNotPresent(qp, this.queue.schedulingCycle);
    }
    this.recorder.eventf(pod, 'Warning', 'FailedScheduling', 'Scheduling', truncateMessage(errMsg));
    const base = cached && cached.metadata.uid === qp.podInfo.uid ? cached : pod;
    const conditions = updatePodCondition(
      base.status?.conditions,
      { type: 'PodScheduled', status: 'False', lastProbeTime: null, reason, message: errMsg },
      formatTime(this.sim.now()),
    );
    if (!conditions) return;
    try {
      this.client.patch<Pod>(
        'pods',
        qp.podInfo.namespace,
        pod.metadata.name,
        { status: { conditions } },
        'status',
      );
    } catch {
      // Error updating pod: logged upstream; the next attempt will try again.
    }
  }

  /** pendingPods lists the pods waiting in the scheduling queue. */
  pendingPods(): Pod[] {
    return this.queue.pendingPods();
  }
}

/**
 * nodeSchedulingPropertiesChange mirrors NodeSchedulingPropertiesChange: which scheduling-relevant
 * parts of a node changed, as ActionType bits.
 */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): number {
  let a = 0;
  if (!!newNode.spec.unschedulable !== !!oldNode.spec.unschedulable)
    a |= ActionType.UpdateNodeTaint;
  if (!deepEqual(newNode.status.allocatable ?? {}, oldNode.status.allocatable ?? {}))
    a |= ActionType.UpdateNodeAllocatable;
  if (!deepEqual(newNode.metadata.labels ?? {}, oldNode.metadata.labels ?? {}))
    a |= ActionType.UpdateNodeLabel;
  if (!deepEqual(newNode.spec.taints ?? [], oldNode.spec.taints ?? []))
    a |= ActionType.UpdateNodeTaint;
  if (!sameConditions(newNode, oldNode)) a |= ActionType.UpdateNodeCondition;
  if (!deepEqual(newNode.metadata.annotations ?? {}, oldNode.metadata.annotations ?? {}))
    a |= ActionType.UpdateNodeAnnotation;
  return a;
}

// sameConditions compares node conditions ignoring lastHeartbeatTime, as upstream strips it.
function sameConditions(a: Node, b: Node): boolean {
  const x = a.status.conditions ?? [];
  const y = b.status.conditions ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const p = x[i];
    const q = y[i];
    if (
      p.type !== q.type ||
      p.status !== q.status ||
      p.reason !== q.reason ||
      p.message !== q.message ||
      p.lastTransitionTime !== q.lastTransitionTime
    )
      return false;
  }
  return true;
}

// Mirrors pkg/scheduler/backend/queue/scheduling_queue.go, active_queue.go and backoff_queue.go:
// the PriorityQueue with activeQ, podBackoffQ and unschedulablePods (see "Simplification:" notes).

import type { Pod } from '../api/types.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import { newPodInfo, type PodInfo } from './framework.ts';

/** ActionType bits (fwk.ActionType). */
export const ActionType = {
  Add: 1,
  Delete: 2,
  UpdateNodeAllocatable: 4,
  UpdateNodeLabel: 8,
  UpdateNodeTaint: 16,
  UpdateNodeCondition: 32,
  UpdateNodeAnnotation: 64,
  UpdatePodLabel: 128,
  UpdatePodOther: 256,
} as const;
/** Update is every update bit. */
export const UpdateAll = 4 | 8 | 16 | 32 | 64 | 128 | 256;

/** EventResource names what a ClusterEvent is about. */
export type EventResource = 'Node' | 'AssignedPod' | 'UnscheduledPod' | '*';

/** ClusterEvent is fwk.ClusterEvent: a resource and the kind of change. */
export interface ClusterEvent {
  resource: EventResource;
  actionType: number;
  /** label names the event in logs and metrics, as ClusterEvent.Label(). */
  label: string;
}

/** Events the scheduler generates itself (framework/events.go). */
export const EventAssignedPodAdd: ClusterEvent = {
  resource: 'AssignedPod',
  actionType: ActionType.Add,
  label: 'AssignedPodAdd',
};
export const EventAssignedPodDelete: ClusterEvent = {
  resource: 'AssignedPod',
  actionType: ActionType.Delete,
  label: 'AssignedPodDelete',
};
export const EventNodeAdd: ClusterEvent = {
  resource: 'Node',
  actionType: ActionType.Add,
  label: 'NodeAdd',
};
export const EventUnschedulableTimeout: ClusterEvent = {
  resource: '*',
  actionType: -1,
  label: 'UnschedulableTimeout',
};

/**
 * pluginEvents lists, per plugin, the events that may make a pod it rejected schedulable
 * (EventsToRegister with queueing hints disabled).
 * Simplification: queueing hint functions are not evaluated; any registered event moves the pod.
 */
export const pluginEvents: Readonly<
  Record<string, readonly { resource: EventResource; actionType: number }[]>
> = {
  NodeUnschedulable: [
    {
      resource: 'Node',
      actionType: ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
    },
  ],
  NodeName: [
    {
      resource: 'Node',
      actionType: ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
    },
  ],
  TaintToleration: [
    {
      resource: 'Node',
      actionType: ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
    },
  ],
  NodeAffinity: [
    {
      resource: 'Node',
      actionType: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
    },
  ],
  NodePorts: [
    { resource: 'AssignedPod', actionType: ActionType.Delete },
    {
      resource: 'Node',
      actionType: ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
    },
  ],
  NodeResourcesFit: [
    { resource: 'AssignedPod', actionType: ActionType.Delete },
    {
      resource: 'Node',
      actionType:
        ActionType.Add |
        ActionType.UpdateNodeAllocatable |
        ActionType.UpdateNodeTaint |
        ActionType.UpdateNodeLabel,
    },
  ],
  PodTopologySpread: [
    {
      resource: 'AssignedPod',
      actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete,
    },
    {
      resource: 'Node',
      actionType:
        ActionType.Add |
        ActionType.Delete |
        ActionType.UpdateNodeLabel |
        ActionType.UpdateNodeTaint,
    },
  ],
  InterPodAffinity: [
    {
      resource: 'AssignedPod',
      actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete,
    },
    {
      resource: 'Node',
      actionType: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
    },
  ],
};

/** QueuedPodInfo is a pod in the scheduling queue (framework.QueuedPodInfo). */
export interface QueuedPodInfo {
  podInfo: PodInfo;
  /** timestamp is when the pod was last added to the queue (ms); it orders activeQ and starts backoff. */
  timestamp: number;
  /** initialAttemptTimestamp is when the pod was first popped. */
  initialAttemptTimestamp: number | undefined;
  /** attempts counts the scheduling attempts (incremented by pop). */
  attempts: number;
  /** unschedulablePlugins are the plugins that rejected the pod in its last attempt. */
  unschedulablePlugins: ReadonlySet<string>;
  /** seq breaks ties between equal timestamps in arrival order. */
  seq: number;
  heapIndex: number;
  /** cause is the trace seq of what last put the pod in the queue (sim bookkeeping for "Why?"). */
  cause: number;
}

// noPlugins is the empty set of rejecting plugins, shared (sets of them are replaced, never modified).
const noPlugins: ReadonlySet<string> = new Set();

/** Heap is a binary heap that tracks each item's position, so items can be removed or fixed. */
class Heap {
  readonly items: QueuedPodInfo[] = [];
  private readonly less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;

  constructor(less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean) {
    this.less = less;
  }

  get length(): number {
    return this.items.length;
  }

  peek(): QueuedPodInfo | undefined {
    return this.items[0];
  }

  push(x: QueuedPodInfo): void {
    x.heapIndex = this.items.length;
    this.items.push(x);
    this.up(x.heapIndex);
  }

  pop(): QueuedPodInfo | undefined {
    if (this.items.length === 0) return undefined;
    return this.removeAt(0);
  }

  remove(x: QueuedPodInfo): void {
    if (x.heapIndex >= 0 && this.items[x.heapIndex] === x) this.removeAt(x.heapIndex);
  }

  fix(x: QueuedPodInfo): void {
    if (!this.down(x.heapIndex)) this.up(x.heapIndex);
  }

  private removeAt(i: number): QueuedPodInfo {
    const h = this.items;
    const x = h[i];
    const last = h.pop()!;
    if (i < h.length) {
      h[i] = last;
      last.heapIndex = i;
      if (!this.down(i)) this.up(i);
    }
    x.heapIndex = -1;
    return x;
  }

  private swap(i: number, j: number): void {
    const h = this.items;
    const t = h[i];
    h[i] = h[j];
    h[j] = t;
    h[i].heapIndex = i;
    h[j].heapIndex = j;
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(this.items[i], this.items[p])) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i0: number): boolean {
    const h = this.items;
    let i = i0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      let m = l;
      const r = l + 1;
      if (r < h.length && this.less(h[r], h[l])) m = r;
      if (!this.less(h[m], h[i])) break;
      this.swap(i, m);
      i = m;
    }
    return i > i0;
  }
}

/**
 * prioritySortLess mirrors the PrioritySort plugin's Less: higher priority first, then the
 * earlier queue timestamp. Simplification: the virtual clock has millisecond resolution, so pods
 * added in the same millisecond are ordered by arrival (seq), as nanosecond timestamps would.
 */
export function prioritySortLess(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
  const p1 = a.podInfo.priority;
  const p2 = b.podInfo.priority;
  return (
    p1 > p2 ||
    (p1 === p2 && (a.timestamp < b.timestamp || (a.timestamp === b.timestamp && a.seq < b.seq)))
  );
}

/** podStatusAgnostic strips status and server-set metadata for isPodUpdated. */
function podForComparison(p: Pod): string {
  const { resourceVersion: _rv, generation: _g, ...meta } = p.metadata;
  return JSON.stringify([meta, p.spec]);
}

/** isPodUpdated mirrors isPodUpdated: a change other than status, resourceVersion or generation. */
export function isPodUpdated(oldPod: Pod, newPod: Pod): boolean {
  return podForComparison(oldPod) !== podForComparison(newPod);
}

/**
 * PriorityQueue mirrors PriorityQueue: activeQ holds pods ready to be scheduled (ordered by
 * PrioritySort), podBackoffQ holds pods waiting out their backoff, and unschedulablePods holds
 * pods that failed and wait for a cluster event that may make them schedulable.
 *
 * Simplification: the v1.33+ behaviour of popping from backoffQ when activeQ is empty
 * (SchedulerPopFromBackoffQ) and the separate error backoff queue are not modelled.
 */
export class PriorityQueue {
  private readonly sim: Simulation;
  private readonly activeQ = new Heap(prioritySortLess);
  private readonly podBackoffQ = new Heap(
    (a, b) =>
      this.getBackoffTime(a) < this.getBackoffTime(b) ||
      (this.getBackoffTime(a) === this.getBackoffTime(b) && a.seq < b.seq),
  );
  private readonly unschedulablePods = new Map<string, QueuedPodInfo>();
  /** where tells which sub-queue holds a pod, by UID. */
  private readonly where = new Map<string, 'active' | 'backoff' | 'unschedulable'>();
  private readonly byUid = new Map<string, QueuedPodInfo>();
  private seq = 0;
  /** schedulingCycle counts pops (SchedulingCycle()). */
  schedulingCycle = 0;
  /** moveRequestCycle is the cycle of the last MoveAllToActiveOrBackoffQueue. */
  moveRequestCycle = -1;
  private readonly startTime: number;
  private backoffTimer: TimerHandle | undefined;
  private leftoverTimer: TimerHandle | undefined;
  /** onActive is called when a pod enters activeQ (the scheduler starts a cycle). */
  readonly onActive: () => void;

  constructor(sim: Simulation, onActive: () => void = () => {}) {
    this.sim = sim;
    this.onActive = onActive;
    this.startTime = sim.now();
  }

  private get podInitialBackoff(): number {
    return this.sim.settings.podInitialBackoff;
  }

  private get podMaxBackoff(): number {
    return this.sim.settings.podMaxBackoff;
  }

  /** newQueuedPodInfo mirrors newQueuedPodInfo. */
  newQueuedPodInfo(pod: Pod, podInfo?: PodInfo): QueuedPodInfo {
    return {
      podInfo: podInfo ?? newPodInfo(pod),
      timestamp: this.sim.now(),
      initialAttemptTimestamp: undefined,
      attempts: 0,
      unschedulablePlugins: noPlugins,
      seq: ++this.seq,
      heapIndex: -1,
      cause: this.sim.cause,
    };
  }

  // ---- backoff (backoff_queue.go) ----

  /**
   * calculateBackoffDuration mirrors calculateBackoffDuration: podInitialBackoff doubled per
   * attempt after the first, capped at podMaxBackoff (1s, 2s, 4s, 8s, 10s, 10s...).
   */
  calculateBackoffDuration(attempts: number): number {
    if (attempts === 0) return 0;
    let duration = this.podInitialBackoff;
    for (let i = 1; i < attempts; i++) {
      if (duration > this.podMaxBackoff - duration) return this.podMaxBackoff;
      duration += duration;
    }
    return duration;
  }

  /** getBackoffTime is when the pod's backoff ends: its timestamp plus the backoff duration. */
  getBackoffTime(p: QueuedPodInfo): number {
    return p.timestamp + this.calculateBackoffDuration(p.attempts);
  }

  /** isPodBackingoff is true while the pod's backoff has not ended. */
  isPodBackingoff(p: QueuedPodInfo): boolean {
    return this.getBackoffTime(p) > this.sim.now();
  }

  // ---- sub-queue moves ----

  private toActive(p: QueuedPodInfo): void {
    if (this.sim.cause) p.cause = this.sim.cause;
    this.where.set(p.podInfo.uid, 'active');
    this.byUid.set(p.podInfo.uid, p);
    this.activeQ.push(p);
    this.onActive();
  }

  private toBackoff(p: QueuedPodInfo): void {
    this.where.set(p.podInfo.uid, 'backoff');
    this.byUid.set(p.podInfo.uid, p);
    this.podBackoffQ.push(p);
    this.ensureBackoffTicker();
  }

  private toUnschedulable(p: QueuedPodInfo): void {
    this.where.set(p.podInfo.uid, 'unschedulable');
    this.byUid.set(p.podInfo.uid, p);
    this.unschedulablePods.set(p.podInfo.uid, p);
    this.countRejectors(p, 1);
    this.ensureLeftoverTicker();
  }

  // rejectorCounts counts unschedulable pods per rejecting plugin ("" for none), so that an
  // event no rejecting plugin registered for is dismissed without walking every pod.
  private readonly rejectorCounts = new Map<string, number>();

  private countRejectors(p: QueuedPodInfo, delta: number): void {
    if (p.unschedulablePlugins.size === 0) {
      this.rejectorCounts.set('', (this.rejectorCounts.get('') ?? 0) + delta);
      return;
    }
    for (const name of p.unschedulablePlugins)
      this.rejectorCounts.set(name, (this.rejectorCounts.get(name) ?? 0) + delta);
  }

  private anyPodMayMatch(e: ClusterEvent): boolean {
    if (e.resource === '*' || (this.rejectorCounts.get('') ?? 0) > 0) return true;
    for (const [name, n] of this.rejectorCounts) {
      if (n <= 0 || name === '') continue;
      for (const reg of pluginEvents[name] ?? [])
        if (reg.resource === e.resource && (reg.actionType & e.actionType) !== 0) return true;
    }
    return false;
  }

  private detach(uid: string): QueuedPodInfo | undefined {
    const w = this.where.get(uid);
    const p = this.byUid.get(uid);
    if (!w || !p) return undefined;
    if (w === 'active') this.activeQ.remove(p);
    else if (w === 'backoff') this.podBackoffQ.remove(p);
    else {
      this.unschedulablePods.delete(uid);
      this.countRejectors(p, -1);
    }
    this.where.delete(uid);
    this.byUid.delete(uid);
    return p;
  }

  // ---- the SchedulingQueue interface ----

  /** add mirrors Add: a new unscheduled pod goes to activeQ. */
  add(pod: Pod): void {
    const uid = pod.metadata.uid;
    if (this.where.has(uid)) {
      this.update(this.byUid.get(uid)!.podInfo.pod, pod);
      return;
    }
    this.toActive(this.newQueuedPodInfo(pod));
  }

  /** pop mirrors Pop without blocking: the head of activeQ, or undefined when it is empty. */
  pop(): QueuedPodInfo | undefined {
    const p = this.activeQ.pop();
    if (!p) return undefined;
    this.where.delete(p.podInfo.uid);
    this.byUid.delete(p.podInfo.uid);
    p.attempts++;
    // The set of unschedulable plugins is reset for the next attempt.
    p.unschedulablePlugins = noPlugins;
    this.schedulingCycle++;
    p.initialAttemptTimestamp ??= this.sim.now();
    return p;
  }

  /**
   * update mirrors Update: a pod in activeQ or podBackoffQ is updated in place; a pod in
   * unschedulablePods whose spec or labels changed is moved (to backoffQ if still backing off);
   * a pod in none of them is added to activeQ.
   */
  update(oldPod: Pod | undefined, newPod: Pod): void {
    const uid = newPod.metadata.uid;
    const w = this.where.get(uid);
    const p = this.byUid.get(uid);
    if (!w || !p) {
      this.toActive(this.newQueuedPodInfo(newPod));
      return;
    }
    const changed = !oldPod || isPodUpdated(oldPod, newPod);
    if (changed) p.podInfo = newPodInfo(newPod);
    else p.podInfo.pod = newPod;
    if (w === 'active') {
      this.activeQ.fix(p);
      return;
    }
    if (w === 'backoff') {
      this.podBackoffQ.fix(p);
      return;
    }
    if (changed) {
      this.detach(uid);
      if (this.isPodBackingoff(p)) this.toBackoff(p);
      else this.toActive(p);
    }
  }

  /** delete mirrors Delete: the pod leaves whichever sub-queue holds it. */
  delete(pod: Pod): void {
    this.detach(pod.metadata.uid);
  }

  /**
   * addUnschedulableIfNotPresent mirrors AddUnschedulableIfNotPresent: a pod rejected by plugins
   * waits in unschedulablePods; a pod that failed with an error (no rejecting plugin), or one for
   * which a move request arrived during its cycle, goes to podBackoffQ.
   */
  addUnschedulableIfNotPresent(p: QueuedPodInfo, podSchedulingCycle: number): void {
    if (this.where.has(p.podInfo.uid)) return;
    p.timestamp = this.sim.now();
    if (this.moveRequestCycle >= podSchedulingCycle || p.unschedulablePlugins.size === 0) {
      this.toBackoff(p);
      return;
    }
    this.toUnschedulable(p);
  }

  /** podMatchesEvent mirrors podMatchesEvent: a plugin that rejected the pod registered the event. */
  private podMatchesEvent(p: QueuedPodInfo, e: ClusterEvent): boolean {
    if (e.resource === '*') return true;
    if (p.unschedulablePlugins.size === 0) return true;
    for (const name of p.unschedulablePlugins) {
      for (const reg of pluginEvents[name] ?? []) {
        if (reg.resource === e.resource && (reg.actionType & e.actionType) !== 0) return true;
      }
    }
    return false;
  }

  /**
   * moveAllToActiveOrBackoffQueue mirrors MoveAllToActiveOrBackoffQueue: every unschedulable pod
   * a plugin of which registered the event moves to activeQ, or to podBackoffQ while backing off.
   */
  moveAllToActiveOrBackoffQueue(e: ClusterEvent, preCheck?: (pod: Pod) => boolean): void {
    if (this.unschedulablePods.size > 0 && this.anyPodMayMatch(e)) {
      for (const p of [...this.unschedulablePods.values()]) {
        if (preCheck && !preCheck(p.podInfo.pod)) continue;
        if (!this.podMatchesEvent(p, e)) continue;
        this.detach(p.podInfo.uid);
        if (this.isPodBackingoff(p)) this.toBackoff(p);
        else this.toActive(p);
      }
    }
    this.moveRequestCycle = this.schedulingCycle;
  }

  /** flushBackoffQCompleted mirrors flushBackoffQCompleted: pods whose backoff ended go to activeQ. */
  flushBackoffQCompleted(): void {
    for (;;) {
      const p = this.podBackoffQ.peek();
      if (!p || this.isPodBackingoff(p)) break;
      this.podBackoffQ.pop();
      this.where.delete(p.podInfo.uid);
      this.byUid.delete(p.podInfo.uid);
      this.toActive(p);
    }
  }

  /**
   * flushUnschedulablePodsLeftover mirrors flushUnschedulablePodsLeftover: pods that stayed in
   * unschedulablePods longer than podMaxInUnschedulablePodsDuration are moved.
   */
  flushUnschedulablePodsLeftover(): void {
    const now = this.sim.now();
    const max = this.sim.settings.podMaxInUnschedulablePodsDuration;
    for (const p of [...this.unschedulablePods.values()]) {
      if (now - p.timestamp <= max) continue;
      this.detach(p.podInfo.uid);
      if (this.isPodBackingoff(p)) this.toBackoff(p);
      else this.toActive(p);
    }
  }

  /**
   * The two periodic flushes run every 1s and every 30s from the queue's start, as upstream's
   * wait.Until loops, but are only scheduled while their sub-queue holds pods, so that an idle
   * scheduler leaves nothing on the agenda.
   */
  private ensureBackoffTicker(): void {
    if (this.backoffTimer) return;
    const period = 1000;
    const next =
      this.startTime + (Math.floor((this.sim.now() - this.startTime) / period) + 1) * period;
    this.backoffTimer = this.sim.at(next, 'kube-scheduler: flushBackoffQCompleted', () => {
      this.backoffTimer = undefined;
      this.flushBackoffQCompleted();
      if (this.podBackoffQ.length > 0) this.ensureBackoffTicker();
    });
  }

  private ensureLeftoverTicker(): void {
    if (this.leftoverTimer) return;
    const period = 30_000;
    const next =
      this.startTime + (Math.floor((this.sim.now() - this.startTime) / period) + 1) * period;
    this.leftoverTimer = this.sim.at(next, 'kube-scheduler: flushUnschedulablePodsLeftover', () => {
      this.leftoverTimer = undefined;
      this.flushUnschedulablePodsLeftover();
      if (this.unschedulablePods.size > 0) this.ensureLeftoverTicker();
    });
  }

  /** stop cancels the periodic flushes. */
  stop(): void {
    this.backoffTimer?.cancel();
    this.leftoverTimer?.cancel();
    this.backoffTimer = undefined;
    this.leftoverTimer = undefined;
  }

  // ---- inspection ----

  /** has reports whether the pod is in one of the sub-queues. */
  has(uid: string): boolean {
    return this.where.has(uid);
  }

  /** whereIs names the sub-queue holding the pod. */
  whereIs(uid: string): 'active' | 'backoff' | 'unschedulable' | undefined {
    return this.where.get(uid);
  }

  get activeLength(): number {
    return this.activeQ.length;
  }

  get backoffLength(): number {
    return this.podBackoffQ.length;
  }

  get unschedulableLength(): number {
    return this.unschedulablePods.size;
  }

  /** pendingPods mirrors PendingPods: every pod waiting in the queue. */
  pendingPods(): Pod[] {
    return [...this.byUid.values()].map((p) => p.podInfo.pod);
  }
}

// Mirrors pkg/controller/tainteviction/taint_eviction.go and timed_workers.go (see
// "Simplification:" notes): for every Pod on a node with NoExecute taints, delete it at once if a
// taint is not tolerated, after the smallest tolerationSeconds of the tolerations used, or never
// when those tolerate forever. Deletion first sets the DisruptionTarget condition, then issues a
// normal (graceful) delete. Node updates are handled before Pod updates.

import { deepClone } from '../../api/clone.ts';
import type { KubeObject, Node, Pod, PodCondition, Taint, Toleration } from '../../api/types.ts';
import { isNotFound, StatusError } from '../../apiserver/errors.ts';
import type { Client } from '../../client/client.ts';
import { EventRecorder } from '../../client/events.ts';
import { PodNodeNameKeyIndex, podNodeNameIndexFunc } from '../controller-utils.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import { formatTime } from '../../engine/clock.ts';
import type { Simulation, TimerHandle } from '../../engine/simulation.ts';
import { toleratesTaint } from '../../api/toleration.ts';

export { toleratesTaint };

/** retries is how often deletePodHandler tries addConditionAndDeletePod. */
const retries = 5;
/** retryDelay is the sleep between tries (10ms). */
const retryDelay = 10;
const podsByNodeIndex = PodNodeNameKeyIndex;


/**
 * getMatchingTolerations mirrors pkg/apis/core/v1/helper.GetMatchingTolerations: whether every
 * taint is tolerated, and the first toleration used for each taint.
 */
export function getMatchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[] | undefined,
): [boolean, Toleration[]] {
  if (taints.length === 0) return [true, []];
  if (!tolerations || tolerations.length === 0) return [false, []];
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((x) => toleratesTaint(x, taint));
    if (!t) return [false, []];
    used.push(t);
  }
  return [true, used];
}

/**
 * getMinTolerationTime mirrors upstream: 0 for no tolerations, the smallest tolerationSeconds
 * (any value <= 0 meaning 0) in ms, or -1 (forever) when none sets tolerationSeconds.
 */
export function getMinTolerationTime(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

/** getNoExecuteTaints keeps the NoExecute taints. */
export function getNoExecuteTaints(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

function sameTaints(a: readonly Taint[], b: readonly Taint[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (
      x.key !== y.key ||
      (x.value ?? '') !== (y.value ?? '') ||
      x.effect !== y.effect ||
      (x.timeAdded ?? '') !== (y.timeAdded ?? '')
    )
      return false;
  }
  return true;
}

function sameTolerations(
  a: readonly Toleration[] | undefined,
  b: readonly Toleration[] | undefined,
): boolean {
  // Pod spec is immutable but for tolerations, and an update that leaves them alone keeps the
  // same array in the stored object, so identity answers most calls without serializing.
  if (a === b) return true;
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}

/** TimedWorker is a pending deletion: created at createdAt, to fire at fireAt (virtual ms). */
export interface TimedWorker {
  createdAt: number;
  fireAt: number;
  timer: TimerHandle;
}

interface PodUpdateItem {
  namespace: string;
  name: string;
  nodeName: string;
}

/** TaintEvictionController is kube-controller-manager's taint-eviction-controller. */
export class TaintEvictionController {
  static readonly NAME = 'taint-eviction-controller';

  readonly nodes: Informer<Node>;
  readonly pods: Informer<Pod>;
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  /** taintedNodes maps a node to its NoExecute taints (absent: none). */
  private readonly taintedNodes = new Map<string, Taint[]>();
  /**
   * workers is the TimedWorkerQueue, keyed "namespace/name". A null entry is a deletion already
   * started (no timer: it cannot be cancelled), as upstream's nil worker.
   */
  private readonly workers = new Map<string, TimedWorker | null>();
  // The two work queues (plain de-duplicating FIFOs, as workqueue.Type): nodes come first.
  private readonly nodeQueue = new Set<string>();
  private readonly podQueue = new Map<string, PodUpdateItem>();
  private readonly causes = new Map<string, number>();
  private scheduled = false;
  private running = false;

  constructor(sim: Simulation, client: Client, informers = new SharedInformerFactory(client)) {
    this.sim = sim;
    this.client = client;
    this.recorder = new EventRecorder(client, TaintEvictionController.NAME);
    this.nodes = informers.informerFor<Node>('nodes', TaintEvictionController.NAME);
    this.pods = informers.informerFor<Pod>('pods', TaintEvictionController.NAME).addIndexer(podsByNodeIndex, podNodeNameIndexFunc);
    this.pods.addEventHandler({
      onAdd: (p) => this.podUpdated(undefined, p),
      onUpdate: (o, p) => this.podUpdated(o, p),
      onDelete: (p) => this.podUpdated(p, undefined),
    }, TaintEvictionController.NAME);
    this.nodes.addEventHandler({
      onAdd: (n) => this.nodeUpdated(undefined, n),
      onUpdate: (o, n) => this.nodeUpdated(o, n),
      onDelete: (n) => this.nodeUpdated(n, undefined),
    }, TaintEvictionController.NAME);
  }

  start(): void {
    this.running = true;
    this.nodes.start();
    this.pods.start();
  }

  stop(): void {
    this.running = false;
    this.nodes.stop();
    this.pods.stop();
    for (const w of this.workers.values()) w?.timer.cancel();
    this.workers.clear();
    this.nodeQueue.clear();
    this.podQueue.clear();
    this.taintedNodes.clear();
  }

  /** scheduledEviction returns the pending deletion of a Pod ("namespace/name"), for tests and views. */
  scheduledEviction(key: string): TimedWorker | null | undefined {
    return this.workers.get(key);
  }

  /** nodeUpdated mirrors NodeUpdated: enqueue the node when its NoExecute taints changed. */
  private nodeUpdated(old: Node | undefined, cur: Node | undefined): void {
    const name = (cur ?? old)!.metadata.name;
    if (
      old &&
      cur &&
      sameTaints(getNoExecuteTaints(old.spec.taints), getNoExecuteTaints(cur.spec.taints))
    )
      return;
    this.enqueue(this.nodeQueue.has(name), () => this.nodeQueue.add(name), `node/${name}`);
  }

  /**
   * podUpdated mirrors PodUpdated: enqueue on add, delete, or a change of tolerations or node.
   * Filter: a Pod is only enqueued when its node is tainted or an eviction is pending for it;
   * otherwise handlePodUpdate would return at once (and a node tainted later re-reads its Pods).
   */
  private podUpdated(old: Pod | undefined, cur: Pod | undefined): void {
    const p = (cur ?? old)!;
    if (
      old &&
      cur &&
      sameTolerations(old.spec.tolerations, cur.spec.tolerations) &&
      old.spec.nodeName === cur.spec.nodeName
    )
      return;
    const nodeName = p.spec?.nodeName ?? '';
    const key = `${p.metadata.namespace}/${p.metadata.name}`;
    if (!this.taintedNodes.has(nodeName) && !this.workers.has(key)) return;
    const item: PodUpdateItem = {
      namespace: p.metadata.namespace ?? '',
      name: p.metadata.name,
      nodeName,
    };
    const qk = `${key}@${nodeName}`;
    this.enqueue(this.podQueue.has(qk), () => this.podQueue.set(qk, item), `pod/${qk}`);
  }

  private enqueue(present: boolean, add: () => void, causeKey: string): void {
    if (!this.running || present) return;
    add();
    if (this.sim.cause) this.causes.set(causeKey, this.sim.cause);
    this.kick();
  }

  private kick(): void {
    if (this.scheduled || (this.nodeQueue.size === 0 && this.podQueue.size === 0)) return;
    this.scheduled = true;
    this.sim.after(0, `${TaintEvictionController.NAME}: worker`, () => this.worker(), 0);
  }

  // worker handles one item per engine event, a node update whenever one is waiting, as the
  // upstream worker drains its node channel before each pod update.
  private worker(): void {
    this.scheduled = false;
    if (!this.running) return;
    const node = this.nodeQueue.values().next();
    if (!node.done) {
      this.nodeQueue.delete(node.value);
      this.withCause(`node/${node.value}`, () => this.handleNodeUpdate(node.value));
    } else {
      const first = this.podQueue.entries().next();
      if (!first.done) {
        const [qk, item] = first.value;
        this.podQueue.delete(qk);
        this.withCause(`pod/${qk}`, () => this.handlePodUpdate(item));
      }
    }
    this.kick();
  }

  private withCause(causeKey: string, fn: () => void): void {
    this.sim.cause = this.causes.get(causeKey) ?? 0;
    this.causes.delete(causeKey);
    try {
      fn();
    } finally {
      this.sim.cause = 0;
    }
  }

  /** handleNodeUpdate records the node's NoExecute taints and reprocesses every Pod on it. */
  handleNodeUpdate(nodeName: string): void {
    const node = this.nodes.get(undefined, nodeName);
    if (!node) {
      this.taintedNodes.delete(nodeName);
      return;
    }
    const taints = getNoExecuteTaints(node.spec.taints);
    if (taints.length === 0) this.taintedNodes.delete(nodeName);
    else this.taintedNodes.set(nodeName, taints);
    const pods = this.pods.byIndex(podsByNodeIndex, nodeName);
    if (pods.length === 0) return;
    if (taints.length === 0) {
      for (const p of pods) this.cancelWorkWithEvent(p.metadata.namespace ?? '', p.metadata.name);
      return;
    }
    const now = this.sim.now();
    for (const p of pods)
      this.processPodOnNode(
        p.metadata.namespace ?? '',
        p.metadata.name,
        p.spec.tolerations,
        taints,
        now,
      );
  }

  /** handlePodUpdate processes one Pod against its node's known taints. */
  handlePodUpdate(item: PodUpdateItem): void {
    const pod = this.pods.get(item.namespace, item.name);
    if (!pod) {
      this.cancelWorkWithEvent(item.namespace, item.name);
      return;
    }
    if ((pod.spec.nodeName ?? '') !== item.nodeName || !item.nodeName) return;
    const taints = this.taintedNodes.get(item.nodeName);
    if (!taints) return;
    this.processPodOnNode(item.namespace, item.name, pod.spec.tolerations, taints, this.sim.now());
  }

  /**
   * processPodOnNode mirrors upstream: no taints cancels; an untolerated taint deletes now;
   * tolerations without tolerationSeconds cancel (tolerated forever); otherwise the deletion is
   * due at now + the smallest tolerationSeconds, and an already scheduled deletion created
   * earlier is kept, so re-processing never postpones it.
   */
  processPodOnNode(
    namespace: string,
    name: string,
    tolerations: readonly Toleration[] | undefined,
    taints: readonly Taint[],
    now: number,
  ): void {
    const key = `${namespace}/${name}`;
    if (taints.length === 0) {
      this.cancelWorkWithEvent(namespace, name);
      return;
    }
    const [allTolerated, used] = getMatchingTolerations(taints, tolerations);
    if (!allTolerated) {
      this.cancelWorkWithEvent(namespace, name);
      this.addWork(namespace, name, now, now);
      return;
    }
    const minTolerationTime = getMinTolerationTime(used);
    if (minTolerationTime < 0) {
      this.cancelWorkWithEvent(namespace, name);
      return;
    }
    let startTime = now;
    const triggerTime = startTime + minTolerationTime;
    const scheduled = this.workers.get(key);
    if (scheduled) {
      startTime = scheduled.createdAt;
      // Simplification: virtual time ties where Go's clock never does; a worker created at this
      // same instant is kept too (upstream compares with a strict Before).
      if (startTime + minTolerationTime <= triggerTime) return;
      this.cancelWorkWithEvent(namespace, name);
    }
    this.addWork(namespace, name, startTime, triggerTime);
  }

  // addWork mirrors TimedWorkerQueue.AddWork: nothing if a worker exists; a due deletion starts
  // at once (and can no longer be cancelled); a later one gets a timer of fireAt - createdAt.
  private addWork(namespace: string, name: string, createdAt: number, fireAt: number): void {
    const key = `${namespace}/${name}`;
    if (this.workers.has(key)) return;
    const delay = fireAt - createdAt;
    if (delay <= 0) {
      this.workers.set(key, null);
      this.sim.after(0, `${TaintEvictionController.NAME}: delete ${key}`, () =>
        this.deletePodHandler(namespace, name, 0),
      );
      return;
    }
    const timer = this.sim.after(
      delay,
      `${TaintEvictionController.NAME}: delete ${key}`,
      () => this.fire(namespace, name),
      0,
    );
    this.workers.set(key, { createdAt, fireAt, timer });
  }

  // fire is the worker's timer: the deletion starts (and the worker can no longer be cancelled).
  private fire(namespace: string, name: string): void {
    if (!this.running) return;
    const key = `${namespace}/${name}`;
    const seq = this.sim.record({
      kind: 'timer',
      from: TaintEvictionController.NAME,
      to: TaintEvictionController.NAME,
      what: 'taintEviction',
      object: key,
    });
    if (seq) this.sim.cause = seq;
    this.deletePodHandler(namespace, name, 0);
  }

  // cancelWorkWithEvent cancels a scheduled deletion, with an event when a timer was pending.
  private cancelWorkWithEvent(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    if (!this.workers.has(key)) return;
    const w = this.workers.get(key);
    this.workers.delete(key);
    if (!w) return;
    w.timer.cancel();
    this.podEvent(namespace, name, `Cancelling deletion of Pod ${key}`);
  }

  // podEvent records TaintManagerEviction against a reference without a uid, as upstream.
  private podEvent(namespace: string, name: string, message: string): void {
    const ref = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } } as KubeObject;
    this.recorder.event(ref, 'Normal', 'TaintManagerEviction', message);
  }

  /**
   * deletePodHandler mirrors upstream: an event, then addConditionAndDeletePod, retried up to
   * `retries` times 10ms apart. The worker is forgotten when the handler finishes.
   * Simplification: a Pod that is already gone (NotFound) is not retried.
   */
  private deletePodHandler(namespace: string, name: string, attempt: number): void {
    const key = `${namespace}/${name}`;
    if (!this.running) return;
    if (attempt === 0) this.podEvent(namespace, name, `Marking for deletion Pod ${key}`);
    try {
      this.addConditionAndDeletePod(namespace, name);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      if (!isNotFound(e) && attempt + 1 < retries) {
        this.sim.after(retryDelay, `${TaintEvictionController.NAME}: delete ${key}`, () =>
          this.deletePodHandler(namespace, name, attempt + 1),
        );
        return;
      }
    }
    this.workers.delete(key);
  }

  /**
   * addConditionAndDeletePod GETs the Pod, patches the DisruptionTarget condition into its status
   * if not already there, and deletes it with its normal grace period.
   */
  private addConditionAndDeletePod(namespace: string, name: string): void {
    const pod = this.client.get<Pod>('pods', namespace, name);
    const conds = deepClone(pod.status?.conditions ?? []);
    const want: PodCondition = {
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: formatTime(this.sim.now()),
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    };
    const i = conds.findIndex((c) => c.type === 'DisruptionTarget');
    let updated = true;
    if (i < 0) conds.push(want);
    else {
      const old = conds[i];
      if (old.status === want.status) want.lastTransitionTime = old.lastTransitionTime;
      updated =
        old.status !== want.status || old.reason !== want.reason || old.message !== want.message;
      conds[i] = { ...want, lastProbeTime: old.lastProbeTime ?? null };
    }
    // Simplification: a JSON merge patch of the whole conditions list stands in for the
    // strategic merge patch (with a uid precondition) of utilpod.PatchPodStatus.
    if (updated)
      this.client.patch<Pod>('pods', namespace, name, { status: { conditions: conds } }, 'status');
    this.client.delete('pods', namespace, name);
  }
}

// Mirrors pkg/controller/replicaset/replica_set.go and replica_set_utils.go (see "Simplification:"
// notes): the ReplicaSet controller keeps the number of active Pods owned by each ReplicaSet equal
// to spec.replicas, creating Pods from the template in slow-start batches and deleting the Pods
// ranked first by ActivePodsWithRanks, and reports what it sees in the ReplicaSet's status.

import { deepClone, deepEqual } from '../../api/clone.ts';
import { labelSelectorAsSelector, selectorFromSet, type Selector } from '../../api/labels.ts';
import {
  getControllerOf,
  isPodActive,
  isPodAvailable,
  isPodReady,
  isPodTerminating,
  newControllerRef,
} from '../../api/podutil.ts';
import type {
  KubeObject,
  OwnerReference,
  Pod,
  ReplicaSet,
  ReplicaSetCondition,
  ReplicaSetStatus,
} from '../../api/types.ts';
import { isNotFound, StatusError } from '../../apiserver/errors.ts';
import { StrategicMergePatchType } from '../../apiserver/patch.ts';
import type { Client } from '../../client/client.ts';
import { EventRecorder } from '../../client/events.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import { metaNamespaceKey } from '../../client/keys.ts';
import { RateLimitingQueue, type Sync } from '../../client/workqueue.ts';
import { formatTime } from '../../engine/clock.ts';
import type { Simulation } from '../../engine/simulation.ts';
import {
  adoptPatch,
  cachedSelector,
  claimObject,
  getPodFromTemplate,
  podKey,
  recheckDeletionTimestamp,
  releasePatch,
  SlowStartInitialBatchSize,
  sortActivePodsWithRanks,
  SyncError,
  UIDTrackingControllerExpectations,
  type ActivePodsWithRanks,
} from '../controller-utils.ts';

/** BurstReplicas caps creates and deletes per sync ("based off performance requirements for kubernetes 1.0"). */
export const BurstReplicas = 500;

/** ConcurrentRSSyncs is --concurrent-replicaset-syncs' default: the workers syncing ReplicaSets at once. */
export const ConcurrentRSSyncs = 5;

/** statusUpdateRetries is how many times a failed status update is retried after a fresh GET. */
const statusUpdateRetries = 1;

/** controllerUIDIndex names the informer index of objects by their controller's UID. */
export const controllerUIDIndex = 'controllerUID';
/** controllerUIDOrOrphanIndex names the index of controllerUIDOrOrphanIndexFunc. */
export const controllerUIDOrOrphanIndex = 'controllerUIDOrOrphan';

/**
 * OrphanIndexKey prefixes the index key of objects without a controller (upstream's
 * OrphanPodIndexKey is "_ORPHAN_POD"; the Deployment controller indexes orphan ReplicaSets too).
 */
export const OrphanIndexKey = '_ORPHAN';

/** controllerUIDIndexFunc indexes an object by the UID in its controller ownerReference. */
export function controllerUIDIndexFunc(o: KubeObject): string[] {
  const ref = getControllerOf(o);
  return ref ? [ref.uid] : [];
}

/**
 * orphanIndexKey is the index key of the orphans of a namespace. Simplification: upstream keys all
 * orphan Pods under one key and filters by namespace; the namespace is part of the key here.
 */
export function orphanIndexKey(namespace: string | undefined): string {
  return `${OrphanIndexKey}/${namespace ?? ''}`;
}

/** controllerUIDOrOrphanIndexFunc is controllerUIDIndexFunc with orphans under orphanIndexKey. */
export function controllerUIDOrOrphanIndexFunc(o: KubeObject): string[] {
  const ref = getControllerOf(o);
  return [ref ? ref.uid : orphanIndexKey(o.metadata.namespace)];
}

/** ReplicaSetReplicaFailure is the condition type set when Pods cannot be created or deleted. */
const ReplicaSetReplicaFailure = 'ReplicaFailure';

// Flags of an owned Pod, as its ReplicaSet counts it.
const MATCHES = 1; // the labels match the ReplicaSet's selector (claimed)
const ACTIVE = 2;
const TERMINATING = 4;
const FULLY_LABELED = 8; // the labels match the template's labels
const READY = 16;

/** ReplicaSetPodCounts are the numbers calculateStatus reports. */
export interface ReplicaSetPodCounts {
  active: number;
  fullyLabeled: number;
  ready: number;
  available: number;
  terminating: number;
}

/**
 * OwnedPods keeps, for one ReplicaSet, the flags of every Pod it controls and their sums, updated
 * on every Pod event, so that a sync need not walk all the ReplicaSet's Pods (30,000 per
 * ReplicaSet in the scale benchmark). It is rebuilt from the informer's index when the selector
 * or the template labels it was computed against change. Upstream recounts every sync; the
 * result is the same.
 */
class OwnedPods {
  readonly basis: string;
  readonly selector: Selector;
  readonly templateLabel: Selector;
  private readonly flags = new Map<string, number>();
  active = 0;
  fullyLabeled = 0;
  ready = 0;
  terminating = 0;
  /** unmatched counts active owned Pods whose labels no longer match: they are to be released. */
  unmatched = 0;

  constructor(rs: ReplicaSet, basis: string) {
    this.basis = basis;
    this.selector = labelSelectorAsSelector(rs.spec.selector);
    this.templateLabel = selectorFromSet(rs.spec.template.metadata?.labels ?? {});
  }

  flagsOf(pod: Pod): number {
    let f = 0;
    if (this.selector.matches(pod.metadata.labels)) f |= MATCHES;
    if (isPodActive(pod)) f |= ACTIVE;
    else if (isPodTerminating(pod)) f |= TERMINATING;
    if (this.templateLabel.matches(pod.metadata.labels)) f |= FULLY_LABELED;
    if (isPodReady(pod)) f |= READY;
    return f;
  }

  set(pod: Pod): void {
    const old = this.flags.get(pod.metadata.uid);
    if (old !== undefined) this.add(old, -1);
    const f = this.flagsOf(pod);
    this.flags.set(pod.metadata.uid, f);
    this.add(f, 1);
  }

  remove(uid: string): void {
    const old = this.flags.get(uid);
    if (old === undefined) return;
    this.add(old, -1);
    this.flags.delete(uid);
  }

  private add(f: number, sign: number): void {
    if (!(f & MATCHES)) {
      if (f & ACTIVE) this.unmatched += sign;
      return;
    }
    if (f & ACTIVE) {
      this.active += sign;
      if (f & FULLY_LABELED) this.fullyLabeled += sign;
      if (f & READY) this.ready += sign;
    } else if (f & TERMINATING) this.terminating += sign;
  }
}

// bases memoizes basisOf per spec: cached ReplicaSets are immutable, and a status update (most
// of a ReplicaSet's updates) keeps the spec object.
const bases = new WeakMap<ReplicaSet['spec'], string>();

function basisOf(rs: ReplicaSet): string {
  let basis = bases.get(rs.spec);
  if (basis === undefined) {
    basis = JSON.stringify([rs.spec.selector, rs.spec.template.metadata?.labels ?? {}]);
    bases.set(rs.spec, basis);
  }
  return basis;
}

/** ReplicaSetController is kube-controller-manager's replicaset controller. */
export class ReplicaSetController {
  static readonly NAME = 'replicaset-controller';
  readonly sim: Simulation;
  readonly client: Client;
  readonly rsInformer: Informer<ReplicaSet>;
  readonly podInformer: Informer<Pod>;
  /** expectations holds, per ReplicaSet key, the creates and deletes not yet seen by the informer. */
  expectations: UIDTrackingControllerExpectations;
  queue: RateLimitingQueue;
  /** burstReplicas is sim.settings.burstReplicas (BurstReplicas = 500 upstream). */
  readonly burstReplicas: number;
  private readonly recorder: EventRecorder;
  /** owned holds the Pod counts per ReplicaSet UID (see OwnedPods). */
  private readonly owned = new Map<string, OwnedPods>();

  constructor(sim: Simulation, client: Client, informers = new SharedInformerFactory(client)) {
    this.sim = sim;
    this.client = client;
    this.burstReplicas = sim.settings.burstReplicas ?? BurstReplicas;
    this.recorder = new EventRecorder(client, ReplicaSetController.NAME);
    this.expectations = new UIDTrackingControllerExpectations(() => sim.now());
    this.queue = this.newQueue();

    this.rsInformer = informers.informerFor<ReplicaSet>('replicasets', ReplicaSetController.NAME);
    this.rsInformer.addIndexer(controllerUIDIndex, controllerUIDIndexFunc);
    this.rsInformer.addEventHandler(
      {
        onAdd: (rs) => this.addRS(rs),
        onUpdate: (oldRS, curRS) => this.updateRS(oldRS, curRS),
        onDelete: (rs) => this.deleteRS(rs),
      },
      ReplicaSetController.NAME,
    );

    this.podInformer = informers.informerFor<Pod>('pods', ReplicaSetController.NAME);
    this.podInformer.addIndexer(controllerUIDOrOrphanIndex, controllerUIDOrOrphanIndexFunc);
    this.podInformer.addEventHandler(
      {
        onAdd: (pod) => {
          this.observePod(undefined, pod);
          this.addPod(pod);
        },
        onUpdate: (oldPod, curPod) => {
          this.observePod(oldPod, curPod);
          this.updatePod(oldPod, curPod);
        },
        onDelete: (pod) => {
          this.observePod(pod, undefined);
          this.deletePod(pod);
        },
      },
      ReplicaSetController.NAME,
    );
  }

  private newQueue(): RateLimitingQueue {
    return new RateLimitingQueue(
      this.sim,
      { name: ReplicaSetController.NAME, workers: ConcurrentRSSyncs },
      (key) => this.processNextWorkItem(key),
    );
  }

  /** start lists and watches ReplicaSets and Pods; every ReplicaSet found is queued. */
  start(): void {
    if (this.queue.shuttingDown) {
      // A restarted process starts with an empty queue and no expectations.
      this.queue = this.newQueue();
      this.expectations = new UIDTrackingControllerExpectations(() => this.sim.now());
    }
    this.podInformer.start();
    this.rsInformer.start();
  }

  /** stop closes the watches and shuts the queue down, as when the process exits. */
  stop(): void {
    this.rsInformer.stop();
    this.podInformer.stop();
    this.queue.shutDown();
    this.owned.clear();
  }

  // ---- event handlers: they only enqueue keys (and observe expectations) ----

  private enqueueRS(rs: ReplicaSet): void {
    this.queue.add(metaNamespaceKey(rs));
  }

  private addRS(rs: ReplicaSet): void {
    this.enqueueRS(rs);
  }

  private updateRS(oldRS: ReplicaSet, curRS: ReplicaSet): void {
    if (curRS.metadata.uid !== oldRS.metadata.uid) this.deleteRS(oldRS);
    // Every update is synced, status updates included: a sync that finds nothing to do is cheap.
    this.enqueueRS(curRS);
  }

  private deleteRS(rs: ReplicaSet): void {
    const key = metaNamespaceKey(rs);
    // A ReplicaSet created again with the same name starts with clean expectations.
    this.expectations.deleteExpectations(key);
    this.owned.delete(rs.metadata.uid);
    this.queue.add(key);
  }

  /** resolveControllerRef returns the ReplicaSet a controller ref names, if it is still that one. */
  private resolveControllerRef(
    namespace: string | undefined,
    ref: OwnerReference,
  ): ReplicaSet | undefined {
    if (ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.rsInformer.get(namespace, ref.name);
    return rs && rs.metadata.uid === ref.uid ? rs : undefined;
  }

  /** getPodReplicaSets returns the ReplicaSets whose selector matches an orphan Pod. */
  private getPodReplicaSets(pod: Pod): ReplicaSet[] {
    return this.rsInformer
      .list(undefined, pod.metadata.namespace)
      .filter((rs) => cachedSelector(rs.spec.selector).matches(pod.metadata.labels));
  }

  // observePod keeps the OwnedPods counts current (bookkeeping, not a reaction).
  private observePod(oldPod: Pod | undefined, curPod: Pod | undefined): void {
    const oldUID = oldPod && getControllerOf(oldPod)?.uid;
    const curUID = curPod && getControllerOf(curPod)?.uid;
    if (oldPod && oldUID && oldUID !== curUID) this.owned.get(oldUID)?.remove(oldPod.metadata.uid);
    if (curPod && curUID) this.owned.get(curUID)?.set(curPod);
  }

  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) {
      // A Pod first seen already being deleted must not count as an observed creation.
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref) {
      const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
      if (!rs) return;
      const rsKey = metaNamespaceKey(rs);
      this.expectations.creationObserved(rsKey);
      this.queue.add(rsKey);
      return;
    }
    // An orphan: wake every matching ReplicaSet, one may adopt it. No creation is observed.
    for (const rs of this.getPodReplicaSets(pod)) this.enqueueRS(rs);
  }

  private updatePod(oldPod: Pod, curPod: Pod): void {
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return;
    const labelChanged = !deepEqual(curPod.metadata.labels ?? {}, oldPod.metadata.labels ?? {});
    if (curPod.metadata.deletionTimestamp) {
      // A graceful delete is seen first as an update setting deletionTimestamp; the ReplicaSet
      // replaces the Pod at once rather than waiting for the kubelet to finish it.
      this.deletePod(curPod);
      if (labelChanged) this.deletePod(oldPod);
      return;
    }
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const controllerRefChanged = !deepEqual(curRef, oldRef);
    if (controllerRefChanged && oldRef) {
      const rs = this.resolveControllerRef(oldPod.metadata.namespace, oldRef);
      if (rs) this.enqueueRS(rs);
    }
    if (curRef) {
      const rs = this.resolveControllerRef(curPod.metadata.namespace, curRef);
      if (!rs) return;
      this.enqueueRS(rs);
      // A Pod that just became Ready turns available minReadySeconds later, with no event of its
      // own; requeue then (plus a second against clock skew, as upstream).
      const minReadySeconds = rs.spec.minReadySeconds ?? 0;
      if (!isPodReady(oldPod) && isPodReady(curPod) && minReadySeconds > 0) {
        this.queue.addAfter(metaNamespaceKey(rs), (minReadySeconds + 1) * 1000);
      }
      return;
    }
    if (labelChanged || controllerRefChanged) {
      for (const rs of this.getPodReplicaSets(curPod)) this.enqueueRS(rs);
    }
  }

  private deletePod(pod: Pod): void {
    const ref = getControllerOf(pod);
    if (!ref) return; // nobody waits for an orphan to go
    const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
    if (!rs) return;
    const rsKey = metaNamespaceKey(rs);
    this.expectations.deletionObservedOf(rsKey, podKey(pod));
    this.queue.add(rsKey);
  }

  // ---- worker ----

  // processNextWorkItem runs one sync: success forgets the key's failures; an API error or a
  // SyncError requeues it with back-off. Anything else is a bug in the simulator and is thrown.
  // The sync waits for its client's tokens before each request (see RateLimitingQueue).
  private *processNextWorkItem(key: string): Sync {
    try {
      yield* this.syncReplicaSet(key);
      this.queue.forget(key);
    } catch (e) {
      if (!(e instanceof StatusError) && !(e instanceof SyncError)) throw e;
      this.queue.addRateLimited(key);
    }
  }

  /**
   * syncReplicaSet makes the number of active Pods owned by the ReplicaSet match spec.replicas,
   * once the informer has seen the creates and deletes of the previous sync (expectations), and
   * writes the observed counts to status. Level-triggered: a second run changes nothing.
   * Throws StatusError or SyncError when something failed, so the key is requeued with back-off.
   * A generator: it yields while a request waits for its client's token (Client.throttle).
   */
  *syncReplicaSet(key: string): Sync {
    const rs = this.rsInformer.getByKey(key);
    if (!rs) {
      this.expectations.deleteExpectations(key);
      return;
    }
    const rsNeedsSync = this.expectations.satisfiedExpectations(key);
    const owned = this.ownedPodsFor(rs);
    const adopted = this.claimPods(rs, owned);

    let manageReplicasErr: StatusError | undefined;
    if (rsNeedsSync && !rs.metadata.deletionTimestamp) {
      manageReplicasErr = yield* this.manageReplicas(owned.active + adopted.length, rs, () => [
        ...this.listActivePods(rs, owned),
        ...adopted,
      ]);
    }

    const now = this.sim.now();
    const newStatus = calculateStatus(
      rs,
      this.podCounts(rs, owned, adopted, now),
      manageReplicasErr,
      now,
    );
    const updatedRS = yield* this.updateReplicaSetStatus(rs, newStatus);

    // Resync after minReadySeconds as a last line of defence against clock skew.
    const minReadySeconds = updatedRS.spec.minReadySeconds ?? 0;
    const want = updatedRS.spec.replicas ?? 1;
    if (
      !manageReplicasErr &&
      minReadySeconds > 0 &&
      (updatedRS.status.readyReplicas ?? 0) === want &&
      (updatedRS.status.availableReplicas ?? 0) !== want
    ) {
      this.queue.addAfter(key, minReadySeconds * 1000);
    }
    if (manageReplicasErr) throw manageReplicasErr;
  }

  // ownedPodsFor returns the ReplicaSet's Pod counts, rebuilding them if its spec moved on.
  private ownedPodsFor(rs: ReplicaSet): OwnedPods {
    const basis = basisOf(rs);
    let o = this.owned.get(rs.metadata.uid);
    if (!o || o.basis !== basis) {
      o = new OwnedPods(rs, basis);
      for (const pod of this.podInformer.byIndex(controllerUIDOrOrphanIndex, rs.metadata.uid))
        o.set(pod);
      this.owned.set(rs.metadata.uid, o);
    }
    return o;
  }

  // listActivePods lists the active Pods the ReplicaSet controls and whose labels still match.
  private listActivePods(rs: ReplicaSet, owned: OwnedPods): Pod[] {
    return this.podInformer
      .byIndex(controllerUIDOrOrphanIndex, rs.metadata.uid)
      .filter((p) => isPodActive(p) && owned.selector.matches(p.metadata.labels));
  }

  /**
   * claimPods mirrors rsc.claimPods (PodControllerRefManager.ClaimPods) for the Pods that change
   * hands: owned active Pods whose labels no longer match are released (their ownerReference
   * removed), and active orphans that match are adopted after a live re-read of the ReplicaSet.
   * It returns the adopted Pods; the Pods already owned and matching are counted by OwnedPods.
   * Simplification: these patches (and the re-read) are sent at once, in the bucket's debt when
   * it is empty, rather than waiting for their tokens: they are rare (orphans, relabelled Pods).
   */
  private claimPods(rs: ReplicaSet, owned: OwnedPods): Pod[] {
    const controllerRef = newControllerRef(rs);
    let canAdopt = false;
    const actions = {
      match: (pod: Pod) => owned.selector.matches(pod.metadata.labels),
      adopt: (pod: Pod) => {
        if (!canAdopt) {
          try {
            recheckDeletionTimestamp('ReplicaSet', rs, () =>
              this.client.get<ReplicaSet>('replicasets', rs.metadata.namespace, rs.metadata.name),
            );
          } catch (e) {
            throw new SyncError(
              `can't adopt Pod ${pod.metadata.namespace}/${pod.metadata.name} (${pod.metadata.uid}): ${(e as Error).message}`,
            );
          }
          canAdopt = true;
        }
        this.client.patch(
          'pods',
          pod.metadata.namespace,
          pod.metadata.name,
          adoptPatch(pod, controllerRef),
          undefined,
          StrategicMergePatchType,
        );
      },
      release: (pod: Pod) => {
        this.client.patch(
          'pods',
          pod.metadata.namespace,
          pod.metadata.name,
          releasePatch(pod, rs.metadata.uid),
          undefined,
          StrategicMergePatchType,
        );
      },
    };
    if (owned.unmatched > 0 && !rs.metadata.deletionTimestamp) {
      for (const pod of this.podInformer.byIndex(controllerUIDOrOrphanIndex, rs.metadata.uid)) {
        if (isPodActive(pod) && !owned.selector.matches(pod.metadata.labels))
          claimObject(rs, pod, actions);
      }
    }
    const adopted: Pod[] = [];
    if (rs.metadata.deletionTimestamp) return adopted;
    for (const pod of this.podInformer.byIndex(
      controllerUIDOrOrphanIndex,
      orphanIndexKey(rs.metadata.namespace),
    )) {
      if (isPodActive(pod) && claimObject(rs, pod, actions)) adopted.push(pod);
    }
    return adopted;
  }

  // podCounts gathers what calculateStatus reports: OwnedPods' sums plus the Pods just adopted.
  private podCounts(
    rs: ReplicaSet,
    owned: OwnedPods,
    adopted: readonly Pod[],
    now: number,
  ): ReplicaSetPodCounts {
    const extra = adopted.length > 0 ? countPods(rs, adopted, [], now) : noPods;
    const minReadySeconds = rs.spec.minReadySeconds ?? 0;
    let available = owned.ready;
    if (minReadySeconds > 0) {
      // Availability depends on the time: count it now.
      available = 0;
      for (const pod of this.listActivePods(rs, owned))
        if (isPodAvailable(pod, minReadySeconds, now)) available++;
    }
    return {
      active: owned.active + extra.active,
      fullyLabeled: owned.fullyLabeled + extra.fullyLabeled,
      ready: owned.ready + extra.ready,
      available: available + extra.available,
      terminating: owned.terminating,
    };
  }

  /**
   * manageReplicas creates or deletes Pods so that the active Pods match spec.replicas, at most
   * burstReplicas per sync. Creates go out in slow-start batches (1, 2, 4, ...); deletes pick the
   * Pods ranked first by getPodsToDelete. It returns the first error, which lands in the
   * ReplicaFailure condition and requeues the ReplicaSet. Simplification (performance): upstream
   * receives the list of active Pods; here their number, and the list only when Pods are deleted.
   * The requests of a batch (and all the deletes) go in parallel upstream, each in its goroutine:
   * their tokens are reserved together and each request is sent at its token's time.
   */
  *manageReplicas(
    activeCount: number,
    rs: ReplicaSet,
    listActivePods: () => Pod[],
  ): Generator<number, StatusError | undefined, void> {
    const rsKey = metaNamespaceKey(rs);
    let diff = activeCount - (rs.spec.replicas ?? 1);
    if (diff < 0) {
      diff = Math.min(-diff, this.burstReplicas);
      // Expectations are set before the creates: their watch events may arrive at any time after.
      this.expectations.expectCreations(rsKey, diff);
      let firstErr: StatusError | undefined;
      const successfulCreations = yield* this.slowStartBatch(
        diff,
        SlowStartInitialBatchSize,
        () => {
          const err = this.createPod(rs);
          firstErr ??= err;
          return err === undefined;
        },
      );
      // The skipped creations will never be observed; stop waiting for them.
      for (let skipped = diff - successfulCreations; skipped > 0; skipped--) {
        this.expectations.creationObserved(rsKey);
      }
      return firstErr;
    }
    if (diff > 0) {
      diff = Math.min(diff, this.burstReplicas);
      const filteredPods = listActivePods();
      // Related Pods (of every ReplicaSet of the same Deployment) only matter when ranking.
      const relatedPods = diff < filteredPods.length ? this.getIndirectlyRelatedPods(rs) : [];
      const podsToDelete = getPodsToDelete(filteredPods, relatedPods, diff, this.sim.now());
      this.expectations.expectDeletionsOf(rsKey, podsToDelete.map(podKey));
      let firstErr: StatusError | undefined;
      const tokens = this.reserveTokens(podsToDelete.length);
      for (let i = 0; i < podsToDelete.length; i++) {
        const pod = podsToDelete[i];
        yield* this.client.sendAt(tokens[i]);
        const err = this.deletePodOf(rs, pod);
        if (!err) continue;
        // The informer will not observe this deletion.
        this.expectations.deletionObservedOf(rsKey, podKey(pod));
        if (!isNotFound(err)) firstErr ??= err;
      }
      return firstErr;
    }
    return undefined;
  }

  /**
   * slowStartBatch mirrors replica_set.go#slowStartBatch (as controller-utils' slowStartBatch) for
   * calls that are requests: the calls of a batch run in parallel goroutines upstream, so their
   * tokens are reserved together and each call is made at its token's time; the next batch
   * starts when the whole batch is done. It returns the number of successful calls.
   */
  private *slowStartBatch(
    count: number,
    initialBatchSize: number,
    fn: () => boolean,
  ): Generator<number, number, void> {
    let remaining = count;
    let successes = 0;
    for (
      let batchSize = Math.min(remaining, initialBatchSize);
      batchSize > 0;
      batchSize = Math.min(2 * batchSize, remaining)
    ) {
      const tokens = this.reserveTokens(batchSize);
      let failed = 0;
      for (let i = 0; i < batchSize; i++) {
        yield* this.client.sendAt(tokens[i]);
        if (!fn()) failed++;
      }
      successes += batchSize - failed;
      if (failed > 0) return successes;
      remaining -= batchSize;
    }
    return successes;
  }

  // reserveTokens reserves the tokens of n requests made in parallel, in the order they are made.
  private reserveTokens(n: number): number[] {
    const tokens: number[] = new Array<number>(n);
    for (let i = 0; i < n; i++) tokens[i] = this.client.reserve();
    return tokens;
  }

  // createPod mirrors RealPodControl.CreatePods: one Pod from the template, and an Event either way.
  private createPod(rs: ReplicaSet): StatusError | undefined {
    const pod = getPodFromTemplate(rs.spec.template, rs, newControllerRef(rs));
    try {
      const created = this.client.create<Pod>('pods', pod, true);
      this.recorder.event(
        rs,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${created.metadata.name}`,
      );
      return undefined;
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      this.recorder.event(rs, 'Warning', 'FailedCreate', `Error creating: ${e.message}`);
      return e;
    }
  }

  // deletePodOf mirrors RealPodControl.DeletePod; NotFound is not worth an Event.
  private deletePodOf(rs: ReplicaSet, pod: Pod): StatusError | undefined {
    try {
      this.client.delete('pods', pod.metadata.namespace, pod.metadata.name);
      this.recorder.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      return undefined;
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      if (!isNotFound(e))
        this.recorder.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${e.message}`);
      return e;
    }
  }

  /** getReplicaSetsWithSameController returns the ReplicaSets with the same controller (Deployment) as rs. */
  getReplicaSetsWithSameController(rs: ReplicaSet): ReplicaSet[] {
    const ref = getControllerOf(rs);
    if (!ref) return [];
    return this.rsInformer.byIndex(controllerUIDIndex, ref.uid);
  }

  /**
   * getIndirectlyRelatedPods returns the Pods of every ReplicaSet owned by rs's owner: the Pods a
   * rank counts. Simplification: Pods are found by owner (index) rather than by each related
   * ReplicaSet's selector.
   */
  getIndirectlyRelatedPods(rs: ReplicaSet): Pod[] {
    // A Pod has one controller, so it sits under one ReplicaSet's key: no Pod is listed twice
    // (upstream, listing by selector, has to skip duplicates).
    const out: Pod[] = [];
    for (const related of this.getReplicaSetsWithSameController(rs)) {
      for (const pod of this.podInformer.byIndex(controllerUIDOrOrphanIndex, related.metadata.uid))
        out.push(pod);
    }
    return out;
  }

  // updateReplicaSetStatus mirrors replica_set_utils.go: nothing is written in the steady state;
  // otherwise one UpdateStatus, retried once on a fresh copy.
  private *updateReplicaSetStatus(
    rs: ReplicaSet,
    newStatus: ReplicaSetStatus,
  ): Generator<number, ReplicaSet, void> {
    const s = rs.status ?? { replicas: 0 };
    if (
      (s.replicas ?? 0) === newStatus.replicas &&
      (s.fullyLabeledReplicas ?? 0) === (newStatus.fullyLabeledReplicas ?? 0) &&
      (s.readyReplicas ?? 0) === (newStatus.readyReplicas ?? 0) &&
      (s.availableReplicas ?? 0) === (newStatus.availableReplicas ?? 0) &&
      s.terminatingReplicas === newStatus.terminatingReplicas &&
      (rs.metadata.generation ?? 0) === (s.observedGeneration ?? 0) &&
      deepEqual(s.conditions ?? [], newStatus.conditions ?? [])
    ) {
      return rs;
    }
    // Record the generation acted on, so a retry does not claim to have seen a later spec.
    newStatus.observedGeneration = rs.metadata.generation;
    let current = rs;
    for (let i = 0; ; i++) {
      // The status subresource keeps nothing of what it is sent but status, so only status is
      // copied: the rest is shared with the cache (never mutated) and the copy is handed off.
      const copy: ReplicaSet = { ...current, status: deepClone(newStatus) };
      try {
        yield* this.client.throttle();
        return this.client.updateStatus<ReplicaSet>('replicasets', copy, true);
      } catch (e) {
        if (!(e instanceof StatusError) || i >= statusUpdateRetries) throw e;
      }
      yield* this.client.throttle();
      current = this.client.get<ReplicaSet>('replicasets', rs.metadata.namespace, rs.metadata.name);
    }
  }
}

/** noPods is countPods of no Pods. */
const noPods: Readonly<ReplicaSetPodCounts> = {
  active: 0,
  fullyLabeled: 0,
  ready: 0,
  available: 0,
  terminating: 0,
};

/**
 * getPodsToDelete mirrors replica_set.go#getPodsToDelete: the diff Pods to delete first. Sorting
 * (by ActivePodsWithRanks, ranked by related Pods on the same node) happens only when not all
 * Pods go.
 */
export function getPodsToDelete(
  filteredPods: readonly Pod[],
  relatedPods: readonly Pod[],
  diff: number,
  now: number,
): Pod[] {
  const pods = [...filteredPods];
  if (diff < pods.length) {
    sortActivePodsWithRanks(getPodsRankedByRelatedPodsOnSameNode(pods, relatedPods, now));
  }
  return pods.slice(0, diff);
}

/**
 * getPodsRankedByRelatedPodsOnSameNode ranks each Pod by the number of active related Pods on
 * its node (unassigned Pods share the node ""). The returned value wraps podsToRank itself.
 */
export function getPodsRankedByRelatedPodsOnSameNode(
  podsToRank: Pod[],
  relatedPods: readonly Pod[],
  now: number,
): ActivePodsWithRanks {
  const podsOnNode = new Map<string, number>();
  for (const pod of relatedPods) {
    if (!isPodActive(pod)) continue;
    const n = pod.spec?.nodeName ?? '';
    podsOnNode.set(n, (podsOnNode.get(n) ?? 0) + 1);
  }
  const rank = podsToRank.map((pod) => podsOnNode.get(pod.spec?.nodeName ?? '') ?? 0);
  return { pods: podsToRank, rank, now };
}

/** countPods counts active Pods (and those fully labeled, Ready, available) and terminating ones. */
export function countPods(
  rs: ReplicaSet,
  activePods: readonly Pod[],
  terminatingPods: readonly Pod[],
  now: number,
): ReplicaSetPodCounts {
  const templateLabel = selectorFromSet(rs.spec.template.metadata?.labels ?? {});
  const minReadySeconds = rs.spec.minReadySeconds ?? 0;
  const c: ReplicaSetPodCounts = {
    active: activePods.length,
    fullyLabeled: 0,
    ready: 0,
    available: 0,
    terminating: terminatingPods.length,
  };
  for (const pod of activePods) {
    if (templateLabel.matches(pod.metadata.labels)) c.fullyLabeled++;
    if (isPodReady(pod)) {
      c.ready++;
      if (isPodAvailable(pod, minReadySeconds, now)) c.available++;
    }
  }
  return c;
}

/**
 * calculateStatus mirrors replica_set_utils.go#calculateStatus: the counts of active Pods (and
 * of those fully labeled, Ready and available), of terminating Pods (the
 * DeploymentReplicaSetTerminatingReplicas feature, beta and on by default since v1.35), and the
 * ReplicaFailure condition when creating or deleting failed. Zero counts are left out as
 * `omitempty` leaves them out of the JSON.
 */
export function calculateStatus(
  rs: ReplicaSet,
  counts: ReplicaSetPodCounts,
  manageReplicasErr: Error | undefined,
  now: number,
): ReplicaSetStatus {
  const newStatus: ReplicaSetStatus = deepClone(rs.status ?? { replicas: 0 });
  const failureCond = newStatus.conditions?.find((c) => c.type === ReplicaSetReplicaFailure);
  if (manageReplicasErr && !failureCond) {
    const diff = counts.active - (rs.spec.replicas ?? 1);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    const cond: ReplicaSetCondition = {
      type: ReplicaSetReplicaFailure,
      status: 'True',
      lastTransitionTime: formatTime(now),
      reason,
      message: manageReplicasErr.message,
    };
    newStatus.conditions = [
      ...(newStatus.conditions ?? []).filter((c) => c.type !== ReplicaSetReplicaFailure),
      cond,
    ];
  } else if (!manageReplicasErr && failureCond) {
    newStatus.conditions = newStatus.conditions!.filter((c) => c.type !== ReplicaSetReplicaFailure);
  }
  if (newStatus.conditions && newStatus.conditions.length === 0) delete newStatus.conditions;

  newStatus.replicas = counts.active;
  setOrOmit(newStatus, 'fullyLabeledReplicas', counts.fullyLabeled);
  setOrOmit(newStatus, 'readyReplicas', counts.ready);
  setOrOmit(newStatus, 'availableReplicas', counts.available);
  // status.terminatingReplicas is left out: DeploymentReplicaSetTerminatingReplicas is alpha and
  // off in v1.34 (pkg/features/kube_features.go).
  return newStatus;
}

function setOrOmit(
  s: ReplicaSetStatus,
  field: 'fullyLabeledReplicas' | 'readyReplicas' | 'availableReplicas',
  v: number,
): void {
  if (v) s[field] = v;
  else delete s[field];
}

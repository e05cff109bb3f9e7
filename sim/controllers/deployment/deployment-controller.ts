// Mirrors pkg/controller/deployment/{deployment_controller.go,sync.go,rolling.go,recreate.go,progress.go}
// (see "Simplification:" notes): the Deployment controller rolls a Deployment's Pod template out
// through ReplicaSets named <deployment>-<pod-template-hash>, scaling the new one up and the old
// ones down within maxSurge and maxUnavailable (RollingUpdate) or all old ones to zero first
// (Recreate), and reports progress in status conditions.

import { deepClone, deepEqual } from '../../api/clone.ts';
import { getControllerOf, newControllerRef } from '../../api/podutil.ts';
import type {
  Deployment,
  DeploymentCondition,
  DeploymentStatus,
  OwnerReference,
  Pod,
  PodTemplateSpec,
  ReplicaSet,
} from '../../api/types.ts';
import { isAlreadyExists, isNotFound, newNotFound, StatusError } from '../../apiserver/errors.ts';
import { StrategicMergePatchType } from '../../apiserver/patch.ts';
import type { Client } from '../../client/client.ts';
import { EventRecorder } from '../../client/events.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import { metaNamespaceKey } from '../../client/keys.ts';
import { RateLimitingQueue, type Sync } from '../../client/workqueue.ts';
import { parseTime } from '../../engine/clock.ts';
import type { Simulation } from '../../engine/simulation.ts';
import {
  adoptPatch,
  cachedSelector,
  claimObject,
  computeHash,
  filterActiveReplicaSets,
  recheckDeletionTimestamp,
  releasePatch,
  SyncError,
  replicaSetsByCreationTimestamp,
  replicaSetsBySizeNewer,
  replicaSetsBySizeOlder,
} from '../controller-utils.ts';
import {
  controllerUIDIndex,
  controllerUIDOrOrphanIndex,
  controllerUIDIndexFunc,
  controllerUIDOrOrphanIndexFunc,
  orphanIndexKey,
} from '../replicaset/replica-set.ts';
import {
  cloneAndAddLabel,
  cloneSelectorAndAddLabel,
  DefaultDeploymentUniqueLabelKey,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  equalIgnoreHash,
  FailedRSCreateReason,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  FoundNewRSReason,
  getActualReplicaCountForReplicaSets,
  getAvailableReplicaCountForReplicaSets,
  getDeploymentCondition,
  getDesiredReplicasAnnotation,
  getProportion,
  getReadyReplicaCountForReplicaSets,
  getReplicaCountForReplicaSets,
  hasProgressDeadline,
  hasRevisionHistoryLimit,
  isRollingUpdate,
  isSaturated,
  maxRevision,
  maxSurge,
  maxUnavailable,
  MinimumReplicasAvailable,
  MinimumReplicasUnavailable,
  newDeploymentCondition,
  NewReplicaSetReason,
  NewRSAvailableReason,
  newRSNewReplicas,
  PausedDeployReason,
  removeDeploymentCondition,
  replicasAnnotationsNeedUpdate,
  replicaSetsByRevision,
  replicaSetToDeploymentCondition,
  replicasOf,
  ReplicaSetUpdatedReason,
  ResumedDeployReason,
  RevisionAnnotation,
  setDeploymentCondition,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  TimedOutReason,
} from './util.ts';

/**
 * maxRetries is how often a failing Deployment is retried before it is dropped: with the default
 * rate limiter (5ms * 2^n) the last retry comes 82s after the first failure.
 */
const maxRetries = 15;

/** ConcurrentDeploymentSyncs is --concurrent-deployment-syncs' default: the workers syncing Deployments at once. */
export const ConcurrentDeploymentSyncs = 5;

/** maxRevHistoryLengthInChars limits the revision-history annotation (~100 revisions). */
const maxRevHistoryLengthInChars = 2000;

/** DeploymentController is kube-controller-manager's deployment controller. */
export class DeploymentController {
  static readonly NAME = 'deployment-controller';
  readonly sim: Simulation;
  readonly client: Client;
  readonly dInformer: Informer<Deployment>;
  readonly rsInformer: Informer<ReplicaSet>;
  readonly podInformer: Informer<Pod>;
  queue: RateLimitingQueue;
  private readonly recorder: EventRecorder;
  /** podsByOwner counts the Pods per controller UID, for deletePod's "no Pods left" check. */
  private readonly podsByOwner = new Map<string, number>();
  /**
   * templateMatches memoizes equalIgnoreHash(ReplicaSet template, Deployment template). A sync
   * looks for the new ReplicaSet four times (findNewReplicaSet, as upstream), each a deep
   * comparison of whole Pod templates; the templates compared are those of informer-cached
   * objects (the sync's copy shares spec with the cache), which are never mutated.
   */
  private readonly templateMatches = new WeakMap<
    PodTemplateSpec,
    WeakMap<PodTemplateSpec, boolean>
  >();
  private readonly templatesEqual = (rsTemplate: PodTemplateSpec, dTemplate: PodTemplateSpec) => {
    // A missing template (an invalid object) cannot key a WeakMap.
    if (!rsTemplate || !dTemplate) return equalIgnoreHash(rsTemplate, dTemplate);
    let byRS = this.templateMatches.get(dTemplate);
    if (!byRS) this.templateMatches.set(dTemplate, (byRS = new WeakMap()));
    let eq = byRS.get(rsTemplate);
    if (eq === undefined) byRS.set(rsTemplate, (eq = equalIgnoreHash(rsTemplate, dTemplate)));
    return eq;
  };

  constructor(sim: Simulation, client: Client, informers = new SharedInformerFactory(client)) {
    this.sim = sim;
    this.client = client;
    this.recorder = new EventRecorder(client, DeploymentController.NAME);
    this.queue = this.newQueue();

    this.dInformer = informers.informerFor<Deployment>('deployments', DeploymentController.NAME);
    this.dInformer.addEventHandler(
      {
        onAdd: (d) => this.enqueueDeployment(d),
        onUpdate: (_old, cur) => this.enqueueDeployment(cur),
        // The sync finds the Deployment gone and does nothing.
        onDelete: (d) => this.enqueueDeployment(d),
      },
      DeploymentController.NAME,
    );

    this.rsInformer = informers.informerFor<ReplicaSet>('replicasets', DeploymentController.NAME);
    this.rsInformer.addIndexer(controllerUIDOrOrphanIndex, controllerUIDOrOrphanIndexFunc);
    this.rsInformer.addEventHandler(
      {
        onAdd: (rs) => this.addReplicaSet(rs),
        onUpdate: (oldRS, curRS) => this.updateReplicaSet(oldRS, curRS),
        onDelete: (rs) => this.deleteReplicaSet(rs),
      },
      DeploymentController.NAME,
    );

    this.podInformer = informers.informerFor<Pod>('pods', DeploymentController.NAME);
    this.podInformer.addIndexer(controllerUIDIndex, controllerUIDIndexFunc);
    this.podInformer.addEventHandler(
      {
        onAdd: (pod) => this.countPod(pod, 1),
        onUpdate: (oldPod, curPod) => {
          this.countPod(oldPod, -1);
          this.countPod(curPod, 1);
        },
        onDelete: (pod) => {
          this.countPod(pod, -1);
          this.deletePod(pod);
        },
      },
      DeploymentController.NAME,
    );
  }

  private newQueue(): RateLimitingQueue {
    return new RateLimitingQueue(
      this.sim,
      { name: DeploymentController.NAME, workers: ConcurrentDeploymentSyncs },
      (key) => this.processNextWorkItem(key),
    );
  }

  /** start lists and watches Deployments, ReplicaSets and Pods; every Deployment is queued. */
  start(): void {
    if (this.queue.shuttingDown) this.queue = this.newQueue();
    this.podInformer.start();
    this.rsInformer.start();
    this.dInformer.start();
  }

  /** stop closes the watches and shuts the queue down, as when the process exits. */
  stop(): void {
    this.dInformer.stop();
    this.rsInformer.stop();
    this.podInformer.stop();
    this.queue.shutDown();
    this.podsByOwner.clear();
  }

  // ---- event handlers: they only enqueue keys ----

  private enqueueDeployment(d: Deployment): void {
    this.queue.add(metaNamespaceKey(d));
  }

  /** resolveControllerRef returns the Deployment a controller ref names, if it is still that one. */
  private resolveControllerRef(
    namespace: string | undefined,
    ref: OwnerReference,
  ): Deployment | undefined {
    if (ref.kind !== 'Deployment') return undefined;
    const d = this.dInformer.get(namespace, ref.name);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  /** getDeploymentsForReplicaSet returns the Deployments whose selector matches an orphan ReplicaSet. */
  private getDeploymentsForReplicaSet(rs: ReplicaSet): Deployment[] {
    if (!rs.metadata.labels || Object.keys(rs.metadata.labels).length === 0) return [];
    return this.dInformer.list(undefined, rs.metadata.namespace).filter((d) => {
      const selector = cachedSelector(d.spec.selector);
      return !selector.empty && selector.matches(rs.metadata.labels);
    });
  }

  private addReplicaSet(rs: ReplicaSet): void {
    if (rs.metadata.deletionTimestamp) {
      this.deleteReplicaSet(rs);
      return;
    }
    const ref = getControllerOf(rs);
    if (ref) {
      const d = this.resolveControllerRef(rs.metadata.namespace, ref);
      if (d) this.enqueueDeployment(d);
      return;
    }
    // An orphan: wake every matching Deployment, one may adopt it.
    for (const d of this.getDeploymentsForReplicaSet(rs)) this.enqueueDeployment(d);
  }

  private updateReplicaSet(oldRS: ReplicaSet, curRS: ReplicaSet): void {
    if (curRS.metadata.resourceVersion === oldRS.metadata.resourceVersion) return;
    const curRef = getControllerOf(curRS);
    const oldRef = getControllerOf(oldRS);
    const controllerRefChanged = !deepEqual(curRef, oldRef);
    if (controllerRefChanged && oldRef) {
      const d = this.resolveControllerRef(oldRS.metadata.namespace, oldRef);
      if (d) this.enqueueDeployment(d);
    }
    if (curRef) {
      const d = this.resolveControllerRef(curRS.metadata.namespace, curRef);
      if (d) this.enqueueDeployment(d);
      return;
    }
    const labelChanged = !deepEqual(curRS.metadata.labels ?? {}, oldRS.metadata.labels ?? {});
    if (labelChanged || controllerRefChanged) {
      for (const d of this.getDeploymentsForReplicaSet(curRS)) this.enqueueDeployment(d);
    }
  }

  private deleteReplicaSet(rs: ReplicaSet): void {
    const ref = getControllerOf(rs);
    if (!ref) return;
    const d = this.resolveControllerRef(rs.metadata.namespace, ref);
    if (d) this.enqueueDeployment(d);
  }

  // countPod keeps podsByOwner current (bookkeeping, not a reaction).
  private countPod(pod: Pod, delta: number): void {
    const uid = getControllerOf(pod)?.uid;
    if (!uid) return;
    const n = (this.podsByOwner.get(uid) ?? 0) + delta;
    if (n > 0) this.podsByOwner.set(uid, n);
    else this.podsByOwner.delete(uid);
  }

  // deletePod wakes a Recreate Deployment once the last of its Pods is gone: that is when it may
  // scale the new ReplicaSet up.
  private deletePod(pod: Pod): void {
    const d = this.getDeploymentForPod(pod);
    if (!d || d.spec.strategy?.type !== 'Recreate') return;
    // Simplification: upstream lists the ReplicaSets through the API and the Pods by selector
    // here; we count the cached Pods of the Deployment's ReplicaSets by owner.
    let numPods = 0;
    for (const rs of this.rsInformer.byIndex(controllerUIDOrOrphanIndex, d.metadata.uid)) {
      numPods += this.podsByOwner.get(rs.metadata.uid) ?? 0;
    }
    if (numPods === 0) this.enqueueDeployment(d);
  }

  private getDeploymentForPod(pod: Pod): Deployment | undefined {
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.rsInformer.get(pod.metadata.namespace, ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return undefined;
    const rsRef = getControllerOf(rs);
    return rsRef ? this.resolveControllerRef(rs.metadata.namespace, rsRef) : undefined;
  }

  // ---- worker ----

  // processNextWorkItem runs one sync. An API error or a SyncError requeues the key with back-off,
  // up to maxRetries times; anything else is a bug in the simulator and is thrown.
  private *processNextWorkItem(key: string): Sync {
    try {
      yield* this.syncDeployment(key);
      this.queue.forget(key);
    } catch (e) {
      if (!(e instanceof StatusError) && !(e instanceof SyncError)) throw e;
      if (this.queue.numRequeues(key) < maxRetries) this.queue.addRateLimited(key);
      else this.queue.forget(key);
    }
  }

  /**
   * syncDeployment brings one Deployment's ReplicaSets in line with its spec: status only when it
   * is being deleted, proportional scaling when paused or resized, otherwise a rollout step of
   * its strategy. Level-triggered. Throws StatusError or SyncError when something failed (the key
   * is requeued). A generator: it yields while a request waits for its client's token
   * (Client.throttle).
   */
  *syncDeployment(key: string): Sync {
    const deployment = this.dInformer.getByKey(key);
    if (!deployment) return;
    // Never mutate the cache: work on a copy (upstream's DeepCopy).
    const d = copyForSync(deployment);
    d.status ??= {};

    const sel = d.spec.selector;
    if (!sel || (!sel.matchLabels && !sel.matchExpressions)) {
      this.recorder.event(
        d,
        'Warning',
        'SelectingAll',
        'This deployment is selecting all pods. A non-empty selector is required.',
      );
      if ((d.status.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        d.status.observedGeneration = d.metadata.generation;
        yield* this.client.throttle();
        this.client.updateStatus('deployments', d);
      }
      return;
    }

    const rsList = this.getReplicaSetsForDeployment(d);
    if (d.metadata.deletionTimestamp) return yield* this.syncStatusOnly(d, rsList);

    // Update the Progressing condition first, so that a paused Deployment is not judged stuck.
    yield* this.checkPausedConditions(d);
    if (d.spec.paused) return yield* this.sync(d, rsList);

    // Simplification: spec.rollbackTo (extensions/v1beta1, removed in apps/v1) is not modelled;
    // `kubectl rollout undo` works by writing the old template back.
    if (yield* this.isScalingEvent(d, rsList)) return yield* this.sync(d, rsList);

    switch (d.spec.strategy?.type) {
      case 'Recreate':
        return yield* this.rolloutRecreate(d, rsList, this.getPodMapForDeployment(d, rsList));
      case 'RollingUpdate':
        return yield* this.rolloutRolling(d, rsList);
      default:
        throw new Error(`unexpected deployment strategy type: ${d.spec.strategy?.type}`);
    }
  }

  /**
   * getReplicaSetsForDeployment returns the ReplicaSets this Deployment controls whose labels
   * match its selector, after ClaimReplicaSets: owned ReplicaSets that no longer match are
   * released, and matching orphans adopted (after a live re-read of the Deployment).
   * Simplification: these patches (and the re-read) are sent at once, in the bucket's debt when
   * it is empty, rather than waiting for their tokens: they are rare (orphans, relabelled sets).
   */
  getReplicaSetsForDeployment(d: Deployment): ReplicaSet[] {
    const selector = cachedSelector(d.spec.selector);
    const controllerRef = newControllerRef(d);
    let canAdopt = false;
    const ns = d.metadata.namespace;
    const actions = {
      match: (rs: ReplicaSet) => selector.matches(rs.metadata.labels),
      adopt: (rs: ReplicaSet) => {
        if (!canAdopt) {
          try {
            recheckDeletionTimestamp('Deployment', d, () =>
              this.client.get<Deployment>('deployments', ns, d.metadata.name),
            );
          } catch (e) {
            throw new SyncError(
              `can't adopt ReplicaSet ${ns}/${rs.metadata.name} (${rs.metadata.uid}): ${(e as Error).message}`,
            );
          }
          canAdopt = true;
        }
        this.client.patch(
          'replicasets',
          ns,
          rs.metadata.name,
          adoptPatch(rs, controllerRef),
          undefined,
          StrategicMergePatchType,
        );
      },
      release: (rs: ReplicaSet) => {
        this.client.patch(
          'replicasets',
          ns,
          rs.metadata.name,
          releasePatch(rs, d.metadata.uid),
          undefined,
          StrategicMergePatchType,
        );
      },
    };
    const candidates = [
      ...this.rsInformer.byIndex(controllerUIDOrOrphanIndex, d.metadata.uid),
      ...this.rsInformer.byIndex(controllerUIDOrOrphanIndex, orphanIndexKey(ns)),
    ];
    return candidates.filter((rs) => rs.metadata.namespace === ns && claimObject(d, rs, actions));
  }

  /**
   * getPodMapForDeployment groups the Deployment's Pods by the UID of the ReplicaSet that owns
   * them (every ReplicaSet of rsList gets an entry), for Recreate's "are old Pods still running".
   */
  getPodMapForDeployment(d: Deployment, rsList: readonly ReplicaSet[]): Map<string, Pod[]> {
    const selector = cachedSelector(d.spec.selector);
    const podMap = new Map<string, Pod[]>();
    for (const rs of rsList) {
      const pods = this.podInformer
        .byIndex(controllerUIDIndex, rs.metadata.uid)
        .filter(
          (p) =>
            p.metadata.namespace === d.metadata.namespace && selector.matches(p.metadata.labels),
        );
      podMap.set(rs.metadata.uid, pods);
    }
    return podMap;
  }

  // ---- sync.go ----

  /** syncStatusOnly updates the status and takes no other action (a Deployment being deleted). */
  private *syncStatusOnly(d: Deployment, rsList: ReplicaSet[]): Generator<number, void, void> {
    const { newRS, oldRSs } = yield* this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    yield* this.syncDeploymentStatus(withNew(oldRSs, newRS), newRS, d);
  }

  /** sync handles a scaling event or a paused Deployment: proportional scaling, no rollout. */
  private *sync(d: Deployment, rsList: ReplicaSet[]): Generator<number, void, void> {
    const { newRS, oldRSs } = yield* this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    yield* this.scale(d, newRS, oldRSs);
    // Clean up a paused Deployment (no rollback being in flight, since none is modelled).
    if (d.spec.paused) yield* this.cleanupDeployment(oldRSs, d);
    yield* this.syncDeploymentStatus(withNew(oldRSs, newRS), newRS, d);
  }

  /**
   * checkPausedConditions sets Progressing to Unknown with DeploymentPaused or DeploymentResumed,
   * so the time spent paused does not count against progressDeadlineSeconds.
   */
  private *checkPausedConditions(d: Deployment): Generator<number, void, void> {
    if (!hasProgressDeadline(d)) return;
    const cond = getDeploymentCondition(d.status, 'Progressing');
    // A reported lack of progress is not overwritten by a paused condition.
    if (cond?.reason === TimedOutReason) return;
    const pausedCondExists = cond?.reason === PausedDeployReason;
    const now = this.sim.now();
    let needsUpdate = false;
    if (d.spec.paused && !pausedCondExists) {
      setDeploymentCondition(
        d.status,
        newDeploymentCondition(
          'Progressing',
          'Unknown',
          PausedDeployReason,
          'Deployment is paused',
          now,
        ),
      );
      needsUpdate = true;
    } else if (!d.spec.paused && pausedCondExists) {
      setDeploymentCondition(
        d.status,
        newDeploymentCondition(
          'Progressing',
          'Unknown',
          ResumedDeployReason,
          'Deployment is resumed',
          now,
        ),
      );
      needsUpdate = true;
    }
    // As upstream, d keeps its old resourceVersion after this write, so a later status write of
    // the same sync gets 409 Conflict and the Deployment is requeued.
    if (needsUpdate) {
      yield* this.client.throttle();
      this.client.updateStatus('deployments', d);
    }
  }

  /**
   * getAllReplicaSetsAndSyncRevision returns the new ReplicaSet (creating it if asked and missing)
   * and all old ones, with the new one's revision raised above the old ones' and copied to the
   * Deployment.
   */
  private *getAllReplicaSetsAndSyncRevision(
    d: Deployment,
    rsList: ReplicaSet[],
    createIfNotExisted: boolean,
  ): Generator<number, { newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }, void> {
    const { allRSs: allOldRSs } = findOldReplicaSets(d, rsList, this.templatesEqual);
    const newRS = yield* this.getNewReplicaSet(d, rsList, allOldRSs, createIfNotExisted);
    return { newRS, oldRSs: allOldRSs };
  }

  /**
   * getNewReplicaSet returns the ReplicaSet whose template is the Deployment's, syncing its
   * annotations and the Deployment's revision; or creates it, named <deployment>-<hash> with the
   * pod-template-hash label in its selector, template and labels.
   */
  private *getNewReplicaSet(
    d: Deployment,
    rsList: ReplicaSet[],
    oldRSs: ReplicaSet[],
    createIfNotExisted: boolean,
  ): Generator<number, ReplicaSet | undefined, void> {
    const now = this.sim.now();
    const existingNewRS = findNewReplicaSet(d, rsList, this.templatesEqual);
    const newRevision = String(maxRevision(oldRSs) + 1);

    if (existingNewRS) {
      // Only the annotations and spec.minReadySeconds are written below, so only the objects
      // holding them are copied; the rest is shared with the cache, which is never mutated.
      const rsCopy: ReplicaSet = {
        ...existingNewRS,
        metadata: { ...existingNewRS.metadata },
        spec: { ...existingNewRS.spec },
      };
      if (rsCopy.metadata.annotations)
        rsCopy.metadata.annotations = { ...rsCopy.metadata.annotations };
      const annotationsUpdated = setNewReplicaSetAnnotations(
        d,
        rsCopy,
        newRevision,
        true,
        maxRevHistoryLengthInChars,
      );
      const minReadySecondsNeedsUpdate =
        (rsCopy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0);
      if (annotationsUpdated || minReadySecondsNeedsUpdate) {
        setMinReadySeconds(rsCopy, d.spec.minReadySeconds ?? 0);
        yield* this.client.throttle();
        return this.client.update<ReplicaSet>('replicasets', rsCopy);
      }
      // The revision in the ReplicaSet's annotation is the one to trust.
      let needsUpdate = setDeploymentRevision(
        d,
        rsCopy.metadata.annotations?.[RevisionAnnotation] ?? '',
      );
      const cond = getDeploymentCondition(d.status, 'Progressing');
      if (hasProgressDeadline(d) && !cond) {
        const msg = `Found new replica set "${rsCopy.metadata.name}"`;
        setDeploymentCondition(
          d.status,
          newDeploymentCondition('Progressing', 'True', FoundNewRSReason, msg, now),
        );
        needsUpdate = true;
      }
      // The revision annotation goes through the status subresource, which for Deployments
      // keeps metadata changes other than labels (pkg/registry/apps/deployment/strategy.go).
      if (needsUpdate) {
        yield* this.client.throttle();
        this.client.updateStatus('deployments', d);
      }
      return rsCopy;
    }

    if (!createIfNotExisted) return undefined;

    const newRSTemplate = deepClone(d.spec.template);
    const podTemplateSpecHash = computeHash(newRSTemplate, d.status.collisionCount);
    newRSTemplate.metadata = {
      ...(newRSTemplate.metadata ?? {}),
      labels: cloneAndAddLabel(
        d.spec.template.metadata?.labels,
        DefaultDeploymentUniqueLabelKey,
        podTemplateSpecHash,
      ),
    };
    const newRSSelector = cloneSelectorAndAddLabel(
      d.spec.selector,
      DefaultDeploymentUniqueLabelKey,
      podTemplateSpecHash,
    );
    const newRS: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        // The name is deterministic, so that a repeated create fails rather than duplicates.
        name: `${d.metadata.name}-${podTemplateSpecHash}`,
        namespace: d.metadata.namespace,
        labels: { ...newRSTemplate.metadata.labels },
        ownerReferences: [newControllerRef(d)],
      } as ReplicaSet['metadata'],
      spec: { replicas: 0, selector: newRSSelector, template: newRSTemplate },
      status: { replicas: 0 },
    };
    setMinReadySeconds(newRS, d.spec.minReadySeconds ?? 0);
    const newReplicasCount = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    newRS.spec.replicas = newReplicasCount;
    setNewReplicaSetAnnotations(d, newRS, newRevision, false, maxRevHistoryLengthInChars);

    let alreadyExists = false;
    let createdRS: ReplicaSet;
    try {
      yield* this.client.throttle();
      createdRS = this.client.create<ReplicaSet>('replicasets', newRS);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      if (isAlreadyExists(e)) {
        // A slow cache or a fast resync: the ReplicaSet may be ours already.
        alreadyExists = true;
        const rs = this.rsInformer.get(newRS.metadata.namespace, newRS.metadata.name);
        if (!rs) throw newNotFound('replicaset.apps', newRS.metadata.name);
        const ref = getControllerOf(rs);
        if (
          ref &&
          ref.uid === d.metadata.uid &&
          equalIgnoreHash(d.spec.template, rs.spec.template)
        ) {
          createdRS = rs;
        } else {
          // A hash collision: bump collisionCount so that the next sync computes another name.
          d.status.collisionCount = (d.status.collisionCount ?? 0) + 1;
          try {
            yield* this.client.throttle();
            this.client.updateStatus('deployments', d);
          } catch (dErr) {
            if (!(dErr instanceof StatusError)) throw dErr;
          }
          throw e;
        }
      } else {
        const msg = `Failed to create new replica set "${newRS.metadata.name}": ${e.message}`;
        if (hasProgressDeadline(d)) {
          setDeploymentCondition(
            d.status,
            newDeploymentCondition('Progressing', 'False', FailedRSCreateReason, msg, now),
          );
          try {
            yield* this.client.throttle();
            this.client.updateStatus('deployments', d);
          } catch (dErr) {
            if (!(dErr instanceof StatusError)) throw dErr;
          }
        }
        this.recorder.event(d, 'Warning', FailedRSCreateReason, msg);
        throw e;
      }
    }
    if (!alreadyExists && newReplicasCount > 0) {
      this.recorder.event(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled up replica set ${createdRS.metadata.name} from 0 to ${newReplicasCount}`,
      );
    }
    let needsUpdate = setDeploymentRevision(d, newRevision);
    if (!alreadyExists && hasProgressDeadline(d)) {
      const msg = `Created new replica set "${createdRS.metadata.name}"`;
      setDeploymentCondition(
        d.status,
        newDeploymentCondition('Progressing', 'True', NewReplicaSetReason, msg, now),
      );
      needsUpdate = true;
    }
    if (needsUpdate) {
      yield* this.client.throttle();
      this.client.updateStatus('deployments', d);
    }
    return createdRS;
  }

  /**
   * scale resizes the ReplicaSets on a scaling event or while paused. A single active ReplicaSet
   * simply takes spec.replicas; otherwise (RollingUpdate) the replicas to add or remove are spread
   * over the active ReplicaSets in proportion to their size, so a resize does not hasten or undo
   * the rollout.
   */
  private *scale(
    d: Deployment,
    newRS: ReplicaSet | undefined,
    oldRSs: ReplicaSet[],
  ): Generator<number, void, void> {
    const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest) {
      if (replicasOf(activeOrLatest) === replicasOf(d)) return;
      yield* this.scaleReplicaSetAndRecordEvent(activeOrLatest, replicasOf(d), d);
      return;
    }
    // A saturated new ReplicaSet means the old ones can go entirely.
    if (isSaturated(d, newRS)) {
      for (const old of filterActiveReplicaSets(oldRSs))
        yield* this.scaleReplicaSetAndRecordEvent(old, 0, d);
      return;
    }
    if (!isRollingUpdate(d)) return;

    const allRSs = filterActiveReplicaSets([...oldRSs, newRS]);
    const allRSsReplicas = getReplicaCountForReplicaSets(allRSs);
    const allowedSize = replicasOf(d) > 0 ? replicasOf(d) + maxSurge(d) : 0;
    // Replicas to spread over the active ReplicaSets (negative: to remove).
    const deploymentReplicasToAdd = allowedSize - allRSsReplicas;
    // Larger ReplicaSets first; on equal sizes newer first when adding, older first when removing.
    let scalingOperation = '';
    if (deploymentReplicasToAdd > 0) {
      allRSs.sort(replicaSetsBySizeNewer);
      scalingOperation = 'up';
    } else if (deploymentReplicasToAdd < 0) {
      allRSs.sort(replicaSetsBySizeOlder);
      scalingOperation = 'down';
    }
    let deploymentReplicasAdded = 0;
    const nameToSize = new Map<string, number>();
    for (const rs of allRSs) {
      if (deploymentReplicasToAdd !== 0) {
        const proportion = getProportion(rs, d, deploymentReplicasToAdd, deploymentReplicasAdded);
        nameToSize.set(rs.metadata.name, replicasOf(rs) + proportion);
        deploymentReplicasAdded += proportion;
      } else {
        nameToSize.set(rs.metadata.name, replicasOf(rs));
      }
    }
    for (let i = 0; i < allRSs.length; i++) {
      const rs = allRSs[i];
      // Leftovers (from rounding) go to the largest ReplicaSet.
      if (i === 0 && deploymentReplicasToAdd !== 0) {
        const leftover = deploymentReplicasToAdd - deploymentReplicasAdded;
        nameToSize.set(rs.metadata.name, Math.max(0, nameToSize.get(rs.metadata.name)! + leftover));
      }
      yield* this.scaleReplicaSet(rs, nameToSize.get(rs.metadata.name)!, d, scalingOperation);
    }
  }

  /** scaleReplicaSetAndRecordEvent scales rs to newScale (if different) and records ScalingReplicaSet. */
  private *scaleReplicaSetAndRecordEvent(
    rs: ReplicaSet,
    newScale: number,
    d: Deployment,
  ): Generator<number, { scaled: boolean; rs: ReplicaSet }, void> {
    if (replicasOf(rs) === newScale) return { scaled: false, rs };
    return yield* this.scaleReplicaSet(rs, newScale, d, replicasOf(rs) < newScale ? 'up' : 'down');
  }

  // scaleReplicaSet writes spec.replicas and the desired-replicas/max-replicas annotations.
  private *scaleReplicaSet(
    rs: ReplicaSet,
    newScale: number,
    d: Deployment,
    scalingOperation: string,
  ): Generator<number, { scaled: boolean; rs: ReplicaSet }, void> {
    const sizeNeedsUpdate = replicasOf(rs) !== newScale;
    const maxReplicas = replicasOf(d) + maxSurge(d);
    const annotationsNeedUpdate = replicasAnnotationsNeedUpdate(rs, replicasOf(d), maxReplicas);
    if (!sizeNeedsUpdate && !annotationsNeedUpdate) return { scaled: false, rs };
    const oldScale = replicasOf(rs);
    // Only spec.replicas and the annotations are written, so only the objects holding them are
    // copied (the update copies the whole object as it decodes it).
    const rsCopy: ReplicaSet = { ...rs, metadata: { ...rs.metadata }, spec: { ...rs.spec } };
    if (rsCopy.metadata.annotations)
      rsCopy.metadata.annotations = { ...rsCopy.metadata.annotations };
    rsCopy.spec.replicas = newScale;
    setReplicasAnnotations(rsCopy, replicasOf(d), maxReplicas);
    yield* this.client.throttle();
    const updated = this.client.update<ReplicaSet>('replicasets', rsCopy);
    if (sizeNeedsUpdate) {
      this.recorder.event(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${scalingOperation} replica set ${updated.metadata.name} from ${oldScale} to ${newScale}`,
      );
    }
    return { scaled: sizeNeedsUpdate, rs: updated };
  }

  /**
   * cleanupDeployment deletes the oldest old ReplicaSets beyond revisionHistoryLimit, but only
   * those fully scaled down and observed so (no Pods, spec and status both at zero).
   */
  private *cleanupDeployment(
    oldRSs: readonly ReplicaSet[],
    d: Deployment,
  ): Generator<number, void, void> {
    if (!hasRevisionHistoryLimit(d)) return;
    const cleanable = oldRSs.filter((rs) => rs && !rs.metadata.deletionTimestamp);
    const diff = cleanable.length - d.spec.revisionHistoryLimit!;
    if (diff <= 0) return;
    cleanable.sort(replicaSetsByRevision);
    for (let i = 0; i < diff; i++) {
      const rs = cleanable[i];
      if (
        (rs.status?.replicas ?? 0) !== 0 ||
        replicasOf(rs) !== 0 ||
        (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0) ||
        rs.metadata.deletionTimestamp
      )
        continue;
      try {
        yield* this.client.throttle();
        this.client.delete('replicasets', rs.metadata.namespace, rs.metadata.name);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }

  /** syncDeploymentStatus writes the status computed from the ReplicaSets, if it changed. */
  private *syncDeploymentStatus(
    allRSs: ReplicaSet[],
    newRS: ReplicaSet | undefined,
    d: Deployment,
  ): Generator<number, void, void> {
    const newStatus = calculateStatus(allRSs, newRS, d, this.sim.now());
    if (deepEqual(d.status, newStatus)) return;
    d.status = newStatus;
    yield* this.client.throttle();
    this.client.updateStatus('deployments', d);
  }

  /**
   * isScalingEvent is true when an active ReplicaSet's desired-replicas annotation differs from
   * spec.replicas: the Deployment was resized rather than changed.
   */
  private *isScalingEvent(d: Deployment, rsList: ReplicaSet[]): Generator<number, boolean, void> {
    const { newRS, oldRSs } = yield* this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    for (const rs of filterActiveReplicaSets(withNew(oldRSs, newRS))) {
      const desired = getDesiredReplicasAnnotation(rs);
      if (desired === undefined) continue;
      if (desired !== replicasOf(d)) return true;
    }
    return false;
  }

  // ---- rolling.go ----

  /**
   * rolloutRolling makes one step of a rolling update: scale the new ReplicaSet up if the surge
   * allows, else scale old ones down if availability allows; never both in one pass.
   */
  private *rolloutRolling(d: Deployment, rsList: ReplicaSet[]): Generator<number, void, void> {
    const { newRS, oldRSs } = yield* this.getAllReplicaSetsAndSyncRevision(d, rsList, true);
    const allRSs = withNew(oldRSs, newRS);
    if (yield* this.reconcileNewReplicaSet(allRSs, newRS!, d))
      return yield* this.syncRolloutStatus(allRSs, newRS, d);
    if (yield* this.reconcileOldReplicaSets(allRSs, filterActiveReplicaSets(oldRSs), newRS!, d))
      return yield* this.syncRolloutStatus(allRSs, newRS, d);
    if (deploymentComplete(d, d.status)) yield* this.cleanupDeployment(oldRSs, d);
    yield* this.syncRolloutStatus(allRSs, newRS, d);
  }

  /** reconcileNewReplicaSet scales the new ReplicaSet toward spec.replicas within maxSurge. */
  private *reconcileNewReplicaSet(
    allRSs: ReplicaSet[],
    newRS: ReplicaSet,
    d: Deployment,
  ): Generator<number, boolean, void> {
    if (replicasOf(newRS) === replicasOf(d)) return false;
    if (replicasOf(newRS) > replicasOf(d))
      return (yield* this.scaleReplicaSetAndRecordEvent(newRS, replicasOf(d), d)).scaled;
    const newReplicasCount = newRSNewReplicas(d, allRSs, newRS);
    return (yield* this.scaleReplicaSetAndRecordEvent(newRS, newReplicasCount, d)).scaled;
  }

  /**
   * reconcileOldReplicaSets scales old ReplicaSets down as far as maxUnavailable allows, counting
   * the new ReplicaSet's unavailable Pods against the budget: unhealthy old replicas first, then
   * available ones oldest ReplicaSet first.
   */
  private *reconcileOldReplicaSets(
    allRSs: ReplicaSet[],
    oldRSs: ReplicaSet[],
    newRS: ReplicaSet,
    d: Deployment,
  ): Generator<number, boolean, void> {
    const oldPodsCount = getReplicaCountForReplicaSets(oldRSs);
    if (oldPodsCount === 0) return false;
    const allPodsCount = getReplicaCountForReplicaSets(allRSs);
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const newRSUnavailablePodCount = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = allPodsCount - minAvailable - newRSUnavailablePodCount;
    if (maxScaledDown <= 0) return false;

    // Unhealthy replicas go first: they do not reduce availability, and left alone they would
    // block the rollout until it times out.
    let cleanup: { oldRSs: ReplicaSet[]; count: number };
    let scaledDownCount: number;
    try {
      cleanup = yield* this.cleanupUnhealthyReplicas(oldRSs, d, maxScaledDown);
      scaledDownCount = yield* this.scaleDownOldReplicaSetsForRollingUpdate(
        [...cleanup.oldRSs, newRS],
        cleanup.oldRSs,
        d,
      );
    } catch (e) {
      // As upstream, an error here ends the pass quietly; the status sync still runs.
      if (e instanceof StatusError || e instanceof SyncError) return false;
      throw e;
    }
    return cleanup.count + scaledDownCount > 0;
  }

  /** cleanupUnhealthyReplicas scales old ReplicaSets down by their unavailable replicas, oldest first. */
  private *cleanupUnhealthyReplicas(
    oldRSs: ReplicaSet[],
    d: Deployment,
    maxCleanupCount: number,
  ): Generator<number, { oldRSs: ReplicaSet[]; count: number }, void> {
    oldRSs.sort(replicaSetsByCreationTimestamp);
    let totalScaledDown = 0;
    for (let i = 0; i < oldRSs.length; i++) {
      const targetRS = oldRSs[i];
      if (totalScaledDown >= maxCleanupCount) break;
      if (replicasOf(targetRS) === 0) continue;
      const available = targetRS.status?.availableReplicas ?? 0;
      if (replicasOf(targetRS) === available) continue;
      const scaledDownCount = Math.min(
        maxCleanupCount - totalScaledDown,
        replicasOf(targetRS) - available,
      );
      const newReplicasCount = replicasOf(targetRS) - scaledDownCount;
      if (newReplicasCount > replicasOf(targetRS)) {
        throw new SyncError(
          `when cleaning up unhealthy replicas, got invalid request to scale down ${targetRS.metadata.namespace}/${targetRS.metadata.name} ${replicasOf(targetRS)} -> ${newReplicasCount}`,
        );
      }
      oldRSs[i] = (yield* this.scaleReplicaSetAndRecordEvent(targetRS, newReplicasCount, d)).rs;
      totalScaledDown += scaledDownCount;
    }
    return { oldRSs, count: totalScaledDown };
  }

  /**
   * scaleDownOldReplicaSetsForRollingUpdate scales old ReplicaSets down, oldest first, by as many
   * replicas as are available beyond spec.replicas - maxUnavailable.
   */
  private *scaleDownOldReplicaSetsForRollingUpdate(
    allRSs: ReplicaSet[],
    oldRSs: ReplicaSet[],
    d: Deployment,
  ): Generator<number, number, void> {
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const availablePodCount = getAvailableReplicaCountForReplicaSets(allRSs);
    if (availablePodCount <= minAvailable) return 0;
    oldRSs.sort(replicaSetsByCreationTimestamp);
    let totalScaledDown = 0;
    const totalScaleDownCount = availablePodCount - minAvailable;
    for (const targetRS of oldRSs) {
      if (totalScaledDown >= totalScaleDownCount) break;
      if (replicasOf(targetRS) === 0) continue;
      const scaleDownCount = Math.min(replicasOf(targetRS), totalScaleDownCount - totalScaledDown);
      const newReplicasCount = replicasOf(targetRS) - scaleDownCount;
      if (newReplicasCount > replicasOf(targetRS)) {
        throw new SyncError(
          `when scaling down old RS, got invalid request to scale down ${targetRS.metadata.namespace}/${targetRS.metadata.name} ${replicasOf(targetRS)} -> ${newReplicasCount}`,
        );
      }
      yield* this.scaleReplicaSetAndRecordEvent(targetRS, newReplicasCount, d);
      totalScaledDown += scaleDownCount;
    }
    return totalScaledDown;
  }

  // ---- recreate.go ----

  /**
   * rolloutRecreate scales every old ReplicaSet to zero, waits until none of their Pods is
   * running, and only then creates (or scales up) the new ReplicaSet.
   */
  private *rolloutRecreate(
    d: Deployment,
    rsList: ReplicaSet[],
    podMap: Map<string, Pod[]>,
  ): Generator<number, void, void> {
    // The new ReplicaSet is not created yet, so nothing scales up before the old ones are down.
    let { newRS, oldRSs } = yield* this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    let allRSs = withNew(oldRSs, newRS);
    const activeOldRSs = filterActiveReplicaSets(oldRSs);
    if (yield* this.scaleDownOldReplicaSetsForRecreate(activeOldRSs, d))
      return yield* this.syncRolloutStatus(allRSs, newRS, d);
    // Simplification: the PodReplacementPolicy feature (alpha) is not modelled.
    if (oldPodsRunning(newRS, oldRSs, podMap))
      return yield* this.syncRolloutStatus(allRSs, newRS, d);
    if (!newRS) {
      ({ newRS, oldRSs } = yield* this.getAllReplicaSetsAndSyncRevision(d, rsList, true));
      allRSs = withNew(oldRSs, newRS);
    }
    yield* this.scaleUpNewReplicaSetForRecreate(newRS!, d);
    if (deploymentComplete(d, d.status)) yield* this.cleanupDeployment(oldRSs, d);
    yield* this.syncRolloutStatus(allRSs, newRS, d);
  }

  private *scaleDownOldReplicaSetsForRecreate(
    oldRSs: ReplicaSet[],
    d: Deployment,
  ): Generator<number, boolean, void> {
    let scaled = false;
    for (let i = 0; i < oldRSs.length; i++) {
      if (replicasOf(oldRSs[i]) === 0) continue;
      const r = yield* this.scaleReplicaSetAndRecordEvent(oldRSs[i], 0, d);
      if (r.scaled) {
        oldRSs[i] = r.rs;
        scaled = true;
      }
    }
    return scaled;
  }

  private *scaleUpNewReplicaSetForRecreate(
    newRS: ReplicaSet,
    d: Deployment,
  ): Generator<number, boolean, void> {
    return (yield* this.scaleReplicaSetAndRecordEvent(newRS, replicasOf(d), d)).scaled;
  }

  // ---- progress.go ----

  /**
   * syncRolloutStatus writes the status of a rollout step, with the Progressing condition telling
   * NewReplicaSetAvailable (complete), ReplicaSetUpdated (progress seen) or
   * ProgressDeadlineExceeded (no progress within progressDeadlineSeconds).
   */
  private *syncRolloutStatus(
    allRSs: ReplicaSet[],
    newRS: ReplicaSet | undefined,
    d: Deployment,
  ): Generator<number, void, void> {
    const now = this.sim.now();
    const newStatus = calculateStatus(allRSs, newRS, d, now);
    if (!hasProgressDeadline(d)) removeDeploymentCondition(newStatus, 'Progressing');

    // A completed rollout being resynced estimates no progress.
    const currentCond = getDeploymentCondition(d.status, 'Progressing');
    const isCompleteDeployment =
      (newStatus.replicas ?? 0) === (newStatus.updatedReplicas ?? 0) &&
      currentCond?.reason === NewRSAvailableReason;
    if (hasProgressDeadline(d) && !isCompleteDeployment) {
      if (deploymentComplete(d, newStatus)) {
        const msg = newRS
          ? `ReplicaSet "${newRS.metadata.name}" has successfully progressed.`
          : `Deployment "${d.metadata.name}" has successfully progressed.`;
        setDeploymentCondition(
          newStatus,
          newDeploymentCondition('Progressing', 'True', NewRSAvailableReason, msg, now),
        );
      } else if (deploymentProgressing(d, newStatus)) {
        const msg = newRS
          ? `ReplicaSet "${newRS.metadata.name}" is progressing.`
          : `Deployment "${d.metadata.name}" is progressing.`;
        const condition = newDeploymentCondition(
          'Progressing',
          'True',
          ReplicaSetUpdatedReason,
          msg,
          now,
        );
        // Progress updates lastUpdateTime even with an unchanged reason, so replace the condition
        // rather than set it (setDeploymentCondition keeps one with the same reason).
        if (currentCond) {
          if (currentCond.status === 'True')
            condition.lastTransitionTime = currentCond.lastTransitionTime;
          removeDeploymentCondition(newStatus, 'Progressing');
        }
        setDeploymentCondition(newStatus, condition);
      } else if (deploymentTimedOut(d, newStatus, now)) {
        const msg = newRS
          ? `ReplicaSet "${newRS.metadata.name}" has timed out progressing.`
          : `Deployment "${d.metadata.name}" has timed out progressing.`;
        setDeploymentCondition(
          newStatus,
          newDeploymentCondition('Progressing', 'False', TimedOutReason, msg, now),
        );
      }
    }

    const replicaFailureCond = this.getReplicaFailures(allRSs, newRS);
    if (replicaFailureCond.length > 0) setDeploymentCondition(newStatus, replicaFailureCond[0]);
    else removeDeploymentCondition(newStatus, 'ReplicaFailure');

    if (deepEqual(d.status, newStatus)) {
      this.requeueStuckDeployment(d, newStatus);
      return;
    }
    d.status = newStatus;
    // Every caller returns right after this (d is this sync's own copy), so it is handed off.
    yield* this.client.throttle();
    this.client.updateStatus('deployments', d, true);
  }

  /** getReplicaFailures lifts ReplicaFailure conditions of the new (else any) ReplicaSet. */
  private getReplicaFailures(
    allRSs: readonly ReplicaSet[],
    newRS: ReplicaSet | undefined,
  ): DeploymentCondition[] {
    const conditions: DeploymentCondition[] = [];
    for (const c of newRS?.status?.conditions ?? [])
      if (c.type === 'ReplicaFailure') conditions.push(replicaSetToDeploymentCondition(c));
    if (conditions.length > 0) return conditions;
    for (const rs of allRSs)
      for (const c of rs.status?.conditions ?? [])
        if (c.type === 'ReplicaFailure') conditions.push(replicaSetToDeploymentCondition(c));
    return conditions;
  }

  /**
   * requeueStuckDeployment requeues a Deployment that shows no progress for when its deadline
   * passes (lastUpdateTime + progressDeadlineSeconds, plus a second against clock skew), so a
   * stuck rollout is reported without waiting for another event. It returns the delay in ms,
   * 0 for "now" and -1 for no requeue.
   */
  private requeueStuckDeployment(d: Deployment, newStatus: DeploymentStatus): number {
    const currentCond = getDeploymentCondition(d.status, 'Progressing');
    if (!hasProgressDeadline(d) || !currentCond) return -1;
    if (deploymentComplete(d, newStatus) || currentCond.reason === TimedOutReason) return -1;
    const lastUpdate = currentCond.lastUpdateTime ? parseTime(currentCond.lastUpdateTime) : NaN;
    if (Number.isNaN(lastUpdate)) return -1;
    const after = lastUpdate + d.spec.progressDeadlineSeconds! * 1000 - this.sim.now();
    const key = metaNamespaceKey(d);
    if (after < 1000) {
      this.queue.addRateLimited(key);
      return 0;
    }
    this.queue.addAfter(key, after + 1000);
    return after;
  }
}

/**
 * copyForSync is the sync's copy of a cached Deployment. A sync writes only the top-level fields
 * of status (whose conditions it replaces, never edits) and metadata.annotations (the revision),
 * and sends the copy only to the status subresource, which keeps nothing else of it; so those are
 * copied and spec is shared with the cache, which nobody mutates. Like deepClone, the copied
 * levels leave undefined fields out.
 */
function copyForSync(deployment: Deployment): Deployment {
  const d = definedFields(deployment);
  d.metadata = definedFields(deployment.metadata);
  if (d.metadata.annotations) d.metadata.annotations = definedFields(d.metadata.annotations);
  if (d.status) d.status = definedFields(d.status);
  return d;
}

/** definedFields is a one-level copy of o without its undefined fields, in o's key order. */
function definedFields<T extends object>(o: T): T {
  const out = {} as Record<string, unknown>;
  for (const k in o) {
    const v = (o as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}

/** withNew is Go's append(oldRSs, newRS) without the nil. */
function withNew(oldRSs: readonly ReplicaSet[], newRS: ReplicaSet | undefined): ReplicaSet[] {
  return newRS ? [...oldRSs, newRS] : [...oldRSs];
}

/** setMinReadySeconds sets spec.minReadySeconds, leaving 0 out as omitempty does. */
function setMinReadySeconds(rs: ReplicaSet, v: number): void {
  if (v) rs.spec.minReadySeconds = v;
  else delete rs.spec.minReadySeconds;
}

/**
 * calculateStatus mirrors sync.go#calculateStatus: counts summed over the ReplicaSets, the
 * conditions carried over, and Available set from availableReplicas >= replicas - maxUnavailable.
 * Zero counts are left out as omitempty leaves them out of the JSON. terminatingReplicas is not
 * reported: the DeploymentReplicaSetTerminatingReplicas feature is alpha and off in v1.34 (beta and
 * on from v1.35).
 */
export function calculateStatus(
  allRSs: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: number,
): DeploymentStatus {
  const availableReplicas = getAvailableReplicaCountForReplicaSets(allRSs);
  const totalReplicas = getReplicaCountForReplicaSets(allRSs);
  // More available than desired (while scaling down) is not negative unavailability.
  const unavailableReplicas = Math.max(0, totalReplicas - availableReplicas);
  const status: DeploymentStatus = {};
  const put = (
    k:
      | 'observedGeneration'
      | 'replicas'
      | 'updatedReplicas'
      | 'readyReplicas'
      | 'availableReplicas'
      | 'unavailableReplicas',
    v: number,
  ) => {
    if (v) status[k] = v;
  };
  put('observedGeneration', d.metadata.generation ?? 0);
  put('replicas', getActualReplicaCountForReplicaSets(allRSs));
  put('updatedReplicas', getActualReplicaCountForReplicaSets([newRS]));
  put('readyReplicas', getReadyReplicaCountForReplicaSets(allRSs));
  put('availableReplicas', availableReplicas);
  put('unavailableReplicas', unavailableReplicas);
  if (d.status?.conditions?.length) status.conditions = d.status.conditions.map((c) => ({ ...c }));
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;

  if (availableReplicas >= replicasOf(d) - maxUnavailable(d)) {
    setDeploymentCondition(
      status,
      newDeploymentCondition(
        'Available',
        'True',
        MinimumReplicasAvailable,
        'Deployment has minimum availability.',
        now,
      ),
    );
  } else {
    setDeploymentCondition(
      status,
      newDeploymentCondition(
        'Available',
        'False',
        MinimumReplicasUnavailable,
        'Deployment does not have minimum availability.',
        now,
      ),
    );
  }
  return status;
}

/**
 * oldPodsRunning is true while an old ReplicaSet reports Pods or any Pod of an old ReplicaSet is
 * not in a terminal phase (Unknown counts as running: it might be).
 */
export function oldPodsRunning(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
  podMap: Map<string, Pod[]>,
): boolean {
  if (getActualReplicaCountForReplicaSets(oldRSs) > 0) return true;
  for (const [rsUID, pods] of podMap) {
    if (newRS && newRS.metadata.uid === rsUID) continue;
    for (const pod of pods) {
      const phase = pod.status?.phase;
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}

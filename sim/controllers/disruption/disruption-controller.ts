// Mirrors pkg/controller/disruption/disruption.go (see "Simplification:" notes): for every
// PodDisruptionBudget it counts the selected Pods that are healthy (Ready, not being deleted, not
// recently evicted), works out how many must stay healthy from minAvailable or maxUnavailable and
// the Pods' controllers' scale, and writes status (currentHealthy, desiredHealthy, expectedPods,
// disruptionsAllowed, disruptedPods, observedGeneration, the DisruptionAllowed condition) through
// poddisruptionbudgets/status. kube-apiserver's eviction handler reads that status.
// Simplification: no stale-DisruptionTarget cleanup (upstream removes the condition from a Pod
// not deleted within 2 minutes of it being set), only ReplicaSets and Deployments are known
// controllers (no ReplicationControllers, StatefulSets or scale subresources of custom
// resources), and the warning events for unmanaged Pods are not recorded.
// Simplification: the controller starts reading Pod events once the first PodDisruptionBudget
// appears (upstream it handles them from the start, finding no budget to enqueue), so that runs
// without a budget trace the same deliveries as before it existed.

import { labelSelectorAsSelector } from '../../api/labels.ts';
import { getControllerOf, isPodReady } from '../../api/podutil.ts';
import type {
  Deployment,
  IntOrString,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
} from '../../api/types.ts';
import { isConflict, isNotFound } from '../../apiserver/errors.ts';
import type { Client } from '../../client/client.ts';
import { EventRecorder } from '../../client/events.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../../client/keys.ts';
import { RateLimitingQueue } from '../../client/workqueue.ts';
import { parseTime } from '../../engine/clock.ts';
import type { Simulation } from '../../engine/simulation.ts';
import {
  DisruptionAllowedCondition,
  InsufficientPodsReason,
  setStatusCondition,
  SufficientPodsReason,
  SyncFailedReason,
  updateDisruptionAllowedCondition,
} from '../../registry/policy/poddisruptionbudgets/helpers.ts';

/** DeletionTimeout is how long an evicted Pod may take to be deleted before it counts again (2 min). */
export const DeletionTimeout = 2 * 60 * 1000;

/** getScaledValueFromIntOrPercent mirrors intstr.GetScaledValueFromIntOrPercent. */
export function getScaledValueFromIntOrPercent(
  v: IntOrString,
  total: number,
  roundUp: boolean,
): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) throw new Error(`invalid value for IntOrString: invalid value "${v}"`);
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** ExpectedCounts is what getExpectedPodCount works out. */
export interface ExpectedCounts {
  expectedCount: number;
  desiredHealthy: number;
  unmanagedPods: string[];
}

/** DisruptionController is kube-controller-manager's disruption-controller. */
export class DisruptionController {
  static readonly NAME = 'disruption-controller';
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly informers: SharedInformerFactory;
  private readonly recorder: EventRecorder;
  private readonly queue: RateLimitingQueue;
  private readonly pdbs: Informer<PodDisruptionBudget>;
  private readonly pods: Informer<Pod>;
  private readonly replicaSets: Informer<ReplicaSet>;
  private readonly deployments: Informer<Deployment>;
  private readingPods = false;

  constructor(sim: Simulation, client: Client, informers = new SharedInformerFactory(client)) {
    this.sim = sim;
    this.client = client;
    this.informers = informers;
    // Upstream's recorder names its source "controllermanager".
    this.recorder = new EventRecorder(client, 'controllermanager');
    this.queue = new RateLimitingQueue(
      sim,
      { name: 'disruption', baseDelay: 5, maxDelay: 1_000_000 },
      (key) => this.processNextWorkItem(key),
    );
    this.pdbs = informers.informerFor<PodDisruptionBudget>(
      'poddisruptionbudgets',
      DisruptionController.NAME,
    );
    this.pods = informers.listerFor<Pod>('pods');
    this.replicaSets = informers.listerFor<ReplicaSet>('replicasets');
    this.deployments = informers.listerFor<Deployment>('deployments');
    this.pdbs.addEventHandler(
      {
        onAdd: (p) => this.addDB(p),
        onUpdate: (_o, p) => this.addDB(p),
        onDelete: (p) => this.queue.add(metaNamespaceKey(p)),
      },
      DisruptionController.NAME,
    );
  }

  start(): void {
    this.pdbs.start();
    this.pods.start();
    this.replicaSets.start();
    this.deployments.start();
  }

  stop(): void {
    this.queue.shutDown();
    this.pdbs.stop();
  }

  // addDB enqueues a budget and, with the first one, starts reading Pod events.
  private addDB(pdb: PodDisruptionBudget): void {
    if (!this.readingPods) {
      this.readingPods = true;
      this.informers.informerFor<Pod>('pods', DisruptionController.NAME).addEventHandler(
        {
          onAdd: (p) => this.addPod(p),
          onUpdate: (_o, p) => this.addPod(p),
          onDelete: (p) => this.addPod(p),
        },
        DisruptionController.NAME,
      );
    }
    this.queue.add(metaNamespaceKey(pdb));
  }

  // addPod (and updatePod, deletePod) enqueue the budget selecting the Pod, if any.
  private addPod(pod: Pod): void {
    const pdb = this.getPdbForPod(pod);
    if (pdb) this.queue.add(metaNamespaceKey(pdb));
  }

  /** getPdbForPod mirrors getPdbForPod: the first budget of the Pod's namespace selecting it. */
  getPdbForPod(pod: Pod): PodDisruptionBudget | undefined {
    if (!pod.metadata.labels || Object.keys(pod.metadata.labels).length === 0) return undefined;
    const pdbs = this.pdbs.list(undefined, pod.metadata.namespace).filter((pdb) => {
      const sel = labelSelectorAsSelector(pdb.spec?.selector);
      return !sel.empty && !sel.nothing && sel.matches(pod.metadata.labels);
    });
    if (pdbs.length > 1)
      this.recorder.event(
        pod,
        'Warning',
        'MultiplePodDisruptionBudgets',
        `Pod "${pod.metadata.namespace}"/"${pod.metadata.name}" matches multiple PodDisruptionBudgets.  Chose "${pdbs[0].metadata.name}" arbitrarily.`,
      );
    return pdbs[0];
  }

  private processNextWorkItem(key: string): void {
    try {
      this.sync(key);
      this.queue.forget(key);
    } catch (e) {
      void e;
      this.queue.addRateLimited(key);
    }
  }

  /** sync mirrors sync: trySync, and on any error but a conflict, failSafe. Level-triggered. */
  sync(key: string): void {
    const { namespace: ns, name } = splitMetaNamespaceKey(key);
    const pdb = this.pdbs.get(ns, name);
    if (!pdb) return;
    try {
      this.trySync(pdb);
    } catch (e) {
      if (isConflict(e)) throw e;
      this.failSafe(pdb, e as Error);
    }
  }

  private trySync(pdb: PodDisruptionBudget): void {
    const pods = this.getPodsForPdb(pdb);
    if (pods.length === 0) this.recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    const { expectedCount, desiredHealthy } = this.getExpectedPodCount(pdb, pods);
    const now = this.sim.now();
    const { disruptedPods, recheckTime } = this.buildDisruptedPodMap(pods, pdb, now);
    const currentHealthy = countHealthyPods(pods, disruptedPods, now);
    this.updatePdbStatus(pdb, currentHealthy, desiredHealthy, expectedCount, disruptedPods);
    // An eviction not yet carried out is looked at again when it expires (the recheck queue).
    if (recheckTime !== undefined) this.queue.addAfter(metaNamespaceKey(pdb), recheckTime - now);
  }

  /** getPodsForPdb lists the Pods the budget selects; an empty selector selects none. */
  getPodsForPdb(pdb: PodDisruptionBudget): Pod[] {
    const sel = labelSelectorAsSelector(pdb.spec?.selector);
    if (sel.empty) return [];
    return this.pods.list(sel, pdb.metadata.namespace);
  }

  /**
   * getExpectedPodCount mirrors getExpectedPodCount: with maxUnavailable (or a percent
   * minAvailable) the expected count is the sum of the Pods' controllers' scale, and percents
   * round up; an integer minAvailable counts the selected Pods.
   */
  getExpectedPodCount(pdb: PodDisruptionBudget, pods: Pod[]): ExpectedCounts {
    const { minAvailable, maxUnavailable } = pdb.spec ?? {};
    if (maxUnavailable !== undefined) {
      const { expectedCount, unmanagedPods } = this.getExpectedScale(pods);
      const max = getScaledValueFromIntOrPercent(maxUnavailable, expectedCount, true);
      return { expectedCount, desiredHealthy: Math.max(0, expectedCount - max), unmanagedPods };
    }
    if (minAvailable !== undefined) {
      if (typeof minAvailable === 'number')
        return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
      const { expectedCount, unmanagedPods } = this.getExpectedScale(pods);
      return {
        expectedCount,
        desiredHealthy: getScaledValueFromIntOrPercent(minAvailable, expectedCount, true),
        unmanagedPods,
      };
    }
    return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
  }

  // getExpectedScale sums the scale of the Pods' controllers, each counted once (finders:
  // getPodDeployment, getPodReplicaSet, then the scale subresource, which a DaemonSet lacks).
  private getExpectedScale(pods: Pod[]): { expectedCount: number; unmanagedPods: string[] } {
    const scale = new Map<string, number>();
    const unmanagedPods: string[] = [];
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      if (!ref) {
        unmanagedPods.push(pod.metadata.name);
        continue;
      }
      if (scale.has(ref.uid)) continue;
      const found =
        this.getPodDeployment(ref, pod.metadata.namespace ?? '') ??
        this.getPodReplicaSet(ref, pod.metadata.namespace ?? '');
      if (found) {
        scale.set(found.uid, found.scale);
        continue;
      }
      if (ref.kind === 'ReplicaSet' || ref.kind === 'Deployment') continue;
      const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
      const plural = `${ref.kind.toLowerCase()}s`;
      throw new Error(
        `${group ? `${plural}.${group}` : plural} does not implement the scale subresource`,
      );
    }
    let expectedCount = 0;
    for (const n of scale.values()) expectedCount += n;
    return { expectedCount, unmanagedPods };
  }

  private getPodReplicaSet(
    ref: { kind: string; name: string; uid: string },
    ns: string,
  ): { uid: string; scale: number } | undefined {
    if (ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.replicaSets.get(ns, ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return undefined;
    const owner = getControllerOf(rs);
    if (owner && owner.kind === 'Deployment') return undefined;
    return { uid: rs.metadata.uid, scale: rs.spec.replicas ?? 1 };
  }

  private getPodDeployment(
    ref: { kind: string; name: string; uid: string },
    ns: string,
  ): { uid: string; scale: number } | undefined {
    if (ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.replicaSets.get(ns, ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return undefined;
    const owner = getControllerOf(rs);
    if (!owner || owner.kind !== 'Deployment') return undefined;
    const d = this.deployments.get(ns, owner.name);
    if (!d || d.metadata.uid !== owner.uid) return undefined;
    return { uid: d.metadata.uid, scale: d.spec.replicas ?? 1 };
  }

  /**
   * buildDisruptedPodMap keeps the evicted Pods not yet deleted whose eviction is less than
   * DeletionTimeout old; recheckTime is when the first of them expires.
   */
  buildDisruptedPodMap(
    pods: Pod[],
    pdb: PodDisruptionBudget,
    now: number,
  ): { disruptedPods: Record<string, string>; recheckTime?: number } {
    const disrupted = pdb.status?.disruptedPods;
    const result: Record<string, string> = {};
    let recheckTime: number | undefined;
    if (!disrupted) return { disruptedPods: result };
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      const t = disrupted[pod.metadata.name];
      if (t === undefined) continue;
      const expectedDeletion = parseTime(t) + DeletionTimeout;
      if (expectedDeletion < now)
        this.recorder.event(
          pod,
          'Warning',
          'NotDeleted',
          `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.name} to be deleted but it wasn't`,
        );
      else {
        if (recheckTime === undefined || expectedDeletion < recheckTime)
          recheckTime = expectedDeletion;
        result[pod.metadata.name] = t;
      }
    }
    return { disruptedPods: result, recheckTime };
  }

  private updatePdbStatus(
    pdb: PodDisruptionBudget,
    currentHealthy: number,
    desiredHealthy: number,
    expectedCount: number,
    disruptedPods: Record<string, string>,
  ): void {
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const st = pdb.status ?? {};
    if (
      st.currentHealthy === currentHealthy &&
      st.desiredHealthy === desiredHealthy &&
      st.expectedPods === expectedCount &&
      st.disruptionsAllowed === disruptionsAllowed &&
      sameMap(st.disruptedPods ?? {}, disruptedPods) &&
      st.observedGeneration === pdb.metadata.generation &&
      conditionsAreUpToDate(pdb)
    )
      return;
    const next: PodDisruptionBudget = {
      ...pdb,
      metadata: { ...pdb.metadata },
      status: {
        observedGeneration: pdb.metadata.generation,
        ...(Object.keys(disruptedPods).length ? { disruptedPods } : {}),
        disruptionsAllowed,
        currentHealthy,
        desiredHealthy,
        expectedPods: expectedCount,
        conditions: st.conditions ?? [],
      },
    };
    updateDisruptionAllowedCondition(next, this.sim.now());
    this.client.updateStatus('poddisruptionbudgets', next, true);
  }

  // failSafe mirrors failSafe: a budget that cannot be computed allows no disruption.
  private failSafe(pdb: PodDisruptionBudget, err: Error): void {
    const next: PodDisruptionBudget = {
      ...pdb,
      metadata: { ...pdb.metadata },
      status: { ...pdb.status, disruptionsAllowed: 0 },
    };
    next.status.conditions = setStatusCondition(
      next.status.conditions ?? [],
      {
        type: DisruptionAllowedCondition,
        status: 'False',
        reason: SyncFailedReason,
        message: err.message,
        observedGeneration: next.status.observedGeneration,
      },
      this.sim.now(),
    );
    try {
      this.client.updateStatus('poddisruptionbudgets', next, true);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}

/** countHealthyPods mirrors countHealthyPods: Ready Pods neither being deleted nor just evicted. */
export function countHealthyPods(
  pods: Pod[],
  disruptedPods: Record<string, string>,
  now: number,
): number {
  let n = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const t = disruptedPods[pod.metadata.name];
    if (t !== undefined && parseTime(t) + DeletionTimeout > now) continue;
    if (isPodReady(pod)) n++;
  }
  return n;
}

// conditionsAreUpToDate mirrors pdbhelper.ConditionsAreUpToDate.
function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const c = pdb.status?.conditions?.find((x) => x.type === DisruptionAllowedCondition);
  if (!c || c.observedGeneration !== pdb.status.observedGeneration) return false;
  if (pdb.status.disruptionsAllowed > 0)
    return c.status === 'True' && c.reason === SufficientPodsReason;
  return c.status === 'False' && c.reason === InsufficientPodsReason;
}

function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

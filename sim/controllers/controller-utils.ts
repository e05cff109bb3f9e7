// Mirrors pkg/controller/controller_utils.go (see "Simplification:" notes): the helpers the
// ReplicaSet and Deployment controllers share. ActivePodsWithRanks (which Pods a ReplicaSet
// deletes first), FilterActivePods, ComputeHash (the pod-template-hash), ControllerExpectations,
// slowStartBatch (from pkg/controller/replicaset/replica_set.go), the ReplicaSet sort orders and
// GetPodFromTemplate; and newSyncQueue, the work queue and worker every controller builds.

import { deepClone } from '../api/clone.ts';
import { labelSelectorAsSelector, type Selector } from '../api/labels.ts';
import { getControllerOf, isPodActive, isPodReady, isPodTerminating } from '../api/podutil.ts';
import { isNotFound } from '../apiserver/errors.ts';
import type {
  KubeObject,
  LabelSelector,
  OwnerReference,
  Pod,
  PodTemplateSpec,
  ReplicaSet,
} from '../api/types.ts';
import { StatusError } from '../apiserver/errors.ts';
import type { Client } from '../client/client.ts';
import { RateLimitingQueue } from '../client/workqueue.ts';
import { parseTime } from '../engine/clock.ts';
import { alphanums } from '../engine/rng.ts';
import type { Simulation } from '../engine/simulation.ts';

// ---- Work queues ----

/**
 * newSyncQueue builds a controller's work queue and its worker, as each controller in
 * pkg/controller pairs workqueue.NewTypedRateLimitingQueueWithConfig with processNextWorkItem:
 * sync runs for one key; success forgets the key's failures (Forget), an API error requeues it
 * with per-item back-off (AddRateLimited), and anything else is a bug in the simulator and is
 * thrown. The queue starts a sync only when the controller's client has a token (its limiter),
 * as every kube-controller-manager controller's client is rate limited. A controller that
 * restarts (start after stop) builds a new one: a restarted process starts with an empty queue.
 */
export function newSyncQueue(
  sim: Simulation,
  client: Client,
  opts: { name: string; baseDelay?: number; maxDelay?: number },
  sync: (key: string) => void,
): RateLimitingQueue {
  const queue: RateLimitingQueue = new RateLimitingQueue(
    sim,
    { ...opts, limiter: client.limiter },
    (key) => {
      try {
        sync(key);
        queue.forget(key);
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        queue.addRateLimited(key);
      }
    },
  );
  return queue;
}

// ---- Selectors ----

// selectors memoizes labelSelectorAsSelector per LabelSelector object.
const selectors = new WeakMap<LabelSelector, Selector>();

/**
 * cachedSelector is labelSelectorAsSelector for the selector of an object from an informer's
 * cache or from kube-apiserver: such objects are never mutated (a change is a new object, though
 * one that keeps its spec shares the selector), so the parsed Selector is built once per
 * selector rather than on every sync. Not for selectors the caller builds or changes.
 */
export function cachedSelector(ls: LabelSelector | undefined | null): Selector {
  if (!ls) return labelSelectorAsSelector(ls);
  let selector = selectors.get(ls);
  if (!selector) selectors.set(ls, (selector = labelSelectorAsSelector(ls)));
  return selector;
}

// ---- Pods ----

/** PodDeletionCost is core.PodDeletionCost, the annotation read by rule 4 of ActivePodsWithRanks. */
export const PodDeletionCost = 'controller.kubernetes.io/pod-deletion-cost';

/** podPhaseToOrdinal orders phases for deletion: Pending, then Unknown, then Running (others 0). */
const podPhaseToOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** filterActivePods mirrors controller.FilterActivePods: not Succeeded, Failed or being deleted. */
/** PodNodeNameKeyIndex names the Pod index by spec.nodeName (pkg/controller/controller_utils.go). */
export const PodNodeNameKeyIndex = 'spec.nodeName';

/**
 * podNodeNameIndexFunc indexes a bound Pod by its node. The node lifecycle and taint eviction
 * controllers both add it to the shared Pod informer (AddPodNodeNameIndexer adds it once).
 */
export function podNodeNameIndexFunc(p: Pod): string[] {
  return p.spec?.nodeName ? [p.spec.nodeName] : [];
}

export function filterActivePods(pods: readonly Pod[]): Pod[] {
  return pods.filter(isPodActive);
}

/** filterTerminatingPods mirrors controller.FilterTerminatingPods: deleted but not yet terminal. */
export function filterTerminatingPods(pods: readonly Pod[]): Pod[] {
  return pods.filter(isPodTerminating);
}

/** podKey mirrors controller.PodKey: namespace/name. */
export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace}/${pod.metadata.name}`;
}

/**
 * getDeletionCostFromPodAnnotations mirrors pkg/apis/core/helper: the annotation as an int32, 0
 * when absent or invalid.
 */
export function getDeletionCostFromPodAnnotations(
  annotations: Record<string, string> | undefined,
): number {
  const v = annotations?.[PodDeletionCost];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

/** maxContainerRestarts is the highest restartCount among the Pod's containers. */
function maxContainerRestarts(pod: Pod): number {
  let m = 0;
  for (const c of pod.status?.containerStatuses ?? []) m = Math.max(m, c.restartCount ?? 0);
  return m;
}

// parsedTimes caches parsed timestamps: Pods created or made Ready in the same second share one.
const parsedTimes = new Map<string, number>();

/** timeOf parses an RFC 3339 timestamp; undefined stands for Go's zero time (unset). */
function timeOf(t: string | undefined | null): number | undefined {
  if (!t) return undefined;
  let ms = parsedTimes.get(t);
  if (ms === undefined) {
    ms = parseTime(t);
    if (parsedTimes.size >= 4096) parsedTimes.clear();
    parsedTimes.set(t, ms);
  }
  return Number.isNaN(ms) ? undefined : ms;
}

/** podReadyTime is the Ready condition's lastTransitionTime when the Pod is Ready. */
function podReadyTime(pod: Pod): number | undefined {
  for (const c of pod.status?.conditions ?? [])
    if (c.type === 'Ready' && c.status === 'True') return timeOf(c.lastTransitionTime);
  return undefined;
}

/**
 * ActivePodsWithRanks mirrors controller.ActivePodsWithRanks: pods with their ranks (the number
 * of related active Pods on the same node) and the time the ranking is taken at (virtual ms).
 */
export interface ActivePodsWithRanks {
  pods: Pod[];
  rank: number[];
  /** now is metav1.Now() when the ranking was made; undefined stands for the zero time. */
  now?: number;
}

/** RankedPod is what Less reads from one Pod, computed once so that sorting stays cheap. */
interface RankedPod {
  nodeName: string;
  phase: number;
  ready: boolean;
  deletionCost: number;
  rank: number;
  readyTime: number | undefined;
  restarts: number;
  created: number | undefined;
  uid: string;
}

function rankedPod(pod: Pod, rank: number): RankedPod {
  const ready = isPodReady(pod);
  return {
    nodeName: pod.spec?.nodeName ?? '',
    phase: podPhaseToOrdinal[pod.status?.phase ?? ''] ?? 0,
    ready,
    deletionCost: getDeletionCostFromPodAnnotations(pod.metadata.annotations),
    rank,
    readyTime: ready ? podReadyTime(pod) : undefined,
    restarts: maxContainerRestarts(pod),
    created: timeOf(pod.metadata.creationTimestamp),
    uid: pod.metadata.uid ?? '',
  };
}

/** afterOrZero is true if t1 is zero, or both are set and t1 is after t2. */
function afterOrZero(t1: number | undefined, t2: number | undefined): boolean {
  if (t1 === undefined || t2 === undefined) return t1 === undefined;
  return t1 > t2;
}

/**
 * logRank is floor(log2(now - t)) with the difference in nanoseconds, or -1 when t is not before
 * now. Exact: the bit length of the nanosecond count, so no floating-point edge can move a Pod
 * between buckets.
 */
function logRank(t: number, now: number): number {
  const ms = Math.round(now - t);
  if (ms <= 0) return -1;
  return (BigInt(ms) * 1000000n).toString(2).length - 1;
}

/**
 * lessByTime is rules 6 and 8 with LogarithmicScaleDown (on by default since v1.22): the more
 * recent time is deleted first, but times in the same power-of-two age bucket tie and fall back
 * to the Pod UID. With a zero time involved the plain afterOrZero comparison is used.
 */
function lessByTime(
  t1: number | undefined,
  t2: number | undefined,
  a: RankedPod,
  b: RankedPod,
  now: number | undefined,
): boolean {
  if (now === undefined || t1 === undefined || t2 === undefined) return afterOrZero(t1, t2);
  const diff = logRank(t1, now) - logRank(t2, now);
  if (diff === 0) return a.uid < b.uid;
  return diff < 0;
}

// lessRanked is ActivePodsWithRanks.Less on precomputed values: true means a is deleted first.
function lessRanked(a: RankedPod, b: RankedPod, now: number | undefined): boolean {
  // 1. Unassigned < assigned.
  if (a.nodeName !== b.nodeName && (a.nodeName === '' || b.nodeName === ''))
    return a.nodeName === '';
  // 2. PodPending < PodUnknown < PodRunning.
  if (a.phase !== b.phase) return a.phase < b.phase;
  // 3. Not ready < ready.
  if (a.ready !== b.ready) return !a.ready;
  // 4. Lower pod-deletion-cost < higher (PodDeletionCost, beta and on since v1.22).
  if (a.deletionCost !== b.deletionCost) return a.deletionCost < b.deletionCost;
  // 5. Doubled up < not doubled up: more related Pods on the same node is deleted first.
  if (a.rank !== b.rank) return a.rank > b.rank;
  // 6. Been ready for empty time < less time < more time.
  if (a.ready && b.ready && a.readyTime !== b.readyTime)
    return lessByTime(a.readyTime, b.readyTime, a, b, now);
  // 7. Higher max container restart count < lower.
  if (a.restarts !== b.restarts) return a.restarts > b.restarts;
  // 8. Empty creation time < newer < older.
  if (a.created !== b.created) return lessByTime(a.created, b.created, a, b, now);
  return false;
}

/**
 * activePodsWithRanksLess mirrors ActivePodsWithRanks.Less: true when pods[i] should be deleted
 * before pods[j], applying the eight upstream rules in order.
 */
export function activePodsWithRanksLess(s: ActivePodsWithRanks, i: number, j: number): boolean {
  return lessRanked(rankedPod(s.pods[i], s.rank[i]), rankedPod(s.pods[j], s.rank[j]), s.now);
}

/**
 * sortActivePodsWithRanks sorts s.pods (and s.rank with them) in place, the Pods to delete
 * first at the front, as sort.Sort(ActivePodsWithRanks) does. Simplification: the sort is
 * stable, so Pods that compare equal keep their order (Go's sort.Sort leaves it unspecified).
 */
export function sortActivePodsWithRanks(s: ActivePodsWithRanks): void {
  const keyed = s.pods.map((pod, i) => ({ pod, key: rankedPod(pod, s.rank[i]) }));
  keyed.sort((x, y) =>
    lessRanked(x.key, y.key, s.now) ? -1 : lessRanked(y.key, x.key, s.now) ? 1 : 0,
  );
  for (let i = 0; i < keyed.length; i++) {
    s.pods[i] = keyed[i].pod;
    s.rank[i] = keyed[i].key.rank;
  }
}

/**
 * getPodFromTemplate mirrors controller.GetPodFromTemplate: a Pod with the template's labels,
 * annotations, finalizers and spec, a generateName of "<controller>-" and the controller ref.
 */
export function getPodFromTemplate(
  template: PodTemplateSpec,
  parent: KubeObject,
  controllerRef: OwnerReference,
): Pod {
  const m = template.metadata ?? {};
  const prefix = `${parent.metadata.name}-`;
  // getPodsLabelSet and getPodsAnnotationSet copy the template's maps; an empty map is omitted
  // when the Pod is encoded (omitempty), so a template without annotations gives a Pod without.
  const labels = m.labels && Object.keys(m.labels).length ? { ...m.labels } : undefined;
  const annotations =
    m.annotations && Object.keys(m.annotations).length ? { ...m.annotations } : undefined;
  const metadata = {
    generateName: prefix,
    namespace: parent.metadata.namespace,
    ...(labels && { labels }),
    ...(annotations && { annotations }),
    ownerReferences: [{ ...controllerRef }],
  } as Pod['metadata'];
  if (m.finalizers?.length) metadata.finalizers = [...m.finalizers];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: deepClone(template.spec), status: {} };
}

// ---- Errors ----

/**
 * SyncError is a controller's own failure (not an API error), such as a refused adoption: the
 * sync fails and the key is requeued with back-off, as for a StatusError.
 */
export class SyncError extends Error {}

// ---- ControllerRefManager (pkg/controller/controller_ref_manager.go) ----

/** ClaimActions are what claimObject may do to an object it finds. */
export interface ClaimActions<T extends KubeObject> {
  /** match is the controller's selector (and any filter) applied to the object. */
  match(obj: T): boolean;
  adopt(obj: T): void;
  release(obj: T): void;
}

/**
 * claimObject mirrors BaseControllerRefManager.ClaimObject: an object owned by the controller is
 * claimed if it still matches and released if not (unless the controller is being deleted); a
 * matching orphan that is not being deleted is adopted. Objects of other controllers are left
 * alone. NotFound while adopting or releasing is ignored; other errors are thrown.
 */
export function claimObject<T extends KubeObject>(
  controller: KubeObject,
  obj: T,
  a: ClaimActions<T>,
): boolean {
  const ref = getControllerOf(obj);
  if (ref) {
    if (ref.uid !== controller.metadata.uid) return false;
    if (a.match(obj)) return true;
    if (controller.metadata.deletionTimestamp) return false;
    try {
      a.release(obj);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    return false;
  }
  if (controller.metadata.deletionTimestamp || !a.match(obj)) return false;
  if (obj.metadata.deletionTimestamp) return false;
  if (controller.metadata.namespace && controller.metadata.namespace !== obj.metadata.namespace)
    return false;
  try {
    a.adopt(obj);
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
  return true;
}

/**
 * adoptPatch mirrors ownerRefControllerPatch (pkg/controller/controller_ref_manager.go): the
 * strategic merge patch (sent with StrategicMergePatchType, as RealPodControl.PatchPod and
 * RealRSControl.PatchReplicaSet send it) that adds controllerRef to obj's ownerReferences, merged
 * by uid, with obj's UID.
 */
export function adoptPatch(obj: KubeObject, controllerRef: OwnerReference): unknown {
  return { metadata: { ownerReferences: [controllerRef], uid: obj.metadata.uid } };
}

/**
 * releasePatch mirrors GenerateDeleteOwnerRefStrategicMergeBytes (pkg/controller/
 * controller_ref_manager.go): the strategic merge patch that deletes the reference to ownerUID
 * from obj's ownerReferences by its merge key, with obj's UID.
 */
export function releasePatch(obj: KubeObject, ownerUID: string): unknown {
  return {
    metadata: { ownerReferences: [{ $patch: 'delete', uid: ownerUID }], uid: obj.metadata.uid },
  };
}

/**
 * recheckDeletionTimestamp mirrors controller.RecheckDeletionTimestamp: before the first adoption
 * the controller re-reads itself with a live GET, and refuses to adopt if it is gone (another
 * UID) or being deleted.
 */
export function recheckDeletionTimestamp(
  kind: string,
  current: KubeObject,
  get: () => KubeObject,
): void {
  let fresh: KubeObject;
  try {
    fresh = get();
  } catch (e) {
    throw new SyncError(`can't recheck DeletionTimestamp: ${(e as Error).message}`);
  }
  const m = current.metadata;
  if (fresh.metadata.uid !== m.uid)
    throw new SyncError(
      `original ${kind} ${m.namespace}/${m.name} is gone: got uid ${fresh.metadata.uid}, wanted ${m.uid}`,
    );
  if (fresh.metadata.deletionTimestamp)
    throw new SyncError(
      `${m.namespace}/${m.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`,
    );
}

// ---- ReplicaSets ----

/** filterActiveReplicaSets mirrors controller.FilterActiveReplicaSets: spec.replicas > 0. */
export function filterActiveReplicaSets(rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return rss.filter((rs): rs is ReplicaSet => rs !== undefined && (rs.spec.replicas ?? 1) > 0);
}

/** replicaSetsByCreationTimestamp mirrors ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function replicaSetsByCreationTimestamp(a: ReplicaSet, b: ReplicaSet): number {
  const ta = timeOf(a.metadata.creationTimestamp) ?? -Infinity;
  const tb = timeOf(b.metadata.creationTimestamp) ?? -Infinity;
  if (ta === tb)
    return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
  return ta < tb ? -1 : 1;
}

/** replicaSetsBySizeOlder mirrors ReplicaSetsBySizeOlder: largest first, then oldest first. */
export function replicaSetsBySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  const ra = a.spec.replicas ?? 1;
  const rb = b.spec.replicas ?? 1;
  if (ra === rb) return replicaSetsByCreationTimestamp(a, b);
  return rb - ra;
}

/** replicaSetsBySizeNewer mirrors ReplicaSetsBySizeNewer: largest first, then newest first. */
export function replicaSetsBySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  const ra = a.spec.replicas ?? 1;
  const rb = b.spec.replicas ?? 1;
  if (ra === rb) return replicaSetsByCreationTimestamp(b, a);
  return rb - ra;
}

// ---- ComputeHash ----

/** canonicalJSON serialises JSON-shaped data with object keys sorted and undefined dropped. */
function canonicalJSON(v: unknown): string {
  if (v === null || typeof v !== 'object') return v === undefined ? 'null' : JSON.stringify(v);
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i > 0 ? ',' : '') + canonicalJSON(v[i]);
    return s + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  let s = '{';
  for (const k of keys) {
    const x = o[k];
    if (x === undefined) continue;
    s += (s.length > 1 ? ',' : '') + JSON.stringify(k) + ':' + canonicalJSON(x);
  }
  return s + '}';
}

/** fnv32a folds bytes into a 32-bit FNV-1a hash (hash/fnv New32a). */
function fnv32a(h: number, bytes: readonly number[]): number {
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h >>> 0;
}

/**
 * fnv32aUTF8 is fnv32a over the UTF-8 encoding of s, folding each byte as it is encoded rather
 * than building the byte array first.
 */
function fnv32aUTF8(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) h = Math.imul(h ^ c, 0x01000193);
    else if (c < 0x800) {
      h = Math.imul(h ^ (0xc0 | (c >> 6)), 0x01000193);
      h = Math.imul(h ^ (0x80 | (c & 63)), 0x01000193);
    } else if (c < 0x10000) {
      h = Math.imul(h ^ (0xe0 | (c >> 12)), 0x01000193);
      h = Math.imul(h ^ (0x80 | ((c >> 6) & 63)), 0x01000193);
      h = Math.imul(h ^ (0x80 | (c & 63)), 0x01000193);
    } else {
      h = Math.imul(h ^ (0xf0 | (c >> 18)), 0x01000193);
      h = Math.imul(h ^ (0x80 | ((c >> 12) & 63)), 0x01000193);
      h = Math.imul(h ^ (0x80 | ((c >> 6) & 63)), 0x01000193);
      h = Math.imul(h ^ (0x80 | (c & 63)), 0x01000193);
    }
  }
  return h >>> 0;
}

/**
 * safeEncodeString mirrors rand.SafeEncodeString: each character is replaced by
 * alphanums[code % 27], so a decimal hash becomes a string with no vowels (no bad words) and
 * digits that cannot be confused: "0".."9" map to "4","5","6","7","8","9","b","c","d","f".
 */
export function safeEncodeString(s: string): string {
  let r = '';
  for (const ch of s) r += alphanums[(ch.codePointAt(0) ?? 0) % alphanums.length];
  return r;
}

/**
 * computeHash mirrors controller.ComputeHash: FNV-32a over the Pod template, then the collision
 * count as 8 little-endian bytes (when set), rendered as SafeEncodeString(fmt.Sprint(sum32)).
 * Simplification: upstream hashes the Go-printed struct (hashutil.DeepHashObject with spew); we
 * hash a canonical JSON serialisation, so the format matches upstream ("5d8f9c7b6d") but the
 * value for a given template does not.
 */
export function computeHash(template: PodTemplateSpec, collisionCount?: number): string {
  // The Go struct always has metadata.creationTimestamp (the zero Time), whether or not JSON
  // omits it (v1.34 does), so the hashed text always holds it too. It also holds
  // enableServiceLinks and preemptionPolicy as Pods default them (templates no longer carry
  // them), so that the hash, and every Pod name the lessons quote, stays what it was.
  const m = template.metadata;
  const s = template.spec;
  const hashed = {
    ...template,
    metadata: m && m.creationTimestamp === undefined ? { ...m, creationTimestamp: null } : m,
    spec: s
      ? {
          ...s,
          enableServiceLinks: s.enableServiceLinks ?? true,
          preemptionPolicy: s.preemptionPolicy ?? 'PreemptLowerPriority',
        }
      : s,
  };
  let h = fnv32aUTF8(0x811c9dc5, canonicalJSON(hashed));
  if (collisionCount !== undefined && collisionCount !== null) {
    const c = collisionCount >>> 0;
    h = fnv32a(h, [c & 255, (c >>> 8) & 255, (c >>> 16) & 255, (c >>> 24) & 255, 0, 0, 0, 0]);
  }
  return safeEncodeString(String(h));
}

// ---- Expectations ----

/** ExpectationsTimeout is how long expectations stay valid before a sync ignores them (5m). */
export const ExpectationsTimeout = 5 * 60 * 1000;

/** ControlleeExpectations is one controller's outstanding creates and deletes. */
export interface ControlleeExpectations {
  add: number;
  del: number;
  key: string;
  /** timestamp is when the expectations were set (virtual ms). */
  timestamp: number;
}

/**
 * ControllerExpectations mirrors controller.ControllerExpectations: a controller records how many
 * creates and deletes it issued and does not act again until its informer has observed them all,
 * or until ExpectationsTimeout passes (a watch event may have been lost).
 */
export class ControllerExpectations {
  private readonly now: () => number;
  private readonly store = new Map<string, ControlleeExpectations>();

  constructor(now: () => number) {
    this.now = now;
  }

  getExpectations(key: string): ControlleeExpectations | undefined {
    return this.store.get(key);
  }

  deleteExpectations(key: string): void {
    this.store.delete(key);
  }

  /**
   * satisfiedExpectations is true when the controller may sync: no expectations recorded, all
   * fulfilled (add <= 0 and del <= 0), or recorded more than ExpectationsTimeout ago.
   */
  satisfiedExpectations(key: string): boolean {
    const exp = this.store.get(key);
    if (!exp) return true;
    if (exp.add <= 0 && exp.del <= 0) return true;
    return this.now() - exp.timestamp > ExpectationsTimeout;
  }

  /** setExpectations replaces the expectations for key, stamped now. */
  setExpectations(key: string, add: number, del: number): void {
    this.store.set(key, { add, del, key, timestamp: this.now() });
  }

  expectCreations(key: string, adds: number): void {
    this.setExpectations(key, adds, 0);
  }

  expectDeletions(key: string, dels: number): void {
    this.setExpectations(key, 0, dels);
  }

  /** lowerExpectations decrements the counts (the timestamp is kept). */
  lowerExpectations(key: string, add: number, del: number): void {
    const exp = this.store.get(key);
    if (!exp) return;
    exp.add -= add;
    exp.del -= del;
  }

  raiseExpectations(key: string, add: number, del: number): void {
    const exp = this.store.get(key);
    if (!exp) return;
    exp.add += add;
    exp.del += del;
  }

  creationObserved(key: string): void {
    this.lowerExpectations(key, 1, 0);
  }

  deletionObserved(key: string): void {
    this.lowerExpectations(key, 0, 1);
  }
}

/**
 * UIDTrackingControllerExpectations mirrors controller.UIDTrackingControllerExpectations: deletes
 * are tracked per Pod key, so that a Pod seen first with a deletionTimestamp and then deleted is
 * counted once.
 */
export class UIDTrackingControllerExpectations extends ControllerExpectations {
  private readonly uidStore = new Map<string, Set<string>>();

  getUIDs(key: string): Set<string> | undefined {
    return this.uidStore.get(key);
  }

  /** expectDeletionsOf records the Pod keys about to be deleted (ExpectDeletions upstream). */
  expectDeletionsOf(key: string, deletedKeys: readonly string[]): void {
    this.uidStore.set(key, new Set(deletedKeys));
    this.setExpectations(key, 0, deletedKeys.length);
  }

  /** deletionObservedOf lowers the delete count once per tracked Pod key (DeletionObserved upstream). */
  deletionObservedOf(key: string, deleteKey: string): void {
    const uids = this.uidStore.get(key);
    if (uids?.has(deleteKey)) {
      this.lowerExpectations(key, 0, 1);
      uids.delete(deleteKey);
    }
  }

  override deleteExpectations(key: string): void {
    this.uidStore.delete(key);
    super.deleteExpectations(key);
  }
}

// ---- slowStartBatch ----

/** SlowStartInitialBatchSize is controller.SlowStartInitialBatchSize. */
export const SlowStartInitialBatchSize = 1;

/**
 * slowStartBatch mirrors replica_set.go#slowStartBatch: it calls fn count times in batches of
 * 1, 2, 4, 8, ... (starting at initialBatchSize), every call of a batch being made, and skips the
 * remaining batches after a batch with any failure. It returns the number of successful calls.
 * Simplification: the calls of a batch run one after another (upstream runs them in goroutines).
 */
export function slowStartBatch(count: number, initialBatchSize: number, fn: () => boolean): number {
  let remaining = count;
  let successes = 0;
  for (
    let batchSize = Math.min(remaining, initialBatchSize);
    batchSize > 0;
    batchSize = Math.min(2 * batchSize, remaining)
  ) {
    let failed = 0;
    for (let i = 0; i < batchSize; i++) if (!fn()) failed++;
    successes += batchSize - failed;
    if (failed > 0) return successes;
    remaining -= batchSize;
  }
  return successes;
}

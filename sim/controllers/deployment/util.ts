// Mirrors pkg/controller/deployment/util/deployment_util.go (see "Simplification:" notes), with
// intstr.GetScaledValueFromIntOrPercent (staging/src/k8s.io/apimachinery/pkg/util/intstr) and
// pkg/util/labels: the rolling-update arithmetic, revisions and annotations, and the conditions.

import type {
  Deployment,
  DeploymentCondition,
  DeploymentStatus,
  IntOrString,
  LabelSelector,
  PodTemplateSpec,
  ReplicaSet,
  ReplicaSetCondition,
} from '../../api/types.ts';
import { formatTime, parseTime } from '../../engine/clock.ts';
import { replicaSetsByCreationTimestamp, filterActiveReplicaSets } from '../controller-utils.ts';

// RevisionAnnotation records a ReplicaSet's place in its Deployment's rollout sequence.
export const RevisionAnnotation = 'deployment.kubernetes.io/revision';
// RevisionHistoryAnnotation keeps the older revisions a ReplicaSet has served (after a rollback).
export const RevisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
// DesiredReplicasAnnotation is the Deployment's spec.replicas, as the ReplicaSet last saw it.
export const DesiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
// MaxReplicasAnnotation is spec.replicas + maxSurge, used for proportional scaling.
export const MaxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';
/** DefaultDeploymentUniqueLabelKey is apps.DefaultDeploymentUniqueLabelKey. */
export const DefaultDeploymentUniqueLabelKey = 'pod-template-hash';
/** LastAppliedConfigAnnotation is v1.LastAppliedConfigAnnotation (kubectl apply). */
export const LastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
/** DeprecatedRollbackTo is apps.DeprecatedRollbackTo (extensions/v1beta1 rollback). */
export const DeprecatedRollbackTo = 'deprecated.deployment.rollback.to';

// Reasons of the Progressing condition.
export const ReplicaSetUpdatedReason = 'ReplicaSetUpdated';
export const FailedRSCreateReason = 'ReplicaSetCreateError';
export const NewReplicaSetReason = 'NewReplicaSetCreated';
export const FoundNewRSReason = 'FoundNewReplicaSet';
export const NewRSAvailableReason = 'NewReplicaSetAvailable';
export const TimedOutReason = 'ProgressDeadlineExceeded';
export const PausedDeployReason = 'DeploymentPaused';
export const ResumedDeployReason = 'DeploymentResumed';
// Reasons of the Available condition.
export const MinimumReplicasAvailable = 'MinimumReplicasAvailable';
export const MinimumReplicasUnavailable = 'MinimumReplicasUnavailable';

const MaxInt32 = 2147483647;

/** replicasOf reads spec.replicas (defaulted to 1 by the API server). */
export function replicasOf(o: Deployment | ReplicaSet): number {
  return o.spec.replicas ?? 1;
}

// ---- conditions ----

/** newDeploymentCondition builds a condition stamped now (both lastUpdateTime and lastTransitionTime). */
export function newDeploymentCondition(
  type: DeploymentCondition['type'],
  status: DeploymentCondition['status'],
  reason: string,
  message: string,
  now: number,
): DeploymentCondition {
  const t = formatTime(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getDeploymentCondition(
  status: DeploymentStatus | undefined,
  type: string,
): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/**
 * setDeploymentCondition puts condition in status. A condition with the same status and reason is
 * left alone; a status that does not change keeps its lastTransitionTime. The condition moves to
 * the end of the list, as upstream appends it.
 */
export function setDeploymentCondition(
  status: DeploymentStatus,
  condition: DeploymentCondition,
): void {
  const current = getDeploymentCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const c = { ...condition };
  if (current && current.status === c.status) c.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...filterOutCondition(status.conditions, c.type), c];
}

export function removeDeploymentCondition(status: DeploymentStatus, type: string): void {
  const rest = filterOutCondition(status.conditions, type);
  if (rest.length) status.conditions = rest;
  else delete status.conditions;
}

function filterOutCondition(
  conditions: DeploymentCondition[] | undefined,
  type: string,
): DeploymentCondition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** replicaSetToDeploymentCondition promotes a ReplicaSet (failure) condition to the Deployment. */
export function replicaSetToDeploymentCondition(cond: ReplicaSetCondition): DeploymentCondition {
  return {
    type: cond.type as DeploymentCondition['type'],
    status: cond.status,
    lastTransitionTime: cond.lastTransitionTime,
    lastUpdateTime: cond.lastTransitionTime,
    reason: cond.reason,
    message: cond.message,
  };
}

// ---- revisions and annotations ----

/** setDeploymentRevision sets the Deployment's revision annotation; d must be a copy. */
export function setDeploymentRevision(d: Deployment, revision: string): boolean {
  const a = (d.metadata.annotations ??= {});
  if (a[RevisionAnnotation] === revision) return false;
  a[RevisionAnnotation] = revision;
  return true;
}

/** parseGoInt mirrors strconv.ParseInt(s, 10, 64): undefined when s is not a decimal integer. */
function parseGoInt(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

/** revision returns the object's revision annotation (0 when absent), or undefined when it does not parse. */
export function revision(o: {
  metadata: { annotations?: Record<string, string> };
}): number | undefined {
  const v = o.metadata.annotations?.[RevisionAnnotation];
  if (v === undefined) return 0;
  return parseGoInt(v);
}

/** maxRevision is the highest revision among the ReplicaSets (unparseable ones are skipped). */
export function maxRevision(allRSs: readonly ReplicaSet[]): number {
  let max = 0;
  for (const rs of allRSs) {
    const v = revision(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

/** lastRevision is the second-highest revision (the one `kubectl rollout undo` returns to). */
export function lastRevision(allRSs: readonly ReplicaSet[]): number {
  let max = 0;
  let secMax = 0;
  for (const rs of allRSs) {
    const v = revision(rs);
    if (v === undefined) continue;
    if (v >= max) {
      secMax = max;
      max = v;
    } else if (v > secMax) secMax = v;
  }
  return secMax;
}

const annotationsToSkip = new Set([
  LastAppliedConfigAnnotation,
  RevisionAnnotation,
  RevisionHistoryAnnotation,
  DesiredReplicasAnnotation,
  MaxReplicasAnnotation,
  DeprecatedRollbackTo,
]);

/** copyDeploymentAnnotationsToReplicaSet copies all but the skipped annotations; rs must be a copy. */
function copyDeploymentAnnotationsToReplicaSet(d: Deployment, rs: ReplicaSet): boolean {
  let changed = false;
  const a = (rs.metadata.annotations ??= {});
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (annotationsToSkip.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  return changed;
}

/**
 * setNewReplicaSetAnnotations copies the Deployment's annotations to the new ReplicaSet, raises
 * its revision to newRevision (keeping the old one in revision-history, as after a rollback) and,
 * for a ReplicaSet about to be created, sets desired-replicas and max-replicas. newRS must be a
 * copy. It returns whether anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  newRS: ReplicaSet,
  newRevision: string,
  exists: boolean,
  revHistoryLimitInChars: number,
): boolean {
  let changed = copyDeploymentAnnotationsToReplicaSet(d, newRS);
  const a = (newRS.metadata.annotations ??= {});
  const oldRevision = a[RevisionAnnotation];
  const had = oldRevision !== undefined;
  let oldRevisionInt = parseGoInt(oldRevision ?? '');
  if (oldRevisionInt === undefined) {
    if (oldRevision !== undefined && oldRevision !== '') return false;
    oldRevisionInt = 0;
  }
  const newRevisionInt = parseGoInt(newRevision);
  if (newRevisionInt === undefined) return false;
  if (oldRevisionInt < newRevisionInt) {
    a[RevisionAnnotation] = newRevision;
    changed = true;
  }
  if (had && oldRevisionInt < newRevisionInt) {
    const history = a[RevisionHistoryAnnotation] ?? '';
    const oldRevisions = history.split(',');
    if (oldRevisions[0].length === 0) {
      a[RevisionHistoryAnnotation] = oldRevision!;
    } else {
      let totalLen = history.length + oldRevision!.length + 1;
      let start = 0;
      while (totalLen > revHistoryLimitInChars && start < oldRevisions.length) {
        totalLen -= oldRevisions[start].length + 1;
        start++;
      }
      if (totalLen <= revHistoryLimitInChars)
        a[RevisionHistoryAnnotation] = [...oldRevisions.slice(start), oldRevision!].join(',');
    }
  }
  if (!exists && setReplicasAnnotations(newRS, replicasOf(d), replicasOf(d) + maxSurge(d)))
    changed = true;
  return changed;
}

// getNonNegativeInt32FromAnnotation reads an annotation as strconv.ParseUint does, up to MaxInt32.
function getNonNegativeInt32FromAnnotation(rs: ReplicaSet, key: string): number | undefined {
  const v = rs.metadata.annotations?.[key];
  if (v === undefined || !/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n <= MaxInt32 ? n : undefined;
}

/** getDesiredReplicasAnnotation reads deployment.kubernetes.io/desired-replicas. */
export function getDesiredReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return getNonNegativeInt32FromAnnotation(rs, DesiredReplicasAnnotation);
}

function getMaxReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return getNonNegativeInt32FromAnnotation(rs, MaxReplicasAnnotation);
}

/** setReplicasAnnotations sets desired-replicas and max-replicas; rs must be a copy. */
export function setReplicasAnnotations(
  rs: ReplicaSet,
  desiredReplicas: number,
  maxReplicas: number,
): boolean {
  const a = (rs.metadata.annotations ??= {});
  let updated = false;
  if (a[DesiredReplicasAnnotation] !== String(desiredReplicas)) {
    a[DesiredReplicasAnnotation] = String(desiredReplicas);
    updated = true;
  }
  if (a[MaxReplicasAnnotation] !== String(maxReplicas)) {
    a[MaxReplicasAnnotation] = String(maxReplicas);
    updated = true;
  }
  return updated;
}

/** replicasAnnotationsNeedUpdate is true when setReplicasAnnotations would change something. */
export function replicasAnnotationsNeedUpdate(
  rs: ReplicaSet,
  desiredReplicas: number,
  maxReplicas: number,
): boolean {
  const a = rs.metadata.annotations;
  if (!a) return true;
  return (
    a[DesiredReplicasAnnotation] !== String(desiredReplicas) ||
    a[MaxReplicasAnnotation] !== String(maxReplicas)
  );
}

// ---- the rolling-update arithmetic ----

/**
 * getScaledValueFromIntOrPercent mirrors intstr.GetScaledValueFromIntOrPercent: an int as is, a
 * percentage of total rounded up or down; a string without "%" is an error.
 */
export function getScaledValueFromIntOrPercent(
  intOrPercent: IntOrString | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (intOrPercent === undefined || intOrPercent === null)
    throw new Error('nil value for IntOrString');
  if (typeof intOrPercent === 'number') return Math.trunc(intOrPercent);
  if (!intOrPercent.endsWith('%'))
    throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const s = intOrPercent.slice(0, -1);
  const v = parseGoInt(s);
  if (v === undefined)
    throw new Error(
      `invalid value for IntOrString: invalid value "${intOrPercent}": strconv.Atoi: parsing "${s}": invalid syntax`,
    );
  return roundUp ? Math.ceil((v * total) / 100) : Math.floor((v * total) / 100);
}

/**
 * resolveFenceposts resolves maxSurge (rounded up) and maxUnavailable (rounded down) against
 * desired together: when both come to 0, maxUnavailable becomes 1 so that a rollout can progress.
 * It throws on a value that is not an int or a percentage.
 */
export function resolveFenceposts(
  maxSurgeValue: IntOrString | undefined,
  maxUnavailableValue: IntOrString | undefined,
  desired: number,
): [number, number] {
  const surge = getScaledValueFromIntOrPercent(maxSurgeValue ?? 0, desired, true);
  let unavailable = getScaledValueFromIntOrPercent(maxUnavailableValue ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

/** isRollingUpdate is true for the RollingUpdate strategy. */
export function isRollingUpdate(d: Deployment): boolean {
  return d.spec.strategy?.type === 'RollingUpdate';
}

/** maxUnavailable is the resolved maxUnavailable, at most spec.replicas; 0 unless RollingUpdate. */
export function maxUnavailable(d: Deployment): number {
  const replicas = replicasOf(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  const [, unavailable] = resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicas);
  return Math.min(unavailable, replicas);
}

/** minAvailable is spec.replicas - maxUnavailable (0 unless RollingUpdate). */
export function minAvailable(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  return replicasOf(d) - maxUnavailable(d);
}

/** maxSurge is the resolved maxSurge; 0 unless RollingUpdate. */
export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicasOf(d))[0];
}

/** roundToInt32 mirrors integer.RoundToInt32: round half away from zero. */
function roundToInt32(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * getProportion estimates how many replicas rs gains (or loses) when a Deployment is resized in
 * the middle of a rollout: its fraction, capped by what may still be added or removed.
 */
export function getProportion(
  rs: ReplicaSet | undefined,
  d: Deployment,
  deploymentReplicasToAdd: number,
  deploymentReplicasAdded: number,
): number {
  if (
    !rs ||
    replicasOf(rs) === 0 ||
    deploymentReplicasToAdd === 0 ||
    deploymentReplicasToAdd === deploymentReplicasAdded
  )
    return 0;
  const rsFraction = getReplicaSetFraction(rs, d);
  const allowed = deploymentReplicasToAdd - deploymentReplicasAdded;
  return deploymentReplicasToAdd > 0
    ? Math.min(rsFraction, allowed)
    : Math.max(rsFraction, allowed);
}

/**
 * getReplicaSetFraction is round(rs.replicas * (d.replicas + maxSurge) / max-replicas annotation)
 * - rs.replicas; all of rs (negative) when scaling to zero. Without the annotation, the
 * Deployment's status.replicas stands in.
 */
export function getReplicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (replicasOf(d) === 0) return -replicasOf(rs);
  const deploymentReplicas = replicasOf(d) + maxSurge(d);
  const annotatedReplicas = getMaxReplicasAnnotation(rs) ?? d.status?.replicas ?? 0;
  const newRSsize = (replicasOf(rs) * deploymentReplicas) / annotatedReplicas;
  return roundToInt32(newRSsize) - replicasOf(rs);
}

/**
 * newRSNewReplicas is how many replicas the new ReplicaSet should have now. RollingUpdate: up to
 * spec.replicas, as far as the total stays within spec.replicas + maxSurge. Recreate: all.
 */
export function newRSNewReplicas(
  d: Deployment,
  allRSs: readonly ReplicaSet[],
  newRS: ReplicaSet,
): number {
  switch (d.spec.strategy?.type) {
    case 'RollingUpdate': {
      const surge = getScaledValueFromIntOrPercent(
        d.spec.strategy.rollingUpdate?.maxSurge,
        replicasOf(d),
        true,
      );
      const currentPodCount = getReplicaCountForReplicaSets(allRSs);
      const maxTotalPods = replicasOf(d) + surge;
      if (currentPodCount >= maxTotalPods) return replicasOf(newRS);
      const scaleUpCount = Math.min(
        maxTotalPods - currentPodCount,
        replicasOf(d) - replicasOf(newRS),
      );
      return replicasOf(newRS) + scaleUpCount;
    }
    case 'Recreate':
      return replicasOf(d);
    default:
      throw new Error(`deployment type ${d.spec.strategy?.type} isn't supported`);
  }
}

/**
 * isSaturated is true when the ReplicaSet has, wants and believes it should have all of the
 * Deployment's replicas, and all of them are available.
 */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = getDesiredReplicasAnnotation(rs);
  if (desired === undefined) return false;
  return (
    replicasOf(rs) === replicasOf(d) &&
    desired === replicasOf(d) &&
    (rs.status?.availableReplicas ?? 0) === replicasOf(d)
  );
}

// ---- counts ----

export function getReplicaCountForReplicaSets(rss: readonly (ReplicaSet | undefined)[]): number {
  let n = 0;
  for (const rs of rss) if (rs) n += replicasOf(rs);
  return n;
}

export function getActualReplicaCountForReplicaSets(
  rss: readonly (ReplicaSet | undefined)[],
): number {
  let n = 0;
  for (const rs of rss) if (rs) n += rs.status?.replicas ?? 0;
  return n;
}

export function getReadyReplicaCountForReplicaSets(
  rss: readonly (ReplicaSet | undefined)[],
): number {
  let n = 0;
  for (const rs of rss) if (rs) n += rs.status?.readyReplicas ?? 0;
  return n;
}

export function getAvailableReplicaCountForReplicaSets(
  rss: readonly (ReplicaSet | undefined)[],
): number {
  let n = 0;
  for (const rs of rss) if (rs) n += rs.status?.availableReplicas ?? 0;
  return n;
}

/**
 * getTerminatingReplicaCountForReplicaSets sums status.terminatingReplicas; undefined (unknown)
 * when a ReplicaSet the controller has synced does not report it.
 */
export function getTerminatingReplicaCountForReplicaSets(
  rss: readonly (ReplicaSet | undefined)[],
): number | undefined {
  let n = 0;
  for (const rs of rss) {
    if (!rs) continue;
    if ((rs.status?.observedGeneration ?? 0) === 0 && rs.status?.terminatingReplicas === undefined)
      continue;
    if (rs.status?.terminatingReplicas === undefined) return undefined;
    n += rs.status.terminatingReplicas;
  }
  return n;
}

// ---- progress ----

/** deploymentComplete: every replica updated and available, none old, and the latest spec observed. */
export function deploymentComplete(d: Deployment, newStatus: DeploymentStatus): boolean {
  const r = replicasOf(d);
  return (
    (newStatus.updatedReplicas ?? 0) === r &&
    (newStatus.replicas ?? 0) === r &&
    (newStatus.availableReplicas ?? 0) === r &&
    (newStatus.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/**
 * deploymentProgressing compares the new status with the Deployment's current one: more updated,
 * fewer old, more ready or more available replicas all count as progress.
 */
export function deploymentProgressing(d: Deployment, newStatus: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldStatusOldReplicas = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newStatusOldReplicas = (newStatus.replicas ?? 0) - (newStatus.updatedReplicas ?? 0);
  return (
    (newStatus.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newStatusOldReplicas < oldStatusOldReplicas ||
    (newStatus.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (newStatus.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * deploymentTimedOut is true once the Progressing condition's lastUpdateTime is more than
 * progressDeadlineSeconds before now (strictly), or the condition already says so. A completed
 * rollout (NewReplicaSetAvailable) never times out.
 */
export function deploymentTimedOut(
  d: Deployment,
  newStatus: DeploymentStatus,
  now: number,
): boolean {
  if (!hasProgressDeadline(d)) return false;
  const condition = getDeploymentCondition(newStatus, 'Progressing');
  if (!condition) return false;
  if (condition.reason === NewRSAvailableReason) return false;
  if (condition.reason === TimedOutReason) return true;
  const from = condition.lastUpdateTime ? parseTime(condition.lastUpdateTime) : NaN;
  if (Number.isNaN(from)) return false;
  return from + d.spec.progressDeadlineSeconds! * 1000 < now;
}

/** hasProgressDeadline is true unless progressDeadlineSeconds is unset or MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  return (
    d.spec.progressDeadlineSeconds !== undefined &&
    d.spec.progressDeadlineSeconds !== null &&
    d.spec.progressDeadlineSeconds !== MaxInt32
  );
}

/** hasRevisionHistoryLimit is true unless revisionHistoryLimit is unset or MaxInt32 (keep all). */
export function hasRevisionHistoryLimit(d: Deployment): boolean {
  return (
    d.spec.revisionHistoryLimit !== undefined &&
    d.spec.revisionHistoryLimit !== null &&
    d.spec.revisionHistoryLimit !== MaxInt32
  );
}

// ---- finding the new and old ReplicaSets ----

/**
 * semanticEqual is apiequality.Semantic.DeepEqual on JSON: like reflect.DeepEqual except that an
 * empty map or list equals a missing one. Simplification: quantities compare as written.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], bb[i])) return false;
    return true;
  }
  return fieldsEqual(a as Record<string, unknown>, b as Record<string, unknown>);
}

// isEmpty is a value the semantic comparison treats as absent.
function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.length === 0;
  for (const k in v) if (Object.hasOwn(v, k)) return false;
  return true;
}

// fieldsEqual compares two objects over the union of their keys.
function fieldsEqual(ao: Record<string, unknown>, bo: Record<string, unknown>): boolean {
  for (const k in ao) if (!semanticEqual(ao[k], bo[k])) return false;
  for (const k in bo) if (!Object.hasOwn(ao, k) && !semanticEqual(undefined, bo[k])) return false;
  return true;
}

// fieldsEqualExcept is fieldsEqual with the field `special` compared by `cmp` instead, even when
// neither object has it. It is kept apart from fieldsEqual, which the recursion runs far more
// often: with the special case inside, V8's optimizing tiers deoptimized that loop on every run
// ("unexpected name in keyed access"). Only the few levels of equalIgnoreHash come here, so the
// key arrays cost little.
function fieldsEqualExcept(
  ao: Record<string, unknown>,
  bo: Record<string, unknown>,
  special: string,
  cmp: (x: unknown, y: unknown) => boolean,
): boolean {
  const ak = Object.keys(ao);
  for (let i = 0; i < ak.length; i++) {
    const k = ak[i];
    if (k === special ? !cmp(ao[k], bo[k]) : !semanticEqual(ao[k], bo[k])) return false;
  }
  const bk = Object.keys(bo);
  for (let i = 0; i < bk.length; i++) {
    const k = bk[i];
    if (Object.hasOwn(ao, k)) continue;
    if (k === special ? !cmp(undefined, bo[k]) : !semanticEqual(undefined, bo[k])) return false;
  }
  if (!Object.hasOwn(ao, special) && !Object.hasOwn(bo, special)) return cmp(undefined, undefined);
  return true;
}

/** equalIgnoreHash compares two Pod templates, ignoring the pod-template-hash label. */
export function equalIgnoreHash(t1: PodTemplateSpec, t2: PodTemplateSpec): boolean {
  // The same as comparing copies whose metadata.labels lack the label, without making them.
  const labelsEqual = (x: unknown, y: unknown) =>
    fieldsEqualExcept((x ?? {}) as Record<string, unknown>, (y ?? {}) as Record<string, unknown>, DefaultDeploymentUniqueLabelKey, () => true);
  const metadataEqual = (x: unknown, y: unknown) =>
    fieldsEqualExcept((x ?? {}) as Record<string, unknown>, (y ?? {}) as Record<string, unknown>, 'labels', labelsEqual);
  return fieldsEqualExcept(t1 as unknown as Record<string, unknown>, t2 as unknown as Record<string, unknown>, 'metadata', metadataEqual);
}

/**
 * findNewReplicaSet returns the oldest ReplicaSet whose template equals the Deployment's. Like
 * upstream it sorts rsList in place (oldest first). templatesEqual stands in for equalIgnoreHash
 * (the controller passes a memoized one).
 */
export function findNewReplicaSet(
  d: Deployment,
  rsList: ReplicaSet[],
  templatesEqual: (t1: PodTemplateSpec, t2: PodTemplateSpec) => boolean = equalIgnoreHash,
): ReplicaSet | undefined {
  rsList.sort(replicaSetsByCreationTimestamp);
  return rsList.find((rs) => templatesEqual(rs.spec.template, d.spec.template));
}

/**
 * findOldReplicaSets returns the old ReplicaSets: those with replicas, and all of them
 * (templatesEqual as for findNewReplicaSet).
 */
export function findOldReplicaSets(
  d: Deployment,
  rsList: ReplicaSet[],
  templatesEqual: (t1: PodTemplateSpec, t2: PodTemplateSpec) => boolean = equalIgnoreHash,
): { requiredRSs: ReplicaSet[]; allRSs: ReplicaSet[] } {
  const newRS = findNewReplicaSet(d, rsList, templatesEqual);
  const requiredRSs: ReplicaSet[] = [];
  const allRSs: ReplicaSet[] = [];
  for (const rs of rsList) {
    if (newRS && rs.metadata.uid === newRS.metadata.uid) continue;
    allRSs.push(rs);
    if (replicasOf(rs) !== 0) requiredRSs.push(rs);
  }
  return { requiredRSs, allRSs };
}

/**
 * findActiveOrLatest returns the only active ReplicaSet, or the newest one when none is active;
 * undefined when several are active (they must be scaled proportionally). Sorts oldRSs in place,
 * newest first, as upstream does.
 */
export function findActiveOrLatest(
  newRS: ReplicaSet | undefined,
  oldRSs: ReplicaSet[],
): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  oldRSs.sort((a, b) => replicaSetsByCreationTimestamp(b, a));
  const active = filterActiveReplicaSets([...oldRSs, newRS]);
  switch (active.length) {
    case 0:
      return newRS ?? oldRSs[0];
    case 1:
      return active[0];
    default:
      return undefined;
  }
}

/** replicaSetsByRevision orders by revision, falling back to creation time for ties or bad values. */
export function replicaSetsByRevision(a: ReplicaSet, b: ReplicaSet): number {
  const r1 = revision(a);
  const r2 = revision(b);
  if (r1 === undefined || r2 === undefined || r1 === r2)
    return replicaSetsByCreationTimestamp(a, b);
  return r1 - r2;
}

// ---- pkg/util/labels ----

/** cloneAndAddLabel returns a copy of labels with key=value added. */
export function cloneAndAddLabel(
  labels: Record<string, string> | undefined,
  key: string,
  value: string,
): Record<string, string> {
  return { ...(labels ?? {}), [key]: value };
}

/** cloneSelectorAndAddLabel returns a copy of the selector with key=value added to matchLabels. */
export function cloneSelectorAndAddLabel(
  selector: LabelSelector,
  key: string,
  value: string,
): LabelSelector {
  const out: LabelSelector = { matchLabels: { ...(selector.matchLabels ?? {}), [key]: value } };
  if (selector.matchExpressions)
    out.matchExpressions = selector.matchExpressions.map((e) =>
      e.values ? { ...e, values: [...e.values] } : { ...e },
    );
  return out;
}

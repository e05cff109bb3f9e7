// Mirrors pkg/scheduler/framework/plugins/helper/normalize_score.go, helper/spread.go and
// helper/taint.go, with the toleration matching of staging/src/k8s.io/api/core/v1/toleration.go
// and component-helpers/scheduling/corev1/helpers.go.

import {
  labelSelectorAsSelector,
  newSelector,
  type Requirement,
  type Selector,
} from '../../api/labels.ts';
import type { Pod, ReplicaSet, Service, Taint, Toleration } from '../../api/types.ts';
import type { PodInfo, ScoreList } from '../framework.ts';
import { toleratesTaint, tolerationsTolerateTaint } from '../../api/toleration.ts';

export { toleratesTaint, tolerationsTolerateTaint };

/**
 * defaultNormalizeScore mirrors DefaultNormalizeScore: scale scores to [0, maxPriority] against
 * the highest score (integer division), reversing them if asked. If every score is 0 they stay 0,
 * or all become maxPriority when reversed.
 */
export function defaultNormalizeScore(
  maxPriority: number,
  reverse: boolean,
  scores: ScoreList,
): void {
  let maxCount = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i] > maxCount) maxCount = scores[i];
  if (maxCount === 0) {
    if (reverse) for (let i = 0; i < scores.length; i++) scores[i] = maxPriority;
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    let score = Math.trunc((maxPriority * scores[i]) / maxCount);
    if (reverse) score = maxPriority - score;
    scores[i] = score;
  }
}



/**
 * findMatchingUntoleratedTaint mirrors corev1helpers.FindMatchingUntoleratedTaint: the first
 * taint passing inclusionFilter that no toleration tolerates, or undefined.
 */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[] | undefined,
  inclusionFilter: (t: Taint) => boolean,
): Taint | undefined {
  for (const taint of taints) {
    if (!inclusionFilter(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}

/** doNotScheduleTaintsFilterFunc mirrors helper.DoNotScheduleTaintsFilterFunc: NoSchedule and NoExecute. */
export function doNotScheduleTaintsFilterFunc(t: Taint): boolean {
  return t.effect === 'NoSchedule' || t.effect === 'NoExecute';
}

/** getPodServices mirrors helper.GetPodServices: services in the pod's namespace selecting it. */
export function getPodServices(services: readonly Service[], pod: PodInfo): Service[] {
  const out: Service[] = [];
  for (const s of services) {
    const sel = s.spec.selector;
    if (!sel) continue;
    if ((s.metadata.namespace ?? 'default') !== pod.namespace) continue;
    let ok = true;
    for (const k in sel) {
      if (pod.labels[k] !== sel[k]) {
        ok = false;
        break;
      }
    }
    if (ok) out.push(s);
  }
  return out;
}

/** controllerOf returns the controller owner reference (metav1.GetControllerOf). */
export function controllerOf(
  pod: Pod,
): { apiVersion: string; kind: string; name: string } | undefined {
  return pod.metadata.ownerReferences?.find((o) => o.controller === true);
}

/**
 * defaultSelector mirrors helper.DefaultSelector: the union of the selectors of the Services
 * selecting the pod and the selector of its controlling ReplicaSet.
 * Simplification: ReplicationControllers and StatefulSets are not modelled, so only Services
 * and ReplicaSets contribute.
 */
export function defaultSelector(
  pod: PodInfo,
  services: readonly Service[],
  getReplicaSet: (namespace: string, name: string) => ReplicaSet | undefined,
): Selector {
  const labelSet: Record<string, string> = {};
  for (const s of getPodServices(services, pod)) Object.assign(labelSet, s.spec.selector);
  const reqs: Requirement[] = Object.entries(labelSet).map(([k, v]) => ({
    key: k,
    operator: 'Equals' as const,
    values: [v],
  }));
  const owner = controllerOf(pod.pod);
  if (owner && owner.kind === 'ReplicaSet' && owner.apiVersion === 'apps/v1') {
    const rs = getReplicaSet(pod.namespace, owner.name);
    if (rs) {
      const other = labelSelectorAsSelector(rs.spec.selector);
      if (!other.nothing) reqs.push(...other.requirements);
    }
  }
  return newSelector(reqs);
}

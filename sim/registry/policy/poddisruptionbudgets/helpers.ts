// Mirrors staging/src/k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go
// (UpdateDisruptionAllowedCondition) and apimachinery's meta.SetStatusCondition, which the
// disruption controller and kube-apiserver's eviction handler both use.

import type { MetaCondition, PodDisruptionBudget } from '../../../api/types.ts';
import { formatTime } from '../../../engine/clock.ts';

export const DisruptionAllowedCondition = 'DisruptionAllowed';
export const SufficientPodsReason = 'SufficientPods';
export const InsufficientPodsReason = 'InsufficientPods';
export const SyncFailedReason = 'SyncFailed';

/** setStatusCondition mirrors meta.SetStatusCondition: lastTransitionTime moves only when status changes. */
export function setStatusCondition(
  conditions: MetaCondition[],
  c: Omit<MetaCondition, 'lastTransitionTime'>,
  nowMs: number,
): MetaCondition[] {
  const i = conditions.findIndex((x) => x.type === c.type);
  const old = i < 0 ? undefined : conditions[i];
  // Field order as metav1.Condition's (what -o json prints).
  const next: MetaCondition = { type: c.type, status: c.status } as MetaCondition;
  if (c.observedGeneration) next.observedGeneration = c.observedGeneration;
  next.lastTransitionTime =
    old && old.status === c.status ? old.lastTransitionTime : formatTime(nowMs);
  next.reason = c.reason;
  next.message = c.message;
  if (!old) return [...conditions, next];
  return conditions.map((x, j) => (j === i ? next : x));
}

/** updateDisruptionAllowedCondition sets DisruptionAllowed from status.disruptionsAllowed (pdb is changed). */
export function updateDisruptionAllowedCondition(pdb: PodDisruptionBudget, nowMs: number): void {
  const st = pdb.status;
  const allowed = st.disruptionsAllowed > 0;
  st.conditions = setStatusCondition(
    st.conditions ?? [],
    {
      type: DisruptionAllowedCondition,
      reason: allowed ? SufficientPodsReason : InsufficientPodsReason,
      status: allowed ? 'True' : 'False',
      message: '',
      observedGeneration: st.observedGeneration,
    },
    nowMs,
  );
}

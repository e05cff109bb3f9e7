// Mirrors staging/src/k8s.io/api/core/v1/toleration.go (Toleration.ToleratesTaint) and
// component-helpers/scheduling/corev1 TolerationsTolerateTaint: shared by the scheduler's
// TaintToleration plugin and the taint-eviction controller.

import type { Taint, Toleration } from './types.ts';

/**
 * toleratesTaint mirrors Toleration.ToleratesTaint: an empty effect matches every effect, an
 * empty key (with operator Exists) matches every key, an empty operator means Equal.
 */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** tolerationsTolerateTaint mirrors corev1helpers.TolerationsTolerateTaint. */
export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  if (!tolerations) return false;
  for (const t of tolerations) if (toleratesTaint(t, taint)) return true;
  return false;
}

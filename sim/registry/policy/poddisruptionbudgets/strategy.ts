// Mirrors pkg/registry/policy/poddisruptionbudget/strategy.go (PrepareForCreate: status reset,
// generation 1; PrepareForUpdate: generation bumped on spec changes, done by the registry's
// tracksGeneration) and pkg/apis/policy/validation/validation.go ValidatePodDisruptionBudgetSpec,
// with upstream's field paths and messages. policy/v1 defaults nothing in the spec
// (pkg/apis/policy/v1 has no SetDefaults_PodDisruptionBudgetSpec, unlike v1beta1).

import type { PodDisruptionBudget } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import { validatePercentOrInt } from '../../../apiserver/validation.ts';

/** emptyStatus is the status PrepareForCreate leaves: all counts zero (they have no omitempty). */
export function emptyStatus(): PodDisruptionBudget['status'] {
  return { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
}

/** defaultPodDisruptionBudget runs PrepareForCreate's status reset on create. */
export function defaultPodDisruptionBudget(pdb: PodDisruptionBudget, isCreate: boolean): void {
  pdb.spec ??= {};
  if (isCreate) pdb.status = emptyStatus();
}

const supportedUnhealthyPodEvictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];

/** validatePodDisruptionBudget mirrors ValidatePodDisruptionBudget. */
export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldError[] {
  const errs: FieldError[] = [];
  const spec = pdb.spec ?? {};
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined)
    // Simplification: upstream prints the spec with %#v, pointers as addresses; the simulator
    // prints the two values instead.
    errs.push({
      field: 'spec',
      type: 'Invalid value',
      raw: `policy.PodDisruptionBudgetSpec{MinAvailable:${JSON.stringify(spec.minAvailable)}, MaxUnavailable:${JSON.stringify(spec.maxUnavailable)}}`,
      detail: 'minAvailable and maxUnavailable cannot be both set',
    });
  if (spec.minAvailable !== undefined)
    validatePercentOrInt(spec.minAvailable, 'spec.minAvailable', errs);
  if (spec.maxUnavailable !== undefined)
    validatePercentOrInt(spec.maxUnavailable, 'spec.maxUnavailable', errs);
  for (const [i, r] of (spec.selector?.matchExpressions ?? []).entries()) {
    const at = `spec.selector.matchExpressions[${i}]`;
    if ((r.operator === 'In' || r.operator === 'NotIn') && !r.values?.length)
      errs.push({
        field: `${at}.values`,
        type: 'Required value',
        detail: "must be specified when `operator` is 'In' or 'NotIn'",
      });
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && r.values?.length)
      errs.push({
        field: `${at}.values`,
        type: 'Forbidden',
        detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      });
  }
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !supportedUnhealthyPodEvictionPolicies.includes(policy))
    errs.push({
      field: 'spec.unhealthyPodEvictionPolicy',
      type: 'Unsupported value',
      value: policy,
      detail: `supported values: ${supportedUnhealthyPodEvictionPolicies.map((p) => `"${p}"`).join(', ')}`,
    });
  return errs;
}

// Mirrors printPodDisruptionBudget (pkg/printers/internalversion/printers.go) and
// describePodDisruptionBudgetV1 (staging/src/k8s.io/kubectl/pkg/describe/describe.go).

import type { IntOrString, PodDisruptionBudget } from '../../../api/types.ts';

/** columns are the table columns of `kubectl get poddisruptionbudgets` (no -o wide extras). */
export const columns = ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'];

function intstr(v: IntOrString | undefined): string {
  return v === undefined ? 'N/A' : String(v);
}

/** row is a PodDisruptionBudget's cells but AGE, which the caller formats. */
export function row(pdb: PodDisruptionBudget): string[] {
  return [
    pdb.metadata.name,
    intstr(pdb.spec?.minAvailable),
    intstr(pdb.spec?.maxUnavailable),
    String(pdb.status?.disruptionsAllowed ?? 0),
  ];
}

/**
 * describeLines are describe's lines before Events, tab-separated for the describe tabwriter;
 * selector is metav1.FormatLabelSelector of the spec's selector, or undefined when unset.
 */
export function describeLines(pdb: PodDisruptionBudget, selector: string | undefined): string {
  let out = `Name:\t${pdb.metadata.name}\nNamespace:\t${pdb.metadata.namespace ?? ''}\n`;
  if (pdb.spec?.minAvailable !== undefined) out += `Min available:\t${pdb.spec.minAvailable}\n`;
  else if (pdb.spec?.maxUnavailable !== undefined)
    out += `Max unavailable:\t${pdb.spec.maxUnavailable}\n`;
  out += `Selector:\t${selector ?? '<unset>'}\n`;
  const s = pdb.status;
  out += `Status:\n    Allowed disruptions:\t${s?.disruptionsAllowed ?? 0}\n    Current:\t${s?.currentHealthy ?? 0}\n    Desired:\t${s?.desiredHealthy ?? 0}\n    Total:\t${s?.expectedPods ?? 0}\n`;
  return out;
}

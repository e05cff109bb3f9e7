// Mirrors printPodDisruptionBudget and its column definitions (pkg/printers/internalversion/
// printers.go) and describePodDisruptionBudgetV1 (staging/src/k8s.io/kubectl/pkg/describe/describe.go).

import type { AnyObject, Event, IntOrString, PodDisruptionBudget } from '../../../api/types.ts';
import { describeEvents, tabbedString } from '../../../kubectl/describe.ts';
import {
  formatLabelSelector,
  type ColumnDefinition,
  type TableRow,
} from '../../../kubectl/table.ts';
import type { Describer, Printer } from '../../rules.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';

/** columns are the table columns of `kubectl get poddisruptionbudgets` (none only in -o wide). */
export const columns: ColumnDefinition[] = [
  { name: 'Name', priority: 0, format: 'name' },
  { name: 'Min Available', priority: 0 },
  { name: 'Max Unavailable', priority: 0 },
  { name: 'Allowed Disruptions', priority: 0 },
  { name: 'Age', priority: 0 },
];

function intstr(v: IntOrString | undefined): string {
  return v === undefined ? 'N/A' : String(v);
}

/** printPodDisruptionBudget is a budget's row: N/A for the bound it does not set. */
export function printPodDisruptionBudget(pdb: PodDisruptionBudget, now: number): TableRow {
  return {
    cells: [
      pdb.metadata.name,
      intstr(pdb.spec?.minAvailable),
      intstr(pdb.spec?.maxUnavailable),
      pdb.status?.disruptionsAllowed ?? 0,
      translateTimestampSince(pdb.metadata.creationTimestamp, now),
    ],
    object: pdb,
  };
}

/** describePodDisruptionBudget mirrors describePodDisruptionBudgetV1, events included. */
export function describePodDisruptionBudget(
  pdb: PodDisruptionBudget,
  events: Event[],
  now: number,
): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${pdb.metadata.name}\n`);
    w.write(0, `Namespace:\t${pdb.metadata.namespace ?? ''}\n`);
    if (pdb.spec?.minAvailable !== undefined)
      w.write(0, `Min available:\t${pdb.spec.minAvailable}\n`);
    else if (pdb.spec?.maxUnavailable !== undefined)
      w.write(0, `Max unavailable:\t${pdb.spec.maxUnavailable}\n`);
    w.write(
      0,
      `Selector:\t${pdb.spec?.selector ? formatLabelSelector(pdb.spec.selector) : '<unset>'}\n`,
    );
    w.write(0, 'Status:\n');
    const s = pdb.status;
    w.write(2, `Allowed disruptions:\t${s?.disruptionsAllowed ?? 0}\n`);
    w.write(2, `Current:\t${s?.currentHealthy ?? 0}\n`);
    w.write(2, `Desired:\t${s?.desiredHealthy ?? 0}\n`);
    w.write(2, `Total:\t${s?.expectedPods ?? 0}\n`);
    describeEvents(w, events, now);
  });
}

/** podDisruptionBudgetPrinter is PodDisruptionBudget's table for `kubectl get`. */
export const podDisruptionBudgetPrinter: Printer = {
  columns,
  row: (obj: AnyObject, now: number) => printPodDisruptionBudget(obj as PodDisruptionBudget, now),
};

/** describePodDisruptionBudgetObject is the PodDisruptionBudget describer. */
export const describePodDisruptionBudgetObject: Describer = (ctx, obj) => {
  return describePodDisruptionBudget(obj as PodDisruptionBudget, ctx.events(true), ctx.now);
};

// Mirrors pkg/printers/internalversion/printers.go for DaemonSet: the columns AddHandlers declares
// for it and printDaemonSet.

import type { AnyObject, DaemonSet } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import {
  AGE,
  col,
  formatLabels,
  formatLabelSelector,
  layoutContainerCells,
  NAME,
  type TableRow,
} from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** daemonSetPrinter is DaemonSet's table for `kubectl get`. */
export const daemonSetPrinter: Printer = {
  columns: [
    NAME,
    col('Desired'),
    col('Current'),
    col('Ready'),
    col('Up-to-date'),
    col('Available'),
    col('Node Selector'),
    AGE,
    col('Containers', 1),
    col('Images', 1),
    col('Selector', 1),
  ],
  row: printDaemonSetRow,
};

function printDaemonSetRow(obj: AnyObject, now: number, wide: boolean): TableRow {
  return printDaemonSet(obj as DaemonSet, now, wide);
}

/** printDaemonSet mirrors printers.go#printDaemonSet. */
export function printDaemonSet(ds: DaemonSet, now: number, wide = false): TableRow {
  const s = ds.status ?? ({} as DaemonSet['status']);
  const cells: (string | number)[] = [
    ds.metadata.name,
    s.desiredNumberScheduled ?? 0,
    s.currentNumberScheduled ?? 0,
    s.numberReady ?? 0,
    s.updatedNumberScheduled ?? 0,
    s.numberAvailable ?? 0,
    formatLabels(ds.spec.template?.spec?.nodeSelector),
    translateTimestampSince(ds.metadata.creationTimestamp, now),
  ];
  if (wide) {
    const [names, images] = layoutContainerCells(ds.spec.template?.spec?.containers);
    cells.push(names, images, formatLabelSelector(ds.spec.selector));
  }
  return { cells, object: ds };
}

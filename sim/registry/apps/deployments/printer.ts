// Mirrors pkg/printers/internalversion/printers.go for Deployment: the columns AddHandlers declares
// for it and printDeployment.

import type { AnyObject, Deployment } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import {
  AGE,
  col,
  layoutContainerCells,
  NAME,
  selectorString,
  type TableRow,
} from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** deploymentPrinter is Deployment's table for `kubectl get`. */
export const deploymentPrinter: Printer = {
  columns: [
    NAME,
    col('Ready'),
    col('Up-to-date'),
    col('Available'),
    AGE,
    col('Containers', 1),
    col('Images', 1),
    col('Selector', 1),
  ],
  row: printDeploymentRow,
};

function printDeploymentRow(obj: AnyObject, now: number, wide: boolean): TableRow {
  return printDeployment(obj as Deployment, now, wide);
}

/** printDeployment mirrors printers.go#printDeployment. */
export function printDeployment(d: Deployment, now: number, wide = false): TableRow {
  const cells: (string | number)[] = [
    d.metadata.name,
    `${d.status?.readyReplicas ?? 0}/${d.spec.replicas ?? 0}`,
    d.status?.updatedReplicas ?? 0,
    d.status?.availableReplicas ?? 0,
    translateTimestampSince(d.metadata.creationTimestamp, now),
  ];
  if (wide) {
    const [names, images] = layoutContainerCells(d.spec.template?.spec?.containers);
    cells.push(names, images, selectorString(d.spec.selector));
  }
  return { cells, object: d };
}

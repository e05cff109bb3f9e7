// Mirrors pkg/printers/internalversion/printers.go for ReplicaSet: the columns AddHandlers declares
// for it and printReplicaSet.

import type { AnyObject, ReplicaSet } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import {
  AGE,
  col,
  formatLabelSelector,
  layoutContainerCells,
  NAME,
  type TableRow,
} from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** replicaSetPrinter is ReplicaSet's table for `kubectl get`. */
export const replicaSetPrinter: Printer = {
  columns: [
    NAME,
    col('Desired'),
    col('Current'),
    col('Ready'),
    AGE,
    col('Containers', 1),
    col('Images', 1),
    col('Selector', 1),
  ],
  row: printReplicaSetRow,
};

function printReplicaSetRow(obj: AnyObject, now: number, wide: boolean): TableRow {
  return printReplicaSet(obj as ReplicaSet, now, wide);
}

/** printReplicaSet mirrors printers.go#printReplicaSet. */
export function printReplicaSet(rs: ReplicaSet, now: number, wide = false): TableRow {
  const cells: (string | number)[] = [
    rs.metadata.name,
    rs.spec.replicas ?? 0,
    rs.status?.replicas ?? 0,
    rs.status?.readyReplicas ?? 0,
    translateTimestampSince(rs.metadata.creationTimestamp, now),
  ];
  if (wide) {
    const [names, images] = layoutContainerCells(rs.spec.template?.spec?.containers);
    cells.push(names, images, formatLabelSelector(rs.spec.selector));
  }
  return { cells, object: rs };
}

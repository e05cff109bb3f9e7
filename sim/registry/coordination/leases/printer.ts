// Mirrors pkg/printers/internalversion/printers.go for Lease: the columns AddHandlers declares
// for it and printLease.

import type { AnyObject, Lease } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** leasePrinter is Lease's table for `kubectl get`. */
export const leasePrinter: Printer = {
  columns: [NAME, col('Holder'), AGE],
  row: printLeaseRow,
};

function printLeaseRow(obj: AnyObject, now: number, _wide: boolean): TableRow {
  return printLease(obj as Lease, now);
}

/** printLease mirrors printers.go#printLease. */
export function printLease(l: Lease, now: number): TableRow {
  return {
    cells: [
      l.metadata.name,
      l.spec?.holderIdentity ?? '',
      translateTimestampSince(l.metadata.creationTimestamp, now),
    ],
    object: l,
  };
}

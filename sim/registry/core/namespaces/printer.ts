// Mirrors pkg/printers/internalversion/printers.go for Namespace: the columns AddHandlers declares
// for it and printNamespace.

import type { AnyObject, Namespace } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** namespacePrinter is Namespace's table for `kubectl get`. */
export const namespacePrinter: Printer = {
  columns: [NAME, col('Status'), AGE],
  row: printNamespaceRow,
};

function printNamespaceRow(obj: AnyObject, now: number, _wide: boolean): TableRow {
  return printNamespace(obj as Namespace, now);
}

/** printNamespace mirrors printers.go#printNamespace. */
export function printNamespace(ns: Namespace, now: number): TableRow {
  return {
    cells: [
      ns.metadata.name,
      ns.status?.phase ?? '',
      translateTimestampSince(ns.metadata.creationTimestamp, now),
    ],
    object: ns,
  };
}

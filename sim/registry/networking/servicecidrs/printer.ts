// Mirrors pkg/printers/internalversion/printers.go for ServiceCIDR: the columns AddHandlers
// declares for it (Name, CIDRs, Age) and printServiceCIDR.

import type { AnyObject, ServiceCIDR } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** serviceCIDRPrinter is ServiceCIDR's table for `kubectl get`. */
export const serviceCIDRPrinter: Printer = {
  columns: [NAME, col('CIDRs'), AGE],
  row: printServiceCIDRRow,
};

function printServiceCIDRRow(obj: AnyObject, now: number, _wide: boolean): TableRow {
  return printServiceCIDR(obj as ServiceCIDR, now);
}

/** printServiceCIDR mirrors printers.go#printServiceCIDR: the CIDRs joined with commas. */
export function printServiceCIDR(c: ServiceCIDR, now: number): TableRow {
  return {
    cells: [
      c.metadata.name,
      (c.spec?.cidrs ?? []).join(','),
      translateTimestampSince(c.metadata.creationTimestamp, now),
    ],
    object: c,
  };
}

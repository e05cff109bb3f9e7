// Mirrors pkg/printers/internalversion/printers.go for IPAddress: the columns AddHandlers declares
// for it (Name, ParentRef) and printIPAddress.

import type { AnyObject, IPAddress } from '../../../api/types.ts';
import { col, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** ipAddressPrinter is IPAddress's table for `kubectl get`. */
export const ipAddressPrinter: Printer = {
  columns: [NAME, col('ParentRef')],
  row: printIPAddressRow,
};

function printIPAddressRow(obj: AnyObject, _now: number, _wide: boolean): TableRow {
  return printIPAddress(obj as IPAddress);
}

/**
 * printIPAddress mirrors printers.go#printIPAddress: the parent as group-resource (lower case),
 * namespace and name: `services/default/web`.
 */
export function printIPAddress(ip: IPAddress): TableRow {
  const ref = ip.spec?.parentRef;
  let parent = '<none>';
  if (ref) {
    parent = (ref.group ? `${ref.resource}.${ref.group}` : ref.resource).toLowerCase();
    if (ref.namespace) parent += `/${ref.namespace}`;
    parent += `/${ref.name}`;
  }
  return { cells: [ip.metadata.name, parent], object: ip };
}

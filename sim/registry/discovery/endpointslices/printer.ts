// Mirrors pkg/printers/internalversion/printers.go for EndpointSlice: the columns AddHandlers declares
// for it and printEndpointSlice.

import type { AnyObject, EndpointSlice } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** endpointSlicePrinter is EndpointSlice's table for `kubectl get`. */
export const endpointSlicePrinter: Printer = {
  columns: [NAME, col('AddressType'), col('Ports'), col('Endpoints'), AGE],
  row: printEndpointSliceRow,
};

function printEndpointSliceRow(obj: AnyObject, now: number, _wide: boolean): TableRow {
  return printEndpointSlice(obj as EndpointSlice, now);
}

function listWithMoreString(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret === '' ? '<unset>' : ret;
}

/** formatDiscoveryPorts mirrors printers.go#formatDiscoveryPorts. */
export function formatDiscoveryPorts(ports: EndpointSlice['ports']): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const p of ports ?? []) {
    if (list.length < max)
      list.push(p.port !== undefined ? String(p.port) : p.name !== undefined ? p.name : '*');
    else if (list.length === max) more = true;
    count++;
  }
  return listWithMoreString(list, more, count, max);
}

/** formatDiscoveryEndpoints mirrors printers.go#formatDiscoveryEndpoints: up to 3 addresses, then "+ N more...". */
export function formatDiscoveryEndpoints(endpoints: EndpointSlice['endpoints']): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const e of endpoints ?? []) {
    for (const a of e.addresses) {
      if (list.length < max) list.push(a);
      else if (list.length === max) more = true;
      count++;
    }
  }
  return listWithMoreString(list, more, count, max);
}

/** printEndpointSlice mirrors printers.go#printEndpointSlice. */
export function printEndpointSlice(eps: EndpointSlice, now: number): TableRow {
  return {
    cells: [
      eps.metadata.name,
      eps.addressType,
      formatDiscoveryPorts(eps.ports),
      formatDiscoveryEndpoints(eps.endpoints),
      translateTimestampSince(eps.metadata.creationTimestamp, now),
    ],
    object: eps,
  };
}

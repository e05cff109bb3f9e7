// Mirrors pkg/printers/internalversion/printers.go for ComponentStatus: the columns AddHandlers declares
// for it and printComponentStatus.

import type { AnyObject } from '../../../api/types.ts';
import { col, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** componentStatusPrinter is ComponentStatus's table for `kubectl get`. */
export const componentStatusPrinter: Printer = {
  columns: [NAME, col('Status'), col('Message'), col('Error')],
  row: printComponentStatusRow,
};

function printComponentStatusRow(obj: AnyObject, _now: number, _wide: boolean): TableRow {
  return printComponentStatus(obj as unknown as ComponentStatus);
}

/** ComponentStatus is core/v1 ComponentStatus (not stored in the simulator). */
export interface ComponentStatus {
  apiVersion: 'v1';
  kind: 'ComponentStatus';
  metadata: { name: string };
  conditions: {
    type: 'Healthy';
    status: 'True' | 'False' | 'Unknown';
    message?: string;
    error?: string;
  }[];
}

/** printComponentStatus mirrors printers.go#printComponentStatus. */
export function printComponentStatus(cs: ComponentStatus): TableRow {
  let status = 'Unknown';
  let message = '';
  let error = '';
  for (const c of cs.conditions) {
    if (c.type === 'Healthy') {
      status = c.status === 'True' ? 'Healthy' : 'Unhealthy';
      message = c.message ?? '';
      error = c.error ?? '';
      break;
    }
  }
  return { cells: [cs.metadata.name, status, message, error] };
}

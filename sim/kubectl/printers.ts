// Mirrors staging/src/k8s.io/cli-runtime/pkg/printers/tableprinter.go (decorateTable,
// printTable) over the tables of pkg/printers/internalversion/printers.go: the tables `kubectl
// get` prints. Each kind's columns and row function live in its registry folder
// (sim/registry/<group>/<resource>/printer.ts), which its discovery row points at.
// Simplification: the table is built client-side from full objects (kubectl asks the server for
// a Table; the server runs these same functions).

import { apiResource } from '../apiserver/discovery.ts';
import { GET_TABWRITER, tabwrite } from './tabwriter.ts';
import { formatLabels, type PrintOptions, type Table, type TableRow } from './table.ts';

export type { ColumnDefinition, PrintOptions, Table, TableRow } from './table.ts';
export { printPod } from '../registry/core/pods/printer.ts';
export { printEvent } from '../registry/core/events/printer.ts';

/**
 * buildTable runs the row function of a resource over its objects, as the server's
 * TableConvertor does: always with Wide set, so rows carry every column and the printer drops
 * the Priority 1 ones unless -o wide.
 */
export function buildTable(resource: string, objects: unknown[], now: number): Table {
  const printer = apiResource(resource)?.rules.printer;
  if (!printer) throw new Error(`no table printer for ${resource}`);
  const rows = objects.map((o): TableRow => printer.row(o as never, now, true));
  return { columns: printer.columns, rows };
}

// cellString mirrors printTable's cell formatting: strings are cut at the first newline.
function cellString(cell: string | number): string {
  if (typeof cell === 'number') return String(cell);
  const nl = cell.search(/[\n\r\f]/);
  return nl >= 0 ? `${cell.slice(0, nl)}...` : cell;
}

/**
 * tableText renders one table as tab-separated lines, before the tabwriter: decorateTable (kind
 * prefix, NAMESPACE and LABELS columns) then printTable (wide filtering; no header and no output
 * for an empty table).
 */
export function tableText(table: Table, opts: PrintOptions = {}): string {
  if (table.rows.length === 0) return '';
  const nameColumn = opts.withKind ? table.columns.findIndex((c) => c.format === 'name') : -1;
  const visible = table.columns.map((c) => opts.wide || c.priority === 0);
  const out: string[] = [];
  if (!opts.noHeaders) {
    const headers = table.columns.filter((_, i) => visible[i]).map((c) => c.name.toUpperCase());
    if (opts.withNamespace) headers.unshift('NAMESPACE');
    if (opts.showLabels) headers.push('LABELS');
    out.push(headers.join('\t'));
  }
  for (const row of table.rows) {
    const cells: string[] = [];
    row.cells.forEach((cell, i) => {
      if (i >= table.columns.length || !visible[i]) return;
      let s = cellString(cell);
      if (i === nameColumn) s = `${opts.withKind}/${s}`;
      cells.push(s);
    });
    if (opts.withNamespace) cells.unshift(row.object?.metadata.namespace ?? '');
    if (opts.showLabels) cells.push(formatLabels(row.object?.metadata.labels));
    out.push(cells.join('\t'));
  }
  return out.join('\n') + '\n';
}

/** printTable renders a table through kubectl's tabwriter (minwidth 6, padding 3). */
export function printTable(table: Table, opts: PrintOptions = {}): string {
  return tabwrite(tableText(table, opts), GET_TABWRITER);
}

/**
 * printTables renders several tables, one per resource type, as `kubectl get a,b` and `get all`
 * do: each flushed separately, with a blank line before every group after the first that
 * printed something.
 */
export function printTables(groups: { table: Table; opts: PrintOptions }[]): string {
  let out = '';
  for (const g of groups) {
    const text = printTable(g.table, g.opts);
    if (text === '') continue;
    if (out !== '' && !g.opts.noHeaders) out += '\n';
    out += text;
  }
  return out;
}

// The table types and cell helpers every printer shares (pkg/printers/internalversion/printers.go
// and metav1.Table), with no printer of its own: each kind's printer lives in its registry folder
// (sim/registry/<group>/<resource>/printer.ts), and printers.ts prints tables.

import type { AnyObject, Container, LabelSelector } from '../api/types.ts';
import { parseTime } from '../engine/clock.ts';

/** ColumnDefinition is metav1.TableColumnDefinition: Priority 1 columns appear with -o wide. */
export interface ColumnDefinition {
  name: string;
  priority: 0 | 1;
  /** format "name" marks the column that gets the kind/ prefix. */
  format?: 'name';
}

/** TableRow is metav1.TableRow: the cells and the object they describe. */
export interface TableRow {
  cells: (string | number)[];
  object?: AnyObject;
}

/** Table is metav1.Table. */
export interface Table {
  columns: ColumnDefinition[];
  rows: TableRow[];
}

/** PrintOptions mirrors printers.PrintOptions. */
export interface PrintOptions {
  wide?: boolean;
  /** withNamespace prepends a NAMESPACE column (-A on a namespaced resource). */
  withNamespace?: boolean;
  /** withKind prefixes the name column with "kind.group/", e.g. "deployment.apps". */
  withKind?: string;
  showLabels?: boolean;
  noHeaders?: boolean;
}

export function col(name: string, priority: 0 | 1 = 0, format?: 'name'): ColumnDefinition {
  return format ? { name, priority, format } : { name, priority };
}

export const NAME = col('Name', 0, 'name');

export const AGE = col('Age');

/** formatLabels mirrors labels.FormatLabels: sorted "k=v,k2=v2", or "<none>". */
export function formatLabels(m: Record<string, string> | undefined | null): string {
  const keys = Object.keys(m ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${m![k]}`).join(',');
}

/**
 * selectorString mirrors metav1.LabelSelectorAsSelector(ls).String(): matchLabels become "k=v",
 * expressions "k in (a,b)", "k notin (a)", "k", "!k"; requirements sorted by key; "" for an
 * empty or nil selector.
 */
export function selectorString(ls: LabelSelector | undefined | null): string {
  if (!ls) return '';
  const reqs: { key: string; s: string }[] = [];
  for (const [k, v] of Object.entries(ls.matchLabels ?? {})) reqs.push({ key: k, s: `${k}=${v}` });
  for (const e of ls.matchExpressions ?? []) {
    const vals = [...(e.values ?? [])].sort().join(',');
    const s =
      e.operator === 'In'
        ? `${e.key} in (${vals})`
        : e.operator === 'NotIn'
          ? `${e.key} notin (${vals})`
          : e.operator === 'Exists'
            ? e.key
            : `!${e.key}`;
    reqs.push({ key: e.key, s });
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map((r) => r.s).join(',');
}

/** formatLabelSelector mirrors metav1.FormatLabelSelector: "<none>" when empty. */
export function formatLabelSelector(ls: LabelSelector | undefined | null): string {
  const s = selectorString(ls);
  return s === '' ? '<none>' : s;
}

/** layoutContainerCells mirrors printers.go#layoutContainerCells. */
export function layoutContainerCells(containers: Container[] | undefined): [string, string] {
  const cs = containers ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(',')];
}

export function tsMs(ts: string | null | undefined): number | undefined {
  if (!ts) return undefined;
  const t = parseTime(ts);
  return Number.isNaN(t) ? undefined : t;
}

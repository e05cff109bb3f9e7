// The component table: for each component seen in the trace, where it runs and how it decides
// (from components.ts), what it watches and what it writes or does (from the trace).

import type { TraceEntry } from '../engine/trace.ts';
import { componentInfo, type Lang } from './components.ts';
import { callAPI, compareComponents, compareResources, splitComponent } from './util.ts';

export interface ComponentTableOptions {
  lang?: Lang;
  /** mergeNodes folds kubelet@node-1, kubelet@node-2, ... into one "kubelet" row. Default true. */
  mergeNodes?: boolean;
  from?: number;
  to?: number;
}

/** ComponentRow is one row; watches and writes come from the trace. */
export interface ComponentRow {
  component: string;
  /** instances are the trace's names folded into this row. */
  instances: string[];
  where: string;
  /** watches are the resources the component received watch events for. */
  watches: string[];
  decides: string;
  /** writes are "verb resource" for its successful writes, then its CRI/CNI calls and other actions. */
  writes: string[];
}

const WRITE_VERBS = ['create', 'update', 'patch', 'delete'];
/** CALL_ORDER is the order a Pod's life makes the calls, so rows read as a story. */
const CALL_ORDER = [
  'RunPodSandbox',
  'ADD',
  'ImageStatus',
  'PullImage',
  'CreateContainer',
  'StartContainer',
  'StopContainer',
  'RemoveContainer',
  'StopPodSandbox',
  'DEL',
  'RemovePodSandbox',
];
const STORE_ORDER = ['txn-create', 'txn-update', 'txn-delete', 'range'];

/** componentTable builds the rows, in the canonical component order. */
export function componentTable(
  trace: TraceEntry[],
  opts: ComponentTableOptions = {},
): ComponentRow[] {
  const lang = opts.lang ?? 'en';
  const merge = opts.mergeNodes ?? true;
  const name = (c: string) => (merge ? splitComponent(c)[0] : c);
  interface Acc {
    instances: Set<string>;
    watches: Set<string>;
    writes: Set<string>;
    calls: Set<string>;
    stores: Set<string>;
    other: Set<string>;
  }
  const rows = new Map<string, Acc>();
  const row = (c: string): Acc => {
    const n = name(c);
    let r = rows.get(n);
    if (!r) {
      r = {
        instances: new Set(),
        watches: new Set(),
        writes: new Set(),
        calls: new Set(),
        stores: new Set(),
        other: new Set(),
      };
      rows.set(n, r);
    }
    r.instances.add(c);
    return r;
  };
  for (const e of trace) {
    if (opts.from !== undefined && e.t < opts.from) continue;
    if (opts.to !== undefined && e.t > opts.to) continue;
    switch (e.kind) {
      case 'request':
        row(e.to);
        if (WRITE_VERBS.includes(e.verb) && e.code < 300)
          row(e.from).writes.add(`${e.verb} ${e.resource}`);
        else row(e.from);
        break;
      case 'watch':
        row(e.from);
        row(e.to).watches.add(e.resource);
        break;
      case 'store':
        row(e.from).stores.add(e.op);
        row(e.to);
        break;
      case 'call': {
        const api = callAPI(e.to);
        row(e.from).calls.add(`${e.method} (${api})`);
        row(e.to);
        break;
      }
      case 'program':
        row(e.from).other.add(e.what);
        break;
      default:
        break;
    }
  }
  const verbRank = (w: string) => WRITE_VERBS.indexOf(w.split(' ')[0]);
  const callRank = (c: string) => {
    const i = CALL_ORDER.indexOf(c.split(' ')[0]);
    return i < 0 ? CALL_ORDER.length : i;
  };
  return [...rows.keys()].sort(compareComponents).map((n) => {
    const r = rows.get(n)!;
    const info = componentInfo(n);
    const writes = [...r.writes].sort(
      (a, b) => compareResources(a.split(' ')[1], b.split(' ')[1]) || verbRank(a) - verbRank(b),
    );
    const stores = [...r.stores]
      .sort((a, b) => STORE_ORDER.indexOf(a) - STORE_ORDER.indexOf(b))
      .map((op) => `${op} (etcd)`);
    const calls = [...r.calls].sort(
      (a, b) => callRank(a) - callRank(b) || (a < b ? -1 : a > b ? 1 : 0),
    );
    return {
      component: n,
      instances: [...r.instances].sort(compareComponents),
      where: info.where[lang],
      watches: [...r.watches].sort(compareResources),
      decides: info.decides[lang],
      writes: [...writes, ...stores, ...calls, ...[...r.other].sort()],
    };
  });
}

/** TABLE_HEADERS are the column headers per language. */
export const TABLE_HEADERS: Record<Lang, [string, string, string, string, string]> = {
  en: ['component', 'where it runs', 'what it watches', 'how it decides', 'what it writes or does'],
  ja: ['コンポーネント', '動く場所', '監視するもの', '判断のしかた', '書き込むもの・行うこと'],
};

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

function codeList(items: string[]): string {
  return items.length ? items.map((i) => `\`${cell(i)}\``).join(', ') : '—';
}

/** toMarkdownTable renders rows as a GitHub-flavoured Markdown table with localized headers. */
export function toMarkdownTable(rows: ComponentRow[], lang: Lang = 'en'): string {
  const h = TABLE_HEADERS[lang];
  const lines = [`| ${h.join(' | ')} |`, `| ${h.map(() => '---').join(' | ')} |`];
  for (const r of rows)
    lines.push(
      `| \`${cell(r.component)}\` | ${cell(r.where)} | ${codeList(r.watches)} | ${cell(r.decides)} | ${codeList(r.writes)} |`,
    );
  return `${lines.join('\n')}\n`;
}

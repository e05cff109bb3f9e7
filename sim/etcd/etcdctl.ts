// etcdctl v3.6 (etcdctl/ctlv3/command in etcd v3.6.4, the etcd kubeadm v1.34 runs) on a
// control-plane node of a highly available control plane, talking to the local member
// (https://127.0.0.1:2379) with its default 5 s command timeout: `member list`,
// `endpoint status [--cluster] [-w table]`, `endpoint health [--cluster]` and
// `get KEY [--prefix] [--keys-only]`, in etcdctl's simple and table formats (printer_simple.go,
// printer_table.go: github.com/olekukonko/tablewriter v0.0.5, headers upper-cased and centred,
// cells right-aligned) and with its errors ("Error: ..." on stderr, exit 1).
// Simplification: a request that cannot complete fails at once with the error it gets after
// the command timeout ("context deadline exceeded"), without the 5 s wait; health's "took" is a
// made-up duration; DB SIZE and IN USE are estimated from the stored objects' JSON size, not
// bbolt's pages.

import type { CommandResult } from '../node/shell.ts';
import type { EtcdCluster } from './raft.ts';
import type { EtcdStore, KeyValue } from './store.ts';

/** The etcd version kubeadm v1.34 runs (registry.k8s.io/etcd:3.6.4-0) and its storage version. */
export const ETCD_VERSION = '3.6.4';
const STORAGE_VERSION = '3.6.0';
/** QUOTA is --quota-backend-bytes' default, 2 GiB. */
const QUOTA = 2 * 1024 * 1024 * 1024;

export interface EtcdctlHost {
  /** member is the local member's name (the node's). */
  member: string;
  raft: EtcdCluster;
  store: EtcdStore;
  members: readonly string[];
  ipOf(member: string): string;
}

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, stdout = ''): CommandResult => ({ stdout, stderr, exitCode: 1 });
const DEADLINE = 'context deadline exceeded';

/** etcdctl runs one etcdctl command line (args after "etcdctl"). */
export function etcdctl(host: EtcdctlHost, args: string[]): CommandResult {
  let output = 'simple';
  let cluster = false;
  let prefix = false;
  let keysOnly = false;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-w' || a === '--write-out') output = args[++i] ?? '';
    else if (a.startsWith('--write-out=')) output = a.slice('--write-out='.length);
    else if (a.startsWith('-w=')) output = a.slice(3);
    else if (a === '--cluster') cluster = true;
    else if (a === '--prefix') prefix = true;
    else if (a === '--keys-only') keysOnly = true;
    else if (a.startsWith('-')) return fail(`Error: unknown flag: ${a}\n`);
    else words.push(a);
  }
  if (!['simple', 'table'].includes(output))
    return fail(
      `Error: unsupported output format: ${output} (this simulator prints simple and table)\n`,
    );
  const [cmd, sub, ...rest] = words;
  const local = host.member;
  // The cluster's members come sorted by ID (membership.RaftCluster.Members).
  const id16 = (m: string) => host.raft.status(m).id.padStart(16, '0');
  const byID = [...host.members].sort((a, b) => (id16(a) < id16(b) ? -1 : 1));
  const endpoint = (m: string) => `https://${host.ipOf(m)}:2379`;
  // A linearizable request through the local member; the local member answers status itself.
  const linearizable = (m = local): boolean => host.raft.serve(m) === 'ok';
  switch (cmd) {
    case 'member': {
      if (sub !== 'list')
        return fail(`Error: unknown command "${sub ?? ''}" for "etcdctl member"\n`);
      if (!linearizable()) return fail(`Error: ${DEADLINE}\n`);
      const hdr = ['ID', 'Status', 'Name', 'Peer Addrs', 'Client Addrs', 'Is Learner'];
      const rows = byID.map((m) => [
        host.raft.status(m).id,
        'started',
        m,
        `https://${host.ipOf(m)}:2380`,
        endpoint(m),
        'false',
      ]);
      return ok(output === 'table' ? table(hdr, rows) : simple(rows));
    }
    case 'endpoint': {
      if (sub !== 'status' && sub !== 'health')
        return fail(`Error: unknown command "${sub ?? ''}" for "etcdctl endpoint"\n`);
      let targets = [local];
      if (cluster) {
        // endpointsFromCluster lists the members (a linearizable MemberList) first.
        if (!linearizable())
          return fail(
            `Error: failed to fetch endpoints from etcd cluster member list: ${DEADLINE}\n`,
          );
        targets = byID;
      }
      const ep = (m: string) => (cluster ? endpoint(m) : '127.0.0.1:2379');
      if (sub === 'health') {
        const healthy = targets.filter((m) => linearizable(m));
        const sick = targets.filter((m) => !linearizable(m));
        // Answers are printed as they arrive: the healthy ones first, the others at the timeout.
        const stdout = healthy
          .map(
            (m) =>
              `${ep(m)} is healthy: successfully committed proposal: took = ${took(host.members.indexOf(m))}\n`,
          )
          .join('');
        if (!sick.length) return ok(stdout);
        const stderr = sick
          .map((m) => `${ep(m)} is unhealthy: failed to commit proposal: ${DEADLINE}\n`)
          .join('');
        return fail(`${stderr}Error: unhealthy cluster\n`, stdout);
      }
      // Status is answered by each member alone (no consensus); a stopped one does not answer.
      const up = targets.filter((m) => host.raft.status(m).up);
      const down = targets.filter((m) => !host.raft.status(m).up);
      const { inUse, size } = dbSize(host.store);
      const hdr = [
        'endpoint',
        'ID',
        'version',
        'storage version',
        'db size',
        'in use',
        'percentage not in use',
        'quota',
        'is leader',
        'is learner',
        'raft term',
        'raft index',
        'raft applied index',
        'errors',
        'downgrade target version',
        'downgrade enabled',
      ];
      const rows = up.map((m) => {
        const s = host.raft.status(m);
        return [
          ep(m),
          s.id,
          ETCD_VERSION,
          STORAGE_VERSION,
          humanizeBytes(size),
          humanizeBytes(inUse),
          `${Math.floor(100 - (inUse * 100) / size)}%`,
          humanizeBytes(QUOTA),
          String(s.isLeader),
          'false',
          String(s.raftTerm),
          String(s.raftIndex),
          String(s.raftAppliedIndex),
          '',
          '',
          'false',
        ];
      });
      // A member that does not answer is left out after a warning (etcdctl logs one per endpoint).
      const warn = down
        .map(
          (m) =>
            `{"level":"warn","msg":"failed to get the status of endpoint","endpoint":"${ep(m)}","error":"${DEADLINE}"}\n`,
        )
        .join('');
      const out = rows.length ? (output === 'table' ? table(hdr, rows) : simple(rows)) : '';
      return { stdout: out, stderr: warn, exitCode: 0 };
    }
    case 'get': {
      const key = sub;
      if (key === undefined || rest.length > 1)
        return fail(
          'Error: get command needs one argument as key and an optional argument as range_end\n',
        );
      if (output === 'table') return fail('Error: table is not supported as output format\n');
      if (!linearizable()) return fail(`Error: ${DEADLINE}\n`);
      const kvs = prefix
        ? allKeys(host.store, key)
        : [host.store.get(key)].filter((x) => x !== undefined);
      return ok(
        kvs.map((kv) => `${kv.key}\n${keysOnly ? '' : JSON.stringify(kv.value)}\n`).join(''),
      );
    }
    case undefined:
      return fail(
        'Error: etcdctl needs a command: member list, endpoint status, endpoint health or get\n',
      );
    default:
      return fail(`Error: unknown command "${cmd}" for "etcdctl"\n`);
  }
}

/** allKeys are the store's keys with a prefix across its buckets, sorted as etcd returns them. */
function allKeys(store: EtcdStore, prefix: string): KeyValue[] {
  const out: KeyValue[] = [];
  for (const b of store.image().buckets)
    for (const kv of b.kvs) if (kv.key.startsWith(prefix)) out.push(kv);
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function simple(rows: string[][]): string {
  return rows.map((r) => `${r.join(', ')}\n`).join('');
}

/** table renders tablewriter v0.0.5's default table: headers upper-cased and centred, cells right-aligned. */
export function table(hdr: string[], rows: string[][]): string {
  const heads = hdr.map((h) => h.toUpperCase());
  const widths = heads.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
  const centre = (s: string, w: number) => {
    const gap = w - s.length;
    const left = Math.floor(gap / 2);
    return ' '.repeat(left) + s + ' '.repeat(gap - left);
  };
  const head = `|${heads.map((h, i) => ` ${centre(h, widths[i])} `).join('|')}|\n`;
  const body = rows
    .map((r) => `|${r.map((c, i) => ` ${c.padStart(widths[i])} `).join('|')}|\n`)
    .join('');
  return line + head + line + body + line;
}

/** humanizeBytes is go-humanize's Bytes: SI units, one decimal below 10. */
export function humanizeBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  const e = Math.floor(Math.log(n) / Math.log(1000));
  const v = n / 1000 ** e;
  const f = v < 10 ? (Math.floor(v * 10 + 0.5) / 10).toFixed(1) : String(Math.floor(v + 0.5));
  return `${f} ${units[e]}`;
}

/** dbSize estimates the backend's size: the stored JSON plus per-key overhead, in 4 kB pages. */
function dbSize(store: EtcdStore): { inUse: number; size: number } {
  let bytes = 0;
  for (const kv of allKeys(store, ''))
    bytes += kv.key.length + JSON.stringify(kv.value).length + 64;
  const inUse = Math.ceil(bytes / 4096) * 4096 + 20 * 4096;
  return { inUse, size: Math.ceil((inUse * 1.25) / 4096) * 4096 };
}

/** took is a health check's duration as Go prints a time.Duration (made up, a few ms). */
function took(i: number): string {
  const us = 1800 + ((i * 7919) % 1400);
  return `${(us / 1000).toFixed(6).replace(/0+$/, '')}ms`;
}

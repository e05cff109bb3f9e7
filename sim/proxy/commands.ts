// Node commands that read what kube-proxy programmed: `iptables-save [-t table] [-c]`, with
// iptables-save(8)'s own messages for bad input (iptables 1.8, legacy backend), `nft list`
// (nftables mode) and `ipvsadm -Ln` (IPVS mode).

import {
  iptablesSave,
  IPTABLES_VERSION,
  Table,
  type NodeIptables,
  type TableName,
} from './iptables.ts';
import { IPVS_HEADER, ipvsadmList, printService, type NodeIPVS } from './ipvs.ts';
import { nftListRuleset, nftListTable, type NftTable, type NodeNFTables } from './nftables.ts';

/** CommandResult is what a node command prints and returns. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const PROG = 'iptables-save';
const MANUAL = `Look at manual page \`${PROG}.8' for more information.\n`;

// Tables the kernel can load on demand: iptables-save autoloads the module (xtables_load_ko),
// so asking for one prints its empty built-in chains.
const loadable = new Set<TableName>(['nat', 'filter', 'mangle', 'raw', 'security']);

/**
 * iptablesSaveCommand runs `iptables-save` with argv (without the program name) against a
 * node's tables at virtual time nowMs. Without -t it prints every loaded table (mangle, filter,
 * nat), each with its own header and trailer.
 */
export function iptablesSaveCommand(
  argv: string[],
  iptables: NodeIptables,
  nowMs: number,
): CommandResult {
  let table: string | undefined;
  let counters = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-t' || a === '--table') {
      if (i + 1 >= argv.length) {
        const opt = a === '-t' ? `-- 't'` : `'--table'`;
        return {
          stdout: '',
          stderr: `${PROG}: option requires an argument ${opt}\n${MANUAL}`,
          exitCode: 1,
        };
      }
      table = argv[++i];
    } else if (a.startsWith('--table=')) table = a.slice('--table='.length);
    else if (a.startsWith('-t') && !a.startsWith('--') && a.length > 2) table = a.slice(2);
    else if (a === '-c' || a === '--counters') counters = true;
    else if (a.startsWith('--'))
      return { stdout: '', stderr: `${PROG}: unrecognized option '${a}'\n${MANUAL}`, exitCode: 1 };
    else if (a.startsWith('-') && a.length > 1)
      return { stdout: '', stderr: `${PROG}: invalid option -- '${a[1]}'\n${MANUAL}`, exitCode: 1 };
    else return { stdout: '', stderr: `Unknown arguments found on commandline\n`, exitCode: 1 };
  }
  const now = nowMs;
  if (table === undefined) {
    let out = '';
    for (const t of iptables.tables.values()) out += iptablesSave(t, now, { counters });
    return { stdout: out, stderr: '', exitCode: 0 };
  }
  const t =
    iptables.table(table as TableName) ??
    (loadable.has(table as TableName) ? new Table(table as TableName) : undefined);
  if (!t)
    return {
      stdout: '',
      stderr: `${PROG} v${IPTABLES_VERSION} (legacy): Cannot initialize: Table does not exist (do you need to insmod?)\n`,
      exitCode: 1,
    };
  return { stdout: iptablesSave(t, now, { counters }), stderr: '', exitCode: 0 };
}

// ---- nft ----

/**
 * nftCommand runs `nft list ruleset|tables|table [FAMILY] NAME|chain|set|map [FAMILY] TABLE NAME`
 * against a node's nftables state, printing as nft 1.0 does; the family defaults to ip.
 * Simplification: only the list commands; nft's syntax errors are reduced to one message naming
 * the unexpected word.
 */
export function nftCommand(argv: string[], nft: NodeNFTables): CommandResult {
  const line = ['list', ...argv.slice(1)].join(' ');
  const syntax = (word: string): CommandResult => ({
    stdout: '',
    stderr: `Error: syntax error, unexpected ${word}\n`,
    exitCode: 1,
  });
  if (argv.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  if (argv[0] !== 'list') return syntax(argv[0]!);
  const [what, ...rest] = argv.slice(1);
  if (what === undefined) return syntax('newline');
  if (what === 'ruleset') return { stdout: nftListRuleset(nft), stderr: '', exitCode: 0 };
  if (what === 'tables') {
    const out = [...nft.tables.values()].map((t) => `table ${t.family} ${t.name}\n`).join('');
    return { stdout: out, stderr: '', exitCode: 0 };
  }
  const families = ['ip', 'ip6', 'inet', 'arp', 'bridge', 'netdev'];
  const family = families.includes(rest[0] ?? '') ? rest.shift()! : 'ip';
  // notFound points at the word nft could not find, as nft's error locations do.
  const notFound = (word: string): CommandResult => {
    const at = line.lastIndexOf(word);
    return {
      stdout: '',
      stderr: `Error: No such file or directory\n${line}\n${' '.repeat(at)}${'^'.repeat(word.length)}\n`,
      exitCode: 1,
    };
  };
  if (what === 'table') {
    if (rest.length !== 1) return syntax(rest.length ? rest[1]! : 'newline');
    const t = nft.table(family, rest[0]!);
    if (!t) return notFound(rest[0]!);
    return { stdout: nftListTable(t), stderr: '', exitCode: 0 };
  }
  if (what === 'chain' || what === 'set' || what === 'map') {
    if (rest.length !== 2) return syntax(rest.length > 2 ? rest[2]! : 'newline');
    const t = nft.table(family, rest[0]!);
    if (!t) return notFound(rest[0]!);
    const name = rest[1]!;
    const part: NftTable = { ...t, comment: undefined, sets: new Map(), chains: new Map() };
    if (what === 'chain') {
      const c = t.chains.get(name);
      if (!c) return notFound(name);
      part.chains.set(name, c);
    } else {
      const s = t.sets.get(name);
      if (!s || s.kind !== what) return notFound(name);
      part.sets.set(name, s);
    }
    return { stdout: nftListTable(part), stderr: '', exitCode: 0 };
  }
  return syntax(what);
}

// ---- ipvsadm ----

const IPVSADM_HELP = "Try `ipvsadm -h' or 'ipvsadm --help' for more information.\n";

/**
 * ipvsadmCommand runs `ipvsadm [-L|-l|--list] [-n] [-t|-u|--sctp-service ADDR:PORT]` against a
 * node's IPVS table (ipvsadm 1.31). Simplification: addresses and ports are always numeric, as
 * with -n (without it ipvsadm names ports from /etc/services); only listing is modelled.
 */
export function ipvsadmCommand(argv: string[], ipvs: NodeIPVS): CommandResult {
  let service: { protocol: string; address: string } | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const proto: Record<string, string> = {
      '-t': 'TCP',
      '--tcp-service': 'TCP',
      '-u': 'UDP',
      '--udp-service': 'UDP',
      '--sctp-service': 'SCTP',
    };
    if (proto[a]) {
      const v = argv[++i];
      if (v === undefined)
        return { stdout: '', stderr: `ipvsadm: missing argument\n${IPVSADM_HELP}`, exitCode: 2 };
      service = { protocol: proto[a], address: v };
    } else if (/^-[Lln]+$/.test(a) || a === '--list' || a === '--numeric') continue;
    else
      return {
        stdout: '',
        stderr: `ipvsadm: invalid option -- '${a.replace(/^-+/, '')}'\n${IPVSADM_HELP}`,
        exitCode: 2,
      };
  }
  if (!service) return { stdout: ipvsadmList(ipvs), stderr: '', exitCode: 0 };
  const m = /^(\d+\.\d+\.\d+\.\d+):(\d+)$/.exec(service.address);
  if (!m)
    return {
      stdout: '',
      stderr: `Illegal virtual server address[:port] specified\n`,
      exitCode: 2,
    };
  const vs = ipvs.virtualServer(service.protocol, m[1]!, Number(m[2]));
  if (!vs) return { stdout: '', stderr: 'No such service\n', exitCode: 1 };
  return { stdout: IPVS_HEADER + printService(vs), stderr: '', exitCode: 0 };
}

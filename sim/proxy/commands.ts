// Node commands that read the node's netfilter tables: `iptables-save [-t table] [-c]`, with
// iptables-save(8)'s own messages for bad input (iptables 1.8, legacy backend).

import {
  iptablesSave,
  IPTABLES_VERSION,
  Table,
  type NodeIptables,
  type TableName,
} from './iptables.ts';

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

// The shell of a node, as `ssh <node> <command>` reaches it: a command line split into words and
// run by one of a few programs, each printing what the real one prints, errors included:
// ls, cat, mv (GNU coreutils 9), systemctl status|start|stop|restart (systemd 252), crictl
// (cri-tools), iptables-save, nft list, ipvsadm -L and, on a highly available control plane's
// nodes, etcdctl. A leading `sudo` is accepted.
// Simplification: no pipes, redirections, globbing, variables or quoting beyond '...' and "...";
// the shell runs as root in /root; systemctl knows the kubelet and containerd units only, and
// `systemctl status` prints no journal lines.

import { formatTime } from '../engine/clock.ts';
import { basename, byteOrder, dirname, normalize, type FileInfo, type NodeFilesystem } from './filesystem.ts';

/** CommandResult is what a node command prints and returns. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** NodeShellHost is the machine a shell runs on. */
export interface NodeShellHost {
  fs: NodeFilesystem;
  now(): number;
  /** kubelet is the kubelet.service unit: whether it runs, since when, and how to start or stop it. */
  kubelet: { active(): boolean; since(): number; start(): void; stop(): void };
  /** containerdSince is when containerd.service started (the machine's boot). */
  containerdSince(): number;
  crictl(args: string[]): CommandResult;
  iptablesSave(args: string[]): CommandResult;
  nft(args: string[]): CommandResult;
  ipvsadm(args: string[]): CommandResult;
  /**
   * etcdctl is etcd's client on a control-plane node of a highly available control plane
   * (absent elsewhere: command not found). Simplification: it is installed on the host, with
   * ETCDCTL_ENDPOINTS and the certificate variables set for the local member (kubeadm installs no
   * etcdctl; it is run in the etcd Pod or installed from the etcd release, with --cacert, --cert
   * and --key naming /etc/kubernetes/pki/etcd/*).
   */
  etcdctl?(args: string[]): CommandResult;
}

const ok = (stdout = ''): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): CommandResult => ({ stdout: '', stderr, exitCode });

/** splitWords splits a command line into words, honouring '...' and "..." quotes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let has = false;
  let quote: string | undefined;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has) words.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has) words.push(cur);
  return words;
}

/** runShell runs one command line on a node. */
export function runShell(host: NodeShellHost, line: string): CommandResult {
  const argv = splitWords(line);
  if (argv.length === 0) return ok();
  if (argv[0] === 'sudo') {
    if (argv.length === 1)
      return fail('usage: sudo -h | -K | -k | -V\nusage: sudo -v [-ABkNnS] [-g group] [-h host] [-p prompt] [-u user]\nusage: sudo -l [-ABkNnS] [-g group] [-h host] [-p prompt] [-U user]\n            [-u user] [command [arg ...]]\n');
    const r = run(host, argv.slice(1));
    // sudo runs the program itself (execve), so an unknown one is sudo's error, not bash's.
    return r ?? fail(`sudo: ${argv[1]}: command not found\n`);
  }
  return run(host, argv) ?? fail(`bash: ${argv[0]}: command not found\n`, 127);
}

function run(host: NodeShellHost, argv: string[]): CommandResult | undefined {
  const [prog, ...args] = argv;
  switch (prog) {
    case 'ls':
      return ls(host, args);
    case 'cat':
      return cat(host, args);
    case 'mv':
      return mv(host, args);
    case 'systemctl':
      return systemctl(host, args);
    case 'crictl':
      return host.crictl(args);
    case 'iptables-save':
      return host.iptablesSave(args);
    case 'nft':
      return host.nft(args);
    case 'ipvsadm':
      return host.ipvsadm(args);
    case 'etcdctl':
      return host.etcdctl?.(args);
    default:
      return undefined;
  }
}

// ---- ls ----

const LS_HELP = "Try 'ls --help' for more information.\n";

/** ls mirrors GNU ls writing to a pipe (one name per line), with -a, -A, -l, -1 and -d. */
function ls(host: NodeShellHost, args: string[]): CommandResult {
  const flags = new Set<string>();
  const paths: string[] = [];
  let onlyPaths = false;
  for (const a of args) {
    if (onlyPaths || a === '-' || !a.startsWith('-')) paths.push(a);
    else if (a === '--') onlyPaths = true;
    else if (a === '--all') flags.add('a');
    else if (a === '--almost-all') flags.add('A');
    else if (a === '--directory') flags.add('d');
    else if (a.startsWith('--')) return fail(`ls: unrecognized option '${a}'\n${LS_HELP}`, 2);
    else
      for (const f of a.slice(1)) {
        if (!'aAld1'.includes(f)) return fail(`ls: invalid option -- '${f}'\n${LS_HELP}`, 2);
        flags.add(f);
      }
  }
  if (paths.length === 0) paths.push('.');
  const fs = host.fs;
  let stderr = '';
  let exitCode = 0;
  const files: { shown: string; info: FileInfo }[] = [];
  const dirs: { shown: string; path: string }[] = [];
  for (const shown of paths) {
    const path = normalize(shown);
    const info = fs.stat(path);
    if (!info) {
      stderr += `ls: cannot access '${shown}': No such file or directory\n`;
      exitCode = 2;
    } else if (info.dir && !flags.has('d')) dirs.push({ shown, path });
    else files.push({ shown, info });
  }
  files.sort((a, b) => byteOrder(a.shown, b.shown));
  dirs.sort((a, b) => byteOrder(a.shown, b.shown));
  const long = flags.has('l');
  const now = host.now();
  // rows prints one listing; ls -l pads the size column to the listing's widest size.
  const rows = (list: { name: string; info: FileInfo }[]) => {
    const width = Math.max(0, ...list.map((e) => String(e.info.size).length));
    return list.map((e) => (long ? `${longLine(e.info, now, width)} ${e.name}\n` : `${e.name}\n`)).join('');
  };
  let stdout = rows(files.map((f) => ({ name: f.shown, info: f.info })));
  const headers = paths.length > 1 || exitCode !== 0;
  dirs.forEach((d, i) => {
    if (headers) stdout += `${i > 0 || files.length > 0 ? '\n' : ''}${d.shown}:\n`;
    let names = fs.readDir(d.path)!;
    if (!flags.has('a') && !flags.has('A')) names = names.filter((n) => !n.startsWith('.'));
    const entries = names.map((n) => ({ name: n, info: fs.stat(d.path === '/' ? `/${n}` : `${d.path}/${n}`)! }));
    if (flags.has('a'))
      entries.unshift({ name: '.', info: fs.stat(d.path)! }, { name: '..', info: fs.stat(dirname(d.path))! });
    if (long) stdout += `total ${entries.reduce((s, e) => s + Math.ceil(e.info.size / 4096) * 4, 0)}\n`;
    stdout += rows(entries);
  });
  return { stdout, stderr, exitCode };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// longLine is one `ls -l` line without the name: mode, links, owner, group, size, mtime.
function longLine(info: FileInfo, now: number, sizeWidth: number): string {
  const bits = ['r', 'w', 'x'];
  let mode = info.dir ? 'd' : '-';
  for (let i = 8; i >= 0; i--) mode += info.mode & (1 << i) ? bits[(8 - i) % 3] : '-';
  // The sticky bit (/tmp) shows in the others' execute place.
  if (info.mode & 0o1000) mode = mode.slice(0, 9) + (info.mode & 1 ? 't' : 'T');
  const t = formatTime(info.mtime); // 2026-01-01T00:00:00Z
  const month = MONTHS[Number(t.slice(5, 7)) - 1];
  const day = String(Number(t.slice(8, 10))).padStart(2);
  // GNU ls shows the year instead of the time for files older than six months.
  const when = now - info.mtime > 182 * 86_400_000 ? ` ${t.slice(0, 4)}` : t.slice(11, 16);
  return `${mode} ${info.dir ? 2 : 1} root root ${String(info.size).padStart(sizeWidth)} ${month} ${day} ${when}`;
}

// ---- cat ----

/** cat prints files in order; a missing one or a directory is reported and skipped. */
function cat(host: NodeShellHost, args: string[]): CommandResult {
  let stdout = '';
  let stderr = '';
  for (const shown of args) {
    if (shown.startsWith('-') && shown !== '-') return fail(`cat: invalid option -- '${shown.slice(1, 2)}'\nTry 'cat --help' for more information.\n`);
    const path = normalize(shown);
    const info = host.fs.stat(path);
    if (!info) stderr += `cat: ${shown}: No such file or directory\n`;
    else if (info.dir) stderr += `cat: ${shown}: Is a directory\n`;
    else stdout += host.fs.readFile(path);
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

// ---- mv ----

const MV_HELP = "Try 'mv --help' for more information.\n";

/** mv mirrors GNU mv: `mv SRC DEST`, or `mv SRC... DIR`, with -f, -i, -n and -v. */
function mv(host: NodeShellHost, args: string[]): CommandResult {
  let verbose = false;
  let noClobber = false;
  const ops: string[] = [];
  let onlyPaths = false;
  for (const a of args) {
    if (onlyPaths || !a.startsWith('-') || a === '-') ops.push(a);
    else if (a === '--') onlyPaths = true;
    else if (a === '--verbose') verbose = true;
    else if (a === '--no-clobber') noClobber = true;
    else if (a === '--force' || a === '--interactive') continue;
    else if (a.startsWith('--')) return fail(`mv: unrecognized option '${a}'\n${MV_HELP}`);
    else
      for (const f of a.slice(1)) {
        if (f === 'v') verbose = true;
        else if (f === 'n') noClobber = true;
        else if (f !== 'f' && f !== 'i') return fail(`mv: invalid option -- '${f}'\n${MV_HELP}`);
      }
  }
  if (ops.length === 0) return fail(`mv: missing file operand\n${MV_HELP}`);
  if (ops.length === 1) return fail(`mv: missing destination file operand after '${ops[0]}'\n${MV_HELP}`);
  const fs = host.fs;
  const target = ops[ops.length - 1];
  const targetPath = normalize(target);
  const targetIsDir = !!fs.stat(targetPath)?.dir;
  const sources = ops.slice(0, -1);
  if (sources.length > 1 && !targetIsDir) {
    if (!fs.stat(targetPath)) return fail(`mv: target '${target}': No such file or directory\n`);
    return fail(`mv: target '${target}' is not a directory\n`);
  }
  let stdout = '';
  let stderr = '';
  for (const shown of sources) {
    const from = normalize(shown);
    const info = fs.stat(from);
    if (!info) {
      stderr += `mv: cannot stat '${shown}': No such file or directory\n`;
      continue;
    }
    const to = targetIsDir ? (targetPath === '/' ? `/${basename(from)}` : `${targetPath}/${basename(from)}`) : targetPath;
    const toShown = targetIsDir ? `${target.replace(/\/+$/, '')}/${basename(from)}` : target;
    if (from === to) {
      stderr += `mv: '${shown}' and '${toShown}' are the same file\n`;
      continue;
    }
    if (info.dir && (to === from || to.startsWith(`${from}/`))) {
      stderr += `mv: cannot move '${shown}' to a subdirectory of itself, '${toShown}'\n`;
      continue;
    }
    const parent = fs.stat(dirname(to));
    if (!parent) {
      stderr += `mv: cannot move '${shown}' to '${toShown}': No such file or directory\n`;
      continue;
    }
    if (!parent.dir) {
      stderr += `mv: cannot move '${shown}' to '${toShown}': Not a directory\n`;
      continue;
    }
    const existing = fs.stat(to);
    if (existing) {
      if (noClobber) continue;
      if (existing.dir && !info.dir) {
        stderr += `mv: cannot overwrite directory '${toShown}' with non-directory\n`;
        continue;
      }
      if (!existing.dir && info.dir) {
        stderr += `mv: cannot overwrite non-directory '${toShown}' with directory '${shown}'\n`;
        continue;
      }
      if (existing.dir && (fs.readDir(to)?.length ?? 0) > 0) {
        stderr += `mv: cannot move '${shown}' to '${toShown}': Directory not empty\n`;
        continue;
      }
    }
    fs.rename(from, to, host.now());
    if (verbose) stdout += `renamed '${shown}' -> '${toShown}'\n`;
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

// ---- systemctl ----

const UNITS: Record<string, { description: string; path: string; dropIn?: string; docs: string; binary: string; pid: number }> = {
  kubelet: {
    description: 'kubelet: The Kubernetes Node Agent',
    path: '/usr/lib/systemd/system/kubelet.service',
    dropIn: '10-kubeadm.conf',
    docs: 'https://kubernetes.io/docs/',
    binary: 'kubelet',
    pid: 812,
  },
  containerd: {
    description: 'containerd container runtime',
    path: '/usr/lib/systemd/system/containerd.service',
    docs: 'https://containerd.io',
    binary: 'containerd',
    pid: 604,
  },
};

function unitName(arg: string): string {
  return arg.endsWith('.service') ? arg.slice(0, -'.service'.length) : arg;
}

/** systemdTime formats a virtual time as systemd does: "Thu 2026-01-01 00:01:30 UTC". */
export function systemdTime(ms: number): string {
  const t = formatTime(ms);
  // Virtual time 0 is Thursday 2026-01-01.
  const day = ((Math.floor(ms / 86_400_000) % 7) + 7 + 4) % 7;
  return `${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][day]} ${t.slice(0, 10)} ${t.slice(11, 19)} UTC`;
}

/** timespan mirrors systemd's format_timespan with second accuracy: "1min 30s", "2h 5min". */
export function timespan(ms: number): string {
  let s = Math.max(0, Math.floor(ms / 1000));
  if (s === 0) return '0';
  const parts: string[] = [];
  for (const [unit, n] of [['month', 2_629_800], ['w', 604_800], ['d', 86_400], ['h', 3_600], ['min', 60], ['s', 1]] as const) {
    if (s >= n) {
      parts.push(`${Math.floor(s / n)}${unit}`);
      s %= n;
    }
  }
  return parts.join(' ');
}

/** systemctl mirrors `systemctl status|start|stop|restart UNIT` for the units a node runs. */
function systemctl(host: NodeShellHost, args: string[]): CommandResult {
  const [verb, ...units] = args.filter((a) => !a.startsWith('-'));
  if (!verb) return fail('Too few arguments.\n');
  if (!['status', 'start', 'stop', 'restart'].includes(verb)) return fail(`Unknown command verb '${verb}'.\n`);
  if (units.length === 0) return fail('Too few arguments.\n');
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  for (const arg of units) {
    const name = unitName(arg);
    const unit = UNITS[name];
    if (!unit) {
      if (verb === 'status') {
        stderr += `Unit ${name}.service could not be found.\n`;
        exitCode = 4;
      } else {
        stderr += `Failed to ${verb} ${name}.service: Unit ${name}.service not found.\n`;
        exitCode = 5;
      }
      continue;
    }
    if (verb === 'status') {
      const active = name === 'kubelet' ? host.kubelet.active() : true;
      const since = name === 'kubelet' ? host.kubelet.since() : host.containerdSince();
      if (stdout) stdout += '\n';
      stdout += `${active ? '●' : '○'} ${name}.service - ${unit.description}\n`;
      stdout += `     Loaded: loaded (${unit.path}; enabled; preset: enabled)\n`;
      if (unit.dropIn) stdout += `    Drop-In: ${unit.path}.d\n             └─${unit.dropIn}\n`;
      stdout += `     Active: ${active ? 'active (running)' : 'inactive (dead)'} since ${systemdTime(since)}; ${timespan(host.now() - since)} ago\n`;
      stdout += `       Docs: ${unit.docs}\n`;
      if (active) stdout += `   Main PID: ${unit.pid} (${unit.binary})\n`;
      if (!active) exitCode = Math.max(exitCode, 3);
      continue;
    }
    // Simplification: containerd cannot be started or stopped (its containers would all stop).
    if (name !== 'kubelet') {
      stderr += `systemctl: ${verb} ${name}.service is not modelled by the simulator; only kubelet.service can be started and stopped\n`;
      exitCode = 1;
      continue;
    }
    if (verb === 'stop' || verb === 'restart') host.kubelet.stop();
    if (verb === 'start' || verb === 'restart') host.kubelet.start();
  }
  return { stdout, stderr, exitCode };
}

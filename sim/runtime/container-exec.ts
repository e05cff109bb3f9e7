// A command run in a container, as the CRI's ExecSync reaches it (containerd starting a process
// with runc in the container's namespaces): the programs the image provides, the files the
// kubelet wrote for it and its environment. BusyBox images (Alpine, busybox, curl, agnhost)
// word their errors as BusyBox's applets and ash do, Debian-based ones as GNU coreutils and dash;
// a distroless image has no shell or tools at all (see images.ts imageUserland).
// Simplification: a container has no processes or files of its own beyond the kubelet's three
// (/etc/hostname, /etc/hosts, /etc/resolv.conf); only the programs in PROGRAMS run.

import type { CommandResult } from './sh.ts';
import { runScript, type ShellDialect } from './sh.ts';
import type { DnsReply, QType } from '../dns/coredns.ts';
import { nslookup } from '../dns/nslookup.ts';
import { getaddrinfo, RESOLVER_TIMEOUT_MS } from '../dns/resolver.ts';
import { curl, type CurlHost } from './curl.ts';
import { wget } from './wget.ts';
import type { Userland } from './images.ts';

/** ContainerView is what a command run in a container can see. */
export interface ContainerView {
  userland: Userland;
  /** repo is the image's repository (docker.io/library/nginx), for the programs it adds. */
  repo: string;
  hostname: string;
  env: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, string>;
  /** sleep lets virtual time pass while the command runs (the cluster runs meanwhile). */
  sleep?(ms: number): void;
  /** dns sends one DNS question from the container; undefined when no reply comes. */
  dns?(server: string, name: string, qtype: QType): DnsReply | undefined;
  /** connect opens a TCP connection from the container (sim/cluster/dataplane.ts). */
  connect?: CurlHost['connect'];
}

/**
 * ExecOutcome is a started command's result, why the runtime could not start it, or that the
 * program is one this model does not run (it may well be in the real image).
 */
export type ExecOutcome =
  | { started: true; result: CommandResult }
  | { started: false; error: string }
  | { started: false; unmodelled: true };

/** PROGRAMS are the programs a simulated container runs (and `sh -c` scripts can call). */
export const PROGRAMS = [
  'cat',
  'curl',
  'echo',
  'env',
  'false',
  'hostname',
  'nslookup',
  'printenv',
  'seq',
  'sh',
  'sleep',
  'true',
  'wget',
];

/**
 * ABSENT are the programs of PROGRAMS an image does not have: Debian's base images ship no
 * nslookup (it is in dnsutils); BusyBox images have it as an applet.
 */
const ABSENT: Record<Userland, ReadonlySet<string>> = {
  busybox: new Set(),
  debian: new Set(['nslookup', 'wget']),
  none: new Set(PROGRAMS),
};

/**
 * HAS_CURL are the images with curl: curlimages/curl, and agnhost, whose Dockerfile adds it.
 * Simplification: the other images are taken to have none (Debian's slim bases and BusyBox
 * ship none; an image that adds it is not known here).
 */
const HAS_CURL = new Set(['docker.io/curlimages/curl', 'registry.k8s.io/e2e-test-images/agnhost']);

const ok = (stdout = ''): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): CommandResult => ({ stdout: '', stderr, exitCode });

/**
 * execInContainer runs argv as ExecSync does: the program found on PATH, or the runtime's
 * error when it is not there (runc's message, which kubectl shows after kube-apiserver's).
 */
export function execInContainer(c: ContainerView, argv: readonly string[]): ExecOutcome {
  const result = c.userland === 'none' ? undefined : run(c, argv, c.env);
  if (result) return { started: true, result };
  const prog = argv[0] ?? '';
  if (c.userland !== 'none' && !ABSENT[c.userland].has(programName(prog)))
    return { started: false, unmodelled: true };
  return {
    started: false,
    error: `OCI runtime exec failed: exec failed: unable to start container process: exec: ${JSON.stringify(prog)}: executable file not found in $PATH: unknown`,
  };
}

/** programName is a program's name without /bin/, /sbin/, /usr/bin/ or /usr/sbin/. */
function programName(path: string): string {
  return path.replace(/^\/(usr\/)?s?bin\//, '');
}

/** dialect is the image's /bin/sh. */
function dialect(u: Userland): ShellDialect {
  return u === 'busybox' ? 'ash' : 'dash';
}

/** run runs one program; undefined when the image has no such program. */
function run(
  c: ContainerView,
  argv: readonly string[],
  env: ReadonlyMap<string, string>,
): CommandResult | undefined {
  const [path, ...args] = argv;
  const prog = programName(path ?? '');
  if (ABSENT[c.userland].has(prog)) return undefined;
  if (prog === 'curl' && !HAS_CURL.has(c.repo)) return undefined;
  const busybox = c.userland === 'busybox';
  switch (prog) {
    case 'curl':
    case 'wget': {
      const resolverTimeoutMs = RESOLVER_TIMEOUT_MS;
      const net: CurlHost = {
        resolve: (name) =>
          getaddrinfo(
            {
              libc: busybox ? 'musl' : 'glibc',
              resolvConf: c.files.get('/etc/resolv.conf') ?? '',
              hosts: c.files.get('/etc/hosts') ?? '',
              query: (server, n, qtype) => c.dns?.(server, n, qtype),
            },
            name,
          ),
        connect: (ip, port) => c.connect?.(ip, port) ?? { outcome: 'timeout' },
        resolverTimeoutMs,
        ...(c.sleep ? { sleep: (ms: number) => c.sleep!(ms) } : {}),
      };
      return prog === 'curl' ? curl(net, args) : wget(net, args);
    }
    case 'nslookup':
      return nslookup(
        {
          resolvConf: c.files.get('/etc/resolv.conf') ?? '',
          hostname: c.hostname,
          query: (server, name, qtype) => c.dns?.(server, name, qtype),
          ...(c.sleep ? { sleep: (ms: number) => c.sleep!(ms) } : {}),
        },
        args,
      );
    case 'sh':
      return sh(c, args, env);
    case 'echo':
      return echo(args);
    case 'true':
      return ok();
    case 'false':
      return fail('', 1);
    case 'hostname':
      return ok(`${c.hostname}\n`);
    case 'cat':
      return cat(c, args, busybox);
    case 'env':
    case 'printenv':
      return printenv(prog, args, env);
    case 'seq':
      return seq(args, busybox);
    case 'sleep':
      return sleep(c, args, busybox);
    default:
      return undefined;
  }
}

/** sh runs `sh -c SCRIPT`; other uses of sh (a script file, an interactive shell) are not modelled. */
function sh(c: ContainerView, args: string[], env: ReadonlyMap<string, string>): CommandResult {
  if (args[0] !== '-c' || args.length < 2)
    return fail(
      args.length === 0
        ? "sh: an interactive shell needs a terminal, which this simulator's kubectl exec does not give: run sh -c '…'\n"
        : `sh: only sh -c '…' is modelled in this simulator\n`,
      2,
    );
  return runScript(
    {
      dialect: dialect(c.userland),
      run: (argv, vars) => run(c, argv, vars),
      notFoundNote: (name) =>
        PROGRAMS.includes(programName(name))
          ? undefined
          : `(the simulated container runs only ${PROGRAMS.join(', ')}; ${name} may exist in the real image)`,
    },
    args[1]!,
    env,
  );
}

/** echo mirrors echo's -n (no newline); BusyBox's and coreutils' echo agree on it. */
function echo(args: string[]): CommandResult {
  if (args[0] === '-n') return ok(args.slice(1).join(' '));
  return ok(`${args.join(' ')}\n`);
}

/** cat prints files: BusyBox and coreutils word a missing one differently. */
function cat(c: ContainerView, args: string[], busybox: boolean): CommandResult {
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  for (const f of args) {
    const text = c.files.get(f);
    if (text !== undefined) {
      stdout += text;
      continue;
    }
    stderr += busybox
      ? `cat: can't open '${f}': No such file or directory\n`
      : `cat: ${f}: No such file or directory\n`;
    exitCode = 1;
  }
  return { stdout, stderr, exitCode };
}

/** printenv prints the environment (env with no arguments), or the named variables. */
function printenv(prog: string, args: string[], env: ReadonlyMap<string, string>): CommandResult {
  if (args.length === 0) return ok([...env].map(([k, v]) => `${k}=${v}\n`).join(''));
  if (prog === 'env')
    return fail(`env: running a command from env is not modelled in this simulator\n`, 125);
  let stdout = '';
  let missing = false;
  for (const name of args) {
    const v = env.get(name);
    if (v === undefined) missing = true;
    else stdout += `${v}\n`;
  }
  return { stdout, stderr: '', exitCode: missing ? 1 : 0 };
}

/** seq prints FIRST..LAST by INCREMENT (seq LAST, seq FIRST LAST, seq FIRST INCREMENT LAST). */
function seq(args: string[], busybox: boolean): CommandResult {
  const nums = args.map(Number);
  const bad = args.find((a) => !/^-?\d+(\.\d+)?$/.test(a));
  if (args.length === 0 || args.length > 3)
    return fail(
      busybox
        ? 'seq: usage: seq [-w] [-s SEP] [FIRST [INC]] LAST\n'
        : "seq: missing operand\nTry 'seq --help' for more information.\n",
    );
  if (bad !== undefined)
    return fail(
      busybox
        ? `seq: invalid number '${bad}'\n`
        : `seq: invalid floating point argument: ‘${bad}’\nTry 'seq --help' for more information.\n`,
    );
  const [first, inc, last] =
    nums.length === 1
      ? [1, 1, nums[0]!]
      : nums.length === 2
        ? [nums[0]!, 1, nums[1]!]
        : [nums[0]!, nums[1]!, nums[2]!];
  if (inc === 0)
    return fail(
      busybox
        ? ''
        : `seq: invalid Zero increment value: ‘0’\nTry 'seq --help' for more information.\n`,
    );
  let out = '';
  // A bound on the output keeps a typo like `seq 100000000` from holding the page.
  let n = 0;
  for (let x = first; inc > 0 ? x <= last : x >= last; x += inc) {
    out += `${x}\n`;
    if (++n >= 100_000) break;
  }
  return ok(out);
}

/** sleep lets virtual time pass; the units s, m, h and d as both implementations take them. */
function sleep(c: ContainerView, args: string[], busybox: boolean): CommandResult {
  if (args.length === 0)
    return fail(
      busybox
        ? 'sleep: usage: sleep [N]...\n'
        : "sleep: missing operand\nTry 'sleep --help' for more information.\n",
    );
  let ms = 0;
  for (const a of args) {
    const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(a);
    if (!m)
      return fail(
        busybox
          ? `sleep: invalid number '${a}'\n`
          : `sleep: invalid time interval ‘${a}’\nTry 'sleep --help' for more information.\n`,
      );
    const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2]!]!;
    ms += Number(m[1]) * unit * 1000;
  }
  c.sleep?.(ms);
  return ok();
}

/// <reference types="node" />
// The simulator's command line: `node sim/cli.ts run <scenario.yaml> [--seed N] [--until D]
// [--json | --summary]`. Only the result goes to stdout; progress goes to stderr. This file is
// the Node boundary of sim/: it may read files, argv and the wall clock (for --summary).
// `main(argv, io)` is the whole command with the process's streams, directory and environment
// passed in, so tests run it in-process (STYLE.md §7); run as a script, it uses the real ones.

import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseDuration } from './engine/clock.ts';
import { ScenarioError, parseScenario } from './scenario/loader.ts';
import { ScenarioRun, type RunResult } from './scenario/runner.ts';
import { missingParamsMessage, substitute, unfilled } from './scenario/params.ts';
import { SEED_RANGE, isSeed } from './scenario/schema.ts';
import type { Pod, Node } from './api/types.ts';
import { getNodeCondition } from './api/podutil.ts';

const USAGE = `Usage:
  npm run --silent sim -- run <scenario.yaml> [--seed N] [--until D] [--param name=value ...] [--json | --summary]

Runs a scenario in the simulator and prints the result.

Options:
  --seed N     use seed N instead of the scenario's seed (an integer, as in the file)
  --until D    stop at virtual time D instead of the scenario's until (e.g. 90s, 15m; 90 is 90s)
  --param n=v  fill the scenario's {{n}} placeholders with v (repeatable)
  --json       print one JSON object: { name, seed, until, objects, changes, trace, outputs }
  --summary    print a small JSON summary (for large runs): times, counts, Pods by phase
               (--json and --summary exclude each other)
  -h, --help   show this help

A relative scenario path is read from the directory npm run was started in.
`;

/** CliIo is what the command reads from and writes to its process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** cwd is the process's working directory. */
  cwd: string;
  /** env is the process's environment (npm's INIT_CWD and npm_lifecycle_event are read). */
  env: Record<string, string | undefined>;
  /** isTTY reports whether stderr is a terminal, where progress is shown. */
  isTTY: boolean;
}

/** Exit ends the command early with an exit code, its message already written. */
class Exit extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`exit ${code}`);
    this.code = code;
  }
}

let io: CliIo;

function fail(message: string): never {
  io.stderr(`${message}\n`);
  throw new Exit(2);
}

interface Args {
  file: string;
  seed?: number;
  until?: number;
  params: Record<string, string>;
  mode: 'report' | 'json' | 'summary';
}

function parseArgs(argv: string[]): Args {
  if (argv.length === 0) fail(`error: no command given; expected "run"\n\n${USAGE}`);
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout(USAGE);
    throw new Exit(0);
  }
  const [cmd, ...rest] = argv;
  if (cmd !== 'run') fail(`error: unknown command "${cmd}"; expected "run"\n\n${USAGE}`);
  const args: Partial<Args> = { mode: 'report', params: {} };
  let modeFlag: string | undefined;
  const setMode = (flag: string, mode: Args['mode']): void => {
    if (modeFlag && modeFlag !== flag) fail(`error: ${modeFlag} and ${flag} were both given; expected at most one of them (--json prints the whole run, --summary a short summary)`);
    modeFlag = flag;
    args.mode = mode;
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (v === undefined) fail(`error: flag ${flag} needs a value`);
      return v;
    };
    if (flag === '--seed') {
      const v = value();
      // Number() would round a seed beyond 2^53 to a neighbour silently; the file rejects those too.
      if (!/^-?\d+$/.test(v) || !isSeed(Number(v))) fail(`error: --seed: found "${v}", expected ${SEED_RANGE}`);
      args.seed = Number(v);
    } else if (flag === '--until') {
      const v = value();
      // A bare number is seconds, as `until: 90` in a scenario file.
      const ms = /^\d+(\.\d+)?$/.test(v.trim()) ? parseDuration(Number(v)) : parseDuration(v);
      if (ms === undefined) fail(`error: --until: found "${v}", expected a duration such as 90s, 5m or 1h30m`);
      args.until = ms;
    } else if (flag === '--param') {
      const v = value();
      const m = /^([a-zA-Z][a-zA-Z0-9]*)=(.*)$/s.exec(v);
      if (!m) fail(`error: --param: found "${v}", expected name=value (for example --param maxSurge=1)`);
      args.params![m[1]] = m[2];
    } else if (flag === '--json') setMode(flag, 'json');
    else if (flag === '--summary') setMode(flag, 'summary');
    else if (flag.startsWith('-')) fail(`error: unknown flag: ${flag}\n\n${USAGE}`);
    else if (args.file) fail(`error: more than one scenario file given ("${args.file}" and "${a}")`);
    else args.file = a;
  }
  if (!args.file) fail(`error: no scenario file given\n\n${USAGE}`);
  return args as Args;
}

function report(run: ScenarioRun): string {
  const lines: string[] = [`# scenario ${run.scenario.name} (seed ${run.cluster.sim.seed}, until ${run.until / 1000}s)`, ''];
  for (const o of run.outputs) {
    lines.push(`$ ${o.command}    # t=${o.t}s${o.exitCode ? ` exit=${o.exitCode}` : ''}`);
    if (o.stdout) lines.push(o.stdout.replace(/\n$/, ''));
    if (o.stderr) lines.push(o.stderr.replace(/\n$/, ''));
    lines.push('');
  }
  for (const cmd of ['get pods -A -o wide', 'get nodes']) {
    const o = run.cluster.kubectl(cmd);
    lines.push(`$ kubectl ${cmd}    # final, t=${run.until / 1000}s`);
    lines.push((o.stdout || o.stderr).replace(/\n$/, ''));
    lines.push('');
  }
  return lines.join('\n');
}

function summary(run: ScenarioRun, wallMs: number): object {
  const api = run.cluster.apiserver;
  const counts: Record<string, number> = {};
  for (const r of ['pods', 'nodes', 'deployments', 'replicasets', 'services', 'endpointslices', 'events', 'leases'] as const) counts[r] = api.count(r);
  // status.phase only (Pending, Running, Succeeded, Failed, Unknown); a Pod being deleted keeps its
  // phase and is also counted in podsTerminating (kubectl's Terminating status).
  const podsByPhase: Record<string, number> = {};
  let podsTerminating = 0;
  for (const p of api.peekAll<Pod>('pods')) {
    const k = p.status.phase ?? 'Pending';
    podsByPhase[k] = (podsByPhase[k] ?? 0) + 1;
    if (p.metadata.deletionTimestamp) podsTerminating++;
  }
  const nodesByReady: Record<string, number> = {};
  for (const n of api.peekAll<Node>('nodes')) {
    const k = getNodeCondition(n, 'Ready')?.status ?? 'None';
    nodesByReady[k] = (nodesByReady[k] ?? 0) + 1;
  }
  return {
    name: run.scenario.name,
    seed: run.cluster.sim.seed,
    virtualEnd: run.cluster.sim.now() / 1000,
    wallMs: Math.round(wallMs),
    eventsProcessed: run.cluster.sim.eventsProcessed,
    objects: counts,
    podsByPhase,
    podsTerminating,
    nodesByReady,
  };
}

/**
 * callerDir is the directory the user ran the command in. `npm run sim` runs this file from the
 * package root and leaves the caller's directory in INIT_CWD; INIT_CWD is only trusted when npm
 * started this script itself (an outer `npm test` also sets it, for its own directory).
 */
function callerDir(): string {
  const env = io.env;
  return env.npm_lifecycle_event === 'sim' && env.INIT_CWD ? env.INIT_CWD : io.cwd;
}

/** main runs the command line `argv` (without node and the script) and returns its exit code. */
export function main(argv: string[], cliIo: CliIo): number {
  io = cliIo;
  try {
    runCommand(argv);
    return 0;
  } catch (e) {
    if (e instanceof Exit) return e.code;
    throw e;
  }
}

function runCommand(argv: string[]): void {
  const args = parseArgs(argv);
  const path = isAbsolute(args.file) ? args.file : resolve(callerDir(), args.file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as NodeJS.ErrnoException).code === 'EISDIR' ? 'it is a directory' : (e as Error).message;
    fail(`error: cannot read scenario file "${args.file}": ${why}${path !== args.file ? ` (looked for ${path})` : ''}`);
  }
  const used = new Set(unfilled(text).map((p) => p.name));
  for (const name of Object.keys(args.params)) if (!used.has(name)) fail(`error: --param ${name}: the scenario has no {{${name}}} placeholder${used.size ? ` (it has: ${[...used].join(', ')})` : ''}`);
  text = substitute(text, args.params);
  const missing = unfilled(text);
  if (missing.length) fail(missingParamsMessage(args.file, missing));
  let run: ScenarioRun;
  try {
    const scenario = parseScenario(text, args.file);
    run = new ScenarioRun(scenario, {
      seed: args.seed,
      until: args.until,
      traceLevel: args.mode === 'summary' ? 'none' : 'full',
      recordChanges: args.mode === 'json',
    });
  } catch (e) {
    if (e instanceof ScenarioError) fail(e.message);
    throw e;
  }
  const start = process.hrtime.bigint();
  // Advance in slices so that long runs can report progress on stderr.
  const slice = 10_000;
  let lastPrint = start;
  for (let t = Math.min(slice, run.until); ; t = Math.min(t + slice, run.until)) {
    run.runUntil(t);
    const now = process.hrtime.bigint();
    if (io.isTTY && now - lastPrint > 1_000_000_000n) {
      io.stderr(`\rsim: t=${t / 1000}s of ${run.until / 1000}s, ${run.cluster.sim.eventsProcessed} events`);
      lastPrint = now;
    }
    if (t >= run.until) break;
  }
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (io.isTTY && wallMs > 1000) io.stderr('\n');
  if (args.mode === 'json') {
    const result: RunResult = run.result();
    io.stdout(`${JSON.stringify(result)}\n`);
  } else if (args.mode === 'summary') io.stdout(`${JSON.stringify(summary(run, wallMs), null, 2)}\n`);
  else io.stdout(`${report(run)}\n`);
}

if (import.meta.main) {
  process.exitCode = main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stderr.isTTY),
  });
}

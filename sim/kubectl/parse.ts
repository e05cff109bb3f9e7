// Mirrors kubectl's command line as cobra and pflag parse it (staging/src/k8s.io/kubectl/pkg/cmd/
// cmd.go: the root command, its command groups and persistent flags), finding each command in the
// registry (cmd/index.ts), whose module reads its own flags and arguments. Input is tokenised like
// a shell line (quotes, backslashes) but never executed. Errors are worded as kubectl words them.
// Simplification: only the commands and flags the simulator supports are known; other real
// commands are recognised and refused.

import { CmdError, usageError, type FlagParse, type FlagSpec } from './cmdutil.ts';
import { commandFor, GROUPS, type KubectlCommand } from './cmd/index.ts';

export { resolveResource, ResolveError } from '../apiserver/discovery.ts';
export { parseTaintSpec, type ParsedTaint } from './cmd/taint.ts';
export type { KubectlCommand } from './cmd/index.ts';
export type { OutputFormat, Targets } from './cmdutil.ts';

// ---- tokenizer ----

/** TokenizeError is an unterminated quote or a trailing backslash. */
export class TokenizeError extends Error {}

/** tokenize splits a command line into words as a POSIX shell would (no expansion at all). */
export function tokenize(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new TokenizeError("unexpected EOF while looking for matching `''");
      cur += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      let closed = false;
      while (i < line.length) {
        const c = line[i];
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        if (c === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1])) {
          if (line[i + 1] !== '\n') cur += line[i + 1];
          i += 2;
          continue;
        }
        cur += c;
        i++;
      }
      if (!closed) throw new TokenizeError('unexpected EOF while looking for matching `"\'');
      inWord = true;
    } else if (ch === '\\') {
      if (i + 1 >= line.length) throw new TokenizeError("unexpected EOF after `\\'");
      if (line[i + 1] !== '\n') {
        cur += line[i + 1];
        inWord = true;
      }
      i += 2;
    } else if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      i++;
    } else {
      cur += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

// ---- flags (pflag) ----

// GLOBAL_FLAGS are kubectl's persistent flags that the simulator honours.
const GLOBAL_FLAGS: FlagSpec[] = [{ name: 'namespace', short: 'n', type: 'string' }];

/**
 * KUBECTL_COMMANDS are kubectl's top-level commands in registration order (cmd.go's command
 * groups), used for "Did you mean this?" suggestions and to refuse real but unsupported ones.
 */
export const KUBECTL_COMMANDS = [
  'create',
  'expose',
  'run',
  'set',
  'explain',
  'get',
  'edit',
  'delete',
  'rollout',
  'scale',
  'autoscale',
  'certificate',
  'cluster-info',
  'top',
  'cordon',
  'uncordon',
  'drain',
  'taint',
  'describe',
  'logs',
  'attach',
  'exec',
  'port-forward',
  'proxy',
  'cp',
  'auth',
  'debug',
  'events',
  'diff',
  'apply',
  'patch',
  'replace',
  'wait',
  'kustomize',
  'label',
  'annotate',
  'completion',
  'api-resources',
  'api-versions',
  'config',
  'plugin',
  'version',
  'options',
];

const SUGGEST_FOR: Record<string, string[]> = { get: ['list', 'ps'], delete: ['rm'] };

// levenshtein mirrors cobra's ld (case-insensitive).
function levenshtein(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = [];
  for (let i = 0; i <= s.length; i++) d.push([i, ...new Array(t.length).fill(0)]);
  for (let j = 0; j <= t.length; j++) d[0][j] = j;
  for (let j = 1; j <= t.length; j++) {
    for (let i = 1; i <= s.length; i++) {
      if (s[i - 1] === t[j - 1]) d[i][j] = d[i - 1][j - 1];
      else d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + 1);
    }
  }
  return d[s.length][t.length];
}

/** suggestionsFor mirrors cobra's Command.SuggestionsFor (distance 2, prefix, SuggestFor). */
export function suggestionsFor(typed: string, commands: string[] = KUBECTL_COMMANDS): string[] {
  const out: string[] = [];
  for (const c of commands) {
    if (levenshtein(typed, c) <= 2 || c.toLowerCase().startsWith(typed.toLowerCase())) out.push(c);
    for (const s of SUGGEST_FOR[c] ?? []) if (s.toLowerCase() === typed.toLowerCase()) out.push(c);
  }
  return out;
}

/** UsageError is a flag or argument problem: kubectl adds "See 'kubectl X --help' for usage.". */
class FlagError extends Error {}

function flagLabel(spec: FlagSpec): string {
  return spec.short ? `-${spec.short}, --${spec.name}` : `--${spec.name}`;
}

function setFlag(out: FlagParse, spec: FlagSpec, value: string): void {
  out.set.add(spec.name);
  switch (spec.type) {
    case 'bool': {
      const v = value.toLowerCase();
      const truthy = ['1', 't', 'true'];
      const falsy = ['0', 'f', 'false'];
      if (
        !truthy.includes(v) &&
        !falsy.includes(v) &&
        !['TRUE', 'True', 'FALSE', 'False'].includes(value)
      )
        throw new FlagError(
          `invalid argument "${value}" for "${flagLabel(spec)}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`,
        );
      out.flags[spec.name] = truthy.includes(v);
      break;
    }
    case 'int': {
      if (!/^[+-]?\d+$/.test(value))
        throw new FlagError(
          `invalid argument "${value}" for "${flagLabel(spec)}" flag: strconv.ParseInt: parsing "${value}": invalid syntax`,
        );
      out.flags[spec.name] = Number(value);
      break;
    }
    case 'stringArray': {
      const prev = out.flags[spec.name];
      out.flags[spec.name] = [...(Array.isArray(prev) ? prev : []), value];
      break;
    }
    case 'stringSlice': {
      // pflag's stringSlice: comma-separated values, accumulated over repeated flags.
      const prev = out.flags[spec.name];
      out.flags[spec.name] = [...(Array.isArray(prev) ? prev : []), ...value.split(',')];
      break;
    }
    default:
      out.flags[spec.name] = value;
  }
}

// parseFlags mirrors pflag's FlagSet.Parse with interspersed arguments.
function parseFlags(words: string[], specs: FlagSpec[]): FlagParse {
  const all = [...specs, ...GLOBAL_FLAGS];
  const byName = new Map(all.map((s) => [s.name, s]));
  const byShort = new Map(all.filter((s) => s.short).map((s) => [s.short!, s]));
  const out: FlagParse = { args: [], flags: {}, set: new Set(), dashAt: -1 };
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '--') {
      out.dashAt = out.args.length;
      out.args.push(...words.slice(i + 1));
      break;
    }
    if (w.startsWith('--') && w.length > 2) {
      const eq = w.indexOf('=');
      const name = eq >= 0 ? w.slice(2, eq) : w.slice(2);
      const spec = byName.get(name);
      if (!spec) throw new FlagError(`unknown flag: --${name}`);
      if (eq >= 0) setFlag(out, spec, w.slice(eq + 1));
      else if (spec.type === 'bool') setFlag(out, spec, 'true');
      else if (i + 1 < words.length) setFlag(out, spec, words[++i]);
      else throw new FlagError(`flag needs an argument: --${name}`);
    } else if (w.startsWith('-') && w.length > 1) {
      let shorthands = w.slice(1);
      while (shorthands.length > 0) {
        const c = shorthands[0];
        const spec = byShort.get(c);
        if (!spec) throw new FlagError(`unknown shorthand flag: '${c}' in -${shorthands}`);
        if (shorthands.length > 2 && shorthands[1] === '=') {
          setFlag(out, spec, shorthands.slice(2));
          shorthands = '';
        } else if (spec.type === 'bool') {
          setFlag(out, spec, 'true');
          shorthands = shorthands.slice(1);
        } else if (shorthands.length > 1) {
          setFlag(out, spec, shorthands.slice(1));
          shorthands = '';
        } else if (i + 1 < words.length) {
          setFlag(out, spec, words[++i]);
          shorthands = '';
        } else {
          throw new FlagError(`flag needs an argument: '${c}' in -${c}`);
        }
      }
    } else {
      out.args.push(w);
    }
  }
  return out;
}

/** ParseResult is a command, or the stderr kubectl would print (exit code 1). */
export type ParseResult =
  | { ok: true; command: KubectlCommand }
  | { ok: false; stderr: string; exitCode: number; stdout?: string };

/** goQuoteArg is Go's %q for a command-line word. */
function goQuoteArg(s: string): string {
  return JSON.stringify(s);
}

/**
 * parseCommandLine parses one kubectl invocation ("kubectl " prefix optional). stdin-only input:
 * `apply -f -` reads the manifest passed separately to runKubectl.
 */
export function parseCommandLine(line: string): ParseResult {
  let words: string[];
  try {
    words = tokenize(line);
  } catch (e) {
    return { ok: false, stderr: `error: ${(e as Error).message}\n`, exitCode: 1 };
  }
  if (words[0] === 'kubectl') words = words.slice(1);
  return parseArgs(words);
}

// positionalIndexes lists where the words that are not flags are, skipping the value of a
// separate -n/--namespace (the one global flag that takes a value).
function positionalIndexes(words: string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '-n' || w === '--namespace') i++;
    else if (!w.startsWith('-')) out.push(i);
  }
  return out;
}

/** parseArgs parses kubectl's arguments (without the program name). */
export function parseArgs(words: string[]): ParseResult {
  // Global flags may precede the command: kubectl -n kube-system get pods.
  const pre: string[] = [];
  let i = 0;
  while (i < words.length && words[i].startsWith('-')) {
    pre.push(words[i]);
    const w = words[i];
    if ((w === '-n' || w === '--namespace') && i + 1 < words.length) pre.push(words[++i]);
    i++;
  }
  if (i >= words.length) {
    try {
      parseFlags(pre, []);
    } catch (e) {
      return {
        ok: false,
        stderr: `error: ${(e as Error).message}\nSee 'kubectl --help' for usage.\n`,
        exitCode: 1,
      };
    }
    return {
      ok: false,
      stderr: "error: a command is required: kubectl [command]\nRun 'kubectl --help' for usage.\n",
      exitCode: 1,
    };
  }
  const name = words[i];
  let rest = [...pre, ...words.slice(i + 1)];
  if (!KUBECTL_COMMANDS.includes(name)) {
    const sugg = suggestionsFor(name);
    const did = sugg.length
      ? `\n\nDid you mean this?\n${sugg.map((s) => `\t${s}\n`).join('')}`
      : '\n';
    return {
      ok: false,
      stderr: `error: unknown command "${name}" for "kubectl"${did}`,
      exitCode: 1,
    };
  }
  let path = name;
  let group = GROUPS.find((g) => g.name === name);
  while (group) {
    // The subcommand is the first word after the command that is neither a flag nor the value of
    // -n/--namespace (a global flag may come before it: kubectl -n NS rollout status ...).
    const words = positionalIndexes(rest);
    const j = words.length ? words[0] : -1;
    const sub = j >= 0 ? rest[j] : undefined;
    // A group inside this one ("create service", or its alias "create svc").
    const inner =
      sub === undefined
        ? undefined
        : GROUPS.find(
            (g) =>
              g.name === `${path} ${sub}` ||
              (g.name.startsWith(`${path} `) &&
                !g.name.slice(path.length + 1).includes(' ') &&
                g.aliases?.includes(sub)),
          );
    if (inner) {
      path = inner.name;
      rest = [...rest.slice(0, j), ...rest.slice(j + 1)];
      group = inner;
      continue;
    }
    const registered = sub !== undefined ? commandFor(`${path} ${sub}`) : undefined;
    if (registered) {
      path = registered.path;
      rest = [...rest.slice(0, j), ...rest.slice(j + 1)];
    } else if (sub !== undefined && group.subcommands.includes(sub)) {
      return {
        ok: false,
        stderr: `error: kubectl ${path} ${sub} is not supported in this simulator\n`,
        exitCode: 1,
      };
    } else if (group.help) {
      // cmdutil.DefaultSubCommandRun: RequireNoArguments refuses extra words, else the command's
      // help goes to the stream NewCmd* gave it and the exit code is 1 with no message.
      if (words.length > 0)
        return {
          ok: false,
          stderr: `error: ${usageError(path, `unknown command ${goQuoteArg(words.map((i) => rest[i]).join(' '))}`)}\n`,
          exitCode: 1,
        };
      const help = group.help;
      return {
        ok: false,
        stderr: help.stream === 'stderr' ? help.text : '',
        stdout: help.stream === 'stdout' ? help.text : '',
        exitCode: 1,
      };
    }
    break;
  }
  const cmd = commandFor(path);
  if (!cmd)
    return {
      ok: false,
      stderr: `error: kubectl ${name} is not supported in this simulator\n`,
      exitCode: 1,
    };

  let fp: FlagParse;
  try {
    fp = parseFlags(rest, cmd.flags);
  } catch (e) {
    return {
      ok: false,
      stderr: `error: ${(e as Error).message}\nSee 'kubectl ${path} --help' for usage.\n`,
      exitCode: 1,
    };
  }
  const missing = cmd.flags.filter((s) => s.required && !fp.set.has(s.name)).map((s) => s.name);
  if (missing.length)
    return {
      ok: false,
      stderr: `error: required flag(s) "${missing.join('", "')}" not set\n`,
      exitCode: 1,
    };

  try {
    const namespace = typeof fp.flags.namespace === 'string' ? fp.flags.namespace : undefined;
    const options = cmd.complete(fp);
    const command = (
      namespace !== undefined ? { ...options, namespace } : options
    ) as KubectlCommand;
    return { ok: true, command };
  } catch (e) {
    if (e instanceof CmdError) {
      const msg = e.message.endsWith('\n') ? e.message : e.message + '\n';
      return {
        ok: false,
        stderr: e.raw || msg.startsWith('error: ') ? msg : `error: ${msg}`,
        exitCode: 1,
      };
    }
    throw e;
  }
}

// Mirrors what kubectl's commands share for their command lines (staging/src/k8s.io/kubectl/pkg/
// cmd/util: flag helpers, UsageErrorf) and cli-runtime's resource argument forms
// (resource.Builder.APIResourceOrNameArgs: "pods", "pods,svc", "pods a b", "pod/a svc/b"), and
// the Command shape every module under cmd/ exports (cobra.Command: Use, Short, flags, and the
// Complete/Validate/Run trio).

import { resolveResource, resourcesInCategory, type APIResource } from '../apiserver/discovery.ts';
import type { Run } from './run.ts';

// ---- flags (pflag) ----

export type FlagType = 'bool' | 'string' | 'int' | 'stringArray' | 'stringSlice';

/** FlagSpec is one flag of a command, as cmd.Flags() declares it. */
export interface FlagSpec {
  name: string;
  short?: string;
  type: FlagType;
  required?: boolean;
}

/** f declares a flag: f('replicas', 'int', 'r'). */
export function f(name: string, type: FlagType, short?: string, required = false): FlagSpec {
  return { name, type, short, required };
}

export const OUTPUT = f('output', 'string', 'o');
export const SELECTOR = f('selector', 'string', 'l');
export const FIELD_SELECTOR = f('field-selector', 'string');
export const ALL_NS = f('all-namespaces', 'bool', 'A');
export const FILENAME = f('filename', 'stringArray', 'f');

export type FlagValue = string | number | boolean | string[];

/** FlagParse is a parsed command line: the positional arguments and the flags. */
export interface FlagParse {
  args: string[];
  flags: Record<string, FlagValue>;
  /** set names the flags given explicitly. */
  set: Set<string>;
  /** dashAt is cobra's ArgsLenAtDash: how many args came before a bare "--", or -1. */
  dashAt: number;
}

// ---- commands ----

/** Common are the options every command gets from kubectl's persistent flags. */
export interface Common {
  /** namespace is -n/--namespace, when given. */
  namespace?: string;
}

/**
 * Command is one kubectl (sub)command, as a pkg/cmd/<verb> package defines it: its path, cobra's
 * Short help, its flags, complete (Complete and Validate: flags and arguments to options, throwing
 * CmdError in kubectl's words) and run. Options carry the verb, the command's path.
 */
export interface Command<O extends { verb: string }> {
  /** path is the command after "kubectl": "get", "rollout status". */
  path: O['verb'];
  /** aliases are cobra's Aliases of the last word of the path ("deploy" for create deployment). */
  aliases?: string[];
  /** short is cobra's Short help line, as `kubectl <parent> --help` lists it. */
  short: string;
  flags: FlagSpec[];
  complete(fp: FlagParse): O;
  run(r: Run, o: O & Common, stdin: string | undefined): void;
}

/**
 * CommandGroup is a parent command that only holds subcommands (rollout, set) or also runs
 * (create): upstream's subcommand names (those not registered are refused as not supported)
 * and what the bare parent prints (cmdutil.DefaultSubCommandRun).
 */
export interface CommandGroup {
  /** name is the parent's path: "set", or "create service" for a group inside a group. */
  name: string;
  /** aliases are cobra's Aliases of the parent's last word ("svc" for create service). */
  aliases?: string[];
  /** subcommands are all of upstream's subcommands of this parent. */
  subcommands: string[];
  /** help is what the parent prints with no subcommand, and to which stream; absent if it runs. */
  help?: { stream: 'stdout' | 'stderr'; text: string };
}

// ---- errors ----

/** usageErrorf mirrors cmdutil.UsageErrorf. */
export function usageError(cmdPath: string, msg: string): string {
  return `${msg}\nSee 'kubectl ${cmdPath} -h' for help and examples`;
}

/** CmdError is a command-line error; raw ones are printed as they are, others get "error: ". */
export class CmdError extends Error {
  readonly raw: boolean;
  constructor(message: string, raw = false) {
    super(message);
    this.raw = raw;
  }
}

export const NO_RESOURCE = `You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'`;

// ---- resource arguments ----

/** Targets are resource arguments: types with optional names, or type/name pairs. */
export type Targets =
  | { form: 'types'; types: APIResource[]; names: string[] }
  | { form: 'pairs'; pairs: { type: APIResource; name: string }[] }
  | { form: 'none' };

/**
 * parseTargets mirrors resource.Builder.APIResourceOrNameArgs: the first argument names types
 * (comma-separated; "all" expands), the rest names; or every argument is type/name.
 */
export function parseTargets(args: string[], allowAll = true): Targets {
  if (args.length === 0) return { form: 'none' };
  if (args.some((a) => a.includes('/'))) {
    const pairs: { type: APIResource; name: string }[] = [];
    for (const a of args) {
      const i = a.indexOf('/');
      if (i < 0)
        throw new CmdError(
          "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
        );
      const type = a.slice(0, i);
      const name = a.slice(i + 1);
      if (!name)
        throw new CmdError(`arguments in resource/name form must have a single resource and name`);
      pairs.push({ type: resolve(type), name });
    }
    return { form: 'pairs', pairs };
  }
  const typeArg = args[0];
  const types: APIResource[] = [];
  for (const t of typeArg.split(',')) {
    if (t === '') continue;
    if (t.toLowerCase() === 'all' && allowAll) {
      // The "all" category, expanded from discovery (categories.SimpleCategoryExpander).
      for (const r of resourcesInCategory('all'))
        if (!types.some((x) => x.resource === r.resource)) types.push(r);
      continue;
    }
    const r = resolve(t);
    if (!types.some((x) => x.resource === r.resource)) types.push(r);
  }
  return { form: 'types', types, names: args.slice(1) };
}

function resolve(t: string): APIResource {
  try {
    return resolveResource(t);
  } catch (e) {
    throw new CmdError((e as Error).message);
  }
}

/**
 * podArg reads logs' and exec's POD or TYPE/NAME. Simplification: only Pods are named; kubectl
 * also takes deployment/NAME and picks one of its Pods.
 */
export function podArg(a: string): string {
  const i = a.indexOf('/');
  if (i < 0) return a;
  const t = resolve(a.slice(0, i));
  if (t.resource !== 'pods')
    throw new CmdError(`${t.resource}/NAME is not supported in this simulator: name a Pod`);
  return a.slice(i + 1);
}

// splitPairs mirrors cmdutil.GetResourcesAndPairs: resources first, then k=v / k- pairs.
export function splitPairs(
  args: string[],
  pairType: string,
  isPair: (s: string) => boolean,
): { resources: string[]; pairs: string[] } {
  const resources: string[] = [];
  const pairs: string[] = [];
  let first = true;
  for (const s of args) {
    const p = isPair(s);
    if (p) {
      first = false;
      pairs.push(s);
    } else if (first) resources.push(s);
    else throw new CmdError(`all resources must be specified before ${pairType} changes: ${s}`);
  }
  return { resources, pairs };
}

export function str(v: FlagValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
export function num(v: FlagValue | undefined, d: number): number {
  return typeof v === 'number' ? v : d;
}
export function bool(v: FlagValue | undefined): boolean {
  return v === true;
}
// fieldSelectorOf mirrors resource.Builder.FieldSelectorParam: surrounding space is dropped and
// an empty selector is no selector.
export function fieldSelectorOf(v: FlagValue | undefined): string | undefined {
  const s = str(v)?.trim();
  return s ? s : undefined;
}

export function filenames(fp: FlagParse): string[] {
  const v = fp.flags.filename;
  return Array.isArray(v) ? v : [];
}

/** requireStdinOnly refuses -f with a path: the simulator reads manifests from stdin only. */
export function requireStdinOnly(fp: FlagParse): void {
  for (const fn of filenames(fp))
    if (fn !== '-') throw new CmdError(`the path "${fn}" does not exist`);
}

// ---- output ----

export type OutputFormat = 'table' | 'wide' | 'yaml' | 'json' | 'name';

export const OUTPUT_FORMATS =
  'custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml';

export function outputFormat(o: string | undefined): OutputFormat {
  if (o === undefined || o === '') return 'table';
  if (o === 'wide' || o === 'yaml' || o === 'json' || o === 'name') return o;
  const base = o.split('=')[0];
  if (OUTPUT_FORMATS.split(',').includes(base))
    throw new CmdError(`output format "${base}" is not supported in this simulator`);
  throw new CmdError(
    `unable to match a printer suitable for the output format "${o}", allowed formats are: ${OUTPUT_FORMATS}`,
  );
}

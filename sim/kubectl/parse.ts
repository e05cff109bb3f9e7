// Mirrors kubectl's command line as cobra and pflag parse it (staging/src/k8s.io/kubectl/pkg/cmd/
// cmd.go and the per-command NewCmd* flag sets), and the resource argument forms of
// cli-runtime's resource.Builder (ResourceTypeOrNameArgs): "pods", "pods,svc", "pods a b",
// "pod/a svc/b". Input is tokenised like a shell line (quotes, backslashes) but never executed.
// Errors are worded as kubectl words them. Simplification: only the commands and flags the
// simulator supports are known; other real commands are recognised and refused.

/** ResourceType is one REST resource the simulated kube-apiserver serves. */
export interface ResourceType {
  /** resource is the lower-case plural, as in REST paths: "pods", "deployments". */
  resource: string;
  kind: string;
  group: string;
  namespaced: boolean;
  /** shortNames as `kubectl api-resources` lists them. */
  shortNames: string[];
}

function rt(
  resource: string,
  kind: string,
  group: string,
  namespaced: boolean,
  shortNames: string[] = [],
): ResourceType {
  return { resource, kind, group, namespaced, shortNames };
}

/** RESOURCE_TYPES are the resources kubectl can name in the simulator, in discovery order. */
export const RESOURCE_TYPES: ResourceType[] = [
  rt('componentstatuses', 'ComponentStatus', '', false, ['cs']),
  rt('events', 'Event', '', true, ['ev']),
  rt('namespaces', 'Namespace', '', false, ['ns']),
  rt('nodes', 'Node', '', false, ['no']),
  rt('pods', 'Pod', '', true, ['po']),
  rt('services', 'Service', '', true, ['svc']),
  rt('daemonsets', 'DaemonSet', 'apps', true, ['ds']),
  rt('deployments', 'Deployment', 'apps', true, ['deploy']),
  rt('replicasets', 'ReplicaSet', 'apps', true, ['rs']),
  rt('leases', 'Lease', 'coordination.k8s.io', true, []),
  rt('endpointslices', 'EndpointSlice', 'discovery.k8s.io', true, []),
];

/** ALL_CATEGORY is what `kubectl get all` expands to, in kubectl's order (served ones only). */
export const ALL_CATEGORY = ['pods', 'services', 'daemonsets', 'deployments', 'replicasets'];

/** groupKindString is schema.GroupKind.String() lower-cased: "pod", "deployment.apps". */
export function groupKindString(t: ResourceType): string {
  return (t.group ? `${t.kind}.${t.group}` : t.kind).toLowerCase();
}

/** qualifiedResource is the GroupResource string errors use: "pods", "deployments.apps". */
export function qualifiedResource(t: ResourceType): string {
  return t.group ? `${t.resource}.${t.group}` : t.resource;
}

/** ResolveError is a resource name the server does not serve. */
export class ResolveError extends Error {}

/**
 * resolveResource maps what a user typed to a resource, as the RESTMapper does: plural,
 * singular, short name, kind, optionally qualified with ".group" or ".version.group".
 */
export function resolveResource(typed: string): ResourceType {
  const s = typed.toLowerCase();
  for (const t of RESOURCE_TYPES) {
    const singular = t.kind.toLowerCase();
    const names = [t.resource, singular, ...t.shortNames];
    for (const n of names) {
      if (s === n) return t;
      if (t.group && (s === `${n}.${t.group}` || s === `${n}.v1.${t.group}`)) return t;
      if (!t.group && s === `${n}.v1`) return t;
    }
  }
  throw new ResolveError(`the server doesn't have a resource type "${typed}"`);
}

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

type FlagType = 'bool' | 'string' | 'int' | 'stringArray';

interface FlagSpec {
  name: string;
  short?: string;
  type: FlagType;
  required?: boolean;
}

function f(name: string, type: FlagType, short?: string, required = false): FlagSpec {
  return { name, type, short, required };
}

// GLOBAL_FLAGS are kubectl's persistent flags that the simulator honours.
const GLOBAL_FLAGS: FlagSpec[] = [f('namespace', 'string', 'n')];

/** CommandSpec describes one (sub)command: its path and flags. */
interface CommandSpec {
  path: string;
  flags: FlagSpec[];
}

const OUTPUT = f('output', 'string', 'o');
const SELECTOR = f('selector', 'string', 'l');
const FIELD_SELECTOR = f('field-selector', 'string');
const ALL_NS = f('all-namespaces', 'bool', 'A');
const FILENAME = f('filename', 'stringArray', 'f');

const SPECS: Record<string, CommandSpec> = {
  get: {
    path: 'get',
    flags: [
      OUTPUT,
      SELECTOR,
      FIELD_SELECTOR,
      f('sort-by', 'string'),
      ALL_NS,
      f('show-labels', 'bool'),
      f('watch', 'bool', 'w'),
      f('no-headers', 'bool'),
      f('ignore-not-found', 'bool'),
      FILENAME,
    ],
  },
  describe: { path: 'describe', flags: [SELECTOR, ALL_NS, FILENAME, f('show-events', 'bool')] },
  apply: { path: 'apply', flags: [FILENAME, OUTPUT] },
  create: { path: 'create', flags: [FILENAME, OUTPUT] },
  'create deployment': {
    path: 'create deployment',
    flags: [
      f('image', 'stringArray', undefined, true),
      f('replicas', 'int', 'r'),
      f('port', 'int'),
      OUTPUT,
    ],
  },
  scale: {
    path: 'scale',
    flags: [
      f('replicas', 'int', undefined, true),
      f('current-replicas', 'int'),
      SELECTOR,
      f('all', 'bool'),
      FILENAME,
    ],
  },
  'set image': { path: 'set image', flags: [SELECTOR, f('all', 'bool'), FILENAME] },
  'rollout status': {
    path: 'rollout status',
    flags: [f('watch', 'bool', 'w'), f('revision', 'int'), f('timeout', 'string'), FILENAME],
  },
  'rollout history': { path: 'rollout history', flags: [f('revision', 'int'), FILENAME] },
  'rollout undo': { path: 'rollout undo', flags: [f('to-revision', 'int'), FILENAME] },
  'rollout restart': { path: 'rollout restart', flags: [FILENAME] },
  delete: {
    path: 'delete',
    flags: [
      f('grace-period', 'int'),
      f('force', 'bool'),
      f('now', 'bool'),
      SELECTOR,
      FIELD_SELECTOR,
      f('all', 'bool'),
      f('ignore-not-found', 'bool'),
      f('wait', 'bool'),
      FILENAME,
    ],
  },
  cordon: { path: 'cordon', flags: [SELECTOR] },
  uncordon: { path: 'uncordon', flags: [SELECTOR] },
  drain: {
    path: 'drain',
    flags: [
      f('ignore-daemonsets', 'bool'),
      f('delete-emptydir-data', 'bool'),
      f('force', 'bool'),
      f('grace-period', 'int'),
      f('timeout', 'string'),
      SELECTOR,
    ],
  },
  label: {
    path: 'label',
    flags: [f('overwrite', 'bool'), SELECTOR, FIELD_SELECTOR, f('all', 'bool')],
  },
  taint: { path: 'taint', flags: [f('overwrite', 'bool'), SELECTOR, f('all', 'bool')] },
  version: { path: 'version', flags: [f('client', 'bool'), OUTPUT] },
  logs: {
    path: 'logs',
    flags: [
      f('container', 'string', 'c'),
      f('all-containers', 'bool'),
      f('previous', 'bool', 'p'),
      f('follow', 'bool', 'f'),
      f('tail', 'int'),
      f('timestamps', 'bool'),
    ],
  },
  exec: {
    path: 'exec',
    flags: [
      f('container', 'string', 'c'),
      f('stdin', 'bool', 'i'),
      f('tty', 'bool', 't'),
      f('quiet', 'bool', 'q'),
    ],
  },
};

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

type FlagValue = string | number | boolean | string[];

/** UsageError is a flag or argument problem: kubectl adds "See 'kubectl X --help' for usage.". */
class FlagError extends Error {}

interface FlagParse {
  args: string[];
  flags: Record<string, FlagValue>;
  /** set names the flags given explicitly. */
  set: Set<string>;
  /** dashAt is cobra's ArgsLenAtDash: how many args came before a bare "--", or -1. */
  dashAt: number;
}

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

// ---- typed commands ----

/** Targets are resource arguments: types with optional names, or type/name pairs. */
export type Targets =
  | { form: 'types'; types: ResourceType[]; names: string[] }
  | { form: 'pairs'; pairs: { type: ResourceType; name: string }[] }
  | { form: 'none' };

export type OutputFormat = 'table' | 'wide' | 'yaml' | 'json' | 'name';

interface Common {
  /** namespace is -n/--namespace, when given. */
  namespace?: string;
}

export type KubectlCommand = Common &
  (
    | {
        verb: 'get';
        targets: Targets;
        output: OutputFormat;
        allNamespaces: boolean;
        selector?: string;
        /** fieldSelector is --field-selector, trimmed; absent when empty (FieldSelectorParam). */
        fieldSelector?: string;
        /** sortBy is --sort-by as typed; absent when empty. */
        sortBy?: string;
        showLabels: boolean;
        noHeaders: boolean;
        ignoreNotFound: boolean;
        /** watch is -w/--watch: after the list, print a row for each change (see watchRows). */
        watch: boolean;
      }
    | {
        verb: 'describe';
        targets: Targets;
        allNamespaces: boolean;
        selector?: string;
        showEvents: boolean;
      }
    | { verb: 'apply'; filenames: string[]; output?: string }
    | { verb: 'create'; filenames: string[]; output?: string }
    | { verb: 'create deployment'; name: string; images: string[]; replicas: number; port: number }
    | {
        verb: 'scale';
        targets: Targets;
        replicas: number;
        /** currentReplicas is --current-replicas: -1 when not given (no precondition). */
        currentReplicas: number;
        selector?: string;
      }
    | { verb: 'set image'; targets: Targets; images: { container: string; image: string }[] }
    | { verb: 'rollout status'; targets: Targets; revision: number }
    | { verb: 'rollout history'; targets: Targets; revision: number }
    | { verb: 'rollout undo'; targets: Targets; toRevision: number }
    | { verb: 'rollout restart'; targets: Targets }
    | {
        verb: 'delete';
        targets: Targets;
        gracePeriod: number;
        force: boolean;
        now: boolean;
        selector?: string;
        fieldSelector?: string;
        all: boolean;
        ignoreNotFound: boolean;
      }
    | { verb: 'cordon' | 'uncordon'; nodes: string[]; selector?: string }
    | {
        verb: 'drain';
        nodes: string[];
        ignoreDaemonsets: boolean;
        deleteEmptyDirData: boolean;
        force: boolean;
        gracePeriod: number;
        selector?: string;
      }
    | {
        verb: 'label';
        targets: Targets;
        set: Record<string, string>;
        remove: string[];
        overwrite: boolean;
        selector?: string;
        fieldSelector?: string;
        all: boolean;
      }
    | {
        verb: 'taint';
        targets: Targets;
        add: ParsedTaint[];
        remove: ParsedTaint[];
        overwrite: boolean;
        selector?: string;
        all: boolean;
      }
    | { verb: 'version'; client: boolean }
    | {
        verb: 'logs';
        pod: string;
        container?: string;
        allContainers: boolean;
        previous: boolean;
        follow: boolean;
      }
    | { verb: 'exec'; pod: string; container?: string; command: string[]; quiet: boolean }
  );

/** ParsedTaint is a taint spec from the command line (effect may be empty for "key-"). */
export interface ParsedTaint {
  key: string;
  value?: string;
  effect: '' | 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
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
 * SUBCOMMAND_HELP is what `kubectl rollout` and `kubectl set` print without a subcommand: the
 * help kubectl's templater renders (pkg/util/templates/templater.go: the Long text as
 * LongDesc's markdown rendering prints it, Examples, "Available Commands:" with names padded to
 * cobra's NamePadding and three spaces, Usage, and the two hints), from
 * pkg/cmd/rollout/rollout.go (written to streams.Out) and pkg/cmd/set/set.go (streams.ErrOut).
 */
const SUBCOMMAND_HELP: Record<string, { stream: 'stdout' | 'stderr'; text: string }> = {
  rollout: {
    stream: 'stdout',
    text: `Manage the rollout of one or many resources.
        
 Valid resource types include:

  *  deployments
  *  daemonsets
  *  statefulsets

Examples:
  # Rollback to the previous deployment
  kubectl rollout undo deployment/abc
  
  # Check the rollout status of a daemonset
  kubectl rollout status daemonset/foo
  
  # Restart a deployment
  kubectl rollout restart deployment/abc
  
  # Restart deployments with the 'app=nginx' label
  kubectl rollout restart deployment --selector=app=nginx

Available Commands:
  history       View rollout history
  pause         Mark the provided resource as paused
  restart       Restart a resource
  resume        Resume a paused resource
  status        Show the status of the rollout
  undo          Undo a previous rollout

Usage:
  kubectl rollout SUBCOMMAND [options]

Use "kubectl rollout <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`,
  },
  set: {
    stream: 'stderr',
    text: `Configure application resources.

 These commands help you make changes to existing application resources.

Available Commands:
  env              Update environment variables on a pod template
  image            Update the image of a pod template
  resources        Update resource requests/limits on objects with pod templates
  selector         Set the selector on a resource
  serviceaccount   Update the service account of a resource
  subject          Update the user, group, or service account in a role binding or cluster role binding

Usage:
  kubectl set SUBCOMMAND [options]

Use "kubectl set <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`,
  },
};

/** usageErrorf mirrors cmdutil.UsageErrorf. */
function usageError(cmdPath: string, msg: string): string {
  return `${msg}\nSee 'kubectl ${cmdPath} -h' for help and examples`;
}

// CmdError is a command-line error; raw ones are printed as they are, others get "error: ".
class CmdError extends Error {
  readonly raw: boolean;
  constructor(message: string, raw = false) {
    super(message);
    this.raw = raw;
  }
}

const NO_RESOURCE = `You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'`;

/**
 * parseTargets mirrors resource.Builder.ResourceTypeOrNameArgs: the first argument names types
 * (comma-separated; "all" expands), the rest names; or every argument is type/name.
 */
export function parseTargets(args: string[], allowAll = true): Targets {
  if (args.length === 0) return { form: 'none' };
  if (args.some((a) => a.includes('/'))) {
    const pairs: { type: ResourceType; name: string }[] = [];
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
  const types: ResourceType[] = [];
  for (const t of typeArg.split(',')) {
    if (t === '') continue;
    if (t.toLowerCase() === 'all' && allowAll) {
      for (const r of ALL_CATEGORY)
        if (!types.some((x) => x.resource === r)) types.push(resolve(r));
      continue;
    }
    const r = resolve(t);
    if (!types.some((x) => x.resource === r.resource)) types.push(r);
  }
  return { form: 'types', types, names: args.slice(1) };
}

function resolve(t: string): ResourceType {
  try {
    return resolveResource(t);
  } catch (e) {
    throw new CmdError((e as Error).message);
  }
}

/** parseTaintSpec mirrors pkg/util/taints#parseTaint. */
export function parseTaintSpec(st: string): ParsedTaint {
  const parts = st.split(':');
  let key: string;
  let value: string | undefined;
  let effect: ParsedTaint['effect'] = '';
  if (parts.length === 1) key = parts[0];
  else if (parts.length === 2) {
    const e = parts[1];
    if (e !== 'NoSchedule' && e !== 'PreferNoSchedule' && e !== 'NoExecute')
      throw new CmdError(`invalid taint effect: ${e}, unsupported taint effect`);
    effect = e;
    const kv = parts[0].split('=');
    if (kv.length > 2) throw new CmdError(`invalid taint spec: ${st}`);
    key = kv[0];
    if (kv.length === 2) value = kv[1];
  } else throw new CmdError(`invalid taint spec: ${st}`);
  if (!isQualifiedName(key))
    throw new CmdError(
      `invalid taint spec: ${st}, name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  return value === undefined ? { key, effect } : { key, value, effect };
}

function isQualifiedName(s: string): boolean {
  const parts = s.split('/');
  const name = parts[parts.length - 1];
  if (parts.length > 2) return false;
  return /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/.test(name) && name.length <= 63;
}

// splitPairs mirrors cmdutil.GetResourcesAndPairs: resources first, then k=v / k- pairs.
function splitPairs(
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

function str(v: FlagValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function num(v: FlagValue | undefined, d: number): number {
  return typeof v === 'number' ? v : d;
}
function bool(v: FlagValue | undefined): boolean {
  return v === true;
}
// fieldSelectorOf mirrors resource.Builder.FieldSelectorParam: surrounding space is dropped and
// an empty selector is no selector.
function fieldSelectorOf(v: FlagValue | undefined): string | undefined {
  const s = str(v)?.trim();
  return s ? s : undefined;
}

const OUTPUT_FORMATS =
  'custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml';

function outputFormat(o: string | undefined): OutputFormat {
  if (o === undefined || o === '') return 'table';
  if (o === 'wide' || o === 'yaml' || o === 'json' || o === 'name') return o;
  const base = o.split('=')[0];
  if (OUTPUT_FORMATS.split(',').includes(base))
    throw new CmdError(`output format "${base}" is not supported in this simulator`);
  throw new CmdError(
    `unable to match a printer suitable for the output format "${o}", allowed formats are: ${OUTPUT_FORMATS}`,
  );
}

const UNSUPPORTED_SUB: Record<string, string[]> = {
  create: [
    'clusterrole',
    'clusterrolebinding',
    'configmap',
    'cronjob',
    'ingress',
    'job',
    'namespace',
    'poddisruptionbudget',
    'priorityclass',
    'quota',
    'role',
    'rolebinding',
    'secret',
    'service',
    'serviceaccount',
    'token',
  ],
  set: ['env', 'resources', 'selector', 'serviceaccount', 'subject'],
  rollout: ['pause', 'resume'],
};

const SUBCOMMANDS: Record<string, string[]> = {
  create: ['deployment', 'deploy'],
  set: ['image'],
  rollout: ['history', 'pause', 'restart', 'resume', 'status', 'undo'],
};

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
  const subs = SUBCOMMANDS[name];
  if (subs) {
    // The subcommand is the first non-flag word after the command.
    const j = rest.findIndex((w) => !w.startsWith('-'));
    const sub = j >= 0 ? rest[j] : undefined;
    if (sub !== undefined && (subs.includes(sub) || (UNSUPPORTED_SUB[name] ?? []).includes(sub))) {
      if (!subs.includes(sub) || (UNSUPPORTED_SUB[name] ?? []).includes(sub))
        return {
          ok: false,
          stderr: `error: kubectl ${name} ${sub} is not supported in this simulator\n`,
          exitCode: 1,
        };
      path = `${name} ${sub === 'deploy' ? 'deployment' : sub}`;
      rest = [...rest.slice(0, j), ...rest.slice(j + 1)];
    } else if (name !== 'create') {
      // cmdutil.DefaultSubCommandRun: RequireNoArguments refuses extra words, else the command's
      // help goes to the stream NewCmd* gave it and the exit code is 1 with no message.
      const words = rest.filter((w) => !w.startsWith('-'));
      if (words.length > 0)
        return {
          ok: false,
          stderr: `error: ${usageError(name, `unknown command ${goQuoteArg(words.join(' '))}`)}\n`,
          exitCode: 1,
        };
      const help = SUBCOMMAND_HELP[name];
      if (help)
        return {
          ok: false,
          stderr: help.stream === 'stderr' ? help.text : '',
          stdout: help.stream === 'stdout' ? help.text : '',
          exitCode: 1,
        };
      return {
        ok: false,
        stderr: `error: kubectl ${name} requires a subcommand: ${subs.join(', ')}\n`,
        exitCode: 1,
      };
    }
  }
  const spec = SPECS[path];
  if (!spec)
    return {
      ok: false,
      stderr: `error: kubectl ${name} is not supported in this simulator\n`,
      exitCode: 1,
    };

  let fp: FlagParse;
  try {
    fp = parseFlags(rest, spec.flags);
  } catch (e) {
    return {
      ok: false,
      stderr: `error: ${(e as Error).message}\nSee 'kubectl ${path} --help' for usage.\n`,
      exitCode: 1,
    };
  }
  const missing = spec.flags.filter((s) => s.required && !fp.set.has(s.name)).map((s) => s.name);
  if (missing.length)
    return {
      ok: false,
      stderr: `error: required flag(s) "${missing.join('", "')}" not set\n`,
      exitCode: 1,
    };

  try {
    const command = build(path, fp);
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

function filenames(fp: FlagParse): string[] {
  const v = fp.flags.filename;
  return Array.isArray(v) ? v : [];
}

function requireStdinOnly(fp: FlagParse): void {
  for (const fn of filenames(fp))
    if (fn !== '-') throw new CmdError(`the path "${fn}" does not exist`);
}

/**
 * podArg reads logs' and exec's POD or TYPE/NAME. Simplification: only Pods are named; kubectl
 * also takes deployment/NAME and picks one of its Pods.
 */
function podArg(a: string): string {
  const i = a.indexOf('/');
  if (i < 0) return a;
  let t: ResourceType;
  try {
    t = resolveResource(a.slice(0, i));
  } catch (e) {
    throw new CmdError((e as Error).message);
  }
  if (t.resource !== 'pods')
    throw new CmdError(`${t.resource}/NAME is not supported in this simulator: name a Pod`);
  return a.slice(i + 1);
}

function build(path: string, fp: FlagParse): KubectlCommand {
  const namespace = str(fp.flags.namespace);
  const args = fp.args;
  const ns = namespace !== undefined ? { namespace } : {};
  switch (path) {
    case 'get': {
      requireStdinOnly(fp);
      const output = outputFormat(str(fp.flags.output));
      // Simplification: -w streams table rows only (kubectl also watches in yaml, json, name).
      if (fp.flags.watch && output !== 'table' && output !== 'wide')
        throw new CmdError(
          `watch (-w) with -o ${str(fp.flags.output)} is not supported in this simulator`,
        );
      if (fp.flags['show-labels'] && output !== 'table' && output !== 'wide')
        throw new CmdError(
          `--show-labels option cannot be used with ${str(fp.flags.output)} printer`,
        );
      if (args.length === 0)
        throw new CmdError(
          `You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: ${usageError('get', 'Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).')}`,
          true,
        );
      return {
        verb: 'get',
        ...ns,
        targets: parseTargets(args),
        output,
        allNamespaces: bool(fp.flags['all-namespaces']),
        selector: str(fp.flags.selector),
        fieldSelector: fieldSelectorOf(fp.flags['field-selector']),
        sortBy: str(fp.flags['sort-by']) || undefined,
        showLabels: bool(fp.flags['show-labels']),
        noHeaders: bool(fp.flags['no-headers']),
        ignoreNotFound: bool(fp.flags['ignore-not-found']),
        watch: bool(fp.flags.watch),
      };
    }
    case 'describe': {
      if (args.length === 0)
        throw new CmdError(
          'You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n',
        );
      return {
        verb: 'describe',
        ...ns,
        targets: parseTargets(args),
        allNamespaces: bool(fp.flags['all-namespaces']),
        selector: str(fp.flags.selector),
        showEvents: fp.flags['show-events'] !== false,
      };
    }
    case 'apply':
    case 'create': {
      const fns = filenames(fp);
      if (fns.length === 0) {
        if (path === 'apply') throw new CmdError('must specify one of -f and -k');
        throw new CmdError('Error: must specify one of -f and -k', true);
      }
      requireStdinOnly(fp);
      if (args.length) throw new CmdError(usageError(path, `Unexpected args: [${args.join(' ')}]`));
      return { verb: path, ...ns, filenames: fns, output: str(fp.flags.output) };
    }
    case 'create deployment': {
      if (args.length !== 1)
        throw new CmdError(
          usageError('create deployment', `exactly one NAME is required, got ${args.length}`),
        );
      const images = fp.flags.image as string[];
      return {
        verb: 'create deployment',
        ...ns,
        name: args[0],
        images,
        replicas: num(fp.flags.replicas, 1),
        port: num(fp.flags.port, -1),
      };
    }
    case 'scale': {
      const replicas = num(fp.flags.replicas, -1);
      if (replicas < 0)
        throw new CmdError(
          'The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0',
        );
      if (num(fp.flags['current-replicas'], -1) < -1)
        throw new CmdError('The --current-replicas must specify an integer of -1 or greater');
      if (args.length === 0 && !str(fp.flags.selector) && !fp.flags.all)
        throw new CmdError(NO_RESOURCE);
      return {
        verb: 'scale',
        ...ns,
        targets: parseTargets(args, false),
        replicas,
        currentReplicas: num(fp.flags['current-replicas'], -1),
        selector: str(fp.flags.selector),
      };
    }
    case 'set image': {
      const { resources, pairs } = splitPairs(args, 'image', (s) => s.includes('='));
      // Complete's builder needs a resource (missingResourceError); Validate's checks run after
      // the objects are fetched, so they are made by the command (runSetImage).
      if (resources.length === 0) throw new CmdError(NO_RESOURCE);
      const images = pairs.map((p) => {
        const i = p.indexOf('=');
        return { container: p.slice(0, i), image: p.slice(i + 1) };
      });
      return { verb: 'set image', ...ns, targets: parseTargets(resources, false), images };
    }
    case 'rollout status':
    case 'rollout history':
    case 'rollout undo':
    case 'rollout restart': {
      if (args.length === 0) throw new CmdError('required resource not specified');
      const targets = parseTargets(args, false);
      if (path === 'rollout status')
        return { verb: path, ...ns, targets, revision: num(fp.flags.revision, 0) };
      if (path === 'rollout history') {
        const revision = num(fp.flags.revision, 0);
        if (revision < 0) throw new CmdError(`revision must be a positive integer: ${revision}`);
        return { verb: path, ...ns, targets, revision };
      }
      if (path === 'rollout undo')
        return { verb: path, ...ns, targets, toRevision: num(fp.flags['to-revision'], 0) };
      return { verb: path, ...ns, targets };
    }
    case 'delete': {
      if (args.length === 0 && filenames(fp).length === 0) throw new CmdError(NO_RESOURCE);
      requireStdinOnly(fp);
      const targets = parseTargets(args, true);
      const all = bool(fp.flags.all);
      const selector = str(fp.flags.selector);
      const fieldSelector = fieldSelectorOf(fp.flags['field-selector']);
      // Complete's builder refuses --all with a selector (SelectAllParam) before
      // DeleteOptions.Validate could.
      if (all && (selector || fieldSelector))
        throw new CmdError("setting 'all' parameter but found a non empty selector. ");
      if (
        targets.form === 'types' &&
        targets.names.length === 0 &&
        !all &&
        selector === undefined &&
        fieldSelector === undefined
      )
        throw new CmdError('resource(s) were provided, but no name was specified');
      let gracePeriod = num(fp.flags['grace-period'], -1);
      const force = bool(fp.flags.force);
      const now = bool(fp.flags.now);
      if (now) {
        if (gracePeriod !== -1)
          throw new CmdError('--now and --grace-period cannot be specified together');
        gracePeriod = 1;
      }
      if (gracePeriod === 0 && !force) gracePeriod = 1;
      if (force && gracePeriod < 0) gracePeriod = 0;
      return {
        verb: 'delete',
        ...ns,
        targets,
        gracePeriod,
        force,
        now,
        selector,
        fieldSelector,
        all,
        // Complete: with --all, -l or --field-selector, NotFound is ignored unless the flag is set.
        ignoreNotFound: fp.set.has('ignore-not-found')
          ? bool(fp.flags['ignore-not-found'])
          : all || !!selector || fieldSelector !== undefined,
      };
    }
    case 'cordon':
    case 'uncordon':
    case 'drain': {
      const selector = str(fp.flags.selector);
      if (args.length === 0 && selector === undefined)
        throw new CmdError(usageError(path, `USAGE: ${path} NODE [flags]`));
      if (args.length > 0 && selector !== undefined)
        throw new CmdError(
          usageError(path, 'error: cannot specify both a node name and a --selector option'),
        );
      if (path === 'drain')
        return {
          verb: 'drain',
          ...ns,
          nodes: args,
          selector,
          ignoreDaemonsets: bool(fp.flags['ignore-daemonsets']),
          deleteEmptyDirData: bool(fp.flags['delete-emptydir-data']),
          force: bool(fp.flags.force),
          gracePeriod: num(fp.flags['grace-period'], -1),
        };
      return { verb: path, ...ns, nodes: args, selector };
    }
    case 'label': {
      const { resources, pairs } = splitPairs(
        args,
        'label',
        (s) => s.includes('=') || s.endsWith('-'),
      );
      const all = bool(fp.flags.all);
      const selector = str(fp.flags.selector);
      const fieldSelector = fieldSelectorOf(fp.flags['field-selector']);
      // LabelOptions.Validate.
      if (all && selector) throw new CmdError('cannot set --all and --selector at the same time');
      if (all && fieldSelector)
        throw new CmdError('cannot set --all and --field-selector at the same time');
      if (resources.length < 1)
        throw new CmdError(
          'one or more resources must be specified as <resource> <name> or <resource>/<name>',
        );
      const set: Record<string, string> = {};
      const remove: string[] = [];
      for (const p of pairs) {
        if (p.includes('=')) {
          const parts = p.split('=');
          if (parts.length !== 2 || parts[0] === '') throw new CmdError(`invalid label spec: ${p}`);
          set[parts[0]] = parts[1];
        } else remove.push(p.slice(0, -1));
      }
      if (Object.keys(set).length === 0 && remove.length === 0)
        throw new CmdError('at least one label update is required');
      return {
        verb: 'label',
        ...ns,
        targets: parseTargets(resources, false),
        set,
        remove,
        overwrite: bool(fp.flags.overwrite),
        selector,
        fieldSelector,
        all,
      };
    }
    case 'taint': {
      const resources: string[] = [];
      const taintArgs: string[] = [];
      let met = false;
      for (const s of args) {
        const isTaint = s.includes('=') || s.includes(':') || s.endsWith('-');
        if (isTaint) {
          met = true;
          taintArgs.push(s);
        } else if (!met) resources.push(s);
        else throw new CmdError(`all resources must be specified before taint changes: ${s}`);
      }
      if (resources.length < 1)
        throw new CmdError('one or more resources must be specified as <resource> <name>');
      if (taintArgs.length < 1) throw new CmdError('at least one taint update is required');
      const add: ParsedTaint[] = [];
      const remove: ParsedTaint[] = [];
      // Complete returns parseTaints' errors through cmdutil.UsageErrorf.
      try {
        for (const spec of taintArgs) {
          if (spec.endsWith('-')) {
            const t = parseTaintSpec(spec.slice(0, -1));
            remove.push({ key: t.key, effect: t.effect });
          } else {
            const t = parseTaintSpec(spec);
            if (!t.effect) throw new CmdError(`invalid taint spec: ${spec}`);
            if (add.some((x) => x.key === t.key && x.effect === t.effect))
              throw new CmdError(
                `duplicated taints with the same key and effect: {${t.key} ${t.value ?? ''} ${t.effect} <nil>}`,
              );
            add.push(t);
          }
        }
      } catch (e) {
        throw new CmdError(usageError('taint', (e as Error).message));
      }
      const targets = parseTargets(resources, false);
      const types =
        targets.form === 'types'
          ? targets.types
          : targets.form === 'pairs'
            ? targets.pairs.map((p) => p.type)
            : [];
      for (const t of types)
        if (t.resource !== 'nodes')
          throw new CmdError(`invalid resource type ${t.resource}, only node types are supported`);
      return {
        verb: 'taint',
        ...ns,
        targets,
        add,
        remove,
        overwrite: bool(fp.flags.overwrite),
        selector: str(fp.flags.selector),
        all: bool(fp.flags.all),
      };
    }
    case 'version':
      return { verb: 'version', ...ns, client: bool(fp.flags.client) };
    case 'logs': {
      // logs.go#Complete: POD or TYPE/NAME, and an optional CONTAINER as a second argument.
      if (args.length === 0 || args.length > 2)
        throw new CmdError(
          usageError(
            'logs',
            "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command",
          ),
        );
      const container = str(fp.flags.container) || args[1];
      return {
        verb: 'logs',
        ...ns,
        pod: podArg(args[0]),
        ...(container ? { container } : {}),
        allContainers: bool(fp.flags['all-containers']),
        previous: bool(fp.flags.previous),
        follow: bool(fp.flags.follow),
      };
    }
    case 'exec': {
      // exec.go#Complete: the command follows a bare "--".
      if (args.length === 0 || fp.dashAt === 0)
        throw new CmdError(
          usageError(
            'exec',
            "expected 'exec (POD | TYPE/NAME) COMMAND [ARG1] [ARG2] ... [ARGN]'.\nPOD or TYPE/NAME and COMMAND are required arguments for the exec command",
          ),
        );
      if (fp.dashAt < 0 && args.length > 1)
        throw new CmdError(
          usageError(
            'exec',
            'exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead',
          ),
        );
      const command = fp.dashAt < 0 ? [] : args.slice(fp.dashAt);
      if (command.length === 0)
        throw new CmdError('you must specify at least one command for the container');
      const container = str(fp.flags.container);
      return {
        verb: 'exec',
        ...ns,
        pod: podArg(args[0]),
        ...(container ? { container } : {}),
        command,
        quiet: bool(fp.flags.quiet),
      };
    }
  }
  throw new CmdError(`kubectl ${path} is not supported in this simulator`);
}

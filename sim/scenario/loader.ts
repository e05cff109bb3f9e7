// Loads and validates scenarios. Every error names the file, the step, the field path, what was
// found and what was expected, so an instructor can fix a scenario without reading our code.

import { parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml';
import type { z } from 'zod';
import { formatDuration } from '../engine/clock.ts';
import { MEMBER_FAULTS, ScenarioSchema, type Scenario } from './schema.ts';
import { checkManifests } from './manifests.ts';
import { didYouMean } from './suggest.ts';

/** Issue is one thing wrong in an author's file: the text shown, and where it is (1-based). */
export interface Issue {
  text: string;
  line?: number;
  column?: number;
}

/** ScenarioError is a scenario that cannot run; message is ready to show to the author. */
export class ScenarioError extends Error {
  readonly file: string;
  /** issues are the texts of details, one per problem. */
  readonly issues: string[];
  /** details are the problems with their line and column in the file. */
  readonly details: Issue[];
  constructor(file: string, issues: (string | Issue)[]) {
    const details = issues.map((i) => (typeof i === 'string' ? { text: i } : i));
    super(`${file}: invalid scenario\n${details.map((i) => `  - ${i.text}`).join('\n')}`);
    this.name = 'ScenarioError';
    this.file = file;
    this.details = details;
    this.issues = details.map((i) => i.text);
  }
}

function pathString(path: PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s || '(top level)';
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function describeFound(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  const s = JSON.stringify(v);
  return s && s.length > 60 ? `${s.slice(0, 57)}...` : String(s);
}

/** Where is a 1-based line and column in an author's file. */
export interface Where {
  line: number;
  column: number;
}

/** positionOf turns an offset in src into a 1-based line and column. */
export function positionOf(src: string, off: number): Where {
  const before = src.slice(0, off);
  const nl = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: off - nl };
}

/** locate finds a field path in a parsed YAML document: the deepest node that exists, so a missing field is reported at the mapping that lacks it. */
export function locate(doc: ReturnType<typeof parseDocument> | undefined, path: readonly PropertyKey[], src: string | undefined): Where | undefined {
  if (!doc || !src) return undefined;
  let node: YamlNode | null | undefined = doc.contents as YamlNode;
  let found = node;
  for (const p of path) {
    if (isMap(node)) node = node.get(String(p), true) as YamlNode | undefined;
    else if (isSeq(node)) node = node.get(Number(p), true) as YamlNode | undefined;
    else break;
    if (!node) break;
    found = node;
  }
  const off = found?.range?.[0];
  return off === undefined ? undefined : positionOf(src, off);
}

/** whereText is " (line 6, column 12)" for a position, or "" when it is unknown. */
export function whereText(w: Where | undefined): string {
  return w ? ` (line ${w.line}, column ${w.column})` : '';
}

// unionExpectation says what a field that takes one of several shapes wants.
function unionExpectation(path: readonly PropertyKey[]): string {
  if (path.includes('nodes')) return 'a node ({name, cpu, memory, ...}) or a template ({namePrefix, count, ...})';
  const last = path[path.length - 1];
  if (last === 'until' || last === 'at' || last === 'crashAfter') return 'a duration such as 90s, 5m or 1h30m';
  if (path.includes('settings')) return 'a number, or a duration such as 40s';
  return 'a valid value';
}

// TYPE_NAMES says in words what zod's type names stand for in a YAML file.
const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'a mapping',
  record: 'a mapping',
  array: 'a list',
};

// boundExpectation words a too_small or too_big issue that the schema gave no message of its own.
function boundExpectation(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const limit = Number(small ? issue.minimum : issue.maximum);
  if (issue.origin === 'array' || issue.origin === 'set' || issue.origin === 'string') {
    const unit = issue.origin === 'string' ? 'character' : 'item';
    const n = issue.inclusive ? limit : small ? limit + 1 : limit - 1;
    return `expected ${small ? 'at least' : 'at most'} ${n} ${unit}${n === 1 ? '' : 's'}`;
  }
  const noun = issue.origin === 'int' ? 'an integer' : 'a number';
  if (small && limit === 0 && !issue.inclusive) return `expected a positive ${issue.origin === 'int' ? 'integer' : 'number'}`;
  return `expected ${noun} ${small ? (issue.inclusive ? 'of at least' : 'greater than') : issue.inclusive ? 'of at most' : 'less than'} ${limit}`;
}

/** stepWhere names a step for an error: "step 2 (at 60s)". */
function stepWhere(input: unknown, i: number): string {
  const at = valueAt(input, ['steps', i, 'at']);
  return `step ${i + 1} (at ${typeof at === 'string' || typeof at === 'number' ? String(at) : '?'})`;
}

/** locateKey finds the key of a mapping entry (an unknown field is reported at its name). */
function locateKey(doc: ReturnType<typeof parseDocument> | undefined, path: readonly PropertyKey[], key: string, src: string | undefined): Where | undefined {
  if (!doc || !src) return undefined;
  let node: YamlNode | null | undefined = doc.contents as YamlNode;
  for (const p of path) {
    if (isMap(node)) node = node.get(String(p), true) as YamlNode | undefined;
    else if (isSeq(node)) node = node.get(Number(p), true) as YamlNode | undefined;
    else return locate(doc, path, src);
  }
  if (!isMap(node)) return locate(doc, path, src);
  const pair = node.items.find((it) => (it.key as { value?: unknown } | null)?.value === key);
  const off = (pair?.key as YamlNode | undefined)?.range?.[0];
  return off === undefined ? locate(doc, path, src) : positionOf(src, off);
}

// ZodDef is the part of a zod schema's definition fieldsAt walks.
interface ZodDef {
  type: string;
  shape?: Record<string, { _zod: { def: ZodDef } }>;
  innerType?: { _zod: { def: ZodDef } };
  in?: { _zod: { def: ZodDef } };
  element?: { _zod: { def: ZodDef } };
  valueType?: { _zod: { def: ZodDef } };
  options?: { _zod: { def: ZodDef } }[];
  getter?: () => { _zod: { def: ZodDef } };
}

/**
 * fieldsAt lists the fields a schema defines for the mapping at path (for "did you mean" on an
 * unknown field). Of a union of mappings it takes the one sharing most fields with the input.
 */
export function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[], input: unknown): string[] {
  const objects = (def: ZodDef, value: unknown): ZodDef[] => {
    switch (def.type) {
      case 'object':
        return [def];
      case 'optional':
      case 'default':
      case 'nullable':
      case 'readonly':
      case 'catch':
      case 'prefault':
        return objects(def.innerType!._zod.def, value);
      case 'pipe':
        return objects(def.in!._zod.def, value);
      case 'lazy':
        return objects(def.getter!()._zod.def, value);
      case 'union': {
        const all = def.options!.flatMap((o) => objects(o._zod.def, value));
        const keys = value && typeof value === 'object' ? Object.keys(value) : [];
        const score = (d: ZodDef) => keys.filter((k) => Object.hasOwn(d.shape ?? {}, k)).length;
        return all.sort((a, b) => score(b) - score(a));
      }
      default:
        return [def];
    }
  };
  let def: ZodDef | undefined = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  let value = input;
  for (const p of path) {
    if (!def) return [];
    const d: ZodDef | undefined = objects(def, value)[0];
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[p] : undefined;
    if (d?.type === 'object') def = d.shape?.[String(p)]?._zod.def;
    else if (d?.type === 'array') def = d.element?._zod.def;
    else if (d?.type === 'record') def = d.valueType?._zod.def;
    else def = undefined;
  }
  const d = def ? objects(def, value)[0] : undefined;
  return d?.type === 'object' ? Object.keys(d.shape ?? {}) : [];
}

/** FormatOptions say which format an issue belongs to (the question loader reuses formatIssue). */
export interface FormatOptions {
  /** schema is the file's schema, for the fields an unknown one may be a typo of. */
  schema?: z.ZodType;
  /** format names the format in messages: "scenario" or "question". */
  format?: string;
}

/** formatIssue turns one zod issue into "step 3 (at 60s): fault (line 9, column 12): found ..., expected ...". */
export function formatIssue(issue: z.core.$ZodIssue, input: unknown, doc?: ReturnType<typeof parseDocument>, src?: string, opts: FormatOptions = {}): string {
  return issueAt(issue, input, doc, src, opts).text;
}

/** issueAt is formatIssue with the issue's line and column. */
export function issueAt(issue: z.core.$ZodIssue, input: unknown, doc?: ReturnType<typeof parseDocument>, src?: string, opts: FormatOptions = {}): Issue {
  const path = issue.path;
  let where = pathString(path);
  if (path[0] === 'steps' && typeof path[1] === 'number') {
    const rest = pathString(path.slice(2));
    where = `${stepWhere(input, path[1])}: ${rest === '(top level)' ? 'step' : rest}`;
  }
  const found = `found ${describeFound(valueAt(input, path))}`;
  let pos = locate(doc, path, src);
  let msg = issue.message;
  // A message the schema states itself ("expected ...", "found ...") is already worded for authors.
  if (/^expected /.test(msg)) msg = `${found}, ${msg}`;
  else if (/^found /.test(msg)) msg = issue.message;
  else if (issue.code === 'invalid_type') msg = `${found}, expected ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
  else if (issue.code === 'invalid_value') msg = `${found}, expected one of ${issue.values.map((v) => String(v)).join(', ')}${typeof valueAt(input, path) === 'string' ? didYouMean(String(valueAt(input, path)), issue.values.map(String)) : ''}`;
  else if (issue.code === 'unrecognized_keys') {
    const known = fieldsAt(opts.schema ?? ScenarioSchema, path, input);
    const expected = known.length ? `expected only the fields the ${opts.format ?? 'scenario'} format defines here (${known.join(', ')})` : `expected only the fields the ${opts.format ?? 'scenario'} format defines`;
    const hints = issue.keys.map((k) => didYouMean(k, known).replace(/^; did you mean (.*)\?$/, `$1 for ${k}`)).filter(Boolean);
    msg = `found unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}, ${expected}${hints.length ? `; did you mean ${hints.join(', ')}?` : ''}`;
    if (issue.keys.length === 1) msg = msg.replace(/; did you mean (.*) for [^,]*\?$/, '; did you mean $1?');
    pos = locateKey(doc, path, issue.keys[0], src);
  } else if (issue.code === 'invalid_union') msg = `${found}, expected ${unionExpectation(path)}`;
  else if (issue.code === 'too_small' || issue.code === 'too_big') msg = `${found}, ${boundExpectation(issue)}`;
  else msg = `${found}, ${msg.replace(/^Invalid input: /, '')}`;
  return { text: `${where}${whereText(pos)}: ${msg}`, ...(pos ?? {}) };
}

// isNodeEntry says whether a path is one entry of cluster.nodes.
function isNodeEntry(path: readonly PropertyKey[]): boolean {
  return path.length === 3 && path[0] === 'cluster' && path[1] === 'nodes' && typeof path[2] === 'number';
}

/**
 * nodeEntryIssues replaces zod's "matches neither a node nor a template" for a cluster.nodes
 * entry by what is wrong with it: the entry's shape (name, or namePrefix and count) says which
 * of the two it is meant to be, and that branch's issues are reported with their full paths.
 */
export function nodeEntryIssues(issue: z.core.$ZodIssue, input: unknown): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || !isNodeEntry(issue.path)) return [issue];
  const entry = valueAt(input, issue.path);
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return [issue];
  const isNode = 'name' in entry;
  const isTemplate = 'namePrefix' in entry || 'count' in entry;
  if (isNode && isTemplate) {
    const both = ['name', ...['namePrefix', 'count'].filter((k) => k in entry)].join(' and ');
    return [{ ...issue, code: 'custom', message: `found ${both}, expected either name (one node) or namePrefix and count (a template), not both` }];
  }
  if (!isNode && !isTemplate)
    return [{ ...issue, code: 'custom', message: `found neither name nor namePrefix, expected a node ({name, cpu, memory, ...}) or a template ({namePrefix, count, ...})` }];
  const branch = issue.errors[isNode ? 0 : 1] ?? [];
  return branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as z.core.$ZodIssue);
}

/** validateScenario checks an already-parsed object. */
export function validateScenario(input: unknown, file = '<inline scenario>', doc?: ReturnType<typeof parseDocument>, src?: string): Scenario {
  const r = ScenarioSchema.safeParse(input);
  if (!r.success) throw new ScenarioError(file, r.error.issues.flatMap((i) => nodeEntryIssues(i, input)).map((i) => issueAt(i, input, doc, src)));
  const s = r.data;
  const issues: Issue[] = [];
  const names = new Set<string>();
  const cpCount = s.cluster.controlPlane?.count ?? 1;
  const controlPlanes = cpCount === 1 ? ['control-plane'] : Array.from({ length: cpCount }, (_, i) => `control-plane-${i + 1}`);
  for (const n of s.cluster.nodes) {
    const list = 'name' in n ? [n.name] : Array.from({ length: n.count }, (_, i) => `${n.namePrefix}${i + 1}`);
    for (const name of list) {
      if (names.has(name) || name === 'control-plane' || controlPlanes.includes(name)) issues.push({ text: `cluster.nodes${whereText(locate(doc, ['cluster', 'nodes'], src))}: found the node name "${name}" twice, expected unique names (${controlPlanes.join(', ')} ${controlPlanes.length === 1 ? 'is' : 'are'} reserved)`, ...locate(doc, ['cluster', 'nodes'], src) });
      names.add(name);
    }
  }
  // Times as the author wrote them ("2m"), or as Go prints a duration when they gave a number.
  const timeText = (p: PropertyKey[], ms: number): string => {
    const raw = valueAt(input, p);
    return typeof raw === 'string' ? raw.trim() : formatDuration(ms);
  };
  let latest = -1;
  s.steps.forEach((st, i) => {
    const at = timeText(['steps', i, 'at'], st.at);
    const issue = (field: string, msg: string, at?: Partial<Where>): void => {
      const pos = at?.line !== undefined && at.column !== undefined ? { line: at.line, column: at.column } : locate(doc, ['steps', i, field], src);
      issues.push({ text: `${stepWhere(input, i)}: ${field}${whereText(pos)}: ${msg}`, ...pos });
    };
    if (latest >= 0 && st.at < s.steps[latest].at)
      issue('at', `found ${at}, earlier than step ${latest + 1} (at ${timeText(['steps', latest, 'at'], s.steps[latest].at)}); expected steps in time order`);
    if (latest < 0 || st.at >= s.steps[latest].at) latest = i;
    // An exec step may also run on the workstation outside the cluster (curl from outside).
    const workstation = st.exec !== undefined && st.node === 'workstation';
    const member = st.fault !== undefined && MEMBER_FAULTS.has(st.fault);
    if (member && st.node !== undefined && !controlPlanes.includes(st.node))
      issue('node', `found "${st.node}", expected a control-plane node for ${st.fault}: ${controlPlanes.join(', ')}${didYouMean(st.node, controlPlanes)}`);
    else if (st.node !== undefined && !names.has(st.node) && !controlPlanes.includes(st.node) && !workstation)
      issue('node', `found "${st.node}", expected one of ${[...names].slice(0, 10).join(', ')}${names.size > 10 ? ', ...' : ''} or ${controlPlanes.join(', ')}${st.exec !== undefined ? ' (or workstation, the machine outside the cluster)' : ''}${didYouMean(st.node, [...names, ...controlPlanes])}`);
    if (st.at > s.until) issue('at', `found ${at}, after until (${timeText(['until'], s.until)}); expected steps at or before until`);
    // What kube-apiserver would reject in a manifest is the author's mistake, unless the step says it expects it.
    if (st.apply !== undefined) for (const m of checkManifests(st.apply, st.expectError, doc, ['steps', i, 'apply'], src)) issue('apply', m.message, m);
  });
  if (issues.length) throw new ScenarioError(file, issues);
  return s;
}

/** parseScenario parses YAML text and validates it. */
export function parseScenario(text: string, file = '<inline scenario>'): Scenario {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    throw new ScenarioError(
      file,
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ? { line: e.linePos[0].line, column: e.linePos[0].col } : {};
        const at = `line ${e.linePos?.[0]?.line ?? '?'}, column ${e.linePos?.[0]?.col ?? '?'}`;
        if (e.code === 'MULTIPLE_DOCS') return { text: `${at}: found a second YAML document (after ---), expected one document: a scenario file holds one scenario`, ...pos };
        // The yaml library's own words, without its repeated position.
        const what = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '').replace(/:$/, '');
        return { text: `${at}: ${what}; expected valid YAML`, ...pos };
      }),
    );
  }
  const input = doc.toJS();
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new ScenarioError(file, [`(top level): found ${describeFound(input)}, expected a mapping with name, seed, steps and until`]);
  return validateScenario(input, file, doc, text);
}

/** stepPosition is where a step's field is in a scenario's text (for problems found when it runs). */
export function stepPosition(text: string, step: number, field: string): Where | undefined {
  return locate(parseDocument(text), ['steps', step, field], text);
}

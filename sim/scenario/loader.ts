// Loads and validates scenarios. Every error names the file, the step, the field path, what was
// found and what was expected, so an instructor can fix a scenario without reading our code.

import { parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml';
import type { z } from 'zod';
import { formatDuration } from '../engine/clock.ts';
import { ScenarioSchema, type Scenario } from './schema.ts';

/** ScenarioError is a scenario that cannot run; message is ready to show to the author. */
export class ScenarioError extends Error {
  readonly file: string;
  readonly issues: string[];
  constructor(file: string, issues: string[]) {
    super(`${file}: invalid scenario\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.file = file;
    this.issues = issues;
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

function lineOf(doc: ReturnType<typeof parseDocument> | undefined, path: PropertyKey[], src: string | undefined): string {
  if (!doc || !src) return '';
  // The deepest node that exists: a missing field is reported at the mapping that lacks it.
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
  if (off === undefined) return '';
  return ` (line ${src.slice(0, off).split('\n').length})`;
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

/** formatIssue turns one zod issue into "step 3 (at 60s): fault (line 9): found ..., expected ...". */
export function formatIssue(issue: z.core.$ZodIssue, input: unknown, doc?: ReturnType<typeof parseDocument>, src?: string): string {
  const path = issue.path;
  let where = pathString(path);
  if (path[0] === 'steps' && typeof path[1] === 'number') {
    const rest = pathString(path.slice(2));
    where = `${stepWhere(input, path[1])}: ${rest === '(top level)' ? 'step' : rest}`;
  }
  const found = `found ${describeFound(valueAt(input, path))}`;
  let msg = issue.message;
  // A message the schema states itself ("expected ...", "found ...") is already worded for authors.
  if (/^expected /.test(msg)) msg = `${found}, ${msg}`;
  else if (/^found /.test(msg)) msg = issue.message;
  else if (issue.code === 'invalid_type') msg = `${found}, expected ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
  else if (issue.code === 'invalid_value') msg = `${found}, expected one of ${issue.values.map((v) => String(v)).join(', ')}`;
  else if (issue.code === 'unrecognized_keys') msg = `found unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}, expected only the fields the scenario format defines`;
  else if (issue.code === 'invalid_union') msg = `${found}, expected ${unionExpectation(path)}`;
  else if (issue.code === 'too_small' || issue.code === 'too_big') msg = `${found}, ${boundExpectation(issue)}`;
  else msg = `${found}, ${msg.replace(/^Invalid input: /, '')}`;
  return `${where}${lineOf(doc, path, src)}: ${msg}`;
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
  if (!r.success) throw new ScenarioError(file, r.error.issues.flatMap((i) => nodeEntryIssues(i, input)).map((i) => formatIssue(i, input, doc, src)));
  const s = r.data;
  const issues: string[] = [];
  const names = new Set<string>();
  for (const n of s.cluster.nodes) {
    const list = 'name' in n ? [n.name] : Array.from({ length: n.count }, (_, i) => `${n.namePrefix}${i + 1}`);
    for (const name of list) {
      if (names.has(name) || name === 'control-plane') issues.push(`cluster.nodes: found the node name "${name}" twice, expected unique names (control-plane is reserved)`);
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
    const here = (field: string): string => `${stepWhere(input, i)}: ${field}${lineOf(doc, ['steps', i, field], src)}`;
    if (latest >= 0 && st.at < s.steps[latest].at)
      issues.push(`${here('at')}: found ${at}, earlier than step ${latest + 1} (at ${timeText(['steps', latest, 'at'], s.steps[latest].at)}); expected steps in time order`);
    if (latest < 0 || st.at >= s.steps[latest].at) latest = i;
    if (st.node !== undefined && !names.has(st.node) && st.node !== 'control-plane')
      issues.push(`${here('node')}: found "${st.node}", expected one of ${[...names].slice(0, 10).join(', ')}${names.size > 10 ? ', ...' : ''} or control-plane`);
    if (st.at > s.until) issues.push(`${here('at')}: found ${at}, after until (${timeText(['until'], s.until)}); expected steps at or before until`);
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
        const at = `line ${e.linePos?.[0]?.line ?? '?'}, column ${e.linePos?.[0]?.col ?? '?'}`;
        if (e.code === 'MULTIPLE_DOCS') return `${at}: found a second YAML document (after ---), expected one document: a scenario file holds one scenario`;
        // The yaml library's own words, without its repeated position.
        const what = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '').replace(/:$/, '');
        return `${at}: ${what}; expected valid YAML`;
      }),
    );
  }
  const input = doc.toJS();
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new ScenarioError(file, [`(top level): found ${describeFound(input)}, expected a mapping with name, seed, steps and until`]);
  return validateScenario(input, file, doc, text);
}

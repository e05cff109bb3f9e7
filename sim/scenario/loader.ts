// Loads and validates scenarios. Every error names the file, the step, the field path, what was
// found and what was expected, so an instructor can fix a scenario without reading our code.

import { parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml';
import type { z } from 'zod';
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

/** formatIssue turns one zod issue into "steps[2] (at 60s): fault: found ..., expected ...". */
export function formatIssue(issue: z.core.$ZodIssue, input: unknown, doc?: ReturnType<typeof parseDocument>, src?: string): string {
  const path = issue.path;
  let where = pathString(path);
  if (path[0] === 'steps' && typeof path[1] === 'number') {
    const at = (valueAt(input, ['steps', path[1], 'at']) as string | undefined) ?? '?';
    where = `step ${path[1] + 1} (at ${at}): ${pathString(path.slice(2)) === '(top level)' ? 'step' : pathString(path.slice(2))}`;
  }
  const found = valueAt(input, path);
  let msg = issue.message;
  if (issue.code === 'invalid_type') msg = `found ${describeFound(found)}, expected ${issue.expected}`;
  else if (issue.code === 'invalid_value') msg = `found ${describeFound(found)}, expected one of ${issue.values.map((v) => String(v)).join(', ')}`;
  else if (issue.code === 'unrecognized_keys') msg = `found unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}, expected only the fields the scenario format defines`;
  else if (issue.code === 'invalid_union') msg = `found ${describeFound(found)}, expected ${unionExpectation(path)}`;
  else if (!/^found /.test(msg)) msg = `found ${describeFound(found)}, ${msg.replace(/^Invalid input: /, '')}`;
  return `${where}${lineOf(doc, path, src)}: ${msg}`;
}

/** validateScenario checks an already-parsed object. */
export function validateScenario(input: unknown, file = '<inline scenario>', doc?: ReturnType<typeof parseDocument>, src?: string): Scenario {
  const r = ScenarioSchema.safeParse(input);
  if (!r.success) throw new ScenarioError(file, r.error.issues.map((i) => formatIssue(i, input, doc, src)));
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
  let last = 0;
  s.steps.forEach((st, i) => {
    if (st.at < last) issues.push(`step ${i + 1} (at ${(st.at / 1000).toString()}s): at: found a time before the previous step, expected steps in time order`);
    last = Math.max(last, st.at);
    if (st.node !== undefined && !names.has(st.node) && st.node !== 'control-plane')
      issues.push(`step ${i + 1}: node: found "${st.node}", expected one of ${[...names].slice(0, 10).join(', ')}${names.size > 10 ? ', ...' : ''}`);
    if (st.at > s.until) issues.push(`step ${i + 1}: at: found a time after until, expected steps within the run`);
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
      doc.errors.map((e) => `line ${e.linePos?.[0]?.line ?? '?'}, column ${e.linePos?.[0]?.col ?? '?'}: ${e.message.split('\n')[0]!.replace(/:$/, '')}: expected valid YAML`),
    );
  }
  const input = doc.toJS();
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new ScenarioError(file, [`(top level): found ${describeFound(input)}, expected a mapping with name, seed, steps and until`]);
  return validateScenario(input, file, doc, text);
}

// Loads question files (content/questions/*.yaml) for the build, the audit and the tests. Node
// only. Every error names the file, the line, the question and the field, and says what was
// expected, as the scenario loader does.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { closest, issueAt, locate, substitute, unfilled, type Issue, type Where } from '../../sim/index.ts';
import { AuthorError, type AuthorIssue } from '../lib/author-error.ts';
import { parseScenarioSource, scenarioFile, scenarioTexts } from '../lib/scenarios.ts';
import { variantOf } from './grade.ts';
import { QuestionFileSchema, QUESTION_KINDS, isUntranslated, type Question } from './schema.ts';

/** QuestionFileError is a question file that cannot be used; message is ready to show an author. */
export class QuestionFileError extends Error {
  readonly file: string;
  /** issues are the texts of details, one per problem. */
  readonly issues: string[];
  /** details are the problems with their line and column in the file. */
  readonly details: Issue[];
  /** loc and hint are what Astro's dev overlay shows: the question file at the first problem. */
  readonly loc?: { file: string; line: number; column: number };
  readonly hint = 'Fix the question file named above; the page reloads when you save it.';
  constructor(file: string, issues: (string | Issue)[]) {
    const details = issues.map((i) => (typeof i === 'string' ? { text: i } : i));
    super(`${file}: invalid question file\n${details.map((i) => `  - ${i.text}`).join('\n')}`);
    this.name = 'QuestionFileError';
    this.file = file;
    this.details = details;
    this.issues = details.map((i) => i.text);
    const first = details.find((d) => d.line !== undefined);
    if (first) this.loc = { file: join(process.cwd(), file), line: first.line!, column: first.column ?? 1 };
    this.stack = `${this.name}: ${this.message}`;
  }

  /** authorIssues are the problems as author errors against the question file. */
  authorIssues(): AuthorIssue[] {
    return this.details.map((d) => ({ file: this.file, ...(d.line !== undefined ? { line: d.line, column: d.column ?? 1 } : {}), text: d.text.replace(/ \(line \d+, column \d+\)(?=:)/, '').replace(/^line \d+: /, '').replace(/ at line \d+, column \d+(?=:)/, '') }));
  }
}

/** fieldPosition is where a field of a question file is (1-based line and column): sim's locate, as scenario files use. */
function fieldPosition(doc: ReturnType<typeof parseDocument>, text: string, path: PropertyKey[]): Where | undefined {
  return locate(doc, path, text);
}

/** LoadedQuestion is a question with where it came from and its scenario's text. */
export interface LoadedQuestion {
  question: Question;
  file: string;
  lesson?: string;
  scenarioYaml?: string;
}

/** placeholders lists the {{name}}s a text uses. */
export function placeholders(s: string): string[] {
  return unfilled(s).map((p) => p.name);
}

/** textsOf lists every bilingual text of a question with a label for messages. */
export function textsOf(q: Question): { where: string; en: string; ja: string }[] {
  const out: { where: string; en: string; ja: string }[] = [{ where: 'prompt', ...q.prompt }];
  if (q.explanation) out.push({ where: 'explanation', ...q.explanation });
  q.hints.forEach((h, i) => out.push({ where: `hints[${i}]`, en: h.en, ja: h.ja }));
  if ('options' in q && q.options) q.options.forEach((o, i) => { if (o.feedback) out.push({ where: `options[${i}].feedback`, ...o.feedback }); });
  if (q.kind === 'interview') out.push({ where: 'modelAnswer', ...q.modelAnswer });
  return out;
}

/** parseQuestionFile parses and checks one file's text. scenarios maps slug to YAML text. */
export function parseQuestionFile(text: string, file: string, scenarios: Map<string, string>): LoadedQuestion[] {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length)
    throw new QuestionFileError(
      file,
      doc.errors.map((e) => ({
        text: `line ${e.linePos?.[0]?.line ?? '?'}: ${(e.message.split('\n')[0] ?? '').replace(/:$/, '')}: expected valid YAML`,
        ...(e.linePos?.[0] ? { line: e.linePos[0].line, column: e.linePos[0].col } : {}),
      })),
    );
  const input = doc.toJS();
  const r = QuestionFileSchema.safeParse(input);
  if (!r.success) {
    throw new QuestionFileError(
      file,
      r.error.issues.map((i) => {
        const qi = i.path[0] === 'questions' && typeof i.path[1] === 'number' ? i.path[1] : undefined;
        const id = qi !== undefined ? (input?.questions?.[qi]?.id as string | undefined) : undefined;
        const at = issueAt(i, input, doc, text, { schema: QuestionFileSchema, format: 'question' });
        let line = at.text;
        if (i.path[i.path.length - 1] === 'kind' && i.code === 'invalid_union') {
          const found = input?.questions?.[qi ?? -1]?.kind;
          const c = typeof found === 'string' ? closest(found, QUESTION_KINDS) : undefined;
          line = line.replace(/expected a valid value$/, `expected one of ${QUESTION_KINDS.join(', ')}${c ? `; did you mean ${c}?` : ''}`);
        }
        return { ...at, text: id ? `question ${id}: ${line}` : line };
      }),
    );
  }
  const issues: Issue[] = [];
  const out: LoadedQuestion[] = [];
  for (const [qi, q] of r.data.questions.entries()) {
    let scenarioYaml: string | undefined;
    // here reports a problem at a field of this question ("hints[0]", "options[1].feedback").
    const here = (where: string, msg: string): void => {
      const path = (where.match(/[^.[\]]+/g) ?? []).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
      const pos = fieldPosition(doc, text, ['questions', qi, ...path]);
      issues.push({ text: `question ${q.id}: ${where}${pos ? ` (line ${pos.line}, column ${pos.column})` : ''}: ${msg}`, ...pos });
    };
    if (q.scenario !== undefined) {
      scenarioYaml = scenarios.get(q.scenario);
      if (scenarioYaml === undefined) {
        const pos = fieldPosition(doc, text, ['questions', qi, 'scenario']);
        const c = closest(q.scenario, scenarios.keys());
        issues.push({
          text: `question ${q.id}: scenario${pos ? ` (line ${pos.line}, column ${pos.column})` : ''}: found "${q.scenario}", expected one of ${[...scenarios.keys()].sort().join(', ')}${c ? `; did you mean ${c}?` : ''}`,
          ...pos,
        });
      }
    }
    // Every {{name}} must resolve, and both languages must use the same ones.
    const known = new Set([...Object.keys(q.variants.params), ...Object.keys(q.values), 'answer']);
    if (q.kind === 'what-if') for (const p of q.params) known.add(p.name);
    for (const t of textsOf(q)) {
      const en = placeholders(t.en);
      const ja = placeholders(t.ja);
      for (const n of new Set([...en, ...ja]))
        if (!known.has(n)) here(t.where, `found {{${n}}}, expected one of ${[...known].map((k) => `{{${k}}}`).join(', ')}${closest(n, known) ? `; did you mean {{${closest(n, known)}}}?` : ''}`);
      if ([...new Set(en)].sort().join() !== [...new Set(ja)].sort().join())
        here(t.where, `English uses ${en.map((n) => `{{${n}}}`).join(' ') || 'no placeholders'} but Japanese uses ${ja.map((n) => `{{${n}}}`).join(' ') || 'none'}, expected the same in both`);
    }
    if ('options' in q && q.options) {
      const seen = new Set<string>();
      for (const o of q.options) {
        if (seen.has(o.value)) here('options', `found the value "${o.value}" twice, expected distinct values`);
        seen.add(o.value);
      }
    }
    if (scenarioYaml !== undefined && q.kind !== 'interview') {
      const needed = placeholders(scenarioYaml);
      const have = new Set([...Object.keys(q.variants.params), ...(q.kind === 'what-if' ? q.params.map((p) => p.name) : [])]);
      for (const n of needed) if (!have.has(n)) here('scenario', `the scenario uses {{${n}}}, expected variants.params.${n} or a what-if param named ${n}`);
    }
    out.push({ question: q, file, lesson: r.data.lesson, scenarioYaml });
  }
  if (issues.length) throw new QuestionFileError(file, issues);
  return out;
}

/** loadScenarios reads content/scenarios/*.yaml into a slug -> text map (src/lib/scenarios.ts). */
export function loadScenarios(root = process.cwd()): Map<string, string> {
  return scenarioTexts(root);
}

/**
 * scenarioIssues parses each scenario the questions use, once per scenario, as its first question's
 * variant 0 fills it in: a mistake in a scenario is reported once, against the scenario file,
 * however many questions and variants use it.
 */
export function scenarioIssues(questions: LoadedQuestion[]): AuthorIssue[] {
  const checked = new Set<string>();
  const issues: AuthorIssue[] = [];
  for (const lq of questions) {
    const q = lq.question;
    if (q.scenario === undefined || lq.scenarioYaml === undefined || q.kind === 'interview') continue;
    const params = { ...variantOf(q, 0).params, ...(q.kind === 'what-if' ? Object.fromEntries(q.params.map((p) => [p.name, p.default])) : {}) };
    const text = substitute(lq.scenarioYaml, params);
    if (checked.has(text)) continue;
    checked.add(text);
    try {
      parseScenarioSource({ name: q.scenario, file: scenarioFile(q.scenario), text });
    } catch (e) {
      if (!(e instanceof AuthorError)) throw e;
      issues.push(...e.issues);
    }
  }
  return issues;
}

/**
 * loadQuestions reads every question file, checks ids are unique across files and that the
 * scenarios they use load. Every problem in every file is reported at once, each cause once.
 */
export function loadQuestions(root = process.cwd()): LoadedQuestion[] {
  const dir = join(root, 'content', 'questions');
  if (!existsSync(dir)) return [];
  const scenarios = loadScenarios(root);
  const all: LoadedQuestion[] = [];
  const ids = new Map<string, string>();
  const issues: AuthorIssue[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.yaml') || f.startsWith('_')) continue;
    const file = `content/questions/${f}`;
    const text = readFileSync(join(dir, f), 'utf8');
    let loaded: LoadedQuestion[];
    try {
      loaded = parseQuestionFile(text, file, scenarios);
    } catch (e) {
      if (!(e instanceof QuestionFileError)) throw e;
      issues.push(...e.authorIssues());
      continue;
    }
    const doc = parseDocument(text);
    loaded.forEach((lq, qi) => {
      const prev = ids.get(lq.question.id);
      const pos = fieldPosition(doc, text, ['questions', qi, 'id']);
      if (prev) issues.push({ file, ...pos, text: `question ${lq.question.id}: id: already used in ${prev}, expected a unique id` });
      ids.set(lq.question.id, file);
      all.push(lq);
    });
  }
  issues.push(...scenarioIssues(all));
  if (issues.length) throw new AuthorError(issues);
  return all;
}

/** untranslatedTexts lists the texts of a question that have no Japanese yet ("prompt", "hints[0]"). */
export function untranslatedTexts(q: Question): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v !== null && typeof v === 'object') {
      if (isUntranslated(v)) out.push(path);
      else for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
    }
  };
  walk(q, '');
  return out;
}

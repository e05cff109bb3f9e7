// Loads question files (content/questions/*.yaml) for the build, the audit and the tests. Node
// only. Every error names the file, the line, the question and the field, and says what was
// expected, as the scenario loader does.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { formatIssue, unfilled } from '../../sim/index.ts';
import { QuestionFileSchema, QUESTION_KINDS, type Question } from './schema.ts';

/** QuestionFileError is a question file that cannot be used; message is ready to show an author. */
export class QuestionFileError extends Error {
  readonly issues: string[];
  constructor(file: string, issues: string[]) {
    super(`${file}: invalid question file\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.issues = issues;
  }
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
    throw new QuestionFileError(file, doc.errors.map((e) => `line ${e.linePos?.[0]?.line ?? '?'}: ${(e.message.split('\n')[0] ?? '').replace(/:$/, '')}: expected valid YAML`));
  const input = doc.toJS();
  const r = QuestionFileSchema.safeParse(input);
  if (!r.success) {
    throw new QuestionFileError(
      file,
      r.error.issues.map((i) => {
        const qi = i.path[0] === 'questions' && typeof i.path[1] === 'number' ? i.path[1] : undefined;
        const id = qi !== undefined ? (input?.questions?.[qi]?.id as string | undefined) : undefined;
        let line = formatIssue(i, input, doc, text).replace('the fields the scenario format defines', 'the fields the question format defines');
        if (i.path[i.path.length - 1] === 'kind' && i.code === 'invalid_union')
          line = line.replace(/expected a valid value$/, `expected one of ${QUESTION_KINDS.join(', ')}`);
        return id ? `question ${id}: ${line}` : line;
      }),
    );
  }
  const issues: string[] = [];
  const out: LoadedQuestion[] = [];
  for (const q of r.data.questions) {
    let scenarioYaml: string | undefined;
    if (q.scenario !== undefined) {
      scenarioYaml = scenarios.get(q.scenario);
      if (scenarioYaml === undefined)
        issues.push(`question ${q.id}: scenario: found "${q.scenario}", expected one of ${[...scenarios.keys()].sort().join(', ')}`);
    }
    // Every {{name}} must resolve, and both languages must use the same ones.
    const known = new Set([...Object.keys(q.variants.params), ...Object.keys(q.values), 'answer']);
    if (q.kind === 'what-if') for (const p of q.params) known.add(p.name);
    for (const t of textsOf(q)) {
      const en = placeholders(t.en);
      const ja = placeholders(t.ja);
      for (const n of new Set([...en, ...ja]))
        if (!known.has(n)) issues.push(`question ${q.id}: ${t.where}: found {{${n}}}, expected one of ${[...known].map((k) => `{{${k}}}`).join(', ')}`);
      if ([...new Set(en)].sort().join() !== [...new Set(ja)].sort().join())
        issues.push(`question ${q.id}: ${t.where}: English uses ${en.map((n) => `{{${n}}}`).join(' ') || 'no placeholders'} but Japanese uses ${ja.map((n) => `{{${n}}}`).join(' ') || 'none'}, expected the same in both`);
    }
    if ('options' in q && q.options) {
      const seen = new Set<string>();
      for (const o of q.options) {
        if (seen.has(o.value)) issues.push(`question ${q.id}: options: found the value "${o.value}" twice, expected distinct values`);
        seen.add(o.value);
      }
    }
    if (scenarioYaml !== undefined && q.kind !== 'interview') {
      const needed = placeholders(scenarioYaml);
      const have = new Set([...Object.keys(q.variants.params), ...(q.kind === 'what-if' ? q.params.map((p) => p.name) : [])]);
      for (const n of needed) if (!have.has(n)) issues.push(`question ${q.id}: the scenario uses {{${n}}}, expected variants.params.${n} or a what-if param named ${n}`);
    }
    out.push({ question: q, file, lesson: r.data.lesson, scenarioYaml });
  }
  if (issues.length) throw new QuestionFileError(file, issues);
  return out;
}

/** loadScenarios reads content/scenarios/*.yaml into a slug -> text map. */
export function loadScenarios(root = process.cwd()): Map<string, string> {
  const dir = join(root, 'content', 'scenarios');
  const map = new Map<string, string>();
  for (const f of readdirSync(dir).sort()) if (f.endsWith('.yaml')) map.set(f.replace(/\.yaml$/, ''), readFileSync(join(dir, f), 'utf8'));
  return map;
}

/** loadQuestions reads every question file and checks ids are unique across files. */
export function loadQuestions(root = process.cwd()): LoadedQuestion[] {
  const dir = join(root, 'content', 'questions');
  if (!existsSync(dir)) return [];
  const scenarios = loadScenarios(root);
  const all: LoadedQuestion[] = [];
  const ids = new Map<string, string>();
  const issues: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.yaml') || f.startsWith('_')) continue;
    const file = `content/questions/${f}`;
    for (const lq of parseQuestionFile(readFileSync(join(dir, f), 'utf8'), file, scenarios)) {
      const prev = ids.get(lq.question.id);
      if (prev) issues.push(`${file}: question ${lq.question.id}: id: already used in ${prev}, expected a unique id`);
      ids.set(lq.question.id, file);
      all.push(lq);
    }
  }
  if (issues.length) throw new QuestionFileError('content/questions', issues);
  return all;
}

// audit runs every question over many seeds and checks that the simulator's key is gradeable:
// the key's own answer passes, every wrong fixture fails, every placeholder resolves, choices have
// a right option, orderings have no ties. Any mismatch names the question and the seed.

import {
  computeKey,
  grade,
  solutionOf,
  variantOf,
  formatNumber,
  type Answer,
  type Keyed,
} from './grade.ts';
import { MeasureError, eventTime } from './measure.ts';
import type { LoadedQuestion } from './load.ts';
import { textsOf, placeholders } from './load.ts';

/** AuditProblem is one mismatch between a question and the simulator. */
export interface AuditProblem {
  id: string;
  file: string;
  variant: number;
  seed: number;
  message: string;
}

/** auditQuestion checks one question over variants 0..count-1. */
export function auditQuestion(lq: LoadedQuestion, count: number): AuditProblem[] {
  const q = lq.question;
  const problems: AuditProblem[] = [];
  for (let v = 0; v < count; v++) {
    const variant = variantOf(q, v);
    const problem = (message: string) =>
      problems.push({ id: q.id, file: lq.file, variant: v, seed: variant.seed, message });
    let keyed: Keyed;
    try {
      keyed = computeKey(q, lq.scenarioYaml, variant);
    } catch (e) {
      problem(
        e instanceof MeasureError
          ? `the measure failed: ${e.message}`
          : `the run failed: ${(e as Error).message.split('\n').slice(0, 3).join(' ')}`,
      );
      continue;
    }
    const k = keyed.key;
    for (const t of textsOf(q))
      for (const lang of ['en', 'ja'] as const)
        for (const n of placeholders(t[lang]))
          if (!(n in keyed.values))
            problem(`${t.where} (${lang}) uses {{${n}}}, which has no value for this variant`);
    if (k.kind === 'choice') {
      const multiple = q.kind === 'choice' && q.multiple;
      if (k.values.length === 0)
        problem(
          `no option is right: the simulator measured ${keyed.values.answer || 'something no option names'}`,
        );
      else if (!multiple && k.values.length > 1)
        problem(`several options are right (${k.values.join(', ')}) in a single-choice question`);
    }
    if (k.kind === 'ordering' && q.kind === 'ordering' && keyed.run) {
      const values = q.items.map((it) => it.value);
      if (new Set(values).size !== values.length) problem('two items share a value');
      const times = q.items.map((it) => eventTime(keyed.run!, it.at));
      if (new Set(times).size !== times.length)
        problem(
          `two items happen at the same moment, so the order is ambiguous: ${keyed.values.answer}`,
        );
    }
    if (k.kind === 'matching' && q.kind === 'matching')
      for (const l of q.left)
        if (!k.pairs[l.value]) problem(`${l.value} matches no responsibility in this run`);
    // The grader turns away one answer chosen twice, so the key must use each answer once.
    if (k.kind === 'matching' && q.kind === 'matching') {
      const used = Object.values(k.pairs);
      const twice = used.find((r, i) => used.indexOf(r) !== i);
      if (twice)
        problem(`two items match "${twice}" in this run, expected each answer to fit one item`);
    }
    // The form starts with the defaults: they must not already be an answer.
    if (q.kind === 'what-if') {
      const defaults = Object.fromEntries(q.params.map((p) => [p.name, String(p.default)]));
      if (grade(q, keyed, { kind: 'what-if', params: defaults }, lq.scenarioYaml).correct)
        problem(
          `the default values ${JSON.stringify(defaults)} already pass every check, so the form starts solved`,
        );
    }
    if (q.kind === 'task' && keyed.untouched?.every(Boolean))
      problem('every check already holds with no commands typed, so there is nothing to fix');
    // The key's own answer must pass: the grader and the key agree.
    const solution = solutionOf(q, keyed);
    if (solution) {
      const g = grade(q, keyed, solution, lq.scenarioYaml);
      if (!g.correct)
        problem(
          `the simulator's answer (${describe(solution)}) is graded wrong${g.invalid ? `: ${g.invalid.en}` : ''}${failedChecks(g)}`,
        );
    }
    if (q.kind === 'what-if')
      for (const c of q.fixtures.correct.slice(1)) {
        const g = grade(q, keyed, { kind: 'what-if', params: strings(c) }, lq.scenarioYaml);
        if (!g.correct)
          problem(`fixtures.correct ${JSON.stringify(c)} is graded wrong${failedChecks(g)}`);
      }
    if (q.kind === 'task')
      for (const c of q.fixtures.correct.slice(1)) {
        const g = grade(q, keyed, { kind: 'task', commands: c.join('\n') }, lq.scenarioYaml);
        if (!g.correct)
          problem(`fixtures.correct ${JSON.stringify(c)} is graded wrong${failedChecks(g)}`);
      }
    for (const w of wrongAnswers(lq)) {
      const g = grade(q, keyed, w, lq.scenarioYaml);
      if (g.invalid) problem(`fixtures.wrong ${describe(w)} cannot be graded: ${g.invalid.en}`);
      else if (g.correct)
        problem(
          `fixtures.wrong ${describe(w)} is graded right (the simulator's answer is ${keyed.values.answer ?? 'the same'})`,
        );
    }
  }
  return problems;
}

function failedChecks(g: ReturnType<typeof grade>): string {
  const failed = (g.checks ?? []).filter((c) => !c.passed);
  return failed.length
    ? `: failed ${failed.map((c) => `"${c.label.en}" (measured ${c.measured ?? 'nothing'})`).join(', ')}`
    : '';
}

function strings(r: Record<string, number>): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)]));
}

function describe(a: Answer): string {
  switch (a.kind) {
    case 'choice':
    case 'ordering':
      return `[${a.values.join(', ')}]`;
    case 'numeric':
      return a.text;
    case 'matching':
      return JSON.stringify(a.pairs);
    case 'what-if':
      return JSON.stringify(a.params);
    case 'task':
      return JSON.stringify(a.commands.split('\n'));
    case 'interview':
      return 'a free-text answer';
  }
}

/** wrongAnswers turns a question's wrong fixtures into answers. */
export function wrongAnswers(lq: LoadedQuestion): Answer[] {
  const q = lq.question;
  switch (q.kind) {
    case 'choice':
      return q.fixtures.wrong.map((values) => ({ kind: 'choice', values }));
    case 'numeric':
      return q.fixtures.wrong.map((n) => ({ kind: 'numeric', text: formatNumber(n) }));
    case 'ordering':
      return q.fixtures.wrong.map((values) => ({ kind: 'ordering', values }));
    case 'matching':
      return q.fixtures.wrong.map((pairs) => ({ kind: 'matching', pairs }));
    case 'predict':
      return q.fixtures.wrong.map((w) =>
        q.options ? { kind: 'choice', values: [String(w)] } : { kind: 'numeric', text: String(w) },
      );
    case 'what-if':
      return q.fixtures.wrong.map((p) => ({ kind: 'what-if', params: strings(p) }));
    case 'task':
      return q.fixtures.wrong.map((c) => ({ kind: 'task', commands: c.join('\n') }));
    case 'interview':
      return [];
  }
}

/** formatProblems renders audit problems for a build log. */
export function formatProblems(problems: AuditProblem[]): string {
  return problems
    .map((p) => `${p.file}: question ${p.id}, variant ${p.variant} (seed ${p.seed}): ${p.message}`)
    .join('\n');
}

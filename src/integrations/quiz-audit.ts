// quizAudit is an Astro integration that runs the question audit before a build: every question
// in content/questions/ over many variants. A question whose key, fixture or placeholder disagrees
// with the simulator fails the build, naming the question and the seed. After the build it reads
// every built page and fails the build if a rendered question shows its key (src/quiz/page.ts
// auditRendered). It also injects the route of the answers files (src/quiz/answers-route.ts).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { loadQuestions, type LoadedQuestion } from '../quiz/load.ts';
import { auditQuestion, formatProblems } from '../quiz/audit.ts';
import { ANSWERS_DIR, auditRendered, keyForPage, renderedQuestions } from '../quiz/page.ts';
import type { Keyed } from '../quiz/grade.ts';

/** AUDIT_VARIANTS is how many variants of each question the build checks (QUIZ_AUDIT_VARIANTS overrides). */
export const AUDIT_VARIANTS = 16;

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => join(e.parentPath, e.name));
}

/**
 * auditBuiltPages checks every rendered question of every page under dir; it returns one line per
 * problem, naming the page and the question.
 */
export function auditBuiltPages(dir: string, questions: LoadedQuestion[]): string[] {
  const byId = new Map(questions.map((lq) => [lq.question.id, lq]));
  const keys = new Map<string, Keyed>();
  // Only the kinds whose markup could present a key need it; the others get a stand-in.
  const keyOf = (lq: LoadedQuestion): Keyed => {
    const q = lq.question;
    const needs =
      q.kind === 'ordering' || q.kind === 'numeric' || (q.kind === 'predict' && !q.options);
    if (!needs)
      return { variant: { v: 0, seed: 0, params: {} }, key: { kind: 'none' }, values: {} };
    let k = keys.get(q.id);
    if (!k) keys.set(q.id, (k = keyForPage(lq)));
    return k;
  };
  const problems: string[] = [];
  for (const file of htmlFiles(dir)) {
    const html = readFileSync(file, 'utf8');
    if (!html.includes('data-quiz')) continue;
    for (const r of renderedQuestions(html)) {
      const lq = byId.get(r.id);
      if (!lq) continue;
      for (const p of auditRendered(r, lq, keyOf(lq)))
        problems.push(`${relative(dir, file)}: question ${r.id} (${lq.file}): ${p}`);
    }
  }
  return problems;
}

export function quizAudit(): AstroIntegration {
  return {
    name: 'quiz-audit',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        injectRoute({
          pattern: `/${ANSWERS_DIR}/[id].json`,
          entrypoint: fileURLToPath(new URL('../quiz/answers-route.ts', import.meta.url)),
          prerender: true,
        });
        injectRoute({
          pattern: `/${ANSWERS_DIR}/[id]/[option].json`,
          entrypoint: fileURLToPath(new URL('../quiz/option-feedback-route.ts', import.meta.url)),
          prerender: true,
        });
      },
      'astro:build:start': ({ logger }) => {
        const variants = Number(process.env.QUIZ_AUDIT_VARIANTS) || AUDIT_VARIANTS;
        const questions = loadQuestions();
        const start = performance.now();
        const problems = [];
        for (const [i, lq] of questions.entries()) {
          problems.push(...auditQuestion(lq, variants));
          if ((i + 1) % 10 === 0 || i + 1 === questions.length)
            logger.info(`audited ${i + 1} of ${questions.length} questions`);
        }
        if (problems.length) {
          throw new Error(
            `The quiz audit found ${problems.length} problem(s): the simulator disagrees with these questions.\n${formatProblems(problems)}`,
          );
        }
        logger.info(
          `${questions.length} questions agree with the simulator over ${variants} variants each (${((performance.now() - start) / 1000).toFixed(1)} s)`,
        );
      },
      'astro:build:done': ({ dir, logger }) => {
        const problems = auditBuiltPages(fileURLToPath(dir), loadQuestions());
        if (problems.length)
          throw new Error(
            `The quiz audit found ${problems.length} rendered question(s) that give their key away before the learner has answered (src/quiz/page.ts auditRendered):\n${problems.join('\n')}`,
          );
        logger.info('no rendered question shows its key, a fixture or an answer text');
      },
    },
  };
}

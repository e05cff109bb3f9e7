// quizAudit is an Astro integration that runs the question audit before a build: every question
// in content/questions/ over many variants. A question whose key, fixture or placeholder disagrees
// with the simulator fails the build, naming the question and the seed.
import type { AstroIntegration } from 'astro';
import { loadQuestions } from '../quiz/load.ts';
import { auditQuestion, formatProblems } from '../quiz/audit.ts';

/** AUDIT_VARIANTS is how many variants of each question the build checks (QUIZ_AUDIT_VARIANTS overrides). */
export const AUDIT_VARIANTS = 16;

export function quizAudit(): AstroIntegration {
  return {
    name: 'quiz-audit',
    hooks: {
      'astro:build:start': ({ logger }) => {
        const variants = Number(process.env.QUIZ_AUDIT_VARIANTS) || AUDIT_VARIANTS;
        const questions = loadQuestions();
        const start = performance.now();
        const problems = [];
        for (const [i, lq] of questions.entries()) {
          problems.push(...auditQuestion(lq, variants));
          if ((i + 1) % 10 === 0 || i + 1 === questions.length) logger.info(`audited ${i + 1} of ${questions.length} questions`);
        }
        if (problems.length) {
          throw new Error(`The quiz audit found ${problems.length} problem(s): the simulator disagrees with these questions.\n${formatProblems(problems)}`);
        }
        logger.info(`${questions.length} questions agree with the simulator over ${variants} variants each (${((performance.now() - start) / 1000).toFixed(1)} s)`);
      },
    },
  };
}

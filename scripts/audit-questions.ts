// audit-questions runs every question in content/questions/ over many variants and fails if the
// simulator disagrees with a key, a fixture or a placeholder. The build runs the same audit.
//
//   npm run audit-questions [-- --variants 20] [-- --only <question-id>]
import { loadQuestions, QuestionFileError } from '../src/quiz/load.ts';
import { auditQuestion, formatProblems } from '../src/quiz/audit.ts';

const args = process.argv.slice(2);
const count = Number(args[args.indexOf('--variants') + 1] || 0) || 12;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

try {
  const questions = loadQuestions().filter((lq) => !only || lq.question.id === only);
  let failed = 0;
  const start = performance.now();
  for (const [i, lq] of questions.entries()) {
    const problems = auditQuestion(lq, count);
    process.stdout.write(`[${i + 1}/${questions.length}] ${lq.question.id} (${lq.question.kind}): ${problems.length ? 'FAIL' : 'ok'}\n`);
    if (problems.length) {
      failed++;
      console.error(formatProblems(problems));
    }
  }
  console.log(`${questions.length - failed} of ${questions.length} questions agree with the simulator over ${count} variants each (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  process.exit(failed ? 1 : 0);
} catch (e) {
  if (e instanceof QuestionFileError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}

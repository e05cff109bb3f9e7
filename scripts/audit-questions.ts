// audit-questions runs every question in content/questions/ over many variants and fails if the
// simulator disagrees with a key, a fixture or a placeholder. The build runs the same audit.
//
//   npm run audit-questions [-- --variants 20] [-- --only <question-id>]
import { closest } from '../sim/scenario/suggest.ts';
import { AuthorError } from '../src/lib/author-error.ts';
import { loadQuestions, QuestionFileError } from '../src/quiz/load.ts';
import { auditQuestion, formatProblems } from '../src/quiz/audit.ts';

const args = process.argv.slice(2);
const count = Number(args[args.indexOf('--variants') + 1] || 0) || 12;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

try {
  const all = loadQuestions();
  const questions = all.filter((lq) => !only || lq.question.id === only);
  if (only !== undefined && questions.length === 0) {
    const ids = all.map((lq) => lq.question.id);
    const near = closest(only, ids);
    console.error(
      `--only ${only}: no question has this id${near ? `; did you mean ${near}?` : ''} (see content/questions/*.yaml)`,
    );
    process.exit(2);
  }
  let failed = 0;
  const start = performance.now();
  for (const [i, lq] of questions.entries()) {
    const problems = auditQuestion(lq, count);
    process.stdout.write(
      `[${i + 1}/${questions.length}] ${lq.question.id} (${lq.question.kind}): ${problems.length ? 'FAIL' : 'ok'}\n`,
    );
    if (problems.length) {
      failed++;
      console.error(formatProblems(problems));
    }
  }
  console.log(
    `${questions.length - failed} of ${questions.length} questions agree with the simulator over ${count} variants each (${((performance.now() - start) / 1000).toFixed(1)} s)`,
  );
  process.exit(failed ? 1 : 0);
} catch (e) {
  // A broken question or scenario file is the author's to fix: its message names the file, line
  // and field, and a stack would only hide it.
  if (e instanceof QuestionFileError || e instanceof AuthorError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}

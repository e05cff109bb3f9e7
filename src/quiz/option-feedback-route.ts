// The option feedback files, /quiz-answers/<id>/<n>.json, one per option of every choice and
// predict question (src/quiz/answers.ts optionFeedbackPath), each holding that option's feedback
// or nothing. The page does not carry option feedback, since which options have some tells which
// are wrong; the quiz island fetches the file of an option the learner chose, once it is graded.
// The quiz-audit integration injects this route.
import type { APIRoute, GetStaticPaths } from 'astro';
import type { OptionFeedback } from './answers.ts';
import { loadQuestions } from './load.ts';
import { optionsOf } from './page.ts';

export const getStaticPaths: GetStaticPaths = () =>
  loadQuestions().flatMap((lq) =>
    optionsOf(lq.question).map((o, n) => ({
      params: { id: lq.question.id, option: String(n) },
      props: { feedback: o.feedback ? { feedback: o.feedback } : {} },
    })),
  );

export const GET: APIRoute = ({ props }) =>
  new Response(JSON.stringify((props as { feedback: OptionFeedback }).feedback), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

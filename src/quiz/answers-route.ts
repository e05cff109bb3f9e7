// The answers files, /quiz-answers/<id>.json, one per question (src/quiz/page.ts answersOf): the
// explanation, the example solution of a what-if or task question, an interview question's model
// answer and rubric. The page never carries them; the quiz island fetches the file only once the
// key is revealed (after the last attempt, on Show solution, in the debrief). The quiz-audit
// integration injects this route.
import type { APIRoute, GetStaticPaths } from 'astro';
import { loadQuestions, type LoadedQuestion } from './load.ts';
import { answersOf } from './page.ts';

export const getStaticPaths: GetStaticPaths = () =>
  loadQuestions().map((lq) => ({ params: { id: lq.question.id }, props: { lq } }));

export const GET: APIRoute = ({ props }) =>
  new Response(JSON.stringify(answersOf((props as { lq: LoadedQuestion }).lq.question)), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

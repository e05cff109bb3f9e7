// Where a question's answers file is, and what it holds (written by src/quiz/answers-route.ts,
// filled by src/quiz/page.ts answersOf). Types and a path only, so the quiz island can load the
// file without bundling the grader.
import type { Answer } from './grade.ts';
import type { Text } from './schema.ts';

/** ANSWERS_DIR is where the build puts each question's answers file: /quiz-answers/<id>.json. */
export const ANSWERS_DIR = 'quiz-answers';

/**
 * optionFeedbackPath is where a choice or predict option's feedback is:
 * /quiz-answers/<id>/<n>.json for the option at index n. The page does not carry option feedback:
 * that an option has some would tell it is wrong, since authors write it for wrong options. The
 * island fetches the file of an option the learner chose, once it is graded.
 */
export function optionFeedbackPath(id: string, index: number): string {
  return `${ANSWERS_DIR}/${encodeURIComponent(id)}/${index}.json`;
}

/** OptionFeedback is an option's feedback file; every option has one, empty when it has none. */
export interface OptionFeedback {
  feedback?: Text;
}

/** Answers is a question's answers file: what is shown once the key is revealed. */
export interface Answers {
  explanation?: Text;
  /** example is a verified solution of a what-if or task question (its first fixtures.correct). */
  example?: Answer;
  modelAnswer?: Text;
  rubric?: Text[];
}

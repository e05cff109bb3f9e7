// What the site's search (Pagefind) leaves out of its index, beyond what components mark with
// data-pagefind-ignore themselves: code blocks that show answers. The authoring guide shows real
// question files, whose fixtures (right and wrong answers), explanations and model answers are
// the answers to questions asked on the site; a search for a question's wording must not turn up
// its answer next to it. ec.config.mjs applies this to every code block Expressive Code renders
// (Markdown fences and the <Code> component).

/** ANSWER_KEYS are the question-file fields that hold or quote an answer (src/quiz schema). */
export const ANSWER_KEYS = ['fixtures', 'explanation', 'modelAnswer', 'rubric'] as const;

const answerLine = new RegExp(`^[\\s-]*(${ANSWER_KEYS.join('|')}):`, 'm');

/** showsAnswers reports whether a code block's text declares one of the answer fields. */
export function showsAnswers(code: string): boolean {
  return answerLine.test(code);
}

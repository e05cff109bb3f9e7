// loadAnswers fetches a question's answers file (the explanation, model answer, example solution,
// src/quiz/answers.ts) once the key is revealed: the page itself never carries them.
import {
  ANSWERS_DIR,
  optionFeedbackPath,
  type Answers,
  type OptionFeedback,
} from '../../quiz/answers.ts';

const files = new Map<string, Promise<Answers>>();

export function loadAnswers(id: string): Promise<Answers> {
  let p = files.get(id);
  if (!p) {
    const base = import.meta.env.BASE_URL.replace(/\/?$/, '/');
    p = fetch(`${base}${ANSWERS_DIR}/${encodeURIComponent(id)}.json`).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.json() as Promise<Answers>;
    });
    // A failed load is tried again next time.
    p.catch(() => files.delete(id));
    files.set(id, p);
  }
  return p;
}

const feedbacks = new Map<string, Promise<OptionFeedback>>();

/**
 * loadOptionFeedback fetches the feedback of a question's option (by index) once the learner has
 * chosen it and it is graded: the page does not carry option feedback (answers.ts).
 */
export function loadOptionFeedback(id: string, index: number): Promise<OptionFeedback> {
  const path = optionFeedbackPath(id, index);
  let p = feedbacks.get(path);
  if (!p) {
    const base = import.meta.env.BASE_URL.replace(/\/?$/, '/');
    p = fetch(`${base}${path}`).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.json() as Promise<OptionFeedback>;
    });
    p.catch(() => feedbacks.delete(path));
    feedbacks.set(path, p);
  }
  return p;
}

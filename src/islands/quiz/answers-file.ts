// loadAnswers fetches a question's answers file (the explanation, model answer, example solution,
// src/quiz/answers.ts) once the key is revealed: the page itself never carries them.
import { ANSWERS_DIR, type Answers } from '../../quiz/answers.ts';

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

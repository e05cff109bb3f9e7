// quiz-progress fills a QuizProgress indicator: how many of the page's questions
// ([data-question-id]) are solved. It loads the progress code after the page is idle and redraws
// whenever progress changes (an answer graded here, or in another tab).

import { fill, type ProgressStrings } from './strings.ts';

type Strings = Pick<ProgressStrings, 'solvedOf' | 'solvedNone' | 'damaged'> & {
  progressHref: string;
};

/** pageQuestionIds lists the distinct question ids on the page, outside hidden review candidates. */
export function pageQuestionIds(doc: ParentNode = document): string[] {
  const ids = [...doc.querySelectorAll<HTMLElement>('[data-question-id]')]
    .filter((el) => !el.closest('[data-review-candidate]'))
    .map((el) => el.dataset.questionId ?? '')
    .filter(Boolean);
  return [...new Set(ids)];
}

/** mountQuizProgress wires one indicator. */
export function mountQuizProgress(el: HTMLElement): void {
  const t = JSON.parse(el.dataset.strings ?? '{}') as Strings;
  const bar = el.querySelector<HTMLProgressElement>('[data-role="bar"]');
  const text = el.querySelector<HTMLElement>('[data-role="text"]');
  if (!bar || !text) return;
  const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 1));
  idle(() => {
    void import('./store.ts').then((store) => {
      const draw = () => {
        const ids = pageQuestionIds();
        const { progress } = store.load();
        const solved = ids.filter((id) => progress.questions[id]?.solved).length;
        bar.max = Math.max(ids.length, 1);
        bar.value = solved;
        const msg = ids.length ? fill(t.solvedOf, { solved, total: ids.length }) : t.solvedNone;
        bar.setAttribute('aria-valuetext', msg);
        if (text.textContent !== msg) text.textContent = msg;
        el.dataset.solved = String(solved);
        el.dataset.total = String(ids.length);
      };
      draw();
      // Damaged storage: point to the progress page, which repairs it and lists what was lost.
      const damaged = store.load().warnings.some((w) => w.code !== 'migrated');
      if (damaged && !el.querySelector('[data-role="damaged"]')) {
        const a = document.createElement('a');
        a.href = t.progressHref;
        a.textContent = t.damaged;
        a.dataset.role = 'damaged';
        el.append(a);
      }
      // Announce later changes politely, not the first fill.
      text.setAttribute('aria-live', 'polite');
      store.onChange(draw);
    });
  });
}

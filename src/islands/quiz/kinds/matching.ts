// Matching: one select per left item. Each of the learner's rows is marked right or wrong; one
// answer chosen for two items is turned away by the grader.
import type { Answer } from '../../../quiz/grade.ts';
import type { GradeResult } from '../protocol.ts';
import { setMark } from '../dom.ts';
import type { Ctx, KindView } from './kind.ts';

export function matchingView(ctx: Ctx): KindView {
  const { root, t } = ctx;
  const selects = () => root.querySelectorAll<HTMLSelectElement>('select[data-left]');
  const rows = () => root.querySelectorAll<HTMLElement>('.quiz-matching .quiz-row[data-left]');
  const marks = { right: `✓ ${t.right}`, wrong: `✗ ${t.wrongMark}` };
  return {
    answer(): Answer {
      const pairs: Record<string, string> = {};
      for (const s of selects()) if (s.value) pairs[s.dataset.left!] = s.value;
      return { kind: 'matching', pairs };
    },
    show(a) {
      if (a.kind === 'matching')
        for (const s of selects()) s.value = a.pairs[s.dataset.left!] ?? '';
    },
    reset() {
      for (const s of selects()) s.value = '';
      for (const row of rows()) setMark(row.querySelector('[data-role="mark"]'), undefined, marks);
    },
    feedback(r: GradeResult) {
      for (const row of rows())
        setMark(row.querySelector('[data-role="mark"]'), r.grade.rows?.[row.dataset.left!], marks);
      return [];
    },
  };
}

// Choice (and predict with options): radio buttons or checkboxes. While attempts remain, only the
// chosen options are marked; the right option not chosen is marked once the key is revealed. A
// chosen option's feedback is fetched once it is graded (the page does not carry it).
import type { Answer } from '../../../quiz/grade.ts';
import type { GradeResult } from '../protocol.ts';
import { loadOptionFeedback } from '../answers-file.ts';
import { rich, setMark } from '../dom.ts';
import type { Ctx, KindView } from './kind.ts';

export function choiceView(ctx: Ctx): KindView {
  const { root, q, t } = ctx;
  const inputs = () => root.querySelectorAll<HTMLInputElement>('[data-option] input');
  const values = ('options' in q ? (q.options ?? []) : []).map((o) => o.value);
  /** shown counts gradings, so feedback fetched for an earlier one is not shown on a later one. */
  let shown = 0;
  const marks = { right: `✓ ${t.right}`, wrong: `✗ ${t.wrongMark}`, missed: `○ ${t.missed}` };
  return {
    answer: (): Answer => ({
      kind: 'choice',
      values: [...inputs()].filter((i) => i.checked).map((i) => i.value),
    }),
    show(a) {
      if (a.kind === 'choice') for (const i of inputs()) i.checked = a.values.includes(i.value);
    },
    reset() {
      shown++;
      for (const i of inputs()) i.checked = false;
      for (const li of root.querySelectorAll<HTMLElement>('[data-option]')) {
        setMark(li.querySelector('[data-role="mark"]'), undefined, marks);
        li.querySelector('[data-role="option-feedback"]')!.textContent = '';
      }
    },
    feedback(r: GradeResult) {
      const g = r.grade;
      if (!g.options) return [];
      const now = ++shown;
      for (const li of root.querySelectorAll<HTMLElement>('[data-option]')) {
        const value = li.dataset.option!;
        const m = g.options[value];
        setMark(li.querySelector('[data-role="mark"]'), m, marks);
        const fb = li.querySelector<HTMLElement>('[data-role="option-feedback"]')!;
        fb.textContent = '';
        const index = values.indexOf(value);
        if (!m || m === 'missed' || index < 0) continue;
        const fallback = m === 'wrong' ? t.optionNotInRun : '';
        void loadOptionFeedback(ctx.id, index).then(
          (f) => {
            if (now !== shown) return;
            if (f.feedback) rich(fb, ctx.txt(f.feedback, r.values));
            else fb.textContent = fallback;
          },
          () => {
            if (now === shown) fb.textContent = fallback;
          },
        );
      }
      return [];
    },
  };
}

// Choice (and predict with options): radio buttons or checkboxes. While attempts remain, only the
// chosen options are marked; the right option not chosen is marked once the key is revealed.
import type { Answer } from '../../../quiz/grade.ts';
import type { GradeResult } from '../protocol.ts';
import { rich, setMark } from '../dom.ts';
import type { Ctx, KindView } from './kind.ts';

export function choiceView(ctx: Ctx): KindView {
  const { root, q, t } = ctx;
  const inputs = () => root.querySelectorAll<HTMLInputElement>('[data-option] input');
  const options = 'options' in q ? (q.options ?? []) : [];
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
      for (const i of inputs()) i.checked = false;
      for (const li of root.querySelectorAll<HTMLElement>('[data-option]')) {
        setMark(li.querySelector('[data-role="mark"]'), undefined, marks);
        li.querySelector('[data-role="option-feedback"]')!.textContent = '';
      }
    },
    feedback(r: GradeResult) {
      const g = r.grade;
      if (!g.options) return [];
      for (const li of root.querySelectorAll<HTMLElement>('[data-option]')) {
        const value = li.dataset.option!;
        const m = g.options[value];
        setMark(li.querySelector('[data-role="mark"]'), m, marks);
        const fb = li.querySelector<HTMLElement>('[data-role="option-feedback"]')!;
        const o = options.find((x) => x.value === value);
        if (m && m !== 'missed' && o?.feedback) rich(fb, ctx.txt(o.feedback, r.values));
        else fb.textContent = m === 'wrong' ? t.optionNotInRun : '';
      }
      return [];
    },
  };
}

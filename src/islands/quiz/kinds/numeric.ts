// Numeric (and predict without options): a text box for a plain number. A wrong number is told
// too high or too low only when the question says `direction: true`.
import type { Answer } from '../../../quiz/grade.ts';
import type { GradeResult } from '../protocol.ts';
import { el } from '../dom.ts';
import type { Ctx, KindView } from './kind.ts';

export function numericView(ctx: Ctx): KindView {
  const box = ctx.role<HTMLInputElement>('number');
  return {
    answer: (): Answer => ({ kind: 'numeric', text: box?.value ?? '' }),
    show(a) {
      if (a.kind === 'numeric' && box) box.value = a.text;
    },
    reset() {
      if (box) box.value = '';
    },
    feedback(r: GradeResult) {
      const d = r.grade.direction;
      return d ? [el('p', d === 'high' ? ctx.t.tooHigh : ctx.t.tooLow)] : [];
    },
  };
}

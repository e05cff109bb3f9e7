// Predict: a choice or a number, and, once the key is revealed, what the cluster showed (the
// question's `observe` command) next to the prediction.
import { terminalText } from '../../../lib/terminal.ts';
import type { Answer } from '../../../quiz/grade.ts';
import type { GradeResult } from '../protocol.ts';
import { el, heading } from '../dom.ts';
import { choiceView } from './choice.ts';
import type { Ctx, KindView } from './kind.ts';
import { numericView } from './numeric.ts';

export function predictView(ctx: Ctx): KindView {
  const { q, lang, t } = ctx;
  if (q.kind !== 'predict') throw new Error('not a predict question');
  const inner = q.options ? choiceView(ctx) : numericView(ctx);
  return {
    ...inner,
    feedback(r: GradeResult, a: Answer) {
      const parts = inner.feedback(r, a);
      const outputs = r.grade.outputs;
      if (!r.revealed || !outputs?.length) return parts;
      const yours =
        a.kind === 'choice'
          ? a.values.map((x) => q.options?.find((o) => o.value === x)?.label[lang] ?? x).join(', ')
          : a.kind === 'numeric'
            ? `${a.text}${q.unit ? ` ${q.unit[lang]}` : ''}`
            : '';
      const mine = el('div');
      mine.append(heading(t.yourPrediction), el('p', yours));
      const pre = el(
        'pre',
        outputs.map((o) => `$ ${o.command}\n${terminalText(o.output)}`).join('\n'),
      );
      pre.tabIndex = 0;
      const theirs = el('div');
      theirs.append(heading(t.reveal), pre);
      const grid = el('div', undefined, 'quiz-compare');
      grid.append(mine, theirs);
      return [...parts, grid];
    },
  };
}

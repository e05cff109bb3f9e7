// The checks of a what-if or task answer, measured on the learner's own run.
import type { Grade } from '../../../quiz/grade.ts';
import { el, heading } from '../dom.ts';
import { fmt } from '../strings.ts';
import type { Ctx } from './kind.ts';

export function checksList(ctx: Ctx, g: Grade): HTMLElement[] {
  const { lang, t } = ctx;
  if (!g.checks) return [];
  const ul = el('ul', undefined, 'quiz-checks');
  for (const c of g.checks) {
    const li = el('li');
    li.dataset.passed = String(c.passed);
    li.dataset.result = c.passed ? 'correct' : 'wrong';
    li.textContent = `${c.passed ? '✓' : '✗'} ${c.passed ? t.checkPassed : t.checkFailed}: ${c.label[lang]} (${fmt(t.checkWeight, { w: c.weight })}${c.measured !== undefined ? `; ${fmt(t.measured, { value: c.measured })}` : ''})`;
    ul.append(li);
  }
  return [heading(t.checks), ul];
}

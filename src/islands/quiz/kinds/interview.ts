// Interview: a free-text answer, self-assessed against the model answer and rubric, which are
// loaded from the answers file on "Show model answer" (in an interview round, only after it ends).
import type { Answer } from '../../../quiz/grade.ts';
import { loadAnswers } from '../answers-file.ts';
import { el, heading, rich } from '../dom.ts';
import { fmt } from '../strings.ts';
import type { Ctx, KindView } from './kind.ts';

export function interviewView(ctx: Ctx): KindView {
  const { root, t, lang } = ctx;
  const text = ctx.role<HTMLTextAreaElement>('interview');
  const model = ctx.role<HTMLButtonElement>('model');
  const out = ctx.role<HTMLElement>('model-out');
  const check = ctx.role<HTMLButtonElement>('check');

  async function showModel(): Promise<void> {
    if (!out || ctx.interviewMode()) return;
    let answers;
    try {
      answers = await loadAnswers(ctx.id);
    } catch (err) {
      ctx.say(fmt(t.answersFailed, { error: String(err) }), 'invalid');
      return;
    }
    if (!answers.modelAnswer || !answers.rubric) return;
    const fs = el('fieldset', undefined, 'quiz-fieldset');
    fs.append(el('legend', t.rubric));
    const ul = el('ul', undefined, 'quiz-rubric');
    answers.rubric.forEach((r, i) => {
      const box = el('input');
      box.type = 'checkbox';
      box.dataset.rubric = String(i);
      const label = el('label');
      label.append(box, el('span', r[lang]));
      const li = el('li');
      li.append(label);
      ul.append(li);
    });
    fs.append(ul);
    const wrap = el('div', undefined, 'quiz-model');
    const h = heading(t.modelAnswer);
    h.tabIndex = -1;
    wrap.append(h, rich(el('p'), ctx.txt(answers.modelAnswer)), fs);
    out.replaceChildren(wrap);
    if (model) model.hidden = true;
    if (check) check.hidden = false;
    h.focus();
  }
  model?.addEventListener('click', () => void showModel());

  const boxes = () => root.querySelectorAll<HTMLInputElement>('[data-rubric]');
  return {
    answer: (): Answer => ({
      kind: 'interview',
      text: text?.value ?? '',
      ticked: [...boxes()].filter((b) => b.checked).map((b) => Number(b.dataset.rubric)),
      of: boxes().length,
    }),
    show() {},
    reset() {},
    // In an interview round the model answer waits for the debrief.
    buttons(ready, busy) {
      if (model) model.disabled = !ready || busy || ctx.interviewMode();
    },
    feedback: () => [],
  };
}

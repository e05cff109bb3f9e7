// Ordering: Move up / Move down buttons in a list. Question.astro shuffled the items at build,
// never into the key order of the variant it rendered; prepare moves them if the learner's
// variant has that order as its key. A wrong order is told one pair of its own items, by label.
import type { Answer } from '../../../quiz/grade.ts';
import type { GradeResult, Response } from '../protocol.ts';
import { el } from '../dom.ts';
import { fmt } from '../strings.ts';
import type { Ctx, KindView } from './kind.ts';

export function orderingView(ctx: Ctx): KindView {
  const { q, lang, t } = ctx;
  const list = ctx.role<HTMLOListElement>('order');
  const values = () => [...(list?.children ?? [])].map((li) => (li as HTMLElement).dataset.value!);
  const label = (value: string) =>
    q.kind === 'ordering' ? (q.items.find((i) => i.value === value)?.label[lang] ?? value) : value;

  function updateButtons(): void {
    const items = [...(list?.children ?? [])] as HTMLElement[];
    items.forEach((li, i) => {
      li.querySelector<HTMLButtonElement>('[data-move="up"]')!.disabled = i === 0;
      li.querySelector<HTMLButtonElement>('[data-move="down"]')!.disabled = i === items.length - 1;
    });
  }

  function put(order: string[]): void {
    if (!list) return;
    const byValue = new Map(
      [...list.children].map((li) => [(li as HTMLElement).dataset.value!, li]),
    );
    list.append(...order.map((x) => byValue.get(x)!).filter(Boolean));
    updateButtons();
  }

  list?.addEventListener('click', (ev) => {
    const b = (ev.target as Element).closest<HTMLButtonElement>('button[data-move]');
    if (!b || b.disabled || ctx.final()) return;
    const li = b.closest('li')!;
    const up = b.dataset.move === 'up';
    const sibling = up ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    if (up) sibling.before(li);
    else sibling.after(li);
    updateButtons();
    (b.disabled
      ? li.querySelector<HTMLButtonElement>(`[data-move="${up ? 'down' : 'up'}"]`)!
      : b
    ).focus();
    li.classList.add('is-moved');
    setTimeout(() => li.classList.remove('is-moved'), 400);
    // The order is the answer: it changed as a typed answer would.
    ctx.changed();
    const items = [...list.children];
    ctx.say(
      fmt(t.moved, {
        item: li.querySelector('.quiz-order-label')?.textContent ?? '',
        n: items.indexOf(li) + 1,
        total: items.length,
      }),
    );
  });

  return {
    answer: (): Answer => ({ kind: 'ordering', values: values() }),
    show(a) {
      if (a.kind === 'ordering') put(a.values);
    },
    reset() {},
    prepareOrder: values,
    prepared(res: Response) {
      if (res.ok && res.order) put(res.order);
      updateButtons();
    },
    feedback(r: GradeResult) {
      const c = r.grade.contradiction;
      return c
        ? [el('p', fmt(t.orderContradiction, { before: label(c.before), after: label(c.after) }))]
        : [];
    },
  };
}

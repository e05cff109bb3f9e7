// review fills ReviewList: the concepts due now, each with one question on it (a hidden candidate
// revealed with a fresh variant), and the concepts coming up. Time is read once, when the page
// opens.

import { drawVariant } from '../quiz/variant-store.ts';
import { STRINGS, conceptsOf, fill, formatWhen, type ProgressLang } from './strings.ts';

/** mountReviewList wires one ReviewList section. */
export async function mountReviewList(root: HTMLElement): Promise<void> {
  const { lang } = JSON.parse(root.dataset.config ?? '{}') as { lang: ProgressLang };
  const t = STRINGS[lang];
  const [store, progress] = await Promise.all([
    import('./store.ts'),
    import('../../quiz/progress.ts'),
  ]);
  const summary = root.querySelector<HTMLElement>('[data-role="summary"]');
  const dueList = root.querySelector<HTMLOListElement>('[data-role="due"]');
  const upTitle = root.querySelector<HTMLElement>('[data-role="upcoming-title"]');
  const upTable = root.querySelector<HTMLTableElement>('[data-role="upcoming"]');
  if (!summary || !dueList || !upTitle || !upTable) return;

  const now = new Date();
  const { progress: p } = store.load();
  const { due, upcoming } = progress.reviewQueue(p, now);
  const candidates = [...root.querySelectorAll<HTMLElement>('[data-review-candidate]')];
  const used = new Set<HTMLElement>();

  if (due.length === 0) {
    const next = upcoming[0];
    summary.textContent = next
      ? `${t.reviewNothing} ${fill(t.reviewNext, { concept: next.concept, when: formatWhen(next.due, now, lang) })}`
      : t.reviewEmpty;
  } else {
    summary.textContent =
      due.length === 1 ? t.reviewDueOne : fill(t.reviewDueCount, { n: due.length });
  }

  due.forEach((d, i) => {
    const li = document.createElement('li');
    li.dataset.concept = d.concept;
    const h = document.createElement('h3');
    h.id = `review-concept-${i}`;
    h.textContent = d.concept;
    const meta = document.createElement('p');
    meta.className = 'rv-meta';
    meta.textContent = `${fill(t.reviewOverdue, { when: formatWhen(d.due, now, lang) })} · ${t.reviewFresh}`;
    li.append(h, meta);
    // Prefer a question not used yet, and not the one answered most recently for this concept.
    const fits = candidates.filter(
      (c) => !used.has(c) && conceptsOf(c.dataset.concepts).includes(d.concept),
    );
    const lastAt = (c: HTMLElement) => p.questions[c.dataset.reviewCandidate ?? '']?.lastAt ?? '';
    fits.sort((a, b) => lastAt(a).localeCompare(lastAt(b)));
    const pool = fits.filter((c) => lastAt(c) === lastAt(fits[0] as HTMLElement));
    const pick = pool[Math.floor(Math.random() * pool.length)];
    if (pick) {
      used.add(pick);
      const q = pick.querySelector<HTMLElement>('[data-question-id]');
      const last = p.questions[pick.dataset.reviewCandidate ?? '']?.lastVariant;
      // A fresh variant, set before the question's island starts (it starts when on screen).
      q?.setAttribute('data-variant', String(drawVariant(last)));
      li.append(pick);
      pick.hidden = false;
    } else {
      const none = document.createElement('p');
      none.textContent = fill(t.reviewNoQuestion, { concept: d.concept });
      li.append(none);
    }
    dueList.append(li);
  });

  if (upcoming.length) {
    const body = upTable.tBodies[0] ?? upTable.createTBody();
    body.replaceChildren(
      ...upcoming.map((u) => {
        const tr = document.createElement('tr');
        const c = document.createElement('td');
        c.textContent = u.concept;
        const w = document.createElement('td');
        const time = document.createElement('time');
        time.dateTime = u.due.toISOString();
        time.textContent = formatWhen(u.due, now, lang);
        time.title = u.due.toLocaleString(lang);
        w.append(time);
        tr.append(c, w);
        return tr;
      }),
    );
    upTitle.hidden = false;
    upTable.hidden = false;
  }
}

// quiz-set runs a QuizSet: in practice mode a running total of the set's graded answers; in
// interview mode Start, a countdown, and at Finish or when time runs out `quiz:reveal` to every
// question and a debrief. The countdown is shown every second but announced to screen readers at
// most once a minute, and when time is up. A finished round (its results) is kept in
// localStorage under the page and the set, so a reload shows its debrief again; "Start a new
// round" forgets it.

import { STRINGS, fill, formatScore, type ProgressLang, type ProgressStrings } from './strings.ts';

interface Result {
  score: number;
  correct: boolean;
  final?: boolean;
  selfAssessed?: boolean;
  /** detail is the whole `quiz:graded` detail, passed on to progress when the round ends. */
  detail: unknown;
}

/** clockText formats milliseconds left as m:ss. */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** questionRoots lists the set's question roots, one per id, in page order. */
function questionRoots(root: HTMLElement): HTMLElement[] {
  const seen = new Set<string>();
  return [...root.querySelectorAll<HTMLElement>('[data-question-id]')].filter((q) => {
    const id = q.dataset.questionId ?? '';
    if (!id || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** collect keeps the latest graded result of each question in the set. */
function collect(root: HTMLElement, onChange: () => void): Map<string, Result> {
  const results = new Map<string, Result>();
  root.addEventListener('quiz:graded', (e) => {
    const d = (e as CustomEvent<Partial<Result> & { id?: string }>).detail;
    const id =
      d?.id ??
      (e.target as HTMLElement | null)?.closest<HTMLElement>('[data-question-id]')?.dataset
        .questionId;
    if (!id || typeof d?.score !== 'number') return;
    results.set(id, {
      score: d.score,
      correct: Boolean(d.correct),
      final: d.final,
      selfAssessed: d.selfAssessed,
      detail: d,
    });
    onChange();
  });
  return results;
}

/** Stored is a finished interview round as kept in localStorage. */
interface Stored {
  version: 1;
  timeUp: boolean;
  results: [string, Omit<Result, 'detail'>][];
}

/** roundKey is the localStorage key of a set's finished round: the page and the set's heading id. */
export function roundKey(path: string, setId: string): string {
  return `kal:quiz-set:${path}#${setId}`;
}

/** parseRound reads a stored round; anything damaged or of another shape is no round. */
export function parseRound(raw: string | null | undefined): Stored | undefined {
  if (!raw) return undefined;
  try {
    const s = JSON.parse(raw) as Partial<Stored>;
    if (s?.version !== 1 || !Array.isArray(s.results)) return undefined;
    const results = s.results.filter(
      (e): e is [string, Omit<Result, 'detail'>] =>
        Array.isArray(e) && typeof e[0] === 'string' && typeof e[1]?.score === 'number',
    );
    return { version: 1, timeUp: Boolean(s.timeUp), results };
  } catch {
    return undefined;
  }
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const total = (results: Map<string, Result>) =>
  [...results.values()].reduce((s, r) => s + r.score, 0);

/** mountQuizSet wires one QuizSet. */
export function mountQuizSet(root: HTMLElement): void {
  const { lang, minutes } = JSON.parse(root.dataset.config ?? '{}') as {
    lang: ProgressLang;
    minutes: number;
  };
  const t = STRINGS[lang];
  if (root.dataset.mode === 'interview') mountInterview(root, t, lang, minutes);
  else mountPractice(root, t, lang);
}

function mountPractice(root: HTMLElement, t: ProgressStrings, lang: ProgressLang): void {
  const out = root.querySelector<HTMLElement>('[data-role="total"]');
  const results = collect(root, () => {
    if (!out) return;
    const n = questionRoots(root).length;
    out.textContent = fill(t.practiceTotal, {
      answered: results.size,
      n,
      score: formatScore(total(results), lang),
    });
  });
}

function mountInterview(
  root: HTMLElement,
  t: ProgressStrings,
  lang: ProgressLang,
  minutes: number,
): void {
  const $ = <T extends Element>(role: string) => root.querySelector<T>(`[data-role="${role}"]`);
  const start = $<HTMLButtonElement>('start');
  const finish = $<HTMLButtonElement>('finish');
  const clock = $<HTMLElement>('clock');
  const announce = $<HTMLElement>('announce');
  const questions = $<HTMLElement>('questions');
  const debrief = $<HTMLElement>('debrief');
  const again = $<HTMLButtonElement>('again');
  if (!start || !finish || !clock || !announce || !questions || !debrief) return;
  const key = roundKey(location.pathname, root.getAttribute('aria-labelledby') ?? '');
  let timeUpAt = false;
  const save = () => {
    const stored: Stored = {
      version: 1,
      timeUp: timeUpAt,
      results: [...results].map(([id, r]) => [
        id,
        { score: r.score, correct: r.correct, final: r.final, selfAssessed: r.selfAssessed },
      ]),
    };
    try {
      storage()?.setItem(key, JSON.stringify(stored));
    } catch {
      // Full or disabled storage: the debrief lives for this page view only.
    }
  };
  const limit = minutes * 60_000;
  // After the round, an answer still counts (an interview question self-assessed at the debrief,
  // say): the debrief and the stored round follow it.
  const results = collect(root, () => {
    if (root.dataset.state !== 'done') return;
    showDebrief(questionRoots(root), false);
    save();
  });
  let timer: ReturnType<typeof setInterval> | undefined;
  let lastMinute = minutes;
  root.dataset.state = 'ready';

  const end = (timeUp: boolean) => {
    if (root.dataset.state !== 'running') return;
    root.dataset.state = 'done';
    clearInterval(timer);
    finish.hidden = true;
    timeUpAt = timeUp;
    if (again) again.hidden = false;
    if (timeUp) clock.textContent = clockText(0);
    announce.textContent = timeUp ? t.timeUp : t.finished;
    const roots = questionRoots(root);
    for (const q of roots) q.dispatchEvent(new CustomEvent('quiz:reveal'));
    // Answers left with attempts to spare still count as a review of their concepts.
    const open = [...results.values()].filter((r) => !r.final).map((r) => r.detail);
    if (open.length) void import('./store.ts').then((m) => m.closeRounds(open, new Date()));
    showDebrief(roots);
    save();
  };

  const showDebrief = (roots: HTMLElement[], focus = true) => {
    const totalEl = debrief.querySelector<HTMLElement>('[data-role="debrief-total"]');
    const list = debrief.querySelector<HTMLOListElement>('[data-role="debrief-list"]');
    if (totalEl)
      totalEl.textContent = fill(t.totalScore, {
        score: formatScore(total(results), lang),
        total: roots.length,
      });
    list?.replaceChildren(
      ...roots.map((q, i) => {
        const id = q.dataset.questionId ?? '';
        const r = results.get(id);
        const li = document.createElement('li');
        li.dataset.result = r ? (r.correct ? 'correct' : r.score > 0 ? 'partly' : 'wrong') : 'none';
        const verdict = !r
          ? t.notAnswered
          : `${r.correct ? t.resultCorrect : r.score > 0 ? t.resultPartly : t.resultWrong} (${fill(t.resultScore, { score: formatScore(r.score, lang) })}${r.selfAssessed ? `, ${t.selfAssessed}` : ''})`;
        const prompt = q.querySelector('[data-role="prompt"]')?.textContent?.trim();
        const strong = document.createElement('strong');
        strong.textContent = `${fill(t.questionN, { n: i + 1 })}: ${verdict}`;
        li.append(strong);
        if (prompt) li.append(document.createTextNode(` ${prompt} `));
        // Replay: a link to the question, whose feedback now shows.
        const target = q.id || q.querySelector<HTMLElement>('[id]')?.id;
        if (target) {
          const a = document.createElement('a');
          a.href = `#${target}`;
          a.textContent = fill(t.goTo, { n: i + 1 });
          a.addEventListener('click', (e) => {
            e.preventDefault();
            q.scrollIntoView({ block: 'start' });
            const focusable = q.querySelector<HTMLElement>('[data-role="feedback"]') ?? q;
            if (!focusable.hasAttribute('tabindex')) focusable.setAttribute('tabindex', '-1');
            focusable.focus({ preventScroll: true });
            history.replaceState(null, '', `#${target}`);
          });
          li.append(a);
        }
        return li;
      }),
    );
    debrief.hidden = false;
    if (focus) debrief.querySelector<HTMLElement>('h3')?.focus();
  };

  again?.addEventListener('click', () => {
    try {
      storage()?.removeItem(key);
    } catch {
      // Nothing stored to forget.
    }
    location.reload();
  });

  // A round finished before this page view: its debrief again, and the questions open.
  const restored = parseRound(storage()?.getItem(key));
  if (restored) {
    for (const [id, r] of restored.results) results.set(id, { ...r, detail: undefined });
    root.dataset.state = 'done';
    timeUpAt = restored.timeUp;
    start.hidden = true;
    questions.hidden = false;
    if (again) again.hidden = false;
    if (restored.timeUp) clock.textContent = clockText(0);
    announce.textContent = t.restored;
    debrief.querySelector('[data-role="restored"]')?.remove();
    const note = document.createElement('p');
    note.dataset.role = 'restored';
    note.textContent = t.restored;
    debrief.querySelector('h3')?.after(note);
    showDebrief(questionRoots(root), false);
    return;
  }

  start.disabled = false;
  start.addEventListener('click', () => {
    if (root.dataset.state !== 'ready') return;
    root.dataset.state = 'running';
    const startedAt = Date.now();
    start.hidden = true;
    finish.hidden = false;
    questions.hidden = false;
    announce.textContent = fill(t.started, { minutes });
    const tick = () => {
      const left = limit - (Date.now() - startedAt);
      clock.textContent = clockText(left);
      if (left <= 0) return end(true);
      // Announce each whole minute as it passes, not every second.
      const m = Math.ceil(left / 60_000);
      if (m < lastMinute) {
        lastMinute = m;
        announce.textContent = m === 1 ? t.oneMinuteLeft : fill(t.minutesLeft, { n: m });
      }
    };
    timer = setInterval(tick, 1000);
    tick();
    questions
      .querySelector<HTMLElement>('[data-question-id]')
      ?.scrollIntoView({ block: 'nearest' });
    finish.focus();
  });
  finish.addEventListener('click', () => end(false));
}

// The quiz island: wires one question that Question.astro rendered to the quiz worker all
// questions on the page share. The worker computes the key and grades; the island collects the
// answer from native form controls and shows the feedback. Learner input, question texts and
// command output are only ever set as text, never as HTML.
//
// Contract for progress storage, review and interview mode (another island builds on it):
// - after each graded submission the root dispatches a bubbling `quiz:graded` CustomEvent
//   (detail: GradedDetail);
// - inside [data-quiz-set][data-mode="interview"] feedback is held back until a `quiz:reveal`
//   event reaches the root;
// - a `data-variant` attribute on the root forces the variant.

import type { Answer, Grade, Variant } from '../../quiz/grade.ts';
import type { Fact } from '../../quiz/evidence.ts';
import { parseNumber } from '../../quiz/number.ts';
import { evidenceTimeline } from './evidence-svg.ts';
import type { Question, Text } from '../../quiz/schema.ts';
import type { GradeResult, Payload, RequestBody, Response } from './protocol.ts';
import {
  STRINGS,
  codeSegments,
  fmt,
  quizLang,
  type QuizLang,
  type QuizStrings,
} from './strings.ts';
import { WorkerClient } from '../shared/worker-client.ts';
import { drawVariant, parseVariant, saveVariant, storedVariant } from './variant-store.ts';
import { ANSWERS_DIR, type Answers } from '../../quiz/answers.ts';

const answersFiles = new Map<string, Promise<Answers>>();

/**
 * loadAnswers fetches a question's answers file (the explanation, model answer, example solution),
 * once the key is revealed: the page itself never carries them.
 */
function loadAnswers(id: string): Promise<Answers> {
  let p = answersFiles.get(id);
  if (!p) {
    const base = import.meta.env.BASE_URL.replace(/\/?$/, '/');
    p = fetch(`${base}${ANSWERS_DIR}/${encodeURIComponent(id)}.json`).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.json() as Promise<Answers>;
    });
    p.catch(() => answersFiles.delete(id));
    answersFiles.set(id, p);
  }
  return p;
}

/** GradedDetail is the detail of the `quiz:graded` event. */
export interface GradedDetail {
  id: string;
  lesson: string;
  concepts: string[];
  /** score is the fraction of the points earned after hint costs, 0 to 1. */
  score: number;
  correct: boolean;
  variant: number;
  /** attempt counts graded submissions of this variant, from 1. */
  attempt: number;
  /** final: correct, or no attempts left (or a self-assessment). */
  final: boolean;
  selfAssessed: boolean;
}

/** Client is the shared worker client, typed with the quiz worker's protocol. */
type Client = WorkerClient<RequestBody, Response>;

/**
 * The page's quiz workers, each started on first use: one grades against computed keys, the
 * other runs the scenario with learners' answers (what-if and task questions). A Check on a
 * key-based question then never waits behind a neighbour's simulator run, and answer runs use the
 * machine's second core.
 */
const workers: { keys?: Client; runs?: Client } = {};

/** client returns the worker for a question kind. */
function client(kind: string): Client {
  const which = kind === 'what-if' || kind === 'task' ? 'runs' : 'keys';
  return (workers[which] ??= new WorkerClient<RequestBody, Response>(
    new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }),
  ));
}

/** answerKey names an answer to a variant, to tell whether a result graded ahead is still current. */
function answerKey(v: number, answer: unknown, reveal: boolean): string {
  return `${v}#${reveal}#${JSON.stringify(answer)}`;
}

/** substitute fills {{name}} placeholders (grade.ts's substitute, without loading the simulator). */
function substitute(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*([a-zA-Z][a-zA-Z0-9]*)\s*\}\}/g, (m, name: string) =>
    name in values ? String(values[name]) : m,
  );
}

/** formatSeconds prints measured seconds without float noise. */
function formatSeconds(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/** rich builds inline content from a text: `backticks` become <code>, everything else text. */
function rich(parent: HTMLElement, text: string): HTMLElement {
  parent.replaceChildren();
  for (const s of codeSegments(text)) {
    if (!s.code) parent.append(s.text);
    else {
      const c = document.createElement('code');
      c.textContent = s.text;
      parent.append(c);
    }
  }
  return parent;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  cls?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

const percent = (x: number) => Math.round(x * 100);

/** mount starts the island on one rendered Question. */
export function mount(root: HTMLElement): void {
  if (root.dataset.mounted) return;
  root.dataset.mounted = 'true';
  let payload: Payload;
  try {
    payload = JSON.parse(
      root.querySelector('script[data-role="payload"]')?.textContent ?? '',
    ) as Payload;
  } catch {
    return;
  }
  const q: Question = payload.question;
  const lang: QuizLang = quizLang(root.closest('[lang]')?.getAttribute('lang'));
  const t: QuizStrings = STRINGS[lang];
  const role = <T extends Element>(r: string) => root.querySelector<T>(`[data-role="${r}"]`);
  const ui = {
    prompt: role<HTMLElement>('prompt')!,
    form: role<HTMLFormElement>('form')!,
    state: role<HTMLElement>('state')!,
    live: role<HTMLElement>('live')!,
    feedback: role<HTMLElement>('feedback')!,
    hints: role<HTMLOListElement>('hints')!,
    attempts: role<HTMLElement>('attempts')!,
    check: role<HTMLButtonElement>('check')!,
    hint: role<HTMLButtonElement>('hint'),
    solution: role<HTMLButtonElement>('solution'),
    another: role<HTMLButtonElement>('another'),
    run: role<HTMLButtonElement>('run'),
    console: role<HTMLPreElement>('console'),
    order: role<HTMLOListElement>('order'),
    number: role<HTMLInputElement>('number'),
    commands: role<HTMLTextAreaElement>('commands'),
    interview: role<HTMLTextAreaElement>('interview'),
    model: role<HTMLButtonElement>('model'),
    modelOut: role<HTMLElement>('model-out'),
  };
  const concepts = q.concepts;
  const maxAttempts = q.maxAttempts;
  // Read at each submission: an interview-mode set may wrap the question after it mounted. Once
  // the round is over (quiz:reveal, or a set restored as done) the question is answered as usual.
  let roundOver = false;
  const interviewMode = () =>
    !roundOver &&
    Boolean(root.closest('[data-quiz-set][data-mode="interview"]:not([data-state="done"])'));
  /**
   * revealNext says whether the next graded answer may show the key (the question's `reveal`):
   * in an interview round (held until the debrief), as a worked example, or on the last attempt.
   */
  const revealNext = () =>
    interviewMode() ||
    q.reveal === 'after-each-attempt' ||
    (q.reveal !== 'on-request' && maxAttempts > 0 && attempts + 1 >= maxAttempts);

  let forced = parseVariant(root.dataset.variant);
  let v = forced ?? storedVariant(payload.id);
  let variant: Variant | undefined;
  let attempts = 0;
  let hintsShown = 0;
  let final = false;
  let busy = false;
  let held: (() => void) | undefined;
  let submissions = 0;
  let lastCorrect = false;
  let solutionShown = false;
  /** revealed: the key has been shown (a right answer, the last attempt, the solution, the debrief). */
  let revealed = false;

  const params = () => variant?.params ?? {};
  const txt = (x: Text, values: Record<string, string | number> = params()) =>
    substitute(x[lang], values);
  const rubricSize = () => root.querySelectorAll('[data-rubric]').length || 1;
  const hintCost = () => q.hints.slice(0, hintsShown).reduce((s, h) => s + h.cost, 0);

  function setLive(message: string, result?: string): void {
    ui.live.textContent = message;
    if (result) ui.live.dataset.result = result;
    else delete ui.live.dataset.result;
  }

  function setBusy(on: boolean): void {
    busy = on;
    root.dataset.busy = String(on);
    updateButtons();
  }

  function updateButtons(): void {
    const ready = variant !== undefined;
    ui.check.disabled = !ready || busy || final;
    if (ui.hint) {
      const next = q.hints[hintsShown];
      ui.hint.disabled = !ready || busy || !next || final;
      ui.hint.textContent = !next
        ? t.noMoreHints
        : next.cost > 0
          ? fmt(t.hintCost, { cost: percent(next.cost) })
          : t.hintFree;
    }
    if (ui.solution) {
      const available =
        !solutionShown &&
        !lastCorrect &&
        (maxAttempts === 0 ? attempts > 0 : attempts >= maxAttempts);
      ui.solution.hidden = !available;
      ui.solution.disabled = !ready || busy;
    }
    if (ui.another) ui.another.disabled = !ready || busy;
    if (ui.run) ui.run.disabled = !ready || busy;
    // In an interview round the model answer waits for the debrief.
    if (ui.model) ui.model.disabled = !ready || busy || interviewMode();
    ui.attempts.textContent =
      q.kind === 'interview' || attempts === 0
        ? ''
        : maxAttempts === 0
          ? fmt(t.attemptsUnlimited, { n: attempts })
          : fmt(t.attempts, { n: attempts, max: maxAttempts });
  }

  // ---- answers ----

  function answer(): Answer {
    switch (q.kind) {
      case 'choice':
      case 'predict':
        if (q.kind === 'choice' || q.options)
          return {
            kind: 'choice',
            values: [...root.querySelectorAll<HTMLInputElement>('[data-option] input:checked')].map(
              (i) => i.value,
            ),
          };
        return { kind: 'numeric', text: ui.number?.value ?? '' };
      case 'numeric':
        return { kind: 'numeric', text: ui.number?.value ?? '' };
      case 'ordering':
        return {
          kind: 'ordering',
          values: [...(ui.order?.children ?? [])].map((li) => (li as HTMLElement).dataset.value!),
        };
      case 'matching': {
        const pairs: Record<string, string> = {};
        for (const s of root.querySelectorAll<HTMLSelectElement>('select[data-left]'))
          if (s.value) pairs[s.dataset.left!] = s.value;
        return { kind: 'matching', pairs };
      }
      case 'what-if': {
        const p: Record<string, string> = {};
        for (const i of root.querySelectorAll<HTMLInputElement>('input[data-param]'))
          p[i.dataset.param!] = i.value;
        return { kind: 'what-if', params: p };
      }
      case 'task':
        return { kind: 'task', commands: ui.commands?.value ?? '' };
      case 'interview':
        return {
          kind: 'interview',
          text: ui.interview?.value ?? '',
          ticked: [...root.querySelectorAll<HTMLInputElement>('[data-rubric]:checked')].map((i) =>
            Number(i.dataset.rubric),
          ),
          of: root.querySelectorAll('[data-rubric]').length,
        };
    }
  }

  /** show puts an answer (the solution) into the controls. */
  function show(a: Answer): void {
    if (a.kind === 'choice')
      for (const i of root.querySelectorAll<HTMLInputElement>('[data-option] input'))
        i.checked = a.values.includes(i.value);
    if (a.kind === 'numeric' && ui.number) ui.number.value = a.text;
    if (a.kind === 'ordering' && ui.order) {
      const items = new Map(
        [...ui.order.children].map((li) => [(li as HTMLElement).dataset.value!, li]),
      );
      ui.order.append(...a.values.map((x) => items.get(x)!).filter(Boolean));
      updateOrderButtons();
    }
    if (a.kind === 'matching')
      for (const s of root.querySelectorAll<HTMLSelectElement>('select[data-left]'))
        s.value = a.pairs[s.dataset.left!] ?? '';
    if (a.kind === 'what-if')
      for (const i of root.querySelectorAll<HTMLInputElement>('input[data-param]'))
        i.value = a.params[i.dataset.param!] ?? i.value;
    if (a.kind === 'task' && ui.commands) ui.commands.value = a.commands;
  }

  function resetControls(): void {
    for (const i of root.querySelectorAll<HTMLInputElement>('[data-option] input'))
      i.checked = false;
    if (ui.number) ui.number.value = '';
    for (const s of root.querySelectorAll<HTMLSelectElement>('select[data-left]')) s.value = '';
    for (const i of root.querySelectorAll<HTMLInputElement>('input[data-param]'))
      i.value = i.defaultValue;
    for (const m of root.querySelectorAll<HTMLElement>(
      '[data-role="mark"], [data-role="option-feedback"]',
    )) {
      m.textContent = '';
      delete m.dataset.mark;
    }
    if (ui.console) {
      ui.console.textContent = '';
      ui.console.hidden = true;
    }
    ui.feedback.replaceChildren();
    ui.hints.replaceChildren();
    ui.hints.hidden = true;
    setLive('');
  }

  // ---- ordering ----

  function updateOrderButtons(): void {
    if (!ui.order) return;
    const items = [...ui.order.children] as HTMLElement[];
    items.forEach((li, i) => {
      li.querySelector<HTMLButtonElement>('[data-move="up"]')!.disabled = i === 0;
      li.querySelector<HTMLButtonElement>('[data-move="down"]')!.disabled = i === items.length - 1;
    });
  }

  /** currentOrder is the order the items are shown in (Question.astro shuffled them at build). */
  function currentOrder(): string[] | undefined {
    if (!ui.order) return undefined;
    return [...ui.order.children].map((li) => (li as HTMLElement).dataset.value!);
  }

  /** orderItems moves the items into an order the worker chose (never the variant's key order). */
  function orderItems(order: string[]): void {
    if (!ui.order) return;
    const items = [...ui.order.children] as HTMLElement[];
    const byValue = new Map(items.map((li) => [li.dataset.value!, li]));
    ui.order.append(...order.map((x) => byValue.get(x)!).filter(Boolean));
    updateOrderButtons();
  }

  ui.order?.addEventListener('click', (ev) => {
    const b = (ev.target as Element).closest<HTMLButtonElement>('button[data-move]');
    if (!b || b.disabled || final) return;
    const li = b.closest('li')!;
    const up = b.dataset.move === 'up';
    const sibling = up ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    if (up) sibling.before(li);
    else sibling.after(li);
    updateOrderButtons();
    (b.disabled
      ? li.querySelector<HTMLButtonElement>(`[data-move="${up ? 'down' : 'up'}"]`)!
      : b
    ).focus();
    li.classList.add('is-moved');
    setTimeout(() => li.classList.remove('is-moved'), 400);
    // The order is the answer: it changed as a typed answer would (graded ahead below).
    ui.form.dispatchEvent(new Event('input'));
    const items = [...ui.order!.children];
    setLive(
      fmt(t.moved, {
        item: li.querySelector('.quiz-order-label')?.textContent ?? '',
        n: items.indexOf(li) + 1,
        total: items.length,
      }),
    );
  });

  // ---- feedback ----

  function heading(text: string): HTMLHeadingElement {
    return el('h3', text);
  }

  function resultMessage(g: Grade, score: number): { text: string; result: string } {
    if (g.selfAssessed)
      return {
        text: fmt(t.selfRecorded, {
          n: Math.round(g.score * rubricSize()),
          total: rubricSize(),
        }),
        result: 'recorded',
      };
    const parts: string[] = [];
    let result: string;
    if (g.correct) {
      parts.push(t.correct);
      result = 'correct';
    } else if (g.score > 0) {
      parts.push(fmt(t.partly, { score: percent(g.score) }));
      result = 'partly';
    } else {
      parts.push(t.wrong);
      result = 'wrong';
    }
    if (hintCost() > 0) parts.push(fmt(t.scoreAfterHints, { score: percent(score) }));
    if (!g.correct && maxAttempts > 0 && !roundOver)
      parts.push(
        attempts >= maxAttempts
          ? t.noAttemptsLeft
          : maxAttempts - attempts === 1
            ? t.attemptLeft
            : fmt(t.attemptsLeft, { n: maxAttempts - attempts }),
      );
    if (!g.correct && !revealed && !final && maxAttempts > 0)
      parts.push(q.reveal === 'on-request' ? t.keyOnRequest : t.keyLater);
    // Japanese sentences follow each other without a space (each ends in 。).
    return { text: parts.join(lang === 'ja' ? '' : ' '), result };
  }

  function renderOptions(g: Grade, values: Record<string, string | number>): void {
    if (!g.options || !('options' in q) || !q.options) return;
    for (const li of root.querySelectorAll<HTMLElement>('[data-option]')) {
      const value = li.dataset.option!;
      const mark = li.querySelector<HTMLElement>('[data-role="mark"]')!;
      const fb = li.querySelector<HTMLElement>('[data-role="option-feedback"]')!;
      const m = g.options[value];
      const o = q.options.find((x) => x.value === value);
      mark.textContent =
        m === 'right'
          ? `✓ ${t.right}`
          : m === 'wrong'
            ? `✗ ${t.wrongMark}`
            : m === 'missed'
              ? `○ ${t.missed}`
              : '';
      if (m) mark.dataset.mark = m;
      else delete mark.dataset.mark;
      if (m && m !== 'missed' && o?.feedback) rich(fb, txt(o.feedback, values));
      else if (m === 'wrong') fb.textContent = t.optionNotInRun;
      else fb.textContent = '';
    }
  }

  /** renderRows marks each row of a matching answer, right or wrong (the learner's own rows). */
  function renderRows(g: Grade): void {
    for (const row of root.querySelectorAll<HTMLElement>('.quiz-matching [data-left]')) {
      if (row.tagName === 'SELECT') continue;
      const mark = row.querySelector<HTMLElement>('[data-role="mark"]');
      const m = g.rows?.[row.dataset.left!];
      if (!mark) continue;
      mark.textContent = m === 'right' ? `✓ ${t.right}` : m === 'wrong' ? `✗ ${t.wrongMark}` : '';
      if (m) mark.dataset.mark = m;
      else delete mark.dataset.mark;
    }
  }

  const itemLabel = (value: string) =>
    q.kind === 'ordering' ? (q.items.find((i) => i.value === value)?.label[lang] ?? value) : value;

  function renderFeedback(r: GradeResult, a: Answer): void {
    const g = r.grade;
    const parts: HTMLElement[] = [];
    renderOptions(g, r.values);
    renderRows(g);
    if (g.direction) parts.push(el('p', g.direction === 'high' ? t.tooHigh : t.tooLow));
    if (g.contradiction)
      parts.push(
        el(
          'p',
          fmt(t.orderContradiction, {
            before: itemLabel(g.contradiction.before),
            after: itemLabel(g.contradiction.after),
          }),
        ),
      );
    if (g.rejected)
      parts.push(
        el('p', fmt(t.rejected, { command: g.rejected.command, message: g.rejected.message })),
      );
    if (g.checks) {
      const ul = el('ul', undefined, 'quiz-checks');
      for (const c of g.checks) {
        const li = el('li');
        li.dataset.passed = String(c.passed);
        li.dataset.result = c.passed ? 'correct' : 'wrong';
        li.textContent = `${c.passed ? '✓' : '✗'} ${c.passed ? t.checkPassed : t.checkFailed}: ${c.label[lang]} (${fmt(t.checkWeight, { w: c.weight })}${c.measured !== undefined ? `; ${fmt(t.measured, { value: c.measured })}` : ''})`;
        ul.append(li);
      }
      parts.push(heading(t.checks), ul);
    }
    if (q.kind === 'predict' && r.revealed && g.outputs?.length) {
      const grid = el('div', undefined, 'quiz-compare');
      const mine = el('div');
      const yours =
        a.kind === 'choice'
          ? a.values.map((x) => q.options?.find((o) => o.value === x)?.label[lang] ?? x).join(', ')
          : a.kind === 'numeric'
            ? `${a.text}${q.unit ? ` ${q.unit[lang]}` : ''}`
            : '';
      mine.append(heading(t.yourPrediction), el('p', yours));
      const theirs = el('div');
      const pre = el(
        'pre',
        g.outputs.map((o) => `$ ${o.command}\n${o.output.stdout}${o.output.stderr}`).join('\n'),
      );
      pre.tabIndex = 0;
      theirs.append(heading(t.reveal), pre);
      grid.append(mine, theirs);
      parts.push(grid);
    }
    if (q.kind === 'task' && g.outputs && ui.console) printOutputs(g.outputs);
    if ((!g.correct || q.kind === 'what-if') && r.evidence?.length)
      parts.push(...renderEvidence(r.evidence, a));
    ui.feedback.replaceChildren(...parts);
    if (final && r.revealed) void appendExplanation(r.values, r.answerText);
  }

  /** appendExplanation loads the explanation from the answers file and shows it, filled in. */
  async function appendExplanation(
    values: Record<string, string | number>,
    answerText?: Text,
  ): Promise<void> {
    const forV = v;
    let answers: Answers;
    try {
      answers = await loadAnswers(payload.id);
    } catch (err) {
      ui.feedback.append(el('p', fmt(t.answersFailed, { error: String(err) })));
      return;
    }
    if (forV !== v || !answers.explanation) return;
    const filled = answerText ? { ...values, answer: answerText[lang] } : values;
    ui.feedback.append(heading(t.explanation), rich(el('p'), txt(answers.explanation, filled)));
    root.dataset.explained = 'true';
  }

  function renderEvidence(facts: Fact[], a: Answer): HTMLElement[] {
    const ol = el('ol', undefined, 'quiz-evidence');
    for (const f of facts)
      ol.append(el('li', `${formatSeconds(f.t)} ${t.secondsUnit} — ${f.text[lang]}`));
    // A numeric answer about a duration is drawn next to what the simulator measured.
    const measure = 'measure' in q ? q.measure : undefined;
    const n = a.kind === 'numeric' ? (parseNumber(a.text) ?? NaN) : NaN;
    const said =
      measure &&
      'duration' in measure &&
      Number.isFinite(n) &&
      n >= 0 &&
      n < 1e6 &&
      facts.length >= 2
        ? {
            seconds: n,
            label: fmt(t.youSaid, { value: formatSeconds(n) }),
            simLabel: fmt(t.simulatorSaid, {
              value: formatSeconds(facts[facts.length - 1]!.t - facts[0]!.t),
            }),
          }
        : undefined;
    const svg = evidenceTimeline(facts, t.secondsUnit, said);
    const figure = el('figure', undefined, 'quiz-evidence-figure');
    if (svg) figure.append(svg);
    figure.append(ol);
    return [heading(t.evidence), el('p', fmt(t.evidenceHelp, { variant: v })), figure];
  }

  function printOutputs(outputs: NonNullable<Grade['outputs']>): void {
    if (!ui.console) return;
    ui.console.hidden = false;
    ui.console.textContent = outputs
      .map((o) => `$ ${o.command}\n${o.output.stdout}${o.output.stderr}`)
      .join('\n');
  }

  function emit(detail: GradedDetail): void {
    root.dispatchEvent(new CustomEvent<GradedDetail>('quiz:graded', { bubbles: true, detail }));
  }

  // The end of an interview round: the attempts are over and the held feedback, key included, shows.
  root.addEventListener('quiz:reveal', () => {
    roundOver = true;
    if (attempts > 0) final = true;
    const show = held;
    held = undefined;
    show?.();
    updateButtons();
  });

  // ---- actions ----

  async function ask(body: RequestBody, underWay?: Promise<Response>): Promise<Response> {
    setBusy(true);
    try {
      return await (underWay ?? client(q.kind).call(body));
    } catch (err) {
      return { id: 0, ok: false, error: err instanceof Error ? err.message : String(err) };
    } finally {
      setBusy(false);
    }
  }

  async function submit(): Promise<void> {
    if (!variant || busy || final) return;
    const a = answer();
    const forV = v;
    setLive(t.checking);
    const started = performance.now();
    // An answer graded ahead is shown as it is: grading is a pure function of the question, the
    // variant and the answer, so asking the worker again would only add its queue. An answer whose
    // grading ahead is still under way waits for that reply instead of queueing a second request.
    const reveal = revealNext();
    const key = answerKey(forV, a, reveal);
    const ready = gradedAhead?.key === key ? gradedAhead.result : undefined;
    const underWay = !ready && aheadUnderWay?.key === key ? aheadUnderWay.reply : undefined;
    const res: Response = ready
      ? { id: 0, ok: true, result: { ...ready, ms: 0 } }
      : await ask({ type: 'grade', qid: payload.id, v: forV, answer: a, reveal }, underWay);
    const ms = performance.now() - started;
    if (forV !== v) return;
    root.dataset.gradeMs = ms.toFixed(1);
    root.dataset.submissions = String(++submissions);
    if (!res.ok || !res.result) {
      setLive(fmt(t.error, { error: res.ok ? 'no result' : res.error }), 'invalid');
      return;
    }
    const r = res.result;
    root.dataset.workerMs = r.ms.toFixed(1);
    const g = r.grade;
    if (g.invalid) {
      root.dataset.result = 'invalid';
      setLive(fmt(t.invalidPrefix, { message: g.invalid[lang] }), 'invalid');
      return;
    }
    attempts++;
    lastCorrect = g.correct;
    const score = Math.max(0, g.score * (1 - hintCost()));
    final = g.correct || Boolean(g.selfAssessed) || (maxAttempts > 0 && attempts >= maxAttempts);
    const show = () => {
      if (r.revealed) revealed = true;
      const msg = resultMessage(g, score);
      root.dataset.result = msg.result;
      root.dataset.revealed = String(revealed);
      setLive(msg.text, msg.result);
      renderFeedback(r, a);
    };
    if (interviewMode()) {
      held = show;
      root.dataset.result = 'recorded';
      setLive(t.recorded);
    } else show();
    root.dataset.attempt = String(attempts);
    updateButtons();
    emit({
      id: payload.id,
      lesson: payload.lesson ?? '',
      concepts,
      score,
      correct: g.correct,
      variant: v,
      attempt: attempts,
      final,
      selfAssessed: Boolean(g.selfAssessed),
    });
  }

  async function showSolution(): Promise<void> {
    if (!variant || busy) return;
    const res = await ask({ type: 'solution', qid: payload.id, v });
    if (!res.ok) return setLive(fmt(t.error, { error: res.error }), 'invalid');
    let answers: Answers;
    try {
      answers = await loadAnswers(payload.id);
    } catch (err) {
      return setLive(fmt(t.answersFailed, { error: String(err) }), 'invalid');
    }
    final = true;
    solutionShown = true;
    revealed = true;
    root.dataset.revealed = 'true';
    const solution = res.solution ?? answers.example;
    if (solution) show(solution);
    const parts: HTMLElement[] = [heading(t.solutionHeading), el('p', t.solutionShown)];
    if (res.evidence?.length) parts.push(...renderEvidence(res.evidence, answer()));
    if (answers.explanation) {
      const values = res.values ?? params();
      const filled = res.answerText ? { ...values, answer: res.answerText[lang] } : values;
      parts.push(heading(t.explanation), rich(el('p'), txt(answers.explanation, filled)));
    }
    ui.feedback.replaceChildren(...parts);
    root.dataset.solution = 'shown';
    updateButtons();
    ui.feedback.querySelector('h3')?.setAttribute('tabindex', '-1');
    ui.feedback.querySelector<HTMLElement>('h3')?.focus();
  }

  function showHint(): void {
    const h = q.hints[hintsShown];
    if (!h) return;
    hintsShown++;
    const li = el('li');
    rich(li, txt(h));
    if (h.cost > 0) li.append(` (−${percent(h.cost)}%)`);
    ui.hints.hidden = false;
    ui.hints.append(li);
    setLive(`${fmt(t.hintN, { n: hintsShown })}: ${li.textContent ?? ''}`);
    updateButtons();
    if (ui.hint?.disabled) ui.check.focus();
  }

  /** afterPrepare runs once a variant is ready (it grades the starting answer ahead). */
  let afterPrepare: (() => void) | undefined;
  /** gradedAhead is the last answer the worker graded ahead, with its result. */
  let gradedAhead: { key: string; result: GradeResult } | undefined;
  /** aheadUnderWay is the answer being graded ahead, with the worker's reply to come. */
  let aheadUnderWay: { key: string; reply: Promise<Response> } | undefined;

  async function prepare(): Promise<void> {
    variant = undefined;
    root.dataset.ready = 'false';
    ui.state.textContent = t.preparing;
    updateButtons();
    const res = await ask({ type: 'prepare', payload, v, order: currentOrder() });
    if (!res.ok || !res.variant) {
      ui.state.textContent = fmt(t.failed, { error: res.ok ? 'no variant' : res.error });
      return;
    }
    variant = res.variant;
    root.dataset.variant = String(v);
    rich(ui.prompt, txt(q.prompt));
    if (res.order) orderItems(res.order);
    updateOrderButtons();
    ui.state.textContent = fmt(t.ready, { variant: v });
    root.dataset.ready = 'true';
    updateButtons();
    afterPrepare?.();
  }

  async function anotherVariant(): Promise<void> {
    if (busy) return;
    v = drawVariant(v);
    if (forced === undefined) saveVariant(payload.id, v);
    forced = undefined;
    attempts = 0;
    hintsShown = 0;
    final = false;
    lastCorrect = false;
    solutionShown = false;
    revealed = false;
    held = undefined;
    delete root.dataset.revealed;
    delete root.dataset.explained;
    delete root.dataset.result;
    delete root.dataset.solution;
    delete root.dataset.attempt;
    resetControls();
    await prepare();
    ui.prompt.setAttribute('tabindex', '-1');
    ui.prompt.focus();
  }

  async function runCommands(): Promise<void> {
    if (!ui.commands || !variant) return;
    ui.console!.hidden = false;
    ui.console!.textContent = t.running;
    const res = await ask({ type: 'console', qid: payload.id, v, commands: ui.commands.value });
    if (!res.ok) ui.console!.textContent = fmt(t.error, { error: res.error });
    else printOutputs(res.outputs ?? []);
  }

  async function showModel(): Promise<void> {
    if (q.kind !== 'interview' || !ui.modelOut || interviewMode()) return;
    let answers: Answers;
    try {
      answers = await loadAnswers(payload.id);
    } catch (err) {
      setLive(fmt(t.answersFailed, { error: String(err) }), 'invalid');
      return;
    }
    if (!answers.modelAnswer || !answers.rubric) return;
    const wrap = el('div', undefined, 'quiz-model');
    const fs = el('fieldset', undefined, 'quiz-fieldset');
    fs.append(el('legend', t.rubric));
    const ul = el('ul', undefined, 'quiz-rubric');
    answers.rubric.forEach((r, i) => {
      const li = el('li');
      const label = el('label');
      const box = el('input');
      box.type = 'checkbox';
      box.dataset.rubric = String(i);
      label.append(box, el('span', r[lang]));
      li.append(label);
      ul.append(li);
    });
    fs.append(ul);
    wrap.append(heading(t.modelAnswer), rich(el('p'), txt(answers.modelAnswer)), fs);
    ui.modelOut.replaceChildren(wrap);
    ui.model!.hidden = true;
    ui.check.hidden = false;
    wrap.querySelector('h3')!.setAttribute('tabindex', '-1');
    wrap.querySelector<HTMLElement>('h3')!.focus();
  }

  // Every answer is graded ahead, so that Check usually finds its result ready (nothing is shown
  // until Check). Key-based answers are compared with the key worked out at prepare, a fraction
  // of a millisecond in the worker, so each change is sent at once. What-if and task answers are
  // graded by a simulator run, so they are sent once the learner pauses over an answer (the
  // worker keeps the last few results).
  {
    const runs = q.kind === 'what-if' || q.kind === 'task';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let latest = 0;
    const speculate = async (): Promise<void> => {
      if (!variant || final) return;
      const a = answer();
      const reveal = revealNext();
      const key = answerKey(v, a, reveal);
      if (gradedAhead?.key === key) {
        root.dataset.gradedAhead = 'true';
        return;
      }
      if (aheadUnderWay?.key === key) return;
      const mine = ++latest;
      const reply = client(q.kind).call({
        type: 'speculate',
        qid: payload.id,
        v,
        answer: a,
        reveal,
      });
      aheadUnderWay = { key, reply };
      const res = await reply;
      if (aheadUnderWay?.reply === reply) aheadUnderWay = undefined;
      if (res.ok && res.result) gradedAhead = { key, result: res.result };
      // data-graded-ahead tells tests (and nothing else) that Check will find the result ready.
      if (res.ok && mine === latest && key === answerKey(v, answer(), revealNext()))
        root.dataset.gradedAhead = 'true';
    };
    ui.form.addEventListener('input', () => {
      root.dataset.gradedAhead = 'false';
      clearTimeout(timer);
      if (runs) timer = setTimeout(() => void speculate(), q.kind === 'task' ? 400 : 150);
      else void speculate();
    });
    // The answer the form starts with is graded ahead as soon as the variant is ready. Besides
    // having that answer ready, a what-if or task run warms the worker's simulator code, so that
    // the first answer the learner types is graded by compiled code rather than by the interpreter.
    afterPrepare = () => void speculate();
  }

  ui.form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void submit();
  });
  ui.hint?.addEventListener('click', showHint);
  ui.solution?.addEventListener('click', () => void showSolution());
  ui.another?.addEventListener('click', () => void anotherVariant());
  ui.run?.addEventListener('click', () => void runCommands());
  ui.model?.addEventListener('click', () => void showModel());

  void prepare();
}

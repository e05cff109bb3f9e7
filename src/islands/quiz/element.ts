// <quiz-question>: the quiz island, a custom element (as Starlight writes <starlight-tabs>) around
// the static HTML Question.astro rendered. It starts when it scrolls into view, and wires that
// question to the quiz worker all questions on the page share: the worker computes the key and
// grades; the element collects the answer through its kind's module (./kinds/) and shows the
// feedback. Attempts, hints, the result line, "What the cluster did", the explanation and the
// solution are handled here, once for every kind. Learner input, question texts and command output
// are only ever set as text, never as HTML.
//
// While attempts remain, feedback says only what is wrong about the learner's own answer; the key
// comes with a right answer, after the last attempt, on Show solution or in an interview round's
// debrief, as the question's `reveal` says (src/quiz/schema.ts). The worker enforces it: without
// `reveal` in the request, its result carries nothing of the key (protocol.ts GradeResult).
//
// Contract for progress storage, review and interview mode (src/islands/progress builds on it):
// - after each graded submission the question's <section> dispatches a bubbling `quiz:graded`
//   CustomEvent (detail: GradedDetail);
// - inside [data-quiz-set][data-mode="interview"] feedback is held back until a `quiz:reveal`
//   event reaches the <section>; the question then has no attempts left;
// - a `data-variant` attribute on the <section> forces the variant.

import type { Answer, Grade, Variant } from '../../quiz/grade.ts';
import type { Fact } from '../../quiz/evidence.ts';
import type { Answers } from '../../quiz/answers.ts';
import { parseNumber } from '../../quiz/number.ts';
import type { Question, Text } from '../../quiz/schema.ts';
import { whenVisible } from '../shared/when-visible.ts';
import { loadAnswers } from './answers-file.ts';
import { el, formatSeconds, heading, percent, rich, substitute } from './dom.ts';
import { evidenceTimeline } from './evidence-svg.ts';
import { viewFor, type Ctx, type KindView } from './kinds/index.ts';
import type { Graded } from '../../quiz/progress.ts';
import type { GradeResult, Payload, RequestBody, Response } from './protocol.ts';
import { STRINGS, fmt, quizLang, type QuizLang, type QuizStrings } from './strings.ts';
import { drawVariant, parseVariant, saveVariant, storedVariant } from './variant-store.ts';
import { client } from './workers.ts';

/**
 * GradedDetail is the detail of the `quiz:graded` event: progress storage's Graded (the one
 * definition of what a graded submission records), with selfAssessed always said.
 */
export type GradedDetail = Graded & { selfAssessed: boolean };

/** answerKey names an answer to a variant, to tell whether a result graded ahead is still current. */
function answerKey(v: number, answer: unknown, reveal: boolean): string {
  return `${v}#${reveal}#${JSON.stringify(answer)}`;
}

interface Ui {
  prompt: HTMLElement;
  form: HTMLFormElement;
  state: HTMLElement;
  live: HTMLElement;
  feedback: HTMLElement;
  hints: HTMLOListElement;
  attempts: HTMLElement;
  check: HTMLButtonElement;
  hint: HTMLButtonElement | null;
  solution: HTMLButtonElement | null;
  another: HTMLButtonElement | null;
}

export class QuizQuestion extends HTMLElement {
  private root!: HTMLElement;
  private payload!: Payload;
  private q!: Question;
  private language: QuizLang = 'en';
  private t: QuizStrings = STRINGS.en;
  private ui!: Ui;
  private view!: KindView;

  private forced: number | undefined;
  private v = 0;
  private variant: Variant | undefined;
  private attempts = 0;
  private hintsShown = 0;
  private final = false;
  private busy = false;
  private submissions = 0;
  private lastCorrect = false;
  private solutionShown = false;
  /** revealed: the key has been shown (a right answer, the last attempt, the solution, the debrief). */
  private revealed = false;
  /** roundOver: the interview round around the question ended (quiz:reveal). */
  private roundOver = false;
  /** held is the feedback an interview round holds back until quiz:reveal. */
  private held: (() => void) | undefined;
  /** gradedAhead is the last answer the worker graded ahead, with its result. */
  private gradedAhead: { key: string; result: GradeResult } | undefined;
  /** aheadUnderWay is the answer being graded ahead, with the worker's reply to come. */
  private aheadUnderWay: { key: string; reply: Promise<Response> } | undefined;
  private latest = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private started = false;

  connectedCallback(): void {
    whenVisible([this], () => this.start());
  }

  /** start reads the question the page carried and prepares the learner's variant. */
  private start(): void {
    if (this.started) return;
    const root = this.querySelector<HTMLElement>('[data-quiz]');
    if (!root) return;
    try {
      this.payload = JSON.parse(
        root.querySelector('script[data-role="payload"]')?.textContent ?? '',
      ) as Payload;
    } catch {
      return;
    }
    this.started = true;
    this.root = root;
    root.dataset.mounted = 'true';
    this.q = this.payload.question;
    this.language = quizLang(root.closest('[lang]')?.getAttribute('lang'));
    this.t = STRINGS[this.language];
    const role = <T extends Element>(r: string) => root.querySelector<T>(`[data-role="${r}"]`);
    this.ui = {
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
    };
    const ctx: Ctx = {
      root,
      q: this.q,
      id: this.payload.id,
      lang: this.language,
      t: this.t,
      txt: (x, values) => this.txt(x, values),
      role,
      v: () => this.v,
      final: () => this.final,
      interviewMode: () => this.interviewMode(),
      changed: () => this.ui.form.dispatchEvent(new Event('input')),
      say: (m, r) => this.setLive(m, r),
      ask: (body) => this.ask(body),
    };
    this.view = viewFor(ctx);
    this.forced = parseVariant(root.dataset.variant);
    this.v = this.forced ?? storedVariant(this.payload.id);

    root.addEventListener('quiz:reveal', () => this.endOfRound());
    this.ui.form.addEventListener('input', () => this.answerChanged());
    this.ui.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.submit();
    });
    this.ui.hint?.addEventListener('click', () => this.showHint());
    this.ui.solution?.addEventListener('click', () => void this.showSolution());
    this.ui.another?.addEventListener('click', () => void this.anotherVariant());
    void this.prepare();
  }

  // ---- state ----

  private get maxAttempts(): number {
    return this.q.maxAttempts;
  }

  private params(): Record<string, string | number> {
    return this.variant?.params ?? {};
  }

  private txt(x: Text, values: Record<string, string | number> = this.params()): string {
    return substitute(x[this.language], values);
  }

  private hintCost(): number {
    return this.q.hints.slice(0, this.hintsShown).reduce((s, h) => s + h.cost, 0);
  }

  /**
   * interviewMode: inside a running interview round (read at each use: a set may wrap the
   * question after it started). Once the round is over the question is answered as usual.
   */
  private interviewMode(): boolean {
    return (
      !this.roundOver &&
      Boolean(this.root.closest('[data-quiz-set][data-mode="interview"]:not([data-state="done"])'))
    );
  }

  /** revealNext says whether the next graded answer may show the key (the question's `reveal`). */
  private revealNext(): boolean {
    const { reveal } = this.q;
    return (
      this.interviewMode() ||
      reveal === 'after-each-attempt' ||
      (reveal !== 'on-request' && this.maxAttempts > 0 && this.attempts + 1 >= this.maxAttempts)
    );
  }

  private setLive(message: string, result?: string): void {
    this.ui.live.textContent = message;
    if (result) this.ui.live.dataset.result = result;
    else delete this.ui.live.dataset.result;
  }

  private setBusy(on: boolean): void {
    this.busy = on;
    this.root.dataset.busy = String(on);
    this.updateButtons();
  }

  private updateButtons(): void {
    const { ui, q, t, maxAttempts, attempts, busy, final } = this;
    const ready = this.variant !== undefined;
    ui.check.disabled = !ready || busy || final;
    if (ui.hint) {
      const next = q.hints[this.hintsShown];
      ui.hint.disabled = !ready || busy || !next || final;
      ui.hint.textContent = !next
        ? t.noMoreHints
        : next.cost > 0
          ? fmt(t.hintCost, { cost: percent(next.cost) })
          : t.hintFree;
    }
    if (ui.solution) {
      const available =
        !this.solutionShown &&
        !this.lastCorrect &&
        (maxAttempts === 0 ? attempts > 0 : attempts >= maxAttempts);
      ui.solution.hidden = !available;
      ui.solution.disabled = !ready || busy;
    }
    if (ui.another) ui.another.disabled = !ready || busy;
    this.view.buttons?.(ready, busy);
    ui.attempts.textContent =
      q.kind === 'interview' || attempts === 0
        ? ''
        : maxAttempts === 0
          ? fmt(t.attemptsUnlimited, { n: attempts })
          : fmt(t.attempts, { n: attempts, max: maxAttempts });
  }

  // ---- feedback ----

  private resultMessage(g: Grade, score: number): { text: string; result: string } {
    const { t, maxAttempts, attempts } = this;
    if (g.selfAssessed) {
      const total = this.root.querySelectorAll('[data-rubric]').length || 1;
      return {
        text: fmt(t.selfRecorded, { n: Math.round(g.score * total), total }),
        result: 'recorded',
      };
    }
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
    if (this.hintCost() > 0) parts.push(fmt(t.scoreAfterHints, { score: percent(score) }));
    if (!g.correct && maxAttempts > 0 && !this.roundOver)
      parts.push(
        attempts >= maxAttempts
          ? t.noAttemptsLeft
          : maxAttempts - attempts === 1
            ? t.attemptLeft
            : fmt(t.attemptsLeft, { n: maxAttempts - attempts }),
      );
    if (!g.correct && !this.revealed && !this.final && maxAttempts > 0)
      parts.push(this.q.reveal === 'on-request' ? t.keyOnRequest : t.keyLater);
    // Japanese sentences follow each other without a space (each ends in 。).
    return { text: parts.join(this.language === 'ja' ? '' : ' '), result };
  }

  private renderFeedback(r: GradeResult, a: Answer): void {
    const parts = this.view.feedback(r, a);
    if ((!r.grade.correct || this.q.kind === 'what-if') && r.evidence?.length)
      parts.push(...this.renderEvidence(r.evidence, a));
    this.ui.feedback.replaceChildren(...parts);
    if (this.final && r.revealed) void this.appendExplanation(r.values, r.answerText);
  }

  /** filled is the values that fill the explanation: {{answer}} in the page's language. */
  private filled(values: Record<string, string | number>, answerText?: Text) {
    return answerText ? { ...values, answer: answerText[this.language] } : values;
  }

  /** appendExplanation loads the explanation from the answers file and shows it, filled in. */
  private async appendExplanation(
    values: Record<string, string | number>,
    answerText?: Text,
  ): Promise<void> {
    const forV = this.v;
    let answers: Answers;
    try {
      answers = await loadAnswers(this.payload.id);
    } catch (err) {
      this.ui.feedback.append(el('p', fmt(this.t.answersFailed, { error: String(err) })));
      return;
    }
    if (forV !== this.v || !answers.explanation) return;
    this.ui.feedback.append(
      heading(this.t.explanation),
      rich(el('p'), this.txt(answers.explanation, this.filled(values, answerText))),
    );
    this.root.dataset.explained = 'true';
  }

  private renderEvidence(facts: Fact[], a: Answer): HTMLElement[] {
    const { t, q } = this;
    const ol = el('ol', undefined, 'quiz-evidence');
    for (const f of facts)
      ol.append(el('li', `${formatSeconds(f.t)} ${t.secondsUnit} — ${f.text[this.language]}`));
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
    return [heading(t.evidence), el('p', fmt(t.evidenceHelp, { variant: this.v })), figure];
  }

  /** endOfRound: the interview round ended; the attempts are over and the held feedback shows. */
  private endOfRound(): void {
    this.roundOver = true;
    if (this.attempts > 0) this.final = true;
    const show = this.held;
    this.held = undefined;
    show?.();
    this.updateButtons();
  }

  // ---- actions ----

  private async ask(body: RequestBody, underWay?: Promise<Response>): Promise<Response> {
    this.setBusy(true);
    try {
      return await (underWay ?? client(this.q.kind).call(body));
    } catch (err) {
      return { id: 0, ok: false, error: err instanceof Error ? err.message : String(err) };
    } finally {
      this.setBusy(false);
    }
  }

  private async submit(): Promise<void> {
    if (!this.variant || this.busy || this.final) return;
    const { root, t, payload } = this;
    const a = this.view.answer();
    const forV = this.v;
    this.setLive(t.checking);
    const started = performance.now();
    // An answer graded ahead is shown as it is: grading is a pure function of the question, the
    // variant and the answer, so asking the worker again would only add its queue. An answer whose
    // grading ahead is still under way waits for that reply instead of queueing a second request.
    const reveal = this.revealNext();
    const key = answerKey(forV, a, reveal);
    const ready = this.gradedAhead?.key === key ? this.gradedAhead.result : undefined;
    const underWay =
      !ready && this.aheadUnderWay?.key === key ? this.aheadUnderWay.reply : undefined;
    const res: Response = ready
      ? { id: 0, ok: true, result: { ...ready, ms: 0 } }
      : await this.ask({ type: 'grade', qid: payload.id, v: forV, answer: a, reveal }, underWay);
    const ms = performance.now() - started;
    if (forV !== this.v) return;
    root.dataset.gradeMs = ms.toFixed(1);
    root.dataset.submissions = String(++this.submissions);
    if (!res.ok || !res.result) {
      this.setLive(fmt(t.error, { error: res.ok ? 'no result' : res.error }), 'invalid');
      return;
    }
    const r = res.result;
    root.dataset.workerMs = r.ms.toFixed(1);
    const g = r.grade;
    if (g.invalid) {
      root.dataset.result = 'invalid';
      this.setLive(fmt(t.invalidPrefix, { message: g.invalid[this.language] }), 'invalid');
      return;
    }
    this.attempts++;
    this.lastCorrect = g.correct;
    const score = Math.max(0, g.score * (1 - this.hintCost()));
    this.final =
      g.correct ||
      Boolean(g.selfAssessed) ||
      (this.maxAttempts > 0 && this.attempts >= this.maxAttempts);
    const show = () => {
      if (r.revealed) this.revealed = true;
      const msg = this.resultMessage(g, score);
      root.dataset.result = msg.result;
      root.dataset.revealed = String(this.revealed);
      this.setLive(msg.text, msg.result);
      this.renderFeedback(r, a);
    };
    if (this.interviewMode()) {
      this.held = show;
      root.dataset.result = 'recorded';
      this.setLive(t.recorded);
    } else show();
    root.dataset.attempt = String(this.attempts);
    this.updateButtons();
    root.dispatchEvent(
      new CustomEvent<GradedDetail>('quiz:graded', {
        bubbles: true,
        detail: {
          id: payload.id,
          lesson: payload.lesson ?? '',
          concepts: this.q.concepts,
          score,
          correct: g.correct,
          variant: this.v,
          attempt: this.attempts,
          final: this.final,
          selfAssessed: Boolean(g.selfAssessed),
        },
      }),
    );
  }

  private async showSolution(): Promise<void> {
    if (!this.variant || this.busy) return;
    const { t, ui, root } = this;
    const res = await this.ask({ type: 'solution', qid: this.payload.id, v: this.v });
    if (!res.ok) return this.setLive(fmt(t.error, { error: res.error }), 'invalid');
    let answers: Answers;
    try {
      answers = await loadAnswers(this.payload.id);
    } catch (err) {
      return this.setLive(fmt(t.answersFailed, { error: String(err) }), 'invalid');
    }
    this.final = true;
    this.solutionShown = true;
    this.revealed = true;
    root.dataset.revealed = 'true';
    const solution = res.solution ?? answers.example;
    if (solution) this.view.show(solution);
    const parts: HTMLElement[] = [heading(t.solutionHeading), el('p', t.solutionShown)];
    if (res.evidence?.length) parts.push(...this.renderEvidence(res.evidence, this.view.answer()));
    if (answers.explanation)
      parts.push(
        heading(t.explanation),
        rich(
          el('p'),
          this.txt(answers.explanation, this.filled(res.values ?? this.params(), res.answerText)),
        ),
      );
    ui.feedback.replaceChildren(...parts);
    root.dataset.solution = 'shown';
    this.updateButtons();
    const h = ui.feedback.querySelector<HTMLElement>('h3');
    h?.setAttribute('tabindex', '-1');
    h?.focus();
  }

  private showHint(): void {
    const h = this.q.hints[this.hintsShown];
    if (!h) return;
    this.hintsShown++;
    const li = el('li');
    rich(li, this.txt(h));
    if (h.cost > 0) li.append(` (−${percent(h.cost)}%)`);
    this.ui.hints.hidden = false;
    this.ui.hints.append(li);
    this.setLive(`${fmt(this.t.hintN, { n: this.hintsShown })}: ${li.textContent ?? ''}`);
    this.updateButtons();
    if (this.ui.hint?.disabled) this.ui.check.focus();
  }

  private async prepare(): Promise<void> {
    const { ui, t, root } = this;
    this.variant = undefined;
    root.dataset.ready = 'false';
    ui.state.textContent = t.preparing;
    this.updateButtons();
    const res = await this.ask({
      type: 'prepare',
      payload: this.payload,
      v: this.v,
      order: this.view.prepareOrder?.(),
    });
    if (!res.ok || !res.variant) {
      ui.state.textContent = fmt(t.failed, { error: res.ok ? 'no variant' : res.error });
      return;
    }
    this.variant = res.variant;
    root.dataset.variant = String(this.v);
    rich(ui.prompt, this.txt(this.q.prompt));
    this.view.prepared?.(res);
    ui.state.textContent = fmt(t.ready, { variant: this.v });
    root.dataset.ready = 'true';
    this.updateButtons();
    // The answer the form starts with is graded ahead as soon as the variant is ready. Besides
    // having that answer ready, a what-if or task run warms the worker's simulator code, so that
    // the first answer the learner types is graded by compiled code rather than by the interpreter.
    void this.speculate();
  }

  private async anotherVariant(): Promise<void> {
    if (this.busy) return;
    const { root, ui } = this;
    this.v = drawVariant(this.v);
    if (this.forced === undefined) saveVariant(this.payload.id, this.v);
    this.forced = undefined;
    this.attempts = 0;
    this.hintsShown = 0;
    this.final = false;
    this.lastCorrect = false;
    this.solutionShown = false;
    this.revealed = false;
    this.held = undefined;
    for (const k of ['result', 'solution', 'attempt', 'revealed', 'explained'])
      delete root.dataset[k];
    this.view.reset();
    ui.feedback.replaceChildren();
    ui.hints.replaceChildren();
    ui.hints.hidden = true;
    this.setLive('');
    await this.prepare();
    ui.prompt.setAttribute('tabindex', '-1');
    ui.prompt.focus();
  }

  // Every answer is graded ahead, so that Check usually finds its result ready (nothing is shown
  // until Check). Key-based answers are compared with the key worked out at prepare, a fraction
  // of a millisecond in the worker, so each change is sent at once. What-if and task answers are
  // graded by a simulator run, so they are sent once the learner pauses over an answer (the
  // worker keeps the last few results).

  private answerChanged(): void {
    this.root.dataset.gradedAhead = 'false';
    clearTimeout(this.timer);
    const kind = this.q.kind;
    if (kind === 'what-if' || kind === 'task')
      this.timer = setTimeout(() => void this.speculate(), kind === 'task' ? 400 : 150);
    else void this.speculate();
  }

  private async speculate(): Promise<void> {
    if (!this.variant || this.final) return;
    const a = this.view.answer();
    const reveal = this.revealNext();
    const key = answerKey(this.v, a, reveal);
    if (this.gradedAhead?.key === key) {
      this.root.dataset.gradedAhead = 'true';
      return;
    }
    if (this.aheadUnderWay?.key === key) return;
    const mine = ++this.latest;
    const reply = client(this.q.kind).call({
      type: 'speculate',
      qid: this.payload.id,
      v: this.v,
      answer: a,
      reveal,
    });
    this.aheadUnderWay = { key, reply };
    const res = await reply;
    if (this.aheadUnderWay?.reply === reply) this.aheadUnderWay = undefined;
    if (res.ok && res.result) this.gradedAhead = { key, result: res.result };
    // data-graded-ahead tells tests (and nothing else) that Check will find the result ready.
    if (
      res.ok &&
      mine === this.latest &&
      key === answerKey(this.v, this.view.answer(), this.revealNext())
    )
      this.root.dataset.gradedAhead = 'true';
  }
}

if (!customElements.get('quiz-question')) customElements.define('quiz-question', QuizQuestion);

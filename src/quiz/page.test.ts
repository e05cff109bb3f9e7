import { describe, expect, it } from 'vitest';
import { loadQuestions, type LoadedQuestion } from './load.ts';
import {
  answersOf,
  auditRendered,
  keyForPage,
  optionsOf,
  pageOrder,
  publicQuestion,
  renderedQuestions,
  shuffleNotKey,
} from './page.ts';
import { optionFeedbackPath } from './answers.ts';

const all = loadQuestions();
const byId = (id: string): LoadedQuestion => all.find((lq) => lq.question.id === id)!;

/** page renders a question as Question.astro does, in the parts the audit reads. */
function page(
  lq: LoadedQuestion,
  body: string,
  payload: unknown = { id: lq.question.id, question: publicQuestion(lq.question) },
): string {
  const json = JSON.stringify(payload).replace(/</g, '\\u003c');
  return `<html><body><section class="quiz not-content" data-quiz data-question-id="${lq.question.id}" data-kind="${lq.question.kind}">
<p class="quiz-prompt" data-role="prompt">${lq.question.prompt.en}</p>${body}
<script type="application/json" data-role="payload">${json}</script></section></body></html>`;
}
const audit = (lq: LoadedQuestion, html: string) =>
  auditRendered(renderedQuestions(html)[0]!, lq, keyForPage(lq));

describe('shuffleNotKey', () => {
  it('is seeded and never the key order', () => {
    const key = ['a', 'b', 'c'];
    for (let seed = 0; seed < 200; seed++) {
      const out = shuffleNotKey(key, key, seed);
      expect(out).not.toEqual(key);
      expect([...out].sort()).toEqual(key);
      expect(shuffleNotKey(key, key, seed)).toEqual(out);
    }
  });
});

describe('what the page carries', () => {
  it('leaves fixtures, the explanation, the model answer and the rubric to the answers file', () => {
    for (const lq of all) {
      const shipped = JSON.stringify(publicQuestion(lq.question));
      for (const f of ['fixtures', 'explanation', 'modelAnswer', 'rubric'])
        expect(shipped).not.toContain(`"${f}"`);
    }
    const task = byId('demo-task-pending').question;
    expect(answersOf(task).example).toEqual({
      kind: 'task',
      commands: 'label nodes node-2 disktype=ssd',
    });
    const interview = byId('demo-interview-architecture').question;
    expect(answersOf(interview).modelAnswer?.en).toBeTruthy();
  });
  it('leaves option feedback out (which options have some would tell which are wrong)', () => {
    const withFeedback = all.filter((lq) => optionsOf(lq.question).some((o) => o.feedback));
    expect(withFeedback.length).toBeGreaterThan(5);
    for (const lq of withFeedback) {
      const shipped = publicQuestion(lq.question);
      expect(optionsOf(shipped).map((o) => o.value)).toEqual(
        optionsOf(lq.question).map((o) => o.value),
      );
      expect(JSON.stringify(shipped)).not.toContain('"feedback"');
      // The question itself keeps them, for the option feedback files.
      expect(optionsOf(lq.question).some((o) => o.feedback)).toBe(true);
    }
    expect(optionFeedbackPath('demo-who-binds', 2)).toBe('quiz-answers/demo-who-binds/2.json');
  });
});

describe('auditRendered', () => {
  const ordering = byId('demo-order-apply');
  const key = keyForPage(ordering).key as { values: string[] };
  const ol = (values: string[]) =>
    `<ol class="quiz-order" data-role="order">${values.map((v) => `<li data-value="${v}"><span>${v}</span></li>`).join('')}</ol>`;

  it('passes a question rendered as Question.astro renders it', () => {
    expect(
      audit(ordering, page(ordering, ol(pageOrder(ordering.question, keyForPage(ordering))))),
    ).toEqual([]);
  });
  it('catches ordering items in the key order', () => {
    expect(audit(ordering, page(ordering, ol(key.values)))).toEqual([
      expect.stringContaining('in the key order'),
    ]);
  });
  it('catches fixtures, an explanation or sealed solutions in the payload', () => {
    const task = byId('demo-task-pending');
    const leaky = page(task, '', { id: task.question.id, question: task.question, sealed: 'x' });
    const problems = audit(task, leaky);
    expect(problems).toContain('its payload carries fixtures');
    expect(problems).toContain('its payload carries sealed solutions');
    expect(problems).toContain(
      'it shows the correct fixture command "label nodes node-2 disktype=ssd"',
    );
    expect(problems.some((p) => p.startsWith('it shows the explanation'))).toBe(true);
  });
  it('catches option feedback in the payload or the markup', () => {
    const choice = byId('demo-who-binds');
    const o = optionsOf(choice.question).find((x) => x.feedback)!;
    const leaky = page(choice, '', { id: choice.question.id, question: choice.question });
    const problems = audit(choice, leaky);
    expect(problems).toContain('its payload carries option feedback');
    expect(problems).toContain(`it shows the feedback of option ${o.value} (en)`);
    expect(
      audit(choice, page(choice, `<span data-role="option-feedback">${o.feedback!.ja}</span>`)),
    ).toEqual([`it shows the feedback of option ${o.value} (ja)`]);
  });
  it('catches a checked option, a selected match and a model answer in the markup', () => {
    const choice = byId('demo-who-binds');
    expect(
      audit(
        choice,
        page(
          choice,
          '<ul><li data-option="kube-scheduler"><input type="radio" value="kube-scheduler" checked></li></ul>',
        ),
      ),
    ).toEqual(['an option is checked']);
    const match = byId('demo-match-responsibilities');
    expect(
      audit(
        match,
        page(
          match,
          '<select data-left="kubelet"><option value="bind" selected>x</option></select>',
        ),
      ),
    ).toEqual(['a matching answer is selected']);
    const interview = byId('demo-interview-architecture');
    expect(
      audit(
        interview,
        page(
          interview,
          `<div data-role="model-out"><p>${interview.question.kind === 'interview' ? interview.question.modelAnswer.ja : ''}</p></div>`,
        ),
      ),
    ).toEqual(['it shows the model answer (ja)']);
  });
  it('catches the numeric answer written out or in the answer box', () => {
    const numeric = byId('demo-replacement-seconds');
    const n = String(
      Math.round((keyForPage(numeric).key as { value: number }).value * 1000) / 1000,
    );
    expect(audit(numeric, page(numeric, `<input data-role="number" value="${n}">`))).toEqual([
      `its answer box holds the answer ${n}`,
    ]);
    expect(audit(numeric, page(numeric, `<p>the simulator: ${n} s</p>`))).toEqual([
      `it shows the answer ${n}`,
    ]);
    expect(
      audit(
        numeric,
        page(
          numeric,
          '<input data-role="number"><span class="quiz-help">A plain number, such as 42 or 12.5.</span>',
        ),
      ),
    ).toEqual([]);
  });
});

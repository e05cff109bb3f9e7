// The question loader's messages: file, line, question, field, what was found and expected.
import { describe, expect, it } from 'vitest';
import { parseQuestionFile, loadScenarios, QuestionFileError } from './load.ts';
import { auditQuestion } from './audit.ts';

const scenarios = loadScenarios();
const choice = (extra = '') => `questions:
  - id: who-binds
    kind: choice
    concepts: [scheduler-binding]
    scenario: apply-to-running
    prompt: { en: Who binds?, ja: 誰がバインドしますか。 }
    measure: { actors: { verb: create, resource: pods/binding } }
    options:
      - { value: kube-scheduler, label: { en: kube-scheduler, ja: kube-scheduler } }
      - { value: kubelet, label: { en: kubelet, ja: kubelet } }
    explanation: { en: "It was {{answer}}.", ja: "{{answer}} でした。" }
${extra}`;

function first<T>(xs: T[]): T {
  if (xs[0] === undefined) throw new Error('expected at least one');
  return xs[0];
}

function errorsOf(text: string): string[] {
  try {
    parseQuestionFile(text, 'content/questions/x.yaml', scenarios);
  } catch (e) {
    if (e instanceof QuestionFileError) return e.issues;
    throw e;
  }
  return [];
}

describe('parseQuestionFile', () => {
  it('accepts a valid file', () => {
    expect(parseQuestionFile(choice(), 'x.yaml', scenarios)).toHaveLength(1);
  });
  it('names the question, the field and the line of a bad kind', () => {
    const [msg] = errorsOf(choice().replace('kind: choice', 'kind: multiple-choice'));
    expect(msg).toMatch(/^question who-binds: questions\[0\]\.kind \(line 3, column 11\): found "multiple-choice", expected one of choice, numeric/);
  });
  it('reports YAML syntax errors with a line', () => {
    expect(errorsOf('questions:\n  - id: [unclosed\n')[0]).toMatch(/^line \d+: .*expected valid YAML$/);
  });
  it('reports an unknown scenario with the ones that exist', () => {
    expect(errorsOf(choice().replace('scenario: apply-to-running', 'scenario: nope'))[0]).toMatch(/question who-binds: scenario \(line 5, column 15\): found "nope", expected one of .*apply-to-running/);
  });
  it('reports placeholders that resolve to nothing, or differ between languages', () => {
    const errs = errorsOf(choice().replace('"It was {{answer}}."', '"It was {{answr}}."'));
    expect(errs.some((e) => /found \{\{answr\}\}, expected one of/.test(e))).toBe(true);
    expect(errs.some((e) => /English uses \{\{answr\}\} but Japanese uses \{\{answer\}\}/.test(e))).toBe(true);
  });
  it('rejects a stored answer: options have no "correct" field', () => {
    const errs = errorsOf(choice().replace('{ value: kubelet,', '{ correct: true, value: kubelet,'));
    expect(errs[0]).toMatch(/found unknown field correct/);
  });
});

describe('auditQuestion', () => {
  it('catches a wrong fixture that the simulator says is right', () => {
    const lq = first(parseQuestionFile(choice('    fixtures: { wrong: [[kube-scheduler]] }'), 'x.yaml', scenarios));
    const problems = auditQuestion(lq, 2);
    expect(problems).toHaveLength(2);
    expect(problems[0]?.message).toMatch(/fixtures.wrong \[kube-scheduler\] is graded right/);
  });
  it('catches a question where no option matches what happened', () => {
    const lq = first(parseQuestionFile(choice().replace('value: kube-scheduler, label: { en: kube-scheduler', 'value: kube-proxy, label: { en: kube-proxy'), 'x.yaml', scenarios));
    expect(auditQuestion(lq, 1)[0]?.message).toMatch(/no option is right: the simulator measured/);
  });
  it('catches a measure whose event never happens, naming the seed', () => {
    const text = choice().replace('measure: { actors: { verb: create, resource: pods/binding } }', 'measure: { actors: { verb: create, resource: pods/eviction } }');
    const lq = first(parseQuestionFile(text, 'x.yaml', scenarios));
    const p = first(auditQuestion(lq, 1));
    expect(p).toMatchObject({ id: 'who-binds', variant: 0 });
    expect(p.message).toMatch(/the measure failed: no request matches/);
  });
});

// The quiz island (Question.astro) on the demo page: every kind answered right and wrong, hints,
// invalid input, attempts and the solution, variants, the quiz:graded contract, interview mode and
// the Japanese page. The right answers are computed here in Node, with the same grader the
// island's worker runs, for the variant the test deals the browser.
import type { Locator, Page } from '@playwright/test';
import { computeKey, formatNumber, variantOf, type Keyed } from '../src/quiz/grade.ts';
import { loadQuestions, type LoadedQuestion } from '../src/quiz/load.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

/** V is the variant every question gets in these tests (stored in localStorage before load). */
const V = 5;
const QUESTIONS = new Map(loadQuestions().map((lq) => [lq.question.id, lq]));
const keys = new Map<string, Keyed>();

function lq(id: string): LoadedQuestion {
  const found = QUESTIONS.get(id);
  if (!found) throw new Error(`no question ${id}`);
  return found;
}

/** keyOf computes the simulator's key for a question and variant, as the worker does. */
function keyOf(id: string, v = V): Keyed {
  const k = `${id}#${v}`;
  if (!keys.has(k))
    keys.set(k, computeKey(lq(id).question, lq(id).scenarioYaml, variantOf(lq(id).question, v)));
  return keys.get(k)!;
}

interface Graded {
  id: string;
  lesson: string;
  concepts: string[];
  score: number;
  correct: boolean;
  variant: number;
  attempt: number;
  final: boolean;
  selfAssessed: boolean;
}

/** openDemo deals variant V to every question and records quiz:graded events in window.__graded. */
async function openDemo(page: Page, path = '/demo/quiz/'): Promise<void> {
  await page.addInitScript(
    ({ ids, v }) => {
      for (const id of ids) localStorage.setItem(`kal:quiz:variant:${id}`, String(v));
      const w = window as unknown as { __graded: unknown[] };
      w.__graded = [];
      document.addEventListener('quiz:graded', (e) => w.__graded.push((e as CustomEvent).detail));
    },
    { ids: [...QUESTIONS.keys()], v: V },
  );
  await page.goto(path);
}

const quiz = (page: Page, id: string): Locator => page.locator(`[data-question-id="${id}"]`);

async function open(page: Page, id: string): Promise<Locator> {
  const r = quiz(page, id);
  await r.scrollIntoViewIfNeeded();
  await expect(r).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  return r;
}

/** check presses Check and waits for the worker's answer; returns the round trip in ms. */
async function check(r: Locator, name = 'Check'): Promise<number> {
  return (await checkTimed(r, name)).roundTrip;
}

/** checkTimed presses Check and returns the main thread's round trip and the worker's own time. */
async function checkTimed(
  r: Locator,
  name = 'Check',
): Promise<{ roundTrip: number; worker: number }> {
  const n = Number((await r.getAttribute('data-submissions')) ?? 0);
  await r.getByRole('button', { name, exact: true }).click();
  await expect(r).toHaveAttribute('data-submissions', String(n + 1), { timeout: 30_000 });
  return {
    roundTrip: Number(await r.getAttribute('data-grade-ms')),
    worker: Number(await r.getAttribute('data-worker-ms')),
  };
}

const live = (r: Locator) => r.locator('[data-role="live"]');
const graded = (page: Page) =>
  page.evaluate(() => (window as unknown as { __graded: Graded[] }).__graded);

/** openReplacementSeconds opens the demo page's numeric question, with its answer box and key. */
async function openReplacementSeconds(
  page: Page,
): Promise<{ r: Locator; box: Locator; value: number; k: Keyed }> {
  await openDemo(page);
  const k = keyOf('demo-replacement-seconds');
  const r = await open(page, 'demo-replacement-seconds');
  return {
    r,
    box: r.getByRole('textbox', { name: 'Your answer' }),
    value: k.key.kind === 'numeric' ? k.key.value : NaN,
    k,
  };
}

/** orderTo puts the ordering items in the given order with the keyboard (Move up buttons). */
async function orderTo(r: Locator, values: string[]): Promise<void> {
  for (const [i, value] of values.entries()) {
    for (;;) {
      const now = await r
        .locator('[data-role="order"] > li')
        .evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.value));
      const at = now.indexOf(value);
      if (at <= i) break;
      await r.locator(`[data-role="order"] > li[data-value="${value}"] [data-move="up"]`).focus();
      await r.page().keyboard.press('Enter');
    }
  }
}

test('choice: right, wrong with marks on the chosen option only, the key after the last attempt, hint, solution and another variant', async ({
  page,
}) => {
  await openDemo(page);
  const id = 'demo-who-binds';
  const k = keyOf(id);
  expect(k.key.kind).toBe('choice');
  const right = k.key.kind === 'choice' ? k.key.values : [];
  const r = await open(page, id);
  await expect(r).toHaveAttribute('data-variant', String(V));
  await expect(r.getByRole('group', { name: /Your answer/ })).toBeVisible();

  // Nothing chosen: invalid, no attempt used.
  await check(r);
  await expect(live(r)).toContainText('Not graded (no attempt used): Choose an answer first.');
  expect(await graded(page)).toEqual([]);

  await r.getByRole('button', { name: 'Hint (free)' }).click();
  await expect(r.locator('[data-role="hints"] li')).toHaveCount(1);
  await expect(r.locator('[data-role="hints"] li code')).toHaveText('pods/binding');
  await expect(r.getByRole('button', { name: 'No more hints' })).toBeDisabled();

  const wrong = ['kubelet', 'replicaset-controller', 'kube-apiserver'].filter(
    (x) => !right.includes(x),
  );
  await r.locator(`[data-option="${wrong[0]}"] input`).check();
  await check(r);
  await expect(live(r)).toContainText('Not right. 2 attempts left.');
  await expect(r.locator(`[data-option="${wrong[0]}"] [data-role="mark"]`)).toHaveText('✗ wrong');
  // While attempts remain, nothing marks the right option and the key run is not shown.
  await expect(r.locator(`[data-option="${right[0]}"] [data-role="mark"]`)).toBeEmpty();
  await expect(
    r.locator(`[data-option="${wrong[0]}"] [data-role="option-feedback"]`),
  ).not.toBeEmpty();
  const feedback = r.locator('[data-role="feedback"]');
  await expect(feedback.getByRole('heading', { name: 'What the cluster did' })).toHaveCount(0);
  await expect(feedback.getByRole('heading', { name: 'Explanation' })).toHaveCount(0);

  await r.locator(`[data-option="${wrong[1]}"] input`).check();
  await check(r);
  await expect(live(r)).toContainText('Not right. 1 attempt left.');
  await expect(r.locator(`[data-option="${right[0]}"] [data-role="mark"]`)).toBeEmpty();
  await r.locator(`[data-option="${wrong[2]}"] input`).check();
  await check(r);
  await expect(live(r)).toContainText('No attempts left');
  // The last attempt reveals the key: the right option, what the cluster did, the explanation.
  await expect(r.locator(`[data-option="${right[0]}"] [data-role="mark"]`)).toContainText(
    'right, but not chosen',
  );
  await expect(feedback.locator('.quiz-evidence li').first()).toContainText(
    'kube-scheduler: create pods/binding',
  );
  await expect(feedback).toContainText(`every binding was created by ${k.values.answer}`);
  await expect(r.getByRole('button', { name: 'Check', exact: true })).toBeDisabled();
  const events = await graded(page);
  expect(events.map((e) => [e.attempt, e.correct, e.final])).toEqual([
    [1, false, false],
    [2, false, false],
    [3, false, true],
  ]);
  expect(events[0]).toMatchObject({
    id,
    lesson: 'demo/quiz',
    concepts: ['scheduler-binding'],
    variant: V,
    score: 0,
    selfAssessed: false,
  });

  await r.getByRole('button', { name: 'Show solution' }).click();
  await expect(r).toHaveAttribute('data-solution', 'shown');
  await expect(r.locator(`[data-option="${right[0]}"] input`)).toBeChecked();
  await expect(feedback).toContainText(`every binding was created by ${k.values.answer}`);

  await r.getByRole('button', { name: 'Try another variant' }).click();
  await expect(r).toHaveAttribute('data-ready', 'true');
  const next = Number(await r.getAttribute('data-variant'));
  expect(next).not.toBe(V);
  expect(await page.evaluate((key) => localStorage.getItem(key), `kal:quiz:variant:${id}`)).toBe(
    String(next),
  );
  await expect(r.locator('[data-option] input:checked')).toHaveCount(0);
  await r
    .locator(
      `[data-option="${keyOf(id, next).key.kind === 'choice' ? (keyOf(id, next).key as { values: string[] }).values[0] : ''}"] input`,
    )
    .check();
  await check(r);
  await expect(live(r)).toHaveText('Correct. The simulator agrees.');
  expect((await graded(page)).at(-1)).toMatchObject({
    variant: next,
    attempt: 1,
    correct: true,
    final: true,
    score: 1,
  });
});

test('numeric: invalid input uses no attempt, a hint costs points, a wrong number shows neither the key nor the key run', async ({
  page,
}) => {
  const { r, box, value, k } = await openReplacementSeconds(page);
  await expect(box).toHaveAttribute('inputmode', 'decimal');

  for (const bad of ['', '<script>alert(1)</script>', '99999999999999', 'replicas: 3']) {
    await box.fill(bad);
    await check(r);
    await expect(live(r)).toContainText('Not graded (no attempt used)');
    await expect(r.locator('script:not([data-role])')).toHaveCount(0);
  }
  await expect(live(r)).toContainText('Enter a plain number');
  await expect(r).not.toHaveAttribute('data-attempt');
  expect(await graded(page)).toEqual([]);

  await box.fill('40');
  await check(r);
  await expect(live(r)).toContainText('Not right. 2 attempts left.');
  // Neither the measured number nor the key run shows while attempts remain (nor too low: the
  // question does not allow it).
  await expect(r.locator('.quiz-evidence')).toHaveCount(0);
  await expect(r).not.toContainText('the simulator:');
  await expect(r).not.toContainText(formatNumber(value));
  await expect(r).not.toContainText('too low');

  await r.getByRole('button', { name: 'Hint (costs 25% of the points)' }).click();
  await expect(r.locator('[data-role="hints"]')).toContainText('Two waits add up');
  await box.fill(formatNumber(value));
  await check(r);
  await expect(live(r)).toContainText('Correct. The simulator agrees. Score after hints: 75%.');
  await expect(r.locator('[data-role="feedback"]')).toContainText(
    `replacement was Running ${k.values.answer} s after the stop`,
  );
  expect((await graded(page)).map((e) => [e.attempt, e.correct, e.score, e.final])).toEqual([
    [1, false, 0, false],
    [2, true, 0.75, true],
  ]);
});

test('ordering with the keyboard, and matching: right and wrong', async ({ page }) => {
  await openDemo(page);
  const ord = keyOf('demo-order-apply');
  const want = ord.key.kind === 'ordering' ? ord.key.values : [];
  const r = await open(page, 'demo-order-apply');
  const shown = await r
    .locator('[data-role="order"] > li')
    .evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.value));
  expect(shown, 'the island shuffles the items').not.toEqual(want);
  await expect(
    r
      .locator('[data-role="order"] > li')
      .first()
      .getByRole('button', { name: /^Move up/ }),
  ).toBeDisabled();
  // Wrong first: swap the first two of the right order.
  await orderTo(r, [want[1]!, want[0]!, ...want.slice(2)]);
  await check(r);
  await expect(live(r)).toContainText('Partly right: 50% of the points.');
  // Feedback names the learner's own misplaced pair by its labels, not the order, not ids.
  const label = (v: string) =>
    lq('demo-order-apply').question.kind === 'ordering'
      ? (
          lq('demo-order-apply').question as { items: { value: string; label: { en: string } }[] }
        ).items.find((i) => i.value === v)!.label.en
      : v;
  await expect(r.locator('[data-role="feedback"]')).toContainText(
    `Your order puts “${label(want[1]!)}” before “${label(want[0]!)}”, which the run contradicts.`,
  );
  await expect(r.locator('.quiz-evidence')).toHaveCount(0);
  await orderTo(r, want);
  await expect(live(r)).toContainText(`is now number`);
  await check(r);
  await expect(live(r)).toContainText('Correct.');
  await expect(r.locator('[data-role="feedback"]')).toContainText("The simulator's trace shows");
  await expect(r.locator('[data-role="feedback"]')).toContainText(label(want[0]!));

  const mk = keyOf('demo-match-responsibilities');
  const pairs = mk.key.kind === 'matching' ? mk.key.pairs : {};
  const m = await open(page, 'demo-match-responsibilities');
  await m.getByRole('combobox', { name: 'kube-scheduler' }).selectOption('create-pods');
  await check(m);
  await expect(live(m)).toContainText('Match every item first.');
  const lefts = Object.keys(pairs);
  const rights = lefts.map((l) => pairs[l]!);
  // Wrong: everything shifted by one.
  for (const [i, l] of lefts.entries())
    await m.locator(`select[data-left="${l}"]`).selectOption(rights[(i + 1) % rights.length]!);
  await check(m);
  await expect(live(m)).toContainText('Not right.');
  // The learner's rows are marked; the key is not shown.
  await expect(m.locator('.quiz-matching .quiz-row [data-mark="wrong"]')).toHaveCount(lefts.length);
  await expect(m.locator('.quiz-evidence')).toHaveCount(0);
  // One answer for two items is turned away, with no attempt used.
  await m.locator(`select[data-left="${lefts[1]}"]`).selectOption(rights[(0 + 1) % rights.length]!);
  await check(m);
  await expect(live(m)).toContainText('Not graded (no attempt used): You chose');
  await expect(live(m)).toContainText('for two items');
  for (const l of lefts) await m.locator(`select[data-left="${l}"]`).selectOption(pairs[l]!);
  await check(m);
  await expect(live(m)).toContainText('Correct.');
});

test('predict: what the cluster showed sits next to the prediction once revealed; what-if checks; task console and checks', async ({
  page,
}) => {
  await openDemo(page);
  const pk = keyOf('demo-predict-partition');
  const right = pk.key.kind === 'choice' ? pk.key.values[0]! : '';
  const p = await open(page, 'demo-predict-partition');
  await p.locator('[data-option="Pending"] input').check();
  await check(p);
  await expect(live(p)).toContainText('Not right.');
  // What the cluster showed is the key: it waits for a right answer or the last attempt.
  await expect(p.locator('.quiz-compare')).toHaveCount(0);
  await expect(p.locator('.quiz-evidence')).toHaveCount(0);
  await p.locator(`[data-option="${right}"] input`).check();
  await check(p);
  await expect(live(p)).toContainText('Correct.');
  await expect(p.getByRole('heading', { name: 'Your prediction' })).toBeVisible();
  await expect(p.locator('.quiz-compare pre')).toContainText(
    /\$ kubectl get pods -o wide\nNAME\s+READY\s+STATUS/,
  );

  const w = await open(page, 'demo-whatif-rollout');
  const surge = w.getByRole('spinbutton', { name: 'maxSurge' });
  const unavailable = w.getByRole('spinbutton', { name: 'maxUnavailable' });
  await expect(surge).toHaveAttribute('max', '3');
  await surge.fill('9');
  await check(w);
  await expect(live(w)).toContainText('maxSurge: enter a whole number from 0 to 3.');
  // Values kube-apiserver rejects earn nothing.
  await surge.fill('0');
  await unavailable.fill('0');
  await check(w);
  await expect(live(w)).toContainText('Not right.');
  await expect(w.locator('[data-role="feedback"]')).toContainText(
    'The cluster turned your values down',
  );
  await surge.fill('1');
  await unavailable.fill('1');
  await check(w);
  await expect(live(w)).toContainText(/Partly right|Not right/);
  await expect(w.locator('.quiz-checks li[data-passed="false"]').first()).toContainText(
    '✗ failed: Never fewer than 3 Pods available',
  );
  await unavailable.fill('0');
  await check(w);
  await expect(live(w)).toContainText('Correct.');
  await expect(w.locator('.quiz-checks li[data-passed="true"]')).toHaveCount(3);

  const t = await open(page, 'demo-task-pending');
  const console = t.getByRole('textbox', {
    name: 'Commands, one per line (kubectl, or ssh NODE COMMAND)',
  });
  await console.fill('kubectl get pods\n<img src=x onerror=alert(1)>');
  await t.getByRole('button', { name: 'Run', exact: true }).click();
  const out = t.getByRole('log', { name: 'Output of your commands' });
  await expect(out).toContainText(/\$ kubectl get pods\nNAME\s+READY\s+STATUS/);
  await expect(out).toContainText('Pending');
  await expect(out.locator('img')).toHaveCount(0);
  await console.fill('get pods');
  await check(t);
  // Nothing fixed earns nothing, though the Deployment's selector check holds untouched.
  await expect(live(t)).toContainText('Not right.');
  await expect(t.locator('.quiz-checks li[data-passed="false"]').first()).toContainText(
    'Both db Pods are Running',
  );
  await console.fill('kubectl describe pod\nkubectl label nodes node-2 disktype=ssd');
  await check(t);
  await expect(live(t)).toContainText('Correct.');
  await expect(out).toContainText('node/node-2 labeled');
  expect(
    (await graded(page))
      .filter((e) => e.id === 'demo-task-pending')
      .map((e) => [e.correct, e.score]),
  ).toEqual([
    [false, 0],
    [true, 1],
  ]);
});

test('interview: self-assessed against the model answer; interview mode holds feedback until quiz:reveal', async ({
  page,
}, testInfo) => {
  await openDemo(page);
  // Wrap the first question in an interview-mode set before it mounts.
  await page.evaluate(() => {
    const root = document.querySelector('[data-question-id="demo-who-binds"]')!;
    const set = document.createElement('div');
    set.dataset.quizSet = '';
    set.dataset.mode = 'interview';
    root.before(set);
    set.append(root);
  });
  const c = await open(page, 'demo-who-binds');
  await c.locator('[data-option="kubelet"] input').check();
  await check(c);
  await expect(live(c)).toHaveText('Answer recorded.');
  await expect(c.locator('[data-role="feedback"]')).toBeEmpty();
  await expect(c.locator('[data-option="kubelet"] [data-role="mark"]')).toBeEmpty();
  expect((await graded(page))[0]).toMatchObject({
    id: 'demo-who-binds',
    correct: false,
    attempt: 1,
  });
  await c.evaluate((el) => el.dispatchEvent(new CustomEvent('quiz:reveal')));
  await expect(live(c)).toContainText('Not right.');
  // The round is over: no attempts are left to offer, and the key shows.
  await expect(live(c)).not.toContainText('attempts left');
  await expect(c.getByRole('button', { name: 'Check', exact: true })).toBeDisabled();
  await expect(c.locator('.quiz-evidence')).toBeVisible();

  const r = await open(page, 'demo-interview-architecture');
  await expect(r).toContainText('Self-assessed: this answer is not machine-graded');
  await expect(r.getByRole('button', { name: 'Record my self-assessment' })).toBeHidden();
  await r
    .getByRole('textbox', { name: /Your answer/ })
    .fill('kube-apiserver, etcd, scheduler, kubelet');
  await r.getByRole('button', { name: 'Show model answer' }).click();
  await expect(r.getByRole('heading', { name: 'Model answer' })).toBeFocused();
  const boxes = r.getByRole('group', { name: /What a good answer covers/ }).getByRole('checkbox');
  await expect(boxes).toHaveCount(5);
  for (const i of [0, 2, 3]) await boxes.nth(i).check();
  await check(r, 'Record my self-assessment');
  await expect(live(r)).toHaveText('Self-assessment recorded: you covered 3 of 5 points.');
  expect((await graded(page)).at(-1)).toMatchObject({
    id: 'demo-interview-architecture',
    selfAssessed: true,
    score: 0.6,
    final: true,
  });
  await expectAccessible(page, testInfo, '/demo/quiz/ with feedback shown');
});

test('a data-variant attribute forces the variant', async ({ page }) => {
  await openDemo(page);
  const id = 'demo-replacement-seconds';
  const forced = 7;
  await page.evaluate(
    ([qid, v]) =>
      document
        .querySelector(`[data-question-id="${qid}"]`)!
        .setAttribute('data-variant', String(v)),
    [id, forced] as const,
  );
  const r = await open(page, id);
  await expect(r).toHaveAttribute('data-variant', String(forced));
  await expect(r.locator('[data-role="state"]')).toContainText(`Variant ${forced}.`);
  const k = keyOf(id, forced);
  await r
    .getByRole('textbox', { name: 'Your answer' })
    .fill(formatNumber(k.key.kind === 'numeric' ? k.key.value : NaN));
  await check(r);
  await expect(live(r)).toContainText('Correct.');
  expect((await graded(page))[0]).toMatchObject({ variant: forced });
});

test('the Japanese page grades in Japanese', async ({ page }) => {
  await openDemo(page, '/ja/demo/quiz/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  const r = await open(page, 'demo-who-binds');
  await expect(r.locator('[data-role="prompt"] code').first()).toHaveText('spec.nodeName');
  await r.getByRole('button', { name: '答え合わせ' }).click();
  await expect(live(r)).toContainText('採点していません(回数は減りません): 答えを選んでください。');
  await r.getByRole('radio', { name: '選ばれたノードの kubelet' }).check();
  await check(r, '答え合わせ');
  // Japanese sentences are joined without a space.
  await expect(live(r)).toContainText('不正解です。あと 2 回答えられます。');
  await expect(r.getByRole('heading', { name: 'クラスターで実際に起きたこと' })).toHaveCount(0);
  await r.getByRole('radio', { name: 'kube-scheduler' }).check();
  await check(r, '答え合わせ');
  await expect(live(r)).toContainText('正解です。');
  await expect(r.locator('[data-role="feedback"]')).toContainText(
    'すべてのバインディングを kube-scheduler が作成しました',
  );

  const n = await open(page, 'demo-replacement-seconds');
  await n.getByRole('textbox', { name: 'あなたの答え' }).fill('abc');
  await check(n, '答え合わせ');
  await expect(live(n)).toContainText('42 や 12.5 のような数値を入力してください');
});

test('key-based answers are graded ahead as they change: Check shows the result without asking the worker', async ({
  page,
}) => {
  const { r, box, value } = await openReplacementSeconds(page);
  // A wrong number, typed: graded ahead, then Check shows it (no worker time spent on Check).
  await box.fill('12');
  await expect(r).toHaveAttribute('data-graded-ahead', 'true');
  await check(r);
  await expect(r).toHaveAttribute('data-worker-ms', '0.0');
  await expect(live(r)).toContainText('Not right.');
  // Changing the answer marks it not graded ahead until the worker has answered for the new one.
  await box.fill(formatNumber(value));
  await expect(r).toHaveAttribute('data-graded-ahead', 'true');
  await check(r);
  await expect(r).toHaveAttribute('data-worker-ms', '0.0');
  await expect(r).toHaveAttribute('data-result', 'correct');

  // Ordering: a move with the keyboard is an answer change too.
  const o = await open(page, 'demo-order-apply');
  await o
    .locator('[data-role="order"] > li')
    .last()
    .getByRole('button', { name: /^Move up/ })
    .click();
  await expect(o).toHaveAttribute('data-graded-ahead', 'true');
  await check(o);
  await expect(o).toHaveAttribute('data-worker-ms', '0.0');
  await expect(o).toHaveAttribute('data-result', /^(correct|partly|wrong)$/);
});

// A benchmark, not a check (BENCHMARKS.md "Quiz grading in the browser"): it runs with
// QUIZ_BENCH=1 only, so `npm test` does not spend a minute timing. What it grades, every kind
// right and wrong, the tests above check.
test('grading time in the browser over about 20 gradings', async ({ page }, testInfo) => {
  test.skip(!process.env.QUIZ_BENCH, 'a benchmark: QUIZ_BENCH=1 runs it');
  test.setTimeout(180_000);
  await openDemo(page);
  // Let every question prepare its key first: a worker runs one job at a time, so a
  // grading queued behind a neighbour's key computation would measure the queue, not the grading.
  for (const id of [...QUESTIONS.keys()].filter((x) => x.startsWith('demo-'))) await open(page, id);
  const cached: number[] = [];
  const runs: number[] = [];
  const workerMs: number[] = [];
  const each: { id: string; ms: number; worker: number }[] = [];
  const check = async (r: Locator) => {
    const m = await checkTimed(r);
    workerMs.push(m.worker);
    each.push({
      id: (await r.getAttribute('data-question-id')) ?? '',
      ms: m.roundTrip,
      worker: m.worker,
    });
    return m.roundTrip;
  };
  const wrongChoice = async (id: string, opts: string[], right: string) => {
    const r = await open(page, id);
    for (const o of opts.filter((x) => x !== right).slice(0, 2)) {
      await r.locator(`[data-option="${o}"] input`).check();
      cached.push(await check(r));
    }
    await r.locator(`[data-option="${right}"] input`).check();
    cached.push(await check(r));
  };
  const who = keyOf('demo-who-binds');
  await wrongChoice(
    'demo-who-binds',
    ['kubelet', 'replicaset-controller', 'kube-apiserver', 'kube-scheduler'],
    (who.key as { values: string[] }).values[0]!,
  );
  const pk = keyOf('demo-predict-partition');
  await wrongChoice(
    'demo-predict-partition',
    ['Pending', 'Failed', 'Unknown', 'Running'],
    (pk.key as { values: string[] }).values[0]!,
  );
  const n = await open(page, 'demo-replacement-seconds');
  for (const x of [
    '10',
    '20',
    formatNumber((keyOf('demo-replacement-seconds').key as { value: number }).value),
  ]) {
    await n.getByRole('textbox', { name: 'Your answer' }).fill(x);
    cached.push(await check(n));
  }
  const o = await open(page, 'demo-order-apply');
  for (let i = 0; i < 3; i++) {
    await o
      .locator('[data-role="order"] > li')
      .last()
      .getByRole('button', { name: /^Move up/ })
      .click();
    cached.push(await check(o));
    if ((await o.getAttribute('data-result')) === 'correct') break;
  }
  const m = await open(page, 'demo-match-responsibilities');
  const pairs = (keyOf('demo-match-responsibilities').key as { pairs: Record<string, string> })
    .pairs;
  for (const [l, rr] of Object.entries(pairs))
    await m
      .locator(`select[data-left="${l}"]`)
      .selectOption(rr === 'bind' ? 'create-pods' : 'bind');
  cached.push(await check(m));
  for (const [l, rr] of Object.entries(pairs))
    await m.locator(`select[data-left="${l}"]`).selectOption(rr);
  cached.push(await check(m));
  // What-if and task answers: Check pressed at once after typing (the run happens on Check),
  // and Check pressed after a pause, as a person does, once the island has had the answer graded
  // ahead (data-graded-ahead). Three attempts per variant, then another variant.
  const paused: number[] = [];
  const answerRuns = async (id: string, answers: ((r: Locator) => Promise<void>)[]) => {
    const r = await open(page, id);
    for (let round = 0; round < 2; round++) {
      for (const [i, fill] of answers.entries()) {
        await fill(r);
        if (i === 0) runs.push(await check(r));
        else {
          await expect(r).toHaveAttribute('data-graded-ahead', 'true', { timeout: 30_000 });
          paused.push(await check(r));
        }
      }
      await r.getByRole('button', { name: 'Try another variant' }).click();
      await expect(r).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    }
  };
  const params = (s: string, u: string) => async (r: Locator) => {
    await r.getByRole('spinbutton', { name: 'maxSurge' }).fill(s);
    await r.getByRole('spinbutton', { name: 'maxUnavailable' }).fill(u);
  };
  await answerRuns('demo-whatif-rollout', [params('1', '1'), params('2', '0'), params('1', '0')]);
  const commands = (c: string) => async (r: Locator) => {
    await r.getByRole('textbox', { name: /^Commands, one per line/ }).fill(c);
  };
  await answerRuns('demo-task-pending', [
    commands('get pods'),
    commands('get nodes --show-labels'),
    commands('label nodes node-2 disktype=ssd'),
  ]);
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
    return `n=${s.length} median=${q(0.5).toFixed(1)} ms p95=${q(0.95).toFixed(1)} ms max=${s.at(-1)!.toFixed(1)} ms`;
  };
  const all = [...cached, ...runs, ...paused];
  const report = [
    `key-based kinds (choice, predict, numeric, ordering, matching): ${stats(cached)}`,
    `answer-run kinds (what-if, task), Check at once: ${stats(runs)}`,
    `answer-run kinds (what-if, task), Check after a pause: ${stats(paused)}`,
    `all: ${stats(all)}`,
    `worker compute only, all: ${stats(workerMs)}`,
    `slowest: ${[...each]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((x) => `${x.id} ${x.ms.toFixed(1)} ms (worker ${x.worker.toFixed(1)} ms)`)
      .join(', ')}`,
  ];
  for (const line of report) {
    console.log(`quiz grading (submit → result, main thread round trip): ${line}`);
    testInfo.annotations.push({ type: 'grading-time', description: line });
  }
  expect(all.length).toBeGreaterThanOrEqual(18);
});

/** keyOrderOf is the order of an ordering question's items on the page. */
const shownOrder = (r: Locator) =>
  r
    .locator('[data-role="order"] > li')
    .evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.value!));

// Assessment integrity, in both languages and at both widths: while attempts remain, feedback
// speaks of the learner's own answer and never of the key.
for (const { lang, width, height } of [
  { lang: 'en', width: 1280, height: 900 },
  { lang: 'ja', width: 390, height: 844 },
] as const) {
  test.describe(`${lang} at ${width} px`, () => {
    test.use({ viewport: { width, height } });
    test(`a wrong answer shows no key until the last attempt (${lang}, ${width} px)`, async ({
      page,
    }) => {
      await openDemo(page, lang === 'ja' ? '/ja/demo/quiz/' : '/demo/quiz/');
      const submit = lang === 'ja' ? '答え合わせ' : 'Check';
      const noKey = async (r: Locator) => {
        await expect(r.locator('.quiz-evidence, .quiz-compare')).toHaveCount(0);
        await expect(r.locator('[data-mark="missed"]')).toHaveCount(0);
        await expect(r).not.toHaveAttribute('data-explained', 'true');
        await expect(r).toHaveAttribute('data-revealed', 'false');
      };

      // Choice: three wrong picks; the right option is marked only after the third.
      const right = (keyOf('demo-who-binds').key as { values: string[] }).values[0]!;
      const c = await open(page, 'demo-who-binds');
      const wrong = ['kubelet', 'replicaset-controller', 'kube-apiserver'].filter(
        (x) => x !== right,
      );
      for (const [i, w] of wrong.entries()) {
        await c.locator(`[data-option="${w}"] input`).check();
        await check(c, submit);
        if (i < wrong.length - 1) {
          await noKey(c);
          await expect(c.locator(`[data-option="${right}"] [data-role="mark"]`)).toBeEmpty();
          await expect(c.locator(`[data-option="${w}"] [data-role="mark"]`)).toHaveAttribute(
            'data-mark',
            'wrong',
          );
        }
      }
      await expect(c).toHaveAttribute('data-revealed', 'true');
      await expect(c.locator(`[data-option="${right}"] [data-role="mark"]`)).toHaveAttribute(
        'data-mark',
        'missed',
      );
      await expect(c.locator('.quiz-evidence')).toBeVisible();

      // Numeric: no measured number, no evidence.
      const nk = keyOf('demo-replacement-seconds').key as { value: number };
      const n = await open(page, 'demo-replacement-seconds');
      await n.locator('[data-role="number"]').fill('40');
      await check(n, submit);
      await noKey(n);
      await expect(n).not.toContainText(formatNumber(nk.value));

      // Ordering: neither the page nor the island shows the key order; a wrong order names one
      // pair of the learner's own, by its labels.
      const want = (keyOf('demo-order-apply').key as { values: string[] }).values;
      const o = await open(page, 'demo-order-apply');
      expect(await shownOrder(o)).not.toEqual(want);
      await orderTo(o, [want[1]!, want[0]!, ...want.slice(2)]);
      await check(o, submit);
      await noKey(o);
      const items = (
        lq('demo-order-apply').question as {
          items: { value: string; label: Record<string, string> }[];
        }
      ).items;
      const label = (v: string) => items.find((i) => i.value === v)!.label[lang]!;
      await expect(o.locator('[data-role="feedback"]')).toContainText(label(want[1]!));
      await expect(o.locator('[data-role="feedback"]')).toContainText(label(want[0]!));
      await expect(o.locator('[data-role="feedback"]')).not.toContainText(want[0]!);

      // Matching: the learner's rows are marked, the key is not shown.
      const pairs = (keyOf('demo-match-responsibilities').key as { pairs: Record<string, string> })
        .pairs;
      const m = await open(page, 'demo-match-responsibilities');
      const lefts = Object.keys(pairs);
      const rights = lefts.map((l) => pairs[l]!);
      // Right for the first row, the others shifted among themselves.
      await m.locator(`select[data-left="${lefts[0]}"]`).selectOption(rights[0]!);
      for (const [i, l] of lefts.slice(1).entries())
        await m
          .locator(`select[data-left="${l}"]`)
          .selectOption(rights[1 + ((i + 1) % (rights.length - 1))]!);
      await check(m, submit);
      await noKey(m);
      await expect(
        m.locator(`.quiz-row[data-left="${lefts[0]}"] [data-role="mark"]`),
      ).toHaveAttribute('data-mark', 'right');
      await expect(m.locator('.quiz-row [data-mark="wrong"]')).toHaveCount(lefts.length - 1);
      // Nothing is wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
    });
  });
}

test('no built page gives a key away: every ordering question out of key order, no fixture, explanation or model answer in the HTML', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { auditRendered, keyForPage, renderedQuestions } = await import('../src/quiz/page.ts');
  const files = readdirSync('dist', { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => join(e.parentPath, e.name));
  const keyed = new Map<string, Keyed>();
  const ordering = new Set<string>();
  const problems: string[] = [];
  for (const f of files) {
    for (const r of renderedQuestions(readFileSync(f, 'utf8'))) {
      const q = lq(r.id);
      if (q.question.kind === 'ordering') ordering.add(r.id);
      if (!keyed.has(r.id)) keyed.set(r.id, keyForPage(q));
      problems.push(...auditRendered(r, q, keyed.get(r.id)!).map((p) => `${f}: ${r.id}: ${p}`));
    }
  }
  expect(problems).toEqual([]);
  // Every ordering question of the course is on some page, and was checked.
  expect([...ordering].sort()).toEqual(
    [...QUESTIONS.values()]
      .filter((x) => x.question.kind === 'ordering')
      .map((x) => x.question.id)
      .sort(),
  );
});

test('the script an interview round loads before the debrief carries no model answer or correct fixture', async ({
  page,
}) => {
  const bodies: string[] = [];
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (['script', 'document', 'fetch', 'xhr', 'other'].includes(type))
      bodies.push(`${res.url()}\n${await res.text().catch(() => '')}`);
  });
  await openDemo(page, '/demo/interview/');
  await page.getByRole('button', { name: 'Start the round' }).click();
  for (const id of ['demo-who-binds', 'demo-order-apply', 'demo-replacement-seconds'])
    await open(page, id);
  const secrets: string[] = [];
  for (const x of QUESTIONS.values()) {
    const q = x.question;
    if (q.kind === 'interview') secrets.push(q.modelAnswer.en, q.modelAnswer.ja);
    if (q.explanation) secrets.push(q.explanation.en, q.explanation.ja);
    if (q.kind === 'task') secrets.push(...q.fixtures.correct.map((c) => c.join('\n')));
  }
  expect(bodies.length).toBeGreaterThan(3);
  expect(bodies.some((b) => b.split('\n')[0]!.includes('/quiz-answers/'))).toBe(false);
  for (const b of bodies)
    for (const s of secrets)
      expect(b.includes(s), `${b.split('\n')[0]} carries ${s.slice(0, 60)}`).toBe(false);
});

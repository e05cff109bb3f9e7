// Progress, review and interview mode: answers recorded into localStorage and kept across
// reloads, export and import through a real download and file chooser, recovery from damaged
// storage, reset, a due concept on /review/, and a timed interview round with its debrief.
// Stored progress is built here in Node with the same functions the islands use.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  PROGRESS_KEY,
  emptyProgress,
  recordGraded,
  type Graded,
  type Progress,
} from '../src/quiz/progress.ts';
import { expect, test } from './fixtures.ts';

const graded = (over: Partial<Graded> = {}): Graded => ({
  id: 'demo-who-binds',
  lesson: 'demo/quiz',
  concepts: ['scheduler-binding'],
  score: 1,
  correct: true,
  variant: 7,
  attempt: 1,
  final: true,
  ...over,
});

/** twoSolved is progress with two solved demo questions, answered at `at`. */
function twoSolved(at: Date): Progress {
  const p = recordGraded(emptyProgress(), graded(), at);
  return recordGraded(p, graded({ id: 'demo-order-apply', concepts: ['apply-to-running'] }), at);
}

/** store writes raw text under the progress key, then reloads the page. */
async function store(page: Page, text: string | null): Promise<void> {
  await page.evaluate(
    ({ key, value }) =>
      value === null ? localStorage.removeItem(key) : localStorage.setItem(key, value),
    { key: PROGRESS_KEY, value: text },
  );
  await page.reload();
}

const stored = (page: Page) =>
  page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? 'null') as Progress | null,
    PROGRESS_KEY,
  );

const totalRow = (page: Page) => page.locator('[data-course-progress] [data-lesson-row="*"]');
const demoRow = (page: Page) =>
  page.locator('[data-course-progress] [data-lesson-row="demo/quiz"]');

/** answerWhoBinds answers the multiple-choice demo question right. */
async function answerWhoBinds(page: Page): Promise<void> {
  const q = page.locator('[data-question-id="demo-who-binds"]');
  await q.scrollIntoViewIfNeeded();
  const check = q.locator('[data-role="check"]');
  await expect(check).toBeEnabled({ timeout: 30_000 });
  await q.getByLabel('kube-scheduler').check();
  await check.click();
}

test('an answer on the quiz demo page is recorded and kept across reloads', async ({ page }) => {
  await page.goto('/demo/quiz/');
  const bar = page.locator('[data-quiz-progress]');
  await expect(bar).toHaveAttribute('data-solved', '0');
  const total = await bar.getAttribute('data-total');
  expect(Number(total)).toBeGreaterThan(1);
  await answerWhoBinds(page);
  await expect(bar).toHaveAttribute('data-solved', '1');
  await expect(bar.locator('[data-role="text"]')).toHaveText(`1 of ${total} questions solved`);
  await expect(bar.locator('progress')).toHaveJSProperty('value', 1);

  const p = await stored(page);
  expect(p?.version).toBe(2);
  expect(p?.questions['demo-who-binds']).toMatchObject({
    attempts: 1,
    solved: true,
    bestScore: 1,
    lesson: 'demo/quiz',
  });
  expect(Object.keys(p?.concepts ?? {})).toEqual(['scheduler-binding']);

  await page.reload();
  await expect(bar).toHaveAttribute('data-solved', '1');
  await page.goto('/course/progress/');
  await expect(demoRow(page)).toHaveAttribute('data-solved', '1');
  await expect(totalRow(page)).toHaveAttribute('data-solved', '1');
});

test('progress exports to a file, resets, and imports back', async ({ page }) => {
  await page.goto('/course/progress/');
  await store(page, JSON.stringify(twoSolved(new Date())));
  await expect(totalRow(page)).toHaveAttribute('data-solved', '2');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export progress' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^k8s-lab-progress-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  const exported = JSON.parse(readFileSync(file, 'utf8')) as Progress;
  expect(Object.keys(exported.questions).sort()).toEqual(['demo-order-apply', 'demo-who-binds']);

  // Reset asks first; cancelling keeps everything.
  page.once('dialog', (d) => void d.dismiss());
  await page.getByRole('button', { name: 'Reset progress' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Nothing was reset.' })).toBeVisible();
  await expect(totalRow(page)).toHaveAttribute('data-solved', '2');
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Reset progress' }).click();
  await expect(totalRow(page)).toHaveAttribute('data-solved', '0');
  expect(await stored(page)).toBeNull();

  // Import through the file chooser, replacing.
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByLabel('Import a progress file').click(),
  ]);
  await chooser.setFiles(file);
  await page.getByLabel(/^Replace the progress/).check();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Imported 2 questions and 2 concepts (replaced).' }),
  ).toBeVisible();
  await expect(totalRow(page)).toHaveAttribute('data-solved', '2');

  // A file that is not progress changes nothing.
  await page.getByLabel('Import a progress file').setInputFiles({
    name: 'x.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"name":"x"}'),
  });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'not a progress export' })).toBeVisible();
  await expect(totalRow(page)).toHaveAttribute('data-solved', '2');
});

test('damaged storage is repaired, keeping the intact entries, with warnings shown', async ({
  page,
}) => {
  // A lesson page only points to the progress page, which repairs storage and lists the losses.
  await page.goto('/demo/quiz/');
  await store(page, 'garbage{{{');
  await page
    .getByRole('link', { name: 'Some stored progress is damaged: see the progress page.' })
    .click();
  await expect(page).toHaveURL(/\/course\/progress\/$/);
  const warnings = page.locator('[data-course-progress] [data-role="warnings"]');
  await expect(warnings).toBeVisible();
  await expect(warnings).toContainText('not readable at all');
  await expect(totalRow(page)).toHaveAttribute('data-solved', '0');

  // Half-broken JSON: the first question is intact, the second is cut off in the middle.
  const text = JSON.stringify(twoSolved(new Date()));
  const cut = text.indexOf('"demo-order-apply"') + 30;
  await store(page, text.slice(0, cut));
  await expect(warnings).toContainText('cut short or damaged');
  await expect(warnings).toContainText('demo-order-apply');
  await expect(totalRow(page)).toHaveAttribute('data-solved', '1');
  // The repair was written back: the intact entry survives and the next load is clean.
  const p = await stored(page);
  expect(Object.keys(p?.questions ?? {})).toEqual(['demo-who-binds']);
  await page.reload();
  await expect(totalRow(page)).toHaveAttribute('data-solved', '1');
  await expect(warnings).toBeHidden();
});

test('a concept due in the past shows on /review/ with a fresh variant of a question', async ({
  page,
}) => {
  await page.goto('/review/');
  await expect(page.locator('[data-review-list] [data-role="summary"]')).toContainText(
    'Nothing to review yet',
  );

  const longAgo = new Date(Date.now() - 60 * 86_400_000);
  const p = recordGraded(emptyProgress(), graded({ variant: 12345 }), longAgo);
  await store(page, JSON.stringify(p));
  const list = page.locator('[data-review-list]');
  await expect(list.locator('[data-role="summary"]')).toHaveText('1 concept is due for review.');
  const item = list.locator('[data-role="due"] li[data-concept="scheduler-binding"]');
  await expect(item.getByRole('heading', { name: 'scheduler-binding' })).toBeVisible();
  const q = item.locator('[data-question-id]');
  await expect(q).toHaveCount(1);
  await expect(q).toBeVisible();
  const variant = await q.getAttribute('data-variant');
  expect(variant).toMatch(/^\d+$/);
  expect(variant).not.toBe('12345');
  // Only the chosen question is shown.
  await expect(list.locator('[data-question-id]:visible')).toHaveCount(1);
});

test('nothing due says when the next review is', async ({ page }) => {
  await page.goto('/ja/review/');
  await store(page, JSON.stringify(twoSolved(new Date())));
  await expect(page.locator('[data-review-list] [data-role="summary"]')).toContainText(
    'いま復習が必要な概念はありません。',
  );
  await expect(page.locator('[data-review-list] [data-role="upcoming"] tbody tr')).toHaveCount(2);
});

test('an interview round holds feedback back until Finish, then debriefs', async ({ page }) => {
  await page.goto('/demo/interview/');
  const set = page.locator('[data-quiz-set][data-mode="interview"]');
  await expect(set.locator('[data-role="questions"]')).toBeHidden();
  await expect(set.getByRole('timer')).toHaveText('10:00');
  await set.getByRole('button', { name: 'Start the round' }).click();
  await expect(set.locator('[data-role="questions"]')).toBeVisible();
  await expect(set.getByRole('timer')).toHaveText(/^9:5\d$/);
  await expect(set.locator('[data-role="announce"]')).toHaveText(
    'The round has started: 10 minutes.',
  );

  await answerWhoBinds(page);
  const q = set.locator('[data-question-id="demo-who-binds"]');
  await expect(q).toHaveAttribute('data-result', 'recorded');
  await expect(q.locator('[data-role="feedback"]')).toBeEmpty();

  await set.getByRole('button', { name: 'Finish and see results' }).click();
  const debrief = set.locator('[data-role="debrief"]');
  await expect(debrief).toBeVisible();
  await expect(debrief.getByRole('heading', { name: 'Results' })).toBeFocused();
  await expect(debrief).toContainText('Score: 1 of 3');
  const items = debrief.locator('li');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toHaveAttribute('data-result', 'correct');
  await expect(items.nth(1)).toContainText('not answered');
  // The question now shows its feedback; the debrief links back to it.
  await expect(q).toHaveAttribute('data-result', 'correct');
  await expect(q.locator('[data-role="feedback"]')).not.toBeEmpty();
  await items.nth(0).getByRole('link').click();
  await expect(q).toBeInViewport();
  // The answer was recorded as progress too.
  expect((await stored(page))?.questions['demo-who-binds']?.solved).toBe(true);
  // No question offers attempts once the round is over.
  for (const text of await set.locator('[data-role="live"]').allTextContents())
    expect(text).not.toContain('attempts left');

  // A reload shows the finished round's debrief again, and the questions can be answered.
  await page.reload();
  await expect(debrief).toBeVisible();
  await expect(debrief).toContainText('Score: 1 of 3');
  await expect(debrief.locator('li').nth(0)).toHaveAttribute('data-result', 'correct');
  await expect(set.locator('[data-role="questions"]')).toBeVisible();
  await expect(set.getByRole('button', { name: 'Start the round' })).toBeHidden();
  await set.getByRole('button', { name: 'Start a new round' }).click();
  await expect(set.getByRole('button', { name: 'Start the round' })).toBeVisible();
  await expect(debrief).toBeHidden();
});

test('the Japanese progress page and the practice set render', async ({ page }) => {
  await page.goto('/ja/course/progress/');
  await expect(page.getByRole('heading', { name: 'コース全体の進み具合' })).toBeVisible();
  await expect(page.getByRole('button', { name: '進み具合を書き出す' })).toBeEnabled();
  await page.goto('/demo/interview/');
  const practice = page.locator('[data-quiz-set][data-mode="practice"]');
  await expect(practice.locator('[data-role="total"]')).toHaveText(
    'Answered 0 of 2 · score 0 of 2',
  );
});

test('an interview round ends itself when time runs out, announcing once a minute', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/demo/interview/');
  // Paused, the page's clock moves only with runFor, however long the steps between take (an
  // installed clock that runs on drifts past 9:30 on a busy machine before the check reads it).
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  const set = page.locator('[data-quiz-set][data-mode="interview"]');
  const announce = set.locator('[data-role="announce"]');
  await set.getByRole('button', { name: 'Start the round' }).click();
  await page.clock.runFor(30_000);
  await expect(set.getByRole('timer')).toHaveText('9:30');
  await expect(announce).toHaveText('The round has started: 10 minutes.');
  await page.clock.runFor(31_000);
  await expect(announce).toHaveText('9 minutes left.');
  await page.clock.runFor(8 * 60_000);
  await expect(announce).toHaveText('1 minute left.');
  await page.clock.runFor(60_000);
  await expect(set.getByRole('timer')).toHaveText('0:00');
  await expect(announce).toHaveText('Time is up. Here are your results.');
  await expect(set.locator('[data-role="debrief"]')).toContainText('Score: 0 of 3');
  await expect(set.getByRole('button', { name: 'Finish and see results' })).toBeHidden();
  // The clock is the context's: the axe audit after the test (e2e/fixtures.ts) needs it running.
  await page.clock.resume();
});

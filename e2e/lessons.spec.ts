// Every lesson, in both languages: figures present without JavaScript, no console errors, the
// live island and a question work, the page stays within the JavaScript budget, search finds it.
// Lessons are found on disk (content/docs/lessons/<nn-module>/<slug>.mdx), so a new lesson is
// tested without editing this file. The axe fixture audits every page opened, light and dark.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from './fixtures.ts';

const ROOT = join(import.meta.dirname, '..', 'content', 'docs');

/** Lesson is one lesson page in one language. */
interface Lesson {
  lang: 'en' | 'ja';
  path: string;
  title: string;
}

function lessons(): Lesson[] {
  const out: Lesson[] = [];
  const dir = join(ROOT, 'lessons');
  for (const module of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, module)).sort()) {
      if (!/\.mdx?$/.test(file) || file.startsWith('_')) continue;
      const slug = `lessons/${module}/${file.replace(/\.mdx?$/, '')}`;
      for (const lang of ['en', 'ja'] as const) {
        const src = join(ROOT, lang === 'ja' ? 'ja' : '', `${slug}.mdx`);
        const title = /^title:\s*(.+)$/m.exec(readFileSync(src, 'utf8'))?.[1]?.replace(/^['"]|['"]$/g, '') ?? '';
        out.push({ lang, path: `${lang === 'ja' ? '/ja' : ''}/${slug}/`, title });
      }
    }
  }
  return out;
}

/** JS_BUDGET is the most JavaScript (gzipped bytes) a lesson may load before interaction. */
const JS_BUDGET = 100_000;

const LESSONS = lessons();

test('every lesson exists in both languages', () => {
  expect(LESSONS.length).toBeGreaterThanOrEqual(12);
  const en = LESSONS.filter((l) => l.lang === 'en').map((l) => l.path);
  const ja = LESSONS.filter((l) => l.lang === 'ja').map((l) => l.path.replace(/^\/ja/, ''));
  expect(ja).toEqual(en);
});

for (const lesson of LESSONS) {
  test.describe(`${lesson.path}`, () => {
    test('figures and questions are in the HTML without JavaScript', async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(lesson.path);
      await expect(page.locator('html')).toHaveAttribute('lang', lesson.lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(lesson.title);
      expect(await page.locator('figure.kal-figure svg[role="img"]').count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator('[data-question-id]').count()).toBeGreaterThanOrEqual(5);
      expect(await page.locator('[data-cluster-lab]').count()).toBeGreaterThanOrEqual(1);
      await context.close();
    });

    test('loads without console errors, within the JavaScript budget; island and a question work', async ({ page }) => {
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      let js = 0;
      let counting = true;
      page.on('response', async (r) => {
        if (!counting || r.request().resourceType() !== 'script') return;
        const body = await r.body().catch(() => Buffer.alloc(0));
        js += gzipSync(body).length;
      });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(lesson.path);
      await page.waitForLoadState('networkidle');
      counting = false;
      expect(js, `JavaScript before interaction: ${js} bytes gzipped`).toBeLessThanOrEqual(JS_BUDGET);

      const island = page.locator('[data-cluster-lab]').first();
      await island.scrollIntoViewIfNeeded();
      await expect(island).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
      const before = await island.getAttribute('data-time');
      await island.locator('[data-role="step"]').click();
      await expect(island).not.toHaveAttribute('data-time', before ?? '');
      await expect(island).toHaveAttribute('data-time', /^[1-9]\d*$/);

      // The first question outside an interview set (those wait for Start).
      const question = page.locator('[data-question-id]:not([data-quiz-set] *)').first();
      await question.scrollIntoViewIfNeeded();
      await answerSomething(question);
      await expect(question).toHaveAttribute('data-result', /^(correct|partly|wrong|recorded)$/, { timeout: 60_000 });
      expect(errors).toEqual([]);
    });
  });
}

for (const lang of ['en', 'ja'] as const) {
  test(`search finds every lesson (${lang})`, async ({ page }) => {
    await page.goto(lang === 'ja' ? '/ja/' : '/');
    for (const lesson of LESSONS.filter((l) => l.lang === lang)) {
      const open = page.getByRole('button', { name: lang === 'ja' ? '検索' : 'Search', exact: true });
      await expect(open).toBeEnabled();
      await open.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      const box = dialog.getByRole('search').getByRole('textbox');
      await box.fill(lesson.title);
      await expect(dialog.locator(`a[href^="${lesson.path}"]`).first()).toBeVisible();
      await page.keyboard.press('Escape');
    }
  });
}

/** answerSomething fills in a question with any well-formed answer and submits it. */
async function answerSomething(question: import('@playwright/test').Locator): Promise<void> {
  await expect(question).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  const radio = question.locator('input[type="radio"], input[type="checkbox"]');
  if ((await radio.count()) > 0) await radio.first().check();
  const text = question.locator('input[type="text"]');
  for (let i = 0; i < (await text.count()); i++) await text.nth(i).fill('1');
  const numbers = question.locator('input[type="number"]');
  for (let i = 0; i < (await numbers.count()); i++)
    await numbers.nth(i).fill((await numbers.nth(i).getAttribute('min')) ?? '0');
  const selects = question.locator('select');
  for (let i = 0; i < (await selects.count()); i++) await selects.nth(i).selectOption({ index: 1 });
  const area = question.locator('textarea');
  if ((await area.count()) > 0) await area.first().fill('get pods');
  await question.locator('button[data-role="check"]').click();
}

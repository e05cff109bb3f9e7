import { resolve } from 'node:path';
import { courseLessons, lessonPath } from '../src/sidebar.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const docsRoot = resolve(import.meta.dirname, '..', 'content', 'docs');
const LANGS = [
  { lang: 'en', prefix: '' },
  { lang: 'ja', prefix: '/ja' },
];

test.describe('home pages', () => {
  test('English home explains the course', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle(/Kubernetes Architecture Lab/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kubernetes Architecture Lab');
    await expect(page.locator('.hero')).toContainText('Every component watches kube-apiserver');
    await expect(page.getByRole('heading', { name: 'How it works' })).toBeVisible();
    await page.locator('.hero').getByRole('link', { name: 'Course outline' }).click();
    await expect(page).toHaveURL('/course/outline/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Course outline');
  });

  test('Japanese home is served at /ja/ in Japanese', async ({ page }) => {
    await page.goto('/ja/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.locator('.hero')).toContainText('kube-apiserver を監視し');
    await expect(page.getByRole('heading', { name: '学び方' })).toBeVisible();
    await page.locator('.hero').getByRole('link', { name: 'コースの構成を見る' }).click();
    await expect(page).toHaveURL('/ja/course/outline/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('コースの構成');
  });
});

test('the home page and the outline link every lesson, in both languages', async ({ page }) => {
  const lessons = courseLessons(docsRoot);
  for (const { prefix } of LANGS) {
    for (const path of ['/', '/course/outline/']) {
      await page.goto(`${prefix}${path}`);
      const content = page.locator('.sl-markdown-content');
      for (const { slug } of lessons) {
        await expect(content.locator(`a[href="${prefix}/${slug}/"]`).first()).toBeVisible();
      }
    }
  }
  // A link leads to the lesson it names.
  await page.goto('/ja/course/outline/');
  const first = page.locator('.sl-markdown-content a[href*="/lessons/"]').first();
  const title = (await first.locator('.title').textContent())?.trim();
  await first.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title ?? '');
});

test('Next walks the outline and the lessons in order, and no further', async ({ request }) => {
  /** link reads a page's Previous or Next link from the built HTML. */
  const link = async (url: string, rel: 'prev' | 'next') => {
    const html = await (await request.get(url)).text();
    return new RegExp(`<a href="([^"]+)" rel="${rel}"`).exec(html)?.[1];
  };
  const path = lessonPath(docsRoot);
  for (const { prefix } of LANGS) {
    const urls = path.map((slug) => `${prefix}/${slug}/`);
    const walked = [urls[0]];
    for (let next = await link(urls[0]!, 'next'); next; next = await link(next, 'next')) {
      expect(walked, `Next from ${walked.at(-1)} loops back`).not.toContain(next);
      walked.push(next);
    }
    expect(walked).toEqual(urls);
    expect(await link(urls[0]!, 'prev')).toBeUndefined();
    expect(await link(urls[1]!, 'prev')).toBe(urls[0]);
    // The reference pages link among themselves, never into the lesson path.
    for (const slug of ['course/fidelity', 'course/progress', 'review', 'demo/figures']) {
      for (const rel of ['prev', 'next'] as const) {
        const target = await link(`${prefix}/${slug}/`, rel);
        if (target) expect(urls, `${rel} of ${slug}`).not.toContain(target);
      }
    }
  }
});

test('switching language keeps the section being read', async ({ page }) => {
  const lesson = '/lessons/01-architecture/01-control-plane-and-nodes/';
  const headings = page.locator('.sl-markdown-content :is(h2, h3, h4, h5, h6)[id]');
  const idAt = (i: number) => headings.nth(i).getAttribute('id');

  // Arriving by an anchor: the Japanese page opens at its heading of the same section.
  await page.goto(lesson);
  const anchor = await idAt(2);
  await page.goto(`${lesson}#${anchor}`);
  await page.getByRole('combobox', { name: 'Select language' }).first().selectOption('日本語');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  const jaId = await idAt(2);
  expect(jaId).not.toBe(anchor);
  await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toBe(`#${jaId}`);
  await expect(headings.nth(2)).toBeInViewport();

  // Scrolled to a section without an anchor: back in English, at that section's heading.
  await headings.nth(5).evaluate((h) => h.scrollIntoView());
  await page.evaluate(() => scrollBy(0, 60));
  await page.getByRole('combobox', { name: '言語の選択' }).first().selectOption('English');
  await expect(page).toHaveURL(new RegExp(`${lesson}#`));
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const enId = await idAt(5);
  await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toBe(`#${enId}`);
  await expect(headings.nth(5)).toBeInViewport();
});

test('the language switcher moves between the English and Japanese pages', async ({ page }) => {
  await page.goto('/course/outline/');
  await page.getByRole('combobox', { name: 'Select language' }).first().selectOption('日本語');
  await expect(page).toHaveURL('/ja/course/outline/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('コースの構成');

  await page.getByRole('combobox', { name: '言語の選択' }).first().selectOption('English');
  await expect(page).toHaveURL('/course/outline/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Course outline');
});

test.describe('search', () => {
  const cases = [
    { lang: 'en', start: '/', button: 'Search', query: 'interview drill', hit: '/course/outline/' },
    { lang: 'ja', start: '/ja/', button: '検索', query: '面接対策', hit: '/ja/course/outline/' },
  ];
  for (const { lang, start, button, query, hit } of cases) {
    test(`Pagefind finds the outline page (${lang})`, async ({ page }, testInfo) => {
      await page.goto(start);
      const open = page.getByRole('button', { name: button, exact: true });
      await expect(open).toBeEnabled();
      await open.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await dialog.getByRole('search').getByRole('textbox').fill(query);
      const result = dialog.locator(`a[href^="${hit}"]`).first();
      await expect(result).toBeVisible();
      await expectAccessible(page, testInfo, `${start} with search results`);
      await result.click();
      await expect(page).toHaveURL(new RegExp(`^[^#]*${hit}`));
    });
  }
});

test('search indexes lesson text but no answer', async ({ page }) => {
  /** indexed returns the text Pagefind holds for each page that matches a query. */
  const indexed = (query: string) =>
    page.evaluate(async (q) => {
      const pagefind = await import(/* @vite-ignore */ `${location.origin}/pagefind/pagefind.js`);
      const { results } = await pagefind.search(q);
      return Promise.all(
        results.map(async (r: { data: () => Promise<{ url: string; content: string }> }) => {
          const { url, content } = await r.data();
          return { url, content: content.replace(/\s+/g, ' ') };
        }),
      );
    }, query);
  await page.goto('/');
  const lessonText = 'Every watcher has the same shape';
  const hits = await indexed(lessonText);
  expect(hits.find((h) => h.content.includes(lessonText))?.url).toBe(
    '/lessons/01-architecture/01-control-plane-and-nodes/',
  );
  // The authoring guide shows this page's own question file: its feedback, explanations and
  // fixtures are answers. So are model answers, wherever a question is rendered.
  for (const answer of [
    'ordinary workloads do not tolerate',
    'its 2 CPUs hold both 500m requests',
    'label nodes node-2 disktype=ssd',
    'The EndpointSlice controller and kube-proxy then route Service traffic to the Pod',
  ]) {
    const leaks = (await indexed(answer)).filter((h) => h.content.includes(answer));
    expect(
      leaks.map((h) => h.url),
      answer,
    ).toEqual([]);
  }
});

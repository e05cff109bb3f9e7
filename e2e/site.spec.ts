import { expect, expectAccessible, test } from './fixtures.ts';

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

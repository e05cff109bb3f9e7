// The build-time figures work with JavaScript off: each demo page shows every figure as an
// accessible SVG with its text alternative and Mermaid source, and loads no script for them.
// The axe fixture audits both pages in light and dark; axe needs JavaScript, so a first test opens
// the pages with it on (and each page is audited once per worker), then the rest run with it off.
import { expect, test } from './fixtures.ts';

test.describe.configure({ mode: 'serial' });

const PAGES = [
  { lang: 'en', path: '/demo/figures/', steps: 'Steps as text', mermaid: 'Mermaid source' },
  {
    lang: 'ja',
    path: '/ja/demo/figures/',
    steps: '手順をテキストで見る',
    mermaid: 'Mermaid ソース',
  },
];

/** FIGURES are the figures on each demo page, in order. */
const FIGURES = ['sequence', 'sequence', 'graph', 'class', 'timeline', 'timeline'];

test('figure pages load no script beyond what every page loads (and pass axe)', async ({
  page,
}) => {
  const srcs = async (path: string) => {
    await page.goto(path);
    return page.locator('script[src]').evaluateAll((ss) => ss.map((s) => s.getAttribute('src')));
  };
  const baseline = new Set(await srcs('/course/outline/'));
  for (const { path } of PAGES) {
    for (const src of await srcs(path)) expect(baseline, `${path} loads ${src}`).toContain(src);
    await expect(page.locator('figure.kal-figure svg[role="img"]')).toHaveCount(FIGURES.length);
    await expect(page.locator('.kal-figure script, .kal-component-table script')).toHaveCount(0);
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  for (const { lang, path, steps, mermaid } of PAGES) {
    test(`figures render without JavaScript (${lang})`, async ({ page }) => {
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(r.url());
      });
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);

      const figures = page.locator('figure.kal-figure');
      await expect(figures).toHaveCount(FIGURES.length);
      expect(
        await figures.evaluateAll((fs) => fs.map((f) => f.getAttribute('data-figure'))),
      ).toEqual(FIGURES);
      for (let i = 0; i < FIGURES.length; i++) {
        const fig = figures.nth(i);
        const svg = fig.locator('svg[role="img"]');
        await expect(svg).toBeVisible();
        // The SVG is named by its own <title> (and described by <desc>).
        const title = (await svg.locator(':scope > title').textContent()) ?? '';
        expect(title.trim().length).toBeGreaterThan(0);
        await expect(svg).toHaveAccessibleName(
          new RegExp(title.slice(0, 20).replace(/[()]/g, '.')),
        );
        await expect(fig.locator('figcaption')).toContainText(title.trim());
        // Every figure offers a text alternative in a <details>.
        await expect(fig.locator('details.kal-figure__alt > summary')).toHaveCount(1);
        if (FIGURES[i] !== 'timeline') {
          const source = fig.locator('details.kal-figure__mermaid');
          await expect(source.locator('summary')).toHaveText(mermaid);
          await expect(source.locator('pre code')).toContainText(
            /^(sequenceDiagram|flowchart|classDiagram)/,
          );
        }
      }

      // Sequence diagrams: one list item per numbered arrow.
      for (const i of [0, 1]) {
        const fig = figures.nth(i);
        await expect(fig.locator('details.kal-figure__alt > summary')).toHaveText(steps);
        const arrows = await fig.locator('svg .kal-fig__step').count();
        expect(arrows).toBeGreaterThan(5);
        await expect(fig.locator('details.kal-figure__alt ol > li')).toHaveCount(arrows);
      }
      // Dashed watch arrows exist and the legend explains them.
      await expect(
        figures.nth(0).locator('.kal-fig__step--watch .kal-fig__arrow--watch').first(),
      ).toBeAttached();

      // The component table is a real table with one row per component.
      const table = page.locator('.kal-component-table table');
      await expect(table.locator('tbody tr')).not.toHaveCount(0);
      await expect(table.locator('tbody th code').first()).toHaveText('kubectl');

      // Opening the text alternative shows the steps.
      await figures.nth(1).locator('details.kal-figure__alt > summary').click();
      await expect(figures.nth(1).locator('details.kal-figure__alt ol > li').first()).toBeVisible();

      // No figure markup contains a script, and the page fetched none for figures.
      await expect(page.locator('.kal-figure script, .kal-component-table script')).toHaveCount(0);
      expect(scripts).toEqual([]);
    });
  }
});

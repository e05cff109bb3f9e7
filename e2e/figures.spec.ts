// The build-time figures work with JavaScript off: each demo page shows every figure as an
// accessible SVG with its text alternative and Mermaid source; with it on, they add one small
// script (Figure.astro's bootstrap for "View full size"), whose dialog code loads on first use.
// The axe fixture audits both pages in light and dark; axe needs JavaScript, so the first test
// opens the pages with it on (the fixture leaves pages opened with it off to such a test), and the
// tests run in parallel like every other file's.
import AxeBuilder from '@axe-core/playwright';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, inflateSync } from 'node:zlib';
import { AXE_TAGS, expect, expectAccessible, test } from './fixtures.ts';

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

test('figure pages load one small script beyond what every page loads (and pass axe)', async ({
  page,
}) => {
  const srcs = async (path: string) => {
    await page.goto(path);
    return page.locator('script[src]').evaluateAll((ss) => ss.map((s) => s.getAttribute('src')));
  };
  const baseline = new Set(await srcs('/course/outline/'));
  for (const { path } of PAGES) {
    const extra = (await srcs(path)).filter((src) => !baseline.has(src));
    // Only Figure.astro's bootstrap (it shows "View full size"; the dialog code loads on use).
    expect(extra, `${path} loads ${extra.join(', ')}`).toHaveLength(1);
    expect(extra[0]).toMatch(/Figure\.astro_astro_type_script/);
    const bytes = await page.evaluate(
      async (src) => (await (await fetch(src)).text()).length,
      extra[0]!,
    );
    expect(bytes, 'the figure bootstrap stays small').toBeLessThan(2000);
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

// ---------------------------------------------------------------------------------------------
// Legible at a glance on any screen. Each lesson with figures and the demo page, in both
// languages, is opened once per width (in its own context, so the axe fixture does not audit the
// lessons again; lessons.spec.ts does). Every figure's smallest text, as shown (its computed
// font-size times the SVG's scale on screen), must be at least 12 px; a figure wider than its
// frame must scroll inside it (never widen the page) and show the cue and "View full size".

/** FIGURE_PAGES are the pages whose figures are checked: lessons 1 to 5 and 7 and the demo, en and ja. */
const FIGURE_PAGES = [
  '/lessons/01-architecture/01-control-plane-and-nodes/',
  '/lessons/02-apply-to-running/01-from-apply-to-running/',
  '/lessons/03-node-failure/01-when-a-node-fails/',
  '/lessons/04-resources-and-rollouts/01-resources-rollouts-scaling/',
  '/lessons/05-interview-drill/01-interview-drill/',
  '/lessons/07-services-dns/01-services-dns-packets/',
  '/demo/figures/',
].flatMap((p) => [p, `/ja${p}`]);

// One test per page and width, so that the browser tests' workers share them out.
for (const width of [1280, 390])
  for (const path of FIGURE_PAGES)
    test(`every figure is legible or opens full size at ${width} px: ${path}`, async ({
      browser,
    }) => {
      const context = await browser.newContext({
        viewport: { width, height: width > 500 ? 900 : 844 },
      });
      const page = await context.newPage();
      await page.goto(path);
      const figures = await page.locator('figure.kal-figure').evaluateAll((figs) =>
        figs.map((f) => {
          let minFont = Infinity;
          for (const t of f.querySelectorAll('svg.kal-fig text')) {
            const m = (t as SVGGraphicsElement).getScreenCTM();
            const scale = m ? Math.hypot(m.a, m.b) : 1;
            minFont = Math.min(minFont, parseFloat(getComputedStyle(t).fontSize) * scale);
          }
          const frame = f.querySelector('.kal-figure__scroll')!;
          const tools = f.querySelector('.kal-figure__tools');
          const button = f.querySelector<HTMLButtonElement>('button[data-kal-full]');
          const visible = (e: Element | null) =>
            !!e && e.getBoundingClientRect().width > 0 && getComputedStyle(e).display !== 'none';
          return {
            id: f.id,
            kind: f.getAttribute('data-figure'),
            lifelines: f.querySelectorAll('svg.kal-fig .kal-fig__participant').length,
            minFont,
            scrolls: frame.scrollWidth > frame.clientWidth + 1,
            cue: visible(tools),
            button: visible(button) && !button!.disabled,
            right: f.getBoundingClientRect().right,
          };
        }),
      );
      expect(figures.length, `${path} has figures`).toBeGreaterThan(0);
      // The page itself never scrolls sideways.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - innerWidth),
        `${path} at ${width} px: the page is no wider than the screen`,
      ).toBeLessThanOrEqual(0);
      for (const f of figures) {
        const where = `${path} #${f.id} at ${width} px`;
        expect(f.minFont, `${where}: smallest text as shown`).toBeGreaterThanOrEqual(12);
        expect(f.right, `${where}: stays inside the screen`).toBeLessThanOrEqual(width);
        if (f.scrolls) {
          expect(f.cue, `${where}: scrolls, so the cue shows`).toBe(true);
          expect(f.button, `${where}: scrolls, so "View full size" shows`).toBe(true);
        }
        // On a desktop only these open full size: a sequence diagram of more than five
        // lifelines, and lesson 4's five lifelines with their field names (which no spacing
        // fits). A resource diagram (layers stacked), a component graph (nodes merged, the worker
        // node below the control plane) and any other sequence diagram (its spacing tightened)
        // fit the column and are read there.
        const wideByDesign =
          f.kind === 'sequence' &&
          (f.lifelines > 5 || path.includes('/04-resources-and-rollouts/'));
        if (width === 1280 && !wideByDesign)
          expect(f.scrolls, `${where}: a ${f.kind} figure fits the desktop column`).toBe(false);
      }
      // "Edit in mermaid.live" links get the figure's source (zlib + base64url state, as
      // mermaid.live reads it) once pointed at or focused.
      // (On the demo pages only, which have every kind of figure, to keep the test short.)
      if (width === 1280 && path.includes('/demo/')) {
        const links = page.locator('a[data-kal-mermaid]');
        for (let i = 0; i < (await links.count()); i++) {
          const link = links.nth(i);
          await link.locator('xpath=ancestor::details[1]').evaluate((d) => {
            (d as HTMLDetailsElement).open = true;
          });
          await link.focus();
          await expect(link).toHaveAttribute('href', /#pako:/);
          const href = (await link.getAttribute('href'))!;
          const state = JSON.parse(
            inflateSync(Buffer.from(href.split('#pako:')[1]!, 'base64url')).toString('utf8'),
          );
          const code = await link.locator('xpath=ancestor::details[1]//pre/code').textContent();
          expect(state.code, `${path}: mermaid.live link ${i} carries its source`).toBe(code);
        }
      }
      // The component table: one card per component (its rows laid out as blocks) in a column
      // narrower than 48rem; nothing is cut off or wider than the screen.
      const tables = page.locator('.kal-component-table');
      for (let i = 0; i < (await tables.count()); i++) {
        const t = tables.nth(i);
        const shape = await t.evaluate((e) => {
          const wrap = e.querySelector('.kal-table-wrap')!;
          const row = e.querySelector('tbody tr')!;
          return {
            display: getComputedStyle(row).display,
            cut: wrap.scrollWidth > wrap.clientWidth + 1,
            right: Math.max(
              ...[...e.querySelectorAll('tbody tr')].map((r) => r.getBoundingClientRect().right),
            ),
          };
        });
        // The lesson column (632 or 358 px) is narrower than the table's 48rem: cards.
        expect(shape.display, `${path}: component table rows are cards`).toBe('block');
        // Compact cards: on a phone each cell starts with its header on the same line (no line
        // of its own), and a card's cells sit close together.
        if (width < 500) {
          const cards = await t.evaluate((e) => {
            const tds = [...e.querySelectorAll('tbody td')];
            return {
              inline: tds.every((td) => getComputedStyle(td, '::before').display === 'inline'),
              // The shortest cells ("where it runs: control plane") take one line of text.
              oneLine: Math.min(...tds.map((td) => td.getBoundingClientRect().height)),
              lineHeight: parseFloat(getComputedStyle(tds[0]!).lineHeight),
              tallest: Math.max(
                ...[...e.querySelectorAll('tbody tr')].map((r) => r.getBoundingClientRect().height),
              ),
            };
          });
          expect(cards.inline, `${path}: each cell's header runs into its value`).toBe(true);
          expect(cards.oneLine, `${path}: a short cell is one line`).toBeLessThan(
            cards.lineHeight * 1.6,
          );
          expect(cards.tallest, `${path}: no card is taller than the screen's half`).toBeLessThan(
            422,
          );
        }
        expect(shape.cut, `${path}: component table is not cut off`).toBe(false);
        expect(shape.right, `${path}: component table fits the screen`).toBeLessThanOrEqual(width);
      }
      await context.close();
    });

test('"View full size" works from the keyboard and passes axe (dark)', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    colorScheme: 'dark',
  });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('starlight-theme', 'dark'));
  await page.goto('/lessons/02-apply-to-running/01-from-apply-to-running/');
  const figure = page.locator('figure.kal-figure').first();
  const button = figure.getByRole('button', { name: 'View full size' });
  const title = ((await figure.locator('svg > title').textContent()) ?? '').trim();
  const width = await figure
    .locator('svg.kal-fig')
    .evaluate((s) => (s as SVGSVGElement).viewBox.baseVal.width);

  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  // The figure itself moved into the dialog, drawn at 100 %; focus is on the pannable pane.
  await expect(figure.locator('svg.kal-fig')).toHaveCount(0);
  const svg = dialog.locator('svg.kal-fig');
  await expect(svg).toHaveCount(1);
  expect(Math.round((await svg.boundingBox())!.width)).toBe(Math.round(width));
  await expect(dialog.locator('output')).toHaveText('100 %');
  const pane = dialog.locator('.kal-zoom__pane');
  await expect(pane).toBeFocused();
  // Arrow keys pan (the pane scrolls natively); + zooms in, 0 goes back to 100 %.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => pane.evaluate((p) => p.scrollLeft)).toBeGreaterThan(0);
  await page.keyboard.press('+');
  await expect(dialog.locator('output')).toHaveText('125 %');
  expect(Math.round((await svg.boundingBox())!.width)).toBe(Math.round(width * 1.25));
  await page.keyboard.press('0');
  await expect(dialog.locator('output')).toHaveText('100 %');
  await dialog.getByRole('button', { name: 'Zoom out' }).click();
  await expect(dialog.locator('output')).toHaveText('75 %');
  await pane.focus();
  await expectAccessible(page, testInfo, 'full-size dialog (dark)');

  // Escape closes it, the figure goes back and focus returns to the button.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(figure.locator('svg.kal-fig')).toHaveCount(1);
  await expect(button).toBeFocused();
  await context.close();
});

test('at 1280 px a figure wider than the column opens full size from the keyboard (ja, reduced motion)', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    reducedMotion: 'reduce',
    locale: 'ja-JP',
  });
  const page = await context.newPage();
  await page.goto('/ja/lessons/02-apply-to-running/01-from-apply-to-running/');
  // The endpoints sequence (seven lifelines) is wider than the 632 px column: its frame scrolls
  // and offers the button.
  const wide = await page.locator('figure.kal-figure').evaluateAll((fs) =>
    fs.findIndex((f) => {
      const frame = f.querySelector('.kal-figure__scroll')!;
      return frame.scrollWidth > frame.clientWidth + 1;
    }),
  );
  expect(wide).toBeGreaterThanOrEqual(0);
  const figure = page.locator('figure.kal-figure').nth(wide);
  const frame = figure.locator('.kal-figure__scroll');
  expect(await frame.evaluate((f) => f.scrollWidth > f.clientWidth + 1)).toBe(true);
  const button = figure.getByRole('button', { name: '原寸で表示' });
  await expect(button).toBeVisible();
  const title = ((await figure.locator('svg > title').textContent()) ?? '').trim();
  const width = await figure
    .locator('svg.kal-fig')
    .evaluate((s) => (s as SVGSVGElement).viewBox.baseVal.width);

  // Tab from the scrolling frame reaches the button; Enter opens the dialog.
  await frame.focus();
  await page.keyboard.press('Tab');
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  // Nothing moves: the dialog opens without a transition or animation.
  expect(
    await dialog.evaluate((d) => {
      const cs = getComputedStyle(d);
      return [cs.animationName, cs.transitionDuration];
    }),
  ).toEqual(['none', '0s']);
  // At its natural size, all of it reachable in the pane (nothing cut off), text at 12 px or more.
  const svg = dialog.locator('svg.kal-fig');
  expect(Math.round((await svg.boundingBox())!.width)).toBe(Math.round(width));
  const pane = dialog.locator('.kal-zoom__pane');
  await expect(pane).toBeFocused();
  expect(
    await pane.evaluate(
      (p) => p.scrollWidth >= p.querySelector('svg')!.getBoundingClientRect().width,
    ),
  ).toBe(true);
  const minFont = await svg.evaluate((s) =>
    Math.min(
      ...[...s.querySelectorAll('text')].map((t) => {
        const m = (t as SVGGraphicsElement).getScreenCTM()!;
        return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      }),
    ),
  );
  expect(minFont).toBeGreaterThanOrEqual(12);
  await expectAccessible(page, testInfo, 'full-size dialog (ja, 1280)');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(figure.locator('svg.kal-fig')).toHaveCount(1);
  await expect(button).toBeFocused();
  await context.close();
});

// ---------------------------------------------------------------------------------------------
// Mermaid, checked: every figure's Mermaid source on the built site is parsed and rendered by the
// real mermaid package (node_modules/mermaid, a dev dependency) in this Chromium. A source
// Mermaid rejects fails. (That each "Edit in mermaid.live" link carries its figure's source is
// checked in the 1280 px legibility test above, which already has every page open.)
// With FIGURE_BENCH=1 it also prints our SVG's size against Mermaid's for the same figure, and
// axe's result for Mermaid's SVGs in dark mode (BENCHMARKS.md, "Figures: our renderer and Mermaid").

const DIST = join(import.meta.dirname, '..', 'dist');
const MERMAID_JS = join(
  import.meta.dirname,
  '..',
  'node_modules',
  'mermaid',
  'dist',
  'mermaid.min.js',
);

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? htmlFiles(join(dir, e.name))
      : e.name.endsWith('.html')
        ? [join(dir, e.name)]
        : [],
  );
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

/** BuiltFigure is one figure with Mermaid source, as the built site ships it. */
interface BuiltFigure {
  page: string;
  id: string;
  mermaid: string;
  svgBytes: number;
}

function builtFigures(): BuiltFigure[] {
  const out: BuiltFigure[] = [];
  for (const file of htmlFiles(DIST)) {
    const html = readFileSync(file, 'utf8');
    for (const m of html.matchAll(
      /<figure class="kal-figure"[^>]*\sid="([^"]+)"[^>]*>([\s\S]*?)<\/figure>/g,
    )) {
      const body = m[2]!;
      const code = /<code class="language-mermaid">([\s\S]*?)<\/code>/.exec(body)?.[1];
      if (code === undefined) continue;
      const svg = /<svg [\s\S]*?<\/svg>/.exec(body)?.[0] ?? '';
      out.push({
        page: file.slice(DIST.length),
        id: m[1]!,
        mermaid: unescape(code),
        svgBytes: Buffer.byteLength(svg),
      });
    }
  }
  return out;
}

test("Mermaid parses and renders every figure's source", async ({ browser }) => {
  test.setTimeout(180_000);
  const figures = builtFigures();
  expect(figures.length).toBeGreaterThanOrEqual(20);
  const sources = [...new Set(figures.map((f) => f.mermaid))];
  const bench = !!process.env.FIGURE_BENCH;
  const context = await browser.newContext({ colorScheme: bench ? 'dark' : 'light' });
  const page = await context.newPage();
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>Mermaid check</title></head><body><main></main></body></html>',
  );
  await page.addScriptTag({ path: MERMAID_JS });
  const results = await page.evaluate(
    async ({ sources, theme }) => {
      const mermaid = (
        window as unknown as {
          mermaid: {
            initialize: (c: object) => void;
            parse: (s: string) => Promise<unknown>;
            render: (id: string, s: string) => Promise<{ svg: string }>;
            version?: string;
          };
        }
      ).mermaid;
      mermaid.initialize({ startOnLoad: false, theme, securityLevel: 'strict' });
      const out: { error?: string; svg?: string }[] = [];
      for (const [i, src] of sources.entries()) {
        try {
          await mermaid.parse(src);
          const { svg } = await mermaid.render(`m${i}`, src);
          out.push({ svg });
        } catch (e) {
          out.push({ error: String((e as Error).message ?? e).slice(0, 400) });
        }
      }
      return out;
    },
    { sources, theme: bench ? 'dark' : 'default' },
  );
  const rejected = results.flatMap((r, i) =>
    r.error ? [`${sources[i]!.split('\n')[0]} ...: ${r.error}`] : [],
  );
  expect(rejected, 'sources Mermaid rejects').toEqual([]);

  if (bench) {
    const version = JSON.parse(
      readFileSync(join(MERMAID_JS, '..', '..', 'package.json'), 'utf8'),
    ).version;
    const mermaidBytes = new Map(sources.map((s, i) => [s, Buffer.byteLength(results[i]!.svg!)]));
    const rows = figures.filter((f) => !f.page.startsWith('/ja/'));
    let ours = 0;
    let theirs = 0;
    let oursGz = 0;
    let theirsGz = 0;
    for (const f of rows) {
      ours += f.svgBytes;
      theirs += mermaidBytes.get(f.mermaid)!;
    }
    for (const f of rows) {
      const html = readFileSync(join(DIST, f.page), 'utf8');
      const svg =
        new RegExp(
          `<figure class="kal-figure"[^>]*id="${f.id}"[\\s\\S]*?(<svg [\\s\\S]*?</svg>)`,
        ).exec(html)?.[1] ?? '';
      oursGz += gzipSync(svg).length;
      theirsGz += gzipSync(results[sources.indexOf(f.mermaid)]!.svg!).length;
    }
    // axe on Mermaid's own SVGs, dark theme, on a dark page.
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>Mermaid dark</title></head><body style="background:#17181c;color:#fff"><main>${results
        .map((r, i) => `<figure><figcaption>Figure ${i + 1}</figcaption>${r.svg}</figure>`)
        .join('')}</main></body></html>`,
    );
    const axe = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
    console.log(
      [
        `mermaid ${version}: ${rows.length} figures (English pages), ${sources.length} distinct sources`,
        `SVG bytes, ours ${ours} vs Mermaid ${theirs} (${(theirs / ours).toFixed(2)}x)`,
        `gzipped, ours ${oursGz} vs Mermaid ${theirsGz} (${(theirsGz / oursGz).toFixed(2)}x)`,
        `axe on Mermaid's SVGs (dark theme): ${axe.violations.map((v) => `${v.id} x${v.nodes.length}`).join(', ') || 'no violations'}`,
        ...rows.map(
          (f) =>
            `  ${f.page} #${f.id}: ours ${f.svgBytes} B, Mermaid ${mermaidBytes.get(f.mermaid)} B`,
        ),
      ].join('\n'),
    );
  }
  await context.close();
});

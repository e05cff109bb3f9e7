// Shared Playwright fixtures. Import `test` and `expect` from here, not from @playwright/test, and
// every page a test opens is checked for accessibility once the test is done.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** AXE_TAGS are the rule sets every page must pass: WCAG 2.0 and 2.1, levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * ACCEPTED lists axe findings reviewed by a person and judged not to be barriers, each with the
 * reason. Keep it short; everything else fails the test.
 */
const ACCEPTED: { rule: string; target: string; reason: string }[] = [
  {
    rule: 'label-content-name-mismatch',
    target: 'button[data-open-modal=""]',
    reason:
      "Starlight's search button is named by its visible word (Search / 検索); the extra visible " +
      'text is the Ctrl K shortcut hint, which is also exposed through aria-keyshortcuts.',
  },
];

/** COLOR_SCHEMES are audited separately: Starlight follows the reader's light or dark preference. */
const COLOR_SCHEMES = ['light', 'dark'] as const;

/**
 * COLOR_RULES are the rules in AXE_TAGS whose result depends on colours: the only ones whose
 * result can differ between two colour schemes, since a scheme changes only colours (the same
 * DOM, the same layout: Starlight switches custom properties under `data-theme`). A page's first
 * scheme runs every rule, its second scheme these (BENCHMARKS.md, `npm test`).
 */
export const COLOR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * claimAudit reports whether this worker is the first in the run to audit key (a page in a colour
 * scheme), so each is audited once per run whichever worker opens it. The workers share the claims
 * through one directory per key (mkdir either creates it or fails: atomic), under the project's
 * output directory (emptied at the start of every run) in a folder named by the run
 * (playwright.config.ts sets KAL_E2E_RUN in the runner; its workers inherit it).
 */
function claimAudit(testInfo: TestInfo, key: string): boolean {
  const run = process.env.KAL_E2E_RUN ?? String(process.ppid);
  const dir = join(testInfo.project.outputDir, `.axe-audited-${run}`);
  mkdirSync(dir, { recursive: true });
  try {
    mkdirSync(join(dir, createHash('sha256').update(key).digest('hex').slice(0, 32)));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

export const test = base.extend<{ axeAudit: void }>({
  // axeAudit runs for every test: it records each document the test's page navigates to, and when
  // the test is done audits each one with axe-core in a fresh tab, in both colour schemes, unless a
  // test (in any worker) has audited it already this run (claimAudit). A violation fails the test
  // that audited the page. Each page is loaded once: the second scheme is emulated on the loaded
  // page, which Starlight follows as it follows a reader's system switching (ThemeSelect.astro),
  // and audited with the colour rules (COLOR_RULES). A page opened with JavaScript off is left to
  // a test that opens it with JavaScript on: axe and the page's own scripts need it. The audit
  // has its own timeout, apart from the test's, because axe's colour-contrast check is slow on a
  // busy 2-core machine.
  axeAudit: [
    async ({ page, javaScriptEnabled }, use, testInfo) => {
      const visited = new Set<string>();
      page.on('framenavigated', (frame) => {
        if (frame !== page.mainFrame()) return;
        const url = new URL(frame.url());
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
        url.hash = '';
        visited.add(url.href);
      });
      await use();
      if (javaScriptEnabled === false) return;
      const auditPage = await page.context().newPage();
      try {
        for (const url of visited) {
          const schemes = COLOR_SCHEMES.filter((s) => claimAudit(testInfo, `${url} ${s}`));
          for (const [i, colorScheme] of schemes.entries()) {
            await auditPage.emulateMedia({ colorScheme });
            if (i === 0) await auditPage.goto(url);
            // The theme the page shows: a theme the reader chose (stored) wins over the system's.
            await expect(auditPage.locator('html')).toHaveAttribute(
              'data-theme',
              (await auditPage.evaluate(() => localStorage.getItem('starlight-theme'))) ||
                colorScheme,
            );
            await expectAccessible(
              auditPage,
              testInfo,
              `${url} (${colorScheme})`,
              i === 0 ? undefined : COLOR_RULES,
            );
          }
        }
      } finally {
        await auditPage.close();
      }
    },
    // The authoring guide, the longest page, takes over a minute per scheme with two workers
    // on a loaded 2-core machine.
    { auto: true, timeout: 360_000 },
  ],
});

/**
 * expectAccessible runs axe-core on the page as it is now and fails with one line per violation.
 * Tests may also call it directly to audit a state, such as an open dialog. rules, when given,
 * limits the audit to those rules (of AXE_TAGS).
 */
export async function expectAccessible(
  page: Page,
  testInfo: TestInfo,
  label: string,
  rules?: string[],
): Promise<void> {
  // withRules replaces withTags (axe's runOnly is either tags or rules).
  const axe = new AxeBuilder({ page });
  const results = await (rules ? axe.withRules(rules) : axe.withTags(AXE_TAGS)).analyze();
  const violations = results.violations
    .map((v) => ({ ...v, nodes: v.nodes.filter((node) => !isAccepted(v.id, node.target)) }))
    .filter((v) => v.nodes.length > 0);
  const problems = violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'unknown impact'}): ${v.help}\n` +
      v.nodes.map((node) => `    at ${node.target.join(' ')}`).join('\n'),
  );
  if (problems.length > 0) {
    await testInfo.attach(`axe ${label}`, {
      body: JSON.stringify(violations, null, 2),
      contentType: 'application/json',
    });
  }
  expect(problems, `accessibility violations on ${label}`).toEqual([]);
}

/** isAccepted reports whether a violation at target is on the reviewed ACCEPTED list. */
function isAccepted(rule: string, target: readonly unknown[]): boolean {
  const selector = target.map(String).join(' ');
  return ACCEPTED.some((a) => a.rule === rule && a.target === selector);
}

export { expect };

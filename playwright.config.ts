import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, resolveChromium } from './e2e/chromium.ts';

/**
 * PORT serves the built site for the browser tests, apart from `npm start`'s 4321. E2E_PORT
 * overrides it, so two checkouts on one machine can run their browser tests side by side.
 */
const PORT = Number(process.env.E2E_PORT) || 4322;
const CI = Boolean(process.env.CI);
// KAL_E2E_RUN names this run for the workers (they inherit the runner's environment), so they
// share which pages have been audited with axe (e2e/fixtures.ts claimAudit).
process.env.KAL_E2E_RUN ??= `${process.pid}-${Date.now()}`;

// Browser tests run against the production build (`astro build`, then `astro preview`), because
// Pagefind's search index exists only there.
export default defineConfig({
  testDir: 'e2e',
  // Generous: a few tests audit a state with axe-core themselves, with three workers on 2-core CI
  // machines. The timeout only stops a hung test: no test asserts on time.
  timeout: 90_000,
  // Waits, not assertions on time: with two workers on a loaded 2-core machine a page can take
  // longer than the default 5 s to answer (a search, a seek, a grading).
  expect: { timeout: 15_000 },
  forbidOnly: CI,
  // Tests of one file may run in different workers (they share nothing but the built site; the
  // authoring spec, which edits files under one dev server, runs its tests in order itself).
  fullyParallel: true,
  retries: 0,
  // Three workers on a 2-core CI machine (the default would be half the cores: one): a test
  // spends much of its time waiting on its page (a load, a worker's simulator run, a polled
  // expectation), and with two workers an idle machine's cores were busy less than half of
  // `npm test` (BENCHMARKS.md). Each page is still audited once per run (e2e/fixtures.ts).
  // E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS) || 3,
  reporter: 'list',
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        headless: true,
        launchOptions: { executablePath: resolveChromium(), args: CHROMIUM_ARGS },
      },
    },
  ],
  webServer: {
    command: `npx astro preview --port ${PORT} --ignore-lock`,
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: !CI,
    timeout: 60_000,
  },
});

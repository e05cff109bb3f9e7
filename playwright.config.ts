import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, resolveChromium } from './e2e/chromium.ts';

/**
 * PORT serves the built site for the browser tests, apart from `npm start`'s 4321. E2E_PORT
 * overrides it, so two checkouts on one machine can run their browser tests side by side.
 */
const PORT = Number(process.env.E2E_PORT) || 4322;
const CI = Boolean(process.env.CI);

// Browser tests run against the production build (`astro build`, then `astro preview`), because
// Pagefind's search index exists only there.
export default defineConfig({
  testDir: 'e2e',
  // Generous: each test also audits the pages it opened with axe-core, on 2-core CI machines.
  timeout: 60_000,
  forbidOnly: CI,
  retries: 0,
  workers: CI ? 1 : undefined,
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

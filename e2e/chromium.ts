// Finds the Chromium that browser tests launch. Playwright's own download is not always
// possible (offline CI), so a system Chromium is an equal first-class choice.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** CHROMIUM_ARGS are the launch flags for headless runs in containers and CI. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** SYSTEM_CHROMIUM is where Debian's `chromium` package installs the browser. */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * resolveChromium returns the Chromium executable to launch, first match wins:
 * 1. $CHROMIUM_PATH or $PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, if the file exists;
 * 2. Playwright's own Chromium, if `npx playwright install chromium` has put it on disk;
 * 3. the system Chromium at /usr/bin/chromium.
 * It throws with install instructions when there is none.
 */
export function resolveChromium(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = [
    env.CHROMIUM_PATH,
    env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH,
    playwrightChromium(),
    SYSTEM_CHROMIUM,
  ];
  const found = candidates.find((path) => path !== undefined && path !== '' && existsSync(path));
  if (found !== undefined) return found;
  throw new Error(
    [
      'No Chromium found for the browser tests. Install one of:',
      '  - Debian/Ubuntu: sudo apt-get install chromium fonts-noto-cjk',
      '  - where downloads are possible: npx playwright install chromium',
      '  - or point CHROMIUM_PATH at an existing Chromium or Chrome executable.',
    ].join('\n'),
  );
}

/** playwrightChromium is the path of Playwright's downloaded Chromium, or undefined. */
function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

// The whole test suite, in the order CI runs it: typecheck, lint, unit tests, build, browser
// tests. Stops at the first failing step and ends with one line, `N passed, N failed`, counting
// every unit and browser test that ran (a failing step that is not a test runner counts as 1).
// Run as `npm test`; Node runs this file directly (type stripping), so keep to erasable syntax.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'node_modules', '.bin');
const work = mkdtempSync(join(tmpdir(), 'kal-test-'));
const vitestJson = join(work, 'vitest.json');
const playwrightJson = join(work, 'playwright.json');

/** Counts are the tests a test-runner step ran. */
type Counts = { passed: number; failed: number };

/** VitestReport is the part of Vitest's JSON report that holds the counts. */
type VitestReport = { numPassedTests: number; numFailedTests: number };

/** PlaywrightReport is the part of Playwright's JSON report that holds the counts. */
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number } };

type Step = {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** skip returns a reason to skip the step, or undefined to run it. */
  skip?: () => string | undefined;
  /** counts reads the runner's JSON report; missing for steps that are not test runners. */
  counts?: () => Counts | undefined;
};

const steps: Step[] = [
  { name: 'astro check', command: 'astro', args: ['check'] },
  {
    name: 'tsc -p sim/tsconfig.json',
    command: 'tsc',
    args: ['-p', 'sim/tsconfig.json'],
    skip: () =>
      existsSync(join(root, 'sim/tsconfig.json')) ? undefined : 'no sim/tsconfig.json yet',
  },
  { name: 'eslint .', command: 'eslint', args: ['.'] },
  {
    name: 'vitest run',
    command: 'vitest',
    args: ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
    counts: () => {
      const report = readJson(vitestJson) as VitestReport | undefined;
      return report && { passed: report.numPassedTests, failed: report.numFailedTests };
    },
  },
  { name: 'astro build', command: 'astro', args: ['build'] },
  {
    name: 'playwright test',
    command: 'playwright',
    args: ['test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightJson },
    counts: () => {
      const report = readJson(playwrightJson) as PlaywrightReport | undefined;
      return (
        report && {
          passed: report.stats.expected + report.stats.flaky,
          failed: report.stats.unexpected,
        }
      );
    },
  },
];

/** readJson returns the parsed file, or undefined when the runner did not write it. */
function readJson(path: string): unknown {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

/** run starts a tool from node_modules/.bin with its output streamed live, and returns its exit code. */
function run(step: Step): Promise<number> {
  // node_modules/.bin first on PATH, so every tool runs on the pinned Node (the `node` package).
  const env = { ...process.env, ...step.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  return new Promise((done) => {
    const child = spawn(join(bin, step.command), step.args, { cwd: root, env, stdio: 'inherit' });
    child.on('error', (err) => {
      console.error(`could not start ${step.command}: ${err.message}`);
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

let passed = 0;
let failed = 0;
for (const step of steps) {
  console.log(`\n▶ ${step.name}`);
  const reason = step.skip?.();
  if (reason !== undefined) {
    console.log(`skipped: ${reason}`);
    continue;
  }
  const code = await run(step);
  const counts = step.counts?.();
  if (counts) {
    passed += counts.passed;
    failed += counts.failed;
  }
  if (code !== 0) {
    // A runner that crashed before reporting, or a failing non-test step, still counts as a failure.
    if (!counts || counts.failed === 0) failed += 1;
    console.error(`\n✖ ${step.name} failed (exit code ${code}); stopping.`);
    break;
  }
}

rmSync(work, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;

// The whole test suite: typecheck, lint, unit tests, the quiz audit, build, browser tests. Ends
// with one line, `N passed, N failed`, counting every unit and browser test that ran (a failing
// step that is not a test runner counts as 1).
//
// The steps run in two lanes at once, so that the two cores of a CI machine both work: the build
// and then the browser tests (which need the build), and beside them the checks and unit tests.
// The build's own quiz audit runs one variant per question; the full audit (the build's default
// number of variants) is a step of the other lane. The first failing step stops everything: no
// step starts after it, and the steps still running are stopped. The build lane's output is shown
// live, line by line; a check's output is printed whole when it ends, so the two lanes never mix
// within a line. Every step prints its wall time. The browser tests are the longest path, so the
// checks run at a lower CPU priority (CHECKS_NICE): they take the cycles the browser tests leave
// idle while they wait on pages, instead of taking cycles from them.
// Run as `npm test`; Node runs this file directly (type stripping), so keep to erasable syntax.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { AUDIT_VARIANTS } from '../src/integrations/quiz-audit.ts';

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
  /** live shows the output as it comes, a line at a time, instead of when the step ends. */
  live?: boolean;
};

const build: Step[] = [
  {
    name: 'astro build',
    command: 'astro',
    args: ['build'],
    // The full audit is the `quiz audit` step of the other lane.
    env: { QUIZ_AUDIT_VARIANTS: '1' },
    live: true,
  },
  {
    name: 'playwright test',
    command: 'playwright',
    args: ['test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightJson },
    live: true,
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

/**
 * CHECKS_NICE is the checks lane's CPU priority as nice(1) counts it (0 is the usual, 19 the
 * lowest): below the build lane's, which holds the longest path.
 */
const CHECKS_NICE = 10;

const checks: Step[] = [
  {
    name: 'tsc -p sim/tsconfig.json',
    command: 'tsc',
    args: ['-p', 'sim/tsconfig.json'],
    skip: () =>
      existsSync(join(root, 'sim/tsconfig.json')) ? undefined : 'no sim/tsconfig.json yet',
  },
  { name: 'eslint .', command: 'eslint', args: ['.'] },
  // After the two above, so that its content sync does not overlap the build's.
  { name: 'astro check', command: 'astro', args: ['check'] },
  {
    name: 'vitest run',
    command: 'vitest',
    args: ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
    counts: () => {
      const report = readJson(vitestJson) as VitestReport | undefined;
      return report && { passed: report.numPassedTests, failed: report.numFailedTests };
    },
  },
  {
    name: 'quiz audit',
    command: 'node',
    args: ['scripts/audit-questions.ts', '--variants', String(AUDIT_VARIANTS)],
  },
];

/** readJson returns the parsed file, or undefined when the runner did not write it. */
function readJson(path: string): unknown {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

/**
 * lowerPriority gives a step's process, and every process of its session, the CPU priority nice.
 * A detached child is the leader of a new session, and where the kernel groups the processes of
 * a session for scheduling (autogroups, sched(7), on by default in most distributions' kernels),
 * the groups share the CPU equally whatever their processes' own nice values: the checks lane ran
 * at an even share beside the browser tests instead of a low one. The session's group has a nice
 * value of its own, /proc/PID/autogroup, which is what counts between groups; the process's own
 * counts within its group and where there are no autogroups.
 */
function lowerPriority(pid: number, nice: number): void {
  try {
    setPriority(pid, nice);
  } catch {
    // Not permitted here: the step runs at the usual priority.
  }
  const autogroup = `/proc/${pid}/autogroup`;
  if (!existsSync(autogroup)) return; // no autogroups (or not Linux): the nice value above is all
  try {
    writeFileSync(autogroup, String(nice));
  } catch {
    // Not permitted here: the group keeps its priority.
  }
}

/** running holds the steps' processes still running, to stop them when another step fails. */
const running = new Set<ChildProcess>();
let stopped = false;
let passed = 0;
let failed = 0;

/**
 * run starts a tool from node_modules/.bin in its own process group and returns its exit code and
 * its output; a live step's output is also written out as it comes, whole lines only.
 */
function run(step: Step, nice: number): Promise<{ code: number; output: string }> {
  // node_modules/.bin first on PATH, so every tool runs on the pinned Node (the `node` package).
  const env = { ...process.env, ...step.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  return new Promise((done) => {
    let output = '';
    const child = spawn(join(bin, step.command), step.args, {
      cwd: root,
      env: { ...env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    // At once, before the tool starts workers of its own, so that they inherit the priority.
    if (nice !== 0 && child.pid !== undefined) lowerPriority(child.pid, nice);
    // Each stream keeps its unfinished last line until the rest of it arrives.
    const partial = { stdout: '', stderr: '' };
    const take = (stream: 'stdout' | 'stderr', text: string): void => {
      output += text;
      if (!step.live) return;
      const lines = partial[stream] + text;
      const end = lines.lastIndexOf('\n') + 1;
      process.stdout.write(lines.slice(0, end));
      partial[stream] = lines.slice(end);
    };
    child.stdout.setEncoding('utf8').on('data', (text: string) => take('stdout', text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => take('stderr', text));
    child.on('error', (err) => {
      // A tool that cannot start may never emit 'close'.
      running.delete(child);
      done({ code: 1, output: `${output}could not start ${step.command}: ${err.message}\n` });
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      for (const rest of Object.values(partial)) if (rest) process.stdout.write(`${rest}\n`);
      done({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/** stopAll ends the process groups of the steps still running. */
function stopAll(): void {
  stopped = true;
  for (const child of running) {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }
}

/** runLane runs steps in order, at CPU priority nice, until one fails or another lane has failed. */
async function runLane(steps: Step[], nice = 0): Promise<void> {
  for (const step of steps) {
    if (stopped) return;
    const reason = step.skip?.();
    if (reason !== undefined) {
      console.log(`\n▶ ${step.name}: skipped: ${reason}`);
      continue;
    }
    console.log(`\n▷ ${step.name} started${step.live ? ', its output follows' : ''}`);
    const start = performance.now();
    const { code, output } = await run(step, nice);
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    if (stopped && code !== 0) {
      console.log(`\n▶ ${step.name}: stopped after ${seconds} s`);
      return;
    }
    const shown = step.live ? '' : `\n${output.replace(/\n$/, '')}`;
    console.log(`\n▶ ${step.name} (${seconds} s)${shown}`);
    const counts = step.counts?.();
    if (counts) {
      passed += counts.passed;
      failed += counts.failed;
    }
    if (code !== 0) {
      // A runner that crashed before reporting, or a failing non-test step, still counts as a failure.
      if (!counts || counts.failed === 0) failed += 1;
      console.error(`\n✖ ${step.name} failed (exit code ${code}); stopping.`);
      stopAll();
      return;
    }
  }
}

// The steps run in their own process groups, so a signal to this one must be passed on.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    stopAll();
    process.exit(code);
  });
}

const start = performance.now();
await Promise.all([runLane(build), runLane(checks, CHECKS_NICE)]);
rmSync(work, { recursive: true, force: true });
console.log(`\nnpm test took ${((performance.now() - start) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;

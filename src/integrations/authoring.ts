// authoring is the Astro integration of the authoring loop:
// - `astro dev`: figures, StepOutput, labs and questions are computed from content/scenarios/ and
//   content/questions/, which Vite's module graph does not know about (the components read them
//   from disk). When one of those files changes, the open pages reload in full, and the changed
//   file's author errors are printed in the terminal, once per cause (the loaders cache by file
//   content, so the next render uses the new text; the overlay shows the error on the page). Astro
//   would log each failed render of such a page again, with a stack trace: those repeats are
//   left out of the terminal (quietReportedRenderErrors), every other error is not.
// - `astro build`: before anything is rendered, every scenario and question file is checked and
//   the build fails with each mistake listed once (not once per question and variant, as the
//   quiz audit would); pages and questions without Japanese are listed as untranslated (a warning).
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  AuthorError,
  dedupe,
  formatAuthorIssue,
  issueKey,
  type AuthorIssue,
} from '../lib/author-error.ts';
import {
  parseScenarioSource,
  scenarioFile,
  scenarioNames,
  scenarioTexts,
} from '../lib/scenarios.ts';
import { loadQuestions, untranslatedTexts, type LoadedQuestion } from '../quiz/load.ts';

/** WATCHED are the content folders whose files the build-time components read from disk. */
export const WATCHED = ['content/scenarios', 'content/questions'];

/** contentIssues checks every scenario and question file; each cause comes once. */
export function contentIssues(root = process.cwd()): AuthorIssue[] {
  const issues: AuthorIssue[] = [];
  for (const [name, text] of scenarioTexts(root)) {
    // A parameterised scenario is checked as the questions that use it fill it in.
    if (text.includes('{{')) continue;
    try {
      parseScenarioSource({ name, file: scenarioFile(name), text });
    } catch (e) {
      if (!(e instanceof AuthorError)) throw e;
      issues.push(...e.issues);
    }
  }
  try {
    loadQuestions(root);
  } catch (e) {
    if (!(e instanceof AuthorError)) throw e;
    issues.push(...e.issues);
  }
  return dedupe(issues);
}

/** untranslated lists the pages with no Japanese twin and the questions with English-only texts. */
export function untranslated(root = process.cwd()): string[] {
  const docs = join(root, 'content', 'docs');
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (relative(docs, p) !== 'ja') walk(p);
      } else if (/\.mdx?$/.test(e.name) && !e.name.startsWith('_')) {
        const rel = relative(docs, p);
        if (!existsSync(join(docs, 'ja', rel)))
          out.push(
            `content/docs/${rel.split(sep).join('/')} has no Japanese page (content/docs/ja/${rel.split(sep).join('/')}): /ja/ shows the English page with a notice`,
          );
      }
    }
  };
  if (existsSync(docs)) walk(docs);
  let questions: ReturnType<typeof loadQuestions>;
  try {
    questions = loadQuestions(root);
  } catch {
    questions = []; // reported by contentIssues
  }
  for (const lq of questions)
    if (untranslatedTexts(lq.question).length) out.push(untranslatedLine(lq));
  return out;
}

/** untranslatedLine is the build's warning for a question with English-only texts. */
export function untranslatedLine(lq: LoadedQuestion): string {
  return `${lq.file}: question ${lq.question.id} has no Japanese for ${untranslatedTexts(lq.question).join(', ')}: the Japanese site shows the English text with a notice`;
}

/** report prints issues not printed before (dev: each change prints only what is new). */
function report(logger: AstroIntegrationLogger, issues: AuthorIssue[], printed: Set<string>): void {
  const fresh = issues.filter((i) => !printed.has(issueKey(i)));
  printed.clear();
  for (const i of issues) printed.add(issueKey(i));
  for (const i of fresh) logger.error(formatAuthorIssue(i));
}

/** ASTRO_SECTION is how Astro's own lines under an error's message begin (core/messages/runtime.ts). */
const ASTRO_SECTION = /^ {2}(Hint|Error reference|Location|Stack trace|Caused by):/;

/**
 * reportedRenderError says whether a message Astro logs for a page that failed to render is an
 * AuthorError (src/lib/author-error.ts) whose every issue the [authoring] line has reported
 * (reported holds them as formatAuthorIssue writes them), followed only by Astro's own sections.
 * Such a message says again what the terminal already shows once; any other error is not one.
 */
export function reportedRenderError(message: unknown, reported: ReadonlySet<string>): boolean {
  if (typeof message !== 'string') return false;
  // eslint-disable-next-line no-control-regex -- Astro colours its sections in a terminal.
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  const head = /^(Author error|\d+ author errors):\n/.exec(plain);
  if (!head) return false;
  const lines = plain.slice(head[0].length).split('\n');
  let i = 0;
  while (i < lines.length && !ASTRO_SECTION.test(lines[i]!)) {
    const issue = lines[i]!.replace(/^ {2}/, '');
    if (!lines[i]!.startsWith('  ') || !reported.has(issue)) return false;
    i++;
  }
  return i > 0;
}

/**
 * quietReportedRenderErrors drops, from what Astro logs, the render errors reportedRenderError
 * says the [authoring] line has already reported: the integration logger shares Astro's log
 * destination (AstroIntegrationLogger.options), so its write sees every event. Other events,
 * other errors included, pass as they are; the dev overlay still shows the error.
 */
function quietReportedRenderErrors(
  logger: AstroIntegrationLogger,
  reported: ReadonlySet<string>,
): void {
  const dest = logger.options.destination;
  const write = dest.write.bind(dest);
  dest.write = (event) =>
    event.level === 'error' && event.label === null && reportedRenderError(event.message, reported)
      ? true
      : write(event);
}

export function authoring(): AstroIntegration {
  return {
    name: 'authoring',
    hooks: {
      'astro:server:setup': ({ server, logger }) => {
        const root = process.cwd();
        const dirs = WATCHED.map((d) => join(root, d));
        server.watcher.add(dirs);
        const printed = new Set<string>();
        // The current issues as the terminal shows them, so Astro's copy of each is left out.
        const reported = new Set<string>();
        const check = (): void => {
          const issues = contentIssues(root);
          report(logger, issues, printed);
          reported.clear();
          for (const i of issues) reported.add(formatAuthorIssue(i));
        };
        quietReportedRenderErrors(logger, reported);
        check();
        const changed = (file: string): void => {
          if (!dirs.some((d) => file.startsWith(d + sep)) || !file.endsWith('.yaml')) return;
          logger.info(`${relative(root, file)} changed: reloading the pages`);
          check();
          server.ws.send({ type: 'full-reload', path: '*' });
        };
        server.watcher.on('change', changed);
        server.watcher.on('add', changed);
        server.watcher.on('unlink', changed);
      },
      'astro:build:start': ({ logger }) => {
        const issues = contentIssues();
        if (issues.length)
          throw new AuthorError(issues, 'Fix the files named above and build again.');
        for (const line of untranslated()) logger.warn(`untranslated: ${line}`);
        logger.info(
          `${scenarioNames().length} scenarios and the question files load without errors`,
        );
      },
    },
  };
}

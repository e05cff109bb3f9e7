// authoring is the Astro integration of the authoring loop:
// - `astro dev`: figures, StepOutput, labs and questions are computed from content/scenarios/ and
//   content/questions/, which Vite's module graph does not know about (the components read them
//   from disk). When one of those files changes, the open pages reload in full, and the changed
//   file's author errors are printed in the terminal, once per cause (the loaders cache by file
//   content, so the next render uses the new text; the overlay shows the error on the page).
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

export function authoring(): AstroIntegration {
  return {
    name: 'authoring',
    hooks: {
      'astro:server:setup': ({ server, logger }) => {
        const root = process.cwd();
        const dirs = WATCHED.map((d) => join(root, d));
        server.watcher.add(dirs);
        const printed = new Set<string>();
        report(logger, contentIssues(root), printed);
        const changed = (file: string): void => {
          if (!dirs.some((d) => file.startsWith(d + sep)) || !file.endsWith('.yaml')) return;
          logger.info(`${relative(root, file)} changed: reloading the pages`);
          report(logger, contentIssues(root), printed);
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

// Author errors: a mistake in a file an instructor wrote (a scenario, a question file, a page's
// figure props), reported once per cause, naming the file, its line and column, the field, what
// was found and what was expected. The dev server shows an AuthorError in its overlay with the
// wrong file's code frame (Astro reads `loc`), and the terminal and `astro build` print the same
// message; the build fails on it.
import { isAbsolute, join } from 'node:path';
import { ScenarioError } from '../../sim/index.ts';

/** AuthorIssue is one cause: a file, where in it (1-based), and what is wrong there. */
export interface AuthorIssue {
  /** file is relative to the project root: content/scenarios/node-failure.yaml. */
  file: string;
  line?: number;
  column?: number;
  /** text names the field and says what was found and what was expected. */
  text: string;
}

/** issueKey identifies a cause, so the same mistake reached twice is reported once. */
export function issueKey(i: AuthorIssue): string {
  return `${i.file}\0${i.line ?? ''}\0${i.column ?? ''}\0${i.text}`;
}

/** formatAuthorIssue is "file:line:column: text", as compilers print, so editors can jump there. */
export function formatAuthorIssue(i: AuthorIssue): string {
  const at =
    i.line !== undefined ? `:${i.line}${i.column !== undefined ? `:${i.column}` : ''}` : '';
  return `${i.file}${at}: ${i.text}`;
}

/** dedupe keeps the first issue of each cause, in order. */
export function dedupe(issues: AuthorIssue[]): AuthorIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = issueKey(i);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** AuthorError is one or more author mistakes; its message lists each cause once. */
export class AuthorError extends Error {
  readonly issues: AuthorIssue[];
  /** loc is where Astro's dev overlay points: the first issue's file (absolute), line and column. */
  readonly loc?: { file: string; line: number; column: number };
  /** hint is shown under the message in the dev overlay. */
  readonly hint: string;
  constructor(
    issues: AuthorIssue[],
    hint = 'Fix the file named above; the page reloads when you save it.',
  ) {
    const unique = dedupe(issues);
    const head = unique.length === 1 ? 'Author error' : `${unique.length} author errors`;
    super(`${head}:\n${unique.map((i) => `  ${formatAuthorIssue(i)}`).join('\n')}`);
    this.name = 'AuthorError';
    this.issues = unique;
    this.hint = hint;
    const first = unique.find((i) => i.line !== undefined);
    if (first)
      this.loc = { file: absolute(first.file), line: first.line!, column: first.column ?? 1 };
    // The stack would point at our loader, not at the author's file: leave it out.
    this.stack = `${this.name}: ${this.message}`;
  }
}

function absolute(file: string): string {
  return isAbsolute(file) ? file : join(process.cwd(), file);
}

/** fromScenarioError turns the simulator's ScenarioError into issues against the scenario file. */
export function fromScenarioError(e: ScenarioError): AuthorIssue[] {
  return e.details.map((d) => ({
    file: e.file,
    ...(d.line !== undefined ? { line: d.line } : {}),
    ...(d.column !== undefined ? { column: d.column } : {}),
    text: d.text
      .replace(/ \(line \d+, column \d+\)(?=:)/, '')
      .replace(/^line \d+, column \d+: /, ''),
  }));
}

/** locateText finds the first occurrence of needle in a file's text, as a 1-based line and column. */
export function locateText(
  text: string,
  needle: string,
): { line: number; column: number } | undefined {
  const off = text.indexOf(needle);
  if (off < 0) return undefined;
  const before = text.slice(0, off);
  return { line: before.split('\n').length, column: off - before.lastIndexOf('\n') };
}

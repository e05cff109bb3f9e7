// The one loader of scenario text by name, for the figures, the lab and the quiz: a name is a
// file slug in content/scenarios/. A name that is not there is an author error naming the file
// that refers to it, with a did-you-mean; a scenario that does not parse is an author error
// against the scenario file, at its line and column. Node only (build time and the dev server).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario, ScenarioError, type Scenario } from '../../sim/index.ts';
import { closest } from '../../sim/index.ts';
import { AuthorError, fromScenarioError, locateText, type AuthorIssue } from './author-error.ts';

/** SCENARIO_DIR is content/scenarios/ under the project root; the build and `astro dev` run from the root. */
export function scenarioDir(root = process.cwd()): string {
  return join(root, 'content', 'scenarios');
}

/** scenarioFile is a scenario's file relative to the root, as messages name it. */
export function scenarioFile(name: string): string {
  return `content/scenarios/${name}.yaml`;
}

/** scenarioNames lists the scenarios there are, sorted. */
export function scenarioNames(root = process.cwd()): string[] {
  const dir = scenarioDir(root);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace(/\.yaml$/, ''))
    .sort();
}

/** Referrer is the file that names a scenario (a page, a question file), for errors about the name. */
export interface Referrer {
  /** file is relative to the root: content/docs/lessons/02-…/01-….mdx. */
  file: string;
  /** what is how the reference is written there, to find its line: scenario="node-falure". */
  needle?: string;
  /** field names the reference in the message: `scenario` or `<SequenceDiagram scenario>`. */
  field?: string;
  /** text is the file's text, when it is not on disk (the authoring guide's examples). */
  text?: string;
}

/** unknownScenario is the issue for a name that has no file, against the file that uses it. */
export function unknownScenario(name: string, from: Referrer, root = process.cwd()): AuthorIssue {
  const names = scenarioNames(root);
  const c = closest(name, names);
  let pos: { line: number; column: number } | undefined;
  try {
    pos = locateText(from.text ?? readFileSync(join(root, from.file), 'utf8'), from.needle ?? name);
  } catch {
    pos = undefined;
  }
  const text = `${from.field ?? 'scenario'}: found "${name}", expected the name of a file in content/scenarios/ (${names.join(', ')})${c ? `; did you mean ${c}?` : ''}`;
  return { file: from.file, ...(pos ?? {}), text };
}

/** ScenarioSource is a scenario's text and where it is. */
export interface ScenarioSource {
  name: string;
  /** file is relative to the root: content/scenarios/<name>.yaml. */
  file: string;
  text: string;
}

/**
 * scenarioText reads a scenario by name. A name that is not a file there throws an AuthorError
 * against `from` (the page or question file that names it), with a did-you-mean.
 */
export function scenarioText(name: string, from: Referrer, root = process.cwd()): ScenarioSource {
  const file = scenarioFile(name);
  const path = join(root, file);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || !existsSync(path))
    throw new AuthorError([unknownScenario(name, from, root)]);
  return { name, file, text: readFileSync(path, 'utf8') };
}

/** parseScenarioSource parses a scenario's text; its errors are AuthorErrors against the scenario file. */
export function parseScenarioSource(src: ScenarioSource): Scenario {
  try {
    return parseScenario(src.text, src.file);
  } catch (e) {
    if (e instanceof ScenarioError) throw new AuthorError(fromScenarioError(e));
    throw e;
  }
}

/** loadScenario reads and parses a scenario by name (scenarioText, then parseScenarioSource). */
export function loadScenario(
  name: string,
  from: Referrer,
  root = process.cwd(),
): ScenarioSource & { scenario: Scenario } {
  const src = scenarioText(name, from, root);
  return { ...src, scenario: parseScenarioSource(src) };
}

/** scenarioTexts reads every scenario into a name -> text map (the quiz loader checks names against it). */
export function scenarioTexts(root = process.cwd()): Map<string, string> {
  return new Map(
    scenarioNames(root).map((n) => [n, readFileSync(join(scenarioDir(root), `${n}.yaml`), 'utf8')]),
  );
}

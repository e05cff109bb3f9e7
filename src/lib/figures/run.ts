// Build-time simulator runs for figures. A figure names a scenario (a slug in content/scenarios/
// or inline YAML) and a seed; runFor plays it once per (scenario text, seed, until) and caches the
// result, so a page with several figures of one run simulates once, and an edited scenario (in
// `astro dev`) is run afresh on the next render. A scenario that cannot load or run throws an
// AuthorError against the file that is wrong: the scenario file for a mistake in it, the page for
// a wrong name or prop.
import { parseDuration, ScenarioRun, stepPosition, type RunResult } from '../../../sim/index.ts';
import { AuthorError, locateText, type AuthorIssue } from '../author-error.ts';
import {
  parseScenarioSource,
  scenarioDir,
  scenarioText,
  type ScenarioSource,
} from '../scenarios.ts';
import { readFileSync } from 'node:fs';

/** FigureSource names the run a figure is drawn from, and where the figure is. */
export interface FigureSource {
  /** scenario is a file slug in content/scenarios/ ("node-failure"). */
  scenario?: string;
  /** scenarioYaml is a whole scenario inline; used when scenario is not given. */
  scenarioYaml?: string;
  /** seed overrides the scenario's seed. */
  seed?: number;
  /** until overrides the scenario's end: a duration ("60s") or seconds. */
  until?: string | number;
  /** page is the lesson the figure is on (its file path or URL path), for error messages. */
  page?: string;
}

/** pageFile is the source file in a figurePage() string ("content/docs/x.mdx (/x/)"), if there is one. */
export function pageFile(page: string): string | undefined {
  return /^(\S+\.mdx?)(?: \(|$)/.exec(page)?.[1];
}

/**
 * FigureError is a figure that cannot be drawn because of its props (a wrong scenario name, a
 * step StepOutput cannot find): an author error against the page, at the prop when it can be found.
 */
export class FigureError extends AuthorError {
  readonly page: string;
  readonly scenario: string;
  constructor(page: string, scenario: string, detail: string, needle?: string, text?: string) {
    const file = pageFile(page);
    let pos: { line: number; column: number } | undefined;
    if (file)
      try {
        pos = locateText(text ?? readFileSync(file, 'utf8'), needle ?? `"${scenario}"`);
      } catch {
        pos = undefined;
      }
    super([
      { file: file ?? page, ...(pos ?? {}), text: `figure of scenario "${scenario}": ${detail}` },
    ]);
    this.name = 'FigureError';
    this.page = page;
    this.scenario = scenario;
  }
}

/** SCENARIO_DIR is content/scenarios/ under the project root; the build runs from the root. */
export const SCENARIO_DIR = scenarioDir();

const cache = new Map<string, RunResult>();

/** scenarioName is how a figure's scenario is named in captions and errors. */
export function scenarioName(src: FigureSource): string {
  if (src.scenario !== undefined) return src.scenario;
  const m = /^name:\s*(.+)$/m.exec(src.scenarioYaml ?? '');
  return m?.[1]?.trim() ?? '<inline scenario>';
}

/** runFor returns the run a figure is drawn from, running the scenario on first use. */
export function runFor(src: FigureSource): RunResult {
  const page = src.page ?? '<unknown page>';
  const name = scenarioName(src);
  const fail = (detail: string, needle?: string): never => {
    throw new FigureError(page, name, detail, needle);
  };
  if (src.scenario === undefined && src.scenarioYaml === undefined)
    fail('give the figure a scenario="<slug>" or a scenarioYaml string');
  let untilMs: number | undefined;
  if (src.until !== undefined) {
    untilMs = parseDuration(src.until);
    if (untilMs === undefined)
      fail(
        `until: found "${src.until}", expected a duration such as "90s" or "5m"`,
        `"${src.until}"`,
      );
  }
  const file = pageFile(page) ?? page;
  const source: ScenarioSource =
    src.scenario !== undefined
      ? scenarioText(src.scenario, { file, needle: `"${src.scenario}"`, field: 'scenario' })
      : { name, file: `${file} (inline scenario)`, text: src.scenarioYaml! };
  const key = JSON.stringify([source.text, src.seed ?? null, untilMs ?? null]);
  const hit = cache.get(key);
  if (hit) return hit;
  const sc = parseScenarioSource(source);
  const run = new ScenarioRun(sc, {
    ...(src.seed !== undefined ? { seed: src.seed } : {}),
    ...(untilMs !== undefined ? { until: untilMs } : {}),
  }).run();
  // An apply the cluster refused (and the step did not expect) is a mistake in the scenario.
  if (run.stepProblems.length) throw stepProblemsError(source, run);
  const result = run.result();
  // Only the latest run of each text and seed is worth keeping while a scenario is being edited.
  if (cache.size >= 256) cache.delete(cache.keys().next().value!);
  cache.set(key, result);
  return result;
}

/** stepProblemsError reports a run's apply steps that did not do what they declared, at each step's apply. */
export function stepProblemsError(source: ScenarioSource, run: ScenarioRun): AuthorError {
  const issues: AuthorIssue[] = run.stepProblems.map((p) => {
    const pos = stepPosition(source.text, p.step, 'apply');
    const at = (run.scenario.steps[p.step]?.at ?? 0) / 1000;
    return {
      file: source.file,
      ...(pos ?? {}),
      text: `step ${p.step + 1} (at ${at}s): apply: ${p.message}`,
    };
  });
  return new AuthorError(issues);
}

/** figureId derives a stable id for a figure's elements from what it shows. */
export function figureId(kind: string, props: unknown): string {
  // FNV-1a over the JSON of the props: the same figure gets the same id on every build.
  let h = 0x811c9dc5;
  const s = `${kind}:${JSON.stringify(props)}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `kal-${kind}-${h.toString(36)}`;
}

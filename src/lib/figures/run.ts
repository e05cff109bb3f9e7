// Build-time simulator runs for figures. A figure names a scenario (a slug in content/scenarios/
// or inline YAML) and a seed; runFor plays it once per (scenario, seed, until) and caches the
// result for the rest of the build, so a page with several figures of one run simulates once.
// A scenario that cannot load or run throws FigureError, which fails the build and names the page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDuration, parseScenario, runScenario, type RunResult } from '../../../sim/index.ts';

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

/** FigureError is a figure that cannot be drawn; its message names the page and the scenario. */
export class FigureError extends Error {
  readonly page: string;
  readonly scenario: string;
  constructor(page: string, scenario: string, detail: string) {
    super(`Figure on ${page}: scenario "${scenario}" could not be run.\n${detail}`);
    this.name = 'FigureError';
    this.page = page;
    this.scenario = scenario;
  }
}

/** SCENARIO_DIR is content/scenarios/ under the project root; the build runs from the root. */
export const SCENARIO_DIR = join(process.cwd(), 'content', 'scenarios');

const cache = new Map<string, RunResult>();

/** scenarioName is how a figure's scenario is named in captions and errors. */
export function scenarioName(src: FigureSource): string {
  if (src.scenario !== undefined) return src.scenario;
  const m = /^name:\s*(.+)$/m.exec(src.scenarioYaml ?? '');
  return m?.[1]?.trim() ?? '<inline scenario>';
}

/**
 * runFor returns the run a figure is drawn from, running the scenario on first use.
 * readFile is injectable for tests.
 */
export function runFor(
  src: FigureSource,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): RunResult {
  const page = src.page ?? '<unknown page>';
  const name = scenarioName(src);
  const fail = (detail: string): never => {
    throw new FigureError(page, name, detail);
  };
  if (src.scenario === undefined && src.scenarioYaml === undefined)
    fail('Give the figure a scenario="<slug>" or a scenarioYaml string.');
  if (src.scenario !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(src.scenario))
    fail(
      `scenario must be a file slug in content/scenarios/ (such as "node-failure"), not "${src.scenario}".`,
    );
  let untilMs: number | undefined;
  if (src.until !== undefined) {
    untilMs = parseDuration(src.until);
    if (untilMs === undefined)
      fail(`until must be a duration such as "90s" or "5m", not "${src.until}".`);
  }
  const key = JSON.stringify([src.scenario ?? src.scenarioYaml, src.seed ?? null, untilMs ?? null]);
  const hit = cache.get(key);
  if (hit) return hit;
  let text: string;
  const file =
    src.scenario !== undefined
      ? join(SCENARIO_DIR, `${src.scenario}.yaml`)
      : `${page} (inline scenario)`;
  if (src.scenario !== undefined) {
    try {
      text = readFile(file);
    } catch (e) {
      return fail(`Cannot read ${file}: ${(e as Error).message}`);
    }
  } else text = src.scenarioYaml!;
  let result: RunResult;
  try {
    const sc = parseScenario(
      text,
      src.scenario !== undefined ? `content/scenarios/${src.scenario}.yaml` : file,
    );
    result = runScenario(sc, {
      ...(src.seed !== undefined ? { seed: src.seed } : {}),
      ...(untilMs !== undefined ? { until: untilMs } : {}),
    });
  } catch (e) {
    return fail((e as Error).message);
  }
  cache.set(key, result);
  return result;
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

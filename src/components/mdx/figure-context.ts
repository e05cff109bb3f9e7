// Shared by the figure components: which language a figure speaks, which page it is on, and the
// one place their props are checked (checkFigureProps).
import { closest, sequenceDiagram, type RunResult } from '../../../sim/index.ts';
import { langOf } from '../../i18n/ui.ts';
import { FigureError, scenarioName, type FigureSource } from '../../lib/figures/run.ts';
import type { FigureLang } from '../../lib/figures/strings.ts';

/** AstroLike is the part of the Astro global the figure components read. */
export interface AstroLike {
  currentLocale?: string | undefined;
  url: URL;
  locals: App.Locals;
}

/**
 * figureLang is the lang prop if given, else the Starlight page's language, else Astro's current
 * locale (which Starlight's i18n config sets per page: "ja" under /ja/).
 */
export function figureLang(astro: AstroLike, lang?: FigureLang): FigureLang {
  if (lang) return lang;
  const route = (astro.locals as { starlightRoute?: { lang?: string } }).starlightRoute;
  return langOf(route?.lang ?? astro.currentLocale);
}

/** figurePage names the lesson for error messages: its source file and URL path. */
export function figurePage(astro: AstroLike): string {
  const route = (astro.locals as { starlightRoute?: { entry?: { filePath?: string } } })
    .starlightRoute;
  const file = route?.entry?.filePath;
  return file ? `${file} (${astro.url.pathname})` : astro.url.pathname;
}

// components remembers, per run, every lifeline a sequence diagram of it could show.
const components = new WeakMap<RunResult, string[]>();

/** componentsOf lists the components that send or receive anything in a run, sorted. */
export function componentsOf(run: RunResult): string[] {
  let c = components.get(run);
  if (!c) {
    const d = sequenceDiagram(run, { etcd: true, reads: true, events: true });
    c = d.participants.map((p) => p.label).sort();
    components.set(run, c);
  }
  return c;
}

/**
 * checkParticipants fails the figure when a `participants` entry names no component of the run
 * (a typo would silently drop its lifeline): an author error against the page, at the entry,
 * with the components there are and the closest one. "kubelet@*" must match at least one.
 */
export function checkParticipants(
  run: RunResult,
  participants: readonly string[] | undefined,
  page: string,
  scenario: string,
  text?: string,
): void {
  if (!participants) return;
  const all = componentsOf(run);
  for (const p of participants) {
    const ok = p.endsWith('*') ? all.some((a) => a.startsWith(p.slice(0, -1))) : all.includes(p);
    if (ok) continue;
    const c = closest(p, all);
    throw new FigureError(
      page,
      scenario,
      `participants: found "${p}", which takes no part in this run; expected one of ${all.join(', ')}, or a prefix with * such as kubelet@*${c ? `; did you mean ${c}?` : ''}`,
      `'${p}'`,
      text,
    );
  }
}

/** FigureProps are the props every figure component may check here (each one optional). */
export interface FigureProps extends FigureSource {
  participants?: string[];
  maxParticipants?: number;
  from?: number;
  to?: number;
}

/**
 * checkFigureProps rejects props a figure cannot draw, with a FigureError naming the page, the
 * component and what to write instead. Every figure component calls it before running its scenario.
 */
export function checkFigureProps(component: string, p: FigureProps, page: string): void {
  const fail = (detail: string): never => {
    throw new FigureError(page, scenarioName(p), `${component}: ${detail}`);
  };
  for (const k of ['from', 'to'] as const) {
    const v = p[k];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0))
      fail(
        `${k} must be a number of virtual seconds, such as ${k}={30}; found ${JSON.stringify(v)}.`,
      );
  }
  if (p.from !== undefined && p.to !== undefined && p.from > p.to)
    fail(`from={${p.from}} is after to={${p.to}}: the window would be empty.`);
  const max = p.maxParticipants;
  if (max !== undefined && !(Number.isInteger(max) && max >= 2))
    fail(
      `maxParticipants must be a whole number of lifelines, 2 or more; found ${JSON.stringify(max)}.`,
    );
  if (p.participants !== undefined && p.participants.length === 0)
    fail('participants is empty: list the lifelines to draw, or leave it out.');
}

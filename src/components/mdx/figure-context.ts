// Shared by the figure components: which language a figure speaks and which page it is on.
import { langOf } from '../../i18n/ui.ts';
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

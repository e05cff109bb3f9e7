// figureLegibility is an Astro integration: after a build it reads every built page's figures
// (Figure.astro writes each one's width, smallest font and fullSize on the <figure>) and warns,
// through Astro's logger, about each figure legibilityProblems() finds, naming the page and the
// figure. A warning, not an error: a wide figure still works (it scrolls and opens full size).
import type { AstroIntegration } from 'astro';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { legibilityProblems } from './legibility.ts';

/** FigureFacts is what a built <figure class="kal-figure"> says about itself. */
export interface FigureFacts {
  id: string;
  title: string;
  width: number;
  minFont: number;
  fullSize: boolean;
}

/** figuresIn reads the figures of one built page. */
export function figuresIn(html: string): FigureFacts[] {
  const out: FigureFacts[] = [];
  for (const m of html.matchAll(/<figure class="kal-figure"([^>]*)>/g)) {
    const attrs = m[1]!;
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1];
    const id = attr('id') ?? '?';
    const title = new RegExp(`<title id="${id}-title">([^<]*)</title>`).exec(html)?.[1] ?? id;
    out.push({
      id,
      title,
      width: Number(attr('data-fig-width') ?? 0),
      minFont: Number(attr('data-fig-min-font') ?? 12),
      fullSize: /\sdata-fig-full-size(=|\s|$)/.test(attrs),
    });
  }
  return out;
}

export function figureLegibility(): AstroIntegration {
  return {
    name: 'figure-legibility',
    hooks: {
      'astro:build:done': ({ dir, pages, logger }) => {
        let warned = 0;
        for (const { pathname } of pages) {
          const file = new URL(
            `${pathname}${pathname === '' || pathname.endsWith('/') ? '' : '/'}index.html`,
            dir,
          );
          let html: string;
          try {
            html = readFileSync(fileURLToPath(file), 'utf8');
          } catch {
            continue;
          }
          for (const f of figuresIn(html))
            for (const problem of legibilityProblems(f)) {
              warned++;
              logger.warn(`/${pathname}: figure "${f.title}" (#${f.id}): ${problem}`);
            }
        }
        if (!warned) logger.info('every figure is legible at 632 px (or marked fullSize)');
      },
    },
  };
}

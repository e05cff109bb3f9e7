// The legibility rule for build-time figures, shared by Figure.astro (which decides whether a
// figure gets the "View full size" control) and the build's figure check (which warns authors).
//
// Figures are drawn at their own size: one SVG unit is one CSS pixel, never shrunk, and no text is
// smaller than MIN_FONT units, so text is never shown below 12 px. A figure wider than its column
// scrolls sideways inside its frame instead, with a visible cue and a "View full size" dialog.
// That is fine on a phone (358 px column), where few figures can fit; on a desktop (632 px
// column) it means the figure shows too much to read at a glance, so the build warns unless the
// author marked the figure `fullSize` (meant to be read full size).
import { COLUMN_WIDTHS, MIN_FONT, type SvgMetrics } from './svg.ts';

export interface LegibilityInput extends Pick<SvgMetrics, 'width' | 'minFont'> {
  /** fullSize is the author's `fullSize` prop: this figure is meant to be read full size. */
  fullSize?: boolean;
}

/** needsFullSize is true when the figure is wider than the phone column: it gets the control. */
export function needsFullSize(m: Pick<SvgMetrics, 'width'>): boolean {
  return m.width > COLUMN_WIDTHS.phone;
}

/**
 * shownFont is the size its smallest text would be shown at if the figure were shrunk to fit a
 * column of this width (figures never shrink; this is what a shrink-to-fit layout would do).
 */
export function shownFont(m: Pick<SvgMetrics, 'width' | 'minFont'>, column: number): number {
  return m.minFont * Math.min(1, column / m.width);
}

/**
 * legibilityProblems says, in an author's words, why a figure is not legible at a glance;
 * empty when it is. The build prints each as a warning naming the page and the figure.
 */
export function legibilityProblems(m: LegibilityInput): string[] {
  const out: string[] = [];
  if (m.minFont < MIN_FONT)
    out.push(
      `it draws text at ${m.minFont} px, below the ${MIN_FONT} px minimum (figures are never enlarged in the page).`,
    );
  const desktop = COLUMN_WIDTHS.desktop;
  if (m.width > desktop && !m.fullSize)
    out.push(
      `it is ${Math.ceil(m.width)} px wide, wider than the ${desktop} px column: fitted, its text would be ` +
        `${shownFont(m, desktop).toFixed(1)} px, so it scrolls sideways even on a desktop. Show less ` +
        `(participants, from/to, kinds) or add fullSize to say it is meant to be read full size.`,
    );
  return out;
}

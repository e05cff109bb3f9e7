// Shared helpers for the static figure renderers: escaping, text measurement, the accessible
// <svg> wrapper and arrowhead markers. Everything is a pure string function, run at build time.

/**
 * MIN_FONT is the smallest text a figure may draw, in SVG units: figures.css never sets a smaller
 * font-size (a test says so), and figures are never shown below one CSS pixel per unit, so no text
 * is shown below 12 px.
 */
export const MIN_FONT = 12;

/** COLUMN_WIDTHS are the widths of Starlight's content column: desktop (1280 px) and phone (390 px). */
export const COLUMN_WIDTHS = { desktop: 632, phone: 358 } as const;

/** SvgMetrics is what the legibility check needs to know about a rendered figure. */
export interface SvgMetrics {
  /** width and height of the viewBox, in units (= CSS px as shown in the page). */
  width: number;
  height: number;
  /** minFont is the smallest font-size the SVG sets itself, or MIN_FONT (the stylesheet's floor). */
  minFont: number;
}

/** svgMetrics reads a rendered figure's size and its smallest font size back from its markup. */
export function svgMetrics(svg: string): SvgMetrics {
  const vb = /viewBox="(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+)"/.exec(svg);
  const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
  return {
    width: vb ? Number(vb[3]) : 0,
    height: vb ? Number(vb[4]) : 0,
    minFont: Math.min(MIN_FONT, ...sizes),
  };
}

/** esc escapes text for an HTML or SVG text node or a double-quoted attribute value. */
export function esc(s: string | number): string {
  return String(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** safeId turns any string into a token usable in an id attribute and a url(#...) reference. */
export function safeId(s: string): string {
  const id = s.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return /^[A-Za-z]/.test(id) ? id : `f-${id}`;
}

/**
 * textWidth estimates the rendered width of a label in user units. Figures use a system sans-serif
 * face; the estimate errs wide so labels never overlap the boxes around them. Wide (CJK) characters
 * count as a full em.
 */
export function textWidth(s: string, fontSize: number): number {
  let w = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c >= 0x1100) w += 1;
    else if (/[il.,:;'|!]/.test(ch)) w += 0.3;
    else if (/[mwMW@]/.test(ch)) w += 0.85;
    else if (/[A-Z]/.test(ch)) w += 0.68;
    else w += 0.58;
  }
  return Math.ceil(w * fontSize);
}

/**
 * wrapLabel breaks a label into lines no wider than max units where it can: at spaces, and inside
 * a long token after "/" or "-" or before "@" (an etcd key, "container-runtime@node-1"). A token that
 * cannot break stays whole on its own line.
 */
export function wrapLabel(s: string, max: number, fontSize: number): string[] {
  if (textWidth(s, fontSize) <= max) return [s];
  const pieces: string[] = [];
  for (const word of s.split(' ')) {
    if (textWidth(word, fontSize) <= max) pieces.push(word);
    else pieces.push(...(word.match(/\/?@?[^/@-]*[/-]?/g) ?? [word]).filter(Boolean));
  }
  const lines: string[] = [];
  let cur = '';
  for (const piece of pieces) {
    const glue = cur === '' || /[/-]$/.test(cur) || piece.startsWith('@') ? '' : ' ';
    const next = cur + glue + piece;
    if (cur !== '' && textWidth(next, fontSize) > max) {
      lines.push(cur);
      cur = piece;
    } else cur = next;
  }
  if (cur !== '') lines.push(cur);
  return lines;
}

/** monoWidth estimates the width of a label in the monospace face: every character is 0.6 em. */
export function monoWidth(s: string, fontSize: number): number {
  let w = 0;
  for (const ch of s) w += (ch.codePointAt(0) ?? 0) >= 0x1100 ? 1 : 0.62;
  return Math.ceil(w * fontSize);
}

/** num prints a coordinate with at most one decimal, so output is stable and compact. */
export function num(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/**
 * seconds prints virtual seconds to the millisecond, the simulator's resolution, without trailing
 * zeros: 50, 57.9, 2.834, 0.004. Every figure and text alternative prints times this way, so two
 * moments a few milliseconds apart never print as the same time (nor 0.004 s as "0 s").
 */
export function seconds(s: number): string {
  // String(-0) is "0"; the division is exact enough that String() never shows a float tail.
  return String(Math.round(s * 1000) / 1000);
}

export interface SvgFrame {
  /** id prefixes every id inside the figure; unique per page. */
  id: string;
  /** kind names the figure type, as a class: kal-fig--sequence. */
  kind: string;
  width: number;
  height: number;
  title: string;
  description: string;
  /** descLang marks the description's language when it differs from the page's. */
  descLang?: string;
  /** minX and minY shift the viewBox when content extends left of or above 0. */
  minX?: number;
  minY?: number;
}

/**
 * svgFrame wraps body in an accessible, responsive <svg>: role="img", a <title> and <desc> that
 * name it through aria-labelledby, and a viewBox so it scales to the column width. Arrowhead
 * markers are defined once per figure, with ids under the figure's id.
 */
export function svgFrame(f: SvgFrame, body: string): string {
  const t = `${f.id}-title`;
  const d = `${f.id}-desc`;
  const w = Math.ceil(f.width);
  const h = Math.ceil(f.height);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="kal-fig kal-fig--${esc(f.kind)}" role="img" ` +
    `aria-labelledby="${t} ${d}" viewBox="${num(f.minX ?? 0)} ${num(f.minY ?? 0)} ${w} ${h}" ` +
    // Drawn at its own size (one unit = one CSS pixel), never shrunk, so its text (at least
    // MIN_FONT units) is at least MIN_FONT px as shown; a figure wider than its column scrolls
    // sideways in Figure.astro's frame, which says so and offers "View full size".
    `width="${w}" height="${h}" preserveAspectRatio="xMidYMin meet">` +
    `<title id="${t}">${esc(f.title)}</title>` +
    `<desc id="${d}"${f.descLang ? ` lang="${esc(f.descLang)}"` : ''}>${esc(f.description)}</desc>` +
    markers(f.id) +
    body +
    `</svg>`
  );
}

/** markerRef returns the url() of one of a figure's arrowheads: "solid" (filled) or "open". */
export function markerRef(id: string, kind: 'solid' | 'open'): string {
  return `url(#${id}-arrow-${kind})`;
}

function markers(id: string): string {
  return (
    '<defs>' +
    `<marker id="${id}-arrow-solid" class="kal-fig__head" viewBox="0 0 10 10" refX="9" refY="5" ` +
    'markerWidth="8" markerHeight="8" orient="auto-start-reverse" markerUnits="userSpaceOnUse">' +
    '<path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker>' +
    `<marker id="${id}-arrow-open" class="kal-fig__head" viewBox="0 0 10 10" refX="9" refY="5" ` +
    'markerWidth="9" markerHeight="9" orient="auto-start-reverse" markerUnits="userSpaceOnUse">' +
    '<path d="M0,0 L10,5 L0,10" fill="none" stroke="currentColor" stroke-width="1.6"/></marker>' +
    '</defs>'
  );
}

/** text draws one line of text; cls picks the style from figures.css. */
export function text(
  x: number,
  y: number,
  s: string,
  opts: { cls?: string; anchor?: 'start' | 'middle' | 'end'; size?: number } = {},
): string {
  const a = opts.anchor && opts.anchor !== 'start' ? ` text-anchor="${opts.anchor}"` : '';
  const size = opts.size ? ` font-size="${opts.size}"` : '';
  const c = opts.cls ? ` class="${opts.cls}"` : '';
  return `<text x="${num(x)}" y="${num(y)}"${a}${size}${c}>${esc(s)}</text>`;
}

/**
 * textLines draws lines of text, one <tspan> each, lineHeight apart; y is the first line's
 * baseline. cls picks the style from figures.css.
 */
export function textLines(
  x: number,
  y: number,
  lines: string[],
  lineHeight: number,
  opts: { cls?: string; anchor?: 'start' | 'middle' | 'end' } = {},
): string {
  if (lines.length === 1) return text(x, y, lines[0]!, opts);
  const a = opts.anchor && opts.anchor !== 'start' ? ` text-anchor="${opts.anchor}"` : '';
  const c = opts.cls ? ` class="${opts.cls}"` : '';
  const spans = lines
    .map((l, i) => `<tspan x="${num(x)}"${i ? ` dy="${lineHeight}"` : ''}>${esc(l)}</tspan>`)
    .join('');
  return `<text x="${num(x)}" y="${num(y)}"${a}${c}>${spans}</text>`;
}

/** rect draws a rectangle with rounded corners. */
export function rect(x: number, y: number, w: number, h: number, cls: string, r = 4): string {
  return `<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" rx="${r}" class="${cls}"/>`;
}

/** line draws a straight line, optionally with an arrowhead at its end. */
export function line(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  cls: string,
  marker?: string,
): string {
  const m = marker ? ` marker-end="${marker}"` : '';
  return `<line x1="${num(x1)}" y1="${num(y1)}" x2="${num(x2)}" y2="${num(y2)}" class="${cls}"${m}/>`;
}

/** polyline draws a path through points, optionally with an arrowhead at its end. */
export function polyline(points: [number, number][], cls: string, marker?: string): string {
  const m = marker ? ` marker-end="${marker}"` : '';
  const d = points.map(([x, y], i) => `${i ? 'L' : 'M'}${num(x)},${num(y)}`).join(' ');
  return `<path d="${d}" class="${cls}" fill="none"${m}/>`;
}

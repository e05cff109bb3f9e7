// Shared helpers for the static figure renderers: escaping, text measurement, the accessible
// <svg> wrapper and arrowhead markers. Everything is a pure string function, run at build time.

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

/** seconds prints virtual seconds compactly: 50, 57.9, 0.004. */
export function seconds(s: number): string {
  if (Math.abs(s - Math.round(s)) < 0.05) return String(Math.round(s));
  if (Math.abs(s) >= 1) return (Math.round(s * 10) / 10).toString();
  return (Math.round(s * 1000) / 1000).toString();
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
    // Figures shrink to the column down to 70% of their size, then scroll sideways instead.
    `width="100%" style="max-width:${w}px;min-width:${Math.round(w * 0.7)}px" preserveAspectRatio="xMidYMin meet">` +
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

// sequenceSvg draws a sequence diagram model (sim/projections/sequence.ts) as static SVG: one
// lifeline per participant with its box on top, one row per step, numbered solid arrows for
// requests, etcd writes and node-local calls, dashed arrows with open heads for watch deliveries,
// loops for self-messages and boxes for notes. Width grows with the participants and the labels
// between them, height with the steps. A diagram that would be wider than the lesson column at its
// natural spacing is drawn again with tighter spacing (labels and lifeline names wrapped to
// narrower lines, never smaller text), and the first spacing that fits is kept; one that fits at
// none keeps its natural spacing and opens full size (Figure.astro).
import type { SequenceDiagram, SequenceStep } from '../../../sim/index.ts';
import { FIGURE_STRINGS, type FigureLang } from './strings.ts';
import {
  COLUMN_WIDTHS,
  esc,
  line,
  markerRef,
  num,
  polyline,
  rect,
  seconds,
  svgFrame,
  text,
  textLines,
  textWidth,
  wrapLabel,
} from './svg.ts';

export interface SequenceSvgOptions {
  /** id prefixes the ids inside the SVG; unique on the page. */
  id: string;
  lang?: FigureLang;
  /** numbers draws each arrow's number in a badge at its start (default true). */
  numbers?: boolean;
  /** times adds a left gutter with each row's virtual time (default true). */
  times?: boolean;
  /** fit is the width to fit in if tighter spacing allows (default the desktop column, 632). */
  fit?: number;
  title?: string;
  description?: string;
  descLang?: string;
  /** legend names the solid and the dashed arrows (default: requests and watch events). */
  legend?: 'api' | 'packets' | 'messages';
}

const FONT = 12;
const BOX_H = 30;
const LINE_H = 15;
const BOLD = 1.08;
const ROW = 30;
const NOTE_ROW = 28;

/** Spacing is how tightly a diagram is drawn; SPACINGS go from natural to tightest. */
interface Spacing {
  /** labelWrap: labels wrap to lines of at most this many units, so lifelines stay close. */
  labelWrap: number;
  noteWrap: number;
  /** boxWrap: a lifeline's name wraps to this width; boxPad is the space around it. */
  boxWrap: number;
  boxPad: number;
  minBox: number;
  /** minGap and gapPad: lifelines are at least minGap apart, and gapPad more than their boxes. */
  minGap: number;
  gapPad: number;
}
const SPACINGS: Spacing[] = [
  { labelWrap: 112, noteWrap: 200, boxWrap: 110, boxPad: 20, minBox: 84, minGap: 104, gapPad: 16 },
  { labelWrap: 100, noteWrap: 170, boxWrap: 92, boxPad: 14, minBox: 80, minGap: 96, gapPad: 10 },
  { labelWrap: 88, noteWrap: 150, boxWrap: 80, boxPad: 10, minBox: 76, minGap: 88, gapPad: 6 },
  { labelWrap: 78, noteWrap: 120, boxWrap: 72, boxPad: 8, minBox: 70, minGap: 80, gapPad: 4 },
];
const LOOP_W = 26;
const GUTTER_MIN = 40;
const MARGIN = 12;
const BADGE_R = 10;

/** sequenceSvg renders the diagram; the number of <line>/<path> arrows equals the arrow steps. */
export function sequenceSvg(d: SequenceDiagram, opts: SequenceSvgOptions): string {
  const fit = opts.fit ?? COLUMN_WIDTHS.desktop;
  const natural = draw(d, opts, SPACINGS[0]!);
  if (Math.ceil(natural.width) <= fit) return natural.svg;
  for (const sp of SPACINGS.slice(1)) {
    const tighter = draw(d, opts, sp);
    if (Math.ceil(tighter.width) <= fit) return tighter.svg;
  }
  return natural.svg;
}

function draw(
  d: SequenceDiagram,
  opts: SequenceSvgOptions,
  sp: Spacing,
): { svg: string; width: number } {
  const { labelWrap: LABEL_WRAP, noteWrap: NOTE_WRAP, boxWrap: BOX_WRAP, minGap: MIN_GAP } = sp;
  const s = FIGURE_STRINGS[opts.lang ?? 'en'];
  const numbers = opts.numbers ?? true;
  // The time gutter is as wide as its widest label ("120.334 s").
  const gutter =
    (opts.times ?? true)
      ? Math.max(GUTTER_MIN, ...d.steps.map((st) => textWidth(`${seconds(st.t)} s`, FONT) + 14))
      : 0;
  const ids = d.participants.map((p) => p.label);
  const col = new Map(ids.map((p, i) => [p, i]));
  // A participant's name breaks before "@node" first, then where wrapLabel can. Box labels are
  // bold, so they are measured 8% wider.
  const boxLines = ids.map((p) => {
    const at = p.indexOf('@');
    const parts =
      at > 0 && textWidth(p, FONT) * BOLD > BOX_WRAP ? [p.slice(0, at), p.slice(at)] : [p];
    return parts.flatMap((part) => wrapLabel(part, BOX_WRAP / BOLD, FONT));
  });
  const boxW = boxLines.map((ls) =>
    Math.max(...ls.map((l) => textWidth(l, FONT) * BOLD + sp.boxPad), sp.minBox),
  );
  const boxH = BOX_H + LINE_H * (Math.max(1, ...boxLines.map((ls) => ls.length)) - 1);
  const n = ids.length;

  // Gaps between neighbouring lifelines: wide enough for both boxes, then for every label.
  const gaps = Array.from({ length: Math.max(n - 1, 0) }, (_, i) =>
    Math.max(MIN_GAP, (boxW[i]! + boxW[i + 1]!) / 2 + sp.gapPad),
  );
  const badgeW = numbers ? 2 * BADGE_R + 12 : 12;
  // A label wraps only when it is wider than the room the boxes already leave between its two
  // lifelines (and never to less than LABEL_WRAP).
  const room = (st: SequenceStep): number => {
    if (st.kind === 'note') return NOTE_WRAP;
    const a = col.get(st.from) ?? 0;
    const b = col.get(st.to) ?? 0;
    if (a === b) return LABEL_WRAP;
    const span = gaps.slice(Math.min(a, b), Math.max(a, b)).reduce((x, y) => x + y, 0);
    return Math.max(LABEL_WRAP, span - badgeW);
  };
  const lines = new Map(d.steps.map((st) => [st, wrapLabel(st.text, room(st), FONT)]));
  const widest = (st: SequenceStep) => Math.max(...lines.get(st)!.map((l) => textWidth(l, FONT)));
  const extra = (st: SequenceStep) => LINE_H * (lines.get(st)!.length - 1);
  let rightExtra = 0;
  const arrows = d.steps.filter((st) => st.kind !== 'note');
  const labelW = (st: SequenceStep) => widest(st) + badgeW;
  const spans = arrows
    .map((st) => ({ st, a: col.get(st.from) ?? 0, b: col.get(st.to) ?? 0 }))
    .sort((x, y) => Math.abs(x.a - x.b) - Math.abs(y.a - y.b));
  for (const { st, a, b } of spans) {
    if (a === b) {
      const need = LOOP_W + 10 + widest(st) + (numbers ? 2 * BADGE_R + 4 : 0);
      if (a < n - 1) gaps[a] = Math.max(gaps[a]!, need);
      else rightExtra = Math.max(rightExtra, need - boxW[a]! / 2);
      continue;
    }
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const have = gaps.slice(lo, hi).reduce((x, y) => x + y, 0);
    const need = labelW(st);
    if (have < need) for (let i = lo; i < hi; i++) gaps[i]! += (need - have) / (hi - lo);
  }
  const xs: number[] = [];
  let x = MARGIN + gutter + (boxW[0] ?? 0) / 2;
  for (let i = 0; i < n; i++) {
    xs.push(x);
    x += gaps[i] ?? 0;
  }
  let right = n ? xs[n - 1]! + boxW[n - 1]! / 2 + Math.max(rightExtra, 0) : MARGIN + gutter;
  let left = 0;

  // Rows.
  const top = MARGIN + boxH + 18;
  let y = top;
  const body: string[] = [];
  const timeLabels: string[] = [];
  let lastTime: number | undefined;
  const arrowHead = (st: SequenceStep) => markerRef(opts.id, st.dotted ? 'open' : 'solid');
  const arrowCls = (st: SequenceStep) =>
    `kal-fig__arrow kal-fig__arrow--${st.dotted ? 'watch' : 'solid'}`;
  for (const st of d.steps) {
    const rowH = (st.kind === 'note' ? NOTE_ROW : st.from === st.to ? ROW + 12 : ROW) + extra(st);
    if (gutter && st.t !== lastTime) {
      timeLabels.push(
        text(MARGIN + gutter - 10, y + 16, `${seconds(st.t)} s`, {
          cls: 'kal-fig__time',
          anchor: 'end',
        }),
      );
      lastTime = st.t;
    }
    if (st.kind === 'note') {
      const over = (st.over ?? [st.from]).map((o) => xs[col.get(o) ?? 0]!);
      const x0 = Math.min(...over);
      const x1 = Math.max(...over);
      const w = Math.max(widest(st) + 16, x1 - x0 + 40);
      const cx = (x0 + x1) / 2;
      left = Math.min(left, cx - w / 2 - MARGIN - gutter);
      right = Math.max(right, cx + w / 2);
      body.push(
        `<g class="kal-fig__note">${rect(cx - w / 2, y + 3, w, NOTE_ROW - 6 + extra(st), 'kal-fig__note-box', 2)}` +
          `${textLines(cx, y + NOTE_ROW / 2 + 4, lines.get(st)!, LINE_H, { anchor: 'middle' })}</g>`,
      );
    } else {
      const a = xs[col.get(st.from) ?? 0]!;
      const b = xs[col.get(st.to) ?? 0]!;
      const ay = y + ROW - 8 + extra(st);
      const badge = numbers ? numberBadge(a, ay, st.n) : '';
      let g: string;
      if (a === b) {
        const ly = y + 10 + extra(st);
        g =
          polyline(
            [
              [a, ly],
              [a + LOOP_W, ly],
              [a + LOOP_W, ly + 16],
              [a + 2, ly + 16],
            ],
            arrowCls(st),
            arrowHead(st),
          ) +
          textLines(
            a + LOOP_W + 6 + (numbers ? 2 * BADGE_R + 4 : 0),
            ly + 12 - extra(st),
            lines.get(st)!,
            LINE_H,
          ) +
          (numbers ? numberBadge(a + LOOP_W + 16, ly + 8, st.n) : '');
      } else {
        const dir = b > a ? 1 : -1;
        const start = a + (numbers ? dir * (BADGE_R + 1) : 0);
        g =
          line(start, ay, b - dir * 1, ay, arrowCls(st), arrowHead(st)) +
          textLines((a + b) / 2, ay - 6 - extra(st), lines.get(st)!, LINE_H, { anchor: 'middle' }) +
          badge;
      }
      body.push(`<g class="kal-fig__step kal-fig__step--${st.kind}" data-n="${st.n}">${g}</g>`);
    }
    y += rowH;
  }
  const bottom = y + 8;

  // Lifelines and participant boxes, drawn first so arrows sit on top.
  const heads = ids
    .map((p, i) => {
      const cx = xs[i]!;
      return (
        `<g class="kal-fig__participant">` +
        line(cx, MARGIN + boxH, cx, bottom, 'kal-fig__lifeline') +
        rect(cx - boxW[i]! / 2, MARGIN, boxW[i]!, boxH, 'kal-fig__box') +
        textLines(
          cx,
          MARGIN + boxH / 2 + 4 - (LINE_H * (boxLines[i]!.length - 1)) / 2,
          boxLines[i]!,
          LINE_H,
          { anchor: 'middle', cls: 'kal-fig__box-label' },
        ) +
        `</g>`
      );
    })
    .join('');

  // Legend.
  const solidLabel =
    opts.legend === 'packets'
      ? s.legendPacket
      : opts.legend === 'messages'
        ? s.legendMessage
        : s.legendRequest;
  const dashedLabel =
    opts.legend === 'packets' || opts.legend === 'messages' ? s.legendReply : s.legendWatch;
  const ly = bottom + 22;
  const lx = MARGIN + gutter;
  const legend =
    `<g class="kal-fig__legend">` +
    line(lx, ly, lx + 36, ly, 'kal-fig__arrow kal-fig__arrow--solid', markerRef(opts.id, 'solid')) +
    text(lx + 44, ly + 4, solidLabel) +
    line(
      lx + 60 + textWidth(solidLabel, FONT),
      ly,
      lx + 96 + textWidth(solidLabel, FONT),
      ly,
      'kal-fig__arrow kal-fig__arrow--watch',
      markerRef(opts.id, 'open'),
    ) +
    text(lx + 104 + textWidth(solidLabel, FONT), ly + 4, dashedLabel) +
    `</g>`;
  right = Math.max(right, lx + 110 + textWidth(solidLabel, FONT) + textWidth(dashedLabel, FONT));
  const width = right + MARGIN - left;
  const height = ly + 16;
  const svg = svgFrame(
    {
      id: opts.id,
      kind: 'sequence',
      width,
      height,
      minX: left,
      title: opts.title ?? d.title,
      description: opts.description ?? d.description,
      ...(opts.descLang ? { descLang: opts.descLang } : {}),
    },
    `<g class="kal-fig__times">${timeLabels.join('')}</g>` + heads + body.join('') + legend,
  );
  return { svg, width };
}

/** numberBadge draws an arrow's number in a circle, as Mermaid's autonumber does. */
function numberBadge(x: number, y: number, n: number): string {
  return (
    `<circle cx="${num(x)}" cy="${num(y)}" r="${BADGE_R}" class="kal-fig__badge"/>` +
    `<text x="${num(x)}" y="${num(y + 4)}" text-anchor="middle" class="kal-fig__badge-label">${esc(n)}</text>`
  );
}

// Timeline charts as static SVG, from the timeline projections (sim/projections/timeline.ts):
// a step-line chart of series over virtual time (a Deployment's ReplicaSets during a rollout, with
// dashed lines for the rollout's bounds) and a band chart of a Node's Ready condition and taints.
// Series are told apart by direct labels and line style as well as colour.
import type { NodePoint, ReplicaSetTimeline } from '../../../sim/index.ts';
import { FIGURE_STRINGS, fill, type FigureLang } from './strings.ts';
import { esc, line, num, rect, seconds, svgFrame, text, textWidth } from './svg.ts';

export interface StepSeries {
  label: string;
  /** style picks the line: "solid" series 0..5 (colour and width vary), "dashed" bound, "dotted". */
  style: 'solid' | 'dashed' | 'dotted';
  points: { t: number; v: number }[];
}

export interface StepChartOptions {
  id: string;
  lang?: FigureLang;
  title: string;
  description: string;
  descLang?: string;
  /** end is the last time on the axis (s); default the last point. */
  end?: number;
  yLabel: string;
}

const FONT = 12;
const MARGIN = 16;
/** FIT_W is the width charts aim for: the 632 px column, less room for its focus outline. */
const FIT_W = 620;
const PLOT_W_MIN = 330;
const PLOT_H = 240;

/** niceStep picks a tick spacing of 1, 2 or 5 × 10^k giving at most `max` intervals. */
export function niceStep(span: number, max: number): number {
  if (span <= 0) return 1;
  const raw = span / max;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** ticks lists multiples of step from 0 to end. */
export function ticks(end: number, step: number): number[] {
  const out: number[] = [];
  for (let v = 0; v <= end + step * 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

/** stepChart draws series as step lines (a value holds until the next point). */
export function stepChart(series: StepSeries[], opts: StepChartOptions): string {
  const s = FIGURE_STRINGS[opts.lang ?? 'en'];
  const all = series.flatMap((x) => x.points);
  const end = opts.end ?? Math.max(1, ...all.map((p) => p.t));
  const vmax = Math.max(1, ...all.map((p) => p.v));
  const yStep = niceStep(vmax, 6);
  const yTop = Math.ceil(vmax / yStep) * yStep;
  const xStep = niceStep(end, 8);
  const left = MARGIN + 44;
  const top = MARGIN + 8;
  const labelW = Math.max(0, ...series.map((x) => textWidth(x.label, FONT)));
  // The plot takes what the series labels on its right leave of the column.
  const PLOT_W = Math.max(PLOT_W_MIN, FIT_W - (left + 8 + labelW + MARGIN));
  const X = (t: number) => left + (t / end) * PLOT_W;
  const Y = (v: number) => top + PLOT_H - (v / yTop) * PLOT_H;
  const grid: string[] = [];
  for (const v of ticks(yTop, yStep))
    grid.push(
      line(left, Y(v), left + PLOT_W, Y(v), 'kal-fig__grid') +
        text(left - 8, Y(v) + 4, String(v), { anchor: 'end', cls: 'kal-fig__tick' }),
    );
  for (const t of ticks(end, xStep))
    grid.push(
      line(X(t), top + PLOT_H, X(t), top + PLOT_H + 5, 'kal-fig__axis') +
        text(X(t), top + PLOT_H + 19, `${seconds(t)}`, { anchor: 'middle', cls: 'kal-fig__tick' }),
    );
  const axes =
    line(left, top, left, top + PLOT_H, 'kal-fig__axis') +
    line(left, top + PLOT_H, left + PLOT_W, top + PLOT_H, 'kal-fig__axis') +
    text(left + PLOT_W / 2, top + PLOT_H + 38, s.axisTime, {
      anchor: 'middle',
      cls: 'kal-fig__axis-label',
    }) +
    `<text transform="translate(${num(MARGIN + 4)},${num(top + PLOT_H / 2)}) rotate(-90)" text-anchor="middle" class="kal-fig__axis-label">${esc(opts.yLabel)}</text>`;

  // Direct labels at each line's right end, nudged apart so they never overlap.
  const ends = series.map((x, i) => ({ i, y: Y(x.points[x.points.length - 1]?.v ?? 0) }));
  ends.sort((a, b) => a.y - b.y);
  for (let k = 1; k < ends.length; k++)
    if (ends[k]!.y - ends[k - 1]!.y < 15) ends[k]!.y = ends[k - 1]!.y + 15;
  const labelY = new Map(ends.map((e) => [e.i, e.y]));
  let solid = 0;
  const lines = series.map((x, i) => {
    const pts: string[] = [];
    x.points.forEach((p, k) => {
      if (k > 0) pts.push(`${num(X(p.t))},${num(Y(x.points[k - 1]!.v))}`);
      pts.push(`${num(X(p.t))},${num(Y(p.v))}`);
    });
    const last = x.points[x.points.length - 1];
    if (last) pts.push(`${num(X(end))},${num(Y(last.v))}`);
    const cls =
      x.style === 'solid'
        ? `kal-fig__series kal-fig__series--${solid++ % 6}`
        : `kal-fig__series kal-fig__series--${x.style}`;
    return (
      `<g class="kal-fig__line">` +
      `<polyline points="${pts.join(' ')}" class="${cls}" fill="none"/>` +
      text(X(end) + 8, labelY.get(i)! + 4, x.label, { cls: 'kal-fig__series-label' }) +
      `</g>`
    );
  });
  return svgFrame(
    {
      id: opts.id,
      kind: 'timeline',
      width: left + PLOT_W + 8 + labelW + MARGIN,
      height: top + PLOT_H + 48 + MARGIN,
      title: opts.title,
      description: opts.description,
      ...(opts.descLang ? { descLang: opts.descLang } : {}),
    },
    grid.join('') + axes + lines.join(''),
  );
}

/** replicaSetSeries turns a rollout timeline into chart series: one per ReplicaSet, the total
 * available, and the two bounds the rollout keeps to. */
export function replicaSetSeries(tl: ReplicaSetTimeline, lang: FigureLang = 'en'): StepSeries[] {
  const s = FIGURE_STRINGS[lang];
  const out: StepSeries[] = tl.replicaSets.map((rs) => ({
    label: `${rs.name}${rs.images.length ? ` (${rs.images.join(', ')})` : ''}`,
    style: 'solid',
    points: rs.points.map((p) => ({ t: p.t, v: p.specReplicas })),
  }));
  out.push({
    label: s.totalAvailable,
    style: 'dotted',
    points: tl.totals.map((p) => ({ t: p.t, v: p.availableReplicas })),
  });
  if (tl.replicas !== undefined && tl.maxSurge !== undefined && tl.maxUnavailable !== undefined) {
    const t0 = tl.totals[0]?.t ?? 0;
    out.push({
      label: fill(s.upperBound, { n: tl.replicas + tl.maxSurge }),
      style: 'dashed',
      points: [{ t: t0, v: tl.replicas + tl.maxSurge }],
    });
    out.push({
      label: fill(s.lowerBound, { n: tl.replicas - tl.maxUnavailable }),
      style: 'dashed',
      points: [{ t: t0, v: tl.replicas - tl.maxUnavailable }],
    });
  }
  return out;
}

export interface NodeBandOptions {
  id: string;
  lang?: FigureLang;
  node: string;
  title: string;
  description: string;
  descLang?: string;
  /** end is the last time on the axis (s). */
  end: number;
  /** markers are instants to point out, such as the fault that stopped the node. */
  markers?: { t: number; label: string }[];
}

/** nodeBand draws a Node's Ready condition as a band over time, with its taints as a second band.
 * Each state has its own fill pattern and a text label, so colour is never the only cue. */
export function nodeBand(points: NodePoint[], opts: NodeBandOptions): string {
  const s = FIGURE_STRINGS[opts.lang ?? 'en'];
  const left = MARGIN + 70;
  const top = MARGIN + 22;
  const bandH = 34;
  const PLOT_W = FIT_W - (left + MARGIN + 40);
  const X = (t: number) => left + (Math.min(t, opts.end) / opts.end) * PLOT_W;
  const seg = (from: number, to: number, y: number, cls: string, label: string) => {
    const w = X(to) - X(from);
    const fits = textWidth(label, FONT) + 8 <= w;
    return (
      rect(X(from), y, Math.max(w, 0.5), bandH, `kal-fig__band kal-fig__band--${cls}`, 0) +
      (fits
        ? text(X(from) + w / 2, y + bandH / 2 + 4, label, {
            anchor: 'middle',
            cls: 'kal-fig__band-label',
          })
        : '')
    );
  };
  const readyY = top;
  const taintY = top + bandH + 14;
  const parts: string[] = [];
  const first = points[0]?.t ?? opts.end;
  if (first > 0) {
    parts.push(seg(0, first, readyY, 'none', s.noStatus));
    parts.push(seg(0, first, taintY, 'none', ''));
  }
  // Consecutive points with the same state in a row are drawn as one segment.
  const row = (y: number, state: (p: NodePoint) => [string, string]) => {
    let i = 0;
    while (i < points.length) {
      const [cls, label] = state(points[i]!);
      let j = i + 1;
      while (j < points.length && state(points[j]!)[1] === label) j++;
      parts.push(seg(points[i]!.t, points[j]?.t ?? opts.end, y, cls, label));
      i = j;
    }
  };
  row(readyY, (p) => (p.deleted ? ['none', 'deleted'] : [p.ready.toLowerCase(), p.ready]));
  row(taintY, (p) =>
    p.taints.length ? ['tainted', p.taints.map(shortTaint).join(' + ')] : ['none', s.none],
  );
  const rowLabels =
    text(left - 8, readyY + bandH / 2 + 4, s.ready, { anchor: 'end', cls: 'kal-fig__axis-label' }) +
    text(left - 8, taintY + bandH / 2 + 4, s.taints, { anchor: 'end', cls: 'kal-fig__axis-label' });
  const axisY = taintY + bandH + 8;
  const xStep = niceStep(opts.end, 8);
  const axis =
    line(left, axisY, left + PLOT_W, axisY, 'kal-fig__axis') +
    ticks(opts.end, xStep)
      .map(
        (t) =>
          line(X(t), axisY, X(t), axisY + 5, 'kal-fig__axis') +
          text(X(t), axisY + 19, seconds(t), { anchor: 'middle', cls: 'kal-fig__tick' }),
      )
      .join('') +
    text(left + PLOT_W / 2, axisY + 38, s.axisTime, {
      anchor: 'middle',
      cls: 'kal-fig__axis-label',
    });
  const markers = (opts.markers ?? [])
    .map(
      (m) =>
        line(X(m.t), top - 8, X(m.t), axisY, 'kal-fig__marker') +
        text(X(m.t) + 4, top - 10, m.label, { cls: 'kal-fig__marker-label' }),
    )
    .join('');
  return svgFrame(
    {
      id: opts.id,
      kind: 'node-band',
      width: left + PLOT_W + MARGIN + 40,
      height: axisY + 48 + MARGIN,
      title: opts.title,
      description: opts.description,
      ...(opts.descLang ? { descLang: opts.descLang } : {}),
    },
    parts.join('') + rowLabels + axis + markers,
  );
}

/** shortTaint drops the well-known prefix: "node.kubernetes.io/unreachable:NoSchedule" → "unreachable:NoSchedule". */
export function shortTaint(t: string): string {
  return t.replace(/^node\.kubernetes\.io\//, '');
}

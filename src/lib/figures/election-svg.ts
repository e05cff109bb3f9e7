// electionSvg draws a leader-election timeline (sim/projections/election.ts) as static SVG: one
// band per etcd member (its Raft role and term) and one per kube-system Lease (its holder, and
// the stretch its record stays valid after the last renewal), the faults as dashed vertical lines
// across every lane, and each handover's delay after the fault beside the new leader's start.
// Every state has its own fill and a text label where it fits, so colour is never the only cue;
// the text alternative (ElectionTimeline.astro) lists every change.
import type { ElectionSegment, ElectionTimeline } from '../../../sim/index.ts';
import { FIGURE_STRINGS, fill, type FigureLang } from './strings.ts';
import { line, rect, seconds, svgFrame, text, textLines, textWidth } from './svg.ts';
import { niceStep } from './timeline-svg.ts';

export interface ElectionSvgOptions {
  id: string;
  lang?: FigureLang;
  title?: string;
  description?: string;
  descLang?: string;
}

const FONT = 12;
const MARGIN = 16;
/** FIT_W is the width the chart aims for: the 632 px column, less room for its focus outline. */
const FIT_W = 620;
const BAND_H = 28;
/** LANE_GAP leaves room above each band for a handover's delay ("+1.273 s"). */
const LANE_GAP = 20;
const GROUP_GAP = 10;
const LINE_H = 15;

/** ELECTION_STRINGS are the state names a lane shows, per language. */
export const ELECTION_STRINGS = {
  en: {
    follower: 'follower',
    'pre-candidate': 'pre-candidate',
    candidate: 'candidate',
    leader: 'leader',
    down: 'stopped',
    holds: 'held by {holder}',
    expiring: 'not renewed',
    term: 'term {term}',
    etcd: 'etcd member',
    lease: 'Lease holder',
    after: '+{s} s',
    noHolder: 'no holder',
  },
  ja: {
    follower: 'フォロワー',
    'pre-candidate': 'プレ候補',
    candidate: '候補',
    leader: 'リーダー',
    down: '停止',
    holds: '保持: {holder}',
    expiring: '更新なし',
    term: 'term {term}',
    etcd: 'etcd メンバー',
    lease: 'Lease の保持者',
    after: '+{s} 秒',
    noHolder: '保持者なし',
  },
} as const;

/** segmentLabels are a segment's labels, longest first; the first that fits is drawn. */
export function segmentLabels(s: ElectionSegment, lang: FigureLang): string[] {
  const w = ELECTION_STRINGS[lang];
  if (s.state === 'holds') return [fill(w.holds, { holder: s.holder ?? '' }), s.holder ?? ''];
  if (s.state === 'expiring') return [w.expiring];
  const name = w[s.state];
  if (s.term === undefined) return [name];
  const term = fill(w.term, { term: s.term });
  return [`${name}, ${term}`, name];
}

/** electionSvg renders the timeline; one <rect class="kal-fig__band ..."> per segment. */
export function electionSvg(tl: ElectionTimeline, opts: ElectionSvgOptions): string {
  const lang = opts.lang ?? 'en';
  const s = FIGURE_STRINGS[lang];
  const w = ELECTION_STRINGS[lang];
  const laneLines = tl.lanes.map((l) => (l.kind === 'etcd' ? [l.name, w.etcd] : [l.name, w.lease]));
  const labelW = Math.max(...laneLines.flat().map((x) => textWidth(x, FONT)), 60);
  const left = MARGIN + labelW + 10;
  const PLOT_W = FIT_W - left - MARGIN;
  const span = Math.max(tl.to - tl.from, 0.001);
  const X = (t: number) =>
    left + ((Math.min(Math.max(t, tl.from), tl.to) - tl.from) / span) * PLOT_W;

  // Fault labels sit above the lanes, one row each where they would overlap.
  const faultRows: number[] = [];
  const faultLabels = tl.faults.map((f) => {
    const label = `${fill(s.fault, { fault: f.fault })}${f.node ? ` (${f.node})` : ''}`;
    const x0 = X(f.t) + 4;
    const width = textWidth(label, FONT);
    // Right-align a label that would run past the plot's right edge.
    const anchorEnd = x0 + width > left + PLOT_W + MARGIN;
    const a = anchorEnd ? X(f.t) - 4 - width : x0;
    let row = faultRows.findIndex((end) => end < a);
    if (row < 0) row = faultRows.push(0) - 1;
    faultRows[row] = a + width + 8;
    return { f, label, row, anchorEnd };
  });
  const top = MARGIN + faultRows.length * LINE_H + 6;
  const parts: string[] = [];
  let y = top;
  const laneY: number[] = [];
  tl.lanes.forEach((l, i) => {
    if (i > 0 && l.kind !== tl.lanes[i - 1]!.kind) y += GROUP_GAP;
    y += LANE_GAP;
    laneY.push(y);
    parts.push(rect(left, y, PLOT_W, BAND_H, 'kal-fig__band kal-fig__band--none', 0));
    for (const seg of l.segments) {
      const x0 = X(seg.from);
      const width = Math.max(X(seg.to) - x0, 1);
      parts.push(
        `<g class="kal-fig__segment" data-state="${seg.state}">` +
          rect(x0, y, width, BAND_H, `kal-fig__band kal-fig__band--${seg.state}`, 0),
      );
      const label = segmentLabels(seg, lang).find((x) => textWidth(x, FONT) + 8 <= width);
      if (label)
        parts.push(
          text(x0 + width / 2, y + BAND_H / 2 + 4, label, {
            anchor: 'middle',
            cls: 'kal-fig__band-label',
          }),
        );
      parts.push('</g>');
    }
    parts.push(
      textLines(left - 8, y + BAND_H / 2 - 3, laneLines[i]!, LINE_H, {
        anchor: 'end',
        cls: 'kal-fig__axis-label',
      }),
    );
    y += BAND_H;
  });
  const axisY = y + 8;

  // A handover: a tick at the new leader's start and its delay after the fault, above its band.
  for (const h of tl.handovers) {
    const i = tl.lanes.findIndex((l) =>
      h.kind === 'etcd' ? l.kind === 'etcd' && l.name === h.node : l.name === h.lane,
    );
    if (i < 0) continue;
    const ly = laneY[i]!;
    const x = X(h.t);
    parts.push(
      line(x, ly - 6, x, ly + BAND_H, 'kal-fig__handover') +
        (h.after !== undefined
          ? text(x + 4, ly - 6, fill(w.after, { s: seconds(h.after) }), {
              cls: 'kal-fig__marker-label',
            })
          : ''),
    );
  }

  const step = niceStep(span, 8);
  const ticks: number[] = [];
  for (let t = Math.ceil(tl.from / step - 1e-9) * step; t <= tl.to + 1e-9; t += step)
    ticks.push(Math.round(t * 1e6) / 1e6);
  const axis =
    line(left, axisY, left + PLOT_W, axisY, 'kal-fig__axis') +
    ticks
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
  const markers = faultLabels
    .map(
      ({ f, label, row, anchorEnd }) =>
        line(X(f.t), MARGIN + row * LINE_H + 4, X(f.t), axisY, 'kal-fig__marker') +
        text(anchorEnd ? X(f.t) - 4 : X(f.t) + 4, MARGIN + row * LINE_H + 10, label, {
          cls: 'kal-fig__marker-label',
          ...(anchorEnd ? { anchor: 'end' as const } : {}),
        }),
    )
    .join('');
  return svgFrame(
    {
      id: opts.id,
      kind: 'election',
      width: FIT_W,
      height: axisY + 48 + MARGIN,
      title: opts.title ?? tl.title,
      description: opts.description ?? tl.description,
      ...(opts.descLang ? { descLang: opts.descLang } : {}),
    },
    parts.join('') + axis + markers,
  );
}

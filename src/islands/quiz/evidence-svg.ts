// evidenceTimeline draws "What the cluster did" as a small timeline: one numbered mark per fact on
// a time axis (the numbers match the list beside it, which is the text alternative), and for a
// numeric answer about a duration, the learner's answer as a bar next to the simulator's. Built
// with DOM calls and textContent only: nothing the learner typed is parsed as markup.
import type { Fact } from '../../quiz/evidence.ts';

const NS = 'http://www.w3.org/2000/svg';

function node<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Said is the learner's numeric answer, drawn from the first fact's time. */
export interface Said {
  seconds: number;
  label: string;
  simLabel: string;
}

/** evidenceTimeline returns the SVG, or undefined when there is nothing to place on an axis. */
export function evidenceTimeline(
  facts: Fact[],
  unit: string,
  said?: Said,
): SVGSVGElement | undefined {
  if (facts.length < 2 && !said) return undefined;
  const W = 640;
  const left = 16;
  const right = W - 16;
  const t0 = Math.min(...facts.map((f) => f.t));
  const measuredEnd = Math.max(...facts.map((f) => f.t));
  const end = Math.max(measuredEnd, said ? t0 + said.seconds : measuredEnd);
  const span = end - t0 || 1;
  const x = (t: number) => left + ((t - t0) / span) * (right - left);
  const H = said ? 122 : 62;
  const svg = node('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'quiz-timeline',
    'aria-hidden': 'true',
    focusable: 'false',
  });
  svg.append(node('line', { x1: left, x2: right, y1: 24, y2: 24, class: 'axis' }));
  // Marks: facts at the same pixel share a label ("1,2").
  const groups = new Map<number, number[]>();
  facts.forEach((f, i) => {
    const px = Math.round(x(f.t));
    groups.set(px, [...(groups.get(px) ?? []), i + 1]);
  });
  let lastLabelX = -Infinity;
  let row = 0;
  for (const [px, nums] of [...groups.entries()].sort((a, b) => a[0] - b[0])) {
    svg.append(node('line', { x1: px, x2: px, y1: 18, y2: 30, class: 'mark' }));
    row = px - lastLabelX < 28 ? (row + 1) % 2 : 0;
    const anchor = px < left + 24 ? 'start' : px > right - 24 ? 'end' : 'middle';
    svg.append(
      node(
        'text',
        { x: px, y: row ? 10 : 44, 'text-anchor': anchor, class: 'num' },
        nums.join(','),
      ),
    );
    lastLabelX = px;
  }
  svg.append(node('text', { x: left, y: 58, class: 'tick' }, `${round(t0)} ${unit}`));
  svg.append(
    node('text', { x: right, y: 58, 'text-anchor': 'end', class: 'tick' }, `${round(end)} ${unit}`),
  );
  if (said) {
    // Each bar has its label above it, at the left, so no label sits on a bar.
    const bar = (y: number, to: number, cls: string, label: string) => {
      svg.append(node('text', { x: left, y: y - 3, class: 'tick' }, label));
      svg.append(
        node('rect', { x: left, y, width: Math.max(2, x(to) - left), height: 10, class: cls }),
      );
    };
    bar(78, measuredEnd, 'sim', said.simLabel);
    bar(108, t0 + said.seconds, 'you', said.label);
  }
  return svg;
}

function round(n: number): string {
  return String(Math.round(n * 10) / 10);
}

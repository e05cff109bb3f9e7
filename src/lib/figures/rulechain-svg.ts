// ruleChainSvg draws one Service port's chain on a node (sim/projections/rule-chain.ts) as static
// SVG, top to bottom so that it reads at a phone's width: the KUBE-SERVICES rule, the KUBE-SVC
// chain with one row per endpoint rule (its statistic probability and the share of new
// connections it gets in the end), and one box per KUBE-SEP chain with its DNAT. Arrows run from
// each rule to the chain it jumps to.
import type { RuleChain } from '../../../sim/index.ts';
import { type FigureLang } from './strings.ts';
import {
  esc,
  line,
  markerRef,
  monoWidth,
  polyline,
  rect,
  svgFrame,
  text,
  textWidth,
} from './svg.ts';

export interface RuleChainSvgOptions {
  id: string;
  lang?: FigureLang;
  node: string;
  title: string;
  description: string;
}

const FONT = 12;
const LINE = 17;
const PAD = 10;
const MARGIN = 12;
const GAP = 30;
const INDENT = 30;

const WORDS = {
  en: {
    match: (c: RuleChain) => `-d ${c.clusterIP} -p ${c.protocol} --dport ${c.port}`,
    rule: (p: string | null) => (p === null ? 'the rest' : `probability ${Number(p).toFixed(4)}`),
    share: (s: number) => `${Math.round(s * 1000) / 10}% of new connections`,
    dnat: (to: string) => `DNAT to ${to}`,
    none: 'no endpoints: no KUBE-SVC chain (REJECT in the filter table)',
    on: (node: string) => `on ${node}`,
  },
  ja: {
    match: (c: RuleChain) => `-d ${c.clusterIP} -p ${c.protocol} --dport ${c.port}`,
    rule: (p: string | null) => (p === null ? '残りすべて' : `確率 ${Number(p).toFixed(4)}`),
    share: (s: number) => `新しい接続の ${Math.round(s * 1000) / 10}%`,
    dnat: (to: string) => `${to} へ DNAT`,
    none: 'エンドポイントなし: KUBE-SVC チェーンはない（filter テーブルで REJECT）',
    on: (node: string) => `${node} 上`,
  },
};

/** ruleChainSvg renders one chain. */
export function ruleChainSvg(c: RuleChain, opts: RuleChainSvgOptions): string {
  const w = WORDS[opts.lang ?? 'en'];
  const boxes: {
    x: number;
    y: number;
    w: number;
    h: number;
    title: string;
    lines: string[];
    cls: string;
  }[] = [];
  let y = MARGIN;
  const svcLines = [w.match(c), `-j ${c.svcChain}`];
  const top = { title: `KUBE-SERVICES (${w.on(opts.node)})`, lines: svcLines };
  // Each endpoint rule takes two lines (its match, then its jump), so the figure stays narrow
  // enough for a phone.
  const mid = {
    title: c.svcChain,
    lines: [
      c.servicePort,
      ...c.endpoints.flatMap((e, i) => [`${i + 1}. ${w.rule(e.probability)}`, `   → ${e.chain}`]),
    ],
  };
  const seps = c.endpoints.map((e) => ({
    title: e.chain,
    lines: [w.dnat(e.dnat), w.share(e.share)],
  }));
  const widthOf = (b: { title: string; lines: string[] }) =>
    Math.max(textWidth(b.title, FONT) * 1.08, ...b.lines.map((l) => monoWidth(l, FONT))) + 2 * PAD;
  const width = Math.max(widthOf(top), widthOf(mid), ...seps.map(widthOf));
  const place = (b: { title: string; lines: string[] }, cls: string, indent = 0): void => {
    const h = PAD + LINE + b.lines.length * LINE + PAD / 2;
    boxes.push({ x: MARGIN + indent, y, w: width, h, title: b.title, lines: b.lines, cls });
    y += h + (indent ? GAP / 2 : GAP);
  };
  place(top, 'kal-fig__box');
  place(mid, 'kal-fig__box kal-fig__box--hub');
  // The KUBE-SEP chains sit indented, so their arrows can run down a gutter on the left.
  for (const s of seps) place(s, 'kal-fig__box', INDENT);
  const body: string[] = [];
  for (const b of boxes) {
    body.push(
      `<g class="kal-fig__chain">` +
        rect(b.x, b.y, b.w, b.h, b.cls, 3) +
        text(b.x + PAD, b.y + PAD + 12, b.title, { cls: 'kal-fig__box-label' }) +
        b.lines
          .map((l, i) =>
            text(b.x + PAD, b.y + PAD + 12 + (i + 1) * LINE, l, { cls: 'kal-fig__field' }),
          )
          .join('') +
        `</g>`,
    );
  }
  // Arrows: KUBE-SERVICES → KUBE-SVC, then KUBE-SVC → each KUBE-SEP along the left gutter.
  const [b0, b1] = [boxes[0]!, boxes[1]!];
  body.push(
    line(
      b0.x + 14,
      b0.y + b0.h,
      b1.x + 14,
      b1.y,
      'kal-fig__arrow kal-fig__arrow--solid',
      markerRef(opts.id, 'solid'),
    ),
  );
  for (const b of boxes.slice(2)) {
    const gx = MARGIN + 14;
    const my = b.y + b.h / 2;
    body.push(
      polyline(
        [
          [gx, b1.y + b1.h],
          [gx, my],
          [b.x, my],
        ],
        'kal-fig__arrow kal-fig__arrow--solid',
        markerRef(opts.id, 'solid'),
      ),
    );
  }
  if (c.endpoints.length === 0) body.push(text(MARGIN, y + 4, w.none));
  return svgFrame(
    {
      id: opts.id,
      kind: 'rulechain',
      width: width + 2 * MARGIN + (seps.length ? INDENT : 0),
      height: y - (seps.length ? GAP / 2 : GAP) + MARGIN + (c.endpoints.length === 0 ? 20 : 0),
      title: opts.title,
      description: opts.description,
    },
    `<g data-service="${esc(c.servicePort)}">${body.join('')}</g>`,
  );
}

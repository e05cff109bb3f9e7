// topologySvg draws a topology model (sim/projections/topology.ts) as static SVG, top to bottom so
// that it reads at a phone's width: the Services with their cluster IPs and ready endpoints, then
// one box per node with its address, its Pod range and its Pods' addresses, and the connections
// seen as numbered arrows down the right-hand gutter from the client Pod's row to the target Pod's
// row (solid: connected; dashed: refused or rejected; dotted: no answer), each explained in a
// numbered line under the boxes. Outcomes differ by line style, never by colour alone.
import type { Topology, TopologyLink } from '../../../sim/index.ts';
import type { FigureLang } from './strings.ts';
import {
  esc,
  markerRef,
  monoWidth,
  num,
  polyline,
  rect,
  svgFrame,
  text,
  textWidth,
  wrapLabel,
} from './svg.ts';

export interface TopologySvgOptions {
  id: string;
  lang?: FigureLang;
  title: string;
  description: string;
}

const FONT = 12;
const LINE = 17;
const PAD = 10;
const MARGIN = 12;
const GAP = 16;
const LANE = 12;

const WORDS = {
  en: {
    services: 'Services',
    ready: (n: number) => `${n} ready`,
    pods: (cidr: string) => `Pods ${cidr}`,
    outcome: {
      established: 'connected',
      refused: 'refused (nothing listens)',
      rejected: 'rejected (no endpoints)',
      timeout: 'no answer',
      dropped: 'dropped by a policy',
    } as Record<string, string>,
    link: (l: TopologyLink, o: string) =>
      `${short(l.from)} → ${l.via ? `${short(l.via)} → ` : ''}${l.to ? short(l.to) : '—'}: ${o}${l.count > 1 ? `, ${l.count} times` : ''}`,
  },
  ja: {
    services: 'Service',
    ready: (n: number) => `Ready ${n}`,
    pods: (cidr: string) => `Pod ${cidr}`,
    outcome: {
      established: '接続した',
      refused: '拒否（待ち受けなし）',
      rejected: '拒否（エンドポイントなし）',
      timeout: '応答なし',
      dropped: 'ポリシーが破棄',
    } as Record<string, string>,
    link: (l: TopologyLink, o: string) =>
      `${short(l.from)} → ${l.via ? `${short(l.via)} → ` : ''}${l.to ? short(l.to) : '—'}: ${o}${l.count > 1 ? `（${l.count} 回）` : ''}`,
  },
};

/** short drops the namespace from namespace/name. */
function short(key: string): string {
  return key.split('/').pop()!;
}

/** topologySvg renders the model. */
export function topologySvg(t: Topology, opts: TopologySvgOptions): string {
  const w = WORDS[opts.lang ?? 'en'];
  const svcLines = t.services.flatMap((s) => [
    `${s.name}  ${s.clusterIP}`,
    `  ${s.ports}, ${w.ready(s.ready)}`,
  ]);
  const nodeBoxes = t.nodes.map((n) => ({
    title: `${n.name}  ${n.ip}`,
    sub: w.pods(n.podCIDR),
    rows: n.pods.map((p) => ({ key: p.key, text: `${p.name}  ${p.ip}` })),
  }));
  const inner = Math.max(
    textWidth(w.services, FONT) * 1.08,
    ...svcLines.map((l) => monoWidth(l.trim(), FONT) + (l.startsWith('  ') ? 16 : 0)),
    ...nodeBoxes.flatMap((b) => [
      textWidth(b.title, FONT) * 1.08,
      monoWidth(b.sub, FONT),
      ...b.rows.map((r) => monoWidth(r.text, FONT)),
    ]),
  );
  const boxW = inner + 2 * PAD;
  const links = t.links;
  const gutter = links.length ? 12 + links.length * LANE + 14 : 0;
  const width = MARGIN + boxW + gutter + MARGIN;
  const body: string[] = [];
  let y = MARGIN;
  // Services.
  const sh = PAD + LINE + svcLines.length * LINE + PAD / 2;
  body.push(
    `<g class="kal-fig__services">` +
      rect(MARGIN, y, boxW, sh, 'kal-fig__box kal-fig__box--hub', 3) +
      text(MARGIN + PAD, y + PAD + 12, w.services, { cls: 'kal-fig__box-label' }) +
      svcLines
        .map((l, i) =>
          // A Service's second line (its ports) is indented by x: SVG collapses leading spaces.
          text(
            MARGIN + PAD + (l.startsWith('  ') ? 16 : 0),
            y + PAD + 12 + (i + 1) * LINE,
            l.trim(),
            {
              cls: 'kal-fig__field',
            },
          ),
        )
        .join('') +
      `</g>`,
  );
  y += sh + GAP;
  // Nodes, and where each Pod's row is (its y centre).
  const rowY = new Map<string, number>();
  for (const b of nodeBoxes) {
    const h = PAD + LINE * 2 + b.rows.length * LINE + PAD / 2;
    const rows = b.rows
      .map((r, i) => {
        const ry = y + PAD + 12 + (i + 2) * LINE;
        rowY.set(r.key, ry - 4);
        return text(MARGIN + PAD, ry, r.text, { cls: 'kal-fig__field' });
      })
      .join('');
    body.push(
      `<g class="kal-fig__node">` +
        rect(MARGIN, y, boxW, h, 'kal-fig__box', 3) +
        text(MARGIN + PAD, y + PAD + 12, b.title, { cls: 'kal-fig__box-label' }) +
        text(MARGIN + PAD, y + PAD + 12 + LINE, b.sub, { cls: 'kal-fig__field' }) +
        rows +
        `</g>`,
    );
    y += h + GAP;
  }
  // Connections: a lane each in the gutter, from the client's row to the target's.
  const right = MARGIN + boxW;
  const cls = (l: TopologyLink) =>
    l.outcome === 'established'
      ? 'kal-fig__arrow kal-fig__arrow--solid'
      : l.outcome === 'refused' || l.outcome === 'rejected'
        ? 'kal-fig__arrow kal-fig__arrow--watch'
        : 'kal-fig__arrow kal-fig__arrow--dotted';
  links.forEach((l, i) => {
    const x = right + 12 + i * LANE;
    const y1 = rowY.get(l.from) ?? MARGIN;
    const y2 = l.to ? (rowY.get(l.to) ?? y1) : y1 + 10;
    const end = l.to ? right : x + 8;
    body.push(
      polyline(
        [
          [right, y1],
          [x, y1],
          [x, y2],
          [end, y2],
        ],
        cls(l),
        markerRef(opts.id, l.outcome === 'established' ? 'solid' : 'open'),
      ) +
        `<circle cx="${num(x)}" cy="${num(y1)}" r="2.5" class="kal-fig__dot"/>` +
        text(x, y1 - 4, String(i + 1), { anchor: 'middle', cls: 'kal-fig__lane-n' }),
    );
  });
  // The numbered lines that explain the arrows.
  const notes = links.flatMap((l, i) =>
    wrapLabel(
      `${i + 1}. ${w.link(l, w.outcome[l.outcome] ?? l.outcome)}`,
      width - 2 * MARGIN,
      FONT,
    ),
  );
  notes.forEach((n, i) => body.push(text(MARGIN, y + 4 + i * LINE, n)));
  const height = y + (notes.length ? notes.length * LINE : 0) + MARGIN - (notes.length ? 0 : GAP);
  return svgFrame(
    {
      id: opts.id,
      kind: 'topology',
      width,
      height,
      title: opts.title,
      description: opts.description,
    },
    `<g data-topology="${esc(t.nodes.map((n) => n.name).join(' '))}">${body.join('')}</g>`,
  );
}

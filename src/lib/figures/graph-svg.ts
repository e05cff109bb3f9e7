// graphSvg draws a component graph model (sim/projections/component-graph.ts) as static SVG with a
// fixed, deterministic layout: kube-apiserver as a tall box in the centre, etcd below it, clients
// (kubectl) above it, control-plane components in a column on the left and node agents grouped in
// one "Worker node" box per machine on the right. Because kube-apiserver spans every row, each
// component's requests and watch events run as two short horizontal arrows. Edge kinds differ by
// line style (solid, thick, dashed, dotted), never by colour alone; a legend names them.
//
// That layout is wider than the lesson column (632 px). When the node agents are merged into one
// "Worker node" box, a narrow layout is tried first, and kept when it fits: etcd joins the left
// column (its writes run as a horizontal arrow like the controllers' requests) and the Worker node
// box sits below the control plane, its agents under kube-apiserver, so their requests and watch
// events run as short vertical arrows.
import type { ComponentGraph, GraphEdge, GraphNode } from '../../../sim/index.ts';
import { FIGURE_STRINGS, edgeLabel, fill, type FigureLang } from './strings.ts';
import {
  COLUMN_WIDTHS,
  esc,
  line,
  markerRef,
  num,
  polyline,
  rect,
  svgFrame,
  text,
  textWidth,
} from './svg.ts';

export interface GraphSvgOptions {
  id: string;
  lang?: FigureLang;
  /** fit is the width the narrow layout must fit in to be used (default the desktop column, 632). */
  fit?: number;
  title?: string;
  description?: string;
  descLang?: string;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const FONT = 12;
const BOX_H = 32;
const PITCH = 58;
const GAP = 130;
const MARGIN = 16;
const GROUP_PAD = 14;
const GROUP_TITLE = 24;
const FAR_GAP = 60;
/** AGENT_W and AGENT_GAP size the narrow layout's node agents, side by side under kube-apiserver. */
const AGENT_W = 88;
const AGENT_GAP = 56;
/** BELOW is the space between the control plane box and the Worker node box (edge labels). */
const BELOW = 56;

/** Layout is where every box goes, and how the labels of some edges are placed. */
interface Layout {
  boxes: Map<string, Box>;
  groups: { label: string; box: Box }[];
  cpBox: Box;
  /** legendY is where the legend starts; rightEdge the rightmost edge of any box or group. */
  legendY: number;
  rightEdge: number;
  /** place moves an edge's label (by edge index): to the left of x, dy lower. */
  place: Map<number, { x: number; dy: number }>;
}

const cx = (b: Box) => b.x + b.w / 2;
const cy = (b: Box) => b.y + b.h / 2;

/** graphSvg renders the graph; each edge of the model becomes exactly one arrow. */
export function graphSvg(g: ComponentGraph, opts: GraphSvgOptions): string {
  const s = FIGURE_STRINGS[opts.lang ?? 'en'];
  const api = g.nodes.find((n) => n.label === 'kube-apiserver');
  const etcd = g.nodes.find((n) => n.group === 'store');
  const clients = g.nodes.filter((n) => n.group === 'client');
  const control = g.nodes.filter((n) => n.group === 'control-plane' && n !== api);
  const agents = g.nodes.filter((n) => n.group === 'node');
  const talksToApi = new Set(
    g.edges
      .filter((e) => api && (e.to === api.id || e.from === api.id))
      .flatMap((e) => [e.from, e.to]),
  );
  const wOf = (n: GraphNode) => Math.max(textWidth(n.label, FONT) + 24, 120);
  // Edge labels in the figure's language; the columns move apart for a label wider than the gap.
  const labels = g.edges.map((e) => edgeLabel(e, g.counts, opts.lang ?? 'en'));
  const gap = Math.max(GAP, ...labels.map((l) => textWidth(l, FONT) + 20));

  // Machines: one group per node, or one "Worker node" group when agents are merged.
  const machines = new Map<string, GraphNode[]>();
  for (const a of agents) {
    const m = a.node ?? '';
    if (!machines.has(m)) machines.set(m, []);
    machines.get(m)!.push(a);
  }
  const parts = { api, etcd, clients, control, agents, machines, talksToApi, wOf, s };
  let lay = wideLayout(g, parts, gap);
  if (Math.max(lay.rightEdge, 560) + MARGIN > (opts.fit ?? COLUMN_WIDTHS.desktop)) {
    const narrow = narrowLayout(g, parts, labels);
    if (narrow && Math.max(narrow.rightEdge, 300) + MARGIN <= (opts.fit ?? COLUMN_WIDTHS.desktop))
      lay = narrow;
  }
  const { boxes, groups, cpBox, legendY, rightEdge, place } = lay;

  // Edges. The two directions between one pair run side by side, 6 units apart.
  const pairCount = new Map<string, number>();
  const edgeSvg = g.edges.map((e, i) => {
    const a = boxes.get(e.from)!;
    const b = boxes.get(e.to)!;
    const key = [e.from, e.to].sort().join('\u0000');
    const k = pairCount.get(key) ?? 0;
    pairCount.set(key, k + 1);
    return drawEdge(e, labels[i]!, a, b, k, opts.id, place.get(i));
  });

  const nodeSvg = g.nodes.map((n) => {
    const b = boxes.get(n.id)!;
    const cls =
      n.group === 'store'
        ? 'kal-fig__box kal-fig__box--store'
        : n.label === 'kube-apiserver'
          ? 'kal-fig__box kal-fig__box--hub'
          : 'kal-fig__box';
    const shape =
      n.group === 'store'
        ? `<ellipse cx="${num(cx(b))}" cy="${num(b.y + 5)}" rx="${num(b.w / 2)}" ry="5" class="kal-fig__box-cap"/>`
        : '';
    return `<g class="kal-fig__node" data-id="${esc(n.id)}">${rect(b.x, b.y, b.w, b.h, cls, n.group === 'store' ? 10 : 4)}${shape}${text(cx(b), cy(b) + 4, n.label, { anchor: 'middle', cls: 'kal-fig__box-label' })}</g>`;
  });

  const groupSvg = [
    control.length || api
      ? `<g class="kal-fig__group">${rect(cpBox.x, cpBox.y, cpBox.w, cpBox.h, 'kal-fig__group-box', 8)}${text(cpBox.x + 10, cpBox.y + 17, s.controlPlane, { cls: 'kal-fig__group-label' })}</g>`
      : '',
    ...groups.map(
      ({ label, box }) =>
        `<g class="kal-fig__group">${rect(box.x, box.y, box.w, box.h, 'kal-fig__group-box', 8)}${text(box.x + 10, box.y + 17, label, { cls: 'kal-fig__group-label' })}</g>`,
    ),
  ].join('');

  // Legend below everything.
  const items: [string, string, 'solid' | 'open'][] = [
    ['requests', s.legendRequests, 'solid'],
    ['stores', s.legendStores, 'solid'],
    ['watches', s.legendWatches, 'open'],
    ['calls', s.legendCalls, 'solid'],
  ];
  const present = new Set(g.edges.map((e) => e.kind));
  let lx = MARGIN;
  let ly = legendY + 34;
  const legendParts: string[] = [];
  const maxRight = Math.max(rightEdge, place.size ? 300 : 560);
  for (const [kind, label, head] of items) {
    if (!present.has(kind as GraphEdge['kind'])) continue;
    const w = 50 + textWidth(label, FONT) + 24;
    if (lx + w > maxRight && lx > MARGIN) {
      lx = MARGIN;
      ly += 22;
    }
    legendParts.push(
      line(lx, ly, lx + 40, ly, `kal-fig__edge kal-fig__edge--${kind}`, markerRef(opts.id, head)) +
        text(lx + 48, ly + 4, label),
    );
    lx += w;
  }
  const width = maxRight + MARGIN;
  const height = ly + 16;
  return svgFrame(
    {
      id: opts.id,
      kind: 'graph',
      width,
      height,
      title: opts.title ?? g.title,
      description: opts.description ?? g.description,
      ...(opts.descLang ? { descLang: opts.descLang } : {}),
    },
    groupSvg +
      edgeSvg.join('') +
      nodeSvg.join('') +
      `<g class="kal-fig__legend">${legendParts.join('')}</g>`,
  );
}

/** Parts are the graph's nodes sorted by role, and what the layouts measure them with. */
interface Parts {
  api: GraphNode | undefined;
  etcd: GraphNode | undefined;
  clients: GraphNode[];
  control: GraphNode[];
  agents: GraphNode[];
  machines: Map<string, GraphNode[]>;
  talksToApi: Set<string>;
  wOf: (n: GraphNode) => number;
  s: (typeof FIGURE_STRINGS)[FigureLang];
}

/** wideLayout: control plane | kube-apiserver | node agents, side by side; etcd below. */
function wideLayout(g: ComponentGraph, p: Parts, gap: number): Layout {
  const { api, etcd, clients, control, machines, talksToApi, wOf, s } = p;
  const boxes = new Map<string, Box>();
  const leftW = Math.max(0, ...control.map(wOf));
  const top = MARGIN + (clients.length ? BOX_H + 80 : 0);
  control.forEach((n, i) => boxes.set(n.id, { x: MARGIN, y: top + i * PITCH, w: leftW, h: BOX_H }));
  const leftBottom = top + Math.max(control.length, 1) * PITCH - (PITCH - BOX_H);

  const apiX = MARGIN + (control.length ? leftW + gap : 0);
  const apiW = api ? Math.max(textWidth(api.label, FONT) + 28, 140) : 0;
  const rightX = apiX + apiW + gap - GROUP_PAD;
  const groups: { label: string; box: Box }[] = [];
  let gy = top - GROUP_TITLE - GROUP_PAD + 10;
  let rightEdge = apiX + apiW;
  for (const [m, list] of machines) {
    const near = list.filter((a) => talksToApi.has(a.id));
    const far = list.filter((a) => !talksToApi.has(a.id));
    const nearW = Math.max(0, ...near.map(wOf));
    const farW = Math.max(0, ...far.map(wOf));
    const innerTop = gy + GROUP_TITLE + GROUP_PAD;
    near.forEach((a, i) =>
      boxes.set(a.id, { x: rightX + GROUP_PAD, y: innerTop + i * PITCH, w: nearW, h: BOX_H }),
    );
    const farX = rightX + GROUP_PAD + nearW + (far.length ? FAR_GAP : 0);
    far.forEach((a, i) => boxes.set(a.id, { x: farX, y: innerTop + i * PITCH, w: farW, h: BOX_H }));
    const rows = Math.max(near.length, far.length, 1);
    const w = GROUP_PAD * 2 + nearW + (far.length ? FAR_GAP + farW : 0);
    const h = GROUP_TITLE + GROUP_PAD * 2 + rows * PITCH - (PITCH - BOX_H);
    const label =
      machines.size === 1 && m === ''
        ? s.workerNode
        : m === 'control-plane'
          ? `Node control-plane`
          : fill(s.workerNodeNamed, { node: m });
    groups.push({ label, box: { x: rightX, y: gy, w, h } });
    rightEdge = Math.max(rightEdge, rightX + w);
    gy += h + 20;
  }
  const rightBottom = gy - 20 - GROUP_PAD;
  const apiTop = top;
  const apiBottom = Math.max(leftBottom, rightBottom, top + BOX_H);
  if (api) boxes.set(api.id, { x: apiX, y: apiTop, w: apiW, h: apiBottom - apiTop });
  let bottom = apiBottom;
  if (etcd) {
    const w = Math.max(wOf(etcd), 120);
    boxes.set(etcd.id, { x: apiX + apiW / 2 - w / 2, y: apiBottom + 70, w, h: BOX_H });
    bottom = apiBottom + 70 + BOX_H;
  }
  clients.forEach((c, i) => {
    const w = wOf(c);
    boxes.set(c.id, { x: apiX + apiW / 2 - w / 2 + i * (w + 30), y: MARGIN, w, h: BOX_H });
  });
  // Any component the layout did not place (a client-side tool, an unknown group) goes below.
  for (const n of g.nodes)
    if (!boxes.has(n.id)) {
      boxes.set(n.id, { x: MARGIN, y: bottom + 30, w: wOf(n), h: BOX_H });
      bottom += 30 + BOX_H;
    }

  // Control-plane group outline around the left column, kube-apiserver and etcd.
  const cpBox: Box = {
    x: MARGIN - GROUP_PAD + 4,
    y: top - GROUP_TITLE - GROUP_PAD + 10,
    w: apiX + apiW + GROUP_PAD - (MARGIN - GROUP_PAD + 4),
    h: bottom + GROUP_PAD - (top - GROUP_TITLE - GROUP_PAD + 10),
  };

  return {
    boxes,
    groups,
    cpBox,
    legendY: Math.max(bottom + GROUP_PAD, gy),
    rightEdge,
    place: new Map(),
  };
}

/**
 * narrowLayout: the control plane on top (its components, then etcd, in the left column), the
 * Worker node below it with the agents that talk to kube-apiserver side by side under it and the
 * others in a row below them. Undefined when the graph has not exactly one machine group.
 */
function narrowLayout(g: ComponentGraph, p: Parts, labels: string[]): Layout | undefined {
  const { api, etcd, clients, control, machines, talksToApi, wOf, s } = p;
  if (!api || machines.size !== 1) return undefined;
  const [m, list] = [...machines][0]!;
  const left = etcd ? [...control, etcd] : control;
  const inLeft = new Set(left.map((n) => n.id));
  // The columns move apart for the widest label of an edge between them.
  const gap = Math.max(
    GAP,
    ...g.edges.flatMap((e, i) =>
      inLeft.has(e.from) || inLeft.has(e.to) ? [textWidth(labels[i]!, FONT) + 16] : [],
    ),
  );
  const boxes = new Map<string, Box>();
  const leftW = Math.max(0, ...left.map(wOf));
  const top = MARGIN + (clients.length ? BOX_H + 80 : 0);
  left.forEach((n, i) => boxes.set(n.id, { x: MARGIN, y: top + i * PITCH, w: leftW, h: BOX_H }));
  const leftBottom = top + Math.max(left.length, 1) * PITCH - (PITCH - BOX_H);
  // The agent with the most arrows to kube-apiserver goes right, so its labels (left of its
  // arrows) sit between it and its neighbour, and the others' labels in the free space on the left.
  const apiEdges = (a: GraphNode) =>
    g.edges.filter(
      (e) => (e.from === a.id && e.to === api.id) || (e.to === a.id && e.from === api.id),
    ).length;
  const near = list
    .filter((a) => talksToApi.has(a.id))
    .map((a, i) => ({ a, i }))
    .sort((x, y) => apiEdges(x.a) - apiEdges(y.a) || x.i - y.i)
    .map((x) => x.a);
  const far = list.filter((a) => !talksToApi.has(a.id));
  const nearW = (a: GraphNode) => Math.max(textWidth(a.label, FONT) + 24, AGENT_W);
  const span = near.reduce((x, a) => x + nearW(a), 0) + Math.max(near.length - 1, 0) * AGENT_GAP;
  const apiX = MARGIN + (left.length ? leftW + gap : 0);
  const apiW = Math.max(textWidth(api.label, FONT) + 28, 140, span);
  boxes.set(api.id, { x: apiX, y: top, w: apiW, h: Math.max(leftBottom, top + BOX_H) - top });
  clients.forEach((c, i) => {
    const w = wOf(c);
    boxes.set(c.id, { x: apiX + apiW / 2 - w / 2 + i * (w + 30), y: MARGIN, w, h: BOX_H });
  });
  const cpBox: Box = {
    x: MARGIN - GROUP_PAD + 4,
    y: top - GROUP_TITLE - GROUP_PAD + 10,
    w: apiX + apiW + GROUP_PAD - (MARGIN - GROUP_PAD + 4),
    h: leftBottom + GROUP_PAD - (top - GROUP_TITLE - GROUP_PAD + 10),
  };
  // The Worker node box, as wide as the control plane's.
  const gy = cpBox.y + cpBox.h + BELOW;
  const rowY = gy + GROUP_TITLE + 6;
  let x = apiX + (apiW - span) / 2;
  for (const a of near) {
    boxes.set(a.id, { x, y: rowY, w: nearW(a), h: BOX_H });
    x += nearW(a) + AGENT_GAP;
  }
  // The other agents in a row below, from right to left starting under kube-apiserver's right
  // edge (under the rightmost agent, which calls the first of them).
  const farY = rowY + (near.length ? BOX_H + 56 : 0);
  let fx = apiX + apiW;
  for (const a of far) {
    fx -= wOf(a);
    boxes.set(a.id, { x: Math.max(fx, MARGIN), y: farY, w: wOf(a), h: BOX_H });
    fx -= FAR_GAP;
  }
  let bottom = far.length ? farY + BOX_H : rowY + BOX_H;
  const groupBox: Box = {
    x: cpBox.x,
    y: gy,
    w: cpBox.w,
    h: bottom + GROUP_PAD - gy,
  };
  const label =
    m === ''
      ? s.workerNode
      : m === 'control-plane'
        ? `Node control-plane`
        : fill(s.workerNodeNamed, { node: m });
  bottom = groupBox.y + groupBox.h - GROUP_PAD;
  for (const n of g.nodes)
    if (!boxes.has(n.id)) {
      boxes.set(n.id, { x: MARGIN, y: bottom + 30, w: wOf(n), h: BOX_H });
      bottom += 30 + BOX_H;
    }
  // Labels of the vertical arrows between kube-apiserver and an agent sit left of the agent's
  // arrows, one above the other when there are two.
  const place = new Map<number, { x: number; dy: number }>();
  const nearIds = new Set(near.map((a) => a.id));
  const seen = new Map<string, number>();
  g.edges.forEach((e, i) => {
    const agent =
      nearIds.has(e.from) && e.to === api.id
        ? e.from
        : nearIds.has(e.to) && e.from === api.id
          ? e.to
          : '';
    if (!agent) return;
    const b = boxes.get(agent)!;
    const both = g.edges.filter(
      (o) => (o.from === agent && o.to === api.id) || (o.to === agent && o.from === api.id),
    ).length;
    const k = seen.get(agent) ?? 0;
    seen.set(agent, k + 1);
    place.set(i, { x: b.x + b.w / 2 - 14, dy: both > 1 ? (k === 0 ? -8 : 8) : 0 });
  });
  const rightEdge = Math.max(
    groupBox.x + groupBox.w,
    cpBox.x + cpBox.w,
    ...[...boxes.values()].map((b) => b.x + b.w),
  );
  return {
    boxes,
    groups: [{ label, box: groupBox }],
    cpBox,
    legendY: bottom + GROUP_PAD,
    rightEdge,
    place,
  };
}

/**
 * drawEdge joins two boxes: horizontally when they share rows, vertically when they share
 * columns, otherwise with an elbow, labelled edgeText. k (0 or 1) shifts the second edge of a pair aside.
 */
function drawEdge(
  e: GraphEdge,
  edgeText: string,
  a: Box,
  b: Box,
  k: number,
  id: string,
  place?: { x: number; dy: number },
): string {
  const cls = `kal-fig__edge kal-fig__edge--${e.kind}`;
  const head = markerRef(id, e.kind === 'watches' ? 'open' : 'solid');
  const off = k === 0 ? -6 : 6;
  const overlapY = Math.max(a.y, b.y) < Math.min(a.y + a.h, b.y + b.h);
  const overlapX = Math.max(a.x, b.x) < Math.min(a.x + a.w, b.x + b.w);
  let path: string;
  let label: string;
  if (overlapY) {
    // Use the smaller box's middle row, so arrows meet the tall kube-apiserver box head-on.
    const y = (a.h <= b.h ? cy(a) : cy(b)) + off;
    const [x1, x2] = a.x < b.x ? [a.x + a.w, b.x] : [a.x, b.x + b.w];
    path = line(x1, y, x2 + (x2 > x1 ? -1 : 1), y, cls, head);
    label = text((x1 + x2) / 2, k === 0 ? y - 6 : y + 15, edgeText, {
      anchor: 'middle',
      cls: 'kal-fig__edge-label',
    });
  } else if (overlapX) {
    const x = (a.w <= b.w ? cx(a) : cx(b)) + off;
    const [y1, y2] = a.y < b.y ? [a.y + a.h, b.y] : [a.y, b.y + b.h];
    path = line(x, y1, x, y2 + (y2 > y1 ? -1 : 1), cls, head);
    label = place
      ? text(place.x, (y1 + y2) / 2 + 4 + place.dy, edgeText, {
          anchor: 'end',
          cls: 'kal-fig__edge-label',
        })
      : text(k === 0 ? x - 8 : x + 8, (y1 + y2) / 2 + 4, edgeText, {
          anchor: k === 0 ? 'end' : 'start',
          cls: 'kal-fig__edge-label',
        });
  } else {
    const x1 = a.x < b.x ? a.x + a.w : a.x;
    const y1 = cy(a) + off;
    const x2 = cx(b) + off;
    const y2 = a.y < b.y ? b.y : b.y + b.h;
    path = polyline(
      [
        [x1, y1],
        [x2, y1],
        [x2, y2 + (y2 > y1 ? -1 : 1)],
      ],
      cls,
      head,
    );
    label = text((x1 + x2) / 2, y1 - 6, edgeText, { anchor: 'middle', cls: 'kal-fig__edge-label' });
  }
  return `<g class="kal-fig__link kal-fig__link--${e.kind}" data-from="${esc(e.from)}" data-to="${esc(e.to)}">${path}${label}</g>`;
}

// classSvg draws a resource diagram model (sim/projections/resource-diagram.ts) as static SVG: one
// box per kind with its name, object count and fields, laid out in layers that follow the
// references (Deployment → ReplicaSet → Pod → Node, Service → EndpointSlice → Pod, Lease → Node),
// with elbow arrows, the reference's name and a multiplicity label at each end.
import type { ResourceDiagram, ResourceClass } from '../../../sim/index.ts';
import { type FigureLang } from './strings.ts';
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
} from './svg.ts';

export interface ClassSvgOptions {
  id: string;
  lang?: FigureLang;
  title?: string;
  description?: string;
  descLang?: string;
}

/** LAYOUT places each known kind in a layer (column) and a row within it. */
const LAYOUT: Record<string, [number, number]> = {
  Deployment: [0, 0],
  Service: [0, 1],
  ReplicaSet: [1, 0],
  EndpointSlice: [1, 1],
  Pod: [2, 0],
  Lease: [2, 1],
  Node: [3, 0],
};

const FONT = 12;
const LINE = 17;
const HEAD = 30;
const PAD = 10;
const GAP = 200;
const VGAP = 44;
const MARGIN = 16;
const WRAP = 34;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  lines: string[];
}

/** fieldLines writes one field per line, or its values one per line when they do not fit. */
export function fieldLines(c: ResourceClass): string[] {
  const out: string[] = [];
  for (const f of c.fields) {
    const more = f.more ? `+${f.more} more` : '';
    const values = [...f.values, ...(more ? [more] : [])];
    const all = `${f.name}: ${values.join(', ')}`;
    if (all.length <= WRAP) {
      out.push(all);
      continue;
    }
    // One value per line; a value too long by itself breaks at its spaces.
    values.forEach((v, i) => {
      const tail = i < values.length - 1 ? ',' : '';
      const words = `${i === 0 ? `${f.name}: ` : ''}${v}${tail}`.split(' ');
      let cur = i === 0 ? '' : '\u2003';
      for (const w of words) {
        if (cur.trim() && (cur + w).length > WRAP) {
          out.push(cur.trimEnd());
          cur = '\u2003';
        }
        cur += `${w} `;
      }
      out.push(cur.trimEnd());
    });
  }
  return out;
}

/** classSvg renders the diagram; each relation becomes exactly one arrow. */
export function classSvg(d: ResourceDiagram, opts: ClassSvgOptions): string {
  const boxes = new Map<string, Box>();
  const known = d.classes.filter((c) => LAYOUT[c.name]);
  const unknown = d.classes.filter((c) => !LAYOUT[c.name]);
  const sized = (c: ResourceClass): Omit<Box, 'x' | 'y'> => {
    const lines = fieldLines(c);
    const head = `${c.name} (${c.count})`;
    const w = Math.max(
      textWidth(head, FONT + 1) + 2 * PAD,
      ...lines.map((l) => monoWidth(l, 12) + 2 * PAD),
      150,
    );
    return { w, h: HEAD + lines.length * LINE + PAD, lines };
  };
  // Column widths and row heights from the boxes they hold.
  const colW = [0, 0, 0, 0];
  const cols: ResourceClass[][] = [[], [], [], []];
  for (const c of known) {
    const [col] = LAYOUT[c.name]!;
    cols[col]!.push(c);
    colW[col] = Math.max(colW[col]!, sized(c).w);
  }
  const colX: number[] = [];
  let x = MARGIN;
  for (let i = 0; i < 4; i++) {
    colX.push(x);
    if (colW[i]) x += colW[i]! + GAP;
  }
  let maxBottom = MARGIN;
  for (let i = 0; i < 4; i++) {
    const list = cols[i]!.sort((a, b) => LAYOUT[a.name]![1] - LAYOUT[b.name]![1]);
    let y = MARGIN;
    for (const c of list) {
      const sz = sized(c);
      boxes.set(c.name, { x: colX[i]!, y, ...sz });
      y += sz.h + VGAP;
    }
    maxBottom = Math.max(maxBottom, y - VGAP);
  }
  // The last layer (Node) sits level with the Pods it is referenced from.
  const node = boxes.get('Node');
  const pod = boxes.get('Pod');
  if (node && pod && cols[3]!.length === 1)
    node.y = Math.max(MARGIN, pod.y + pod.h / 2 - node.h / 2);
  let y = maxBottom + VGAP;
  for (const c of unknown) {
    const sz = sized(c);
    boxes.set(c.name, { x: MARGIN, y, ...sz });
    y += sz.h + VGAP;
  }
  const bottom = Math.max(maxBottom, y - VGAP, ...[...boxes.values()].map((b) => b.y + b.h));
  const right = Math.max(...[...boxes.values()].map((b) => b.x + b.w), 300);

  // Attachment points: spread each box's outgoing arrows down its right side and incoming arrows
  // down its left side, in relation order, so no two arrows share an end.
  const outs = new Map<string, number>();
  const ins = new Map<string, number>();
  const outTotal = new Map<string, number>();
  const inTotal = new Map<string, number>();
  for (const r of d.relations) {
    outTotal.set(r.from, (outTotal.get(r.from) ?? 0) + 1);
    inTotal.set(r.to, (inTotal.get(r.to) ?? 0) + 1);
  }
  const at = (b: Box, i: number, n: number) =>
    b.y + HEAD / 2 + ((b.h - HEAD / 2) * (i + 1)) / (n + 1) - 6;
  const channels = new Map<number, number>();
  const rel = d.relations.map((r) => {
    const a = boxes.get(r.from);
    const b = boxes.get(r.to);
    if (!a || !b) return '';
    const i = outs.get(r.from) ?? 0;
    outs.set(r.from, i + 1);
    const j = ins.get(r.to) ?? 0;
    ins.set(r.to, j + 1);
    const sx = a.x + a.w;
    const sy = at(a, i, outTotal.get(r.from)!);
    const tx = b.x;
    const ty = at(b, j, inTotal.get(r.to)!);
    let path: [number, number][];
    if (tx > sx) {
      const k = channels.get(tx) ?? 0;
      channels.set(tx, k + 1);
      const cxh = tx - 34 - k * 14;
      path =
        Math.abs(sy - ty) < 1
          ? [
              [sx, sy],
              [tx - 1, ty],
            ]
          : [
              [sx, sy],
              [cxh, sy],
              [cxh, ty],
              [tx - 1, ty],
            ];
    } else {
      // A reference back to an earlier layer: go round below.
      const yb = bottom + 20;
      path = [
        [a.x + a.w / 2, a.y + a.h],
        [a.x + a.w / 2, yb],
        [b.x + b.w / 2, yb],
        [b.x + b.w / 2, b.y + b.h + 1],
      ];
    }
    return (
      `<g class="kal-fig__relation" data-from="${esc(r.from)}" data-to="${esc(r.to)}">` +
      polyline(path, 'kal-fig__edge kal-fig__edge--relation', markerRef(opts.id, 'solid')) +
      text(path[0]![0] + 6, path[0]![1] - 6, r.label, { cls: 'kal-fig__edge-label' }) +
      text(path[0]![0] + 6, path[0]![1] + 15, r.fromMultiplicity, { cls: 'kal-fig__mult' }) +
      text(path[path.length - 1]![0] - 10, path[path.length - 1]![1] - 6, r.toMultiplicity, {
        cls: 'kal-fig__mult',
        anchor: 'end',
      }) +
      `</g>`
    );
  });

  const cls = d.classes.map((c) => {
    const b = boxes.get(c.name)!;
    return (
      `<g class="kal-fig__class" data-kind="${esc(c.name)}">` +
      rect(b.x, b.y, b.w, b.h, 'kal-fig__box', 3) +
      `<line x1="${num(b.x)}" y1="${num(b.y + HEAD)}" x2="${num(b.x + b.w)}" y2="${num(b.y + HEAD)}" class="kal-fig__divider"/>` +
      text(b.x + b.w / 2, b.y + 20, `${c.name} (${c.count})`, {
        anchor: 'middle',
        cls: 'kal-fig__class-name',
      }) +
      b.lines
        .map((l, i) => text(b.x + PAD, b.y + HEAD + 16 + i * LINE, l, { cls: 'kal-fig__field' }))
        .join('') +
      `</g>`
    );
  });

  const hasBack = d.relations.some((r) => {
    const a = boxes.get(r.from);
    const b = boxes.get(r.to);
    return a && b && b.x <= a.x + a.w;
  });
  return svgFrame(
    {
      id: opts.id,
      kind: 'class',
      width: right + MARGIN,
      height: bottom + MARGIN + (hasBack ? 30 : 0),
      title: opts.title ?? d.title,
      description: opts.description ?? d.description,
      ...(opts.descLang ? { descLang: opts.descLang } : {}),
    },
    rel.join('') + cls.join(''),
  );
}

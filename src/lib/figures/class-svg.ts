// classSvg draws a resource diagram model (sim/projections/resource-diagram.ts) as static SVG: one
// box per kind with its name, object count and fields, laid out in layers from top to bottom that
// follow the references (Deployment → ReplicaSet → Pod → Node, Service → EndpointSlice → Pod,
// Lease → Node), two kinds side by side in a layer, so the figure fits the lesson column (632 px)
// at its own size. Each reference is an arrow down from its source's bottom to its target's top,
// straight where the two line up and with one elbow in the gap between the layers otherwise,
// labelled with the reference's name and a multiplicity at each end.
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

/** LAYOUT places each known kind in a layer (a row of the figure, top to bottom) and a column within it. */
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
/** HGAP is the space between the two columns, VGAP between layers (where the arrows run). */
const HGAP = 56;
const VGAP = 66;
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
  // Layers (rows) of the kinds present; a kind alone in its layer does not widen its column.
  const layers = new Map<number, ResourceClass[]>();
  for (const c of known) {
    const [layer] = LAYOUT[c.name]!;
    if (!layers.has(layer)) layers.set(layer, []);
    layers.get(layer)!.push(c);
  }
  const colW = [0, 0];
  for (const list of layers.values())
    if (list.length > 1)
      for (const c of list) {
        const col = LAYOUT[c.name]![1];
        colW[col] = Math.max(colW[col]!, sized(c).w);
      }
  const colX = [MARGIN, MARGIN + (colW[0] || 150) + HGAP];
  let y = MARGIN;
  for (const layer of [...layers.keys()].sort((a, b) => a - b)) {
    const list = layers.get(layer)!;
    let h = 0;
    for (const c of list) {
      const sz = sized(c);
      const col = list.length > 1 ? LAYOUT[c.name]![1] : 0;
      // Centred in its column, so references between layers run straight down.
      const x = colW[col]! > sz.w ? colX[col]! + (colW[col]! - sz.w) / 2 : colX[col]!;
      boxes.set(c.name, { x, y, ...sz });
      h = Math.max(h, sz.h);
    }
    y += h + VGAP;
  }
  for (const c of unknown) {
    const sz = sized(c);
    boxes.set(c.name, { x: MARGIN, y, ...sz });
    y += sz.h + VGAP;
  }
  let right = Math.max(...[...boxes.values()].map((b) => b.x + b.w), 300);
  const bottom = Math.max(MARGIN, ...[...boxes.values()].map((b) => b.y + b.h));

  // Ends: a reference leaves its source's bottom and enters its target's top, straight down where
  // the source's middle is over the target; otherwise at the target's edge nearest the source,
  // several of them 14 units apart, so no two arrows share an end.
  const mid = (b: Box) => b.x + b.w / 2;
  const outs = new Map<string, number>();
  const ins = new Map<string, { left: number; right: number; straight: number[] }>();
  const backs: number[] = [];
  const rel = d.relations.map((r) => {
    const a = boxes.get(r.from);
    const b = boxes.get(r.to);
    if (!a || !b) return '';
    let path: [number, number][];
    let labelAt: [number, number];
    if (b.y > a.y + a.h) {
      const k = outs.get(r.from) ?? 0;
      outs.set(r.from, k + 1);
      const sx = mid(a) + k * 14;
      const sy = a.y + a.h;
      const seen = ins.get(r.to) ?? { left: 0, right: 0, straight: [] };
      ins.set(r.to, seen);
      let tx: number;
      if (
        sx > b.x + 12 &&
        sx < b.x + b.w - 12 &&
        seen.straight.every((x) => Math.abs(x - sx) > 20)
      ) {
        tx = sx;
        seen.straight.push(sx);
      } else if (sx >= b.x + b.w - 12) tx = b.x + b.w - 18 - 14 * seen.right++;
      else tx = b.x + 18 + 14 * seen.left++;
      const ty = b.y;
      const elbow = ty - VGAP / 2 + 6 * (seen.left + seen.right - 1);
      path =
        Math.abs(sx - tx) < 1
          ? [
              [sx, sy],
              [tx, ty - 1],
            ]
          : [
              [sx, sy],
              [sx, elbow],
              [tx, elbow],
              [tx, ty - 1],
            ];
      labelAt = [sx, sy];
    } else {
      // A reference within a layer or back up to an earlier one: round the right-hand side.
      const k = backs.length;
      backs.push(k);
      const cxr = right + 20 + k * 14;
      const sy = a.y + a.h / 2;
      const ty = b.y + b.h / 2 + (a === b ? 20 : 0);
      path = [
        [a.x + a.w, sy],
        [cxr, sy],
        [cxr, ty],
        [b.x + b.w + 1, ty],
      ];
      labelAt = [a.x + a.w, sy];
    }
    const [lx, ly] = labelAt;
    const down = path[1]![0] === lx;
    // The name beside the first segment, on the side with room; the source's multiplicity on
    // the other side, the target's beside the arrowhead.
    const nameW = textWidth(r.label, FONT);
    const nameLeft = down && lx + 6 + nameW > Math.max(right, 300);
    const name = down
      ? text(nameLeft ? lx - 6 : lx + 6, ly + 15, r.label, {
          cls: 'kal-fig__edge-label',
          ...(nameLeft ? { anchor: 'end' as const } : {}),
        })
      : text(lx + 6, ly - 6, r.label, { cls: 'kal-fig__edge-label' });
    const from = down
      ? text(nameLeft ? lx + 6 : lx - 6, ly + 15, r.fromMultiplicity, {
          cls: 'kal-fig__mult',
          ...(nameLeft ? {} : { anchor: 'end' as const }),
        })
      : text(lx + 6, ly + 15, r.fromMultiplicity, { cls: 'kal-fig__mult' });
    const [ex, ey] = path[path.length - 1]!;
    const to = down
      ? text(ex + 6, ey - 5, r.toMultiplicity, { cls: 'kal-fig__mult' })
      : text(ex + 10, ey - 6, r.toMultiplicity, { cls: 'kal-fig__mult' });
    if (!nameLeft && down) right = Math.max(right, lx + 6 + nameW);
    return (
      `<g class="kal-fig__relation" data-from="${esc(r.from)}" data-to="${esc(r.to)}">` +
      polyline(path, 'kal-fig__edge kal-fig__edge--relation', markerRef(opts.id, 'solid')) +
      name +
      from +
      to +
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

  return svgFrame(
    {
      id: opts.id,
      kind: 'class',
      width: right + MARGIN + (backs.length ? 20 + backs.length * 14 : 0),
      height: bottom + MARGIN,
      title: opts.title ?? d.title,
      description: opts.description ?? d.description,
      ...(opts.descLang ? { descLang: opts.descLang } : {}),
    },
    rel.join('') + cls.join(''),
  );
}

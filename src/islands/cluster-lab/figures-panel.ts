// "Figures of my run": the learner's own run as a sequence diagram (SVG, its steps as a list,
// its Mermaid source) and a component table, for a window around a chosen moment, with the
// heartbeats left out unless asked for. Everything scrolls inside the card.

import { breakable, code } from './dom.ts';
import { $, type Lab, type Panel } from './lab.ts';
import type { FiguresResult, ViewState } from './protocol.ts';
import { fill, formatClock } from './strings.ts';

export function figuresPanel(lab: Lab): Panel {
  const { root, t, lang } = lab;
  const form = $<HTMLFormElement>(root, 'figures-form');
  const around = $<HTMLSelectElement>(root, 'figures-around');
  const span = $<HTMLSelectElement>(root, 'figures-span');
  const beats = $<HTMLInputElement>(root, 'figures-heartbeats');
  const out = $<HTMLElement>(root, 'figures-out');

  /** drawMoments offers the current time and each action the learner took. */
  function drawMoments(s: ViewState): void {
    const want = [
      { value: 'now', label: fill(t.figuresNow, { time: formatClock(s.time) }) },
      ...s.actions.map((a, i) => ({
        value: String(i),
        label: `${formatClock(a.at)} ${
          'fault' in a
            ? `${t.faultNames[a.fault] ?? a.fault} ${a.node ?? ''}`
            : 'exec' in a
              ? `ssh ${a.node} ${a.exec}`
              : `kubectl ${a.kubectl}`
        }`,
      })),
    ];
    // A long command would make the list wider than a phone: its label is cut with an ellipsis.
    for (const w of want) if (w.label.length > 44) w.label = `${w.label.slice(0, 43)}…`;
    const sig = want.map((w) => `${w.value}=${w.label}`).join('|');
    if (around.dataset.sig === sig) return;
    around.dataset.sig = sig;
    const current = around.value;
    around.replaceChildren(
      ...want.map((w) => {
        const o = document.createElement('option');
        o.value = w.value;
        o.textContent = w.label;
        return o;
      }),
    );
    around.value = want.some((w) => w.value === current) ? current : 'now';
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const view = lab.view;
    if (!view) return;
    const a = around.value === 'now' ? undefined : view.actions[Number(around.value)];
    const res = await lab.act({
      type: 'figures',
      lang,
      window: { around: a?.at ?? view.time, span: Number(span.value), heartbeats: beats.checked },
    });
    if (res.ok && res.figures) render(res.figures);
  });

  function render(f: FiguresResult): void {
    const h1 = document.createElement('h4');
    h1.textContent = fill(t.figuresSequence, {
      n: f.steps.filter((s) => s.kind !== 'note').length,
      from: formatClock(f.from * 1000),
      to: formatClock(f.to * 1000),
    });
    const note = document.createElement('p');
    note.className = 'lab-hint';
    note.textContent = f.left > 0 ? fill(t.figuresLeftOut, { n: f.left }) : '';
    // The SVG is built by our own renderer, which escapes every string it draws; it is parsed
    // as an SVG document and adopted, never assembled from learner input. Its frame scrolls.
    const figure = document.createElement('div');
    figure.className = 'lab-figure';
    figure.tabIndex = 0;
    figure.setAttribute('role', 'group');
    figure.setAttribute('aria-label', t.figuresScroll);
    const svgDoc = new DOMParser().parseFromString(f.svg, 'image/svg+xml');
    if (svgDoc.documentElement.nodeName === 'svg') {
      const svg = document.importNode(svgDoc.documentElement, true) as unknown as SVGSVGElement;
      // Shown at its own size (12 px text), never shrunk to the card: the frame scrolls instead.
      const w = svg.viewBox.baseVal.width;
      if (w > 0) {
        svg.setAttribute('width', String(w));
        svg.style.width = `${w}px`;
        svg.style.minWidth = '';
        svg.style.maxWidth = 'none';
      }
      figure.append(svg);
    }
    const stepsBox = document.createElement('details');
    const stepsSummary = document.createElement('summary');
    stepsSummary.textContent = t.figuresSteps;
    const ol = document.createElement('ol');
    ol.className = 'lab-steps';
    for (const s of f.steps) {
      const li = document.createElement('li');
      li.append(
        `${s.t.toFixed(3)} s `,
        breakable(s.from),
        ` ${s.dotted ? '⇢' : '→'} `,
        breakable(s.to),
        ': ',
        code(s.text),
      );
      ol.append(li);
    }
    stepsBox.append(stepsSummary, ol);
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = t.figuresMermaid;
    const pre = document.createElement('pre');
    pre.tabIndex = 0;
    pre.textContent = f.mermaid;
    details.append(summary, pre);
    const h2 = document.createElement('h4');
    h2.textContent = t.figuresTable;
    const wrap = document.createElement('div');
    wrap.className = 'lab-table-wrap';
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'group');
    wrap.setAttribute('aria-label', t.figuresTable);
    const table = document.createElement('table');
    const thead = table.createTHead().insertRow();
    for (const x of f.headers) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = x;
      thead.append(th);
    }
    const body = table.createTBody();
    for (const r of f.rows) {
      const tr = body.insertRow();
      for (const cell of [
        r.component,
        r.where,
        r.watches.join(', '),
        r.decides,
        r.writes.join(', '),
      ])
        tr.insertCell().append(breakable(cell));
    }
    wrap.append(table);
    out.replaceChildren(h1, note, figure, stepsBox, details, h2, wrap);
  }

  return { onState: (s) => drawMoments(s) };
}

// The "Why?" panel: draws sim/projections/why.ts's chain as nested lists, in the page's language.

import type { ViewState, WhyLink, WhyWrite } from './protocol.ts';
import { breakable, code, prose } from './dom.ts';
import { $, type Lab, type Panel } from './lab.ts';
import { fill, type LabStrings } from './strings.ts';

/** linkNodes words one link of a chain: trace entries as code, the rest as a sentence. */
function linkNodes(t: LabStrings, l: WhyLink): Node[] {
  const p = l.params ?? {};
  switch (l.kind) {
    case 'lease':
      return [prose(p.last === '' ? t.whyLeaseNever : t.whyLease, p)];
    case 'fault':
      return [
        prose(t.whyFault, {
          ...p,
          fault: t.faultNames[String(p.fault)] ?? String(p.fault),
          by: t.whyFaultBy[String(p.by ?? 'scenario')] ?? String(p.by),
        }),
      ];
    case 'toleration':
      return [prose(p.byDefault ? t.whyTolerationDefault : t.whyToleration, p)];
    case 'taint':
      return [prose(t.whyTaint, p)];
    default:
      return [code(l.text)];
  }
}

/** renderWhy replaces out's content with the chain for the object called name. */
export function renderWhy(out: HTMLElement, t: LabStrings, name: string, writes: WhyWrite[]): void {
  const h = document.createElement('h4');
  h.append(breakable(fill(t.whyHeading, { name })));
  if (writes.length === 0) {
    const p = document.createElement('p');
    p.textContent = fill(t.whyNone, { name });
    out.replaceChildren(h, p);
    return;
  }
  const ol = document.createElement('ol');
  ol.className = 'lab-why-list';
  for (const w of writes) {
    const li = document.createElement('li');
    const head = document.createElement('span');
    head.append(
      `${w.t.toFixed(3)} s — `,
      breakable(fill(t.whyWrote, { component: w.component, write: w.write })),
    );
    if (w.fields.length)
      head.append(' (', breakable(fill(t.whyFields, { fields: w.fields.join(', ') })), ')');
    li.append(head);
    if (w.result) {
      const r = document.createElement('p');
      r.className = 'lab-why-result';
      r.append(prose(t.whyResult, { result: w.result }));
      li.append(r);
    }
    if (w.because.length > 0) {
      const sub = document.createElement('ol');
      for (const c of w.because) {
        const item = document.createElement('li');
        item.dataset.kind = c.kind;
        item.append(
          `← ${t.whyBecause}: ${c.t.toFixed(3)} s `,
          breakable(c.component),
          ': ',
          ...linkNodes(t, c),
        );
        sub.append(item);
      }
      li.append(sub);
    }
    ol.append(li);
  }
  out.replaceChildren(h, ol);
}

/** whyPanel wires the target list, the Why? button and every chip that carries data-why. */
export function whyPanel(lab: Lab): Panel {
  const { root, t } = lab;
  const target = $<HTMLSelectElement>(root, 'why-target');
  const button = $<HTMLButtonElement>(root, 'why');
  const out = $<HTMLElement>(root, 'why-out');
  /** open is the object the panel explains ("node:node-1"), carried by the URL hash. */
  let open = '';

  async function explain(v = target.value): Promise<void> {
    if (!v) return;
    const [kind, name] = v.split(':') as ['pod' | 'node', string];
    const res = await lab.act({ type: 'why', kind, name });
    if (!res.ok || !res.why) return;
    open = v;
    renderWhy(out, t, name, res.why);
    for (const b of root.querySelectorAll<HTMLElement>('[data-why]'))
      b.setAttribute('aria-pressed', String(b.dataset.why === v));
    lab.setHash();
  }

  function drawOptions(s: ViewState): void {
    const want = [
      ...s.nodes.map((n) => ({ group: t.whyNodes, value: `node:${n.name}`, label: n.name })),
      ...s.pods
        .filter((p) => p.namespace !== 'kube-system')
        .map((p) => ({ group: t.whyPods, value: `pod:${p.name}`, label: p.name })),
    ];
    const sig = want.map((w) => w.value).join('|');
    if (target.dataset.sig === sig) return;
    target.dataset.sig = sig;
    const current = target.value;
    const first = document.createElement('option');
    first.value = '';
    first.textContent = t.whyChoose;
    const groups = new Map<string, HTMLOptGroupElement>();
    for (const w of want) {
      let g = groups.get(w.group);
      if (!g) {
        g = document.createElement('optgroup');
        g.label = w.group;
        groups.set(w.group, g);
      }
      const o = document.createElement('option');
      o.value = w.value;
      o.textContent = w.label;
      g.append(o);
    }
    target.replaceChildren(first, ...groups.values());
    target.value = want.some((w) => w.value === current) ? current : '';
  }

  button.addEventListener('click', () => void explain());
  target.addEventListener('change', () => void explain());
  root.addEventListener('click', (ev) => {
    const chip = (ev.target as Element).closest<HTMLElement>('[data-why]');
    if (!chip || !root.contains(chip)) return;
    target.value = chip.dataset.why!;
    void explain(chip.dataset.why);
  });

  return {
    onState: (s) => drawOptions(s),
    hash: () => (open ? { why: open } : {}),
    async restore(state) {
      if (!state.why) return;
      target.value = state.why;
      // A Pod named by the link may be gone at this time; the chain still explains it.
      await explain(state.why);
    },
  };
}

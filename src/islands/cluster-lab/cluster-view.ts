// The cluster view: control plane and nodes with their Pods (d3 joins over the static HTML),
// the wires between them with a dot for each message, and what changed, said in the live region.

import { select } from 'd3-selection';
import 'd3-transition';
import { breakable } from './dom.ts';
import { $, type Lab, type Panel } from './lab.ts';
import type { NodeView, PodView, TraceLite, ViewState } from './protocol.ts';
import { fill } from './strings.ts';

/** tone maps a STATUS cell to a colour class; the text itself always says the status too. */
function tone(status: string): 'ok' | 'warn' | 'bad' {
  if (
    status === 'Running' ||
    status === 'Ready' ||
    status === 'Completed' ||
    status === 'Succeeded'
  )
    return 'ok';
  if (
    /^(Pending|ContainerCreating|PodInitializing|Terminating|Ready,SchedulingDisabled)$/.test(
      status,
    )
  )
    return 'warn';
  return 'bad';
}

/** box names the drawn box a trace participant belongs to. */
function box(component: string): string | undefined {
  const at = component.indexOf('@');
  if (at >= 0) return `node:${component.slice(at + 1)}`;
  if (component === 'kube-apiserver' || component === 'etcd' || component === 'kube-scheduler')
    return `comp:${component}`;
  if (component.endsWith('-controller') || component === 'garbage-collector')
    return 'comp:kube-controller-manager';
  if (component.startsWith('shell@')) return `node:${component.slice(6)}`;
  return undefined;
}

export function clusterViewPanel(lab: Lab): Panel {
  const { root, t } = lab;
  const el = {
    stage: $<HTMLElement>(root, 'stage'),
    wires: $<SVGSVGElement>(root, 'wires'),
    nodes: $<HTMLUListElement>(root, 'nodes'),
    services: $<HTMLElement>(root, 'services'),
    pending: $<HTMLElement>(root, 'pending'),
    whyTarget: $<HTMLSelectElement>(root, 'why-target'),
  };

  function describeChanges(prev: ViewState, next: ViewState): string {
    const out: string[] = [];
    const prevNodes = new Map(prev.nodes.map((n) => [n.name, n]));
    for (const n of next.nodes) {
      const p = prevNodes.get(n.name);
      if (p && p.status !== n.status)
        out.push(fill(t.announceNode, { node: n.name, status: n.status }));
    }
    const key = (p: PodView) => `${p.namespace}/${p.name}`;
    const before = new Map(prev.pods.map((p) => [key(p), p]));
    const after = new Map(next.pods.map((p) => [key(p), p]));
    for (const [k, p] of before)
      if (!after.has(k)) out.push(fill(t.announcePodDeleted, { pod: p.name }));
    for (const [k, p] of after) {
      const b = before.get(k);
      if (!b)
        out.push(
          p.node
            ? fill(t.announcePodCreated, { pod: p.name, node: p.node })
            : fill(t.announcePodCreatedUnscheduled, { pod: p.name }),
        );
      else if (b.status !== p.status && p.namespace !== 'kube-system')
        out.push(fill(t.announcePodStatus, { pod: p.name, status: p.status }));
    }
    if (out.length > 4)
      return `${out.slice(0, 3).join('. ')}. ${fill(t.announceMore, { n: out.length - 3 })}.`;
    return out.join('. ');
  }

  function drawNodes(s: ViewState): void {
    const podsByNode = new Map<string, PodView[]>();
    for (const p of s.pods) {
      const list = podsByNode.get(p.node);
      if (list) list.push(p);
      else podsByNode.set(p.node, [p]);
    }
    const items = select(el.nodes)
      .selectAll<HTMLLIElement, NodeView>('li.lab-node')
      // The static HTML's items have no datum yet: they are matched by their data-node.
      .data(s.nodes, function (this: HTMLLIElement | HTMLUListElement, d: NodeView) {
        return (d as NodeView | undefined)?.name ?? (this as HTMLElement).dataset.node ?? '';
      })
      .join((enter) => enter.append('li').attr('class', 'lab-node'))
      .attr('data-node', (d) => d.name)
      .attr('data-status', (d) => d.status)
      .attr('data-tone', (d) => tone(d.status));
    items.each(function (d) {
      const li = this as HTMLLIElement;

      let head = li.querySelector<HTMLElement>('.lab-node-head');
      if (!head) {
        li.replaceChildren();
        head = document.createElement('div');
        head.className = 'lab-node-head';
        li.append(head);
        const pods = document.createElement('ul');
        pods.className = 'lab-pods';
        li.append(pods);
      }
      const name = document.createElement('button');
      name.type = 'button';
      name.className = 'lab-chip lab-node-name';
      name.dataset.tone = tone(d.status);
      name.dataset.why = `node:${d.name}`;
      name.setAttribute('aria-pressed', String(el.whyTarget.value === `node:${d.name}`));
      name.replaceChildren(breakable(d.name));
      const status = document.createElement('span');
      status.className = 'lab-node-status';
      status.dataset.tone = tone(d.status);
      status.dataset.role = 'node-status';
      status.textContent = d.status;
      const extra: HTMLElement[] = [];
      const flags = [
        !d.power ? t.powerOff : '',
        d.partitioned ? t.partitioned : '',
        ...d.taints.filter((x) => !x.startsWith('node-role')),
      ].filter(Boolean);
      for (const f of flags) {
        const b = document.createElement('span');
        b.className = 'lab-badge';
        b.replaceChildren(breakable(f));
        extra.push(b);
      }
      head.replaceChildren(name, status, ...extra);
      const podList = li.querySelector<HTMLUListElement>('.lab-pods')!;
      const pods = (podsByNode.get(d.name) ?? []).filter((p) => p.namespace !== 'kube-system');
      const sys = (podsByNode.get(d.name) ?? []).length - pods.length;
      select(podList)
        .selectAll<HTMLLIElement, PodView>('li')
        .data(pods, (p) => `${p.namespace}/${p.name}`)
        .join((enter) => {
          const item = enter.append('li');
          const b = item.append('button').attr('type', 'button').attr('class', 'lab-chip');
          b.append('span').attr('class', 'lab-chip-name');
          b.append('span').attr('class', 'lab-chip-status');
          return item;
        })
        .each(function (p) {
          const b = this.querySelector('button')!;
          b.dataset.tone = tone(p.status);
          b.dataset.why = `pod:${p.name}`;
          b.dataset.pod = p.name;
          b.setAttribute('aria-pressed', String(el.whyTarget.value === `pod:${p.name}`));
          b.querySelector('.lab-chip-name')!.replaceChildren(breakable(p.name));
          b.querySelector('.lab-chip-status')!.textContent = `${p.status} ${p.ready}`;
        });
      li.title = sys > 0 ? `+${sys} kube-system` : '';
      const more = s.hiddenPods[d.name] ?? 0;
      let note = li.querySelector<HTMLElement>('.lab-more');
      if (more > 0) {
        if (!note) {
          note = document.createElement('p');
          note.className = 'lab-more';
          li.append(note);
        }
        note.textContent = fill(t.morePods, { n: more });
      } else note?.remove();
    });
    // Pods no node has taken (Pending, without spec.nodeName) are counted under the nodes.
    const waiting =
      (podsByNode.get('') ?? []).filter((p) => p.namespace !== 'kube-system').length +
      (s.hiddenPods[''] ?? 0);
    el.pending.hidden = waiting === 0;
    el.pending.textContent = waiting ? fill(t.pendingPods, { n: waiting }) : '';
    drawWires();
  }

  function drawServices(s: ViewState): void {
    const svcs = s.services.filter((x) => x.namespace !== 'kube-system' && x.name !== 'kubernetes');
    if (svcs.length === 0) {
      el.services.replaceChildren();
      return;
    }
    const h = document.createElement('h4');
    h.textContent = t.services;
    const ul = document.createElement('ul');
    for (const x of svcs) {
      const li = document.createElement('li');
      li.textContent = `${x.name} ${x.clusterIP} · ${fill(t.endpoints, { n: x.endpoints })}`;
      ul.append(li);
    }
    el.services.replaceChildren(h, ul);
  }

  /** centre returns a box's centre in the stage's coordinates. */
  function centre(key: string): [number, number] | undefined {
    const [kind, name] = key.split(':') as [string, string];
    const node =
      kind === 'comp'
        ? root.querySelector<HTMLElement>(`[data-comp="${CSS.escape(name)}"]`)
        : el.nodes.querySelector<HTMLElement>(`[data-node="${CSS.escape(name)}"]`);
    if (!node) return undefined;
    const s = el.stage.getBoundingClientRect();
    const r = node.getBoundingClientRect();
    return [r.left - s.left + r.width / 2, r.top - s.top + (kind === 'comp' ? r.height / 2 : 12)];
  }

  function drawWires(): void {
    const hub = centre('comp:kube-apiserver');
    if (!hub) return;
    const ends = [
      ...['etcd', 'kube-scheduler', 'kube-controller-manager'].map((c) => `comp:${c}`),
      ...[...el.nodes.querySelectorAll<HTMLElement>('[data-node]')].map(
        (n) => `node:${n.dataset.node}`,
      ),
    ];
    const lines = ends
      .map((k) => ({ k, p: centre(k) }))
      .filter((x): x is { k: string; p: [number, number] } => x.p !== undefined);
    select(el.wires)
      .selectAll<SVGLineElement, { k: string; p: [number, number] }>('line')
      .data(lines, (d) => d.k)
      .join('line')
      .attr('class', 'lab-wire')
      .attr('x1', hub[0])
      .attr('y1', hub[1])
      .attr('x2', (d) => d.p[0])
      .attr('y2', (d) => d.p[1]);
  }

  /** animate sends a dot along the wire for each message (a few per frame at most). */
  function animate(events: TraceLite[]): void {
    const shown = events.slice(-12);
    shown.forEach((e, i) => {
      const a = box(e.from);
      const b = box(e.to);
      if (!a || !b || a === b) return;
      const p = centre(a);
      const q = centre(b);
      if (!p || !q) return;
      select(el.wires)
        .append('circle')
        .attr('class', e.kind === 'watch' ? 'lab-dot is-watch' : 'lab-dot')
        .attr('r', 5)
        .attr('cx', p[0])
        .attr('cy', p[1])
        .transition()
        .delay(i * 40)
        .duration(450)
        .attr('cx', q[0])
        .attr('cy', q[1])
        .remove();
    });
  }

  window.addEventListener('resize', () => drawWires());

  return {
    onState(next, prev) {
      if (prev) lab.announce(describeChanges(prev, next));
      drawNodes(next);
      drawServices(next);
      if (!lab.reduceMotion && next.events.length > 0) animate(next.events);
    },
  };
}

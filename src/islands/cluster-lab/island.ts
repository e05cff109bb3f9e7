// The cluster lab island: wires the static HTML that ClusterLab.astro rendered to a simulator
// worker. It asks the worker and redraws (STYLE.md §5); it keeps no copy of what happened beyond
// the last ViewState. Learner input and command output are only ever set as text.

import { select } from 'd3-selection';
import 'd3-transition';
import { decodeHash, encodeHash, parseCommand, type LabState } from './lab-state.ts';
import type {
  CommandResult,
  FiguresResult,
  NodeView,
  PodView,
  RequestBody,
  Response,
  TraceLite,
  ViewState,
  WhyWrite,
} from './protocol.ts';
import { WorkerClient } from '../shared/worker-client.ts';
import { STRINGS, fill, formatClock, labLang, type LabStrings } from './strings.ts';

interface Config {
  slug: string;
  seed: number;
  scenarioYaml: string;
  until: number;
}


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

const $ = <T extends Element>(root: HTMLElement, role: string) =>
  root.querySelector<T>(`[data-role="${role}"]`)!;

/** mount starts the island on one rendered ClusterLab section. */
export function mount(root: HTMLElement): void {
  if (root.dataset.mounted) return;
  root.dataset.mounted = 'true';
  const lang = labLang(root.closest('[lang]')?.getAttribute('lang'));
  const t: LabStrings = STRINGS[lang];
  let config: Config;
  try {
    config = JSON.parse(root.dataset.config ?? '') as Config;
  } catch {
    return;
  }
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const el = {
    state: $<HTMLElement>(root, 'state'),
    notice: $<HTMLElement>(root, 'notice'),
    live: $<HTMLElement>(root, 'live'),
    play: $<HTMLButtonElement>(root, 'play'),
    step: $<HTMLButtonElement>(root, 'step'),
    speed: $<HTMLSelectElement>(root, 'speed'),
    scrub: $<HTMLInputElement>(root, 'scrub'),
    time: $<HTMLOutputElement>(root, 'time'),
    faultNode: $<HTMLSelectElement>(root, 'fault-node'),
    faults: [...root.querySelectorAll<HTMLButtonElement>('[data-fault]')],
    stage: $<HTMLElement>(root, 'stage'),
    wires: $<SVGSVGElement>(root, 'wires'),
    nodes: $<HTMLUListElement>(root, 'nodes'),
    services: $<HTMLElement>(root, 'services'),
    pending: $<HTMLElement>(root, 'pending'),
    form: $<HTMLFormElement>(root, 'console-form'),
    input: $<HTMLInputElement>(root, 'console'),
    run: $<HTMLButtonElement>(root, 'run'),
    output: $<HTMLPreElement>(root, 'output'),
    whyTarget: $<HTMLSelectElement>(root, 'why-target'),
    why: $<HTMLButtonElement>(root, 'why'),
    whyOut: $<HTMLElement>(root, 'why-out'),
    figures: $<HTMLButtonElement>(root, 'figures'),
    figuresOut: $<HTMLElement>(root, 'figures-out'),
  };
  const controls = [
    el.play,
    el.step,
    el.speed,
    el.scrub,
    el.faultNode,
    ...el.faults,
    el.input,
    el.run,
    el.whyTarget,
    el.why,
    el.figures,
  ];

  el.state.textContent = t.starting;
  const client = new WorkerClient<RequestBody, Response>(
    new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }),
  );
  let view: ViewState | undefined;
  let busy = false;
  let playing = false;
  let lastFrame = 0;
  let owed = 0;
  let lastHash = 0;
  const cmdHistory: string[] = [];
  let historyAt = 0;

  const announce = (msg: string) => {
    if (msg) el.live.textContent = msg;
  };

  /** ask sends one request, applies the state it returns and reports errors in the live region. */
  async function ask(body: RequestBody): Promise<Response> {
    const res = await client.call(body);
    if (res.state) apply(res.state);
    if (!res.ok) announce(res.error);
    return res;
  }

  function setHash(): void {
    if (!view) return;
    const s: LabState = {
      scenario: config.slug,
      seed: config.seed,
      time: view.time,
      actions: view.actions,
    };
    const url = new URL(window.location.href);
    url.hash = encodeHash(s).slice(1);
    window.history.replaceState(window.history.state, '', url);
  }

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

  function apply(next: ViewState): void {
    const prev = view;
    view = next;
    if (prev) announce(describeChanges(prev, next));
    el.scrub.max = String(next.until);
    el.scrub.value = String(next.time);
    const timeText = fill(t.timeValue, {
      time: formatClock(next.time),
      until: formatClock(next.until),
    });
    el.scrub.setAttribute('aria-valuetext', timeText);
    el.time.textContent = timeText;
    root.dataset.time = String(next.time);
    drawNodes(next);
    drawServices(next);
    drawWhyOptions(next);
    if (!reduceMotion && next.events.length > 0) animate(next.events);
    if (next.time >= next.until && playing) setPlaying(false);
  }

  // ---- drawing (d3 joins over the static HTML) ----

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
      name.textContent = d.name;
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
        b.textContent = f;
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
          b.querySelector('.lab-chip-name')!.textContent = p.name;
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

  function drawWhyOptions(s: ViewState): void {
    const want = [
      ...s.nodes.map((n) => ({ group: t.whyNodes, value: `node:${n.name}`, label: n.name })),
      ...s.pods
        .filter((p) => p.namespace !== 'kube-system')
        .map((p) => ({ group: t.whyPods, value: `pod:${p.name}`, label: p.name })),
    ];
    const sig = want.map((w) => w.value).join('|');
    if (el.whyTarget.dataset.sig === sig) return;
    el.whyTarget.dataset.sig = sig;
    const current = el.whyTarget.value;
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
    el.whyTarget.replaceChildren(first, ...groups.values());
    el.whyTarget.value = want.some((w) => w.value === current) ? current : '';
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

  // ---- playback ----

  function setPlaying(on: boolean): void {
    playing = on;
    el.play.textContent = on ? t.pause : t.play;
    el.play.setAttribute('aria-pressed', String(on));
    if (on) {
      lastFrame = 0;
      owed = 0;
      requestAnimationFrame(frame);
    } else setHash();
  }

  function frame(ts: number): void {
    if (!playing || !view) return;
    const dt = lastFrame ? Math.min(ts - lastFrame, 100) : 0;
    lastFrame = ts;
    owed += dt * Number(el.speed.value);
    if (!busy && owed >= 1) {
      const to = Math.min(view.time + Math.floor(owed), view.until);
      owed -= Math.floor(owed);
      busy = true;
      void ask({ type: 'advance', toMs: to }).finally(() => {
        busy = false;
        if (ts - lastHash > 1000) {
          lastHash = ts;
          setHash();
        }
      });
    }
    requestAnimationFrame(frame);
  }

  /** act runs one request while playback is paused and the controls wait for it. */
  async function act(body: RequestBody): Promise<Response> {
    while (busy) await new Promise((r) => setTimeout(r, 10));
    busy = true;
    try {
      return await ask(body);
    } finally {
      busy = false;
    }
  }

  el.play.addEventListener('click', () => setPlaying(!playing));
  el.step.addEventListener('click', async () => {
    setPlaying(false);
    const res = await act({ type: 'step' });
    const last = res.state?.events.at(-1);
    if (last) announce(`${formatClock(res.state!.time)} ${last.from} → ${last.to}: ${last.label}`);
    setHash();
  });
  el.scrub.addEventListener('input', () => {
    el.time.textContent = fill(t.timeValue, {
      time: formatClock(Number(el.scrub.value)),
      until: formatClock(Number(el.scrub.max)),
    });
  });
  el.scrub.addEventListener('change', async () => {
    setPlaying(false);
    await act({ type: 'seek', ms: Number(el.scrub.value) });
    setHash();
  });
  for (const b of el.faults) {
    b.addEventListener('click', async () => {
      const kind = b.dataset.fault!;
      const node = el.faultNode.value;
      const res = await act({ type: 'fault', kind, node });
      if (res.ok)
        announce(
          fill(t.announceFault, {
            fault: t.faultNames[kind] ?? kind,
            node,
            time: formatClock(res.state.time),
          }),
        );
      setHash();
    });
  }

  // ---- console ----

  function print(line: string, out: CommandResult): void {
    const text = `$ ${line}\n${out.stdout}${out.stderr}`;
    el.output.textContent = `${el.output.textContent ?? ''}${el.output.textContent ? '\n' : ''}${text}`;
    el.output.scrollTop = el.output.scrollHeight;
  }

  el.form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const line = el.input.value;
    const cmd = parseCommand(line);
    if (cmd.kind === 'empty') return;
    cmdHistory.push(line.trim());
    historyAt = cmdHistory.length;
    el.input.value = '';
    if (cmd.kind === 'unknown')
      return print(line, {
        stdout: '',
        stderr: `${fill(t.unknownCommand, { program: cmd.program })}\n`,
        exitCode: 127,
      });
    if (cmd.kind === 'ssh-usage')
      return print(line, { stdout: '', stderr: `${t.sshUsage}\n`, exitCode: 255 });
    const res =
      cmd.kind === 'kubectl'
        ? await act({ type: 'kubectl', line: cmd.args })
        : await act({ type: 'exec', node: cmd.node, line: cmd.line });
    if (res.ok && res.result) print(line, res.result);
    else if (!res.ok) print(line, { stdout: '', stderr: `${res.error}\n`, exitCode: 1 });
    setHash();
  });
  el.input.addEventListener('keydown', (ev) => {
    if (ev.key !== 'ArrowUp' && ev.key !== 'ArrowDown') return;
    if (cmdHistory.length === 0) return;
    ev.preventDefault();
    historyAt = Math.max(
      0,
      Math.min(cmdHistory.length, historyAt + (ev.key === 'ArrowUp' ? -1 : 1)),
    );
    el.input.value = cmdHistory[historyAt] ?? '';
  });

  // ---- why ----

  async function explain(): Promise<void> {
    const v = el.whyTarget.value;
    if (!v) return;
    const [kind, name] = v.split(':') as ['pod' | 'node', string];
    const res = await act({ type: 'why', kind, name });
    if (!res.ok || !res.why) return;
    renderWhy(name, res.why);
    for (const b of root.querySelectorAll<HTMLElement>('[data-why]'))
      b.setAttribute('aria-pressed', String(b.dataset.why === v));
  }

  function renderWhy(name: string, writes: WhyWrite[]): void {
    const h = document.createElement('h4');
    h.textContent = fill(t.whyHeading, { name });
    if (writes.length === 0) {
      const p = document.createElement('p');
      p.textContent = fill(t.whyNone, { name });
      el.whyOut.replaceChildren(h, p);
      return;
    }
    const ol = document.createElement('ol');
    ol.className = 'lab-why-list';
    for (const w of writes) {
      const li = document.createElement('li');
      const head = document.createElement('span');
      head.textContent = `${w.t.toFixed(3)} s — ${fill(t.whyWrote, { component: w.component, write: w.write })}${w.fields.length ? ` (${fill(t.whyFields, { fields: w.fields.join(', ') })})` : ''}`;
      li.append(head);
      if (w.because.length > 0) {
        const sub = document.createElement('ol');
        for (const c of w.because) {
          const item = document.createElement('li');
          const code = document.createElement('code');
          code.textContent = c.text;
          item.append(`← ${t.whyBecause}: ${c.t.toFixed(3)} s ${c.component}: `, code);
          sub.append(item);
        }
        li.append(sub);
      }
      ol.append(li);
    }
    el.whyOut.replaceChildren(h, ol);
  }

  el.why.addEventListener('click', () => void explain());
  el.whyTarget.addEventListener('change', () => void explain());
  root.addEventListener('click', (ev) => {
    const chip = (ev.target as Element).closest<HTMLElement>('[data-why]');
    if (!chip || !root.contains(chip)) return;
    el.whyTarget.value = chip.dataset.why!;
    void explain();
  });

  // ---- figures ----

  el.figures.addEventListener('click', async () => {
    const res = await act({ type: 'figures', lang });
    if (res.ok && res.figures) renderFigures(res.figures);
  });

  function renderFigures(f: FiguresResult): void {
    const h1 = document.createElement('h4');
    h1.textContent = fill(t.figuresSequence, { n: f.steps.length });
    const ol = document.createElement('ol');
    ol.className = 'lab-steps';
    for (const s of f.steps) {
      const li = document.createElement('li');
      const code = document.createElement('code');
      code.textContent = s.text;
      li.append(`${s.t.toFixed(3)} s ${s.from} ${s.dotted ? '⇢' : '→'} ${s.to}: `, code);
      ol.append(li);
    }
    // The SVG is built by our own renderer, which escapes every string it draws; it is parsed
    // as an SVG document and adopted, never assembled from learner input.
    const figure = document.createElement('div');
    figure.className = 'lab-figure';
    const svgDoc = new DOMParser().parseFromString(f.svg, 'image/svg+xml');
    if (svgDoc.documentElement.nodeName === 'svg') figure.append(document.importNode(svgDoc.documentElement, true));
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
        tr.insertCell().textContent = cell;
    }
    wrap.append(table);
    el.figuresOut.replaceChildren(h1, figure, ol, details, h2, wrap);
  }

  // ---- start ----

  window.addEventListener('resize', () => drawWires());

  async function start(): Promise<void> {
    const decoded = decodeHash(window.location.hash, config.slug, config.until);
    // A link made for another seed of this scenario is another run: start this one afresh.
    const hash: typeof decoded =
      decoded.kind === 'ok' && decoded.state.seed !== config.seed
        ? { kind: 'invalid', reason: `seed ${decoded.state.seed}, not ${config.seed}` }
        : decoded;
    let init: { time?: number; actions?: LabState['actions'] } = {};
    if (hash.kind === 'invalid') {
      el.notice.hidden = false;
      el.notice.textContent = fill(t.badHash, { reason: hash.reason });
    } else if (hash.kind === 'ok') init = { time: hash.state.time, actions: hash.state.actions };
    let res = await client.call({
      type: 'init',
      scenarioYaml: config.scenarioYaml,
      seed: config.seed,
      ...init,
    });
    if (!res.ok && hash.kind === 'ok') {
      el.notice.hidden = false;
      el.notice.textContent = fill(t.badHash, { reason: res.error });
      res = await client.call({
        type: 'init',
        scenarioYaml: config.scenarioYaml,
        seed: config.seed,
      });
    }
    if (!res.ok) {
      el.state.textContent = fill(t.failed, { error: res.error });
      return;
    }
    apply(res.state);
    for (const c of controls) c.disabled = false;
    el.state.textContent = fill(t.ready, { seed: config.seed });
    if (hash.kind === 'ok' && init.time !== undefined)
      announce(
        fill(t.restored, { time: formatClock(res.state.time), n: res.state.actions.length }),
      );
    root.dataset.ready = 'true';
  }

  void start().catch((err: unknown) => {
    el.state.textContent = fill(t.failed, {
      error: err instanceof Error ? err.message : String(err),
    });
  });
}

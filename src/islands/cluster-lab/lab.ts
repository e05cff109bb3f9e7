// The lab's core, shared by its panels: the worker client, the last ViewState, one request at a
// time while playback waits, the live region and the URL hash. Each panel (playback.ts,
// cluster-view.ts, console-panel.ts, manifest-panel.ts, why-panel.ts, figures-panel.ts) takes a
// Lab, wires its part of the static HTML and subscribes to new states.

import { WorkerClient } from '../shared/worker-client.ts';
import { encodeHash, type LabState } from './lab-state.ts';
import type { RequestBody, Response, ViewState } from './protocol.ts';
import { STRINGS, labLang, type LabLang, type LabStrings } from './strings.ts';

/** Config is what ClusterLab.astro renders into data-config. */
export interface Config {
  slug: string;
  seed: number;
  scenarioYaml: string;
  until: number;
}

/** Panel is one part of the lab: it redraws on each state and adds to what the hash carries. */
export interface Panel {
  onState?(next: ViewState, prev: ViewState | undefined): void;
  /** hash returns this panel's part of the shared state (transcript, Why? target...). */
  hash?(): Partial<LabState>;
  /** restore puts back this panel's part of a shared state, once the run is rebuilt. */
  restore?(state: LabState, res: Extract<Response, { ok: true }>): Promise<void> | void;
}

export const $ = <T extends Element>(root: HTMLElement, role: string): T =>
  root.querySelector<T>(`[data-role="${role}"]`)!;

export class Lab {
  readonly root: HTMLElement;
  readonly lang: LabLang;
  readonly t: LabStrings;
  readonly config: Config;
  readonly reduceMotion: boolean;
  readonly client: WorkerClient<RequestBody, Response>;
  view: ViewState | undefined;
  /** busy is true while a request is in flight (playback skips frames, actions wait). */
  busy = false;
  private readonly panels: Panel[] = [];
  private readonly live: HTMLElement;

  constructor(root: HTMLElement, config: Config) {
    this.root = root;
    this.config = config;
    this.lang = labLang(root.closest('[lang]')?.getAttribute('lang'));
    this.t = STRINGS[this.lang];
    this.reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.live = $<HTMLElement>(root, 'live');
    this.client = new WorkerClient<RequestBody, Response>(
      new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }),
    );
  }

  add(p: Panel): void {
    this.panels.push(p);
  }

  get allPanels(): readonly Panel[] {
    return this.panels;
  }

  announce(msg: string): void {
    if (msg) this.live.textContent = msg;
  }

  /** apply makes next the current state and lets every panel redraw. */
  apply(next: ViewState): void {
    const prev = this.view;
    this.view = next;
    this.root.dataset.time = String(next.time);
    for (const p of this.panels) p.onState?.(next, prev);
  }

  /** ask sends one request, applies the state it returns and reports errors in the live region. */
  async ask(body: RequestBody): Promise<Response> {
    const res = await this.client.call(body);
    if (res.state) this.apply(res.state);
    if (!res.ok) this.announce(res.error);
    return res;
  }

  /** act runs one request once any request in flight is done (playback waits for it). */
  async act(body: RequestBody): Promise<Response> {
    while (this.busy) await new Promise((r) => setTimeout(r, 10));
    this.busy = true;
    try {
      return await this.ask(body);
    } finally {
      this.busy = false;
    }
  }

  /** setHash writes the run, the transcript and the Why? panel into the URL hash. */
  setHash(): void {
    if (!this.view) return;
    let s: LabState = {
      scenario: this.config.slug,
      seed: this.config.seed,
      time: this.view.time,
      actions: this.view.actions,
    };
    for (const p of this.panels) s = { ...s, ...p.hash?.() };
    const url = new URL(window.location.href);
    url.hash = encodeHash(s).slice(1);
    window.history.replaceState(window.history.state, '', url);
  }
}

// The cluster lab island: starts a Lab (lab.ts) on the static HTML that ClusterLab.astro
// rendered, with one module per panel. It asks the worker and redraws (STYLE.md §5); it keeps no
// copy of what happened beyond the last ViewState. Learner input and command output are only ever
// set as text. The <cluster-lab> element (element.ts) calls start once it is on screen.

import { clusterViewPanel } from './cluster-view.ts';
import { consolePanel } from './console-panel.ts';
import { figuresPanel } from './figures-panel.ts';
import { decodeHash, type LabState } from './lab-state.ts';
import { $, Lab, type Config } from './lab.ts';
import { manifestPanel } from './manifest-panel.ts';
import { playbackPanel } from './playback.ts';
import { fill, formatClock } from './strings.ts';
import { whyPanel } from './why-panel.ts';

/** start runs the lab on one rendered ClusterLab section. */
export async function start(root: HTMLElement): Promise<void> {
  if (root.dataset.mounted) return;
  root.dataset.mounted = 'true';
  let config: Config;
  try {
    config = JSON.parse(root.dataset.config ?? '') as Config;
  } catch {
    return;
  }
  const stateLine = $<HTMLElement>(root, 'state');
  const notice = $<HTMLElement>(root, 'notice');
  const lab = new Lab(root, config);
  const { t } = lab;
  stateLine.textContent = t.starting;
  try {
    lab.add(playbackPanel(lab));
    lab.add(clusterViewPanel(lab));
    const console = consolePanel(lab);
    lab.add(console);
    lab.add(manifestPanel(lab, console));
    lab.add(whyPanel(lab));
    lab.add(figuresPanel(lab));

    const decoded = decodeHash(window.location.hash, config.slug, config.until);
    // A link made for another seed of this scenario is another run: start this one afresh.
    const hash: typeof decoded =
      decoded.kind === 'ok' && decoded.state.seed !== config.seed
        ? { kind: 'invalid', reason: `seed ${decoded.state.seed}, not ${config.seed}` }
        : decoded;
    let init: {
      time?: number;
      actions?: LabState['actions'];
      stops?: { action: number; at: number }[];
    } = {};
    if (hash.kind === 'invalid') {
      notice.hidden = false;
      notice.textContent = fill(t.badHash, { reason: hash.reason });
    } else if (hash.kind === 'ok') {
      const stops = (hash.state.transcript ?? []).flatMap((l) =>
        l.action !== undefined && l.stopped !== undefined
          ? [{ action: l.action, at: l.stopped }]
          : [],
      );
      init = { time: hash.state.time, actions: hash.state.actions, stops };
    }
    const base = { type: 'init', scenarioYaml: config.scenarioYaml, seed: config.seed } as const;
    let res = await lab.client.call({ ...base, ...init });
    let restored = hash.kind === 'ok' && res.ok;
    if (!res.ok && hash.kind === 'ok') {
      notice.hidden = false;
      notice.textContent = fill(t.badHash, { reason: res.error });
      res = await lab.client.call(base);
      restored = false;
    }
    if (!res.ok) {
      stateLine.textContent = fill(t.failed, { error: res.error });
      return;
    }
    lab.apply(res.state);
    for (const c of root.querySelectorAll<HTMLButtonElement | HTMLInputElement>(
      'button, select, input, textarea',
    ))
      c.disabled = false;
    stateLine.textContent = fill(t.ready, { seed: config.seed });
    if (restored && hash.kind === 'ok') {
      for (const p of lab.allPanels) await p.restore?.(hash.state, res);
      lab.announce(
        fill(t.restored, { time: formatClock(res.state.time), n: res.state.actions.length }),
      );
    }
    root.dataset.ready = 'true';
  } catch (err) {
    stateLine.textContent = fill(t.failed, {
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

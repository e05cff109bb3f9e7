// Playback and faults: Play/Pause, Step, speed, the timeline scrubber and the fault buttons.

import { $, type Lab, type Panel } from './lab.ts';
import { fill, formatClock } from './strings.ts';

export function playbackPanel(lab: Lab): Panel {
  const { root, t } = lab;
  const play = $<HTMLButtonElement>(root, 'play');
  const step = $<HTMLButtonElement>(root, 'step');
  const speed = $<HTMLSelectElement>(root, 'speed');
  const scrub = $<HTMLInputElement>(root, 'scrub');
  const time = $<HTMLOutputElement>(root, 'time');
  const faultNode = $<HTMLSelectElement>(root, 'fault-node');
  const faults = [...root.querySelectorAll<HTMLButtonElement>('[data-fault]')];
  let playing = false;
  let lastFrame = 0;
  let owed = 0;
  let lastHash = 0;

  function setPlaying(on: boolean): void {
    playing = on;
    play.textContent = on ? t.pause : t.play;
    play.setAttribute('aria-pressed', String(on));
    if (on) {
      lastFrame = 0;
      owed = 0;
      requestAnimationFrame(frame);
    } else lab.setHash();
  }

  function frame(ts: number): void {
    const view = lab.view;
    if (!playing || !view) return;
    const dt = lastFrame ? Math.min(ts - lastFrame, 100) : 0;
    lastFrame = ts;
    owed += dt * Number(speed.value);
    if (!lab.busy && owed >= 1) {
      const to = Math.min(view.time + Math.floor(owed), view.until);
      owed -= Math.floor(owed);
      lab.busy = true;
      void lab.ask({ type: 'advance', toMs: to }).finally(() => {
        lab.busy = false;
        if (ts - lastHash > 1000) {
          lastHash = ts;
          lab.setHash();
        }
      });
    }
    requestAnimationFrame(frame);
  }

  play.addEventListener('click', () => setPlaying(!playing));
  step.addEventListener('click', async () => {
    setPlaying(false);
    const res = await lab.act({ type: 'step' });
    const last = res.state?.events.at(-1);
    if (last)
      lab.announce(`${formatClock(res.state!.time)} ${last.from} → ${last.to}: ${last.label}`);
    lab.setHash();
  });
  scrub.addEventListener('input', () => {
    time.textContent = fill(t.timeValue, {
      time: formatClock(Number(scrub.value)),
      until: formatClock(Number(scrub.max)),
    });
  });
  scrub.addEventListener('change', async () => {
    setPlaying(false);
    await lab.act({ type: 'seek', ms: Number(scrub.value) });
    lab.setHash();
  });
  for (const b of faults) {
    b.addEventListener('click', async () => {
      const kind = b.dataset.fault!;
      const node = faultNode.value;
      const res = await lab.act({ type: 'fault', kind, node });
      if (res.ok)
        lab.announce(
          fill(t.announceFault, {
            fault: t.faultNames[kind] ?? kind,
            node,
            time: formatClock(res.state.time),
          }),
        );
      lab.setHash();
    });
  }

  return {
    onState(next) {
      scrub.max = String(next.until);
      scrub.value = String(next.time);
      const text = fill(t.timeValue, {
        time: formatClock(next.time),
        until: formatClock(next.until),
      });
      scrub.setAttribute('aria-valuetext', text);
      time.textContent = text;
      if (next.time >= next.until && playing) setPlaying(false);
    },
  };
}

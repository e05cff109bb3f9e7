// The manifest editor: a native textarea and an Apply button. Apply sends the text to
// `kubectl apply -f -` on stdin, the same path a scenario's apply step takes
// (sim/scenario/runner.ts#runStep), so kubectl's own messages, line numbers included, come back.

import { terminalText } from '../../lib/terminal.ts';
import type { ConsolePanel } from './console-panel.ts';
import { MAX_MANIFEST } from './lab-state.ts';
import { $, type Lab, type Panel } from './lab.ts';
import { fill } from './strings.ts';

export function manifestPanel(lab: Lab, console: ConsolePanel): Panel {
  const { root, t } = lab;
  const form = $<HTMLFormElement>(root, 'manifest-form');
  const text = $<HTMLTextAreaElement>(root, 'manifest');
  const result = $<HTMLElement>(root, 'manifest-result');

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const yaml = text.value;
    if (yaml.trim() === '') {
      result.textContent = t.manifestEmpty;
      return;
    }
    if (yaml.length > MAX_MANIFEST) {
      result.textContent = fill(t.manifestTooLong, { n: MAX_MANIFEST });
      return;
    }
    const res = await lab.act({ type: 'kubectl', line: 'apply -f -', stdin: yaml });
    if (!res.ok) {
      result.textContent = res.error;
      return;
    }
    const out = res.result!;
    console.print(t.manifestLine, out, res.state.actions.length - 1);
    // Keep the text on an error, so the learner can fix the line kubectl names.
    result.textContent = terminalText(out).trim();
    result.dataset.tone = out.exitCode === 0 ? 'ok' : 'bad';
    lab.setHash();
  });
  return {};
}

// The console: one command line read with the grammar the quiz uses too (src/lib/console.ts),
// its transcript (carried by the URL hash and replayed from the actions), history, Tab
// completion, and `kubectl get -w` rows streaming in as virtual time plays.

import { complete, lineLabel, localOutput, parseConsoleLine } from '../../lib/console.ts';
import { terminalText } from '../../lib/terminal.ts';
import { MAX_TRANSCRIPT, type TranscriptLine } from './lab-state.ts';
import { $, type Lab, type Panel } from './lab.ts';
import type { CommandResult } from './protocol.ts';
import { fill } from './strings.ts';

/** ConsolePanel is the console, with print for the manifest editor's apply. */
export interface ConsolePanel extends Panel {
  /** print appends a command and what it printed to the output. */
  print(line: string, out: CommandResult, action?: number): void;
}

export function consolePanel(lab: Lab): ConsolePanel {
  const { root, t, lang } = lab;
  const form = $<HTMLFormElement>(root, 'console-form');
  const input = $<HTMLInputElement>(root, 'console');
  const output = $<HTMLPreElement>(root, 'output');
  const hints = $<HTMLElement>(root, 'completions');
  const transcript: TranscriptLine[] = [];
  const history: string[] = [];
  let historyAt = 0;
  let watching = false;

  function append(text: string): void {
    output.textContent = `${output.textContent ?? ''}${text}`;
    output.scrollTop = output.scrollHeight;
  }

  function print(line: string, out: CommandResult, action?: number): void {
    const sep = output.textContent ? '\n' : '';
    append(`${sep}$ ${line}\n${terminalText(out)}`);
    transcript.push(action === undefined ? { line } : { line, action });
    if (transcript.length > MAX_TRANSCRIPT) transcript.shift();
  }

  /** watchLine is the transcript line of the running watch, which keeps when it stopped. */
  let watchLine: TranscriptLine | undefined;

  async function stopWatch(): Promise<void> {
    if (!watching) return;
    watching = false;
    append('^C\n');
    const res = await lab.act({ type: 'unwatch' });
    if (watchLine && res.ok) watchLine.stopped = res.state.time;
    watchLine = undefined;
    lab.setHash();
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const raw = input.value;
    const cmd = parseConsoleLine(raw);
    if (cmd.kind === 'empty') return;
    history.push(raw.trim());
    historyAt = history.length;
    input.value = '';
    hints.replaceChildren();
    // A new line ends a running watch, as Ctrl+C and typing it would.
    await stopWatch();
    const label = lineLabel(cmd, raw);
    const local = localOutput(cmd, lang);
    if (local) {
      print(label, local);
      lab.setHash();
      return;
    }
    const res =
      cmd.kind === 'kubectl'
        ? await lab.act({ type: 'kubectl', line: cmd.args })
        : cmd.kind === 'exec'
          ? await lab.act({ type: 'exec', node: cmd.node, line: cmd.line })
          : undefined;
    if (!res) return;
    if (res.ok && res.result) print(label, res.result, res.state.actions.length - 1);
    else if (!res.ok) print(label, { stdout: '', stderr: `${res.error}\n`, exitCode: 1 });
    watching = res.ok && res.state.watching;
    watchLine = watching ? transcript.at(-1) : undefined;
    if (watching) lab.announce(t.watching);
    lab.setHash();
  });

  input.addEventListener('keydown', (ev) => {
    if (
      ev.key === 'Escape' ||
      (ev.key === 'c' && ev.ctrlKey && input.selectionStart === input.selectionEnd)
    ) {
      if (!watching) return;
      ev.preventDefault();
      void stopWatch();
      return;
    }
    if (ev.key === 'Tab' && !ev.shiftKey && !ev.altKey && !ev.ctrlKey && !ev.metaKey) {
      // Tab completes when something fits; otherwise it moves focus on, as it always does.
      if (input.value.trim() === '') return;
      const c = complete(input.value, lab.view?.names ?? {});
      if (c.candidates.length === 0) {
        hints.replaceChildren();
        return;
      }
      ev.preventDefault();
      const head = input.value.slice(0, c.from);
      if (c.candidates.length === 1) {
        input.value = `${head}${c.candidates[0]} `;
        hints.replaceChildren();
      } else {
        input.value = `${head}${c.common}`;
        const shown = c.candidates.slice(0, 20);
        hints.textContent = fill(t.completions, {
          n: c.candidates.length,
          list: shown.join('  ') + (c.candidates.length > shown.length ? '  …' : ''),
        });
      }
      return;
    }
    if (ev.key !== 'ArrowUp' && ev.key !== 'ArrowDown') return;
    if (history.length === 0) return;
    ev.preventDefault();
    historyAt = Math.max(0, Math.min(history.length, historyAt + (ev.key === 'ArrowUp' ? -1 : 1)));
    input.value = history[historyAt] ?? '';
  });

  return {
    print,
    onState(next) {
      if (next.watchRows && watching) append(next.watchRows);
      if (watching && !next.watching) {
        // Ended in the worker (an apply from the manifest editor, a seek backwards).
        watching = false;
        if (watchLine) watchLine.stopped = next.time;
        watchLine = undefined;
      }
    },
    hash: () => ({ transcript: [...transcript] }),
    restore(state, res) {
      // The cluster's answers come from the replay; the console's own from the grammar again.
      for (const l of state.transcript ?? []) {
        const out =
          l.action !== undefined
            ? res.outputs?.[l.action]
            : localOutput(parseConsoleLine(l.line), lang);
        print(l.line, out ?? { stdout: '', stderr: '', exitCode: 0 }, l.action);
        // A watch's rows are in its output (replay.ts); one the learner stopped shows its ^C.
        if (l.stopped !== undefined) {
          append('^C\n');
          transcript[transcript.length - 1]!.stopped = l.stopped;
        }
        history.push(l.line);
      }
      historyAt = history.length;
      // A watch still running when the link was made streams on.
      watching = res.state.watching;
      watchLine = watching ? transcript.at(-1) : undefined;
    },
  };
}

// Task: kubectl and ssh commands typed into a console. Run shows their output at the task's start;
// Check runs them, lets the cluster settle and measures the checks.
import { terminalText } from '../../../lib/terminal.ts';
import type { Answer, Grade } from '../../../quiz/grade.ts';
import type { GradeResult } from '../protocol.ts';
import { fmt } from '../strings.ts';
import { checksList } from './checks.ts';
import type { Ctx, KindView } from './kind.ts';

export function taskView(ctx: Ctx): KindView {
  const commands = ctx.role<HTMLTextAreaElement>('commands');
  const out = ctx.role<HTMLPreElement>('console');
  const run = ctx.role<HTMLButtonElement>('run');

  function print(outputs: NonNullable<Grade['outputs']>): void {
    if (!out) return;
    out.hidden = false;
    out.textContent = outputs.map((o) => `$ ${o.command}\n${terminalText(o.output)}`).join('\n');
  }

  run?.addEventListener('click', () => {
    if (!commands || !out) return;
    out.hidden = false;
    out.textContent = ctx.t.running;
    void ctx
      .ask({ type: 'console', qid: ctx.id, v: ctx.v(), commands: commands.value })
      .then((res) => {
        if (!res.ok) out.textContent = fmt(ctx.t.error, { error: res.error });
        else print(res.outputs ?? []);
      });
  });

  return {
    answer: (): Answer => ({ kind: 'task', commands: commands?.value ?? '' }),
    show(a) {
      if (a.kind === 'task' && commands) commands.value = a.commands;
    },
    reset() {
      if (out) {
        out.textContent = '';
        out.hidden = true;
      }
    },
    buttons(ready, busy) {
      if (run) run.disabled = !ready || busy;
    },
    feedback(r: GradeResult) {
      if (r.grade.outputs) print(r.grade.outputs);
      return checksList(ctx, r.grade);
    },
  };
}

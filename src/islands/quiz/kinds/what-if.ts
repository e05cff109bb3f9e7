// What-if: the learner chooses parameters, the scenario runs with them, the checks are measured
// on that run. Values the cluster rejects score 0 and say so.
import type { Answer } from '../../../quiz/grade.ts';
import type { GradeResult } from '../protocol.ts';
import { el } from '../dom.ts';
import { fmt } from '../strings.ts';
import { checksList } from './checks.ts';
import type { Ctx, KindView } from './kind.ts';

export function whatIfView(ctx: Ctx): KindView {
  const inputs = () => ctx.root.querySelectorAll<HTMLInputElement>('input[data-param]');
  return {
    answer(): Answer {
      const params: Record<string, string> = {};
      for (const i of inputs()) params[i.dataset.param!] = i.value;
      return { kind: 'what-if', params };
    },
    show(a) {
      if (a.kind === 'what-if')
        for (const i of inputs()) i.value = a.params[i.dataset.param!] ?? i.value;
    },
    reset() {
      for (const i of inputs()) i.value = i.defaultValue;
    },
    feedback(r: GradeResult) {
      const g = r.grade;
      const parts: HTMLElement[] = [];
      if (g.rejected)
        parts.push(
          el(
            'p',
            fmt(ctx.t.rejected, { command: g.rejected.command, message: g.rejected.message }),
          ),
        );
      return [...parts, ...checksList(ctx, g)];
    },
  };
}

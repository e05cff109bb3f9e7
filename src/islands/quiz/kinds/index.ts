// viewFor picks a question kind's module.
import type { Ctx, KindView } from './kind.ts';
import { choiceView } from './choice.ts';
import { interviewView } from './interview.ts';
import { matchingView } from './matching.ts';
import { numericView } from './numeric.ts';
import { orderingView } from './ordering.ts';
import { predictView } from './predict.ts';
import { taskView } from './task.ts';
import { whatIfView } from './what-if.ts';

export type { Ctx, KindView };

export function viewFor(ctx: Ctx): KindView {
  switch (ctx.q.kind) {
    case 'choice':
      return choiceView(ctx);
    case 'numeric':
      return numericView(ctx);
    case 'ordering':
      return orderingView(ctx);
    case 'matching':
      return matchingView(ctx);
    case 'predict':
      return predictView(ctx);
    case 'what-if':
      return whatIfView(ctx);
    case 'task':
      return taskView(ctx);
    case 'interview':
      return interviewView(ctx);
  }
}

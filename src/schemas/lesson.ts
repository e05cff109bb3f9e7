import { z } from 'zod';
import { MODULES } from '../course.ts';

/** MODULE_COUNT is the number of modules in the course (src/course.ts). */
export const MODULE_COUNT = MODULES.length;

/**
 * LessonFrontmatterSchema is the front matter a lesson adds to Starlight's own fields (title,
 * description, sidebar, ...). Every field is optional so that pages which are not lessons (the
 * home page, the outline, the fidelity page) validate too.
 */
export const LessonFrontmatterSchema = z.object({
  /** module is the course module the lesson belongs to, 1 to MODULE_COUNT, as in the outline. */
  module: z
    .number({ error: 'expected a module number' })
    .int({ error: 'expected a whole module number' })
    .min(1, { error: `expected a module number from 1 to ${MODULE_COUNT}` })
    .max(MODULE_COUNT, { error: `expected a module number from 1 to ${MODULE_COUNT}` })
    .optional(),
  /** order is the lesson's position within its module, starting at 1; the sidebar sorts by it. */
  order: z
    .number({ error: 'expected a lesson position' })
    .int({ error: 'expected a whole lesson position' })
    .min(1, { error: 'expected a lesson position of 1 or more' })
    .optional(),
  /**
   * concepts names the Kubernetes ideas the lesson teaches, in upstream terms (for example
   * "informer", "workqueue", "NodeResourcesFit"), so lessons and questions can be cross-linked.
   */
  concepts: z
    .array(z.string().trim().min(1, { error: 'expected a non-empty concept name' }), {
      error: 'expected a list of concept names',
    })
    .optional(),
  /** duration is the expected time to work through the lesson, in whole minutes. */
  duration: z
    .number({ error: 'expected a duration in minutes' })
    .int({ error: 'expected a whole number of minutes' })
    .positive({ error: 'expected a duration of at least 1 minute' })
    .optional(),
});

/** LessonFrontmatter is the parsed lesson front matter. */
export type LessonFrontmatter = z.output<typeof LessonFrontmatterSchema>;

/**
 * formatLessonIssues turns a failed parse into one line per problem, naming the file, the field
 * path and what was expected, e.g. `lessons/01.mdx: concepts[1]: expected a non-empty concept name`.
 */
export function formatLessonIssues(file: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path
      .map((part, i) =>
        typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`,
      )
      .join('');
    return `${file}: ${path || '(root)'}: ${issue.message}`;
  });
}

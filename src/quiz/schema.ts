// The question format instructors write (YAML in content/questions/). One zod schema is the single
// source of truth: the loader validates with it, types come from it, and the authoring guide's
// reference is generated from it.
//
// A question never stores its answer. It names a scenario, the seeds and parameters that make its
// variants, and *what to measure* in the run; the key is computed by running the simulator for the
// learner's variant (src/quiz/grade.ts).

import { z } from 'zod';

const kebab = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Text is a string in both site languages. */
export const TextSchema = z
  .object({
    en: z.string().min(1, 'expected English text').describe('English text.'),
    ja: z.string().min(1, 'expected Japanese text').describe('Japanese text.'),
  })
  .strict()
  .describe('Text in English and Japanese: { en: ..., ja: ... }. May use {{name}} placeholders.');
export type Text = z.output<typeof TextSchema>;

const Seconds = z
  .union([z.number(), z.string()])
  .transform((v, ctx) => {
    const m = typeof v === 'number' ? [String(v), String(v), ''] : /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(v.trim());
    if (!m) {
      ctx.addIssue({ code: 'custom', message: `found ${JSON.stringify(v)}, expected a duration such as 90s, 5m or 1h` });
      return z.NEVER;
    }
    const n = Number(m[1]);
    return m[2] === 'ms' ? n / 1000 : m[2] === 'm' ? n * 60 : m[2] === 'h' ? n * 3600 : n;
  })
  .describe('A time from the start of the scenario: 90s, 5m, or a number of seconds.');

/** Scalar is what a field comparison compares against. */
const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** FieldTest compares one field of an object. */
const FieldTest = z.union([
  Scalar,
  z
    .object({
      ne: Scalar.optional().describe('The field is not this value.'),
      in: z.array(Scalar).optional().describe('The field is one of these values.'),
      exists: z.boolean().optional().describe('The field is present (true) or absent (false).'),
      gt: z.number().optional().describe('The field is a number greater than this.'),
      lt: z.number().optional().describe('The field is a number less than this.'),
    })
    .strict(),
]);

/** Where matches objects by field paths such as status.phase or status.conditions[type=Ready].status. */
export const WhereSchema = z
  .record(z.string(), FieldTest)
  .describe(
    'Field tests, all of which must hold. Keys are paths such as status.phase, spec.nodeName, metadata.labels.app or status.conditions[type=Ready].status; values are a value to equal or { ne, in, exists, gt, lt }. "ready: true" is short for the Ready condition being True.',
  );
export type Where = z.output<typeof WhereSchema>;

const Resource = z
  .enum(['pods', 'nodes', 'deployments', 'replicasets', 'services', 'endpointslices', 'events', 'leases'])
  .describe('The resource, plural, as kubectl names it.');

/** RequestMatch picks requests to kube-apiserver from the trace. */
export const RequestMatchSchema = z
  .object({
    verb: z.enum(['create', 'get', 'list', 'watch', 'update', 'patch', 'delete']).optional().describe('The request verb.'),
    resource: z.string().optional().describe('Resource with subresource, e.g. pods, pods/binding, nodes/status, leases.'),
    field: z.string().optional().describe('The request changed this field, e.g. spec.nodeName or spec.replicas.'),
    actor: z.string().optional().describe('The calling component, e.g. kube-scheduler or kubelet (any node).'),
    name: z.string().optional().describe('The object name.'),
    code: z.number().int().optional().describe('The HTTP status answered (default: any success, 2xx).'),
  })
  .strict();
export type RequestMatch = z.output<typeof RequestMatchSchema>;

type EventRefT =
  | { fault: string; node?: string; nth?: number }
  | { step: number }
  | { at: number }
  | { request: RequestMatch; after?: EventRefT; nth?: number }
  | { change: ChangeMatch; after?: EventRefT; nth?: number }
  | { call: { method: string; actor?: string }; after?: EventRefT; nth?: number };

interface ChangeMatch {
  resource: z.output<typeof Resource>;
  type?: 'ADDED' | 'MODIFIED' | 'DELETED';
  where?: Where;
  new?: boolean;
  namespace?: string;
}

const ChangeMatchSchema = z
  .object({
    resource: Resource,
    type: z.enum(['ADDED', 'MODIFIED', 'DELETED']).optional().describe('The kind of change (default: any).'),
    where: WhereSchema.optional(),
    new: z.boolean().optional().describe('Only objects created after the `after` event (a replacement, not the original).'),
    namespace: z.string().optional().describe('Namespace (default: default, for namespaced resources).'),
  })
  .strict();

/** EventRef names a moment in the run: a fault, a step, a request, an object change or a CRI call. */
export const EventRefSchema: z.ZodType<EventRefT> = z.lazy(() =>
  z.union([
    z.object({ fault: z.string().describe('A fault name, e.g. node-down.'), node: z.string().optional(), nth: z.number().int().min(1).optional() }).strict(),
    z.object({ step: z.number().int().min(0).describe('The index of a scenario step, from 0.') }).strict(),
    z.object({ at: Seconds.describe('A fixed time from the start.') }).strict(),
    z
      .object({
        request: RequestMatchSchema,
        after: EventRefSchema.optional().describe('Only after this event.'),
        nth: z.number().int().min(1).optional().describe('The nth match (default 1).'),
      })
      .strict(),
    z.object({ change: ChangeMatchSchema, after: EventRefSchema.optional(), nth: z.number().int().min(1).optional() }).strict(),
    z
      .object({
        call: z.object({ method: z.string().describe('A CRI or CNI method, e.g. RunPodSandbox, PullImage, ADD.'), actor: z.string().optional() }).strict(),
        after: EventRefSchema.optional(),
        nth: z.number().int().min(1).optional(),
      })
      .strict(),
  ]),
) as z.ZodType<EventRefT>;
export type EventRef = EventRefT;

/** ObjectQuery selects objects at a moment. */
const ObjectQuerySchema = z
  .object({
    resource: Resource,
    namespace: z.string().optional().describe('Namespace (default: default; "*" for all).'),
    name: z.string().optional().describe('Only the object with this name.'),
    where: WhereSchema.optional(),
    at: Seconds.optional().describe('When to look (default: the end of the run, or after the learner\'s commands for tasks).'),
  })
  .strict();
export type ObjectQuery = z.output<typeof ObjectQuerySchema>;

/**
 * Measure is what the grader reads off a run: a duration between two events, the time of one,
 * which components made a request, how many objects match, a field's value, or a series.
 */
export const MeasureSchema = z
  .union([
    z.object({ duration: z.object({ from: EventRefSchema, to: EventRefSchema }).strict().describe('Seconds from one event to another.') }).strict(),
    z.object({ time: EventRefSchema.describe('Seconds from the start of the scenario to the event.') }).strict(),
    z.object({ actors: RequestMatchSchema.describe('The components that made matching requests (kubelet@node-1 counts as kubelet).') }).strict(),
    z.object({ count: ObjectQuerySchema.describe('How many objects match.') }).strict(),
    z.object({ field: ObjectQuerySchema.extend({ path: z.string().describe('The field path to read, e.g. spec.nodeName.') }).strict().describe('The field of the first matching object.') }).strict(),
    z
      .object({
        max: ObjectQuerySchema.omit({ at: true }).describe('The largest number of matching objects at any moment of the run.'),
      })
      .strict(),
    z
      .object({
        min: ObjectQuerySchema.omit({ at: true })
          .extend({ from: Seconds.optional().describe('Start looking at this time (default: when the first matching object appears).') })
          .strict()
          .describe('The smallest number of matching objects at any moment after `from`.'),
      })
      .strict(),
  ])
  .describe('What to measure in the run.');
export type Measure = z.output<typeof MeasureSchema>;

/** Option is one choice. Its value is compared with what the measure yields; it is never marked "correct" by hand. */
export const OptionSchema = z
  .object({
    value: z.string().min(1).describe('What the measure must yield for this option to be right (e.g. kube-scheduler).'),
    label: TextSchema.describe('What the learner sees.'),
    feedback: TextSchema.optional().describe('Shown after submitting when this option was chosen.'),
  })
  .strict();

const HintSchema = TextSchema.extend({
  cost: z.number().min(0).max(1).default(0).describe('Fraction of the points this hint costs (0 to 1).'),
}).describe('A hint, revealed one at a time.');

const ParamSchema = z
  .object({
    name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/).describe('Used as {{name}} in the scenario and texts.'),
    label: TextSchema,
    min: z.number().int(),
    max: z.number().int(),
    step: z.number().int().positive().default(1),
    default: z.number().int(),
    unit: TextSchema.optional(),
  })
  .strict();

/** A check over a what-if run or a task's final state, with a weight for partial credit. */
const CheckSchema = z
  .object({
    label: TextSchema.describe('What the check asks, shown with its result.'),
    measure: MeasureSchema,
    min: z.number().optional().describe('The measured number must be at least this.'),
    max: z.number().optional().describe('The measured number must be at most this.'),
    equals: Scalar.optional().describe('The measured value must equal this.'),
    weight: z.number().positive().default(1).describe('Share of the points.'),
  })
  .strict();
export type Check = z.output<typeof CheckSchema>;

const base = {
  id: z.string().regex(kebab, 'expected a stable kebab-case id such as node-failure-replacement-time').describe('Stable id; progress is stored under it.'),
  concepts: z.array(z.string().regex(kebab, 'expected kebab-case concept names')).min(1).describe('Concepts practised; spaced review is per concept.'),
  scenario: z.string().regex(kebab).describe('The slug of content/scenarios/<slug>.yaml the question runs.'),
  variants: z
    .object({
      seeds: z.tuple([z.number().int(), z.number().int()]).default([1, 20]).describe('Inclusive range of simulator seeds a variant may use.'),
      params: z
        .record(z.string(), z.array(z.union([z.number(), z.string()])).min(1))
        .default({})
        .describe('Values a variant picks from for each {{name}} in the scenario and texts.'),
    })
    .strict()
    .default({ seeds: [1, 20], params: {} })
    .describe('What makes variants: each learner gets one from a seed.'),
  prompt: TextSchema.describe('The question.'),
  values: z.record(z.string(), MeasureSchema).default({}).describe('Extra measured values texts may show as {{name}}.'),
  hints: z.array(HintSchema).default([]),
  explanation: TextSchema.describe('Shown after submitting; use {{answer}} and {{name}} to quote measured values.'),
  points: z.number().positive().default(1).describe('Weight of the question in a set.'),
  maxAttempts: z.number().int().min(0).default(3).describe('Tries before the solution is shown (0: unlimited).'),
};

const ChoiceSchema = z
  .object({
    ...base,
    kind: z.literal('choice'),
    multiple: z.boolean().default(false).describe('Several options may be right (checkboxes, partial credit).'),
    measure: MeasureSchema,
    options: z.array(OptionSchema).min(2),
    fixtures: z.object({ wrong: z.array(z.array(z.string())).default([]) }).strict().default({ wrong: [] }).describe('Answers that must be graded wrong for every seed.'),
  })
  .strict();

const NumericSchema = z
  .object({
    ...base,
    kind: z.literal('numeric'),
    measure: MeasureSchema,
    unit: TextSchema.optional().describe('Unit shown after the input, e.g. { en: seconds, ja: 秒 }.'),
    tolerance: z.number().min(0).default(0).describe('Absolute tolerance: answers within ± this are right.'),
    fixtures: z.object({ wrong: z.array(z.number()).default([]) }).strict().default({ wrong: [] }),
  })
  .strict();

const OrderingSchema = z
  .object({
    ...base,
    kind: z.literal('ordering'),
    items: z
      .array(z.object({ value: z.string(), label: TextSchema, at: EventRefSchema.describe('The event whose time places this item.') }).strict())
      .min(3),
    fixtures: z.object({ wrong: z.array(z.array(z.string())).default([]) }).strict().default({ wrong: [] }),
  })
  .strict();

const MatchingSchema = z
  .object({
    ...base,
    kind: z.literal('matching'),
    left: z.array(z.object({ value: z.string().describe('A component name, e.g. kube-scheduler.'), label: TextSchema }).strict()).min(2),
    right: z
      .array(
        z
          .object({
            value: z.string(),
            label: TextSchema,
            measure: MeasureSchema.describe('Yields the components this responsibility belongs to (usually `actors`).'),
          })
          .strict(),
      )
      .min(2),
    fixtures: z.object({ wrong: z.array(z.record(z.string(), z.string())).default([]) }).strict().default({ wrong: [] }),
  })
  .strict();

const PredictSchema = z
  .object({
    ...base,
    kind: z.literal('predict'),
    measure: MeasureSchema,
    options: z.array(OptionSchema).min(2).optional().describe('Choices; without options the prediction is a number.'),
    unit: TextSchema.optional(),
    tolerance: z.number().min(0).default(0),
    reveal: z
      .object({ at: Seconds, kubectl: z.string().describe('A kubectl command whose output is shown after the run, e.g. get pods -o wide.') })
      .strict()
      .describe('What the run shows next to the prediction.'),
    fixtures: z.object({ wrong: z.array(z.union([z.string(), z.number()])).default([]) }).strict().default({ wrong: [] }),
  })
  .strict();

const WhatIfSchema = z
  .object({
    ...base,
    kind: z.literal('what-if'),
    params: z.array(ParamSchema).min(1).describe('What the learner chooses; substituted for {{name}} in the scenario.'),
    checks: z.array(CheckSchema).min(1).describe('What must hold over the run with the learner\'s values.'),
    fixtures: z
      .object({
        correct: z.array(z.record(z.string(), z.number())).min(1).describe('Parameter choices that must pass for every seed.'),
        wrong: z.array(z.record(z.string(), z.number())).default([]),
      })
      .strict(),
  })
  .strict();

const TaskSchema = z
  .object({
    ...base,
    kind: z.literal('task'),
    start: Seconds.describe('The learner gets the console at this time, after the scenario has broken the cluster.'),
    settle: Seconds.default(60).describe('How long the cluster runs after the learner\'s commands before the checks.'),
    checks: z.array(CheckSchema).min(1),
    fixtures: z
      .object({
        correct: z.array(z.array(z.string())).min(1).describe('kubectl command lists (without "kubectl") that must fix it.'),
        wrong: z.array(z.array(z.string())).default([]),
      })
      .strict(),
  })
  .strict();

const InterviewSchema = z
  .object({
    ...base,
    kind: z.literal('interview'),
    scenario: z.string().regex(kebab).optional().describe('Interview answers run no scenario.'),
    explanation: TextSchema.optional(),
    modelAnswer: TextSchema,
    rubric: z.array(TextSchema).min(1).describe('Points a good answer covers; the learner ticks them.'),
  })
  .strict();

/** QuestionSchema is one question; `kind` says how it is answered and graded. */
export const QuestionSchema = z.discriminatedUnion('kind', [
  ChoiceSchema,
  NumericSchema,
  OrderingSchema,
  MatchingSchema,
  PredictSchema,
  WhatIfSchema,
  TaskSchema,
  InterviewSchema,
]);
export type Question = z.output<typeof QuestionSchema>;
export type QuestionInput = z.input<typeof QuestionSchema>;
export type QuestionKind = Question['kind'];

/** QUESTION_KINDS lists the kinds in the order the authoring guide documents them. */
export const QUESTION_KINDS: QuestionKind[] = ['choice', 'numeric', 'ordering', 'matching', 'predict', 'what-if', 'task', 'interview'];

/** QuestionFileSchema is a file in content/questions/. */
export const QuestionFileSchema = z
  .object({
    lesson: z.string().optional().describe('The lesson slug these questions belong to, e.g. lessons/03-node-failure/01-when-a-node-fails.'),
    questions: z.array(QuestionSchema).min(1),
  })
  .strict();
export type QuestionFile = z.output<typeof QuestionFileSchema>;

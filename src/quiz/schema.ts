// The question format instructors write (YAML in content/questions/). One zod schema is the single
// source of truth: the loader validates with it, types come from it, and the authoring guide's
// reference is generated from it.
//
// A question never stores its answer. It names a scenario, the seeds and parameters that make its
// variants, and *what to measure* in the run; the key is computed by running the simulator for the
// learner's variant (src/quiz/grade.ts).

import { z } from 'zod';
import { parseDuration } from '../../sim/index.ts';

const kebab = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * RevealSchema says when a learner sees the key: the right option marked, the right order, the
 * measured number, "What the cluster did", the explanation and the example solution. Until then
 * feedback speaks only of the learner's own answer.
 */
export const RevealSchema = z
  .enum(['after-last-attempt', 'on-request', 'after-each-attempt'])
  .default('after-last-attempt')
  .describe(
    'When the key, "What the cluster did" and the explanation are shown. after-last-attempt (default): once the answer is right, the attempts are used up, the learner asks with Show solution, or in the debrief of an interview round. on-request: only when the answer is right, on Show solution or in the debrief. after-each-attempt: after every answer, as a worked example (not an assessment). Until then feedback says what is wrong about the learner\'s own answer and never the key.',
  )
  .meta({ ja: '正解・「クラスターで実際に起きたこと」・解説を見せる時期。after-last-attempt（デフォルト）: 正解したとき、回答回数を使い切ったとき、「解答を見る」を押したとき、面接ラウンドの振り返り。on-request: 正解したとき、「解答を見る」を押したとき、振り返りのときだけ。after-each-attempt: 毎回の解答の後（評価ではなく例題として）。それまでのフィードバックは学習者自身の答えのどこが違うかだけを伝え、正解は見せない。' });
export type Reveal = z.output<typeof RevealSchema>;

// TextFields are a text's languages; ja may be left out while its translation is pending.
const TextFields = z
  .object({
    en: z.string().min(1, 'expected English text').describe('English text.').meta({ ja: '英語のテキスト。' }),
    ja: z.string().min(1, 'expected Japanese text').optional().describe('Japanese text. Leave it out while the translation is pending: the Japanese site shows the English text with a notice, and the build lists it as untranslated.').meta({ ja: '日本語のテキスト。翻訳が済むまでは省略できる。その場合、日本語サイトでは英語のテキストをお知らせ付きで表示し、ビルドが未翻訳として一覧にする。' }),
  })
  .strict();

// UNTRANSLATED holds the texts parsed without Japanese (kept apart so Text stays { en, ja }).
const UNTRANSLATED = new WeakSet<object>();

/** isUntranslated says whether a parsed text had no Japanese (it shows in English, with a notice). */
export function isUntranslated(t: object): boolean {
  return UNTRANSLATED.has(t);
}

/** withFallback shows an English-only text in English on the Japanese site. */
function withFallback<T extends { en: string; ja?: string | undefined }>(t: T): Omit<T, 'ja'> & { ja: string } {
  const out = { ...t, ja: t.ja ?? t.en };
  if (t.ja === undefined) UNTRANSLATED.add(out);
  return out;
}

/** Text is a string in both site languages (an English-only one falls back to English). */
export const TextSchema = TextFields.transform(withFallback)
  .describe('Text in English and Japanese: { en: ..., ja: ... }. May use {{name}} placeholders.').meta({ ja: '英語と日本語のテキスト: { en: ..., ja: ... }。{{name}} のプレースホルダーを使える。' });
export type Text = z.output<typeof TextSchema>;

const Seconds = z
  .union([z.number(), z.string()])
  .transform((v, ctx) => {
    if (typeof v === 'number') return v;
    const ms = parseDuration(v.trim());
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `found ${JSON.stringify(v)}, expected a duration such as 90s, 5m30s or 1h` });
      return z.NEVER;
    }
    return ms / 1000;
  })
  .describe('A time from the start of the scenario: 90s, 5m30s, or a number of seconds.').meta({ ja: 'シナリオ開始からの時刻: 90s、5m30s、または秒数。' });

/** Scalar is what a field comparison compares against. */
const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** FieldTest compares one field of an object. */
const FieldTest = z.union([
  Scalar,
  z
    .object({
      ne: Scalar.optional().describe('The field is not this value.').meta({ ja: 'フィールドがこの値ではない。' }),
      in: z.array(Scalar).optional().describe('The field is one of these values.').meta({ ja: 'フィールドがこれらの値のどれかである。' }),
      exists: z.boolean().optional().describe('The field is present (true) or absent (false).').meta({ ja: 'フィールドがある（true）、またはない（false）。' }),
      gt: z.number().optional().describe('The field is a number greater than this.').meta({ ja: 'フィールドがこの値より大きい数値である。' }),
      lt: z.number().optional().describe('The field is a number less than this.').meta({ ja: 'フィールドがこの値より小さい数値である。' }),
    })
    .strict(),
]);

/** Where matches objects by field paths such as status.phase or status.conditions[type=Ready].status. */
export const WhereSchema = z
  .record(z.string(), FieldTest)
  .describe(
    'Field tests, all of which must hold. Keys are paths such as status.phase, spec.nodeName, metadata.labels.app, status.conditions[type=Ready].status or spec.taints[key=node.kubernetes.io/unreachable,effect=NoExecute].key (a list item whose fields all match); values are a value to equal or { ne, in, exists, gt, lt }. "ready: true" is short for the Ready condition being True.',
  ).meta({ ja: 'すべて成り立たなければならないフィールドの条件。キーは status.phase、spec.nodeName、metadata.labels.app、status.conditions[type=Ready].status、spec.taints[key=node.kubernetes.io/unreachable,effect=NoExecute].key（すべてのペアが一致するリストの要素）のようなパス。値は一致すべき値か { ne, in, exists, gt, lt }。"ready: true" は Ready 状態が True であることの省略形。' });
export type Where = z.output<typeof WhereSchema>;

const Resource = z
  .enum(['pods', 'nodes', 'deployments', 'replicasets', 'services', 'endpointslices', 'events', 'leases'])
  .describe('The resource, plural, as kubectl names it.').meta({ ja: 'リソース。kubectl と同じ複数形の名前。' });

/** RequestMatch picks requests to kube-apiserver from the trace. */
export const RequestMatchSchema = z
  .object({
    verb: z.enum(['create', 'get', 'list', 'watch', 'update', 'patch', 'delete']).optional().describe('The request verb.').meta({ ja: 'リクエストの動詞（verb）。' }),
    resource: z.string().optional().describe('Resource with subresource, e.g. pods, pods/binding, nodes/status, leases.').meta({ ja: 'サブリソースを含むリソース。例: pods、pods/binding、nodes/status、leases。' }),
    field: z.string().optional().describe('The request changed this field, e.g. spec.nodeName or spec.replicas.').meta({ ja: 'リクエストが変更したフィールド。例: spec.nodeName、spec.replicas。' }),
    actor: z.string().optional().describe('The calling component, e.g. kube-scheduler or kubelet (any node).').meta({ ja: '呼び出したコンポーネント。例: kube-scheduler、kubelet（どのノードでも）。' }),
    name: z.string().optional().describe('The object name.').meta({ ja: 'オブジェクト名。' }),
    code: z.number().int().optional().describe('The HTTP status answered (default: any success, 2xx).').meta({ ja: '返された HTTP ステータス（デフォルト: 成功を表す 2xx のいずれか）。' }),
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
    type: z.enum(['ADDED', 'MODIFIED', 'DELETED']).optional().describe('The kind of change (default: any).').meta({ ja: '変更の種類（デフォルト: どれでも）。' }),
    where: WhereSchema.optional(),
    new: z.boolean().optional().describe('Only objects created after the `after` event (a replacement, not the original).').meta({ ja: '`after` のイベントより後に作られたオブジェクトだけ（元のものではなく代わりのもの）。' }),
    namespace: z.string().optional().describe('Namespace (default: default, for namespaced resources).').meta({ ja: 'Namespace（namespace に属するリソースではデフォルト default）。' }),
  })
  .strict();

/** EventRef names a moment in the run: a fault, a step, a request, an object change or a CRI call. */
export const EventRefSchema: z.ZodType<EventRefT> = z.lazy(() =>
  z.union([
    z.object({ fault: z.string().describe('A fault name, e.g. node-down.').meta({ ja: '障害の名前。例: node-down。' }), node: z.string().optional(), nth: z.number().int().min(1).optional() }).strict(),
    z.object({ step: z.number().int().min(0).describe('The index of a scenario step, from 0.').meta({ ja: 'シナリオのステップの番号（0 から）。' }) }).strict(),
    z.object({ at: Seconds.describe('A fixed time from the start.').meta({ ja: '開始からの決まった時刻。' }) }).strict(),
    z
      .object({
        request: RequestMatchSchema,
        after: EventRefSchema.optional().describe('Only after this event.').meta({ ja: 'このイベントの後だけを対象にする。' }),
        nth: z.number().int().min(1).optional().describe('The nth match (default 1).').meta({ ja: '条件に合う n 番目のもの（デフォルト 1）。' }),
      })
      .strict(),
    z.object({ change: ChangeMatchSchema, after: EventRefSchema.optional(), nth: z.number().int().min(1).optional() }).strict(),
    z
      .object({
        call: z.object({ method: z.string().describe('A CRI or CNI method, e.g. RunPodSandbox, PullImage, ADD.').meta({ ja: 'CRI または CNI のメソッド。例: RunPodSandbox、PullImage、ADD。' }), actor: z.string().optional() }).strict(),
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
    namespace: z.string().optional().describe('Namespace (default: default; "*" for all).').meta({ ja: 'Namespace（デフォルト default、"*" ですべて）。' }),
    name: z.string().optional().describe('Only the object with this name.').meta({ ja: 'この名前のオブジェクトだけ。' }),
    where: WhereSchema.optional(),
    at: Seconds.optional().describe('When to look (default: the end of the run, or after the learner\'s commands for tasks).').meta({ ja: '調べる時刻（デフォルト: 実行の終わり。task では学習者のコマンドの後）。' }),
  })
  .strict();
export type ObjectQuery = z.output<typeof ObjectQuerySchema>;

/**
 * Measure is what the grader reads off a run: a duration between two events, the time of one,
 * which components made a request, how many objects match, a field's value, or a series.
 */
export const MeasureSchema = z
  .union([
    z.object({ duration: z.object({ from: EventRefSchema, to: EventRefSchema }).strict().describe('Seconds from one event to another.').meta({ ja: 'あるイベントから別のイベントまでの秒数。' }) }).strict(),
    z.object({ time: EventRefSchema.describe('Seconds from the start of the scenario to the event.').meta({ ja: 'シナリオ開始からそのイベントまでの秒数。' }) }).strict(),
    z.object({ actors: RequestMatchSchema.describe('The components that made matching requests (kubelet@node-1 counts as kubelet).').meta({ ja: '条件に合うリクエストを送ったコンポーネント（kubelet@node-1 は kubelet として数える）。' }) }).strict(),
    z.object({ count: ObjectQuerySchema.describe('How many objects match.').meta({ ja: '条件に合うオブジェクトの数。' }) }).strict(),
    z.object({ field: ObjectQuerySchema.extend({ path: z.string().describe('The field path to read, e.g. spec.nodeName.').meta({ ja: '読み取るフィールドのパス。例: spec.nodeName。' }) }).strict().describe('The field of the first matching object.').meta({ ja: '条件に合う最初のオブジェクトのフィールド。' }) }).strict(),
    z
      .object({
        queries: z
          .object({
            from: z.string().optional().describe('The asking Pod, namespace/name (default: any).').meta({ ja: '問い合わせた Pod。namespace/name（デフォルト: どれでも）。' }),
            name: z.string().optional().describe('Only questions for this name.').meta({ ja: 'この名前の問い合わせだけ。' }),
            qtype: z.enum(['A', 'AAAA', 'SRV', 'PTR', 'CNAME', 'TXT']).optional().describe('Only questions of this type.').meta({ ja: 'この種類の問い合わせだけ。' }),
            rcode: z.enum(['NOERROR', 'NXDOMAIN']).optional().describe('Only questions answered with this code.').meta({ ja: 'この応答コードで答えられた問い合わせだけ。' }),
            after: EventRefSchema.optional().describe('Only after this event (e.g. a step).').meta({ ja: 'このイベント（ステップなど）の後だけ。' }),
            before: EventRefSchema.optional().describe('Only before this event (e.g. the next step).').meta({ ja: 'このイベント（次のステップなど）の前だけ。' }),
          })
          .strict()
          .describe('How many DNS questions Pods sent (the trace\'s dns entries).').meta({ ja: 'Pod が送った DNS の問い合わせの数（トレースの dns エントリー）。' }),
      })
      .strict(),
    z
      .object({
        packet: z
          .object({
            from: z.string().optional().describe('The client Pod, namespace/name (default: any).').meta({ ja: 'クライアントの Pod。namespace/name（デフォルト: どれでも）。' }),
            after: EventRefSchema.optional().describe('Only after this event (e.g. a step).').meta({ ja: 'このイベント（ステップなど）の後だけ。' }),
            nth: z.number().int().min(1).optional().describe('The nth connection (default 1).').meta({ ja: 'n 番目の接続（デフォルト 1）。' }),
            path: z
              .enum(['node', 'to', 'endpoint', 'outcome', 'dst', 'policy'])
              .describe('What to read: the node whose rules translated it, the Pod that took it (namespace/name), the endpoint chosen, how it ended (established, refused, rejected, timeout, or dropped by a NetworkPolicy under cni: calico), the address asked for, the NetworkPolicy that dropped it (namespace/name).')
              .meta({ ja: '読むもの: 宛先を変換したルールのノード、接続を受けた Pod（namespace/name）、選ばれたエンドポイント、結果（established、refused、rejected、timeout、または cni: calico のとき NetworkPolicy に落とされた dropped）、接続先のアドレス、接続を落とした NetworkPolicy（namespace/name）。' }),
          })
          .strict()
          .describe('A field of one TCP connection a Pod opened (the trace\'s packet entries).').meta({ ja: 'Pod が開いた TCP 接続の 1 つのフィールド（トレースの packet エントリー）。' }),
      })
      .strict(),
    z
      .object({
        exitCode: z
          .object({ step: z.number().int().min(0).describe('The index of a scenario step that runs a command, from 0.').meta({ ja: 'コマンドを実行するシナリオのステップの番号（0 から）。' }) })
          .strict()
          .describe('The exit code of the command a step ran.').meta({ ja: 'ステップが実行したコマンドの終了コード。' }),
      })
      .strict(),
    z
      .object({
        max: ObjectQuerySchema.omit({ at: true }).describe('The largest number of matching objects at any moment of the run.').meta({ ja: '実行中のどの時点かで、条件に合うオブジェクトが最も多かったときの数。' }),
      })
      .strict(),
    z
      .object({
        min: ObjectQuerySchema.omit({ at: true })
          .extend({ from: Seconds.optional().describe('Start looking at this time (default: when the first matching object appears).').meta({ ja: 'この時刻から調べ始める（デフォルト: 条件に合う最初のオブジェクトが現れたとき）。' }) })
          .strict()
          .describe('The smallest number of matching objects at any moment after `from`.').meta({ ja: '`from` 以降のどの時点かで、条件に合うオブジェクトが最も少なかったときの数。' }),
      })
      .strict(),
  ])
  .describe('What to measure in the run.').meta({ ja: '実行の中で測定するもの。' });
export type Measure = z.output<typeof MeasureSchema>;

/** Option is one choice. Its value is compared with what the measure yields; it is never marked "correct" by hand. */
export const OptionSchema = z
  .object({
    value: z.string().min(1).describe('What the measure must yield for this option to be right (e.g. kube-scheduler).').meta({ ja: 'この選択肢が正解になるために measure が返すべき値（例: kube-scheduler）。' }),
    label: TextSchema.describe('What the learner sees.').meta({ ja: '学習者に表示されるテキスト。' }),
    feedback: TextSchema.optional().describe('Shown after submitting when this option was chosen.').meta({ ja: 'この選択肢を選んで解答したときに表示する。' }),
  })
  .strict();

const HintSchema = TextFields.extend({
  cost: z.number().min(0).max(1).default(0).describe('Fraction of the points this hint costs (0 to 1).').meta({ ja: 'このヒントで失う得点の割合（0 から 1）。' }),
}).transform(withFallback).describe('A hint, revealed one at a time.').meta({ ja: 'ヒント。1 つずつ表示される。' });

const ParamSchema = z
  .object({
    name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/).describe('Used as {{name}} in the scenario and texts.').meta({ ja: 'シナリオやテキストの中で {{name}} として使う。' }),
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
    label: TextSchema.describe('What the check asks, shown with its result.').meta({ ja: 'チェックの内容。結果と一緒に表示される。' }),
    measure: MeasureSchema,
    min: z.number().optional().describe('The measured number must be at least this.').meta({ ja: '測定した数値がこの値以上でなければならない。' }),
    max: z.number().optional().describe('The measured number must be at most this.').meta({ ja: '測定した数値がこの値以下でなければならない。' }),
    equals: Scalar.optional().describe('The measured value must equal this.').meta({ ja: '測定した値がこの値と等しくなければならない。' }),
    weight: z.number().positive().default(1).describe('Share of the points.').meta({ ja: '得点の配分。' }),
    creditIfAlreadyTrue: z
      .boolean()
      .default(false)
      .describe('Tasks: this check earns its share even when it already holds with no commands typed (default false: a check the broken cluster already passes earns nothing, so an untouched task scores 0).')
      .meta({ ja: 'task 用: コマンドを何も打たなくても成り立つ場合にも、このチェックの得点を与える（デフォルト false: 壊れたクラスターですでに成り立つチェックは得点にならず、何もしなければ 0 点）。' }),
  })
  .strict();
export type Check = z.output<typeof CheckSchema>;

const base = {
  id: z.string().regex(kebab, 'expected a stable kebab-case id such as node-failure-replacement-time').describe('Stable id; progress is stored under it.').meta({ ja: '変わらない ID。進捗はこの ID で保存される。' }),
  concepts: z.array(z.string().regex(kebab, 'expected kebab-case concept names')).min(1).describe('Concepts practised; spaced review is per concept.').meta({ ja: '練習する概念。間隔反復の復習は概念ごとに行う。' }),
  scenario: z.string().regex(kebab).describe('The slug of content/scenarios/<slug>.yaml the question runs.').meta({ ja: '問題が実行する content/scenarios/<slug>.yaml のスラッグ。' }),
  variants: z
    .object({
      seeds: z.tuple([z.number().int(), z.number().int()]).default([1, 20]).describe('Inclusive range of simulator seeds a variant may use.').meta({ ja: 'バリアントが使うシミュレーターのシードの範囲（両端を含む）。' }),
      params: z
        .record(z.string(), z.array(z.union([z.number(), z.string()])).min(1))
        .default({})
        .describe('Values a variant picks from for each {{name}} in the scenario and texts.').meta({ ja: 'シナリオやテキストの各 {{name}} について、バリアントが選ぶ値。' }),
    })
    .strict()
    .default({ seeds: [1, 20], params: {} })
    .describe('What makes variants: each learner gets one from a seed.').meta({ ja: 'バリアントの作り方。学習者ごとにシードから 1 つが選ばれる。' }),
  prompt: TextSchema.describe('The question.').meta({ ja: '問題文。' }),
  values: z.record(z.string(), MeasureSchema).default({}).describe('Extra measured values texts may show as {{name}}.').meta({ ja: 'テキストで {{name}} として表示できる、追加の測定値。' }),
  hints: z.array(HintSchema).default([]),
  explanation: TextSchema.describe('Shown after submitting; use {{answer}} and {{name}} to quote measured values.').meta({ ja: '解答後に表示する。測定値は {{answer}} や {{name}} で引用する。' }),
  points: z.number().positive().default(1).describe('Weight of the question in a set.').meta({ ja: '問題セットの中でのこの問題の重み。' }),
  maxAttempts: z.number().int().min(0).default(3).describe('Tries before the solution is shown (0: unlimited).').meta({ ja: '解答例が表示されるまでに解答できる回数（0 なら無制限）。' }),
  reveal: RevealSchema,
};

const Direction = z
  .boolean()
  .default(false)
  .describe('A wrong number is told whether it is too high or too low (default false: only "not right").')
  .meta({ ja: '不正解の数値に、大きすぎるか小さすぎるかを伝える（デフォルト false: 「不正解」だけを伝える）。' });

const ChoiceSchema = z
  .object({
    ...base,
    kind: z.literal('choice'),
    multiple: z.boolean().default(false).describe('Several options may be right (checkboxes, partial credit).').meta({ ja: '複数の選択肢が正解になりうる（チェックボックス、部分点あり）。' }),
    measure: MeasureSchema,
    options: z.array(OptionSchema).min(2),
    fixtures: z.object({ wrong: z.array(z.array(z.string())).default([]) }).strict().default({ wrong: [] }).describe('Answers that must be graded wrong for every seed.').meta({ ja: 'どのシードでも不正解と採点されなければならない解答。' }),
  })
  .strict();

const NumericSchema = z
  .object({
    ...base,
    kind: z.literal('numeric'),
    measure: MeasureSchema,
    unit: TextSchema.optional().describe('Unit shown after the input, e.g. { en: seconds, ja: 秒 }.').meta({ ja: '入力欄の後ろに表示する単位。例: { en: seconds, ja: 秒 }。' }),
    tolerance: z.number().min(0).default(0).describe('Absolute tolerance: answers within ± this are right.').meta({ ja: '絶対許容誤差: この値の ± 以内の解答を正解とする。' }),
    direction: Direction,
    fixtures: z.object({ wrong: z.array(z.number()).default([]) }).strict().default({ wrong: [] }),
  })
  .strict();

const OrderingSchema = z
  .object({
    ...base,
    kind: z.literal('ordering'),
    items: z
      .array(z.object({ value: z.string(), label: TextSchema, at: EventRefSchema.describe('The event whose time places this item.').meta({ ja: 'この項目の位置を決める時刻のイベント。' }) }).strict())
      .min(3),
    fixtures: z.object({ wrong: z.array(z.array(z.string())).default([]) }).strict().default({ wrong: [] }),
  })
  .strict();

const MatchingSchema = z
  .object({
    ...base,
    kind: z.literal('matching'),
    left: z.array(z.object({ value: z.string().describe('A component name, e.g. kube-scheduler.').meta({ ja: 'コンポーネント名。例: kube-scheduler。' }), label: TextSchema }).strict()).min(2),
    right: z
      .array(
        z
          .object({
            value: z.string(),
            label: TextSchema,
            measure: MeasureSchema.describe('Yields the components this responsibility belongs to (usually `actors`).').meta({ ja: 'この役割を担うコンポーネントを返す（ふつうは `actors`）。' }),
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
    options: z.array(OptionSchema).min(2).optional().describe('Choices; without options the prediction is a number.').meta({ ja: '選択肢。options がなければ、予想は数値で答える。' }),
    unit: TextSchema.optional(),
    tolerance: z.number().min(0).default(0),
    direction: Direction,
    observe: z
      .object({ at: Seconds, kubectl: z.string().describe('A kubectl command whose output is shown after the run, e.g. get pods -o wide.').meta({ ja: '実行後に出力を表示する kubectl コマンド。例: get pods -o wide。' }) })
      .strict()
      .describe('What the run shows next to the prediction, once the key is revealed (see reveal).').meta({ ja: '正解を見せるとき（reveal を参照）に、予想と並べて表示する実行結果。' }),
    fixtures: z.object({ wrong: z.array(z.union([z.string(), z.number()])).default([]) }).strict().default({ wrong: [] }),
  })
  .strict();

const WhatIfSchema = z
  .object({
    ...base,
    kind: z.literal('what-if'),
    params: z.array(ParamSchema).min(1).describe('What the learner chooses; substituted for {{name}} in the scenario.').meta({ ja: '学習者が選ぶ値。シナリオの {{name}} に代入される。' }),
    checks: z.array(CheckSchema).min(1).describe('What must hold over the run with the learner\'s values.').meta({ ja: '学習者の値で実行したときに成り立たなければならないこと。' }),
    fixtures: z
      .object({
        correct: z.array(z.record(z.string(), z.number())).min(1).describe('Parameter choices that must pass for every seed.').meta({ ja: 'どのシードでも合格しなければならないパラメーターの組み合わせ。' }),
        wrong: z.array(z.record(z.string(), z.number())).default([]),
      })
      .strict(),
  })
  .strict();

const TaskSchema = z
  .object({
    ...base,
    kind: z.literal('task'),
    start: Seconds.describe('The learner gets the console at this time, after the scenario has broken the cluster.').meta({ ja: 'シナリオがクラスターを壊した後、この時刻に学習者がコンソールを使えるようになる。' }),
    settle: Seconds.default(60).describe('How long the cluster runs after the learner\'s commands before the checks.').meta({ ja: '学習者のコマンドの後、チェックまでにクラスターを動かす時間。' }),
    checks: z.array(CheckSchema).min(1),
    fixtures: z
      .object({
        correct: z.array(z.array(z.string())).min(1).describe('kubectl command lists (without "kubectl") that must fix it.').meta({ ja: '問題を解決できなければならない kubectl コマンドのリスト（"kubectl" は付けない）。' }),
        wrong: z.array(z.array(z.string())).default([]),
      })
      .strict(),
  })
  .strict();

const InterviewSchema = z
  .object({
    ...base,
    kind: z.literal('interview'),
    scenario: z.string().regex(kebab).optional().describe('Interview answers run no scenario.').meta({ ja: '面接問題の解答ではシナリオを実行しない。' }),
    explanation: TextSchema.optional(),
    modelAnswer: TextSchema,
    rubric: z.array(TextSchema).min(1).describe('Points a good answer covers; the learner ticks them.').meta({ ja: 'よい解答が押さえる点。学習者が自分でチェックを付ける。' }),
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
    lesson: z.string().optional().describe('The lesson slug these questions belong to, e.g. lessons/03-node-failure/01-when-a-node-fails.').meta({ ja: 'これらの問題が属するレッスンのスラッグ。例: lessons/03-node-failure/01-when-a-node-fails。' }),
    questions: z.array(QuestionSchema).min(1),
  })
  .strict();
export type QuestionFile = z.output<typeof QuestionFileSchema>;

// What a question's page may carry, and what it may not. The page ships what the browser grades
// with (the question's measures, options, items, checks and hints, and its scenario); the key is
// computed by the worker. What gives an answer away (the explanation, an interview's model answer
// and rubric, an example solution, and every fixture) is in a separate file the build emits
// (src/quiz/answers-route.ts), which the island loads only once the key is revealed.
// auditPage checks built HTML against that: the build fails if a rendered question shows its key.

import { computeKey, formatNumber, solutionOf, variantOf, type Keyed } from './grade.ts';
import type { LoadedQuestion } from './load.ts';
import type { Question } from './schema.ts';
import type { Answers } from './answers.ts';

export { ANSWERS_DIR, type Answers } from './answers.ts';

/** answersOf is the content of a question's answers file. */
export function answersOf(q: Question): Answers {
  const out: Answers = {};
  if (q.explanation) out.explanation = q.explanation;
  if (q.kind === 'what-if' || q.kind === 'task')
    out.example = solutionOf(q, { variant: variantOf(q, 0), key: { kind: 'checks' }, values: {} });
  if (q.kind === 'interview') {
    out.modelAnswer = q.modelAnswer;
    out.rubric = q.rubric;
  }
  return out;
}

/** SECRET_FIELDS are the question fields that never reach the page. */
const SECRET_FIELDS = ['fixtures', 'explanation', 'modelAnswer', 'rubric'] as const;

/** optionsOf is a choice or predict question's options (none for other kinds). */
export function optionsOf(
  q: Question,
): NonNullable<Extract<Question, { kind: 'choice' }>['options']> {
  return (q.kind === 'choice' || q.kind === 'predict' ? q.options : undefined) ?? [];
}

/**
 * publicQuestion is the question as the page carries it for the worker: without SECRET_FIELDS,
 * and its options without their feedback (in option feedback files: answers.ts).
 */
export function publicQuestion(q: Question): Question {
  const out: Record<string, unknown> = { ...q };
  for (const f of SECRET_FIELDS) delete out[f];
  if (Array.isArray(out.options)) out.options = optionsOf(q).map(({ feedback: _, ...o }) => o);
  return out as unknown as Question;
}

/** mulberry32 is a small seeded PRNG (as grade.ts deals variants). */
function mulberry32(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * shuffleNotKey is a seeded shuffle of values that is never the key order: if the shuffle comes
 * out as the key, it is rotated by one (the items are distinct, so a rotation differs).
 */
export function shuffleNotKey(values: string[], key: string[], seed: number): string[] {
  const rnd = mulberry32(seed);
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  if (out.length > 1 && out.every((v, i) => v === key[i])) out.push(out.shift()!);
  return out;
}

/** seedOf turns a question id into a shuffle seed. */
export function seedOf(id: string, v = 0): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h ^ Math.imul(v + 1, 2654435761)) >>> 0;
}

/** pageOrder is the order Question.astro renders an ordering question's items in, for variant 0. */
export function pageOrder(q: Question, keyed: Keyed): string[] {
  if (q.kind !== 'ordering' || keyed.key.kind !== 'ordering') return [];
  return shuffleNotKey(
    q.items.map((i) => i.value),
    keyed.key.values,
    seedOf(q.id),
  );
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** RenderedQuestion is one question's markup cut out of a built page. */
export interface RenderedQuestion {
  id: string;
  html: string;
}

/** renderedQuestions cuts each rendered question out of a page's HTML (Question.astro's markup). */
export function renderedQuestions(html: string): RenderedQuestion[] {
  const out: RenderedQuestion[] = [];
  const open = /<section\b[^>]*\bdata-quiz\b[^>]*>/g;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const id = /\bdata-question-id="([^"]+)"/.exec(m[0])?.[1];
    const end = html.indexOf('</section>', m.index);
    if (!id || end < 0) continue;
    out.push({ id, html: html.slice(m.index, end) });
  }
  return out;
}

/** textOf strips tags from markup. */
function textOf(html: string): string {
  return unescape(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ');
}

/** contains says whether markup carries a text as text, as an attribute or inside JSON. */
function contains(html: string, text: string): boolean {
  const t = text.trim();
  if (t.length < 12) return false;
  return (
    html.includes(t) ||
    html.includes(escape(t)) ||
    html.includes(JSON.stringify(t).slice(1, -1).replace(/</g, '\\u003c'))
  );
}

/**
 * auditRendered checks one rendered question against its key for the variant the page renders (0):
 * it names every way the markup presents the key, a fixture or an answer text before the learner
 * has answered. An empty list means the question gives nothing away.
 */
export function auditRendered(r: RenderedQuestion, lq: LoadedQuestion, keyed: Keyed): string[] {
  const q = lq.question;
  const problems: string[] = [];
  const payloadText = /<script\b[^>]*data-role="payload"[^>]*>([\s\S]*?)<\/script>/.exec(
    r.html,
  )?.[1];
  let payload: { question?: Record<string, unknown>; sealed?: unknown } = {};
  try {
    payload = payloadText ? (JSON.parse(payloadText) as typeof payload) : {};
  } catch {
    problems.push('its payload is not valid JSON');
  }
  for (const f of SECRET_FIELDS)
    if (payload.question && f in payload.question) problems.push(`its payload carries ${f}`);
  if ('sealed' in payload) problems.push('its payload carries sealed solutions');
  const shippedOptions = payload.question?.options;
  if (Array.isArray(shippedOptions) && shippedOptions.some((o) => 'feedback' in Object(o)))
    problems.push('its payload carries option feedback');
  const markup = r.html.replace(/<script\b[^>]*data-role="payload"[^>]*>[\s\S]*?<\/script>/, '');
  // The prompt, the help texts (UI text that quotes examples) and the buttons are not answers.
  const answerArea = markup
    .replace(/<p\b[^>]*data-role="prompt"[^>]*>[\s\S]*?<\/p>/, '')
    .replace(/<(p|span)\b[^>]*class="quiz-help\b[^"]*"[^>]*>[\s\S]*?<\/\1>/g, '')
    .replace(/<button\b[^>]*>[\s\S]*?<\/button>/g, '');
  for (const [where, t] of [
    ['the explanation', q.explanation],
    ['the model answer', q.kind === 'interview' ? q.modelAnswer : undefined],
    ...(q.kind === 'interview' ? q.rubric.map((x, i) => [`rubric[${i}]`, x] as const) : []),
    ...optionsOf(q).map((o) => [`the feedback of option ${o.value}`, o.feedback] as const),
  ] as const)
    for (const lang of ['en', 'ja'] as const)
      if (t && contains(r.html, t[lang])) problems.push(`it shows ${where} (${lang})`);
  // The prompt and the hints (shown on request, at a cost) may quote a command; fixtures must not be anywhere else.
  const visible =
    answerArea + JSON.stringify({ ...payload.question, prompt: undefined, hints: undefined });
  if (q.kind === 'task')
    for (const c of q.fixtures.correct.flat())
      if (contains(visible, c)) problems.push(`it shows the correct fixture command "${c}"`);
  if (/<input\b[^>]*\bchecked\b/.test(markup)) problems.push('an option is checked');
  if (/\bdata-mark="/.test(markup)) problems.push('an option or item is marked');
  if (/<option\b[^>]*\bselected\b/.test(markup)) problems.push('a matching answer is selected');
  const k = keyed.key;
  if (k.kind === 'ordering') {
    const ol = /<ol\b[^>]*data-role="order"[^>]*>([\s\S]*?)<\/ol>/.exec(markup)?.[1] ?? '';
    const shown = [...ol.matchAll(/<li\b[^>]*\bdata-value="([^"]*)"/g)].map((m) => unescape(m[1]!));
    if (shown.length && shown.join('\n') === k.values.join('\n'))
      problems.push(`its items are in the key order (${k.values.join(', ')})`);
  }
  if (k.kind === 'numeric') {
    const n = formatNumber(k.value);
    if (new RegExp(`<input\\b[^>]*\\bvalue="${n.replace('.', '\\.')}"`).test(markup))
      problems.push(`its answer box holds the answer ${n}`);
    // Outside the prompt, the help texts and the buttons (which may quote any number), the answer is not written out.
    if (
      new RegExp(`(^|[^\\d.])${n.replace('.', '\\.')}($|[^\\d.])`).test(textOf(answerArea)) &&
      !/^\d$/.test(n)
    )
      problems.push(`it shows the answer ${n}`);
  }
  return problems;
}

/** keyForPage computes the key of the variant a page renders (0). */
export function keyForPage(lq: LoadedQuestion): Keyed {
  return computeKey(lq.question, lq.scenarioYaml, variantOf(lq.question, 0));
}

// The learner's progress, kept in the browser's localStorage under one key (PROGRESS_KEY): a record
// per question (attempts, best score, solved, lesson, concepts, last variant, last time) and a
// spaced-repetition card per concept, scheduled with FSRS (ts-fsrs).
//
// Everything here is pure apart from the Storage passed in, and time always comes from a `now`
// parameter, so tests are deterministic. Nothing here throws on bad stored data: loadProgress keeps
// every entry that is intact, drops only the broken ones, and returns warnings the UI can show.
//
// Stored format, version 2 (PROGRESS_VERSION):
//   { version: 2, questions: { [id]: QuestionRecord }, concepts: { [concept]: ConceptCard } }
// Older formats are migrated on load: version 1 `{ version: 1, answers: { [id]: { score, at } } }`,
// and the unversioned prototype, a bare `{ [id]: { score, at } }` map.

import { createEmptyCard, fsrs, Rating, State, type Card, type Grade } from 'ts-fsrs';
import { z } from 'zod';

/** PROGRESS_KEY is the one localStorage key progress lives under. */
export const PROGRESS_KEY = 'kal:progress';

/** PROGRESS_VERSION is the format version this code writes. */
export const PROGRESS_VERSION = 2;

const isoDate = z.iso.datetime({ offset: true }).describe('An ISO 8601 date and time.');

/** QuestionRecordSchema is what is kept for one question. */
export const QuestionRecordSchema = z
  .object({
    attempts: z.number().int().min(0).describe('Graded submissions, over every round.'),
    bestScore: z.number().min(0).max(1).describe('The best score (0..1, after hint costs).'),
    solved: z.boolean().describe('Answered right at least once.'),
    lesson: z.string().describe('The lesson slug the question belongs to ("" when unknown).'),
    concepts: z.array(z.string()).describe('Concepts the question practises.'),
    lastVariant: z.number().int().optional().describe('The variant (seed) of the last submission.'),
    lastScore: z.number().min(0).max(1).optional().describe('The score of the last submission.'),
    lastAt: isoDate.describe('When the last submission was graded.'),
    selfAssessed: z
      .boolean()
      .optional()
      .describe('The learner marked the answer (interview questions).'),
  })
  .describe('Progress on one question.');
export type QuestionRecord = z.output<typeof QuestionRecordSchema>;

/** ConceptCardSchema is a ts-fsrs Card as JSON (dates as ISO strings). */
export const ConceptCardSchema = z
  .object({
    due: isoDate.describe('When the concept is next due for review.'),
    stability: z.number().min(0),
    difficulty: z.number().min(0),
    elapsed_days: z.number().min(0),
    scheduled_days: z.number().min(0),
    learning_steps: z.number().int().min(0).default(0),
    reps: z.number().int().min(0),
    lapses: z.number().int().min(0),
    state: z
      .number()
      .int()
      .min(State.New)
      .max(State.Relearning)
      .transform((n) => n as State)
      .describe('0 New, 1 Learning, 2 Review, 3 Relearning.'),
    last_review: isoDate.optional(),
  })
  .describe('The FSRS card of one concept.');
export type ConceptCard = z.output<typeof ConceptCardSchema>;

/** Progress is the whole stored state. */
export interface Progress {
  version: typeof PROGRESS_VERSION;
  questions: Record<string, QuestionRecord>;
  concepts: Record<string, ConceptCard>;
}

/** ProgressWarning tells the UI what loading or importing had to repair. `id` names the entry. */
export interface ProgressWarning {
  code:
    | 'unreadable' // not JSON at all: started afresh
    | 'truncated' // JSON cut short or broken part-way: kept what came before
    | 'not-object' // JSON, but not an object
    | 'dropped-question' // one question record was broken and was dropped
    | 'dropped-concept' // one concept card was broken and was dropped
    | 'migrated' // an older format was upgraded
    | 'newer-version' // written by a newer version of the site: read what could be read
    | 'unknown-version' // a version this site never wrote: read what could be read
    | 'not-saved'; // storage refused the write (full or disabled)
  id?: string;
  detail?: string;
}

/** Loaded is progress with the repairs made to read it. */
export interface Loaded {
  progress: Progress;
  warnings: ProgressWarning[];
  /** repaired is true when what is stored differs from `progress` and should be written back. */
  repaired: boolean;
}

/** StorageLike is the part of the Web Storage API progress needs (localStorage, or a test double). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Catalog maps question ids to what the site knows about them (for migrating older formats). */
export type Catalog = Record<string, { lesson: string; concepts: string[] }>;

/** emptyProgress is progress with nothing in it. */
export function emptyProgress(): Progress {
  return { version: PROGRESS_VERSION, questions: {}, concepts: {} };
}

// --- Reading JSON that may be cut short ----------------------------------------------------

/**
 * salvageJson parses JSON text. When the text breaks off or goes wrong part-way, it returns what
 * it had read up to there: objects and arrays keep the members that were complete, and the value
 * being read when the text broke is left out. complete says whether the whole text was valid;
 * partial holds the objects and arrays that were cut short (their members are intact, but some
 * may be missing).
 */
export function salvageJson(text: string): {
  value: unknown;
  complete: boolean;
  partial: WeakSet<object>;
} {
  const partial = new WeakSet<object>();
  let i = 0;
  const BROKEN = Symbol('broken');
  class Stop extends Error {}
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const str = (): string => {
    // text[i] is the opening quote.
    let j = i + 1;
    let out = '';
    while (j < text.length) {
      const c = text[j] as string;
      if (c === '"') {
        i = j + 1;
        return out;
      }
      if (c === '\\') {
        const esc = text.slice(j, j + 6);
        const m = /^\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/.exec(esc);
        if (!m) throw new Stop();
        out += JSON.parse(`"${m[0]}"`) as string;
        j += m[0].length;
        continue;
      }
      if (c < ' ') throw new Stop();
      out += c;
      j++;
    }
    throw new Stop();
  };
  // value returns BROKEN for a value that started but could not be finished; containers return
  // what they had.
  let broken = false;
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') return fail(obj);
        let key: string;
        try {
          key = str();
        } catch {
          return fail(obj);
        }
        ws();
        if (text[i] !== ':') return fail(obj);
        i++;
        const v = value();
        if (v === BROKEN) return fail(obj);
        if (broken) {
          // A container inside was cut short: keep its salvaged part, and stop here.
          obj[key] = v;
          return fail(obj);
        }
        obj[key] = v;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        return fail(obj);
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        const v = value();
        if (v === BROKEN) return fail(arr);
        arr.push(v);
        if (broken) return fail(arr);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        return fail(arr);
      }
    }
    if (c === '"') {
      try {
        return str();
      } catch {
        broken = true;
        return BROKEN;
      }
    }
    const m = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(
      text.slice(i, i + 40),
    );
    // A number at the very end may have been cut (12 of 125), so it is not trusted.
    if (m && i + m[0].length < text.length) {
      i += m[0].length;
      return JSON.parse(m[0]) as unknown;
    }
    broken = true;
    return BROKEN;
  };
  const fail = <T extends object>(cut: T): T => {
    broken = true;
    partial.add(cut);
    return cut;
  };
  const v = value();
  ws();
  const complete = !broken && i === text.length;
  return { value: v === BROKEN ? undefined : v, complete, partial };
}

// --- Decoding, migration and repair ----------------------------------------------------------

const plainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** issueText says in one line what was wrong with an entry. */
function issueText(e: z.ZodError): string {
  const i = e.issues[0];
  if (!i) return 'invalid';
  return `${i.path.length ? i.path.join('.') : '(entry)'}: ${i.message}`;
}

const V1Answer = z.object({ score: z.number().min(0).max(1), at: isoDate });

/**
 * decodeProgress turns parsed JSON (of any known version) into current progress, keeping every
 * intact entry and dropping the broken ones, each with a warning. It never throws.
 */
export function decodeProgress(
  raw: unknown,
  catalog: Catalog = {},
  cut: (v: object) => boolean = () => false,
): Loaded {
  const warnings: ProgressWarning[] = [];
  const progress = emptyProgress();
  if (!plainObject(raw)) {
    if (raw !== undefined) warnings.push({ code: 'not-object' });
    return { progress, warnings, repaired: true };
  }
  const version = raw.version;
  if (version === undefined || version === 1) {
    // Version 1 kept { answers }; the unversioned prototype was the answers map itself.
    const answers = version === 1 || plainObject(raw.answers) ? raw.answers : raw;
    warnings.push({ code: 'migrated', detail: version === 1 ? 'version 1' : 'unversioned' });
    const v1: { id: string; score: number; at: string }[] = [];
    if (plainObject(answers)) {
      for (const [id, a] of Object.entries(answers)) {
        const r = V1Answer.safeParse(a);
        if (r.success && !cut(a as object)) v1.push({ id, ...r.data });
        else
          warnings.push({
            code: 'dropped-question',
            id,
            detail: r.success ? 'cut short' : issueText(r.error),
          });
      }
    }
    // Replay the old answers in time order, so concepts the catalog knows get FSRS cards.
    v1.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
    for (const a of v1) {
      const known = catalog[a.id];
      const rec: QuestionRecord = {
        attempts: 1,
        bestScore: a.score,
        solved: a.score >= 1,
        lesson: known?.lesson ?? '',
        concepts: known?.concepts ?? [],
        lastScore: a.score,
        lastAt: a.at,
      };
      progress.questions[a.id] = rec;
      for (const c of rec.concepts)
        progress.concepts[c] = reviewCard(
          progress.concepts[c],
          ratingFor({ score: a.score, correct: a.score >= 1, attempt: 1 }),
          new Date(a.at),
        );
    }
    return { progress, warnings, repaired: true };
  }
  // A newer site may have added fields; an unknown version is read as the current one, entry by entry.
  if (typeof version === 'number' && version > PROGRESS_VERSION)
    warnings.push({ code: 'newer-version', detail: String(version) });
  else if (version !== PROGRESS_VERSION)
    warnings.push({ code: 'unknown-version', detail: JSON.stringify(version) });
  let repaired = version !== PROGRESS_VERSION;
  if (plainObject(raw.questions)) {
    for (const [id, q] of Object.entries(raw.questions)) {
      const r = QuestionRecordSchema.safeParse(q);
      if (r.success && !cut(q as object)) progress.questions[id] = r.data;
      else {
        warnings.push({
          code: 'dropped-question',
          id,
          detail: r.success ? 'cut short' : issueText(r.error),
        });
        repaired = true;
      }
    }
  } else if (raw.questions !== undefined) {
    warnings.push({ code: 'dropped-question', detail: 'questions: expected an object' });
    repaired = true;
  }
  if (plainObject(raw.concepts)) {
    for (const [id, c] of Object.entries(raw.concepts)) {
      const r = ConceptCardSchema.safeParse(c);
      if (r.success && !cut(c as object)) progress.concepts[id] = r.data;
      else {
        warnings.push({
          code: 'dropped-concept',
          id,
          detail: r.success ? 'cut short' : issueText(r.error),
        });
        repaired = true;
      }
    }
  } else if (raw.concepts !== undefined) {
    warnings.push({ code: 'dropped-concept', detail: 'concepts: expected an object' });
    repaired = true;
  }
  return { progress, warnings, repaired };
}

/** parseProgress reads stored text: salvages what it can and decodes it. Never throws. */
export function parseProgress(text: string | null, catalog: Catalog = {}): Loaded {
  if (text === null || text.trim() === '')
    return { progress: emptyProgress(), warnings: [], repaired: false };
  const { value, complete, partial } = salvageJson(text);
  if (!plainObject(value)) {
    const code = value === undefined ? 'unreadable' : 'not-object';
    return { progress: emptyProgress(), warnings: [{ code }], repaired: true };
  }
  const loaded = decodeProgress(value, catalog, (v) => partial.has(v));
  if (!complete) {
    loaded.warnings.unshift({ code: 'truncated' });
    loaded.repaired = true;
  }
  return loaded;
}

/** loadProgress reads progress from storage. Never throws (a storage that throws reads as empty). */
export function loadProgress(storage: StorageLike, catalog: Catalog = {}): Loaded {
  let text: string | null;
  try {
    text = storage.getItem(PROGRESS_KEY);
  } catch (e) {
    return {
      progress: emptyProgress(),
      warnings: [{ code: 'unreadable', detail: String(e) }],
      repaired: false,
    };
  }
  return parseProgress(text, catalog);
}

/** saveProgress writes progress; it returns a warning instead of throwing when storage refuses. */
export function saveProgress(storage: StorageLike, p: Progress): ProgressWarning | undefined {
  try {
    storage.setItem(PROGRESS_KEY, JSON.stringify(p));
    return undefined;
  } catch (e) {
    return { code: 'not-saved', detail: String(e) };
  }
}

/** resetProgress forgets everything. */
export function resetProgress(storage: StorageLike): ProgressWarning | undefined {
  try {
    storage.removeItem(PROGRESS_KEY);
    return undefined;
  } catch (e) {
    return { code: 'not-saved', detail: String(e) };
  }
}

// --- Recording graded answers ----------------------------------------------------------------

/** Graded is the detail of the `quiz:graded` event a question dispatches after grading. */
export interface Graded {
  id: string;
  lesson: string;
  concepts: string[];
  /** score is 0..1, after hint costs. */
  score: number;
  correct: boolean;
  variant: number;
  /** attempt counts submissions in this round, from 1. */
  attempt: number;
  /** final is true when the round is over: solved, or no attempts left. */
  final: boolean;
  selfAssessed?: boolean;
}

/** GradedSchema validates an event detail before it is recorded. */
export const GradedSchema = z.object({
  id: z.string().min(1),
  lesson: z.string(),
  concepts: z.array(z.string()),
  score: z.number().min(0).max(1),
  correct: z.boolean(),
  variant: z.number().int(),
  attempt: z.number().int().min(1),
  final: z.boolean(),
  selfAssessed: z.boolean().optional(),
});

/**
 * ratingFor maps a graded round to an FSRS rating: wrong → Again, partly right → Hard, right →
 * Good, right on the first try with no hint used → Easy. A self-assessed answer is at most Good:
 * the learner's own tick is weaker evidence than the simulator's.
 */
export function ratingFor(
  g: Pick<Graded, 'score' | 'correct' | 'attempt' | 'selfAssessed'>,
): Grade {
  if (!g.correct) return g.score > 0 ? Rating.Hard : Rating.Again;
  if (g.attempt === 1 && g.score >= 1 && !g.selfAssessed) return Rating.Easy;
  return Rating.Good;
}

// FSRS runs without fuzz (so schedules are reproducible) and without short-term learning steps
// (a course reviews concepts over days, not minutes).
const scheduler = fsrs({ enable_fuzz: false, enable_short_term: false });

const toCard = (c: ConceptCard): Card => ({
  ...c,
  due: new Date(c.due),
  last_review: c.last_review === undefined ? undefined : new Date(c.last_review),
});

const fromCard = (c: Card): ConceptCard => ({
  due: c.due.toISOString(),
  stability: c.stability,
  difficulty: c.difficulty,
  elapsed_days: c.elapsed_days,
  scheduled_days: c.scheduled_days,
  learning_steps: c.learning_steps,
  reps: c.reps,
  lapses: c.lapses,
  state: c.state,
  ...(c.last_review ? { last_review: c.last_review.toISOString() } : {}),
});

/** reviewCard schedules a concept's card after a review with the given rating at now. */
export function reviewCard(card: ConceptCard | undefined, rating: Grade, now: Date): ConceptCard {
  const c = card ? toCard(card) : createEmptyCard(now);
  // A review dated before the card's last one (clock change, import) is taken as happening now.
  const at = c.last_review && now < c.last_review ? c.last_review : now;
  return fromCard(scheduler.next(c, at, rating).card);
}

/**
 * recordGraded returns progress with one graded submission added. Every submission updates the
 * question's record; only the last of a round (final) reviews its concepts' FSRS cards, so
 * retrying within a round does not count as several reviews.
 */
export function recordGraded(p: Progress, g: Graded, now: Date): Progress {
  const prev = p.questions[g.id];
  const rec: QuestionRecord = {
    attempts: (prev?.attempts ?? 0) + 1,
    bestScore: Math.max(prev?.bestScore ?? 0, g.score),
    solved: (prev?.solved ?? false) || g.correct,
    lesson: g.lesson || prev?.lesson || '',
    concepts: g.concepts.length ? [...g.concepts] : (prev?.concepts ?? []),
    lastVariant: g.variant,
    lastScore: g.score,
    lastAt: now.toISOString(),
    ...(g.selfAssessed ? { selfAssessed: true } : {}),
  };
  const concepts = { ...p.concepts };
  if (g.final) {
    const rating = ratingFor(g);
    for (const c of rec.concepts) concepts[c] = reviewCard(concepts[c], rating, now);
  }
  return { ...p, questions: { ...p.questions, [g.id]: rec }, concepts };
}

/**
 * closeRound reviews the concepts of a round that ended without a final submission (an interview
 * round finished or timed out while attempts were left): the last submission decides the rating.
 * The question's record is left as it is; the submission was already counted.
 */
export function closeRound(p: Progress, g: Graded, now: Date): Progress {
  const concepts = { ...p.concepts };
  const rating = ratingFor(g);
  for (const c of g.concepts) concepts[c] = reviewCard(concepts[c], rating, now);
  return { ...p, concepts };
}

// --- Export, import --------------------------------------------------------------------------

/** exportProgress is the text of an export file: the stored format, with when it was made. */
export function exportProgress(p: Progress, now: Date): string {
  return `${JSON.stringify({ ...p, exportedAt: now.toISOString() }, null, 2)}\n`;
}

/** exportFileName names an export file by date, e.g. k8s-lab-progress-2026-11-29.json. */
export function exportFileName(now: Date): string {
  return `k8s-lab-progress-${now.toISOString().slice(0, 10)}.json`;
}

/** ImportMode: merge keeps this browser's progress and adds the file's; replace discards it. */
export type ImportMode = 'merge' | 'replace';

/** ImportResult is the progress after an import, or why the file was refused. */
export type ImportResult =
  | {
      ok: true;
      progress: Progress;
      warnings: ProgressWarning[];
      questions: number;
      concepts: number;
    }
  | { ok: false; reason: 'not-json' | 'not-progress' };

/**
 * importProgress reads an export file. A file that is not JSON, or not progress at all, is refused
 * and changes nothing; broken entries inside a good file are dropped with warnings.
 */
export function importProgress(
  text: string,
  current: Progress,
  mode: ImportMode,
  catalog: Catalog = {},
): ImportResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not-json' };
  }
  if (!plainObject(raw) || !('version' in raw || 'answers' in raw || 'questions' in raw))
    return { ok: false, reason: 'not-progress' };
  const { progress: incoming, warnings } = decodeProgress(raw, catalog);
  const counts = {
    questions: Object.keys(incoming.questions).length,
    concepts: Object.keys(incoming.concepts).length,
  };
  if (mode === 'replace') return { ok: true, progress: incoming, warnings, ...counts };
  return { ok: true, progress: mergeProgress(current, incoming), warnings, ...counts };
}

/**
 * mergeProgress combines two progress records, such as two browsers' exports. For a question it
 * keeps the best score, solved if either solved it, the larger attempt count and the later
 * submission's variant and time; for a concept, the card reviewed most recently.
 */
export function mergeProgress(a: Progress, b: Progress): Progress {
  const questions: Record<string, QuestionRecord> = { ...a.questions };
  for (const [id, q] of Object.entries(b.questions)) {
    const p = questions[id];
    if (!p) {
      questions[id] = q;
      continue;
    }
    const later = q.lastAt > p.lastAt ? q : p;
    questions[id] = {
      ...later,
      attempts: Math.max(p.attempts, q.attempts),
      bestScore: Math.max(p.bestScore, q.bestScore),
      solved: p.solved || q.solved,
      lesson: later.lesson || p.lesson || q.lesson,
      concepts: later.concepts.length
        ? later.concepts
        : p.concepts.length
          ? p.concepts
          : q.concepts,
    };
  }
  const concepts: Record<string, ConceptCard> = { ...a.concepts };
  for (const [id, c] of Object.entries(b.concepts)) {
    const p = concepts[id];
    if (!p || (c.last_review ?? '') > (p.last_review ?? '')) concepts[id] = c;
  }
  return { version: PROGRESS_VERSION, questions, concepts };
}

// --- Summaries for the UI --------------------------------------------------------------------

/** countSolved counts the ids that have been solved. */
export function countSolved(p: Progress, ids: readonly string[]): number {
  return ids.filter((id) => p.questions[id]?.solved).length;
}

/** ConceptDue is a concept with when it is next due. */
export interface ConceptDue {
  concept: string;
  due: Date;
  card: ConceptCard;
}

/**
 * reviewQueue splits the concepts with cards into those due now (due ≤ now, most overdue first)
 * and those coming up (soonest first).
 */
export function reviewQueue(p: Progress, now: Date): { due: ConceptDue[]; upcoming: ConceptDue[] } {
  const all = Object.entries(p.concepts)
    .map(([concept, card]) => ({ concept, card, due: new Date(card.due) }))
    .sort((x, y) => x.due.getTime() - y.due.getTime() || x.concept.localeCompare(y.concept));
  return { due: all.filter((c) => c.due <= now), upcoming: all.filter((c) => c.due > now) };
}

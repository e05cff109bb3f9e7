// The quiz worker: a page has up to two, each shared by the questions of its kinds (one for
// questions graded against a computed key, one for what-if and task questions, whose answers are
// graded by running the scenario). It runs the simulator for the learner's variant
// (computeKey), grades answers against it (grade) and picks the evidence for wrong answers, so
// the main thread never runs a scenario. Keyed variants are cached.
// The island asks for every answer to be graded ahead ("speculate"), so that Check usually finds
// the result ready: key-based answers as soon as they change (a comparison with the cached key),
// what-if and task answers, which run the scenario again with the answer, once the learner pauses
// over a finished answer. Grading is a pure function of question, variant and answer, so a
// result graded ahead is exactly the one Check would compute.

/// <reference lib="webworker" />
import {
  computeKey,
  computeKeySteps,
  drive,
  grade,
  runVariantSteps,
  taskStartSteps,
  type TaskStart,
  solutionOf,
  MAX_COMMANDS,
  commandLines,
  variantOf,
  redact,
  type Keyed,
} from '../../quiz/grade.ts';
import { seedOf, shuffleNotKey } from '../../quiz/page.ts';
import { evidence, type Fact } from '../../quiz/evidence.ts';
import type { Question } from '../../quiz/schema.ts';
import type { GradeResult, Payload, Request, Response } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

const questions = new Map<string, { q: Question; payload: Payload }>();
/** keyed caches computed keys by question and variant; the oldest go first past CACHE_SIZE. */
const keyed = new Map<string, Keyed>();
const CACHE_SIZE = 64;
/** keyEvidence caches "What the cluster did" for a variant's own run (it does not depend on the answer). */
const keyEvidence = new Map<string, Fact[] | undefined>();
/** ahead holds results graded before Check, by question, variant and answer. */
const ahead = new Map<string, GradeResult>();
const AHEAD_SIZE = 8;

/** remember caches a value; past size entries, the oldest goes first. */
function remember<V>(cache: Map<string, V>, key: string, value: V, size: number): void {
  cache.set(key, value);
  if (cache.size > size) cache.delete(cache.keys().next().value!);
}

function question(qid: string): { q: Question; payload: Payload } {
  const entry = questions.get(qid);
  if (!entry) throw new Error(`unknown question ${qid}`);
  return entry;
}

/** keyFor returns the cached key of a variant, computing it on first use. */
function keyFor(qid: string, v: number): Keyed {
  const cacheKey = `${qid}#${v}`;
  const hit = keyed.get(cacheKey);
  if (hit) return hit;
  const { q, payload } = question(qid);
  const k = computeKey(q, payload.scenarioYaml, variantOf(q, v));
  remember(keyed, cacheKey, k, CACHE_SIZE);
  return k;
}

/** SLICE_BUDGET_MS is how long a key run works before it lets waiting requests through. */
const SLICE_BUDGET_MS = 8;
/** pending holds the key runs under way, so that a variant's key is worked out once. */
const pending = new Map<string, Promise<Keyed>>();

/** pause lets the worker take the messages that arrived (a MessageChannel, unlike setTimeout, is not clamped). */
function pause(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    // Bound to a const first: a function literal assigned to a property is pretenured and would
    // keep the paused grading alive through young-generation GCs (eslint.config.js).
    const resume = () => resolve();
    ch.port1.onmessage = resume;
    ch.port2.postMessage(0);
  });
}

/** inSlices runs a generator of slices, letting waiting requests through every SLICE_BUDGET_MS. */
async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
  let since = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - since > SLICE_BUDGET_MS) {
      await pause();
      since = performance.now();
    }
  }
}

/**
 * keyForInSlices is keyFor for prepare: the key run pauses every SLICE_BUDGET_MS, so that a Check
 * on a question already prepared is graded at once instead of waiting for this run to end. The
 * run is the same as keyFor's (grade.ts advance).
 */
async function keyForInSlices(qid: string, v: number): Promise<Keyed> {
  const cacheKey = `${qid}#${v}`;
  const hit = keyed.get(cacheKey);
  if (hit) return hit;
  const running = pending.get(cacheKey);
  if (running) return running;
  const { q, payload } = question(qid);
  const work = inSlices(computeKeySteps(q, payload.scenarioYaml, variantOf(q, v)));
  pending.set(cacheKey, work);
  try {
    const k = await work;
    remember(keyed, cacheKey, k, CACHE_SIZE);
    return k;
  } finally {
    pending.delete(cacheKey);
  }
}

/** prepare registers a question and works out the key of a variant, in slices. */
async function prepare(req: Extract<Request, { type: 'prepare' }>): Promise<Response> {
  register(req.payload);
  const k = await keyForInSlices(req.payload.id, req.v);
  // A wrong answer shows the key run's evidence: work it out once the worker is idle, so that
  // Check does not pay for it.
  const { id } = req.payload;
  if (req.payload.question.kind !== 'what-if') setTimeout(() => evidenceOf(id, req.v), 0);
  if (req.payload.question.kind === 'task') setTimeout(() => void playStart(id, req.v), 0);
  // The page's order was shuffled at build for variant 0; this variant's key may be that order.
  let order: string[] | undefined;
  if (k.key.kind === 'ordering' && req.order && req.order.join('\n') === k.key.values.join('\n'))
    order = shuffleNotKey(req.order, k.key.values, seedOf(id, req.v));
  return { id: req.id, ok: true, variant: k.variant, order };
}

/**
 * starts holds, per task question, its variant played to the moment the learner's commands run;
 * a Check or a console request takes it (a run serves once) and another is played in the
 * background, in slices, for the next one. A Check then pays for the commands and the settle time
 * only, not for the cluster's start and the scenario's first seconds.
 */
const starts = new Map<string, TaskStart>();
const startsUnderWay = new Set<string>();

function takeStart(qid: string, v: number): TaskStart | undefined {
  const key = `${qid}#${v}`;
  const start = starts.get(key);
  starts.delete(key);
  setTimeout(() => void playStart(qid, v), 0);
  return start;
}

async function playStart(qid: string, v: number): Promise<void> {
  const key = `${qid}#${v}`;
  if (starts.has(key) || startsUnderWay.has(key)) return;
  const { q, payload } = question(qid);
  if (q.kind !== 'task' || payload.scenarioYaml === undefined) return;
  startsUnderWay.add(key);
  try {
    const start = await inSlices(taskStartSteps(q, payload.scenarioYaml, variantOf(q, v)));
    // Only the question's current variant is kept.
    for (const k of starts.keys()) if (k.startsWith(`${qid}#`)) starts.delete(k);
    starts.set(key, start);
  } finally {
    startsUnderWay.delete(key);
  }
}

/** register keeps the question the page carried (it has no fixtures: the build's audit ran them). */
function register(p: Payload): void {
  if (questions.has(p.id)) return;
  const q = p.question;
  (q as { fixtures: unknown }).fixtures = { correct: [], wrong: [] };
  questions.set(p.id, { q, payload: p });
}

function aheadKey(qid: string, v: number, answer: unknown, reveal: boolean): string {
  return `${qid}#${v}#${reveal}#${JSON.stringify(answer)}`;
}

/**
 * gradeAnswer grades one answer and picks what "What the cluster did" shows. Without reveal, a
 * wrong answer's result keeps only what concerns the answer itself (GradeResult).
 */
function gradeAnswer(
  qid: string,
  v: number,
  answer: Parameters<typeof grade>[2],
  reveal: boolean,
): GradeResult {
  const start = performance.now();
  const k = keyFor(qid, v);
  const { q, payload } = question(qid);
  // An answer grade() turns away without a run (no commands, too many) leaves the start for the next.
  const lines = answer.kind === 'task' ? commandLines(answer.commands).length : 0;
  const from =
    q.kind === 'task' && lines > 0 && lines <= MAX_COMMANDS ? takeStart(qid, v) : undefined;
  const { run: answerRun, ...g } = grade(q, k, answer, payload.scenarioYaml, from, payload.lang);
  // What-if answers always show their own run's moments (the point is to see them move);
  // other kinds show the key run's moments after a wrong answer.
  const revealed = reveal || g.correct;
  const facts =
    q.kind === 'what-if' && answerRun
      ? evidence(q, answerRun)
      : revealed && !g.invalid && !g.correct
        ? evidenceOf(qid, v)
        : undefined;
  return {
    grade: revealed ? g : redact(q, g),
    revealed,
    values: revealed ? k.values : { ...k.variant.params },
    answerText: revealed ? k.answerText : undefined,
    evidence: facts,
    seed: k.variant.seed,
    ms: performance.now() - start,
  };
}

/** evidenceOf returns the key run's evidence for a variant, computed once. */
function evidenceOf(qid: string, v: number): Fact[] | undefined {
  const cacheKey = `${qid}#${v}`;
  if (keyEvidence.has(cacheKey)) return keyEvidence.get(cacheKey);
  const k = keyFor(qid, v);
  const facts = k.run ? evidence(question(qid).q, k.run) : undefined;
  remember(keyEvidence, cacheKey, facts, CACHE_SIZE);
  return facts;
}

/** handle answers every request but prepare (prepare() works in slices). */
function handle(req: Exclude<Request, { type: 'prepare' }>): Response {
  switch (req.type) {
    case 'grade': {
      const start = performance.now();
      const hit = ahead.get(aheadKey(req.qid, req.v, req.answer, req.reveal));
      const result = hit ?? gradeAnswer(req.qid, req.v, req.answer, req.reveal);
      return { id: req.id, ok: true, result: { ...result, ms: performance.now() - start } };
    }
    case 'speculate': {
      const k = aheadKey(req.qid, req.v, req.answer, req.reveal);
      let result = ahead.get(k);
      if (!result)
        remember(
          ahead,
          k,
          (result = gradeAnswer(req.qid, req.v, req.answer, req.reveal)),
          AHEAD_SIZE,
        );
      return { id: req.id, ok: true, result };
    }
    case 'solution': {
      // What-if and task example solutions are in the answers file (the island loads it).
      const k = keyFor(req.qid, req.v);
      const q = question(req.qid).q;
      return {
        id: req.id,
        ok: true,
        solution: q.kind === 'what-if' || q.kind === 'task' ? undefined : solutionOf(q, k),
        values: k.values,
        answerText: k.answerText,
        evidence: q.kind === 'what-if' ? undefined : evidenceOf(req.qid, req.v),
      };
    }
    case 'console': {
      const { q, payload } = question(req.qid);
      if (q.kind !== 'task' || payload.scenarioYaml === undefined)
        return { id: req.id, ok: false, error: 'not a task' };
      const lines = commandLines(req.commands)
        .slice(0, MAX_COMMANDS)
        .map((l) => l.slice(0, 2000));
      const run = drive(
        runVariantSteps(
          payload.scenarioYaml,
          variantOf(q, req.v),
          { commands: { at: q.start, lines }, until: q.start * 1000, lang: payload.lang },
          takeStart(req.qid, req.v),
        ),
      );
      return { id: req.id, ok: true, outputs: run.outputs };
    }
  }
}

const onRequest = (ev: MessageEvent<Request>): void => {
  const req = ev.data;
  const failed = (err: unknown): Response => ({
    id: req.id,
    ok: false,
    error: err instanceof Error ? err.message : String(err),
  });
  if (req.type === 'prepare') {
    prepare(req).then(
      (res) => self.postMessage(res),
      (err) => self.postMessage(failed(err)),
    );
    return;
  }
  let res: Response;
  try {
    res = handle(req);
  } catch (err) {
    res = failed(err);
  }
  self.postMessage(res);
};
self.onmessage = onRequest;

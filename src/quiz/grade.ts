// grade computes a question's key for a learner's variant by running the simulator, and grades an
// answer against it. Pure and synchronous: the same code runs in the quiz worker (browser), in the
// build-time audit and in the tests. Key runs are also available as generators that pause between
// slices of virtual time (computeKeySteps), so the worker can answer a Check while it works out a
// neighbouring question's key; a run in slices is the same run.

import { OUTPUT_RESOURCES, ScenarioRun, bornImageSteps, drive, parseScenario, substitute, untilInSlices, type CommandOutput } from '../../sim/index.ts';
import { measure, needsFullTrace, MeasureError, type Measured, type RunView } from './measure.ts';
import type { Check, Question, Text } from './schema.ts';
import { parseNumber } from './number.ts';
import { consoleScript, lineLabel, localOutput, parseConsoleLine, type ConsoleLine } from '../lib/console.ts';

export { parseNumber, drive };

/** Lang is a site language. */
export type Lang = 'en' | 'ja';

/** Variant is one learner's version of a question: a simulator seed and parameter values. */
export interface Variant {
  /** v is the variant number the learner was dealt; seed and params follow from it. */
  v: number;
  seed: number;
  params: Record<string, string | number>;
}

/** mulberry32 is a small seeded PRNG for dealing variants (the simulator has its own). */
function mulberry32(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** variantOf deals variant number v of a question: the same v always gives the same variant. */
export function variantOf(q: Question, v: number): Variant {
  const rnd = mulberry32((v * 2654435761) ^ hash(q.id));
  const [lo, hi] = q.variants.seeds;
  const seed = lo + Math.floor(rnd() * (hi - lo + 1));
  const params: Record<string, string | number> = {};
  for (const [name, values] of Object.entries(q.variants.params)) params[name] = values[Math.floor(rnd() * values.length)] ?? values[0]!;
  return { v, seed, params };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export { substitute };

/** Run is a finished variant run: what measures read, plus captured command output. */
export interface Run extends RunView {
  outputs: { command: string; output: CommandOutput }[];
  /** rejected is the first scenario step that failed (kubectl or kube-apiserver turned it down). */
  rejected?: { command: string; message: string };
}

/** RunRequest says how to run a variant: extra parameters (what-if) or learner commands (task). */
export interface RunRequest {
  params?: Record<string, string | number>;
  /** commands run at `at` seconds: console lines as typed (commandLines), read with the lab's grammar (src/lib/console.ts). */
  commands?: { at: number; lines: string[] };
  /** lang is the language the console itself answers in (help, an unknown program); English if unset. */
  lang?: Lang;
  until?: number;
  /** kubectl runs one command at a time (seconds) for a predict reveal. */
  reveal?: { at: number; kubectl: string };
  full?: boolean;
}

/**
 * advance runs a scenario to t (ms) in slices, pausing after each but the last
 * (sim/engine/steps.ts). Scenario steps keep their own times too.
 */
function advance(run: ScenarioRun, t: number): Generator<void, void> {
  return untilInSlices(run.cluster.sim.now(), t, (at) => run.runUntil(at));
}

/** runVariant plays the question's scenario for a variant. scenarioYaml is the scenario file's text. */
export function runVariant(scenarioYaml: string, variant: Variant, req: RunRequest = {}): Run {
  return drive(runVariantSteps(scenarioYaml, variant, req));
}

/** runVariantSteps is runVariant as slices (see advance). */
export function* runVariantSteps(scenarioYaml: string, variant: Variant, req: RunRequest = {}, start?: TaskStart): Generator<void, Run> {
  const { run, scenario, initial } = start ?? (yield* beginVariant(scenarioYaml, variant, req));
  const until = req.until ?? run.until;
  const outputs: Run['outputs'] = [];
  const stops = [req.commands?.at, req.reveal?.at].filter((t): t is number => t !== undefined).sort((a, b) => a - b);
  for (const t of stops) {
    yield* advance(run, t * 1000);
    if (req.commands && req.commands.at === t)
      for (const line of req.commands.lines) {
        const c = consoleLine(line);
        const command = lineLabel(c, line);
        if (c.kind === 'kubectl') outputs.push({ command, output: run.cluster.kubectl(c.args) });
        else if (c.kind === 'exec') outputs.push({ command, output: run.cluster.exec(c.node, c.line) });
        else if (c.kind !== 'empty') outputs.push({ command, output: localOutput(c, req.lang ?? 'en', 'task')! });
      }
    if (req.reveal && req.reveal.at === t) outputs.push({ command: `kubectl ${req.reveal.kubectl}`, output: run.cluster.kubectl(req.reveal.kubectl) });
  }
  yield* advance(run, until);
  const failed = run.outputs.find((o) => o.exitCode !== 0);
  return {
    initial,
    trace: run.cluster.sim.trace,
    changes: run.cluster.apiserver.changes,
    stepTimes: scenario.steps.map((s) => s.at / 1000),
    until: until / 1000,
    outputs,
    rejected: failed ? { command: failed.command, message: (failed.stderr || failed.stdout).trim() } : undefined,
  };
}

/**
 * beginVariant builds a variant's cluster at time 0 (its birth is before 0). The first cluster of
 * a shape also simulates that shape's born image, in slices (sim/cluster/cluster.ts).
 */
function* beginVariant(scenarioYaml: string, variant: Variant, req: RunRequest): Generator<void, VariantRun> {
  const text = substitute(scenarioYaml, { ...variant.params, ...req.params });
  const scenario = parseScenario(text, 'scenario');
  yield* bornImageSteps(scenario.cluster);
  const run = new ScenarioRun(scenario, { seed: variant.seed, traceLevel: req.full ? 'full' : 'requests', recordChanges: true, until: req.until });
  // The cluster is born before 0 without recording changes: keep its state at 0 to replay from.
  const initial: Run['initial'] = {};
  for (const r of OUTPUT_RESOURCES) initial[r] = run.cluster.apiserver.peekAll(r);
  return { run, scenario, initial, seed: variant.seed };
}

/** VariantRun is a variant's run, with its scenario and the state at time 0 (Run.initial). */
interface VariantRun {
  run: ScenarioRun;
  scenario: ReturnType<typeof parseScenario>;
  initial: Run['initial'];
  seed: number;
}

/**
 * TaskStart is a task's variant played up to the moment the learner's commands run (q.start),
 * with nothing typed yet. Every answer and every console line of that variant plays the same
 * run up to there, so the quiz worker keeps one ready and hands it to the next grading or console
 * request (once: the learner's commands change it). Grading from it gives the same run as
 * grading from scratch (test in grade.test.ts).
 */
export type TaskStart = VariantRun;

/** taskStartSteps plays a task's variant to its start, in slices (see advance). */
export function* taskStartSteps(q: Question, scenarioYaml: string, variant: Variant): Generator<void, TaskStart> {
  if (q.kind !== 'task') throw new Error(`question ${q.id} is not a task`);
  const start = yield* beginVariant(scenarioYaml, variant, { until: (q.start + q.settle) * 1000 });
  yield* advance(start.run, q.start * 1000);
  return start;
}

/** Key is what the simulator says the answer is, for one variant. */
export type Key =
  | { kind: 'choice'; values: string[] }
  | { kind: 'numeric'; value: number }
  | { kind: 'ordering'; values: string[] }
  | { kind: 'matching'; pairs: Record<string, string> }
  | { kind: 'checks' }
  | { kind: 'none' };

/** Keyed is a variant with its key and the measured values texts may quote. */
export interface Keyed {
  variant: Variant;
  key: Key;
  /** values fill {{name}} in texts: the variant's params, the `values` measures, and answer. */
  values: Record<string, string | number>;
  /** run is the key run (for feedback figures); absent for kinds graded by running the answer. */
  run?: Run;
  /** answerText is {{answer}} written for each language (item labels rather than values), when it differs from values.answer. */
  answerText?: Text;
  /** untouched says, for each check of a task, whether it already holds when the learner types nothing. */
  untouched?: boolean[];
}

function text(m: Measured): string {
  return Array.isArray(m) ? m.join(', ') : String(m);
}

/** computeKey runs the scenario for a variant and reads the key off the run. */
export function computeKey(q: Question, scenarioYaml: string | undefined, variant: Variant): Keyed {
  return drive(computeKeySteps(q, scenarioYaml, variant));
}

/** computeKeySteps is computeKey as slices: the worker pauses between them (see advance). */
export function* computeKeySteps(q: Question, scenarioYaml: string | undefined, variant: Variant): Generator<void, Keyed> {
  const values: Record<string, string | number> = { ...variant.params };
  if (q.kind === 'interview') return { variant, key: { kind: 'none' }, values };
  if (scenarioYaml === undefined) throw new MeasureError(`question ${q.id} needs its scenario`);
  const full = needsFullTrace(q);
  if (q.kind === 'task') {
    // A task is graded by running the learner's commands. The run with no commands says which
    // checks the broken cluster already passes: those earn nothing (checksGrade), so a task left
    // untouched scores 0. The texts may quote values of that run.
    const run = yield* runVariantSteps(scenarioYaml, variant, { until: (q.start + q.settle) * 1000, full: full || needsFullTrace(q.checks) });
    for (const [name, m] of Object.entries(q.values)) values[name] = text(measure(run, m));
    const untouched = runChecks(q.checks, run).map((c) => c.passed);
    return { variant, key: { kind: 'checks' }, values, run, untouched };
  }
  if (q.kind === 'what-if') {
    // Graded by running the learner's answer; the texts may still quote values of the plain run.
    if (Object.keys(q.values).length === 0) return { variant, key: { kind: 'checks' }, values };
    const defaults = q.kind === 'what-if' ? Object.fromEntries(q.params.map((p) => [p.name, p.default])) : {};
    const run = yield* runVariantSteps(scenarioYaml, variant, { params: defaults, full });
    for (const [name, m] of Object.entries(q.values)) values[name] = text(measure(run, m));
    return { variant, key: { kind: 'checks' }, values, run };
  }
  const run = yield* runVariantSteps(scenarioYaml, variant, { full, reveal: q.kind === 'predict' ? { at: q.observe.at, kubectl: q.observe.kubectl } : undefined });
  for (const [name, m] of Object.entries(q.values)) values[name] = text(measure(run, m));
  let key: Key;
  let answerText: Text | undefined;
  if (q.kind === 'choice' || (q.kind === 'predict' && q.options)) {
    const got = measure(run, q.measure);
    const set = new Set(Array.isArray(got) ? got : [String(got)]);
    key = { kind: 'choice', values: q.options!.filter((o) => set.has(o.value)).map((o) => o.value) };
    values.answer = q.options!.filter((o) => set.has(o.value)).map((o) => o.value).join(', ');
  } else if (q.kind === 'numeric' || q.kind === 'predict') {
    const got = measure(run, q.measure);
    if (typeof got !== 'number') throw new MeasureError(`question ${q.id}: the measure yields ${text(got)}, not a number`);
    key = { kind: 'numeric', value: got };
    values.answer = String(Math.round(got * 10) / 10);
  } else if (q.kind === 'ordering') {
    const times = q.items.map((it) => {
      const t = measure(run, { time: it.at });
      return { value: it.value, t: t as number };
    });
    const sorted = [...times].sort((a, b) => a.t - b.t);
    key = { kind: 'ordering', values: sorted.map((x) => x.value) };
    // The explanation quotes the order by the labels the learner sees, never by internal values.
    const label = (value: string) => q.items.find((it) => it.value === value)!.label;
    answerText = {
      en: sorted.map((x) => `${label(x.value).en} (${formatNumber(x.t)} s)`).join(' → '),
      ja: sorted.map((x) => `${label(x.value).ja}(${formatNumber(x.t)} 秒)`).join(' → '),
    };
    values.answer = answerText.en;
  } else {
    const pairs: Record<string, string> = {};
    for (const r of q.right) {
      const got = measure(run, r.measure);
      for (const c of Array.isArray(got) ? got : [String(got)]) if (q.left.some((l) => l.value === c)) pairs[c] = r.value;
    }
    key = { kind: 'matching', pairs };
    const right = (value: string | undefined) => q.right.find((r) => r.value === value)?.label;
    answerText = {
      en: q.left.map((l) => `${l.label.en} → ${right(pairs[l.value])?.en ?? '?'}`).join('; '),
      ja: q.left.map((l) => `${l.label.ja} → ${right(pairs[l.value])?.ja ?? '?'}`).join('、'),
    };
    values.answer = answerText.en;
  }
  return { variant, key, values, run, answerText };
}

/** formatNumber prints measured numbers without float noise: 300, 2.5. */
export function formatNumber(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/** Answer is what a learner submits; its shape depends on the kind. */
export type Answer =
  | { kind: 'choice'; values: string[] }
  | { kind: 'numeric'; text: string }
  | { kind: 'ordering'; values: string[] }
  | { kind: 'matching'; pairs: Record<string, string> }
  | { kind: 'what-if'; params: Record<string, string> }
  | { kind: 'task'; commands: string }
  /** of is how many rubric points the learner was shown (the page loads the rubric with the model answer). */
  | { kind: 'interview'; text: string; ticked: number[]; of?: number };

/** CheckResult is one check of a what-if or task answer. */
export interface CheckResult {
  label: Text;
  passed: boolean;
  weight: number;
  measured?: string;
}

/** Grade is the outcome of grading one answer. */
export interface Grade {
  /** invalid says why the answer could not be graded (no attempt is used up). */
  invalid?: Text;
  /** score is the fraction of the points earned, 0 to 1, before hint costs. */
  score: number;
  correct: boolean;
  /**
   * options marks each choice: chosen and right, chosen and wrong, or right but missed. "missed"
   * is part of the key: the worker drops it until the key is revealed (redact).
   */
  options?: Record<string, 'right' | 'wrong' | 'missed'>;
  /** direction says a wrong number is too high or too low (numeric and predict questions with `direction: true`). */
  direction?: 'high' | 'low';
  /** contradiction names two items a wrong order puts the wrong way round: `before` comes first in the answer, the run has it later. */
  contradiction?: { before: string; after: string };
  /** rows marks each row of a matching answer right or wrong (about the learner's own answer). */
  rows?: Record<string, 'right' | 'wrong'>;
  /** rejected says a what-if answer made kube-apiserver or kubectl turn a scenario step down: it scores 0. */
  rejected?: { command: string; message: string };
  checks?: CheckResult[];
  /** outputs are the kubectl outputs of a task or a predict reveal, to show after grading. */
  outputs?: { command: string; output: CommandOutput }[];
  /** selfAssessed marks interview answers: the learner ticked the rubric; nothing was graded. */
  selfAssessed?: boolean;
  /** run is the run made with a what-if or task answer (for evidence); never sent to the page. */
  run?: Run;
}

const invalid = (en: string, ja: string): Grade => ({ invalid: { en, ja }, score: 0, correct: false });

/** gradeNumber grades a typed number against the measured value, within an absolute tolerance. */
function gradeNumber(answer: Answer, value: number, tolerance: number, direction: boolean, outputs?: Grade['outputs']): Grade {
  if (answer.kind !== 'numeric' || answer.text.trim() === '') return invalid('Enter a number first.', '数値を入力してください。');
  const n = parseNumber(answer.text);
  if (n === undefined)
    return invalid('Enter a plain number, such as 42 or 12.5 (at most nine digits).', '42 や 12.5 のような数値を入力してください(9 桁まで)。');
  const correct = Math.abs(n - value) <= tolerance + 1e-9;
  const g: Grade = { score: correct ? 1 : 0, correct, outputs };
  if (!correct && direction) g.direction = n > value ? 'high' : 'low';
  return g;
}

function checkPasses(c: Check, got: Measured): boolean {
  if (c.equals !== undefined) return text(got) === String(c.equals);
  if (typeof got !== 'number') return false;
  return (c.min === undefined || got >= c.min) && (c.max === undefined || got <= c.max);
}

function runChecks(checks: Check[], run: Run): CheckResult[] {
  return checks.map((c) => {
    try {
      const got = measure(run, c.measure);
      return { label: c.label, passed: checkPasses(c, got), weight: c.weight, measured: text(got) };
    } catch (e) {
      if (e instanceof MeasureError) return { label: c.label, passed: false, weight: c.weight };
      throw e;
    }
  });
}

/**
 * checksGrade scores checks by weight. With `untouched` (a task: which checks already hold with no
 * commands typed), a check that held anyway earns nothing unless it says creditIfAlreadyTrue,
 * and breaking it counts against the answer: partial credit rewards what the learner fixed.
 */
function checksGrade(results: CheckResult[], outputs?: Grade['outputs'], untouched?: boolean[], checks?: Check[]): Grade {
  const free = (i: number) => Boolean(untouched?.[i]) && !checks?.[i]?.creditIfAlreadyTrue;
  let earnable = 0;
  let got = 0;
  let broken = 0;
  results.forEach((r, i) => {
    if (free(i)) {
      if (!r.passed) broken += r.weight;
      return;
    }
    earnable += r.weight;
    if (r.passed) got += r.weight;
  });
  const correct = results.every((r) => r.passed);
  const score = correct ? 1 : earnable + broken > 0 ? got / (earnable + broken) : 0;
  return { score, correct, checks: results, outputs };
}

/** MAX_COMMANDS bounds a task answer: a console session, not a script. */
export const MAX_COMMANDS = 20;

/**
 * commandLines reads a console answer with the console grammar the lab uses (src/lib/console.ts):
 * one command per line, blanks and # comments skipped, a leading "$ " prompt dropped.
 */
export function commandLines(text: string): string[] {
  return consoleScript(text);
}

/**
 * consoleLine reads a line of commandLines with the lab's grammar (parseConsoleLine): kubectl
 * (with or without "kubectl" typed), `ssh NODE COMMAND` run on NODE (Cluster.exec), or a line the
 * console answers itself (help, an unknown program: localOutput), as the lab's console does.
 */
export function consoleLine(line: string): ConsoleLine {
  return parseConsoleLine(line);
}

/**
 * grade grades an answer for a keyed variant. It never throws on learner input. lang is the page's
 * language, in which the console answers a task's own lines (help, an unknown program).
 */
export function grade(q: Question, keyed: Keyed, answer: Answer, scenarioYaml?: string, start?: TaskStart, lang: Lang = 'en'): Grade {
  const k = keyed.key;
  switch (q.kind) {
    case 'choice':
    case 'predict': {
      if (k.kind === 'choice') {
        if (answer.kind !== 'choice' || answer.values.length === 0) return invalid('Choose an answer first.', '答えを選んでください。');
        const known = new Set((q.options ?? []).map((o) => o.value));
        if (answer.values.some((v) => !known.has(v))) return invalid('That is not one of the options.', '選択肢にない答えです。');
        const right = new Set(k.values);
        const chosen = new Set(answer.values);
        const options: Record<string, 'right' | 'wrong' | 'missed'> = {};
        for (const o of q.options ?? []) {
          if (chosen.has(o.value)) options[o.value] = right.has(o.value) ? 'right' : 'wrong';
          else if (right.has(o.value)) options[o.value] = 'missed';
        }
        const multiple = q.kind === 'choice' && q.multiple;
        const hits = answer.values.filter((v) => right.has(v)).length;
        const misses = answer.values.length - hits;
        const correct = hits === right.size && misses === 0;
        const score = multiple ? Math.max(0, (hits - misses) / Math.max(1, right.size)) : correct ? 1 : 0;
        return { score, correct, options, outputs: keyed.run?.outputs };
      }
      if (k.kind !== 'numeric') break;
      return gradeNumber(answer, k.value, q.kind === 'predict' ? q.tolerance : 0, q.kind === 'predict' && q.direction, keyed.run?.outputs);
    }
    case 'numeric': {
      if (k.kind !== 'numeric') break;
      return gradeNumber(answer, k.value, q.tolerance, q.direction);
    }
    case 'ordering': {
      if (k.kind !== 'ordering') break;
      if (answer.kind !== 'ordering') return invalid('Put the items in order first.', '項目を並べ替えてください。');
      const want = new Set(q.items.map((i) => i.value));
      if (answer.values.length !== want.size || new Set(answer.values).size !== want.size || !answer.values.every((v) => want.has(v)))
        return invalid('Every item must appear exactly once.', 'すべての項目をちょうど一度ずつ並べてください。');
      const inPlace = answer.values.filter((v, i) => k.values[i] === v).length;
      const g: Grade = { score: inPlace / k.values.length, correct: inPlace === k.values.length };
      // Feedback about the learner's own order: the first two neighbours the run has the other way round.
      const rank = new Map(k.values.map((v, i) => [v, i]));
      for (let i = 0; i + 1 < answer.values.length; i++) {
        const [a, b] = [answer.values[i]!, answer.values[i + 1]!];
        if (rank.get(a)! > rank.get(b)!) {
          g.contradiction = { before: a, after: b };
          break;
        }
      }
      return g;
    }
    case 'matching': {
      if (k.kind !== 'matching') break;
      if (answer.kind !== 'matching') return invalid('Match every item first.', 'すべての項目を対応させてください。');
      const missing = q.left.filter((l) => !answer.pairs[l.value]);
      if (missing.length) return invalid('Match every item first.', 'すべての項目を対応させてください。');
      const rights = new Set(q.right.map((r) => r.value));
      if (q.left.some((l) => !rights.has(answer.pairs[l.value] ?? ''))) return invalid('That is not one of the options.', '選択肢にない答えです。');
      // Each answer fits one item (the audit checks that the key never uses one twice).
      const chosen = q.left.map((l) => answer.pairs[l.value]!);
      const twice = chosen.find((r, i) => chosen.indexOf(r) !== i);
      if (twice !== undefined) {
        const label = q.right.find((r) => r.value === twice)!.label;
        return invalid(
          `You chose “${label.en}” for two items; each answer fits exactly one item.`,
          `「${label.ja}」を 2 つの項目に選んでいます。1 つの答えが当てはまる項目は 1 つだけです。`,
        );
      }
      const rows: Record<string, 'right' | 'wrong'> = {};
      for (const l of q.left) rows[l.value] = k.pairs[l.value] === answer.pairs[l.value] ? 'right' : 'wrong';
      const ok = q.left.filter((l) => rows[l.value] === 'right').length;
      return { score: ok / q.left.length, correct: ok === q.left.length, rows };
    }
    case 'what-if': {
      if (answer.kind !== 'what-if' || scenarioYaml === undefined) break;
      const params: Record<string, number> = {};
      for (const p of q.params) {
        const raw = answer.params[p.name] ?? '';
        const n = parseNumber(raw);
        if (n === undefined || !Number.isInteger(n) || n < p.min || n > p.max || (n - p.min) % p.step !== 0)
          return invalid(
            `${p.label.en}: enter a whole number from ${p.min} to ${p.max}${p.step > 1 ? ` in steps of ${p.step}` : ''}.`,
            `${p.label.ja}: ${p.min} から ${p.max} までの整数を入力してください${p.step > 1 ? `(${p.step} 刻み)` : ''}。`,
          );
        params[p.name] = n;
      }
      const run = runVariant(scenarioYaml, keyed.variant, { params, full: needsFullTrace(q.checks) });
      // Values the cluster turns down (kube-apiserver's validation, kubectl's) are a wrong answer
      // that earns nothing: the checks of a run where the change never happened say nothing.
      if (run.rejected) return { score: 0, correct: false, checks: runChecks(q.checks, run).map((c) => ({ ...c, passed: false })), rejected: run.rejected, run };
      return { ...checksGrade(runChecks(q.checks, run)), run };
    }
    case 'task': {
      if (answer.kind !== 'task' || scenarioYaml === undefined) break;
      const lines = commandLines(answer.commands);
      if (lines.length === 0) return invalid('Type at least one command.', 'コマンドを 1 つ以上入力してください。');
      if (lines.length > MAX_COMMANDS) return invalid(`At most ${MAX_COMMANDS} commands, please.`, `コマンドは ${MAX_COMMANDS} 個までにしてください。`);
      if (lines.some((l) => l.length > 2000)) return invalid('A command is too long (2,000 characters at most).', 'コマンドが長すぎます(2,000 文字まで)。');
      const from = start?.seed === keyed.variant.seed ? start : undefined;
      const run = drive(runVariantSteps(scenarioYaml, keyed.variant, { commands: { at: q.start, lines }, until: (q.start + q.settle) * 1000, lang }, from));
      return checksGrade(runChecks(q.checks, run), run.outputs, keyed.untouched, q.checks);
    }
    case 'interview': {
      if (answer.kind !== 'interview') break;
      // The worker's copy has no rubric (src/quiz/page.ts publicQuestion): the answer says its size.
      const size = (q.rubric as Question['hints'] | undefined)?.length ?? answer.of ?? 0;
      if (!Number.isInteger(size) || size < 1 || size > 100) return invalid('Show the model answer and tick what you covered first.', '模範解答を表示して、触れた点にチェックを付けてください。');
      const ticked = new Set(answer.ticked.filter((i) => Number.isInteger(i) && i >= 0 && i < size));
      return { score: ticked.size / size, correct: ticked.size === size, selfAssessed: true };
    }
  }
  return invalid('This answer does not fit the question.', 'この問題に合わない答えです。');
}

/**
 * redact keeps what a grade says about the learner's own answer and drops what gives the key away
 * (the right option not chosen, the run's output next to a prediction), until the key is
 * revealed (the question's `reveal`). A right answer gives nothing away.
 */
export function redact(q: Question, g: Grade): Grade {
  if (g.correct || g.invalid) return g;
  const out: Grade = { ...g };
  if (g.options) out.options = Object.fromEntries(Object.entries(g.options).filter(([, m]) => m !== 'missed'));
  if (q.kind === 'predict') delete out.outputs;
  return out;
}

/** solutionOf is what "show solution" shows: the key, or a verified example answer. */
export function solutionOf(q: Question, keyed: Keyed): Answer | undefined {
  const k = keyed.key;
  if (k.kind === 'choice') return { kind: 'choice', values: k.values };
  if (k.kind === 'numeric') return { kind: 'numeric', text: formatNumber(k.value) };
  if (k.kind === 'ordering') return { kind: 'ordering', values: k.values };
  if (k.kind === 'matching') return { kind: 'matching', pairs: k.pairs };
  if (q.kind === 'what-if')
    return { kind: 'what-if', params: Object.fromEntries(Object.entries(q.fixtures.correct[0] ?? {}).map(([n, v]) => [n, String(v)])) };
  if (q.kind === 'task') return { kind: 'task', commands: (q.fixtures.correct[0] ?? []).join('\n') };
  return undefined;
}

/** fill fills a text's placeholders for a language. */
export function fill(t: Text, lang: Lang, values: Record<string, string | number>): string {
  return substitute(t[lang], values);
}

// The messages between quiz islands (main thread) and the one quiz worker they share. Every
// request carries an id; the worker answers with the same id. Types only, plus the page payload.

import type { Answer, Grade, Lang, Variant } from '../../quiz/grade.ts';
import type { Fact } from '../../quiz/evidence.ts';
import type { Question, Text } from '../../quiz/schema.ts';
import type { CommandOutput } from '../../../sim/index.ts';

/**
 * Payload is what Question.astro puts in the page for the worker: the question as the browser
 * grades with it (src/quiz/page.ts publicQuestion: no fixtures, explanation, model answer or
 * rubric) and its scenario. What is shown once the key is revealed is in the question's answers
 * file (src/quiz/page.ts Answers), fetched only then.
 */
export interface Payload {
  id: string;
  lesson?: string;
  question: Question;
  scenarioYaml?: string;
  /** lang is the page's language: the console answers a task's help and unknown programs in it. */
  lang: Lang;
}

/** Request is what an island asks the worker. */
export type Request =
  /** prepare works out a variant's key; `order` is the order the page shows an ordering question's items in. */
  | { id: number; type: 'prepare'; payload: Payload; v: number; order?: string[] }
  /** grade grades an answer; with `reveal` false the result says only what is wrong about the answer itself (see GradeResult). */
  | { id: number; type: 'grade'; qid: string; v: number; answer: Answer; reveal: boolean }
  /**
   * speculate grades an answer ahead of Check, keeps the result for it and sends it back: the
   * island shows it on Check if the answer is still the same.
   */
  | { id: number; type: 'speculate'; qid: string; v: number; answer: Answer; reveal: boolean }
  | { id: number; type: 'solution'; qid: string; v: number }
  | { id: number; type: 'console'; qid: string; v: number; commands: string };

/**
 * GradeResult is a grade with the values that fill the explanation, and evidence when wrong.
 * Unless `revealed` (a right answer, or a request with reveal), it carries nothing of the key:
 * the grade is redacted (src/quiz/grade.ts redact), values hold only the variant's parameters,
 * and evidence is only that of the learner's own run (what-if).
 */
export interface GradeResult {
  grade: Grade;
  /** revealed says the result carries the key: evidence of the key run, the measured values, the missed options. */
  revealed: boolean;
  /** values fill {{name}} in the explanation and option feedback. */
  values: Record<string, string | number>;
  /** answerText is {{answer}} for each language, when it differs from values.answer. */
  answerText?: Text;
  evidence?: Fact[];
  seed: number;
  /** ms is the worker's own time for this request (key computation included if not cached). */
  ms: number;
}

/** Response is the worker's answer, or an error message. */
export type Response =
  | {
      id: number;
      ok: true;
      variant?: Variant;
      /** order is where prepare moves an ordering question's items when the page showed them in the variant's key order. */
      order?: string[];
      result?: GradeResult;
      solution?: Answer;
      values?: Record<string, string | number>;
      answerText?: Text;
      /** evidence is "What the cluster did" in the key run, sent with a solution. */
      evidence?: Fact[];
      outputs?: { command: string; output: CommandOutput }[];
    }
  | { id: number; ok: false; error: string };

/** RequestBody is a request before the island stamps its id. */
export type RequestBody = Request extends infer R
  ? R extends Request
    ? Omit<R, 'id'>
    : never
  : never;

// The messages between quiz islands (main thread) and the one quiz worker they share. Every
// request carries an id; the worker answers with the same id. Types only, plus the page payload.

import type { Answer, Grade, Variant } from '../../quiz/grade.ts';
import type { Fact } from '../../quiz/evidence.ts';
import type { Question } from '../../quiz/schema.ts';
import type { CommandOutput } from '../../../sim/index.ts';

/**
 * Payload is what Question.astro puts in the page for the worker: the question without its wrong
 * fixtures, its scenario, and its example solutions sealed (see seal()) so they are not readable
 * in the HTML or indexed.
 */
export interface Payload {
  id: string;
  lesson?: string;
  question: Question;
  scenarioYaml?: string;
  /** sealed holds fixtures.correct of a what-if or task question, for "Show solution". */
  sealed?: string;
}

/** Request is what an island asks the worker. */
export type Request =
  | { id: number; type: 'prepare'; payload: Payload; v: number }
  | { id: number; type: 'grade'; qid: string; v: number; answer: Answer }
  /**
   * speculate grades an answer ahead of Check, keeps the result for it and sends it back: the
   * island shows it on Check if the answer is still the same.
   */
  | { id: number; type: 'speculate'; qid: string; v: number; answer: Answer }
  | { id: number; type: 'solution'; qid: string; v: number }
  | { id: number; type: 'console'; qid: string; v: number; commands: string };

/** GradeResult is a grade with the values that fill the explanation, and evidence when wrong. */
export interface GradeResult {
  grade: Grade;
  /** values fill {{name}} in the explanation and option feedback. */
  values: Record<string, string | number>;
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
      result?: GradeResult;
      solution?: Answer;
      values?: Record<string, string | number>;
      outputs?: { command: string; output: CommandOutput }[];
    }
  | { id: number; ok: false; error: string };

/** RequestBody is a request before the island stamps its id. */
export type RequestBody = Request extends infer R
  ? R extends Request
    ? Omit<R, 'id'>
    : never
  : never;

/** seal hides example answers from casual reading of the page source (not a secret: a static site grades in the browser). */
export function seal(value: unknown): string {
  const json = JSON.stringify(value);
  const bytes = new TextEncoder().encode(json).map((b) => b ^ 0x5a);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** unseal reverses seal. */
export function unseal<T>(sealed: string): T {
  const s = atob(sealed);
  const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0) ^ 0x5a);
  return JSON.parse(new TextDecoder().decode(bytes)) as T;
}

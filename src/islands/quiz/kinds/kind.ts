// KindView is what one question kind adds to the shared question element (../element.ts): how
// to read the learner's answer from the form, fill in a solution, clear the form, and what its
// feedback shows beyond the shared result line, evidence and explanation. One module per kind.
import type { Answer } from '../../../quiz/grade.ts';
import type { Question, Text } from '../../../quiz/schema.ts';
import type { GradeResult, RequestBody, Response } from '../protocol.ts';
import type { QuizLang, QuizStrings } from '../strings.ts';

/** Ctx is what the element offers a kind. */
export interface Ctx {
  /** root is the question's <section>: state attributes and events live there. */
  root: HTMLElement;
  q: Question;
  id: string;
  lang: QuizLang;
  t: QuizStrings;
  /** txt fills a text's placeholders with the variant's values (or the given ones). */
  txt(x: Text, values?: Record<string, string | number>): string;
  /** role finds an element of the question by its data-role. */
  role<T extends Element>(r: string): T | null;
  /** v is the variant number now shown. */
  v(): number;
  final(): boolean;
  interviewMode(): boolean;
  /** changed says the answer changed without an input event (a move, say): it is graded ahead. */
  changed(): void;
  say(message: string, result?: string): void;
  ask(body: RequestBody): Promise<Response>;
}

export interface KindView {
  answer(): Answer;
  /** show puts an answer (the solution) into the controls. */
  show(a: Answer): void;
  /** reset clears the form and the marks for another variant. */
  reset(): void;
  /** feedback marks the controls and returns what this kind shows about a graded answer. */
  feedback(r: GradeResult, a: Answer): HTMLElement[];
  /** prepareOrder is the order the page shows (ordering), sent with prepare. */
  prepareOrder?(): string[] | undefined;
  /** prepared runs once a variant is ready, with the worker's reply. */
  prepared?(res: Response): void;
  /** buttons enables the kind's own buttons. */
  buttons?(ready: boolean, busy: boolean): void;
  /** revealed runs when the key is shown in an interview round's debrief. */
  roundOver?(): void;
}

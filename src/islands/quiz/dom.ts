// Small DOM helpers of the quiz island. Learner input, question texts and command output are only
// ever set as text, never as HTML.
import { codeSegments } from './strings.ts';

/** el creates an element with optional text and class. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  cls?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** rich builds inline content from a text: `backticks` become <code>, everything else text. */
export function rich(parent: HTMLElement, text: string): HTMLElement {
  parent.replaceChildren();
  for (const s of codeSegments(text)) {
    if (!s.code) parent.append(s.text);
    else parent.append(el('code', s.text));
  }
  return parent;
}

/** heading is a feedback section's heading. */
export const heading = (text: string): HTMLHeadingElement => el('h3', text);

/** substitute fills {{name}} placeholders (grade.ts's substitute, without loading the simulator). */
export function substitute(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*([a-zA-Z][a-zA-Z0-9]*)\s*\}\}/g, (m, name: string) =>
    name in values ? String(values[name]) : m,
  );
}

/** formatSeconds prints measured seconds without float noise. */
export function formatSeconds(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

export const percent = (x: number): number => Math.round(x * 100);

/** setMark shows a right or wrong mark (or none) in a [data-role="mark"] element. */
export function setMark(
  mark: HTMLElement | null,
  m: string | undefined,
  text: Record<string, string>,
): void {
  if (!mark) return;
  mark.textContent = m ? (text[m] ?? '') : '';
  if (m) mark.dataset.mark = m;
  else delete mark.dataset.mark;
}

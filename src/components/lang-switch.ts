// The language switch keeps the reader's place: switching a page between English and Japanese
// lands on the same section of its twin. The twins' headings have different ids (each is a slug
// of the heading's own text), but the same outline, heading for heading (a unit test checks every
// twin), so the section is carried over as the index of its heading among the page's headings.
//
// On change, the page remembers (in sessionStorage) the target path and the index of the section
// being read, and navigates keeping its hash; the twin, on load, finds its heading with that index,
// puts its id in the URL and scrolls to it.

/** KEY is the sessionStorage key of a pending switch. */
export const KEY = 'kal:lang-switch';

/** HEADINGS selects the headings of a page's content that carry an anchor. */
export const HEADINGS = '.sl-markdown-content :is(h2, h3, h4, h5, h6)[id]';

/** PendingSwitch is what a page leaves for its twin. */
export type PendingSwitch = { path: string; index: number };

/**
 * sectionIndex returns the index of the heading of the section being read: the heading named by
 * the URL's hash while it is on screen, or else the last heading above `line` (a distance from the
 * top of the viewport); -1 at the top of the page, before the first heading.
 */
export function sectionIndex(
  headings: readonly { id: string; top: number }[],
  hash: string,
  viewportHeight: number,
  line: number,
): number {
  const named = headings.findIndex((h) => h.id === hash);
  const shown = headings[named];
  if (shown && shown.top >= 0 && shown.top < viewportHeight) return named;
  let index = -1;
  headings.forEach((h, i) => {
    if (h.top <= line) index = i;
  });
  return index;
}

/** parsePending reads a stored switch, or undefined when there is none or it is malformed. */
export function parsePending(text: string | null): PendingSwitch | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { path, index } = value as Record<string, unknown>;
    return typeof path === 'string' && typeof index === 'number' && Number.isInteger(index)
      ? { path, index }
      : undefined;
  } catch {
    return undefined;
  }
}

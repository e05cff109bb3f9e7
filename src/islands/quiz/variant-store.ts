// variant-store keeps each learner's variant number per question in localStorage, so a reload
// shows the same question text and key. Storage may be missing or full: then the variant lives
// only for the page view.

/** VARIANT_RANGE bounds variant numbers; variantOf spreads any of them over seeds and params. */
export const VARIANT_RANGE = 100_000;

/** variantKey is the localStorage key of a question's variant. */
export function variantKey(id: string): string {
  return `kal:quiz:variant:${id}`;
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** drawVariant deals a random variant number other than `not`. */
export function drawVariant(not?: number): number {
  for (;;) {
    const v = Math.floor(Math.random() * VARIANT_RANGE);
    if (v !== not) return v;
  }
}

/** parseVariant reads a stored or attribute value: a whole number in range, or undefined. */
export function parseVariant(raw: string | null | undefined): number | undefined {
  if (raw === null || raw === undefined || !/^\d{1,9}$/.test(raw.trim())) return undefined;
  const v = Number(raw);
  return v < VARIANT_RANGE * 10 ? v : undefined;
}

/** storedVariant returns the question's variant, dealing and storing one the first time. */
export function storedVariant(id: string): number {
  const s = storage();
  let v: number | undefined;
  try {
    v = parseVariant(s?.getItem(variantKey(id)));
  } catch {
    v = undefined;
  }
  return v ?? saveVariant(id, drawVariant());
}

/** saveVariant stores a variant for the question and returns it. */
export function saveVariant(id: string, v: number): number {
  try {
    storage()?.setItem(variantKey(id), String(v));
  } catch {
    // Full or disabled storage: keep the variant for this page view only.
  }
  return v;
}

// store is the browser side of src/quiz/progress.ts: it reads and writes progress in localStorage
// and tells the page when progress changed (a `progress:changed` event on document, and the
// `storage` event for other tabs). Loaded on demand by the recorder and the progress islands.

import {
  GradedSchema,
  PROGRESS_KEY,
  closeRound,
  loadProgress,
  recordGraded,
  saveProgress,
  type Catalog,
  type Loaded,
  type Progress,
  type ProgressWarning,
  type StorageLike,
} from '../../quiz/progress.ts';

/** CHANGED is the event dispatched on document after progress is written. */
export const CHANGED = 'progress:changed';

const memory = new Map<string, string>();
const memoryStorage: StorageLike = {
  getItem: (k) => memory.get(k) ?? null,
  setItem: (k, v) => void memory.set(k, v),
  removeItem: (k) => void memory.delete(k),
};

/** storage is localStorage, or a page-lifetime stand-in where the browser blocks it. */
export function storage(): StorageLike {
  try {
    const s = window.localStorage;
    s.getItem(PROGRESS_KEY);
    return s;
  } catch {
    return memoryStorage;
  }
}

/**
 * load reads progress. With writeBack, a repaired copy is written back so the repair (and its
 * warnings) happens once; only the progress page does that, where the warnings are listed.
 */
export function load(catalog: Catalog = {}, writeBack = false): Loaded {
  const s = storage();
  const loaded = loadProgress(s, catalog);
  if (loaded.repaired && writeBack) {
    const w = saveProgress(s, loaded.progress);
    if (w) loaded.warnings.push(w);
  }
  return loaded;
}

/** save writes progress and announces the change. */
export function save(p: Progress): ProgressWarning | undefined {
  const w = saveProgress(storage(), p);
  document.dispatchEvent(new CustomEvent(CHANGED));
  return w;
}

/** record adds one `quiz:graded` detail to progress. Details that do not fit are ignored. */
export function record(detail: unknown, now: Date): void {
  const g = GradedSchema.safeParse(detail);
  if (!g.success) {
    console.warn('progress: ignored a quiz:graded event with an unexpected detail', g.error.issues);
    return;
  }
  save(recordGraded(load().progress, g.data, now));
}

/** onChange calls back whenever progress changes in this tab or another. */
export function onChange(cb: () => void): void {
  document.addEventListener(CHANGED, cb);
  window.addEventListener('storage', (e) => {
    if (e.key === PROGRESS_KEY || e.key === null) cb();
  });
}

/** closeRounds reviews the concepts of rounds that ended without a final submission. */
export function closeRounds(details: unknown[], now: Date): void {
  let p = load().progress;
  for (const d of details) {
    const g = GradedSchema.safeParse(d);
    if (g.success && !g.data.final) p = closeRound(p, g.data, now);
  }
  save(p);
}

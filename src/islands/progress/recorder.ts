// recorder is the always-loaded listener that records every `quiz:graded` event into progress.
// It is tiny on purpose: the progress code (zod, ts-fsrs) is imported only when the first answer
// is graded. Events are handled in the order they came, with the time they came.

declare global {
  interface Window {
    __kalRecorder?: boolean;
  }
}

if (!window.__kalRecorder) {
  window.__kalRecorder = true;
  let store: Promise<typeof import('./store.ts')> | undefined;
  document.addEventListener('quiz:graded', (e) => {
    const detail = (e as CustomEvent<unknown>).detail;
    const now = new Date();
    store ??= import('./store.ts');
    void store.then((m) => m.record(detail, now));
  });
}

export {};

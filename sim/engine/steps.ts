// Work in slices: long simulations (a cluster's birth, a quiz variant's run) are generators that
// yield between slices of virtual time, so that a caller sharing the thread (the quiz worker) can
// answer requests in between. Playing to a time in slices plays the same events as playing to it
// at once: events keep their own times, and nothing runs at a slice's end.

/** SLICE_MS is how much virtual time a slice covers. */
export const SLICE_MS = 5_000;

/** drive runs a generator of slices to its end at once and returns its result. */
export function drive<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * untilInSlices plays from now to t (ms) by calling runUntil at the end of each slice of SLICE_MS,
 * pausing after each slice but the last.
 */
export function* untilInSlices(now: number, t: number, runUntil: (at: number) => void): Generator<void, void> {
  for (let at = Math.min(now + SLICE_MS, t); ; at = Math.min(at + SLICE_MS, t)) {
    runUntil(at);
    if (at >= t) return;
    yield;
  }
}

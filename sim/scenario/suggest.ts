// Did-you-mean suggestions for author errors: an unknown field, scenario name, question id or
// participant is compared with the names that exist, and the closest one is offered.

/** editDistance is the Levenshtein distance between a and b (case-insensitive). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[t.length];
}

/**
 * closest returns the candidate nearest to found, or undefined when none is near enough to be a
 * likely typo: at most a third of the longer name's letters (and at least 1) differ, or one
 * name contains the other.
 */
export function closest(found: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    if (c === found) continue;
    // node-9 is not a typo of node-1: names that differ only in their numbers are different things.
    if (found.replace(/\d+/g, '#') === c.replace(/\d+/g, '#')) continue;
    const d = editDistance(found, c);
    const limit = Math.max(1, Math.floor(Math.max(found.length, c.length) / 3));
    const contains = found.length >= 3 && c.length >= 3 && (c.toLowerCase().includes(found.toLowerCase()) || found.toLowerCase().includes(c.toLowerCase()));
    if ((d <= limit || contains) && d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** didYouMean is "; did you mean X?" for the closest candidate, or "" when none is close. */
export function didYouMean(found: string, candidates: Iterable<string>): string {
  const c = closest(found, candidates);
  return c === undefined ? '' : `; did you mean ${c}?`;
}

// parseNumber on its own, without the simulator, so the question island's main-thread bundle can
// read a learner's number exactly as the grader does.

/** parseNumber reads a learner's number: digits, optional sign and decimals, optional unit. */
export function parseNumber(raw: string): number | undefined {
  const s = raw.trim().replace(/,/g, '').replace(/\s*(s|sec|seconds?|秒|pods?|個)$/i, '');
  if (!/^-?\d{1,9}(\.\d{1,6})?$/.test(s)) return undefined;
  return Number(s);
}

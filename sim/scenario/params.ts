// Scenario parameters: a scenario may leave values as {{name}} placeholders (a what-if question
// fills them with the learner's choices; the CLI with --param name=value). Placeholders are
// filled in the scenario's text before it is parsed, so they may stand for any YAML value.

const PLACEHOLDER = /\{\{\s*([a-zA-Z][a-zA-Z0-9]*)\s*\}\}/g;

/** substitute fills {{name}} placeholders; unknown names are left for the caller to report. */
export function substitute(text: string, values: Record<string, string | number>): string {
  return text.replace(PLACEHOLDER, (m, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : m));
}

/** Placeholder is one unfilled {{name}} and the 1-based line it is on. */
export interface Placeholder {
  name: string;
  line: number;
}

/** unfilled lists the placeholders left in a text, in order. */
export function unfilled(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  text.split('\n').forEach((l, i) => {
    for (const m of l.matchAll(PLACEHOLDER)) out.push({ name: m[1], line: i + 1 });
  });
  return out;
}

/** missingParamsMessage explains unfilled placeholders to someone running the scenario by hand. */
export function missingParamsMessage(source: string, missing: Placeholder[]): string {
  const names = [...new Set(missing.map((p) => p.name))];
  const where = missing.map((p) => `  line ${p.line}: {{${p.name}}}`).join('\n');
  return `${source}: this scenario takes parameters that were not given: ${names.join(', ')}\n${where}\nPass each one as --param name=value, for example: ${names.map((n) => `--param ${n}=1`).join(' ')}`;
}

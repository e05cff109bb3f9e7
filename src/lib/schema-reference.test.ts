import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../sim/scenario/schema.ts';
import { QUESTION_KINDS } from '../quiz/schema.ts';
import { questionReference, scenarioReference, type FieldRow, type RefTable } from './schema-reference.ts';

function rows(tables: RefTable[]): FieldRow[] {
  return tables.flatMap((t) => t.groups.flatMap((g) => g.rows));
}

function row(tables: RefTable[], id: string, path: string): FieldRow {
  const t = tables.find((x) => x.id === id);
  const r = t?.groups.flatMap((g) => g.rows).find((x) => x.path === path);
  if (!r) throw new Error(`no row ${path} in table ${id}`);
  return r;
}

describe('scenarioReference', () => {
  const tables = scenarioReference();

  it('documents every field with its type, requiredness, default and allowed values', () => {
    expect(row(tables, 'scenario', 'name')).toMatchObject({ type: 'string', required: 'required' });
    expect(row(tables, 'scenario', 'until')).toMatchObject({ type: 'string | number', required: 'required' });
    expect(row(tables, 'scenario', 'cluster.nodes[].cpu').default?.en).toBe('4');
    expect(row(tables, 'scenario', 'cluster.nodes[].pods').default?.en).toBe('110');
    expect(row(tables, 'scenario', 'steps[].fault').values?.en).toBe(FAULTS.join(', '));
    expect(row(tables, 'scenario', 'cluster.images.<name>.pull')).toMatchObject({ required: 'optional', default: { en: 'ok' } });
  });

  it('marks fields that only one form of a union requires', () => {
    expect(row(tables, 'scenario', 'cluster.nodes[].name').required).toBe('some');
    expect(row(tables, 'scenario', 'cluster.nodes[].count').required).toBe('some');
  });
});

describe('questionReference', () => {
  const tables = questionReference();

  it('has the common fields, then one table per kind, then the shared types', () => {
    expect(tables.map((t) => t.id)).toEqual([
      'question-file',
      'question-common',
      ...QUESTION_KINDS.map((k) => `question-kind-${k}`),
      'question-measure',
      'question-eventref',
      'question-where',
      'question-text',
    ]);
    const common = tables[1]!.groups[0]!.rows.map((r) => r.path);
    expect(common).toEqual(expect.arrayContaining(['id', 'concepts', 'scenario', 'variants.seeds', 'prompt', 'hints[].cost', 'explanation', 'maxAttempts']));
    expect(common).not.toContain('kind');
  });

  it('lists only what a kind adds or changes', () => {
    const interview = rows(tables.filter((t) => t.id === 'question-kind-interview')).map((r) => `${r.path} ${r.required}`);
    expect(interview).toEqual(expect.arrayContaining(['kind required', 'scenario optional', 'explanation optional', 'modelAnswer required', 'rubric required']));
    expect(row(tables, 'question-kind-numeric', 'tolerance').default?.en).toBe('0');
    expect(rows(tables.filter((t) => t.id === 'question-kind-numeric')).map((r) => r.path)).not.toContain('id');
  });

  it('refers to Measure, EventRef, Where and Text instead of repeating them', () => {
    expect(row(tables, 'question-kind-choice', 'measure')).toMatchObject({ type: 'Measure', ref: 'Measure' });
    expect(row(tables, 'question-kind-ordering', 'items[].at')).toMatchObject({ type: 'EventRef', ref: 'EventRef' });
    expect(row(tables, 'question-common', 'prompt')).toMatchObject({ type: 'Text', ref: 'Text' });
    expect(row(tables, 'question-common', 'values').type).toBe('map<string, Measure>');
  });

  it('gives each Measure and EventRef form a group of its own', () => {
    const measure = tables.find((t) => t.id === 'question-measure')!;
    expect(measure.groups.map((g) => g.label?.en)).toEqual(['Form: duration', 'Form: time', 'Form: actors', 'Form: count', 'Form: field', 'Form: queries', 'Form: packet', 'Form: exitCode', 'Form: max', 'Form: min']);
    const ev = tables.find((t) => t.id === 'question-eventref')!;
    expect(ev.groups.map((g) => g.label?.en)).toEqual(['Form: fault', 'Form: step', 'Form: at', 'Form: request', 'Form: change', 'Form: call']);
    expect(ev.groups[3]!.rows.find((r) => r.path === 'after')).toMatchObject({ type: 'EventRef', required: 'optional' });
  });
});

describe('descriptions in both languages', () => {
  const all = [...scenarioReference(), ...questionReference()];

  it('every described field has a Japanese description, and no field has only a Japanese one', () => {
    const missing = rows(all)
      .filter((r) => !!r.description.en !== !!r.description.ja)
      .map((r) => `${r.path}: ${r.description.en ?? r.description.ja}`);
    expect(missing).toEqual([]);
    const intros = all.filter((t) => t.intro && (!t.intro.en || !t.intro.ja)).map((t) => t.id);
    expect(intros).toEqual([]);
  });

  it('Japanese descriptions are Japanese', () => {
    const notJa = rows(all).filter((r) => r.description.ja && !/[\u3040-\u30ff\u4e00-\u9fff]/.test(r.description.ja));
    expect(notJa.map((r) => r.path)).toEqual([]);
  });

  // A .describe() without its own .meta({ ja }) would inherit the Japanese text of the schema it
  // refines (Duration, Text, ...), which says something else: every call must carry its own.
  it.each(['sim/scenario/schema.ts', 'src/quiz/schema.ts'])('every .describe() in %s is followed by .meta({ ja })', (file) => {
    const src = readFileSync(file, 'utf8');
    const bare: string[] = [];
    let i = src.indexOf('.describe(');
    while (i >= 0) {
      let depth = 0;
      let quote: string | undefined;
      let k = i + '.describe'.length;
      for (; k < src.length; k++) {
        const c = src[k];
        if (quote) {
          if (c === '\\') k++;
          else if (c === quote) quote = undefined;
        } else if (c === "'" || c === '"' || c === '`') quote = c;
        else if (c === '(') depth++;
        else if (c === ')' && --depth === 0) break;
      }
      if (!/^\s*\.meta\(\{\s*ja:/.test(src.slice(k + 1))) bare.push(src.slice(i, Math.min(k + 1, i + 80)));
      i = src.indexOf('.describe(', k);
    }
    expect(bare).toEqual([]);
  });
});

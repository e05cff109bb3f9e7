// schema-reference turns the scenario and question zod schemas into the field tables of the
// authoring guide (<SchemaReference>), so the reference can never drift from what the loaders
// accept. It reads z.toJSONSchema() output (io: 'input', what an author writes): the field path,
// type, whether it is required, its default, the values it allows, and its description in English
// (.describe()) and Japanese (.meta({ ja })). Pure: no Astro, no DOM.

import { z } from 'zod';
import { ScenarioSchema } from '../../sim/scenario/schema.ts';
import {
  EventRefSchema,
  MeasureSchema,
  QUESTION_KINDS,
  QuestionFileSchema,
  TextSchema,
  WhereSchema,
} from '../quiz/schema.ts';

/** RefLang is a language the reference is written in. */
export type RefLang = 'en' | 'ja';

/** Localized is a text in both languages. */
export type Localized = Record<RefLang, string>;

/** Requiredness says whether an author must write a field; "some" means in some forms only. */
export type Requiredness = 'required' | 'optional' | 'some';

/** FieldRow is one field of a format. */
export interface FieldRow {
  /** path is where the field sits, e.g. cluster.nodes[].cpu or where.<path>.ne. */
  path: string;
  /** type is the field's type as an author writes it: string, integer, Text, EventRef, ... */
  type: string;
  required: Requiredness;
  /** default is the value used when the field is left out, as YAML would show it. */
  default?: Localized;
  /** values lists allowed values or limits (an enum, a pattern, a range). */
  values?: Localized;
  /** description comes from the schema; missing when the schema has none. */
  description: Partial<Localized>;
  /** ref names the table that documents this field's type (Text, EventRef, Measure, Where). */
  ref?: RefName;
}

/** RefGroup is a run of rows; a union's alternatives are one group each. */
export interface RefGroup {
  label?: Localized;
  rows: FieldRow[];
}

/** RefTable is one table of the reference. */
export interface RefTable {
  /** id is stable and unique on a page (used for anchors): scenario, question-common, kind-choice, ... */
  id: string;
  title: Localized;
  intro?: Localized;
  groups: RefGroup[];
}

/** RefName names the shared types that have a table of their own. */
export type RefName = 'Text' | 'EventRef' | 'Measure' | 'Where';

// JSON Schema as zod emits it; only the keywords the tables read.
interface JsonNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonNode>;
  required?: string[];
  items?: JsonNode;
  prefixItems?: JsonNode[];
  additionalProperties?: JsonNode | boolean;
  anyOf?: JsonNode[];
  oneOf?: JsonNode[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  minLength?: number;
  description?: string;
  ja?: string;
  $defs?: Record<string, JsonNode>;
  [REF_KEY]?: RefName;
}

const REF_KEY = 'x-kal-ref';

/** SHARED maps the schemas documented once, in tables of their own, to their names. */
const SHARED = new Map<unknown, RefName>([
  [TextSchema, 'Text'],
  [EventRefSchema, 'EventRef'],
  [MeasureSchema, 'Measure'],
  [WhereSchema, 'Where'],
]);

function sharedName(schema: unknown): RefName | undefined {
  // .describe() and .meta() clone a schema and point the clone's parent at the original.
  for (let s = schema as { _zod?: { parent?: unknown; def?: { type?: string; getter?: () => unknown } } } | undefined; s; s = s._zod?.parent as typeof s) {
    const name = SHARED.get(s);
    if (name) return name;
  }
  return undefined;
}

/** jsonSchemaOf converts a schema for the tables, tagging the shared types it uses. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonNode {
  return z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const name = sharedName(zodSchema);
      if (name) (jsonSchema as JsonNode)[REF_KEY] = name;
    },
  }) as JsonNode;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** GENERIC holds the descriptions of the shared types themselves. */
const GENERIC = new Set([TextSchema.description, WhereSchema.description].filter((d): d is string => !!d));

/** Walker reads one JSON Schema (and its output-mode twin, for defaults) into rows. */
class Walker {
  readonly rows: FieldRow[] = [];
  private readonly byPath = new Map<string, FieldRow>();
  private readonly root: JsonNode;
  private readonly outRoot: JsonNode | undefined;
  constructor(root: JsonNode, outRoot: JsonNode | undefined) {
    this.root = root;
    this.outRoot = outRoot;
  }

  private resolve(n: JsonNode | undefined, root: JsonNode | undefined): JsonNode | undefined {
    if (!n?.$ref) return n;
    const target = root ? deref(n.$ref, root) : undefined;
    if (!target) return n;
    const { $ref: _ref, ...rest } = n;
    // The referring node's own keywords (its description, its default) win over the target's.
    return { ...this.resolve(target, root), ...rest };
  }

  /** field adds (or merges) the row for one field and descends into it. */
  field(node: JsonNode, shadow: JsonNode | undefined, path: string, required: Requiredness): void {
    const n = this.resolve(node, this.root)!;
    const o = this.resolve(shadow, this.outRoot);
    const ref = n[REF_KEY];
    // A field with no description of its own inherits its type's (Text, Where), which that type's
    // table already gives: leave it out here.
    const own = !ref || !GENERIC.has(n.description ?? '');
    const row: FieldRow = {
      path,
      type: ref ?? typeOf(n, this.root),
      required,
      description: own ? { ...(n.description ? { en: n.description } : {}), ...(n.ja ? { ja: n.ja } : {}) } : {},
      ...(ref ? { ref } : {}),
    };
    const def = n.default !== undefined ? n.default : o?.default;
    if (def !== undefined && required !== 'required') row.default = formatDefault(def);
    const values = valuesOf(n, this.root);
    if (values) row.values = values;
    const prev = this.byPath.get(path);
    if (prev) {
      // The same field in another alternative of a union: required only if required in all.
      if (prev.required !== required) prev.required = 'some';
      if (!prev.description.en && row.description.en) prev.description = row.description;
    } else {
      this.byPath.set(path, row);
      this.rows.push(row);
    }
    if (!ref) this.inside(n, o, path);
  }

  /** inside descends into an object's properties, an array's items, a map's values or a union. */
  inside(n: JsonNode, o: JsonNode | undefined, path: string): void {
    n = this.resolve(n, this.root)!;
    o = this.resolve(o, this.outRoot);
    if (n.properties) {
      const req = new Set(n.required ?? []);
      for (const [k, v] of Object.entries(n.properties))
        this.field(v, o?.properties?.[k], join(path, k), req.has(k) ? 'required' : 'optional');
    }
    if (n.items && isComposite(n.items, this.root)) this.inside(n.items, o?.items, `${path}[]`);
    if (typeof n.additionalProperties === 'object' && isComposite(n.additionalProperties, this.root)) {
      const ap = n.additionalProperties;
      this.field(ap, typeof o?.additionalProperties === 'object' ? o.additionalProperties : undefined, join(path, '<name>'), 'optional');
    }
    const alts = n.anyOf ?? n.oneOf;
    if (alts) {
      const objects = alts.map((a, i) => ({ a: this.resolve(a, this.root)!, i })).filter(({ a }) => a.properties && !a[REF_KEY]);
      const before = new Set(this.rows.map((r) => r.path));
      for (const { a, i } of objects) this.inside(a, (o?.anyOf ?? o?.oneOf)?.[i], path);
      // A field that only some alternatives have is not required by the union.
      if (objects.length > 1)
        for (const r of this.rows)
          if (!before.has(r.path) && r.required === 'required' && r.path.split('.').length === (path ? path.split('.').length + 1 : 1)) {
            const key = r.path.slice(path ? path.length + 1 : 0);
            if (!objects.every(({ a }) => a.required?.includes(key))) r.required = 'some';
          }
    }
  }
}

/** deref finds the node a $ref points at: "#" (the root, for recursion) or "#/$defs/<name>". */
function deref(ref: string, root: JsonNode): JsonNode | undefined {
  return ref === '#' ? root : root.$defs?.[ref.replace(/^#\/\$defs\//, '')];
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function isComposite(n: JsonNode, root: JsonNode): boolean {
  const r = n.$ref ? deref(n.$ref, root) : n;
  if (!r || r[REF_KEY]) return false;
  return !!(r.properties || r.anyOf?.some((a) => isComposite(a, root)) || r.oneOf);
}

/** typeOf names a JSON Schema type the way an author writes the value. */
function typeOf(n: JsonNode, root: JsonNode): string {
  const r = n.$ref ? { ...deref(n.$ref, root), ...n } : n;
  if (r[REF_KEY]) return r[REF_KEY];
  if (r.const !== undefined) return JSON.stringify(r.const);
  if (r.enum) return typeof r.enum[0] === 'number' ? 'number' : 'string';
  const alts = r.anyOf ?? r.oneOf;
  if (alts) return [...new Set(alts.map((a) => typeOf(a, root)))].join(' | ');
  const t = Array.isArray(r.type) ? r.type : r.type ? [r.type] : [];
  if (t.length === 0) return r.properties ? 'object' : 'any';
  return t
    .map((x) => {
      if (x === 'array') {
        if (r.prefixItems) return `[${r.prefixItems.map((p) => typeOf(p, root)).join(', ')}]`;
        const it = r.items ? typeOf(r.items, root) : 'any';
        return /[ |]/.test(it) ? `(${it})[]` : `${it}[]`;
      }
      if (x === 'object' && !r.properties && typeof r.additionalProperties === 'object')
        return `map<string, ${typeOf(r.additionalProperties, root)}>`;
      return x;
    })
    .join(' | ');
}

function both(en: string, ja: string = en): Localized {
  return { en, ja };
}

/** valuesOf lists what a field allows beyond its type: enum values, a pattern, a range. */
function valuesOf(n: JsonNode, root: JsonNode): Localized | undefined {
  const r = n.$ref ? { ...deref(n.$ref, root), ...n } : n;
  const en: string[] = [];
  const ja: string[] = [];
  if (r.enum) {
    const list = r.enum.map((v) => String(v)).join(', ');
    en.push(list);
    ja.push(list);
  }
  if (r.pattern) {
    en.push(`matches /${r.pattern}/`);
    ja.push(`/${r.pattern}/ に一致`);
  }
  const min = r.minimum !== undefined && r.minimum > -MAX_SAFE ? r.minimum : undefined;
  const max = r.maximum !== undefined && r.maximum < MAX_SAFE ? r.maximum : undefined;
  if (min !== undefined && max !== undefined) {
    en.push(`${min} to ${max}`);
    ja.push(`${min} から ${max}`);
  } else if (min !== undefined) {
    en.push(`≥ ${min}`);
    ja.push(`${min} 以上`);
  } else if (max !== undefined) {
    en.push(`≤ ${max}`);
    ja.push(`${max} 以下`);
  }
  if (r.exclusiveMinimum !== undefined) {
    en.push(`> ${r.exclusiveMinimum}`);
    ja.push(`${r.exclusiveMinimum} より大きい`);
  }
  if (r.minItems !== undefined && r.minItems > 0) {
    en.push(`at least ${r.minItems} item${r.minItems > 1 ? 's' : ''}`);
    ja.push(`${r.minItems} 個以上`);
  }
  if (r.minLength !== undefined && r.minLength > 0) {
    en.push('not empty');
    ja.push('空でない');
  }
  return en.length ? { en: en.join('; '), ja: ja.join('、') } : undefined;
}

/** formatDefault shows a default as an author would write it; long ones point at the fields. */
function formatDefault(v: unknown): Localized {
  if (typeof v === 'string') return both(v === '' ? '""' : v);
  if (typeof v !== 'object' || v === null) return both(String(v));
  const s = JSON.stringify(v).replace(/"([A-Za-z_][\w-]*)":/g, '$1: ').replace(/,/g, ', ');
  if (s.length <= 32) return both(s);
  return Array.isArray(v)
    ? both(`${v.length} items (see the description)`, `${v.length} 個（説明を参照）`)
    : both('each field’s default', '各フィールドのデフォルト');
}

function tableOf(schema: z.ZodType): FieldRow[] {
  const w = new Walker(jsonSchemaOf(schema), jsonSchemaOf(schema, 'output'));
  w.inside(jsonSchemaOf(schema), jsonSchemaOf(schema, 'output'), '');
  return w.rows;
}

/** alternatives splits a union schema (Measure, EventRef) into one group per alternative. */
function alternatives(schema: z.ZodType): RefGroup[] {
  const root = jsonSchemaOf(schema);
  const outRoot = jsonSchemaOf(schema, 'output');
  const resolve = (n: JsonNode, r: JsonNode) => (n.$ref ? (deref(n.$ref, r) ?? n) : n);
  const top = resolve(root, root);
  const outTop = resolve(outRoot, outRoot);
  return (top.anyOf ?? []).map((alt, i) => {
    const w = new Walker(root, outRoot);
    w.inside(alt, (outTop.anyOf ?? [])[i], '');
    const a = resolve(alt, root);
    const keys = (a.required ?? []).join(', ');
    return { label: { en: `Form: ${keys}`, ja: `形式: ${keys}` }, rows: w.rows };
  });
}

/** scenarioReference documents content/scenarios/<slug>.yaml. */
export function scenarioReference(): RefTable[] {
  return [
    {
      id: 'scenario',
      title: both('Scenario file (content/scenarios/<slug>.yaml)', 'シナリオファイル（content/scenarios/<slug>.yaml）'),
      groups: [{ rows: tableOf(ScenarioSchema) }],
    },
  ];
}

const KIND_TITLES: Record<(typeof QUESTION_KINDS)[number], Localized> = {
  choice: both('kind: choice (multiple choice)', 'kind: choice（選択式）'),
  numeric: both('kind: numeric (a number)', 'kind: numeric（数値）'),
  ordering: both('kind: ordering (put in order)', 'kind: ordering（並べ替え）'),
  matching: both('kind: matching (match pairs)', 'kind: matching（組み合わせ）'),
  predict: both('kind: predict (predict, then run)', 'kind: predict（予想してから実行）'),
  'what-if': both('kind: what-if (choose parameters)', 'kind: what-if（パラメーターを選ぶ）'),
  task: both('kind: task (fix the cluster with kubectl)', 'kind: task（kubectl でクラスターを直す）'),
  interview: both('kind: interview (free answer, self-checked)', 'kind: interview（自由記述、自己採点）'),
};

/**
 * questionReference documents content/questions/*.yaml: the file, the fields every kind shares,
 * one table per kind with its own fields, then the shared types Measure, EventRef, Where and Text.
 */
export function questionReference(): RefTable[] {
  const fileRows = tableOf(QuestionFileSchema).filter((r) => !r.path.startsWith('questions[].'));
  const root = jsonSchemaOf(QuestionFileSchema);
  const outRoot = jsonSchemaOf(QuestionFileSchema, 'output');
  const kinds = (root.properties?.questions?.items?.anyOf ?? root.properties?.questions?.items?.oneOf ?? []) as JsonNode[];
  const outKinds = (outRoot.properties?.questions?.items?.anyOf ?? outRoot.properties?.questions?.items?.oneOf ?? []) as JsonNode[];
  const perKind = kinds.map((k, i) => {
    const w = new Walker(root, outRoot);
    w.inside(k, outKinds[i], '');
    const kind = String(k.properties?.kind?.const);
    return { kind, rows: w.rows };
  });
  // Common fields: those most kinds share with the same type, requiredness and description. A kind
  // that differs (interview runs no scenario) lists its own version in its table.
  const sig = (r: FieldRow) => JSON.stringify([r.path, r.type, r.required, r.description, r.default, r.values]);
  const counts = new Map<string, { row: FieldRow; n: number }>();
  for (const k of perKind)
    for (const r of k.rows) {
      const c = counts.get(sig(r));
      if (c) c.n++;
      else counts.set(sig(r), { row: r, n: 1 });
    }
  const common = [...counts.values()].filter((c) => c.n > perKind.length / 2 && c.row.path !== 'kind').map((c) => c.row);
  const commonSigs = new Set(common.map(sig));
  const tables: RefTable[] = [
    { id: 'question-file', title: both('Question file (content/questions/<name>.yaml)', '問題ファイル（content/questions/<name>.yaml）'), groups: [{ rows: fileRows }] },
    {
      id: 'question-common',
      title: both('Fields of every question', 'すべての問題に共通のフィールド'),
      groups: [{ rows: common }],
    },
  ];
  for (const kind of QUESTION_KINDS) {
    const k = perKind.find((x) => x.kind === kind);
    if (!k) throw new Error(`schema-reference: the question schema has no kind "${kind}"`);
    tables.push({
      id: `question-kind-${kind}`,
      title: KIND_TITLES[kind],
      groups: [{ rows: k.rows.filter((r) => !commonSigs.has(sig(r))) }],
    });
  }
  tables.push(
    {
      id: 'question-measure',
      title: both('Measure: what to read off a run', 'Measure: 実行から読み取る値'),
      intro: both('Exactly one of these forms.', '次の形式のうち、ちょうど 1 つを書きます。'),
      groups: alternatives(MeasureSchema),
    },
    {
      id: 'question-eventref',
      title: both('EventRef: a moment in the run', 'EventRef: 実行中のある時点'),
      intro: both('Exactly one of these forms. after takes another EventRef.', '次の形式のうち、ちょうど 1 つを書きます。after には別の EventRef を書きます。'),
      groups: alternatives(EventRefSchema),
    },
    {
      id: 'question-where',
      title: both('Where: field tests on objects', 'Where: オブジェクトのフィールド条件'),
      intro: {
        en: WhereSchema.description ?? '',
        ja: (WhereSchema.meta() as { ja?: string } | undefined)?.ja ?? '',
      },
      groups: [{ rows: tableOf(WhereSchema) }],
    },
    {
      id: 'question-text',
      title: both('Text: a string in both languages', 'Text: 2 か国語の文字列'),
      intro: {
        en: TextSchema.description ?? '',
        ja: (TextSchema.meta() as { ja?: string } | undefined)?.ja ?? '',
      },
      groups: [{ rows: tableOf(TextSchema) }],
    },
  );
  return tables;
}

/** referenceFor returns the tables for one format. */
export function referenceFor(schema: 'scenario' | 'question'): RefTable[] {
  return schema === 'scenario' ? scenarioReference() : questionReference();
}

/** REQUIRED_LABELS is how the tables say whether a field is required. */
export const REQUIRED_LABELS: Record<RefLang, Record<Requiredness, string>> = {
  en: { required: 'required', optional: 'optional', some: 'required in some forms' },
  ja: { required: '必須', optional: '省略可', some: '形式によって必須' },
};

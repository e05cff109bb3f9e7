// Mirrors kubectl get's --sort-by: staging/src/k8s.io/kubectl/pkg/cmd/get/sorter.go (TableSorter,
// SortObjects, isLess), get.go (RuntimeSorter, and the SortingPrinter that sorts a table again),
// customcolumn.go (RelaxedJSONPathExpression), and the JSONPath parser and evaluator it uses
// (staging/src/k8s.io/client-go/util/jsonpath, AllowMissingKeys(true)). Values are compared as
// they decode from JSON (unstructured): integers as int64, other numbers as float64, strings as
// quantities when both parse and in natural order otherwise (github.com/fvbommel/sortorder).
// Simplification: JSONPath filters ([?(...)]), unions ([a,b]) and range/end are refused with an
// error of our own; a wildcard over a map walks its keys in sorted order (Go's is random).

import { parseQuantityExact } from '../api/quantity.ts';

// ---- RelaxedJSONPathExpression ----

const JSON_REGEXP = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/;

/**
 * relaxedJSONPathExpression mirrors RelaxedJSONPathExpression: "metadata.name", ".metadata.name",
 * "{metadata.name}" and "{.metadata.name}" all become "{.metadata.name}".
 */
export function relaxedJSONPathExpression(pathExpression: string): string {
  if (pathExpression.length === 0) return pathExpression;
  const m = JSON_REGEXP.exec(pathExpression);
  if (!m)
    throw new Error(
      "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  return `{.${m[1] ?? m[2]}}`;
}

// ---- JSONPath parser (util/jsonpath/parser.go) ----

interface ArrayParam {
  value: number;
  known: boolean;
  derived: boolean;
}

type JPNode =
  | { type: 'list'; nodes: JPNode[] }
  | { type: 'text'; text: string }
  | { type: 'field'; value: string }
  | { type: 'array'; params: [ArrayParam, ArrayParam, ArrayParam] }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' };

/** JSONPath is a parsed template: one list per {...} action, text between them. */
export interface JSONPath {
  readonly root: JPNode[];
}

const DICT_KEY = /^'([^']*)'$/;
const SLICE_OPERATOR = /^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$/;

function isTerminator(r: string): boolean {
  return r === '' || ' \t\r\n.,[]$@{}'.includes(r);
}

function isAlphaNumeric(r: string): boolean {
  return r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
}

// Parser is jsonpath.Parser: a position in the input and the start of the pending text.
class Parser {
  private readonly input: string;
  private pos = 0;
  private start = 0;
  readonly root: JPNode[] = [];

  constructor(input: string) {
    this.input = input;
  }

  private next(): string {
    if (this.pos >= this.input.length) return '';
    const ch = String.fromCodePoint(this.input.codePointAt(this.pos)!);
    this.pos += ch.length;
    return ch;
  }

  private backup(ch: string): void {
    this.pos -= ch.length;
  }

  private peek(): string {
    const ch = this.next();
    this.backup(ch);
    return ch;
  }

  private consumeText(): string {
    const v = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return v;
  }

  parseText(): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) this.root.push({ type: 'text', text: this.consumeText() });
        this.pos += 1;
        this.consumeText();
        const list: JPNode[] = [];
        this.root.push({ type: 'list', nodes: list });
        this.parseInsideAction(list);
        continue;
      }
      if (this.next() === '') break;
    }
    if (this.pos > this.start) this.root.push({ type: 'text', text: this.consumeText() });
  }

  // parseInsideAction returns at the action's closing brace (parseRightDelim).
  private parseInsideAction(cur: JPNode[]): void {
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        return;
      }
      if (rest.startsWith('[?('))
        throw new Error('jsonpath filters are not supported in this simulator');
      if (rest.startsWith('..')) {
        const last = cur.at(-1);
        if (last && last.type === 'recursive')
          throw new Error('invalid multiple recursive descent');
        this.pos += 2;
        this.consumeText();
        cur.push({ type: 'recursive' });
        if (isAlphaNumeric(this.peek())) this.parseField(cur);
        continue;
      }
      const r = this.next();
      if (r === '' || r === '\r' || r === '\n') throw new Error('unclosed action');
      if (r === ' ' || r === '@' || r === '$') this.consumeText();
      else if (r === '[') this.parseArray(cur);
      else if (r === '"' || r === "'") this.parseQuote(cur, r);
      else if (r === '.') this.parseField(cur);
      else if (r === '+' || r === '-' || /^\p{Nd}$/u.test(r)) {
        this.backup(r);
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup(r);
        this.parseIdentifier(cur);
      } else {
        const cp = r.codePointAt(0)!;
        throw new Error(
          `unrecognized character in action: U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${r}'`,
        );
      }
    }
  }

  private parseIdentifier(cur: JPNode[]): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        this.backup(r);
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.push({ type: 'bool', value: value === 'true' });
    else if (value === 'range' || value === 'end')
      throw new Error('jsonpath range/end is not supported in this simulator');
    else throw new Error(`unrecognized identifier ${value}`);
  }

  private parseNumber(cur: JPNode[]): void {
    const r = this.peek();
    if (r === '+' || r === '-') this.next();
    for (;;) {
      const c = this.next();
      if (c !== '.' && !/^\p{Nd}$/u.test(c)) {
        this.backup(c);
        break;
      }
    }
    const value = this.consumeText();
    if (/^[+-]?\d+$/.test(value)) cur.push({ type: 'int', value: Number(value) });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value))
      cur.push({ type: 'float', value: Number(value) });
    else throw new Error(`cannot parse number ${value}`);
  }

  private parseArray(cur: JPNode[]): void {
    for (;;) {
      const c = this.next();
      if (c === '' || c === '\n') throw new Error('unterminated array');
      if (c === ']') break;
    }
    let text = this.consumeText();
    text = text.slice(1, -1);
    if (text === '*') text = ':';
    if (text.split(',').length > 1)
      throw new Error('jsonpath unions are not supported in this simulator');
    const key = DICT_KEY.exec(text);
    if (key) {
      // parseAction("arraydict", "." + key): a field, possibly several ("a.b").
      const sub = new Parser(`{.${key[1]}}`);
      sub.parseText();
      for (const n of sub.root) if (n.type === 'list') cur.push(...n.nodes);
      return;
    }
    const m = SLICE_OPERATOR.exec(text);
    if (!m) throw new Error(`invalid array index ${text}`);
    const params: [ArrayParam, ArrayParam, ArrayParam] = [
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
    ];
    for (let i = 0; i < 3; i++) {
      let v = m[i + 1] ?? '';
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params[i].known = false;
        else {
          if (!/^[+-]?\d+$/.test(v)) throw new Error(`array index ${v} is not a number`);
          params[i] = { value: Number(v), known: true, derived: false };
        }
      } else if (i === 1) params[i] = { value: params[0].value + 1, known: true, derived: true };
    }
    cur.push({ type: 'array', params });
  }

  private parseQuote(cur: JPNode[], end: string): void {
    for (;;) {
      const c = this.next();
      if (c === '' || c === '\n') throw new Error('unterminated quoted string');
      if (c === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    const body = value.slice(1, -1);
    // UnquoteExtend: Go string escapes; the common ones are enough here.
    cur.push({ type: 'text', text: body.replace(/\\(.)/g, '$1') });
  }

  private parseField(cur: JPNode[]): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === '\\') {
        this.next();
        continue;
      }
      if (isTerminator(r)) {
        this.backup(r);
        break;
      }
    }
    const value = this.consumeText();
    if (value === '*') cur.push({ type: 'wildcard' });
    else cur.push({ type: 'field', value: value.replaceAll('\\', '') });
  }
}

/** parseJSONPath mirrors jsonpath.Parse; its errors are the parser's. */
export function parseJSONPath(text: string): JSONPath {
  const p = new Parser(text);
  p.parseText();
  return { root: p.root };
}

// ---- evaluation (util/jsonpath/jsonpath.go FindResults with AllowMissingKeys(true)) ----

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// goTypeName is the %v of reflect.Value.Type() for a value decoded from JSON.
function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

function walk(input: unknown[], node: JPNode): unknown[] {
  switch (node.type) {
    case 'list': {
      let cur = input;
      for (const n of node.nodes) cur = walk(cur, n);
      return cur;
    }
    case 'text':
      return [node.text];
    case 'int':
    case 'float':
    case 'bool':
      return input.map(() => node.value);
    case 'field': {
      const out: unknown[] = [];
      for (const v of input) {
        if (
          isMap(v) &&
          Object.prototype.hasOwnProperty.call(v, node.value) &&
          v[node.value] !== undefined
        )
          out.push(v[node.value]);
      }
      return out;
    }
    case 'array': {
      const out: unknown[] = [];
      for (const v of input) {
        if (v === null || v === undefined) continue;
        if (!Array.isArray(v)) throw new Error(`${goTypeName(v)} is not array or slice`);
        const [p0, p1, p2] = node.params.map((p) => ({ ...p }));
        if (!p0.known) p0.value = 0;
        if (p0.value < 0) p0.value += v.length;
        if (!p1.known) p1.value = v.length;
        if (p1.value < 0 || (p1.value === 0 && p1.derived)) p1.value += v.length;
        if (p1.value === p0.value) return out;
        if (p0.value >= v.length || p0.value < 0)
          throw new Error(`array index out of bounds: index ${p0.value}, length ${v.length}`);
        if (p1.value > v.length || p1.value < 0)
          throw new Error(`array index out of bounds: index ${p1.value - 1}, length ${v.length}`);
        if (p0.value > p1.value)
          throw new Error(`starting index ${p0.value} is greater than ending index ${p1.value}`);
        let step = 1;
        if (p2.known) {
          if (p2.value <= 0) throw new Error('step must be > 0');
          step = p2.value;
        }
        for (let i = p0.value; i < p1.value; i += step) out.push(v[i]);
      }
      return out;
    }
    case 'wildcard': {
      const out: unknown[] = [];
      for (const v of input) {
        if (Array.isArray(v)) out.push(...v);
        else if (isMap(v))
          for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out.push(v[k]);
      }
      return out;
    }
    case 'recursive': {
      const out: unknown[] = [];
      const visit = (v: unknown): void => {
        out.push(v);
        if (Array.isArray(v)) for (const x of v) visit(x);
        else if (isMap(v))
          for (const k of Object.keys(v).sort()) if (v[k] !== undefined) visit(v[k]);
      };
      for (const v of input) visit(v);
      return out;
    }
  }
}

/** findResults mirrors JSONPath.FindResults: one result list per node of the template. */
export function findResults(path: JSONPath, data: unknown): unknown[][] {
  return path.root.map((n) => walk([data], n));
}

// ---- isLess ----

/** naturalLess mirrors sortorder.NaturalLess: runs of digits compare as numbers. */
export function naturalLess(str1: string, str2: string): boolean {
  const isDigit = (c: string) => c >= '0' && c <= '9';
  let i1 = 0;
  let i2 = 0;
  while (i1 < str1.length && i2 < str2.length) {
    const c1 = str1[i1];
    const c2 = str2[i2];
    const d1 = isDigit(c1);
    const d2 = isDigit(c2);
    if (d1 !== d2) return d1;
    if (!d1) {
      if (c1 !== c2) return c1 < c2;
      i1++;
      i2++;
      continue;
    }
    while (i1 < str1.length && str1[i1] === '0') i1++;
    while (i2 < str2.length && str2[i2] === '0') i2++;
    const nz1 = i1;
    const nz2 = i2;
    while (i1 < str1.length && isDigit(str1[i1])) i1++;
    while (i2 < str2.length && isDigit(str2[i2])) i2++;
    const len1 = i1 - nz1;
    const len2 = i2 - nz2;
    if (len1 !== len2) return len1 < len2;
    const n1 = str1.slice(nz1, i1);
    const n2 = str2.slice(nz2, i2);
    if (n1 !== n2) return n1 < n2;
    if (nz1 !== nz2) return nz1 < nz2;
  }
  return str1.length < str2.length;
}

// quantityLess compares two parsed quantities (Quantity.Cmp < 0).
function quantityLess(
  a: { value: bigint; scale: number },
  b: { value: bigint; scale: number },
): boolean {
  const s = Math.min(a.scale, b.scale);
  return a.value * 10n ** BigInt(a.scale - s) < b.value * 10n ** BigInt(b.scale - s);
}

/** UnsortableError is isLess's error: kubectl exits through klog.Exitf on it. */
export class UnsortableError extends Error {}

/**
 * isLess mirrors isLess for the interface values of an unstructured object: nil first, then
 * numbers of one kind, strings (as quantities when both parse), and an error for anything else.
 */
export function isLess(i: unknown, j: unknown): boolean {
  const iNil = i === null || i === undefined;
  const jNil = j === null || j === undefined;
  if (iNil && jNil) return false;
  if (iNil) return true;
  if (jNil) return false;
  if (typeof i === 'number') {
    if (typeof j === 'number' && Number.isInteger(i) === Number.isInteger(j)) return i < j;
    throw new UnsortableError('unsortable interface: interface');
  }
  if (typeof i === 'string') {
    if (typeof j !== 'string') throw new UnsortableError('unsortable interface: interface');
    const qi = parseQuantityExact(i);
    const qj = qi && parseQuantityExact(j);
    if (qi && qj) return quantityLess(qi, qj);
    return naturalLess(i, j);
  }
  throw new UnsortableError(`unsortable type: ${goTypeName(i)}`);
}

// ---- sorting ----

/**
 * insertionSort is the sort Go's sort.Sort performs on up to 12 elements (pdqsort's insertion
 * sort), with kubectl's Less: an element without a value is "less" than anything, so it moves
 * to the front. Simplification: longer lists are sorted the same way; Go's pdqsort may order
 * equal values differently there.
 */
function insertionSort<T>(items: T[], less: (a: T, b: T) => boolean): void {
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j], items[j - 1]); j--) {
      const t = items[j];
      items[j] = items[j - 1];
      items[j - 1] = t;
    }
  }
}

interface Keyed<T> {
  item: T;
  values: unknown[][];
}

function lessKeyed<T>(a: Keyed<T>, b: Keyed<T>): boolean {
  if (a.values.length === 0 || a.values[0].length === 0) return true;
  if (b.values.length === 0 || b.values[0].length === 0) return false;
  return isLess(a.values[0][0], b.values[0][0]);
}

function found(values: unknown[][]): boolean {
  return values.length > 0 && values[0].length > 0;
}

/**
 * sortTableRows mirrors what kubectl get does to one table (the rows of one resource) with
 * --sort-by: RuntimeSorter's NewTableSorter (the path relaxed, or as typed if that fails; a
 * parse error is "sorting error: ..."; no row with the field is an error when there are rows),
 * then SortingPrinter sorts the table once more when it has more than one row. Rows are the
 * objects the table shows. Throws Error (the command fails) or UnsortableError.
 */
export function sortTableRows<T>(rows: T[], sortBy: string): T[] {
  let field: string;
  try {
    field = relaxedJSONPathExpression(sortBy);
  } catch {
    field = sortBy;
  }
  let path: JSONPath;
  try {
    path = parseJSONPath(field);
  } catch (e) {
    throw new Error(`sorting error: ${(e as Error).message}`, { cause: e });
  }
  const keyed: Keyed<T>[] = [];
  let fieldFoundOnce = false;
  for (const item of rows) {
    let values: unknown[][];
    try {
      values = findResults(path, item);
    } catch (e) {
      throw new Error(
        `Failed to get values for [][]reflect.Value(nil) using ${field} (&errors.errorString{s:${JSON.stringify((e as Error).message)}})`,
        { cause: e },
      );
    }
    keyed.push({ item, values });
    if (found(values)) fieldFoundOnce = true;
  }
  if (rows.length > 0 && !fieldFoundOnce)
    throw new Error(
      `couldn't find any field with path ${JSON.stringify(field)} in the list of objects`,
    );
  const less = (a: Keyed<T>, b: Keyed<T>) => {
    try {
      return lessKeyed(a, b);
    } catch (e) {
      throw new UnsortableError(
        `Field ${field} in [][][]reflect.Value is an unsortable type: interface, err: ${(e as Error).message}`,
        { cause: e },
      );
    }
  };
  insertionSort(keyed, less);
  if (keyed.length > 1) insertionSort(keyed, less);
  return keyed.map((k) => k.item);
}

/**
 * sortObjects mirrors SortObjects, as SortingPrinter applies it to the List that -o yaml, json
 * and name print: the path must be relaxed and parse (their errors are returned as they are),
 * and at least one object must have the field.
 */
export function sortObjects<T>(objs: T[], sortBy: string): T[] {
  if (objs.length === 0) return objs;
  const field = relaxedJSONPathExpression(sortBy);
  const path = parseJSONPath(field);
  const keyed = objs.map((item) => ({ item, values: findResults(path, item) }));
  if (!keyed.some((k) => found(k.values)))
    throw new Error(
      `couldn't find any field with path ${JSON.stringify(field)} in the list of objects`,
    );
  insertionSort(keyed, (a, b) => {
    try {
      return lessKeyed(a, b);
    } catch (e) {
      throw new UnsortableError(
        `Field ${field} in *unstructured.Unstructured is an unsortable type: interface, err: ${(e as Error).message}`,
        { cause: e },
      );
    }
  });
  return keyed.map((k) => k.item);
}

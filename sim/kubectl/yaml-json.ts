// Mirrors kubectl's -o json and -o yaml printers (staging/src/k8s.io/cli-runtime/pkg/printers/
// json.go and yaml.go). kubectl prints unstructured objects, so both print map keys in sorted
// order. JSON is Go's json.MarshalIndent(obj, "", "    ") with HTML escaping; YAML is
// sigs.k8s.io/yaml.Marshal, i.e. JSON re-encoded by gopkg.in/yaml.v2: keys in yaml.v2's natural
// order, sequences not indented under their key, quoting only where a plain scalar would be read
// back as something else, literal blocks for multi-line strings, and plain/single-quoted scalars
// folded at spaces past column 80.
// Simplification: double-quoted scalars are never folded; floats print as JavaScript prints them.

// ---- JSON ----

const HEX = '0123456789abcdef';

/** goJSONString quotes a string as Go's encoding/json does (escapeHTML on). */
export function goJSONString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&')
      out += `\\u00${HEX[c >> 4]}${HEX[c & 0xf]}`;
    else if (c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16)}`;
    else out += ch;
  }
  return out + '"';
}

function goNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

function jsonValue(v: unknown, indent: string, step: string, compact: boolean): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJSONString(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const inner = indent + step;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const items = v.map((x) => jsonValue(x, inner, step, compact));
    return compact
      ? `[${items.join(',')}]`
      : `[\n${items.map((x) => inner + x).join(',\n')}\n${indent}]`;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  if (keys.length === 0) return '{}';
  const items = keys.map(
    (k) => `${goJSONString(k)}:${compact ? '' : ' '}${jsonValue(o[k], inner, step, compact)}`,
  );
  return compact
    ? `{${items.join(',')}}`
    : `{\n${items.map((x) => inner + x).join(',\n')}\n${indent}}`;
}

/** toJSON prints an object as `kubectl get -o json` does: 4-space indent, sorted keys, newline. */
export function toJSON(obj: unknown): string {
  return jsonValue(obj, '', '    ', false) + '\n';
}

/** toCompactJSON is json.Marshal of an unstructured object: sorted keys, no spaces, no newline. */
export function toCompactJSON(obj: unknown): string {
  return jsonValue(obj, '', '', true);
}

// ---- YAML (gopkg.in/yaml.v2 as used by sigs.k8s.io/yaml) ----

const BEST_WIDTH = 80;

function isLetter(ch: string): boolean {
  return /\p{L}/u.test(ch);
}
function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}

/** yamlKeyLess mirrors yaml.v2's keyList.Less: letters after other runes, digit runs by value. */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

function sortedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort((x, y) => (yamlKeyLess(x, y) ? -1 : yamlKeyLess(y, x) ? 1 : 0));
}

const RESOLVE_MAP = new Set([
  '',
  '~',
  'null',
  'Null',
  'NULL',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
  '<<',
]);

const TIMESTAMP =
  /^\d{4}-\d{1,2}-\d{1,2}(?:[Tt]\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})| \d{1,2}:\d{1,2}:\d{1,2}(?:\.\d{1,9})?)?$/;
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

// goParseInt reports whether strconv.ParseInt(s, 0, 64) (or ParseUint) would accept s.
function goParseInt(s: string): boolean {
  return /^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.test(s);
}

/** resolvesToString mirrors yaml.v2's resolve(): would this text, unquoted, read back as a string? */
export function resolvesToString(s: string): boolean {
  if (RESOLVE_MAP.has(s)) return false;
  const c = s[0];
  if (c === '.') return !/^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s);
  if (c === '+' || c === '-' || isDigit(c)) {
    if (TIMESTAMP.test(s)) return false;
    const plain = s.replace(/_/g, '');
    if (goParseInt(plain)) return false;
    if (YAML_FLOAT.test(plain)) return false;
    if (/^-?0b[01]+$/.test(plain)) return false;
  }
  return true;
}

interface ScalarAnalysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

function isPrintable(c: number): boolean {
  return (
    c === 0x0a ||
    (c >= 0x20 && c <= 0x7e) ||
    c === 0x85 ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) ||
    c >= 0x10000
  );
}
function isBreakCode(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}

// analyzeScalar mirrors yaml_emitter_analyze_scalar (block context only).
function analyzeScalar(value: string): ScalarAnalysis {
  if (value.length === 0)
    return {
      multiline: false,
      blockPlainAllowed: true,
      singleQuotedAllowed: true,
      blockAllowed: false,
    };
  const chars = [...value];
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith('---') || value.startsWith('...')) blockIndicators = true;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const code = ch.codePointAt(0)!;
    const next = chars[i + 1];
    const followedByWhitespace =
      next === undefined || next === ' ' || next === '\t' || isBreakCode(next.codePointAt(0)!);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      else if ((ch === '?' || ch === ':') && followedByWhitespace) blockIndicators = true;
      else if (ch === '-' && followedByWhitespace) blockIndicators = true;
    } else {
      if (ch === ':' && followedByWhitespace) blockIndicators = true;
      else if (ch === '#' && precededByWhitespace) blockIndicators = true;
    }
    if (!isPrintable(code)) special = true;
    if (ch === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreakCode(code)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = ch === ' ' || ch === '\t' || isBreakCode(code);
  }
  const r: ScalarAnalysis = {
    multiline: lineBreaks,
    blockPlainAllowed: true,
    singleQuotedAllowed: true,
    blockAllowed: true,
  };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) r.blockPlainAllowed = false;
  if (trailingSpace) r.blockAllowed = false;
  if (breakSpace) {
    r.blockPlainAllowed = false;
    r.singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    r.blockPlainAllowed = false;
    r.singleQuotedAllowed = false;
    r.blockAllowed = false;
  }
  if (lineBreaks) r.blockPlainAllowed = false;
  if (blockIndicators) r.blockPlainAllowed = false;
  return r;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

// scalarStyle mirrors encoder.stringv followed by yaml_emitter_select_scalar_style.
function scalarStyle(s: string, simpleKey: boolean): Style {
  const a = analyzeScalar(s);
  let style: Style;
  if (s.includes('\n')) style = 'literal';
  else if (resolvesToString(s) && !BASE60_FLOAT.test(s)) style = 'plain';
  else style = 'double';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain') {
    if (!a.blockPlainAllowed) style = 'single';
    if (s.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  return style;
}

function doubleQuoteEscape(ch: string): string {
  const c = ch.codePointAt(0)!;
  switch (c) {
    case 0x00:
      return '\\0';
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x09:
      return '\\t';
    case 0x0a:
      return '\\n';
    case 0x0b:
      return '\\v';
    case 0x0c:
      return '\\f';
    case 0x0d:
      return '\\r';
    case 0x1b:
      return '\\e';
    case 0x22:
      return '\\"';
    case 0x5c:
      return '\\\\';
    case 0x85:
      return '\\N';
    case 0xa0:
      return '\\_';
    case 0x2028:
      return '\\L';
    case 0x2029:
      return '\\P';
  }
  const h = c.toString(16).toUpperCase();
  if (c <= 0xff) return `\\x${h.padStart(2, '0')}`;
  if (c <= 0xffff) return `\\u${h.padStart(4, '0')}`;
  return `\\U${h.padStart(8, '0')}`;
}

// Writer tracks the output column as go-yaml's emitter does (one column per rune).
class Writer {
  out = '';
  column = 0;

  put(s: string): void {
    for (const ch of s) {
      this.out += ch;
      if (ch === '\n') this.column = 0;
      else this.column++;
    }
  }

  newline(indent: number): void {
    this.put('\n' + ' '.repeat(indent));
  }
}

// writeScalar writes a scalar that follows "key:" or "- " (a separating space is added here).
// indent is the emitter indent for continuation lines.
function writeScalar(w: Writer, s: string, indent: number, simpleKey: boolean): void {
  const style = scalarStyle(s, simpleKey);
  const allowBreaks = !simpleKey;
  if (style === 'plain') {
    let spaces = false;
    const chars = [...s];
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i];
      if (ch === ' ') {
        if (allowBreaks && !spaces && w.column > BEST_WIDTH && chars[i + 1] !== ' ')
          w.newline(indent);
        else w.put(ch);
        spaces = true;
      } else {
        w.put(ch);
        spaces = false;
      }
    }
  } else if (style === 'single') {
    w.put("'");
    let spaces = false;
    const chars = [...s];
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i];
      if (ch === ' ') {
        if (
          allowBreaks &&
          !spaces &&
          w.column > BEST_WIDTH &&
          i > 0 &&
          i < chars.length - 1 &&
          chars[i + 1] !== ' '
        )
          w.newline(indent);
        else w.put(ch);
        spaces = true;
      } else {
        if (ch === "'") w.put("'");
        w.put(ch);
        spaces = false;
      }
    }
    w.put("'");
  } else if (style === 'double') {
    let out = '"';
    for (const ch of s) {
      const c = ch.codePointAt(0)!;
      out +=
        !isPrintable(c) || c === 0xfeff || isBreakCode(c) || ch === '"' || ch === '\\'
          ? doubleQuoteEscape(ch)
          : ch;
    }
    w.put(out + '"');
  } else {
    // Literal block scalar with yaml_emitter_write_block_scalar_hints.
    let hints = '|';
    if (s[0] === ' ' || s[0] === '\n') hints += '2';
    if (!s.endsWith('\n')) hints += '-';
    else if (s.length === 1 || s.endsWith('\n\n')) hints += '+';
    w.put(hints);
    // Every line break of the value is written as is; text after a break is indented. The final
    // break (if any) is left to whatever the emitter writes next.
    const lines = s.split('\n');
    if (s.endsWith('\n')) lines.pop();
    w.put('\n' + lines.map((l) => (l === '' ? '' : ' '.repeat(indent) + l)).join('\n'));
  }
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function emptyCollection(v: unknown): string | undefined {
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (isMap(v) && sortedKeys(v).length === 0) return '{}';
  return undefined;
}

function writeScalarValue(w: Writer, v: unknown, indent: number): void {
  if (v === null || v === undefined) w.put('null');
  else if (typeof v === 'boolean') w.put(v ? 'true' : 'false');
  else if (typeof v === 'number')
    w.put(Number.isFinite(v) ? String(v) : Number.isNaN(v) ? '.nan' : v > 0 ? '+.inf' : '-.inf');
  else writeScalar(w, String(v), indent, false);
}

// writeMapping writes the keys of a non-empty mapping at column `indent`; the writer is already
// positioned at that column for the first key.
function writeMapping(w: Writer, m: Record<string, unknown>, indent: number): void {
  const keys = sortedKeys(m);
  keys.forEach((k, i) => {
    if (i > 0) w.newline(indent);
    writeScalar(w, k, indent + 2, true);
    w.put(':');
    writeValue(w, m[k], indent);
  });
}

// writeSequence writes the items of a non-empty sequence, "- " at column `indent`.
function writeSequence(w: Writer, s: unknown[], indent: number): void {
  s.forEach((item, i) => {
    if (i > 0) w.newline(indent);
    w.put('-');
    const empty = emptyCollection(item);
    if (empty !== undefined) w.put(' ' + empty);
    else if (isMap(item)) {
      w.put(' ');
      writeMapping(w, item, indent + 2);
    } else if (Array.isArray(item)) {
      w.put(' ');
      writeSequence(w, item, indent + 2);
    } else {
      w.put(' ');
      writeScalarValue(w, item, indent + 2);
    }
  });
}

// writeValue writes what follows "key:" for a key at column keyIndent.
function writeValue(w: Writer, v: unknown, keyIndent: number): void {
  const empty = emptyCollection(v);
  if (empty !== undefined) {
    w.put(' ' + empty);
  } else if (isMap(v)) {
    w.newline(keyIndent + 2);
    writeMapping(w, v, keyIndent + 2);
  } else if (Array.isArray(v)) {
    // yaml.v2 does not indent a sequence that is a mapping value.
    w.newline(keyIndent);
    writeSequence(w, v, keyIndent);
  } else {
    w.put(' ');
    writeScalarValue(w, v, keyIndent + 2);
  }
}

/** toYAML prints an object as `kubectl get -o yaml` does (sigs.k8s.io/yaml over yaml.v2). */
export function toYAML(obj: unknown): string {
  const w = new Writer();
  const empty = emptyCollection(obj);
  if (empty !== undefined) w.put(empty);
  else if (isMap(obj)) writeMapping(w, obj, 0);
  else if (Array.isArray(obj)) writeSequence(w, obj, 0);
  else writeScalarValue(w, obj, 0);
  return w.out + '\n';
}

// Mirrors staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (parsing only).
// Simplification: quantities are held as JavaScript numbers (milli-units for cpu, bytes for
// memory); values beyond 2^53 lose precision, which no course scenario reaches.

const BINARY: Record<string, number> = {
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  Pi: 1024 ** 5,
  Ei: 1024 ** 6,
};
const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

const QUANTITY = /^([+-]?[0-9.]+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?[0-9]+))?$/;

// Every Pod repeats its template's quantities and every component reads them again, so values
// are memoized by text (a bounded map: a cluster has few distinct quantities).
const parsed = new Map<string, number | undefined>();

/** parseQuantity returns the value of a Kubernetes quantity in base units, or undefined. */
export function parseQuantity(q: string | number): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  let v = parsed.get(q);
  if (v === undefined && !parsed.has(q)) {
    v = parseText(q);
    if (parsed.size >= 4096) parsed.clear();
    parsed.set(q, v);
  }
  return v;
}

function parseText(q: string): number | undefined {
  const m = QUANTITY.exec(q.trim());
  if (!m) return undefined;
  const num = Number(m[1]);
  if (!Number.isFinite(num) || (m[1].match(/\./g) ?? []).length > 1) return undefined;
  if (m[3] !== undefined) return num * 10 ** Number(m[3]);
  const suffix = m[2] ?? '';
  const mult = BINARY[suffix] ?? DECIMAL[suffix];
  return mult === undefined ? undefined : num * mult;
}

/** milliValue returns a quantity in thousandths, rounded up, as Quantity.MilliValue does. */
export function milliValue(q: string | number): number {
  const v = parseQuantity(q);
  return v === undefined ? 0 : Math.ceil(Math.round(v * 1e9) / 1e6);
}

/** value returns a quantity rounded up to an integer, as Quantity.Value does. */
export function value(q: string | number): number {
  const v = parseQuantity(q);
  return v === undefined ? 0 : Math.ceil(Math.round(v * 1e6) / 1e6);
}

// ---- canonical form (ParseQuantity, then MarshalJSON / CanonicalizeBytes) ----
//
// Mirrors staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (ParseQuantity,
// CanonicalizeBytes, MarshalJSON), amount.go (AsCanonicalBytes, AsCanonicalBase1024Bytes) and
// suffix.go. kube-apiserver decodes every quantity it receives and encodes it again, so an object
// read back holds the canonical text: "1024Mi" -> "1Gi", "0.5" -> "500m", "1000m" -> "1",
// "1.5Gi" -> "1536Mi". Values are exact (BigInt), not JavaScript numbers.

/** QuantityFormat is how a quantity is written, as resource.Format. */
export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** ParsedQuantity is a Quantity: value * 10^scale, its format, and the text kept when canonical. */
export interface ParsedQuantity {
  value: bigint;
  scale: number;
  format: QuantityFormat;
  /** s is the original text, kept only when it already is in canonical form (Quantity.s). */
  s?: string;
}

/** maxInt64Factors is the number of decimal digits the int64 fast path of ParseQuantity accepts. */
const maxInt64Factors = 18;
const NANO_SCALE = -9;
const MILLI_SCALE = -3;
const MAX_INT64 = (1n << 63n) - 1n;

const DECIMAL_SUFFIX_EXPONENT: Record<string, number> = { '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX_EXPONENT: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIX_EXPONENT).map(([s, e]) => [e, s]));
const BINARY_SUFFIX_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIX_EXPONENT).map(([s, e]) => [e, s]));

// interpretSuffix mirrors suffixer.interpret: base, exponent and format of a suffix.
function interpretSuffix(suf: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  const d = DECIMAL_SUFFIX_EXPONENT[suf];
  if (d !== undefined && Object.hasOwn(DECIMAL_SUFFIX_EXPONENT, suf)) return { base: 10, exponent: d, format: 'DecimalSI' };
  const b = BINARY_SUFFIX_EXPONENT[suf];
  if (b !== undefined && Object.hasOwn(BINARY_SUFFIX_EXPONENT, suf)) return { base: 2, exponent: b, format: 'BinarySI' };
  if (suf.length > 1 && (suf[0] === 'e' || suf[0] === 'E') && /^[+-]?[0-9]+$/.test(suf.slice(1))) {
    const e = Number(suf.slice(1));
    if (Number.isSafeInteger(e)) return { base: 10, exponent: e, format: 'DecimalExponent' };
  }
  return undefined;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

// splitQuantity mirrors parseQuantityString: sign, the numeric text, the integer digits without
// leading zeros, the fraction digits, and the suffix; undefined for ErrFormatWrong.
function splitQuantity(str: string): { positive: boolean; value: string; num: string; denom: string; suffix: string } | undefined {
  let pos = 0;
  const end = str.length;
  let positive = true;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  let num = str.slice(pos, i);
  if (i >= end) return { positive, value: str, num: num || '0', denom: '', suffix: '' };
  pos = i;
  if (num === '') num = '0';
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) return undefined;
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

// roundAwayFromZero divides value by 10^places, rounding away from zero (inf.RoundUp).
function roundAwayFromZero(value: bigint, places: number): { value: bigint; exact: boolean } {
  if (places <= 0) return { value, exact: true };
  const d = 10n ** BigInt(places);
  const q = value / d;
  const r = value % d;
  if (r === 0n) return { value: q, exact: true };
  return { value: value < 0n ? q - 1n : q + 1n, exact: false };
}

/** parseQuantityExact mirrors ParseQuantity; undefined when the text is not a quantity. */
export function parseQuantityExact(str: string): ParsedQuantity | undefined {
  if (str.length === 0) return undefined;
  if (str === '0') return { value: 0n, scale: 0, format: 'DecimalSI', s: str };
  const parts = splitQuantity(str);
  if (!parts) return undefined;
  const { positive, num, denom } = parts;
  const suf = interpretSuffix(parts.suffix);
  if (!suf) return undefined;
  const { base, exponent } = suf;
  let format = suf.format;

  // The int64 fast path: the text is kept when it already is canonical.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = maxInt64Factors - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO_SCALE) {
      const shifted = num + denom;
      const value = BigInt(shifted);
      let result = value * mantissa;
      if (result <= MAX_INT64) {
        if (!positive) result = -result;
        const canonical =
          format === 'BinarySI'
            ? exponent % 10 === 0 && (value & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return canonical ? { value: result, scale, format, s: str } : { value: result, scale, format };
      }
    }
  }

  // The inf.Dec path: exact, rounded up (away from zero) to a whole nano-unit.
  const digits = parts.value.replace(/^[+-]/, '');
  const dot = digits.indexOf('.');
  const intDigits = dot < 0 ? digits : digits.slice(0, dot);
  const fracDigits = dot < 0 ? '' : digits.slice(dot + 1);
  if (!/^[0-9]*$/.test(intDigits + fracDigits) || intDigits + fracDigits === '') return undefined;
  let value = BigInt(intDigits + fracDigits);
  scale = -fracDigits.length;
  if (base === 10) scale += exponent;
  else value *= 1n << BigInt(exponent);
  if (value !== 0n && scale < NANO_SCALE) {
    value = roundAwayFromZero(value, NANO_SCALE - scale).value;
    scale = NANO_SCALE;
  }
  if (format === 'BinarySI') {
    const capped = scale >= 0 ? value * 10n ** BigInt(scale) > MAX_INT64 : value > MAX_INT64 * 10n ** BigInt(-scale);
    if (capped) {
      value = MAX_INT64;
      scale = 0;
    }
    const lessThanOne = scale >= 0 ? false : value < 10n ** BigInt(-scale);
    if (value > 0n && lessThanOne) format = 'DecimalSI';
  }
  if (!positive) value = -value;
  return { value, scale, format };
}

/** formatQuantity mirrors Quantity.String (CanonicalizeBytes) of value * 10^scale. */
export function formatQuantity(value: bigint, scale: number, format: QuantityFormat): string {
  if (value === 0n) return '0';
  let f = format;
  let whole = 0n;
  if (f === 'BinarySI') {
    const abs = value < 0n ? -value : value;
    const below1024 = scale >= 0 ? abs * 10n ** BigInt(scale) < 1024n : abs < 1024n * 10n ** BigInt(-scale);
    if (below1024) f = 'DecimalSI';
    else if (scale >= 0) whole = value * 10n ** BigInt(scale);
    else {
      const r = roundAwayFromZero(value, -scale);
      // Don't lose precision: show as DecimalSI.
      if (!r.exact) f = 'DecimalSI';
      whole = r.value;
    }
  }
  if (f === 'BinarySI') {
    let exponent = 0;
    while (whole % 1024n === 0n && (whole >= 1024n || whole <= -1024n)) {
      whole /= 1024n;
      exponent += 10;
    }
    return `${whole}${BINARY_SUFFIX_BY_EXPONENT.get(exponent) ?? ''}`;
  }
  // AsCanonicalBytes: all factors of 10 into the exponent, then down to a multiple of 3.
  let m = value;
  let exponent = scale;
  while (m % 10n === 0n) {
    m /= 10n;
    exponent++;
  }
  while (exponent % 3 !== 0) {
    m *= 10n;
    exponent--;
  }
  if (f === 'DecimalExponent') return exponent === 0 ? `${m}` : `${m}e${exponent}`;
  const suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(exponent);
  // Simplification: DecimalSI has no suffix beyond E (10^18) or below n; such values (out of any
  // scenario's reach) fall back to exponent notation, as newer apimachinery does.
  return suffix !== undefined ? `${m}${suffix}` : `${m}e${exponent}`;
}

// Canonical texts are memoized like parsed values: a cluster has few distinct quantities.
const canonical = new Map<string, string | undefined>();
const canonicalMilli = new Map<string, string | undefined>();

/**
 * canonicalQuantity returns a quantity as kube-apiserver serves it after decoding: the text when
 * it already is canonical, else Quantity.String() (read back once more, see below). A JSON number is read from its JSON text, as
 * Quantity.UnmarshalJSON does; surrounding spaces are trimmed. undefined when not a quantity.
 * roundUpToMilli adds SetDefaults_ResourceList (pkg/apis/core/v1/defaults.go): Quantity.RoundUp
 * to milli-units, so "100u" or "0.1m" is stored as "1m".
 */
export function canonicalQuantity(q: string | number, roundUpToMilli = false): string | undefined {
  const text = typeof q === 'number' ? String(q) : q;
  const memo = roundUpToMilli ? canonicalMilli : canonical;
  let c = memo.get(text);
  if (c === undefined && !memo.has(text)) {
    const p = parseQuantityExact(text.trim());
    if (p !== undefined && roundUpToMilli && p.scale < MILLI_SCALE) {
      p.value = roundAwayFromZero(p.value, MILLI_SCALE - p.scale).value;
      p.scale = MILLI_SCALE;
      p.s = undefined;
    }
    c = p === undefined ? undefined : (p.s ?? formatQuantity(p.value, p.scale, p.format));
    // Every read decodes the stored text again: a BinarySI value printed without a suffix
    // ("2000") reads back as DecimalSI and prints as "2k". A second pass reaches the fixpoint.
    if (c !== undefined && c !== text) {
      const again = parseQuantityExact(c);
      if (again) c = again.s ?? formatQuantity(again.value, again.scale, again.format);
    }
    if (memo.size >= 4096) memo.clear();
    memo.set(text, c);
  }
  return c;
}

/**
 * defaultResourceList mirrors SetDefaults_ResourceList on a decoded ResourceList: every value in
 * canonical form, rounded up to milli-units. In place; a value already so is not written.
 */
export function defaultResourceList(list: Record<string, string> | undefined): void {
  if (!list) return;
  for (const k in list) {
    const v = list[k];
    if (v === undefined || v === null) continue;
    const c = canonicalQuantity(v, true);
    if (c !== undefined && c !== v) list[k] = c;
  }
}

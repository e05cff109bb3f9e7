// Mirrors staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go as kubectl prints it:
// exact arithmetic (BigInt nano-units here), the format (BinarySI or DecimalSI) remembered from
// the text, and Quantity.String()'s canonical form ("0.5" -> "500m", "1000m" -> "1",
// "2048Mi" -> "2Gi", "1000" -> "1k").
// Simplification: DecimalExponent quantities ("1e3") print in DecimalSI form.

const NANO = 1_000_000_000n;

export type QuantityFormat = 'BinarySI' | 'DecimalSI';

/** Quantity is a parsed resource quantity: value in nano-units plus its format. */
export interface Quantity {
  nano: bigint;
  format: QuantityFormat;
}

const BINARY_SUFFIX: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL_EXP: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

/** parseQuantityExact parses "250m", "1.5Gi", "2e3", 4; undefined if malformed. */
export function parseQuantityExact(q: string | number | undefined | null): Quantity | undefined {
  if (q === undefined || q === null) return undefined;
  const s = String(q).trim();
  const m =
    /^([+-]?)(\d*)(?:\.(\d*))?(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const sign = m[1] === '-' ? -1n : 1n;
  const intPart = m[2] || '0';
  const frac = m[3] ?? '';
  // mantissa = int.frac as an integer scaled by 10^-frac.length
  const mant = BigInt(intPart + frac);
  let scaleExp = -frac.length;
  let mult = 1n;
  let format: QuantityFormat = 'DecimalSI';
  if (m[4] !== undefined && BINARY_SUFFIX[m[4]] !== undefined) {
    mult = BINARY_SUFFIX[m[4]];
    format = 'BinarySI';
  } else if (m[4] !== undefined) {
    scaleExp += DECIMAL_EXP[m[4]];
  } else if (m[5] !== undefined) {
    scaleExp += Number(m[5]);
  }
  // nano = mant * mult * 10^(scaleExp + 9), rounded up to a whole nano-unit as Go does.
  const e = scaleExp + 9;
  let nano: bigint;
  if (e >= 0) nano = mant * mult * 10n ** BigInt(e);
  else {
    const d = 10n ** BigInt(-e);
    const num = mant * mult;
    nano = (num + d - 1n) / d;
  }
  return { nano: sign * nano, format };
}

/** zeroQuantity is the zero value Go prints as "0". */
export function zeroQuantity(format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nano: 0n, format };
}

/** addQuantity mirrors Quantity.Add: the result keeps the receiver's format. */
export function addQuantity(a: Quantity | undefined, b: Quantity): Quantity {
  if (!a) return { ...b };
  return { nano: a.nano + b.nano, format: a.format };
}

/** maxQuantity returns the larger of two quantities (the first's format on ties). */
export function maxQuantity(a: Quantity | undefined, b: Quantity): Quantity {
  if (!a) return { ...b };
  return b.nano > a.nano ? { ...b } : a;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  if (a >= 0n) return (a + b - 1n) / b;
  return a / b;
}

/** milliValue mirrors Quantity.MilliValue (rounded up). */
export function milliValueOf(q: Quantity | undefined): number {
  return q ? Number(ceilDiv(q.nano, 1_000_000n)) : 0;
}

/** valueOf mirrors Quantity.Value (rounded up). */
export function valueOf(q: Quantity | undefined): number {
  return q ? Number(ceilDiv(q.nano, NANO)) : 0;
}

const DECIMAL_SUFFIXES: [number, string][] = [
  [18, 'E'],
  [15, 'P'],
  [12, 'T'],
  [9, 'G'],
  [6, 'M'],
  [3, 'k'],
  [0, ''],
  [-3, 'm'],
  [-6, 'u'],
  [-9, 'n'],
];

const BINARY_SUFFIXES: [bigint, string][] = [
  [1n << 60n, 'Ei'],
  [1n << 50n, 'Pi'],
  [1n << 40n, 'Ti'],
  [1n << 30n, 'Gi'],
  [1n << 20n, 'Mi'],
  [1n << 10n, 'Ki'],
  [1n, ''],
];

/** quantityString mirrors Quantity.String() (CanonicalizeBytes). */
export function quantityString(q: Quantity | undefined): string {
  if (!q || q.nano === 0n) return '0';
  const abs = q.nano < 0n ? -q.nano : q.nano;
  const neg = q.nano < 0n ? '-' : '';
  if (q.format === 'BinarySI' && abs >= 1024n * NANO && abs % NANO === 0n) {
    const units = abs / NANO;
    for (const [m, suffix] of BINARY_SUFFIXES)
      if (units % m === 0n) return `${neg}${units / m}${suffix}`;
  }
  for (const [e, suffix] of DECIMAL_SUFFIXES) {
    const d = 10n ** BigInt(e + 9);
    if (abs % d === 0n) return `${neg}${abs / d}${suffix}`;
  }
  return `${neg}${abs}n`;
}

/** canonicalQuantity parses and re-prints a quantity as kubectl would show it. */
export function canonicalQuantity(s: string | number): string {
  const q = parseQuantityExact(s);
  return q ? quantityString(q) : String(s);
}

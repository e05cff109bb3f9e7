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

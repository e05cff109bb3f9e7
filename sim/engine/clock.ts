// The virtual clock. Time is an integer count of milliseconds since the simulation began; the
// wall clock never enters sim/. Timestamps shown to users are RFC 3339 strings counted from a
// fixed epoch so that every run prints the same dates.

/** EPOCH is the calendar date of virtual time 0: 2026-01-01T00:00:00Z, as Unix milliseconds. */
export const EPOCH_UNIX_MS = 1767225600000;

/** Clock is read by every component; only the Simulation advances it. */
export class Clock {
  /** nowMs is the current virtual time in milliseconds. */
  nowMs = 0;

  /** now returns the virtual time in milliseconds. */
  now(): number {
    return this.nowMs;
  }

  /** seconds returns the virtual time in seconds, as the trace records it. */
  seconds(): number {
    return this.nowMs / 1000;
  }
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

// civilFromDays converts days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant).
function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [m <= 2 ? y + 1 : y, m, d];
}

function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

// Components format "now" and a few other moments (a start, a deadline) over and over, so the
// seconds formatted are memoized: one string per second, shared by every object stamped with it.
let lastSecond = Number.NaN;
let lastFormatted = '';
const formatted = new Map<number, string>();

/** formatTime renders virtual milliseconds as metav1.Time does: second precision, UTC. */
export function formatTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second === lastSecond) return lastFormatted;
  let text = formatted.get(second);
  if (text === undefined) {
    text = formatSecond(second);
    if (formatted.size >= 4096) formatted.clear();
    formatted.set(second, text);
  }
  lastSecond = second;
  lastFormatted = text;
  return text;
}

function formatSecond(second: number): string {
  const unix = EPOCH_UNIX_MS + second * 1000;
  const days = Math.floor(unix / 86400000);
  const rem = unix - days * 86400000;
  const [y, mo, d] = civilFromDays(days);
  const h = Math.floor(rem / 3600000);
  const mi = Math.floor((rem % 3600000) / 60000);
  const s = Math.floor((rem % 60000) / 1000);
  return `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}Z`;
}

// The last second's MicroTime prefix ("...T00:00:05."), for formatMicroTime.
let lastMicroSecond = Number.NaN;
let lastMicroBase = '';

// MICRO_FRACTIONS[n] is the six-digit fraction of n whole milliseconds ("005000").
const MICRO_FRACTIONS = Array.from({ length: 1000 }, (_, n) => `${pad(n, 3)}000`);

/** formatMicroTime renders virtual milliseconds as metav1.MicroTime does (microseconds). */
export function formatMicroTime(ms: number): string {
  // Every Lease renewal formats one, so the second's prefix is memoized like formatTime's.
  const second = Math.floor(ms / 1000);
  if (second !== lastMicroSecond) {
    lastMicroSecond = second;
    lastMicroBase = `${formatTime(ms).slice(0, -1)}.`;
  }
  // A fractional millisecond (only from fractional settings) is not in the table.
  const fraction = MICRO_FRACTIONS[ms - second * 1000] ?? pad((((ms % 1000) + 1000) % 1000) * 1000, 6);
  return `${lastMicroBase}${fraction}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/;

// Controllers read the same stored timestamps (a Lease's renewTime, a condition's heartbeat) on
// every pass, so parsed values are memoized by their text, as formatTime memoizes the reverse.
const parsed = new Map<string, number>();

/** parseTime converts an RFC 3339 UTC timestamp back to virtual milliseconds. */
export function parseTime(s: string): number {
  let ms = parsed.get(s);
  if (ms === undefined) {
    ms = parseTimeText(s);
    if (parsed.size >= 1024) parsed.clear();
    parsed.set(s, ms);
  }
  return ms;
}

/**
 * timeBefore is a.Before(b) for two RFC 3339 UTC timestamps. Two texts of one fixed shape (as
 * formatTime and formatMicroTime write them) sort as their times do, so they are compared as
 * text; anything else is parsed.
 */
export function timeBefore(a: string, b: string): boolean {
  if (a.length === b.length && a.length >= 20 && a.length <= 30 && isFixedRFC3339(a) && isFixedRFC3339(b)) return a < b;
  return parseTime(a) < parseTime(b);
}

function parseTimeText(s: string): number {
  let y: number, mo: number, d: number, h: number, mi: number, sec: number, frac: string | undefined;
  // The common shapes (formatTime, formatMicroTime) are read in place; anything else by the regex.
  if (s.length >= 20 && s.length <= 30 && isFixedRFC3339(s)) {
    y = digits(s, 0, 4);
    mo = digits(s, 5, 2);
    d = digits(s, 8, 2);
    h = digits(s, 11, 2);
    mi = digits(s, 14, 2);
    sec = digits(s, 17, 2);
    frac = s.length > 20 ? s.slice(20, -1) : undefined;
  } else {
    const m = RFC3339.exec(s);
    if (!m) return Number.NaN;
    [y, mo, d, h, mi, sec] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
    frac = m[7];
  }
  const days = daysFromCivil(y, mo, d);
  const f = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0;
  const unix = days * 86400000 + h * 3600000 + mi * 60000 + sec * 1000 + f;
  return unix - EPOCH_UNIX_MS;
}

// isFixedRFC3339 checks what RFC3339 matches without running it: digits and separators at fixed
// places, then Z, or a dot, one to nine digits and Z.
function isFixedRFC3339(s: string): boolean {
  for (let i = 0; i < 19; i++) {
    const c = s.charCodeAt(i);
    const sep = i === 4 || i === 7 ? 45 : i === 10 ? 84 : i === 13 || i === 16 ? 58 : 0;
    if (sep ? c !== sep : c < 48 || c > 57) return false;
  }
  const n = s.length;
  if (s.charCodeAt(n - 1) !== 90) return false;
  if (n === 20) return true;
  if (s.charCodeAt(19) !== 46 || n < 22) return false;
  for (let i = 20; i < n - 1; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) v = v * 10 + s.charCodeAt(i) - 48;
  return v;
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;

/**
 * parseDuration reads Go-style durations ("90s", "5m", "1h30m", "250ms") into milliseconds.
 * It returns undefined for anything else, so callers can say what was expected.
 */
export function parseDuration(s: string | number): number | undefined {
  if (typeof s === 'number') return Number.isFinite(s) && s >= 0 ? s * 1000 : undefined;
  const t = s.trim();
  if (t === '0') return 0;
  if (!/^(\d+(?:\.\d+)?(ms|h|m|s))+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(DURATION_PART)) {
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3600000 : m[2] === 'm' ? n * 60000 : m[2] === 's' ? n * 1000 : n;
  }
  return Math.round(total);
}

/** formatDuration prints milliseconds as Go's time.Duration.String does for whole values. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3600000);
  const m = Math.floor((ms % 3600000) / 60000);
  const s = (ms % 60000) / 1000;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

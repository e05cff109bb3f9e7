// Mirrors staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go and the
// translateTimestampSince helpers of pkg/printers/internalversion/printers.go and
// staging/src/k8s.io/kubectl/pkg/describe/describe.go. Time comes in as virtual milliseconds.

import { EPOCH_UNIX_MS, parseTime } from '../engine/clock.ts';

// goInt truncates toward zero, as Go's int(float64) and integer division do.
function goInt(x: number): number {
  return Math.trunc(x);
}

/** shortHumanDuration mirrors duration.ShortHumanDuration: "45s", "3m", "5h", "12d", "2y". */
export function shortHumanDuration(ms: number): string {
  const seconds = goInt(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = goInt(ms / 60000);
  if (minutes < 60) return `${minutes}m`;
  const hours = goInt(ms / 3600000);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${goInt(hours / 24)}d`;
  return `${goInt(hours / 24 / 365)}y`;
}

/**
 * humanDuration mirrors duration.HumanDuration: about two significant figures, integer
 * truncation throughout ("119s", "2m1s", "179m", "3h1m", "47h", "7d23h", "729d", "2y1d", "8y").
 */
export function humanDuration(ms: number): string {
  const seconds = goInt(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = goInt(ms / 60000);
  if (minutes < 10) {
    const s = goInt(ms / 1000) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = goInt(ms / 3600000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${goInt(hours / 24)}d` : `${goInt(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${goInt(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = goInt(hours / 24) % 365;
    return dy === 0 ? `${goInt(hours / 24 / 365)}y` : `${goInt(hours / 24 / 365)}y${dy}d`;
  }
  return `${goInt(hours / 24 / 365)}y`;
}

/**
 * translateTimestampSince mirrors printers.go#translateTimestampSince: "<unknown>" for a zero
 * (absent) timestamp, otherwise HumanDuration(now - t). ts is RFC 3339; now is virtual ms.
 */
export function translateTimestampSince(ts: string | null | undefined, now: number): string {
  if (!ts) return '<unknown>';
  const t = parseTime(ts);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * formatRFC1123Z renders a timestamp as Go's time.RFC1123Z layout, "Mon, 02 Jan 2006 15:04:05
 * -0700", which describe uses for every absolute time. Virtual times are UTC ("+0000"); a zero
 * time prints as Go's zero time.Time does.
 */
export function formatRFC1123Z(ts: string | null | undefined): string {
  if (!ts) return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const ms = parseTime(ts);
  if (Number.isNaN(ms)) return ts;
  const unix = EPOCH_UNIX_MS + Math.floor(ms / 1000) * 1000;
  const days = Math.floor(unix / 86400000);
  const rem = unix - days * 86400000;
  // 1970-01-01 was a Thursday.
  const dow = DAYS[(((days + 4) % 7) + 7) % 7];
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(ts)!;
  const h = Math.floor(rem / 3600000);
  const mi = Math.floor((rem % 3600000) / 60000);
  const s = Math.floor((rem % 60000) / 1000);
  return `${dow}, ${m[3]} ${MONTHS[Number(m[2]) - 1]} ${m[1]} ${pad2(h)}:${pad2(mi)}:${pad2(s)} +0000`;
}

/**
 * formatGoTime renders a timestamp as Go's time.Time.String() prints a metav1.Time in UTC,
 * "2006-01-02 15:04:05 +0000 UTC", as describe's `%s` of a timestamp does (NetworkPolicy's
 * "Created on"); a zero time prints as Go's zero time.Time does.
 */
export function formatGoTime(ts: string | null | undefined): string {
  if (!ts) return '0001-01-01 00:00:00 +0000 UTC';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(ts);
  return m ? `${m[1]} ${m[2]} +0000 UTC` : ts;
}

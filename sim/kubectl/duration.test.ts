import { describe, expect, it } from 'vitest';
import {
  formatRFC1123Z,
  humanDuration,
  shortHumanDuration,
  translateTimestampSince,
} from './duration.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe('humanDuration (apimachinery duration.HumanDuration)', () => {
  const cases: [number, string][] = [
    // Clock skew: seconds < -1 is invalid, -1 and 0 print 0s (int truncation toward zero).
    [-2 * S, '<invalid>'],
    [-1999, '0s'],
    [-1 * S, '0s'],
    [-1, '0s'],
    [0, '0s'],
    [999, '0s'],
    [1 * S, '1s'],
    [119 * S + 999, '119s'],
    [2 * M, '2m'],
    [2 * M + 1 * S, '2m1s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M, '10m'],
    [10 * M + 59 * S, '10m'],
    [179 * M + 59 * S, '179m'],
    [3 * H, '3h'],
    [3 * H + 1 * M, '3h1m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H, '8h'],
    [8 * H + 59 * M, '8h'],
    [47 * H + 59 * M, '47h'],
    [48 * H, '2d'],
    [2 * D + 1 * H, '2d1h'],
    [7 * D + 23 * H, '7d23h'],
    [8 * D, '8d'],
    [8 * D + 23 * H, '8d'],
    [729 * D + 23 * H, '729d'],
    [730 * D, '2y'],
    [2 * Y + 1 * D, '2y1d'],
    [7 * Y + 364 * D, '7y364d'],
    [8 * Y, '8y'],
    [8 * Y + 100 * D, '8y'],
    [20 * Y, '20y'],
  ];
  for (const [ms, want] of cases)
    it(`${ms}ms -> ${want}`, () => expect(humanDuration(ms)).toBe(want));
});

describe('shortHumanDuration (apimachinery duration.ShortHumanDuration)', () => {
  const cases: [number, string][] = [
    [-2 * S, '<invalid>'],
    [-1 * S, '0s'],
    [0, '0s'],
    [59 * S + 999, '59s'],
    [60 * S, '1m'],
    [59 * M + 59 * S, '59m'],
    [60 * M, '1h'],
    [23 * H + 59 * M, '23h'],
    [24 * H, '1d'],
    [364 * D + 23 * H, '364d'],
    [365 * D, '1y'],
    [3 * Y + 200 * D, '3y'],
  ];
  for (const [ms, want] of cases)
    it(`${ms}ms -> ${want}`, () => expect(shortHumanDuration(ms)).toBe(want));
});

describe('translateTimestampSince', () => {
  it('prints <unknown> for a zero timestamp', () => {
    expect(translateTimestampSince(undefined, 0)).toBe('<unknown>');
    expect(translateTimestampSince(null, 0)).toBe('<unknown>');
    expect(translateTimestampSince('', 0)).toBe('<unknown>');
  });
  it('measures from the timestamp to now', () => {
    expect(translateTimestampSince('2026-01-01T00:00:00Z', 65 * S)).toBe('65s');
    expect(translateTimestampSince('2026-01-01T00:01:00Z', 0)).toBe('<invalid>');
    expect(translateTimestampSince('2025-12-31T23:00:00Z', 0)).toBe('60m');
  });
});

describe('formatRFC1123Z', () => {
  it('prints Go time.RFC1123Z in UTC', () => {
    expect(formatRFC1123Z('2026-01-01T00:00:00Z')).toBe('Thu, 01 Jan 2026 00:00:00 +0000');
    expect(formatRFC1123Z('2025-12-31T23:59:05Z')).toBe('Wed, 31 Dec 2025 23:59:05 +0000');
    expect(formatRFC1123Z('2026-03-02T07:08:09.123456Z')).toBe('Mon, 02 Mar 2026 07:08:09 +0000');
  });
});

import { describe, expect, it } from 'vitest';
import { formatDuration, formatMicroTime, formatTime, parseDuration, parseTime, timeBefore } from './clock.ts';

describe('virtual clock formatting', () => {
  it('maps virtual 0 to 2026-01-01T00:00:00Z and round-trips', () => {
    expect(formatTime(0)).toBe('2026-01-01T00:00:00Z');
    expect(formatTime(90_500)).toBe('2026-01-01T00:01:30Z');
    expect(formatTime(-60_000)).toBe('2025-12-31T23:59:00Z');
    expect(formatTime(59 * 86400_000)).toBe('2026-03-01T00:00:00Z');
    for (const ms of [0, 1000, 86_399_000, 400 * 86400_000, -3_600_000]) expect(parseTime(formatTime(ms))).toBe(ms);
  });
  it('prints MicroTime with six fractional digits', () => {
    expect(formatMicroTime(1234)).toBe('2026-01-01T00:00:01.234000Z');
    expect(parseTime('2026-01-01T00:00:01.234000Z')).toBe(1234);
  });
  it('orders timestamps by time, as text when they share a shape and parsed when not', () => {
    const times = [-61_000, -1, 0, 999, 1000, 59_999, 3_600_000, 400 * 86400_000];
    for (const a of times)
      for (const b of times) {
        expect(timeBefore(formatMicroTime(a), formatMicroTime(b))).toBe(a < b);
        expect(timeBefore(formatTime(a), formatTime(b))).toBe(Math.floor(a / 1000) < Math.floor(b / 1000));
        // Different shapes (a MicroTime and a whole-second Time) are parsed, not compared as text.
        expect(timeBefore(formatTime(a), formatMicroTime(b))).toBe(Math.floor(a / 1000) * 1000 < b);
      }
    expect(timeBefore('2026-01-01T00:00:01.5Z', '2026-01-01T00:00:01.25Z')).toBe(false);
  });
  it('parses Go durations and rejects others', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration(15)).toBe(15_000);
    for (const bad of ['', 'ten', '5', '5 m', '-1s', 'm5']) expect(parseDuration(bad)).toBeUndefined();
    expect(formatDuration(330_000)).toBe('5m30s');
  });
});

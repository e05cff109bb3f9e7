import { describe, expect, it } from 'vitest';
import { clockText, parseRound, roundKey } from './quiz-set.ts';

describe('a finished interview round in storage', () => {
  it('is kept per page and set', () => {
    expect(roundKey('/demo/interview/', 'quiz-set-1')).toBe(
      'kal:quiz-set:/demo/interview/#quiz-set-1',
    );
  });
  it('reads back what was stored, and nothing from damaged or foreign data', () => {
    const stored = {
      version: 1,
      timeUp: true,
      results: [['q1', { score: 0.5, correct: false, final: true }]],
    };
    expect(parseRound(JSON.stringify(stored))).toEqual(stored);
    for (const bad of [null, '', '{', '[]', '{"version":2,"results":[]}', '{"version":1}'])
      expect(parseRound(bad)).toBeUndefined();
    expect(
      parseRound('{"version":1,"results":[["q1",{"score":"x"}],["q2",{"score":1,"correct":true}]]}')
        ?.results,
    ).toEqual([['q2', { score: 1, correct: true }]]);
  });
  it('formats the clock', () => {
    expect(clockText(61_000)).toBe('1:01');
    expect(clockText(-5)).toBe('0:00');
  });
});

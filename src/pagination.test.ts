import { describe, expect, it } from 'vitest';
import { onSameSide, slugOf } from './pagination.ts';

const LOCALES = ['ja'];
const path = new Set(['course/outline', 'lessons/01-a/01-x', 'lessons/06-authoring/01-guide']);
const link = (href: string) => ({ href, label: href });

describe('slugOf', () => {
  it('drops the language prefix and the slashes', () => {
    expect(slugOf('/course/outline/', LOCALES)).toBe('course/outline');
    expect(slugOf('/ja/course/outline/', LOCALES)).toBe('course/outline');
    expect(slugOf('/ja/', LOCALES)).toBe('');
    expect(slugOf('/japan/x/', LOCALES)).toBe('japan/x');
  });
});

describe('onSameSide', () => {
  it('keeps links along the lesson path, in both languages', () => {
    const next = link('/lessons/01-a/01-x/');
    expect(onSameSide(next, 'course/outline', path, LOCALES)).toBe(next);
    const prev = link('/ja/course/outline/');
    expect(onSameSide(prev, 'lessons/01-a/01-x', path, LOCALES)).toBe(prev);
  });

  it('drops a link from the last lesson into the reference pages, and back', () => {
    expect(
      onSameSide(link('/course/fidelity/'), 'lessons/06-authoring/01-guide', path, LOCALES),
    ).toBeUndefined();
    expect(
      onSameSide(link('/ja/lessons/06-authoring/01-guide/'), 'course/fidelity', path, LOCALES),
    ).toBeUndefined();
  });

  it('keeps links between reference pages, and passes no link through', () => {
    const next = link('/course/progress/');
    expect(onSameSide(next, 'course/fidelity', path, LOCALES)).toBe(next);
    expect(onSameSide(undefined, 'course/outline', path, LOCALES)).toBeUndefined();
  });
});

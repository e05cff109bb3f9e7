import { describe, expect, it } from 'vitest';
import { LessonFrontmatterSchema, MODULE_COUNT, formatLessonIssues } from './lesson.ts';

function issuesOf(input: unknown): string[] {
  const result = LessonFrontmatterSchema.safeParse(input);
  if (result.success) throw new Error('expected the front matter to be rejected');
  return formatLessonIssues('lessons/example.mdx', result.error);
}

describe('LessonFrontmatterSchema', () => {
  it('accepts a page with no lesson fields (home, outline)', () => {
    expect(LessonFrontmatterSchema.parse({})).toEqual({});
  });

  it('accepts a complete lesson', () => {
    const lesson = { module: 2, order: 3, concepts: ['informer', 'workqueue'], duration: 15 };
    expect(LessonFrontmatterSchema.parse(lesson)).toEqual(lesson);
  });

  it('rejects a module outside the outline, naming the field', () => {
    expect(issuesOf({ module: MODULE_COUNT + 1 })).toEqual([
      `lessons/example.mdx: module: expected a module number from 1 to ${MODULE_COUNT}`,
    ]);
    expect(issuesOf({ module: 0 })).toEqual([
      `lessons/example.mdx: module: expected a module number from 1 to ${MODULE_COUNT}`,
    ]);
  });

  it('rejects a module given as text', () => {
    expect(issuesOf({ module: 'one' })).toEqual([
      'lessons/example.mdx: module: expected a module number',
    ]);
  });

  it('points at the bad element of concepts by index', () => {
    expect(issuesOf({ concepts: ['informer', '  '] })).toEqual([
      'lessons/example.mdx: concepts[1]: expected a non-empty concept name',
    ]);
  });

  it('reports every bad field, not just the first', () => {
    expect(issuesOf({ order: 1.5, duration: 0 })).toEqual([
      'lessons/example.mdx: order: expected a whole lesson position',
      'lessons/example.mdx: duration: expected a duration of at least 1 minute',
    ]);
  });
});

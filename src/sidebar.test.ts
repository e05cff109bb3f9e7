import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MODULES } from './course.ts';
import {
  OUTLINE,
  REFERENCE_GROUPS,
  courseLessons,
  courseSidebar,
  lessonPath,
  lessonSidebar,
} from './sidebar.ts';

const docsRoot = resolve(import.meta.dirname, '..', 'content', 'docs');

let root: string | undefined;

/** docsTree makes a temporary content/docs with the given files and returns its path. */
function docsTree(files: string[]): string {
  root = mkdtempSync(join(tmpdir(), 'sidebar-test-'));
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), '---\ntitle: x\n---\n');
  }
  return root;
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe('lessonSidebar', () => {
  it('is empty before any lesson exists', () => {
    expect(lessonSidebar(docsTree(['index.mdx']))).toEqual([]);
  });

  it('groups lessons by module, in file-name order, index first, drafts left out', () => {
    const docs = docsTree([
      'lessons/03-node-failure/02-eviction.mdx',
      'lessons/03-node-failure/01-leases.md',
      'lessons/03-node-failure/_03-draft.mdx',
      'lessons/01-architecture/01-components.mdx',
      'lessons/01-architecture/index.mdx',
      'lessons/01-architecture/notes.txt',
      'ja/lessons/01-architecture/01-components.mdx',
    ]);
    expect(lessonSidebar(docs)).toEqual([
      {
        label: `1. ${MODULES[0]?.title.en}`,
        translations: { ja: `1. ${MODULES[0]?.title.ja}` },
        items: [
          { slug: 'lessons/01-architecture' },
          { slug: 'lessons/01-architecture/01-components' },
        ],
      },
      {
        label: `3. ${MODULES[2]?.title.en}`,
        translations: { ja: `3. ${MODULES[2]?.title.ja}` },
        items: [
          { slug: 'lessons/03-node-failure/01-leases' },
          { slug: 'lessons/03-node-failure/02-eviction' },
        ],
      },
    ]);
  });

  it('skips a module folder that holds only drafts', () => {
    expect(lessonSidebar(docsTree(['lessons/02-apply/_01-wip.mdx']))).toEqual([]);
  });
});

describe('courseSidebar', () => {
  it('puts the outline first, then the lessons by module, then the reference groups', () => {
    const docs = docsTree([
      'lessons/02-apply/01-apply.mdx',
      'lessons/01-architecture/02-watch.mdx',
      'lessons/01-architecture/01-components.mdx',
    ]);
    const sidebar = courseSidebar(docs);
    expect(sidebar[0]).toEqual({ slug: OUTLINE });
    expect(sidebar.slice(1, 3)).toEqual(lessonSidebar(docs));
    expect(sidebar.slice(3)).toEqual(REFERENCE_GROUPS);
    expect(lessonPath(docs)).toEqual([
      OUTLINE,
      'lessons/01-architecture/01-components',
      'lessons/01-architecture/02-watch',
      'lessons/02-apply/01-apply',
    ]);
  });

  it('keeps every page that is not a lesson out of the lesson path', () => {
    const path = new Set(lessonPath(docsRoot));
    const reference = REFERENCE_GROUPS.flatMap((g) => g.items.map((i) => i.slug));
    expect(reference).toEqual(
      expect.arrayContaining(['course/fidelity', 'course/progress', 'review']),
    );
    for (const slug of reference) expect(path.has(slug)).toBe(false);
  });
});

describe("the course's own pages", () => {
  const lessons = courseLessons(docsRoot);

  it('list a lesson for every module, in module order', () => {
    expect(lessons.length).toBeGreaterThanOrEqual(MODULES.length);
    expect(lessons.map((l) => l.module)).toEqual(
      [...lessons.map((l) => l.module)].sort((a, b) => a - b),
    );
    expect(new Set(lessons.map((l) => l.module))).toEqual(new Set(MODULES.map((m) => m.number)));
  });

  // LessonList renders the links from courseLessons, so a page that uses it links every lesson
  // (e2e/site.spec.ts follows the links on the built pages).
  for (const lang of ['', 'ja/']) {
    it(`link every lesson from the ${lang ? 'Japanese' : 'English'} home page and outline`, () => {
      const home = readFileSync(join(docsRoot, lang, 'index.mdx'), 'utf8');
      expect(home).toMatch(/^<LessonList \/>$/m);
      const outline = readFileSync(join(docsRoot, lang, 'course', 'outline.mdx'), 'utf8');
      for (const m of MODULES) {
        const section = outline.split(/^## /m).find((s) => s.startsWith(`${m.number}. `));
        expect(section, `outline section for module ${m.number}`).toMatch(
          new RegExp(`^<LessonList module=\\{${m.number}\\} />$`, 'm'),
        );
      }
    });
  }
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MODULES } from './course.ts';
import { lessonSidebar } from './sidebar.ts';

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

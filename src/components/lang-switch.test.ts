import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePending, sectionIndex } from './lang-switch.ts';

const headings = [
  { id: 'a', top: -900 },
  { id: 'b', top: -100 },
  { id: 'c', top: 150 },
  { id: 'd', top: 1200 },
];

describe('sectionIndex', () => {
  it('picks the last heading above the reading line', () => {
    expect(sectionIndex(headings, '', 900, 270)).toBe(2);
    expect(sectionIndex(headings, '', 900, 100)).toBe(1);
  });

  it('prefers the heading the hash names while it is on screen, not once scrolled away', () => {
    expect(sectionIndex(headings, 'c', 900, 100)).toBe(2);
    expect(sectionIndex(headings, 'a', 900, 270)).toBe(2);
    expect(sectionIndex(headings, 'd', 900, 270)).toBe(2);
  });

  it('is -1 above the first heading', () => {
    expect(sectionIndex([{ id: 'a', top: 400 }], '', 900, 270)).toBe(-1);
    expect(sectionIndex([], 'x', 900, 270)).toBe(-1);
  });
});

describe('parsePending', () => {
  it('reads a stored switch and rejects anything else', () => {
    expect(parsePending('{"path":"/ja/x/","index":3}')).toEqual({ path: '/ja/x/', index: 3 });
    for (const bad of [
      null,
      '',
      '{',
      '3',
      'null',
      '{"path":"/x/"}',
      '{"path":1,"index":1}',
      '{"path":"/x/","index":1.5}',
    ]) {
      expect(parsePending(bad)).toBeUndefined();
    }
  });
});

// The switch maps a section to its twin by heading index, which holds only while the twins'
// outlines match: the same headings, at the same levels, in the same order.
describe('every Japanese page has the outline of its English twin', () => {
  const docs = resolve(import.meta.dirname, '..', '..', 'content', 'docs');
  /** outline lists the levels of a page's Markdown headings, outside code fences. */
  const outline = (file: string): number[] => {
    let fenced = false;
    const levels: number[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (/^(```|~~~)/.test(line)) fenced = !fenced;
      const m = /^(#{2,6}) /.exec(line);
      if (!fenced && m) levels.push(m[1]!.length);
    }
    return levels;
  };
  const pages = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? e.name === 'ja' && dir === docs
          ? []
          : pages(join(dir, e.name))
        : /^[^_].*\.mdx?$/.test(e.name)
          ? [join(dir, e.name)]
          : [],
    );
  for (const en of pages(docs)) {
    const name = relative(docs, en);
    const ja = join(docs, 'ja', name);
    it.runIf(existsSync(ja))(name, () => {
      expect(outline(ja)).toEqual(outline(en));
    });
  }
});

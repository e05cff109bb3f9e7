import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ScenarioError } from '../../sim/index.ts';
import {
  AuthorError,
  dedupe,
  formatAuthorIssue,
  fromScenarioError,
  locateText,
} from './author-error.ts';

describe('AuthorError', () => {
  const a = {
    file: 'content/scenarios/x.yaml',
    line: 6,
    column: 12,
    text: 'fault: found "node-dwn", expected one of node-down',
  };
  it('prints each cause once as file:line:column, and points the dev overlay at the first', () => {
    const e = new AuthorError([
      a,
      { ...a },
      { file: 'content/questions/q.yaml', text: 'id: already used' },
    ]);
    expect(e.message).toBe(
      '2 author errors:\n  content/scenarios/x.yaml:6:12: fault: found "node-dwn", expected one of node-down\n  content/questions/q.yaml: id: already used',
    );
    expect(e.loc).toEqual({
      file: join(process.cwd(), 'content/scenarios/x.yaml'),
      line: 6,
      column: 12,
    });
    expect(e.hint).toMatch(/Fix the file/);
    expect(e.stack).not.toMatch(/\n\s+at /);
    expect(new AuthorError([a]).message).toBe(`Author error:\n  ${formatAuthorIssue(a)}`);
  });
  it('dedupes by file, position and text only', () => {
    expect(dedupe([a, a, { ...a, line: 7 }, { ...a, text: 'other' }])).toHaveLength(3);
  });
  it('turns a ScenarioError into issues against the scenario file without repeating the position', () => {
    const e = new ScenarioError('content/scenarios/x.yaml', [
      { text: 'step 1 (at 60s): fault (line 6, column 12): found "node-dwn"', line: 6, column: 12 },
      {
        text: 'line 2, column 1: Map keys must be unique; expected valid YAML',
        line: 2,
        column: 1,
      },
    ]);
    expect(fromScenarioError(e)).toEqual([
      {
        file: 'content/scenarios/x.yaml',
        line: 6,
        column: 12,
        text: 'step 1 (at 60s): fault: found "node-dwn"',
      },
      {
        file: 'content/scenarios/x.yaml',
        line: 2,
        column: 1,
        text: 'Map keys must be unique; expected valid YAML',
      },
    ]);
  });
  it('finds text in a file by line and column', () => {
    expect(locateText('a\nb scenario="x"\n', '"x"')).toEqual({ line: 2, column: 12 });
    expect(locateText('abc', 'z')).toBeUndefined();
  });
});

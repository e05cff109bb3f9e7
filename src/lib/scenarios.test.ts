import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthorError } from './author-error.ts';
import { loadScenario, scenarioNames, scenarioText } from './scenarios.ts';

const root = mkdtempSync(join(tmpdir(), 'kal-scenarios-'));
mkdirSync(join(root, 'content', 'scenarios'), { recursive: true });
mkdirSync(join(root, 'content', 'docs'), { recursive: true });
writeFileSync(
  join(root, 'content', 'scenarios', 'node-failure.yaml'),
  'name: node-failure\nseed: 1\nuntil: 1m\n',
);
writeFileSync(
  join(root, 'content', 'scenarios', 'broken.yaml'),
  'name: broken\nseed: 1\nuntil: 1m\nsteps:\n  - at: 1s\n    fault: node-dwn\n    node: node-1\n',
);
writeFileSync(
  join(root, 'content', 'docs', 'page.mdx'),
  '# Page\n\n<SequenceDiagram scenario="node-falure" />\n',
);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function thrown(f: () => unknown): AuthorError {
  try {
    f();
  } catch (e) {
    if (e instanceof AuthorError) return e;
    throw e;
  }
  throw new Error('expected an AuthorError');
}

describe('the scenario loader', () => {
  it('lists scenarios and loads one by name', () => {
    expect(scenarioNames(root)).toEqual(['broken', 'node-failure']);
    expect(
      loadScenario('node-failure', { file: 'content/docs/page.mdx' }, root).scenario.name,
    ).toBe('node-failure');
  });
  it('reports a wrong name against the file that uses it, at the reference, with a did-you-mean', () => {
    const e = thrown(() =>
      scenarioText(
        'node-falure',
        {
          file: 'content/docs/page.mdx',
          needle: '"node-falure"',
          field: '<SequenceDiagram scenario>',
        },
        root,
      ),
    );
    expect(e.issues).toEqual([
      {
        file: 'content/docs/page.mdx',
        line: 3,
        column: 27,
        text: '<SequenceDiagram scenario>: found "node-falure", expected the name of a file in content/scenarios/ (broken, node-failure); did you mean node-failure?',
      },
    ]);
    expect(e.message).not.toContain('ENOENT');
    expect(
      thrown(() => scenarioText('../secret', { file: 'content/docs/page.mdx' }, root)).issues[0]
        ?.text,
    ).toMatch(/^scenario: found "..\/secret", expected the name of a file/);
  });
  it('reports a mistake in a scenario against the scenario file, at its line and column', () => {
    expect(
      thrown(() => loadScenario('broken', { file: 'content/docs/page.mdx' }, root)).issues,
    ).toEqual([
      {
        file: 'content/scenarios/broken.yaml',
        line: 6,
        column: 12,
        text: 'step 1 (at 1s): fault: found "node-dwn", expected one of node-down, node-up, partition, heal, kubelet-stop, kubelet-start, apiserver-down, apiserver-up, etcd-down, etcd-up, etcd-member-down, etcd-member-up; did you mean node-down?',
      },
    ]);
  });
});

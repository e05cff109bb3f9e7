// The build's content check: every mistake once, against the file that is wrong; English-only
// pages and questions listed as untranslated.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthorError, formatAuthorIssue } from '../lib/author-error.ts';
import { contentIssues, reportedRenderError, untranslated } from './authoring.ts';

const root = mkdtempSync(join(tmpdir(), 'kal-authoring-'));
const write = (file: string, text: string) => {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), text);
};
afterAll(() => rmSync(root, { recursive: true, force: true }));

const question = (
  id: string,
  scenario: string,
  prompt = '{ en: Who binds?, ja: 誰がバインドしますか。 }',
) => `  - id: ${id}
    kind: choice
    concepts: [scheduler-binding]
    scenario: ${scenario}
    prompt: ${prompt}
    measure: { actors: { verb: create, resource: pods/binding } }
    options:
      - { value: kube-scheduler, label: { en: kube-scheduler, ja: kube-scheduler } }
      - { value: kubelet, label: { en: kubelet } }
    explanation: { en: "It was {{answer}}.", ja: "{{answer}} でした。" }
`;

write(
  'content/scenarios/broken.yaml',
  'name: broken\nseed: 1\nuntil: 1m\nsteps:\n  - at: 1s\n    fault: node-dwn\n    node: node-1\n',
);
write('content/scenarios/ok.yaml', 'name: ok\nseed: 1\nuntil: 1m\n');
write(
  'content/scenarios/param.yaml',
  'name: param\nseed: 1\nuntil: 1m\nsteps:\n  - at: {{t}}\n    kubectl: get pods\n',
);
write(
  'content/questions/a.yaml',
  `questions:\n${question('q1', 'broken')}${question('q2', 'broken')}${question('q3', 'ok', '{ en: Who binds? }')}`,
);
write('content/questions/b.yaml', `questions:\n${question('q4', 'okk')}`);
write('content/docs/index.mdx', '# Home\n');
write('content/docs/lessons/new.mdx', '# New\n');
write('content/docs/ja/index.mdx', '# ホーム\n');

describe('contentIssues', () => {
  it('reports a broken scenario once however many questions use it, against the scenario file', () => {
    const issues = contentIssues(root);
    expect(issues).toEqual([
      {
        file: 'content/scenarios/broken.yaml',
        line: 6,
        column: 12,
        text: 'step 1 (at 1s): fault: found "node-dwn", expected one of node-down, node-up, partition, heal, kubelet-stop, kubelet-start, apiserver-down, apiserver-up, etcd-down, etcd-up, etcd-member-down, etcd-member-up; did you mean node-down?',
      },
      {
        file: 'content/questions/b.yaml',
        line: 5,
        column: 15,
        text: 'question q4: scenario: found "okk", expected one of broken, ok, param; did you mean ok?',
      },
    ]);
  });
});

describe('untranslated', () => {
  it('lists pages without a Japanese twin and question texts without Japanese', () => {
    expect(untranslated(root)).toEqual([
      'content/docs/lessons/new.mdx has no Japanese page (content/docs/ja/lessons/new.mdx): /ja/ shows the English page with a notice',
    ]);
    write('content/questions/a.yaml', `questions:\n${question('q3', 'ok', '{ en: Who binds? }')}`);
    rmSync(join(root, 'content/questions/b.yaml'));
    rmSync(join(root, 'content/scenarios/broken.yaml'));
    expect(contentIssues(root)).toEqual([]);
    expect(untranslated(root)).toEqual([
      'content/docs/lessons/new.mdx has no Japanese page (content/docs/ja/lessons/new.mdx): /ja/ shows the English page with a notice',
      'content/questions/a.yaml: question q3 has no Japanese for prompt, options[1].label: the Japanese site shows the English text with a notice',
    ]);
  });
});

describe('render errors under astro dev', () => {
  const issue = {
    file: 'content/scenarios/x.yaml',
    line: 25,
    column: 12,
    text: 'step 3 (at 30s): fault: found "node-dwn", expected one of node-down; did you mean node-down?',
  };
  const other = {
    file: 'content/questions/y.yaml',
    line: 5,
    column: 15,
    text: 'scenario: found "x"',
  };
  /**
   * astroLogs is the message Astro 7 logs for a page that failed to render (recordServerError in
   * vite-plugin-astro-server/error.js, formatErrorMessage): the error's message, then its own
   * sections, in bold in a terminal. As seen under `astro dev` with a broken scenario.
   */
  const astroLogs = (err: Error, bold = (s: string) => `\u001b[1m${s}\u001b[22m`) =>
    [
      err.message,
      `  ${bold('Hint:')}`,
      '    This issue often occurs when your MDX component encounters runtime errors.',
      `  ${bold('Stack trace:')}`,
      `    at /work/${issue.file}:25:12`,
      '    [...] See full stack trace in the browser, or rerun with --verbose.',
    ].join('\n');
  const reported = new Set([formatAuthorIssue(issue)]);

  it('are left out when they repeat what the [authoring] line reported', () => {
    expect(reportedRenderError(astroLogs(new AuthorError([issue])), reported)).toBe(true);
    expect(
      reportedRenderError(
        astroLogs(new AuthorError([issue]), (s) => s),
        reported,
      ),
    ).toBe(true);
  });
  it('are kept when any issue was not reported, or the error is not an author error', () => {
    expect(reportedRenderError(astroLogs(new AuthorError([issue, other])), reported)).toBe(false);
    expect(reportedRenderError(astroLogs(new AuthorError([other])), reported)).toBe(false);
    expect(reportedRenderError(astroLogs(new Error(formatAuthorIssue(issue))), reported)).toBe(
      false,
    );
    expect(reportedRenderError(astroLogs(new TypeError('x is undefined')), reported)).toBe(false);
    expect(reportedRenderError(undefined, reported)).toBe(false);
  });
});

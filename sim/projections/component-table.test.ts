/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { golden, runNamed as run } from './testing.ts';
import { COMPONENTS } from './components.ts';
import { componentTable, toMarkdownTable } from './component-table.ts';

const apply = run('apply-to-running', 1);

describe('componentTable (apply-to-running seed 1)', () => {
  const en = componentTable(apply.trace);
  const ja = componentTable(apply.trace, { lang: 'ja' });

  it('matches the golden rows and Markdown, in English and Japanese', () => {
    golden('apply-to-running.component-table.en.json', `${JSON.stringify(en, null, 2)}\n`);
    golden('apply-to-running.component-table.en.md', toMarkdownTable(en, 'en'));
    golden('apply-to-running.component-table.ja.md', toMarkdownTable(ja, 'ja'));
  });

  it('takes watches and writes from the trace', () => {
    const row = (c: string) => en.find((r) => r.component === c)!;
    expect(row('kube-scheduler').watches).toContain('pods');
    expect(row('kube-scheduler').writes).toContain('create pods/binding');
    expect(row('replicaset-controller').writes).toContain('create pods');
    expect(row('kubelet').writes).toEqual(
      expect.arrayContaining(['patch pods/status', 'update leases', 'RunPodSandbox (CRI)']),
    );
    expect(row('container-runtime').writes).toEqual(['ADD (CNI)']);
    expect(row('kubectl').writes).toEqual(['create deployments', 'create services']);
    expect(row('etcd').writes).toEqual([]);
    // Failed requests are not writes: deployment-controller got a 409 on deployments/status here.
    expect(
      apply.trace.some(
        (e) => e.kind === 'request' && e.from === 'deployment-controller' && e.code === 409,
      ),
    ).toBe(true);
  });

  it('uses one description table for both languages', () => {
    expect(ja.map((r) => r.component)).toEqual(en.map((r) => r.component));
    expect(ja.map((r) => r.writes)).toEqual(en.map((r) => r.writes));
    const s = ja.find((r) => r.component === 'kube-scheduler')!;
    expect(s.where).toBe(COMPONENTS['kube-scheduler'].where.ja);
    expect(s.decides).toBe(COMPONENTS['kube-scheduler'].decides.ja);
    expect(toMarkdownTable(ja, 'ja').split('\n')[0]).toBe(
      '| コンポーネント | 動く場所 | 監視するもの | 判断のしかた | 書き込むもの・行うこと |',
    );
    for (const info of Object.values(COMPONENTS)) {
      expect(info.where.ja).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      expect(info.decides.ja).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
  });

  it('can keep per-node rows and escapes table cells', () => {
    const rows = componentTable(apply.trace, { mergeNodes: false });
    expect(rows.map((r) => r.component)).toContain('kubelet@node-1');
    const md = toMarkdownTable([{ ...rows[0], decides: 'a | b' }]);
    expect(md).toContain('a \\| b');
  });
});

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { restore, snapshot } from '../scenario/snapshot.ts';
import { whyChain, type WhyWrite } from './why.ts';

const YAML = parse(
  readFileSync(new URL('../../content/scenarios/node-failure.yaml', import.meta.url), 'utf8'),
);

/** runWith plays node-failure (seed 7) to 7 min with one extra fault at 50 s. */
function runWith(fault: string, node: string) {
  const r = restore(snapshot(YAML, 7, 420_000, [{ at: 50_000, fault, node }])).result();
  return { trace: r.trace, changes: r.changes };
}

const kinds = (w: WhyWrite) => w.because.map((l) => l.kind);

describe('whyChain', () => {
  const stopped = runWith('node-down', 'node-2');
  const chain = whyChain(stopped, 'node', 'node-2');
  const unknown = chain.find((w) => w.result?.startsWith('Ready=Unknown'))!;

  it('says what the node-lifecycle controller set Ready to', () => {
    expect(unknown.component).toBe('node-lifecycle-controller');
    expect(unknown.write).toBe('update nodes/status');
    expect(unknown.result).toBe(
      'Ready=Unknown NodeStatusUnknown: Kubelet stopped posting node status.',
    );
  });

  it('follows Ready=Unknown past the timer to the missed Lease renewals and the fault', () => {
    expect(kinds(unknown)).toEqual(['entry', 'lease', 'fault']);
    const [timer, lease, fault] = unknown.because;
    expect(timer.text).toBe('timer monitorNodeHealth node-2');
    expect(lease.params?.lease).toBe('kube-node-lease/node-2');
    expect(lease.t).toBeLessThan(50);
    expect(Number(lease.params?.silent)).toBeGreaterThan(50);
    expect(lease.params?.grace).toBe(50);
    expect(fault.params).toEqual({ fault: 'node-down', node: 'node-2' });
    expect(fault.t).toBe(50);
  });

  it('follows the NoExecute taint back through Ready=Unknown to the fault', () => {
    const taint = chain.filter((w) => w.fields.includes('spec.taints')).at(-1)!;
    expect(kinds(taint)).toEqual(['entry', 'entry', 'entry', 'lease', 'fault']);
    expect(taint.because[1].text).toBe('update nodes/status node-2 (status.conditions) → 200');
  });

  it('follows a taint eviction back to the toleration, the taint and the fault', () => {
    const del = stopped.trace.find(
      (e) =>
        e.kind === 'request' &&
        e.verb === 'delete' &&
        e.from === 'taint-eviction-controller' &&
        e.namespace === 'default',
    )!;
    expect(del.kind === 'request' && del.name).toBeTruthy();
    const name = del.kind === 'request' ? del.name! : '';
    const w = whyChain(stopped, 'pod', name).find((x) => x.write === 'delete pods')!;
    expect(kinds(w).slice(0, 3)).toEqual(['entry', 'toleration', 'taint']);
    expect(w.because[1].params).toMatchObject({
      taint: 'node.kubernetes.io/unreachable:NoExecute',
      seconds: 300,
      byDefault: 1,
    });
    expect(w.because[2].params).toEqual({
      node: 'node-2',
      taint: 'node.kubernetes.io/unreachable:NoExecute',
    });
    expect(w.because.at(-1)!.params).toEqual({ fault: 'node-down', node: 'node-2' });
    expect(kinds(w)).toContain('lease');
  });

  it('names a partition as the fault when the node is cut off', () => {
    const w = whyChain(runWith('partition', 'node-3'), 'node', 'node-3').find((x) =>
      x.result?.startsWith('Ready=Unknown'),
    )!;
    expect(w.because.at(-1)!.params).toEqual({ fault: 'partition', node: 'node-3' });
  });
});

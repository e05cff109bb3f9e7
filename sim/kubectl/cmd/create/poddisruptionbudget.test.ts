import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { AnyObject } from '../../../api/types.ts';
import { restore, snapshot } from '../../../scenario/snapshot.ts';

const YAML = parse(
  readFileSync(new URL('../../../../content/scenarios/node-failure.yaml', import.meta.url), 'utf8'),
);

describe('kubectl create poddisruptionbudget', () => {
  it('POSTs the budget create_pdb.go builds, which the disruption controller then keeps', () => {
    const run = restore(snapshot(YAML, 7, 60_000, []));
    const c = run.cluster;
    const out = c.kubectl('create pdb web --selector=app=web --min-available=2');
    expect(out).toEqual({
      stdout: 'poddisruptionbudget.policy/web created\n',
      stderr: '',
      exitCode: 0,
    });
    const pdb = c.apiserver.peekAll<AnyObject & { spec: unknown }>('poddisruptionbudgets')[0];
    expect(pdb.spec).toEqual({ selector: { matchLabels: { app: 'web' } }, minAvailable: 2 });
    c.runUntil(c.sim.now() + 5_000);
    // Three web Pods are healthy and two must stay: one may be disrupted.
    expect(c.kubectl('get pdb').stdout).toMatch(/^web\s+2\s+N\/A\s+1\s+\d+s\n$/m);
    expect(
      c.kubectl('create poddisruptionbudget web --selector=app=web --max-unavailable=50%').stderr,
    ).toBe(
      'error: failed to create poddisruptionbudgets: poddisruptionbudgets.policy "web" already exists\n',
    );
    c.kubectl('create pdb half --selector=app=web,tier!=db --max-unavailable=50%');
    const half = c.apiserver.peekAll<AnyObject & { spec: unknown }>('poddisruptionbudgets')[0];
    expect(half.metadata.name).toBe('half');
    expect(half.spec).toEqual({
      selector: {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }],
      },
      maxUnavailable: '50%',
    });
  });

  it('refuses what PodDisruptionBudgetOpts.Validate refuses, in its words', () => {
    const c = restore(snapshot(YAML, 7, 1_000, [])).cluster;
    const err = (line: string) => c.kubectl(line).stderr;
    expect(err('create pdb')).toBe(
      "error: exactly one NAME is required, got 0\nSee 'kubectl create poddisruptionbudget -h' for help and examples\n",
    );
    expect(err('create pdb web --min-available=1')).toBe('error: a selector must be specified\n');
    expect(err('create pdb web --selector=app=web')).toBe(
      'error: one of min-available or max-unavailable must be specified\n',
    );
    expect(err('create pdb web --selector=app=web --min-available=1 --max-unavailable=1')).toBe(
      'error: min-available and max-unavailable cannot be both specified\n',
    );
    expect(err('create pdb web --selector=app=web --min-available=1Gi')).toBe(
      'error: invalid format specified for min-available\n',
    );
    expect(err('create pdb web --selector=app=web --max-unavailable=x%')).toBe(
      'error: invalid format specified for max-unavailable\n',
    );
  });
});

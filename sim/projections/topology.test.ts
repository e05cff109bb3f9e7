import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';
import { topology } from './topology.ts';

const run = new ScenarioRun(
  parseScenario(
    readFileSync(new URL('../../content/scenarios/lesson7-services.yaml', import.meta.url), 'utf8'),
    'lesson7-services',
  ),
  { seed: 7 },
)
  .run()
  .result();

describe('topology', () => {
  const t = topology(run, { namespaces: ['shop', 'default'], from: 40, to: 48 });

  it('puts each Pod on its node with its address, leaving kube-system out', () => {
    const node1 = t.nodes.find((n) => n.name === 'node-1')!;
    expect(node1.podCIDR).toBe('10.244.1.0/24');
    expect(node1.pods.map((p) => p.name)).toContain('client');
    for (const n of t.nodes) for (const p of n.pods) expect(p.key).toMatch(/^(shop|default)\//);
  });

  it('lists the Services with their ready endpoints', () => {
    const by = new Map(t.services.map((s) => [s.name, s]));
    expect(by.get('web')!.ready).toBe(3);
    expect(by.get('nobody')!.ready).toBe(0);
    expect(by.get('web-broken')!.ports).toBe('80→9090');
  });

  it('groups the connections by client, Service, target and outcome', () => {
    expect(t.links.map((l) => [l.via, l.outcome])).toEqual([
      ['shop/web', 'established'],
      ['default/api', 'established'],
      ['shop/nobody', 'rejected'],
      ['shop/web-broken', 'refused'],
    ]);
    expect(t.links.every((l) => l.from === 'shop/client')).toBe(true);
    expect(t.links.find((l) => l.outcome === 'rejected')!.to).toBe('');
  });
});

/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { golden, runNamed as run } from './testing.ts';
import type { Pod } from '../api/types.ts';
import { resourceDiagram } from './resource-diagram.ts';

const apply = run('apply-to-running', 1);

describe('resourceDiagram', () => {
  const d = resourceDiagram(apply.objects, { namespace: 'default' });

  it('matches the golden Mermaid text (apply-to-running seed 1, namespace default)', () => {
    golden('apply-to-running.resources.mmd', d.mermaid);
  });

  it('draws the relations the objects make, with the API multiplicities', () => {
    const rel = d.relations.map(
      (r) => `${r.from} "${r.fromMultiplicity}" --> "${r.toMultiplicity}" ${r.to}`,
    );
    expect(rel).toEqual([
      'Deployment "1" --> "*" ReplicaSet',
      'ReplicaSet "1" --> "*" Pod',
      'Service "1" --> "*" EndpointSlice',
      'EndpointSlice "*" --> "*" Pod',
      'Pod "*" --> "1" Node',
      'Lease "1" --> "1" Node',
    ]);
    expect(d.relations.find((r) => r.from === 'ReplicaSet')!.links).toBe(3);
    expect(
      d.classes.find((c) => c.name === 'Pod')!.fields.find((f) => f.name === 'phase')!.values,
    ).toEqual(['Running']);
  });

  it('draws only relations that exist in the objects given', () => {
    const pods = (apply.objects.pods as Pod[]).filter((p) => p.metadata.namespace === 'default');
    const only = resourceDiagram({ pods, nodes: apply.objects.nodes });
    expect(only.relations.map((r) => `${r.from}->${r.to}`)).toEqual(['Pod->Node']);
    const unbound = resourceDiagram({
      pods: pods.map((p) => ({ ...p, spec: { ...p.spec, nodeName: undefined } })),
      nodes: apply.objects.nodes,
    });
    expect(unbound.relations).toEqual([]);
    expect(unbound.mermaid).not.toContain('-->');
  });

  it('can write the multiplicities it observed instead', () => {
    const o = resourceDiagram(apply.objects, { namespace: 'default', multiplicity: 'observed' });
    const rs = o.relations.find((r) => r.from === 'ReplicaSet')!;
    expect([rs.fromMultiplicity, rs.toMultiplicity]).toEqual(['1', '3']);
  });
});

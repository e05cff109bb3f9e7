import { describe, expect, it } from 'vitest';
import {
  applyJSONPatch,
  applyStrategicMergePatch,
  createTwoWayMergePatch,
  JSONPatchError,
  strategicMergePatch,
} from './patch.ts';

describe('strategicMergePatch', () => {
  const pod = {
    metadata: { finalizers: ['a'], labels: { app: 'web', tier: 'fe' } },
    spec: {
      containers: [
        { name: 'web', image: 'nginx:1.26', ports: [{ containerPort: 80 }] },
        { name: 'sidecar', image: 'envoy:1' },
      ],
      tolerations: [{ key: 'a', operator: 'Exists' }],
    },
  };

  it('merges containers by name and keeps the ones the patch does not name', () => {
    const out = strategicMergePatch(pod, {
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
    }) as typeof pod;
    expect(out.spec.containers).toEqual([
      { name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] },
      { name: 'sidecar', image: 'envoy:1' },
    ]);
    expect(pod.spec.containers[0].image).toBe('nginx:1.26');
  });

  it('deletes a keyed element with $patch: delete and orders with $setElementOrder', () => {
    const out = strategicMergePatch(pod, {
      spec: {
        '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'new' }],
        containers: [
          { name: 'web', $patch: 'delete' },
          { name: 'new', image: 'busybox' },
        ],
      },
    }) as typeof pod;
    expect(out.spec.containers.map((c) => c.name)).toEqual(['sidecar', 'new']);
  });

  it('replaces lists without a merge key, merges finalizers, null removes a field', () => {
    const out = strategicMergePatch(pod, {
      metadata: { finalizers: ['b'], labels: { tier: null } },
      spec: { tolerations: [{ key: 'b', operator: 'Exists' }] },
    }) as typeof pod;
    expect(out.spec.tolerations).toEqual([{ key: 'b', operator: 'Exists' }]);
    expect(out.metadata.finalizers).toEqual(['a', 'b']);
    expect(out.metadata.labels).toEqual({ app: 'web' });
  });
});

describe('applyStrategicMergePatch', () => {
  it('shares what the patch does not touch and changes nothing it was given', () => {
    const stored = Object.freeze({
      metadata: Object.freeze({ name: 'web', labels: Object.freeze({ app: 'web' }) }),
      status: Object.freeze({
        conditions: Object.freeze([
          Object.freeze({ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }),
          Object.freeze({ type: 'PodScheduled', status: 'True' }),
        ]),
        podIPs: Object.freeze([Object.freeze({ ip: '10.244.1.2' })]),
      }),
    });
    const out = applyStrategicMergePatch(stored, {
      status: {
        '$setElementOrder/conditions': [{ type: 'Ready' }, { type: 'PodScheduled' }],
        conditions: [{ type: 'Ready', status: 'True', reason: null }],
        podIPs: [{ ip: '10.244.1.3' }],
      },
    }) as typeof stored;
    expect(out.metadata).toBe(stored.metadata);
    expect(out.status.conditions[1]).toBe(stored.status.conditions[1]);
    expect(out.status.conditions[0]).toEqual({ type: 'Ready', status: 'True' });
    // podIPs merge by ip (patchMergeKey "ip"), as hostIPs do.
    expect(out.status.podIPs).toEqual([{ ip: '10.244.1.2' }, { ip: '10.244.1.3' }]);
    expect(stored.status.conditions[0].status).toBe('False');
  });
});

describe('applyJSONPatch', () => {
  it('replaces, adds and removes by JSON pointer without touching the input', () => {
    const doc = {
      metadata: { annotations: { a: '1' } },
      spec: { template: { x: 1 }, list: [1, 2] },
    };
    const out = applyJSONPatch(doc, [
      { op: 'replace', path: '/spec/template', value: { y: 2 } },
      { op: 'replace', path: '/metadata/annotations', value: { b: '2' } },
      { op: 'add', path: '/spec/list/-', value: 3 },
      { op: 'remove', path: '/spec/list/0' },
    ]);
    expect(out).toEqual({
      metadata: { annotations: { b: '2' } },
      spec: { template: { y: 2 }, list: [2, 3] },
    });
    expect(doc.spec.template).toEqual({ x: 1 });
  });

  it('fails a replace of a missing key as evanphx/json-patch does', () => {
    expect(() =>
      applyJSONPatch({ spec: {} }, [{ op: 'replace', path: '/spec/missing', value: 1 }]),
    ).toThrow(JSONPatchError);
    expect(() =>
      applyJSONPatch({ spec: {} }, [{ op: 'replace', path: '/spec/missing', value: 1 }]),
    ).toThrow('replace operation does not apply: doc is missing key: /spec/missing: missing value');
  });
});

describe('createTwoWayMergePatch', () => {
  it('lists changed containers by name with $setElementOrder, and applying it gives the modified object', () => {
    const a = {
      spec: {
        containers: [
          { name: 'web', image: 'nginx:1.26' },
          { name: 'log', image: 'fluent' },
        ],
      },
      metadata: { labels: { a: '1' } },
    };
    const b = {
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      metadata: { labels: { b: '2' } },
    };
    const patch = createTwoWayMergePatch(a, b);
    expect(patch).toEqual({
      spec: {
        '$setElementOrder/containers': [{ name: 'web' }],
        containers: [
          { image: 'nginx:1.27', name: 'web' },
          { $patch: 'delete', name: 'log' },
        ],
      },
      metadata: { labels: { a: null, b: '2' } },
    });
    expect(strategicMergePatch(a, patch)).toEqual(b);
  });

  it('is empty for equal objects and null for a removed field', () => {
    expect(
      createTwoWayMergePatch({ spec: { unschedulable: true } }, { spec: { unschedulable: true } }),
    ).toEqual({});
    expect(createTwoWayMergePatch({ spec: { unschedulable: true } }, { spec: {} })).toEqual({
      spec: { unschedulable: null },
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { Namespace, Pod } from '../../../api/types.ts';
import { KubeAPIServer } from '../../../apiserver/apiserver.ts';
import { StatusError } from '../../../apiserver/errors.ts';
import { Simulation } from '../../../engine/simulation.ts';
import { EtcdStore } from '../../../etcd/store.ts';

function create(spec: Partial<Pod['spec']>): Pod {
  const api = new KubeAPIServer(new Simulation({ seed: 1 }), new EtcdStore());
  api.create('test', 'namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'default' },
  } as Namespace);
  return api.create('test', 'pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' } as Pod['metadata'],
    spec: {
      containers: [{ name: 'app', image: 'nginx:1.27' }],
      automountServiceAccountToken: false,
      ...spec,
    },
    status: {},
  });
}

function invalid(spec: Partial<Pod['spec']>): string {
  try {
    create(spec);
  } catch (e) {
    if (e instanceof StatusError) return e.message;
    throw e;
  }
  throw new Error('expected the Pod to be refused');
}

describe('Pod volume validation and defaulting (pkg/apis/core/validation, v1 defaults)', () => {
  it('refuses a mount of a volume the Pod does not have', () => {
    expect(
      invalid({
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
          },
        ],
      }),
    ).toBe('Pod "web" is invalid: spec.containers[0].volumeMounts[0].name: Not found: "data"');
  });

  it('refuses duplicate volume names, a mount path used twice and a missing mountPath', () => {
    expect(
      invalid({
        volumes: [
          { name: 'a', emptyDir: {} },
          { name: 'a', emptyDir: {} },
        ],
      }),
    ).toBe('Pod "web" is invalid: spec.volumes[1].name: Duplicate value: "a"');
    expect(
      invalid({
        volumes: [{ name: 'a', emptyDir: {} }],
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            volumeMounts: [
              { name: 'a', mountPath: '/x' },
              { name: 'a', mountPath: '/x' },
              { name: 'a', mountPath: '' },
            ],
          },
        ],
      }),
    ).toBe(
      'Pod "web" is invalid: [spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/x": must be unique, spec.containers[0].volumeMounts[2].mountPath: Required value]',
    );
  });

  it('refuses a volume with two sources', () => {
    expect(invalid({ volumes: [{ name: 'a', emptyDir: {}, hostPath: { path: '/tmp' } }] })).toBe(
      'Pod "web" is invalid: spec.volumes[0].emptyDir: Forbidden: may not specify more than 1 volume type',
    );
  });

  it('refuses an init container named as a container and an unknown restartPolicy', () => {
    expect(invalid({ initContainers: [{ name: 'app', image: 'busybox:1.36' }] })).toBe(
      'Pod "web" is invalid: spec.initContainers[0].name: Duplicate value: "app"',
    );
    expect(invalid({ restartPolicy: 'Sometimes' as never })).toBe(
      'Pod "web" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    );
  });

  it('defaults a volume without a source to emptyDir and a configMap source to defaultMode 420', () => {
    const p = create({
      volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'app' } }],
    });
    expect(p.spec.volumes).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'app', defaultMode: 420 } },
    ]);
  });
});

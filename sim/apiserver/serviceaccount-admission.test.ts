import { describe, expect, it } from 'vitest';
import type { Pod, ServiceAccount } from '../api/types.ts';
import { KubeAPIServer } from './apiserver.ts';
import { StatusError } from './errors.ts';
import { DefaultAPITokenMountPath } from './serviceaccount-admission.ts';
import { frozenAPIServer } from '../testing.ts';

function newServer(): KubeAPIServer {
  return frozenAPIServer({ namespaces: ['default', 'kube-system'] }).api;
}

function newPod(
  name: string,
  spec: Partial<Pod['spec']> = {},
  annotations?: Record<string, string>,
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', annotations } as Pod['metadata'],
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
    status: {},
  };
}

function newSA(name: string, extra: Partial<ServiceAccount> = {}): ServiceAccount {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, namespace: 'default' } as ServiceAccount['metadata'],
    ...extra,
  };
}

function caught(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a StatusError');
}

describe('ServiceAccount admission', () => {
  it('names the default ServiceAccount and adds the projected token volume and a read-only mount to every container', () => {
    const api = newServer();
    api.create('test', 'serviceaccounts', newSA('default'));
    const p = api.create(
      'test',
      'pods',
      newPod('web', { initContainers: [{ name: 'init', image: 'busybox:1.36' }] }),
    );
    expect(p.spec.serviceAccountName).toBe('default');
    expect(p.spec.serviceAccount).toBe('default');
    const vols = p.spec.volumes!;
    expect(vols).toHaveLength(1);
    expect(vols[0].name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(vols[0].projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
        {
          downwardAPI: {
            items: [
              {
                fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' },
                path: 'namespace',
              },
            ],
          },
        },
      ],
    });
    const mount = { mountPath: DefaultAPITokenMountPath, name: vols[0].name, readOnly: true };
    expect(p.spec.initContainers![0].volumeMounts).toEqual([mount]);
    expect(p.spec.containers[0].volumeMounts).toEqual([mount]);
  });

  it('appends the volume and the mount after the ones the Pod declares, and skips a container mounting the path already', () => {
    const api = newServer();
    const p = api.create(
      'test',
      'pods',
      newPod('web', {
        volumes: [{ name: 'data', emptyDir: {} }],
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
          },
          {
            name: 'own',
            image: 'nginx:1.27',
            volumeMounts: [{ name: 'data', mountPath: DefaultAPITokenMountPath }],
          },
        ],
      }),
    );
    expect(p.spec.volumes!.map((v) => v.name)).toEqual([
      'data',
      expect.stringMatching(/^kube-api-access-/),
    ]);
    expect(p.spec.containers[0].volumeMounts!.map((m) => m.mountPath)).toEqual([
      '/data',
      DefaultAPITokenMountPath,
    ]);
    expect(p.spec.containers[1].volumeMounts).toEqual([
      { name: 'data', mountPath: DefaultAPITokenMountPath },
    ]);
  });

  it('adds nothing when the Pod or its ServiceAccount sets automountServiceAccountToken: false; the Pod wins', () => {
    const api = newServer();
    api.create('test', 'serviceaccounts', newSA('quiet', { automountServiceAccountToken: false }));
    const off = api.create('test', 'pods', newPod('off', { automountServiceAccountToken: false }));
    expect(off.spec.volumes).toBeUndefined();
    expect(off.spec.containers[0].volumeMounts).toBeUndefined();
    const quiet = api.create('test', 'pods', newPod('quiet', { serviceAccountName: 'quiet' }));
    expect(quiet.spec.volumes).toBeUndefined();
    const on = api.create(
      'test',
      'pods',
      newPod('on', { serviceAccountName: 'quiet', automountServiceAccountToken: true }),
    );
    expect(on.spec.volumes).toHaveLength(1);
  });

  it('leaves mirror Pods alone, and forbids one naming a ServiceAccount', () => {
    const api = newServer();
    const mirror = { 'kubernetes.io/config.mirror': 'mirror' };
    const p = api.create('test', 'pods', {
      ...newPod('etcd-cp', {}, mirror),
      metadata: { ...newPod('etcd-cp', {}, mirror).metadata, namespace: 'kube-system' },
    });
    expect(p.spec.serviceAccountName).toBeUndefined();
    expect(p.spec.volumes).toBeUndefined();
    const e = caught(() =>
      api.create('test', 'pods', newPod('m', { serviceAccountName: 'default' }, mirror)),
    );
    expect(e.status.code).toBe(403);
    expect(e.message).toBe(
      'pods "m" is forbidden: a mirror pod may not reference service accounts',
    );
  });

  it('refuses a Pod whose ServiceAccount does not exist, with the plugin message', () => {
    const api = newServer();
    const e = caught(() =>
      api.create('test', 'pods', newPod('web', { serviceAccountName: 'builder' })),
    );
    expect(e.status.code).toBe(403);
    expect(e.status.reason).toBe('Forbidden');
    expect(e.message).toBe(
      'pods "web" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found',
    );
    const g = caught(() =>
      api.create('test', 'pods', {
        ...newPod(''),
        metadata: { generateName: 'web-', namespace: 'default' } as Pod['metadata'],
        spec: { ...newPod('').spec, serviceAccountName: 'x' },
      }),
    );
    expect(g.message).toBe(
      'pods "web-" is forbidden: error looking up service account default/x: serviceaccount "x" not found',
    );
  });

  it('draws volume names from a stream of their own: Pod names and UIDs do not move', () => {
    const a = newServer();
    const b = newServer();
    const withVolume = a.create('test', 'pods', {
      ...newPod(''),
      metadata: { generateName: 'web-', namespace: 'default' } as Pod['metadata'],
    });
    const without = b.create('test', 'pods', {
      ...newPod('', { automountServiceAccountToken: false }),
      metadata: { generateName: 'web-', namespace: 'default' } as Pod['metadata'],
    });
    expect(withVolume.metadata.name).toBe(without.metadata.name);
    expect(withVolume.metadata.uid).toBe(without.metadata.uid);
  });
});

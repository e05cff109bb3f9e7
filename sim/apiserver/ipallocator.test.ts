import { describe, expect, it } from 'vitest';
import type { Namespace, Service } from '../api/types.ts';
import { Simulation } from '../engine/simulation.ts';
import { EtcdStore } from '../etcd/store.ts';
import { KubeAPIServer } from './apiserver.ts';
import { StatusError } from './errors.ts';

function newServer(): KubeAPIServer {
  const api = new KubeAPIServer(new Simulation({ seed: 1 }), new EtcdStore());
  api.create('test', 'namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'default' },
  } as Namespace);
  return api;
}

function svc(name: string, clusterIP?: string): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' } as Service['metadata'],
    spec: { clusterIP, selector: { app: name }, ports: [{ port: 80 }] },
    status: {},
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

describe('Service ClusterIP allocation (ServiceCIDR 10.96.0.0/12)', () => {
  it('refuses an IP no ServiceCIDR holds, as the MetaAllocator does', () => {
    const e = caught(() => newServer().create('test', 'services', svc('web', '10.200.0.1')));
    expect(e.status.code).toBe(422);
    expect(e.message).toBe(
      'Service "web" is invalid: spec.clusterIPs: Invalid value: []string{"10.200.0.1"}: failed to allocate IP 10.200.0.1: the provided network does not match the current range',
    );
  });

  it("refuses the range's network and broadcast addresses as not in the valid range", () => {
    const api = newServer();
    expect(caught(() => api.create('test', 'services', svc('a', '10.96.0.0'))).message).toBe(
      'Service "a" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.0"}: failed to allocate IP 10.96.0.0: the provided IP (10.96.0.0) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
    expect(
      caught(() => api.create('test', 'services', svc('b', '10.111.255.255'))).message,
    ).toContain('the provided IP (10.111.255.255) is not in the valid range');
    expect(api.create('test', 'services', svc('c', '10.111.255.254')).spec.clusterIPs).toEqual([
      '10.111.255.254',
    ]);
  });

  it('refuses an IP another Service holds, and frees it when that Service goes', () => {
    const api = newServer();
    api.create('test', 'services', svc('one', '10.96.100.5'));
    expect(caught(() => api.create('test', 'services', svc('two', '10.96.100.5'))).message).toBe(
      'Service "two" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.100.5"}: failed to allocate IP 10.96.100.5: provided IP is already allocated',
    );
    api.delete('test', 'services', 'default', 'one');
    expect(api.create('test', 'services', svc('two', '10.96.100.5')).spec.clusterIP).toBe(
      '10.96.100.5',
    );
  });

  it('refuses a clusterIP that is not an IP before allocating', () => {
    expect(
      caught(() => newServer().create('test', 'services', svc('web', '10.96.0.300'))).message,
    ).toBe(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
  });
});

describe('Service cluster IP on update', () => {
  it('keeps the cluster IP when the client leaves it out, and refuses a change to it', () => {
    const api = newServer();
    const s = api.create('test', 'services', svc('web', '10.96.100.5'));
    const kept = api.update('test', 'services', {
      ...s,
      spec: { ...s.spec, clusterIP: undefined, clusterIPs: undefined },
    });
    expect(kept.spec.clusterIPs).toEqual(['10.96.100.5']);
    const e = caught(() =>
      api.update('test', 'services', { ...kept, spec: { ...kept.spec, clusterIP: '10.96.100.6' } }),
    );
    expect(e.message).toBe(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.100.6"}: may not change once set',
    );
  });
});

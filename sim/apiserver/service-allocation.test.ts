// The Service REST storage's allocation (pkg/registry/core/service/storage/alloc.go): cluster IPs
// by type, node ports for NodePort and LoadBalancer, release on delete and on type change.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IPAddress, Namespace, Service } from '../api/types.ts';
import { Simulation } from '../engine/simulation.ts';
import { EtcdStore } from '../etcd/store.ts';
import { KubeAPIServer } from './apiserver.ts';
import { StatusError } from './errors.ts';
import { parseIPv4 } from './ipallocator.ts';

function newServer(seed = 1): KubeAPIServer {
  const api = new KubeAPIServer(new Simulation({ seed }), new EtcdStore());
  api.freeze = true;
  api.create('test', 'namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'default' },
  } as Namespace);
  return api;
}

function svc(name: string, spec: Partial<Service['spec']>): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' } as Service['metadata'],
    spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
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

describe('IPAddress objects (MultiCIDRServiceAllocator)', () => {
  it('records each allocated cluster IP as an IPAddress whose parentRef is the Service, and deletes it on release', () => {
    const api = newServer();
    const s = api.create('test', 'services', svc('web', {}));
    const ips = api.peekAll<IPAddress>('ipaddresses');
    expect(ips.map((i) => i.metadata.name)).toEqual([s.spec.clusterIP]);
    expect(ips[0].metadata.labels).toEqual({
      'ipaddress.kubernetes.io/ip-family': 'IPv4',
      'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io',
    });
    expect(ips[0].spec.parentRef).toEqual({
      resource: 'services',
      namespace: 'default',
      name: 'web',
    });
    // Headless and ExternalName Services hold no address.
    api.create('test', 'services', svc('db', { clusterIP: 'None' }));
    api.create(
      'test',
      'services',
      svc('ext', { type: 'ExternalName', externalName: 'x.example.com' }),
    );
    expect(api.peekAll<IPAddress>('ipaddresses')).toHaveLength(1);
    // A refused create leaves none behind.
    caught(() =>
      api.create('test', 'services', svc('bad', { clusterIP: '10.96.0.77', ports: [{ port: 0 }] })),
    );
    expect(api.peekAll<IPAddress>('ipaddresses').map((i) => i.metadata.name)).toEqual([
      s.spec.clusterIP,
    ]);
    api.patch('test', 'services', 'default', 'web', {
      spec: { type: 'ExternalName', externalName: 'web.example.com' },
    });
    expect(api.peekAll<IPAddress>('ipaddresses')).toEqual([]);
  });
});

describe('Service allocation by type', () => {
  it('gives a ClusterIP Service one IPv4 address from the service CIDR, SingleStack', () => {
    const s = newServer().create('test', 'services', svc('web', {}));
    expect(s.spec.clusterIP).toMatch(/^10\.96\./);
    expect(s.spec.clusterIPs).toEqual([s.spec.clusterIP]);
    expect(s.spec.ipFamilies).toEqual(['IPv4']);
    expect(s.spec.ipFamilyPolicy).toBe('SingleStack');
    expect(s.status).toEqual({ loadBalancer: {} });
  });

  it('gives a headless Service no address: clusterIPs [None], and both families without a selector', () => {
    const api = newServer();
    const h = api.create('test', 'services', svc('db', { clusterIP: 'None' }));
    expect(h.spec.clusterIP).toBe('None');
    expect(h.spec.clusterIPs).toEqual(['None']);
    expect(h.spec.ipFamilyPolicy).toBe('SingleStack');
    expect(h.spec.ipFamilies).toEqual(['IPv4']);
    const bare = api.create(
      'test',
      'services',
      svc('peers', { clusterIP: 'None', selector: undefined, ports: [] }),
    );
    expect(bare.spec.ipFamilyPolicy).toBe('RequireDualStack');
    expect(bare.spec.ipFamilies).toEqual(['IPv4', 'IPv6']);
  });

  it('gives an ExternalName Service no address, no families and no node ports', () => {
    const s = newServer().create(
      'test',
      'services',
      svc('db', { type: 'ExternalName', externalName: 'db.example.com' }),
    );
    expect(s.spec.clusterIP).toBeUndefined();
    expect(s.spec.clusterIPs).toBeUndefined();
    expect(s.spec.ipFamilies).toBeUndefined();
    expect(s.spec.ipFamilyPolicy).toBeUndefined();
    expect(s.spec.ports![0].nodePort).toBeUndefined();
  });

  it('refuses a clusterIP on an ExternalName Service and dual-stack on this single-stack cluster', () => {
    const api = newServer();
    expect(
      caught(() =>
        api.create(
          'test',
          'services',
          svc('a', { type: 'ExternalName', externalName: 'x.example', clusterIP: '10.96.0.50' }),
        ),
      ).message,
    ).toBe(
      'Service "a" is invalid: spec.clusterIPs: Forbidden: may not be set for ExternalName services',
    );
    expect(
      caught(() => api.create('test', 'services', svc('b', { ipFamilyPolicy: 'RequireDualStack' })))
        .message,
    ).toBe(
      'Service "b" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    );
    expect(
      caught(() => api.create('test', 'services', svc('c', { ipFamilies: ['IPv6'] }))).message,
    ).toBe(
      'Service "c" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
    );
  });

  it('gives a LoadBalancer Service node ports unless allocateLoadBalancerNodePorts is false, and an empty status', () => {
    const api = newServer();
    const lb = api.create('test', 'services', svc('web', { type: 'LoadBalancer' }));
    expect(lb.spec.ports![0].nodePort).toBeGreaterThanOrEqual(30086);
    expect(lb.spec.allocateLoadBalancerNodePorts).toBe(true);
    expect(lb.status).toEqual({ loadBalancer: {} });
    const none = api.create(
      'test',
      'services',
      svc('internal', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }),
    );
    expect(none.spec.ports![0].nodePort).toBeUndefined();
  });

  it('releases the cluster IP when the type becomes ExternalName and allocates one when it stops being', () => {
    const api = newServer();
    const s = api.create('test', 'services', svc('web', { clusterIP: '10.96.0.50' }));
    expect(s.spec.clusterIP).toBe('10.96.0.50');
    const e = api.patch<Service>('test', 'services', 'default', 'web', {
      spec: { type: 'ExternalName', externalName: 'web.example.com' },
    });
    expect(e.spec.clusterIP).toBeUndefined();
    expect(e.spec.clusterIPs).toBeUndefined();
    expect(e.spec.ipFamilies).toBeUndefined();
    expect(e.spec.ipFamilyPolicy).toBeUndefined();
    // The address is free again.
    expect(
      api.create('test', 'services', svc('other', { clusterIP: '10.96.0.50' })).spec.clusterIP,
    ).toBe('10.96.0.50');
    const back = api.patch<Service>('test', 'services', 'default', 'web', {
      spec: { type: 'NodePort', externalName: null },
    });
    expect(back.spec.clusterIP).toMatch(/^10\.96\./);
    expect(back.spec.clusterIP).not.toBe('10.96.0.50');
    expect(back.spec.ipFamilyPolicy).toBe('SingleStack');
    expect(back.spec.ports![0].nodePort).toBeGreaterThanOrEqual(30000);
  });

  it('gives a LoadBalancer Service with externalTrafficPolicy Local a health-check node port, freed when the policy changes', () => {
    const api = newServer();
    const lb = api.create(
      'test',
      'services',
      svc('web', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }),
    );
    const hc = lb.spec.healthCheckNodePort!;
    expect(hc).toBeGreaterThanOrEqual(30086);
    expect(hc).toBeLessThanOrEqual(32767);
    expect(hc).not.toBe(lb.spec.ports![0].nodePort);
    // A NodePort Service with policy Local has none.
    const np = api.create(
      'test',
      'services',
      svc('np', { type: 'NodePort', externalTrafficPolicy: 'Local' }),
    );
    expect(np.spec.healthCheckNodePort).toBeUndefined();
    const taken = caught(() =>
      api.create(
        'test',
        'services',
        svc('other', {
          type: 'LoadBalancer',
          externalTrafficPolicy: 'Local',
          healthCheckNodePort: hc,
        }),
      ),
    );
    expect(taken.status.code).toBe(500);
    expect(taken.message).toBe(
      `Internal error occurred: failed to allocate requested HealthCheck NodePort ${hc}: provided port is already allocated`,
    );
    const c = api.patch<Service>('test', 'services', 'default', 'web', {
      spec: { externalTrafficPolicy: 'Cluster' },
    });
    expect(c.spec.healthCheckNodePort).toBeUndefined();
    const again = api.create(
      'test',
      'services',
      svc('again', {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        healthCheckNodePort: hc,
      }),
    );
    expect(again.spec.healthCheckNodePort).toBe(hc);
  });

  it('drops allocateLoadBalancerNodePorts and frees node ports when a LoadBalancer becomes ClusterIP', () => {
    const api = newServer();
    const lb = api.create('test', 'services', svc('web', { type: 'LoadBalancer' }));
    const np = lb.spec.ports![0].nodePort!;
    const c = api.patch<Service>('test', 'services', 'default', 'web', {
      spec: { type: 'ClusterIP' },
    });
    expect(c.spec.allocateLoadBalancerNodePorts).toBeUndefined();
    expect(c.spec.ports![0].nodePort).toBeUndefined();
    expect(c.spec.clusterIP).toBe(lb.spec.clusterIP);
    expect(
      api.create(
        'test',
        'services',
        svc('again', { type: 'NodePort', ports: [{ port: 80, nodePort: np }] }),
      ).spec.ports![0].nodePort,
    ).toBe(np);
  });
});

type Op =
  | {
      op: 'create';
      name: number;
      type: NonNullable<Service['spec']['type']>;
      headless: boolean;
      local: boolean;
      ports: number;
    }
  | { op: 'delete'; name: number }
  | { op: 'retype'; name: number; type: NonNullable<Service['spec']['type']> };

const TYPES = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] as const;
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('create' as const),
    name: fc.integer({ min: 0, max: 7 }),
    type: fc.constantFrom(...TYPES),
    headless: fc.boolean(),
    local: fc.boolean(),
    ports: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ op: fc.constant('delete' as const), name: fc.integer({ min: 0, max: 7 }) }),
  fc.record({
    op: fc.constant('retype' as const),
    name: fc.integer({ min: 0, max: 7 }),
    type: fc.constantFrom(...TYPES),
  }),
);

describe('Service allocation (property)', () => {
  it('keeps cluster IPs and node ports unique and in range over any creates, deletes and type changes', () => {
    const base = parseIPv4('10.96.0.0')!;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(opArb, { maxLength: 30 }),
        (seed, ops) => {
          const api = newServer(seed);
          const seenIPs = new Set<string>();
          const seenPorts = new Set<number>();
          for (const o of ops) {
            const name = `s${o.name}`;
            try {
              if (o.op === 'create') {
                const headless = o.headless && o.type === 'ClusterIP';
                api.create(
                  'test',
                  'services',
                  svc(name, {
                    type: o.type,
                    ...(headless ? { clusterIP: 'None' } : {}),
                    ...(o.type === 'ExternalName' ? { externalName: 'x.example.com' } : {}),
                    ...(o.local && o.type === 'LoadBalancer'
                      ? { externalTrafficPolicy: 'Local' as const }
                      : {}),
                    ports: Array.from({ length: o.ports }, (_, i) => ({
                      name: `p${i}`,
                      port: 80 + i,
                    })),
                  }),
                );
              } else if (o.op === 'delete') api.delete('test', 'services', 'default', name);
              else
                api.patch('test', 'services', 'default', name, {
                  spec: {
                    type: o.type,
                    externalName: o.type === 'ExternalName' ? 'x.example.com' : null,
                  },
                });
            } catch (e) {
              // Refusals (a name taken, a headless Service that cannot become NodePort) are fine.
              if (!(e instanceof StatusError)) throw e;
            }
            const all = api.peekAll<Service>('services');
            const ips = all.flatMap((s) =>
              s.spec.clusterIP && s.spec.clusterIP !== 'None' ? [s.spec.clusterIP] : [],
            );
            expect(new Set(ips).size).toBe(ips.length);
            for (const ip of ips) seenIPs.add(ip);
            // One IPAddress per allocated IP, naming its Service.
            expect(
              api
                .peekAll<IPAddress>('ipaddresses')
                .map((i) => `${i.metadata.name} ${i.spec.parentRef.name}`)
                .sort(),
            ).toEqual(
              all
                .filter((s) => s.spec.clusterIP && s.spec.clusterIP !== 'None')
                .map((s) => `${s.spec.clusterIP} ${s.metadata.name}`)
                .sort(),
            );
            for (const ip of ips) {
              const n = parseIPv4(ip)!;
              expect(n > base && n < base + 2 ** 20 - 1).toBe(true);
            }
            for (const s of all) {
              if (s.spec.type === 'ExternalName') expect(s.spec.clusterIP).toBeUndefined();
              else expect(s.spec.clusterIP).toBeTruthy();
            }
            const ports = all.flatMap((s) => [
              ...new Set((s.spec.ports ?? []).flatMap((p) => (p.nodePort ? [p.nodePort] : []))),
              ...(s.spec.healthCheckNodePort ? [s.spec.healthCheckNodePort] : []),
            ]);
            for (const s of all)
              expect(!!s.spec.healthCheckNodePort).toBe(
                s.spec.type === 'LoadBalancer' && s.spec.externalTrafficPolicy === 'Local',
              );
            expect(new Set(ports).size).toBe(ports.length);
            for (const p of ports) seenPorts.add(p);
            for (const p of ports) expect(p >= 30000 && p <= 32767).toBe(true);
            for (const s of all)
              if (s.spec.type === 'ClusterIP' || s.spec.type === 'ExternalName')
                expect((s.spec.ports ?? []).every((p) => !p.nodePort)).toBe(true);
          }
          // Every allocation is released: with everything deleted, each value used is free again.
          for (const s of api.peekAll<Service>('services'))
            api.delete('test', 'services', 'default', s.metadata.name);
          let i = 0;
          for (const ip of seenIPs)
            api.create('test', 'services', svc(`ip${i++}`, { clusterIP: ip }));
          for (const p of seenPorts)
            api.create(
              'test',
              'services',
              svc(`np${i++}`, { type: 'NodePort', ports: [{ port: 80, nodePort: p }] }),
            );
        },
      ),
      { numRuns: 150 },
    );
  });
});

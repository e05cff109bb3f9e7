import { describe, expect, it } from 'vitest';
import type { Service } from '../api/types.ts';
import type { Namespace } from '../registry/core/namespaces/types.ts';
import type { EndpointSlice } from '../registry/discovery/endpointslices/types.ts';
import { answer, type ClusterDnsView } from './coredns.ts';

const ns = (name: string) => ({ metadata: { name } }) as Namespace;
const svc = (name: string, spec: Record<string, unknown>, namespace = 'shop') =>
  ({ metadata: { name, namespace }, spec }) as unknown as Service;
const slice = (service: string, endpoints: { ip: string; ready: boolean; hostname?: string }[]) =>
  ({
    metadata: {
      name: `${service}-abc`,
      namespace: 'shop',
      labels: { 'kubernetes.io/service-name': service },
    },
    addressType: 'IPv4',
    endpoints: endpoints.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: e.ready },
      ...(e.hostname ? { hostname: e.hostname } : {}),
    })),
    ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  }) as unknown as EndpointSlice;

const VIEW: ClusterDnsView = {
  namespaces: [ns('default'), ns('shop')],
  services: [
    svc('web', {
      clusterIP: '10.96.10.10',
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }, { port: 9000 }],
    }),
    svc('db', { clusterIP: 'None', ports: [{ name: 'sql', port: 5432, protocol: 'TCP' }] }),
    svc('empty', { clusterIP: 'None', ports: [{ port: 80 }] }),
    svc('ext', { type: 'ExternalName', externalName: 'api.example.com' }),
  ],
  endpointSlices: [
    slice('db', [
      { ip: '10.244.1.5', ready: true, hostname: 'db-0' },
      { ip: '10.244.2.6', ready: true },
      { ip: '10.244.2.7', ready: false },
    ]),
    slice('empty', [{ ip: '10.244.3.3', ready: false }]),
  ],
};

const a = (name: string, type: Parameters<typeof answer>[2] = 'A') => answer(VIEW, name, type);

describe('CoreDNS kubernetes plugin', () => {
  it('answers a ClusterIP Service with its cluster IP, TTL 30, case-insensitively', () => {
    expect(a('Web.Shop.svc.Cluster.Local.')).toEqual({
      rcode: 'NOERROR',
      authoritative: true,
      answers: [{ type: 'A', name: 'web.shop.svc.cluster.local', ttl: 30, address: '10.96.10.10' }],
    });
    expect(a('web.shop.svc.cluster.local', 'AAAA')).toEqual({
      rcode: 'NOERROR',
      authoritative: true,
      answers: [],
    });
  });

  it('a missing Service is NXDOMAIN; an existing namespace alone is NODATA, a missing one NXDOMAIN', () => {
    expect(a('nope.shop.svc.cluster.local').rcode).toBe('NXDOMAIN');
    expect(a('shop.svc.cluster.local')).toEqual({
      rcode: 'NOERROR',
      authoritative: true,
      answers: [],
    });
    expect(a('nowhere.svc.cluster.local').rcode).toBe('NXDOMAIN');
    expect(a('web.nowhere.svc.cluster.local').rcode).toBe('NXDOMAIN');
  });

  it('a headless Service answers one A per ready endpoint, and NXDOMAIN with none ready', () => {
    expect(
      a('db.shop.svc.cluster.local').answers.map((r) => (r.type === 'A' ? r.address : '')),
    ).toEqual(['10.244.1.5', '10.244.2.6']);
    expect(a('empty.shop.svc.cluster.local').rcode).toBe('NXDOMAIN');
    // An endpoint by hostname, or by dashed IP when it has none.
    expect(a('db-0.db.shop.svc.cluster.local').answers).toEqual([
      { type: 'A', name: 'db-0.db.shop.svc.cluster.local', ttl: 30, address: '10.244.1.5' },
    ]);
    expect(a('10-244-2-6.db.shop.svc.cluster.local').rcode).toBe('NOERROR');
    expect(a('10-244-2-7.db.shop.svc.cluster.local').rcode).toBe('NXDOMAIN');
  });

  it('SRV: named ports only; a headless Service targets each endpoint', () => {
    expect(a('_http._tcp.web.shop.svc.cluster.local', 'SRV').answers).toEqual([
      {
        type: 'SRV',
        name: '_http._tcp.web.shop.svc.cluster.local',
        ttl: 30,
        priority: 0,
        weight: 100,
        port: 80,
        target: 'web.shop.svc.cluster.local',
      },
    ]);
    expect(a('_nope._tcp.web.shop.svc.cluster.local', 'SRV').rcode).toBe('NXDOMAIN');
    expect(
      a('_sql._tcp.db.shop.svc.cluster.local', 'SRV').answers.map((r) =>
        r.type === 'SRV' ? r.target : '',
      ),
    ).toEqual(['db-0.db.shop.svc.cluster.local', '10-244-2-6.db.shop.svc.cluster.local']);
  });

  it('ExternalName is a CNAME to the external name', () => {
    expect(a('ext.shop.svc.cluster.local').answers).toEqual([
      { type: 'CNAME', name: 'ext.shop.svc.cluster.local', ttl: 30, target: 'api.example.com' },
    ]);
  });

  it('PTR for a cluster IP and a headless endpoint; pods insecure answers any dashed IP', () => {
    expect(a('10.10.96.10.in-addr.arpa', 'PTR').answers).toEqual([
      {
        type: 'PTR',
        name: '10.10.96.10.in-addr.arpa',
        ttl: 30,
        target: 'web.shop.svc.cluster.local',
      },
    ]);
    expect(a('5.1.244.10.in-addr.arpa', 'PTR').answers[0]).toMatchObject({
      target: 'db-0.db.shop.svc.cluster.local',
    });
    expect(a('1-2-3-4.shop.pod.cluster.local').answers[0]).toMatchObject({ address: '1.2.3.4' });
    expect(a('1-2-3-999.shop.pod.cluster.local').rcode).toBe('NXDOMAIN');
  });

  it('names outside the zone go to the upstream resolver, which this cluster lacks', () => {
    expect(a('example.com')).toEqual({ rcode: 'NXDOMAIN', authoritative: false, answers: [] });
  });
});

import { describe, expect, it } from 'vitest';
import type { HTTPRoute, Ingress } from '../api/types.ts';
import { buildServers } from './ingress-match.ts';
import {
  nginxError,
  proxied,
  routeRequest,
  selectListener,
  upstreamName,
  type ProgrammedListener,
  type ProxyConfig,
} from './proxy.ts';

const req = (host: string, path: string) => ({
  method: 'GET' as const,
  host,
  path,
  headers: [] as [string, string][],
});

const upstream = (service: string, port: string) => ({
  namespace: 'default',
  service,
  port,
  endpoints: ['10.244.1.5:8080'],
});

describe('routeRequest', () => {
  it('sends an Ingress match to its Service port’s upstream, and the rest to the 404', () => {
    const ing = {
      metadata: { name: 'shop', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        rules: [
          {
            host: 'shop.example',
            http: {
              paths: [
                {
                  path: '/cart',
                  pathType: 'Prefix',
                  backend: { service: { name: 'cart', port: { number: 80 } } },
                },
              ],
            },
          },
        ],
      },
    } as unknown as Ingress;
    const config: ProxyConfig = {
      servers: buildServers([ing]),
      listeners: [],
      upstreams: new Map([[upstreamName('default', 'cart', 80), upstream('cart', '80')]]),
      ports: [80],
    };
    const r = routeRequest(config, 80, req('shop.example', '/cart/1'), 0);
    expect(r).toMatchObject({
      kind: 'upstream',
      via: 'ingress default/shop',
      name: 'default-cart-80',
    });
    expect(routeRequest(config, 80, req('shop.example', '/'), 0)).toEqual({ kind: 'not-found' });
  });

  const route = {
    metadata: { name: 'web', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: {
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [
            { name: 'v1', port: 80, weight: 3 },
            { name: 'gone', port: 80, weight: 1 },
          ],
        },
      ],
    },
  } as unknown as HTTPRoute;
  const listener: ProgrammedListener = {
    gateway: 'default/gw',
    name: 'http',
    port: 80,
    routes: [{ route, hostnames: [''] }],
  };
  const config: ProxyConfig = {
    servers: [],
    listeners: [listener],
    upstreams: new Map([[upstreamName('default', 'v1', 80), upstream('v1', '80')]]),
    ports: [80],
  };

  it('splits an HTTPRoute rule by weight, a backendRef that does not resolve answering 500', () => {
    expect(routeRequest(config, 80, req('a.example', '/'), 0.5)).toMatchObject({
      kind: 'upstream',
      via: 'httproute default/web',
      name: 'default-v1-80',
    });
    expect(routeRequest(config, 80, req('a.example', '/'), 0.8)).toEqual({
      kind: 'error',
      status: 500,
      via: 'httproute default/web',
    });
  });

  it('has no listener on another port: 404', () => {
    expect(routeRequest(config, 8080, req('a.example', '/'), 0)).toEqual({ kind: 'not-found' });
  });
});

describe('selectListener', () => {
  const l = (name: string, hostname?: string): ProgrammedListener => ({
    gateway: 'default/gw',
    name,
    port: 80,
    ...(hostname ? { hostname } : {}),
    routes: [],
  });
  const ls = [l('any'), l('wild', '*.example.com'), l('exact', 'shop.example.com')];
  it('takes the exact hostname, then a wildcard, then a listener without hostname', () => {
    expect(selectListener(ls, 80, 'shop.example.com')?.name).toBe('exact');
    expect(selectListener(ls, 80, 'blog.example.com')?.name).toBe('wild');
    expect(selectListener(ls, 80, 'other.net')?.name).toBe('any');
  });
});

describe('nginx’s answers', () => {
  it('are its error pages without a version (ingress-nginx’s 404 is 146 bytes, its 503 190)', () => {
    const r404 = nginxError(404, req('x', '/'), 0);
    expect(r404.headers).toContainEqual(['Content-Length', '146']);
    expect(r404.body).toContain('<hr><center>nginx</center>');
    expect(nginxError(503, req('x', '/'), 0).headers).toContainEqual(['Content-Length', '190']);
  });

  it('relay the backend’s status and body with nginx’s Date and Connection', () => {
    const res = proxied(
      {
        status: 200,
        reason: 'OK',
        headers: [
          ['Server', 'backend'],
          ['Date', 'then'],
          ['Content-Length', '2'],
          ['Content-Type', 'text/plain'],
        ],
        body: 'ok',
      },
      5_000,
    );
    expect(res.headers).toEqual([
      ['Date', 'Thu, 01 Jan 2026 00:00:05 GMT'],
      ['Content-Type', 'text/plain'],
      ['Content-Length', '2'],
      ['Connection', 'keep-alive'],
    ]);
    expect(res.body).toBe('ok');
  });
});

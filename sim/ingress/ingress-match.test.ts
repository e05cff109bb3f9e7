import { describe, expect, it } from 'vitest';
import type { Ingress, IngressRule } from '../api/types.ts';
import {
  buildServers,
  hostMatches,
  pathMatches,
  routeIngress,
  selectLocation,
} from './ingress-match.ts';

const backend = (name: string) => ({ service: { name, port: { number: 80 } } });

function ingress(name: string, spec: Ingress['spec'], created = '2026-01-01T00:00:00Z'): Ingress {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace: 'default', creationTimestamp: created },
    spec,
  } as Ingress;
}

describe('hostMatches', () => {
  it('matches an exact host case-insensitively, and every host for an empty rule host', () => {
    expect(hostMatches('shop.example', 'shop.example')).toBe(true);
    expect(hostMatches('shop.example', 'SHOP.example')).toBe(true);
    expect(hostMatches('shop.example', 'www.shop.example')).toBe(false);
    expect(hostMatches(undefined, 'anything.example')).toBe(true);
    expect(hostMatches('', 'x')).toBe(true);
  });

  it('matches a wildcard on exactly one label', () => {
    expect(hostMatches('*.foo.com', 'bar.foo.com')).toBe(true);
    expect(hostMatches('*.foo.com', 'baz.bar.foo.com')).toBe(false);
    expect(hostMatches('*.foo.com', 'foo.com')).toBe(false);
    expect(hostMatches('*.foo.com', '.foo.com')).toBe(false);
  });
});

describe('pathMatches', () => {
  // The examples table of the Ingress concept page.
  it.each([
    ['Prefix', '/', '/anything', true],
    ['Exact', '/foo', '/foo', true],
    ['Exact', '/foo', '/bar', false],
    ['Exact', '/foo', '/foo/', false],
    ['Exact', '/foo/', '/foo', false],
    ['Prefix', '/foo', '/foo', true],
    ['Prefix', '/foo', '/foo/', true],
    ['Prefix', '/foo/', '/foo', true],
    ['Prefix', '/foo/', '/foo/', true],
    ['Prefix', '/aaa/bb', '/aaa/bbb', false],
    ['Prefix', '/aaa/bbb', '/aaa/bbb', true],
    ['Prefix', '/aaa/bbb/', '/aaa/bbb', true],
    ['Prefix', '/aaa/bbb', '/aaa/bbb/', true],
    ['Prefix', '/aaa/bbb', '/aaa/bbb/ccc', true],
    ['Prefix', '/aaa/bbb', '/aaa/bbbxyz', false],
    ['Prefix', '/foo/bar', '/foo/barbaz', false],
  ] as const)('%s %s against %s is %s', (type, rule, req, want) => {
    expect(pathMatches(type, rule, req)).toBe(want);
  });

  it('ignores the query string', () => {
    expect(pathMatches('Exact', '/cart', '/cart?id=1')).toBe(true);
  });
});

describe('selectLocation', () => {
  const rule = (paths: [string, 'Exact' | 'Prefix', string][]): IngressRule => ({
    host: 'shop.example',
    http: { paths: paths.map(([path, pathType, b]) => ({ path, pathType, backend: backend(b) })) },
  });

  it('takes the longest matching path', () => {
    const [s] = buildServers([
      ingress('a', {
        rules: [
          rule([
            ['/', 'Prefix', 'root'],
            ['/aaa', 'Prefix', 'aaa'],
            ['/aaa/bbb', 'Prefix', 'bbb'],
          ]),
        ],
      }),
    ]).filter((x) => x.host === 'shop.example');
    expect(selectLocation(s!, '/aaa/bbb/ccc')?.backend.service?.name).toBe('bbb');
    expect(selectLocation(s!, '/aaa/ccc')?.backend.service?.name).toBe('aaa');
    expect(selectLocation(s!, '/zzz')?.backend.service?.name).toBe('root');
  });

  it('prefers Exact to Prefix at equal length, whichever comes first', () => {
    for (const order of [
      [
        ['/foo', 'Prefix', 'prefix'],
        ['/foo', 'Exact', 'exact'],
      ],
      [
        ['/foo', 'Exact', 'exact'],
        ['/foo', 'Prefix', 'prefix'],
      ],
    ] as [string, 'Exact' | 'Prefix', string][][]) {
      const [s] = buildServers([ingress('a', { rules: [rule(order)] })]).filter(
        (x) => x.host === 'shop.example',
      );
      expect(selectLocation(s!, '/foo')?.backend.service?.name).toBe('exact');
      expect(selectLocation(s!, '/foo/bar')?.backend.service?.name).toBe('prefix');
    }
  });
});

describe('routeIngress', () => {
  const servers = buildServers([
    ingress('shop', {
      rules: [
        {
          host: 'shop.example',
          http: { paths: [{ path: '/cart', pathType: 'Prefix', backend: backend('cart') }] },
        },
        {
          host: '*.shop.example',
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: backend('wild') }] },
        },
      ],
    }),
    ingress(
      'fallback',
      {
        defaultBackend: backend('fallback'),
        rules: [
          {
            host: 'blog.example',
            http: { paths: [{ path: '/posts', pathType: 'Exact', backend: backend('posts') }] },
          },
        ],
      },
      '2026-01-01T00:00:10Z',
    ),
  ]);
  const to = (host: string, path: string) => {
    const r = routeIngress(servers, host, path);
    return r.kind === 'backend' ? r.backend.service?.name : r.kind;
  };

  it('routes by host, then path', () => {
    expect(to('shop.example', '/cart')).toBe('cart');
    expect(to('shop.example', '/cart/items')).toBe('cart');
    expect(to('www.shop.example', '/anything')).toBe('wild');
    expect(to('blog.example', '/posts')).toBe('posts');
  });

  it("falls back to the Ingress's defaultBackend on its own hosts and on unknown hosts", () => {
    expect(to('blog.example', '/posts/1')).toBe('fallback');
    expect(to('other.example', '/')).toBe('fallback');
  });

  it("gives the controller's default backend (404) to a host's unmatched path without defaultBackend", () => {
    expect(to('shop.example', '/checkout')).toBe('default-backend');
    expect(to('a.b.shop.example', '/')).toBe('fallback');
    expect(routeIngress(buildServers([]), 'x', '/').kind).toBe('default-backend');
  });

  it('keeps the older Ingress for a host and path two Ingresses claim', () => {
    const rule = (b: string) => ({
      host: 'dup.example',
      http: { paths: [{ path: '/', pathType: 'Prefix' as const, backend: backend(b) }] },
    });
    const s = buildServers([
      ingress('newer', { rules: [rule('newer')] }, '2026-01-01T00:01:00Z'),
      ingress('older', { rules: [rule('older')] }, '2026-01-01T00:00:30Z'),
    ]);
    const r = routeIngress(s, 'dup.example', '/');
    expect(r.kind === 'backend' && r.backend.service?.name).toBe('older');
  });
});

import { describe, expect, it } from 'vitest';
import type { HTTPRoute } from '../api/types.ts';
import {
  headersMatch,
  hostnameMatches,
  intersectHostnames,
  pathMatches,
  pickBackendRef,
  routeHTTP,
} from './httproute-match.ts';

function route(name: string, spec: HTTPRoute['spec'], created = '2026-01-01T00:00:00Z'): HTTPRoute {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, namespace: 'default', creationTimestamp: created },
    spec,
  } as HTTPRoute;
}

const to = (name: string) => ({ backendRefs: [{ name, port: 80 }] });

describe('hostnameMatches', () => {
  it('treats a wildcard as a suffix match over any number of labels', () => {
    expect(hostnameMatches('*.example.com', 'test.example.com')).toBe(true);
    expect(hostnameMatches('*.example.com', 'foo.test.example.com')).toBe(true);
    expect(hostnameMatches('*.example.com', 'example.com')).toBe(false);
    expect(hostnameMatches('test.example.com', 'TEST.example.com')).toBe(true);
  });
});

describe('intersectHostnames', () => {
  // The examples of HTTPRouteSpec.Hostnames.
  it('attaches to test.example.com a route with no hostnames, itself or *.example.com', () => {
    expect(intersectHostnames('test.example.com', undefined)).toEqual(['test.example.com']);
    expect(intersectHostnames('test.example.com', ['test.example.com'])).toEqual([
      'test.example.com',
    ]);
    expect(intersectHostnames('test.example.com', ['*.example.com'])).toEqual(['test.example.com']);
    expect(intersectHostnames('test.example.com', ['other.example.com'])).toBeNull();
  });

  it('attaches to *.example.com the names it covers, ignoring the others', () => {
    expect(
      intersectHostnames('*.example.com', [
        '*.example.com',
        'test.example.com',
        'foo.test.example.com',
      ]),
    ).toEqual(['*.example.com', 'test.example.com', 'foo.test.example.com']);
    expect(intersectHostnames('*.example.com', ['test.example.com', 'test.example.net'])).toEqual([
      'test.example.com',
    ]);
    expect(intersectHostnames('*.example.com', ['example.com', 'test.example.net'])).toBeNull();
  });

  it('takes the route hostnames when the listener has none, and any host when neither has', () => {
    expect(intersectHostnames(undefined, ['a.example'])).toEqual(['a.example']);
    expect(intersectHostnames(undefined, undefined)).toEqual(['']);
  });
});

describe('pathMatches', () => {
  it('matches PathPrefix element by element, a trailing / ignored', () => {
    for (const p of ['/abc', '/abc/', '/abc/def'])
      expect(pathMatches({ type: 'PathPrefix', value: '/abc' }, p)).toBe(true);
    expect(pathMatches({ type: 'PathPrefix', value: '/abc' }, '/abcd')).toBe(false);
    expect(pathMatches({ type: 'PathPrefix', value: '/abc/' }, '/abc')).toBe(true);
  });

  it('matches Exact whole and case-sensitively, and RegularExpression over the whole path', () => {
    expect(pathMatches({ type: 'Exact', value: '/cart' }, '/cart')).toBe(true);
    expect(pathMatches({ type: 'Exact', value: '/cart' }, '/Cart')).toBe(false);
    expect(pathMatches({ type: 'Exact', value: '/cart' }, '/cart/')).toBe(false);
    expect(pathMatches({ type: 'RegularExpression', value: '/items/[0-9]+' }, '/items/42')).toBe(
      true,
    );
    expect(pathMatches({ type: 'RegularExpression', value: '/items/[0-9]+' }, '/items/42/x')).toBe(
      false,
    );
  });
});

describe('headersMatch', () => {
  it('compares names case-insensitively and values exactly, or by regular expression', () => {
    const h: [string, string][] = [['X-Version', 'v2']];
    expect(headersMatch([{ name: 'x-version', value: 'v2' }], h)).toBe(true);
    expect(headersMatch([{ name: 'x-version', value: 'V2' }], h)).toBe(false);
    expect(
      headersMatch([{ type: 'RegularExpression', name: 'X-Version', value: '^v[0-9]$' }], h),
    ).toBe(true);
    expect(headersMatch([{ name: 'X-Missing', value: 'v2' }], h)).toBe(false);
  });
});

describe('routeHTTP', () => {
  const attach = (r: HTTPRoute) => ({ route: r, hostnames: r.spec.hostnames ?? [''] });
  const pick = (
    routes: HTTPRoute[],
    host: string,
    path: string,
    headers: [string, string][] = [],
  ) => {
    const hit = routeHTTP(routes.map(attach), host, 'GET', path, headers);
    return hit ? hit.route.spec.rules![hit.ruleIndex]!.backendRefs![0]!.name : 404;
  };

  it('prefers Exact, then the longest PathPrefix, then more header matches', () => {
    const r = route('shop', {
      hostnames: ['shop.example'],
      rules: [
        { matches: [{ path: { type: 'PathPrefix', value: '/' } }], ...to('root') },
        { matches: [{ path: { type: 'PathPrefix', value: '/cart' } }], ...to('cart') },
        { matches: [{ path: { type: 'Exact', value: '/cart' } }], ...to('exact') },
        {
          matches: [
            {
              path: { type: 'PathPrefix', value: '/cart' },
              headers: [{ name: 'x-beta', value: '1' }],
            },
          ],
          ...to('beta'),
        },
      ],
    });
    expect(pick([r], 'shop.example', '/cart')).toBe('exact');
    expect(pick([r], 'shop.example', '/cart/items')).toBe('cart');
    expect(pick([r], 'shop.example', '/cart/items', [['X-Beta', '1']])).toBe('beta');
    expect(pick([r], 'shop.example', '/other')).toBe('root');
    expect(pick([r], 'blog.example', '/')).toBe(404);
  });

  it('prefers the route with the longer non-wildcard hostname, and 404s when its rules miss', () => {
    const wild = route('wild', { hostnames: ['*.example'], rules: [to('wild')] });
    const exact = route('exact', {
      hostnames: ['shop.example'],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/cart' } }], ...to('exact') }],
    });
    expect(pick([wild, exact], 'shop.example', '/cart')).toBe('exact');
    expect(pick([wild, exact], 'blog.example', '/cart')).toBe('wild');
    expect(pick([wild, exact], 'shop.example', '/')).toBe(404);
  });

  it('breaks ties by the oldest route, then namespace/name, then rule order', () => {
    const a = route('b-route', { rules: [to('older')] }, '2026-01-01T00:00:00Z');
    const b = route('a-route', { rules: [to('newer')] }, '2026-01-01T00:00:05Z');
    expect(pick([b, a], 'x.example', '/')).toBe('older');
    const c = route('a-route', { rules: [to('a')] });
    const d = route('b-route', { rules: [to('b'), to('b2')] });
    expect(pick([d, c], 'x.example', '/')).toBe('a');
    expect(pick([d], 'x.example', '/')).toBe('b');
  });
});

describe('pickBackendRef', () => {
  const refs = [
    { name: 'v1', port: 80, weight: 90 },
    { name: 'v2', port: 80, weight: 10 },
    { name: 'off', port: 80, weight: 0 },
  ];
  it('splits by weight and never picks a zero weight', () => {
    expect(pickBackendRef(refs, 0)?.name).toBe('v1');
    expect(pickBackendRef(refs, 0.899)?.name).toBe('v1');
    expect(pickBackendRef(refs, 0.9)?.name).toBe('v2');
    expect(pickBackendRef(refs, 0.9999)?.name).toBe('v2');
    const counts = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const n = pickBackendRef(refs, i / 1000)!.name;
      counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual({ v1: 900, v2: 100 });
  });
  it('picks nothing when every weight is 0 (a 500)', () => {
    expect(pickBackendRef([{ name: 'a', port: 80, weight: 0 }], 0.5)).toBeUndefined();
    expect(pickBackendRef([{ name: 'a', port: 80 }], 0.5)?.name).toBe('a');
  });
});

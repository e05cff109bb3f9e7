import { describe, expect, it } from 'vitest';
import type { Ingress, IngressClass } from '../../../api/types.ts';
import { fieldErrorString } from '../../../apiserver/errors.ts';
import { frozenAPIServer } from '../../../testing.ts';
import { validateIngressClass } from '../ingressclasses/strategy.ts';
import { validateIngress } from './strategy.ts';

function ingress(spec: Ingress['spec']): Ingress {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'shop', namespace: 'default' },
    spec,
  } as Ingress;
}

const svc = { service: { name: 'web', port: { number: 80 } } };

function messages(ing: Ingress): string[] {
  return validateIngress(ing).map(fieldErrorString);
}

describe('validateIngress', () => {
  it('requires rules or a defaultBackend', () => {
    expect(messages(ingress({}))).toEqual([
      'spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified',
    ]);
    expect(messages(ingress({ defaultBackend: svc }))).toEqual([]);
  });

  it('requires pathType, with no default in networking.k8s.io/v1', () => {
    expect(
      messages(ingress({ rules: [{ http: { paths: [{ path: '/', backend: svc }] } }] })),
    ).toEqual(['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
  });

  it('refuses an unknown pathType, a relative path and a path with //', () => {
    const m = messages(
      ingress({
        rules: [
          {
            http: {
              paths: [
                { path: '/', pathType: 'Regex' as never, backend: svc },
                { path: 'cart', pathType: 'Prefix', backend: svc },
                { path: '/a//b', pathType: 'Exact', backend: svc },
              ],
            },
          },
        ],
      }),
    );
    expect(m).toEqual([
      'spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
      'spec.rules[0].http.paths[1].path: Invalid value: "cart": must be an absolute path',
      'spec.rules[0].http.paths[2].path: Invalid value: "/a//b": must not contain \'//\'',
    ]);
  });

  it('allows a one-label wildcard host and refuses a bare *, an inner * and an IP', () => {
    const rule = (host: string) => ({
      host,
      http: { paths: [{ path: '/', pathType: 'Prefix' as const, backend: svc }] },
    });
    expect(messages(ingress({ rules: [rule('*.shop.example')] }))).toEqual([]);
    const bad = messages(ingress({ rules: [rule('*'), rule('a.*.example'), rule('10.0.0.1')] }));
    expect(bad[0]).toMatch(
      /^spec\.rules\[0\]\.host: Invalid value: "\*": a wildcard DNS-1123 subdomain must start with '\*\.'/,
    );
    expect(bad[1]).toMatch(
      /^spec\.rules\[1\]\.host: Invalid value: "a\.\*\.example": a wildcard DNS-1123/,
    );
    expect(bad[2]).toBe(
      'spec.rules[2].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
    );
    expect(bad).toHaveLength(3);
  });

  it('checks a backend: a Service or a resource, and one port', () => {
    const path = (backend: object) => ({
      rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix' as const, backend }] } }],
    });
    expect(messages(ingress(path({})))).toEqual([
      'spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required',
    ]);
    expect(messages(ingress(path({ service: { name: 'web', port: {} } })))).toEqual([
      'spec.rules[0].http.paths[0].backend: Required value: port name or number is required',
    ]);
    expect(
      messages(ingress(path({ service: { name: 'web', port: { name: 'http', number: 80 } } }))),
    ).toEqual([
      'spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number',
    ]);
  });
});

describe('validateIngressClass', () => {
  const ic = (controller?: string) =>
    ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'nginx' },
      spec: controller === undefined ? {} : { controller },
    }) as IngressClass;
  it('requires a domain-prefixed controller', () => {
    expect(validateIngressClass(ic('k8s.io/ingress-nginx'))).toEqual([]);
    expect(validateIngressClass(ic()).map(fieldErrorString)).toEqual([
      'spec.controller: Required value',
    ]);
    expect(validateIngressClass(ic('nginx')).map(fieldErrorString)).toEqual([
      'spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
    ]);
  });
});

describe('the DefaultIngressClass admission plugin', () => {
  it('fills spec.ingressClassName from the class annotated is-default-class, newest first', () => {
    const { sim, api } = frozenAPIServer();
    const cls = (name: string, isDefault: boolean) =>
      ({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'IngressClass',
        metadata: {
          name,
          ...(isDefault
            ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } }
            : {}),
        },
        spec: { controller: 'k8s.io/ingress-nginx' },
      }) as IngressClass;
    const made = (name: string, spec: Ingress['spec']) =>
      api.create<Ingress>('test', 'ingresses', {
        ...ingress(spec),
        metadata: { name, namespace: 'default' },
      } as Ingress);
    expect(made('a', { defaultBackend: svc }).spec.ingressClassName).toBeUndefined();
    api.create('test', 'ingressclasses', cls('other', false));
    api.create('test', 'ingressclasses', cls('nginx', true));
    expect(made('b', { defaultBackend: svc }).spec.ingressClassName).toBe('nginx');
    sim.clock.nowMs = 5_000;
    api.create('test', 'ingressclasses', cls('newer', true));
    expect(made('c', { defaultBackend: svc }).spec.ingressClassName).toBe('newer');
    expect(
      made('d', { ingressClassName: 'other', defaultBackend: svc }).spec.ingressClassName,
    ).toBe('other');
  });
});

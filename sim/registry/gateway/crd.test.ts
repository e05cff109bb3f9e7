import { describe, expect, it } from 'vitest';
import type { HTTPRoute } from '../../api/types.ts';
import { fieldErrorString } from '../../apiserver/errors.ts';
import { smartLabelFor } from './crd.ts';
import { validateGatewayClass } from './gatewayclasses/strategy.ts';
import { defaultHTTPRoute, validateHTTPRoute } from './httproutes/strategy.ts';
import type { GatewayClass } from './types.ts';

const route = (spec: HTTPRoute['spec']) =>
  ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'r', namespace: 'default' },
    spec,
  }) as HTTPRoute;

describe('the HTTPRoute CRD', () => {
  it('defaults a rule to PathPrefix /, a parentRef to a Gateway, a backendRef to a Service of weight 1', () => {
    const r = route({
      parentRefs: [{ name: 'gw' }],
      rules: [{ backendRefs: [{ name: 'web', port: 80 }] }],
    });
    defaultHTTPRoute(r);
    expect(r.spec).toEqual({
      parentRefs: [{ name: 'gw', group: 'gateway.networking.k8s.io', kind: 'Gateway' }],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ name: 'web', port: 80, group: '', kind: 'Service', weight: 1 }],
        },
      ],
    });
    const empty = route({});
    defaultHTTPRoute(empty);
    expect(empty.spec.rules).toEqual([{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }]);
  });

  it('refuses a relative path, an unknown path type and a Service backendRef without a port', () => {
    const r = route({
      rules: [
        {
          matches: [
            { path: { type: 'PathPrefix', value: 'cart' } },
            { path: { type: 'Glob' as never, value: '/' } },
          ],
          backendRefs: [{ name: 'web' }],
        },
      ],
    });
    defaultHTTPRoute(r);
    expect(validateHTTPRoute(r).map(fieldErrorString)).toEqual([
      `spec.rules[0].matches[0].path: Invalid value: "object": value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']`,
      'spec.rules[0].matches[1].path.type: Unsupported value: "Glob": supported values: "Exact", "PathPrefix", "RegularExpression"',
      'spec.rules[0].backendRefs[0]: Invalid value: "object": Must have port for Service reference',
    ]);
  });
});

describe('the GatewayClass CRD', () => {
  it('requires a domain-prefixed controllerName', () => {
    const gc = (controllerName: string) => ({ spec: { controllerName } }) as GatewayClass;
    expect(validateGatewayClass(gc('gateway.nginx.org/nginx-gateway-controller'))).toEqual([]);
    expect(validateGatewayClass(gc('nginx'))[0]?.field).toBe('spec.controllerName');
    expect(validateGatewayClass(gc(''))[0]?.type).toBe('Required value');
  });
});

describe('smartLabelFor', () => {
  it('turns field names into kubectl describe labels', () => {
    expect(smartLabelFor('apiVersion')).toBe('API Version');
    expect(smartLabelFor('parentRefs')).toBe('Parent Refs');
    expect(smartLabelFor('uid')).toBe('UID');
    expect(smartLabelFor('observedGeneration')).toBe('Observed Generation');
    expect(smartLabelFor('app.kubernetes.io/name')).toBe('app.kubernetes.io/name');
  });
});

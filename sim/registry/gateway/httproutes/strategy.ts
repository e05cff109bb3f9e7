// Mirrors the HTTPRoute CRD (sigs.k8s.io/gateway-api config/crd/standard/
// gateway.networking.k8s.io_httproutes.yaml): its defaults (a parentRef's group and kind; a rule
// without matches matches PathPrefix "/"; a path match PathPrefix "/"; a header match Exact; a
// backendRef's group "", kind Service and weight 1) and some of its schema's checks.
// Simplification: the schema's other patterns and CEL rules are not checked.

import type { FieldError } from '../../../apiserver/errors.ts';
import type { Strategy } from '../../rules.ts';
import { GatewayGroup, type HTTPRoute } from '../types.ts';

/** httpRouteStrategy is the HTTPRoute's storage strategy. */
export const httpRouteStrategy: Strategy = {
  defaults: (obj) => defaultHTTPRoute(obj as HTTPRoute),
  prepareForCreate: (obj) => {
    delete (obj as HTTPRoute).status;
  },
  defaultsInPlace: true,
  validate: (obj) => validateHTTPRoute(obj as HTTPRoute),
};

/** defaultHTTPRoute applies the CRD schema's defaults. */
export function defaultHTTPRoute(r: HTTPRoute): void {
  r.spec ??= {};
  for (const p of r.spec.parentRefs ?? []) {
    p.group ??= GatewayGroup;
    p.kind ??= 'Gateway';
  }
  r.spec.rules ??= [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }];
  for (const rule of r.spec.rules) {
    rule.matches ??= [{ path: { type: 'PathPrefix', value: '/' } }];
    for (const m of rule.matches) {
      m.path ??= { type: 'PathPrefix', value: '/' };
      m.path.type ??= 'PathPrefix';
      m.path.value ??= '/';
      for (const h of m.headers ?? []) h.type ??= 'Exact';
    }
    for (const b of rule.backendRefs ?? []) {
      b.group ??= '';
      b.kind ??= 'Service';
      b.weight ??= 1;
    }
  }
}

const pathTypes = ['Exact', 'PathPrefix', 'RegularExpression'];

/** validateHTTPRoute checks the path matches and backendRefs as the CRD's schema does. */
export function validateHTTPRoute(r: HTTPRoute): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, rule] of (r.spec?.rules ?? []).entries()) {
    for (const [j, m] of (rule.matches ?? []).entries()) {
      const at = `spec.rules[${i}].matches[${j}].path`;
      const t = m.path?.type;
      if (t && !pathTypes.includes(t))
        errs.push({
          field: `${at}.type`,
          type: 'Unsupported value',
          value: t,
          detail: `supported values: ${pathTypes.map((x) => `"${x}"`).join(', ')}`,
        });
      else if ((t === 'Exact' || t === 'PathPrefix') && !m.path?.value?.startsWith('/'))
        errs.push({
          field: at,
          type: 'Invalid value',
          raw: '"object"',
          detail:
            "value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
        });
    }
    for (const [j, b] of (rule.backendRefs ?? []).entries())
      if ((b.group ?? '') === '' && (b.kind ?? 'Service') === 'Service' && b.port === undefined)
        errs.push({
          field: `spec.rules[${i}].backendRefs[${j}]`,
          type: 'Invalid value',
          raw: '"object"',
          detail: 'Must have port for Service reference',
        });
  }
  return errs;
}

// Mirrors pkg/registry/networking/ingressclass/strategy.go, SetDefaults_IngressClass
// (pkg/apis/networking/v1/defaults.go: a parameters reference without a scope is Cluster) and
// pkg/apis/networking/validation/validation.go ValidateIngressClass.
// Simplification: ValidateIngressClassUpdate's "field is immutable" for spec.controller is not
// checked (the strategy's validate sees only the new object).

import type { FieldError } from '../../../apiserver/errors.ts';
import type { Strategy } from '../../rules.ts';
import { isDNS1123Subdomain } from '../ingresses/strategy.ts';
import type { IngressClass } from './types.ts';

/** ingressClassStrategy is the IngressClass's REST strategy. */
export const ingressClassStrategy: Strategy = {
  defaults: (obj) => defaultIngressClass(obj as IngressClass),
  validate: (obj) => validateIngressClass(obj as IngressClass),
};

/** defaultIngressClass mirrors SetDefaults_IngressClass. */
export function defaultIngressClass(c: IngressClass): void {
  c.spec ??= {};
  if (c.spec.parameters && c.spec.parameters.scope === undefined)
    c.spec.parameters.scope = 'Cluster';
}

/** validateIngressClass mirrors validateIngressClassSpec: controller is a domain-prefixed path. */
export function validateIngressClass(c: IngressClass): FieldError[] {
  const errs: FieldError[] = [];
  const controller = c.spec?.controller ?? '';
  const field = 'spec.controller';
  if (controller.length > 250)
    errs.push({ field, type: 'Too long', detail: 'may not be more than 250 bytes' });
  // validation.IsDomainPrefixedPath.
  if (!controller) errs.push({ field, type: 'Required value', detail: '' });
  else {
    const i = controller.indexOf('/');
    const host = i < 0 ? controller : controller.slice(0, i);
    const path = i < 0 ? '' : controller.slice(i + 1);
    if (i < 0 || !host || !path)
      errs.push({
        field,
        type: 'Invalid value',
        value: controller,
        detail: 'must be a domain-prefixed path (such as "acme.io/foo")',
      });
    else {
      for (const m of isDNS1123Subdomain(host))
        errs.push({ field, type: 'Invalid value', value: host, detail: m });
      if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(path))
        errs.push({ field, type: 'Invalid value', value: path, detail: 'must be a valid path' });
    }
  }
  const p = c.spec?.parameters;
  if (p) {
    if (!p.kind) errs.push({ field: 'spec.parameters.kind', type: 'Required value', detail: '' });
    if (!p.name) errs.push({ field: 'spec.parameters.name', type: 'Required value', detail: '' });
    if (p.scope !== 'Cluster' && p.scope !== 'Namespace')
      errs.push({
        field: 'spec.parameters.scope',
        type: 'Unsupported value',
        value: p.scope,
        detail: 'supported values: "Cluster", "Namespace"',
      });
    else if (p.scope === 'Namespace' && !p.namespace)
      errs.push({
        field: 'spec.parameters.namespace',
        type: 'Required value',
        detail: '`parameters.scope` is set to "Namespace"',
      });
    else if (p.scope === 'Cluster' && p.namespace)
      errs.push({
        field: 'spec.parameters.namespace',
        type: 'Forbidden',
        detail: '`parameters.scope` is set to "Cluster"',
      });
  }
  return errs;
}

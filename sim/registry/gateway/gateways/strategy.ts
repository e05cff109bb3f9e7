// Mirrors the Gateway CRD (sigs.k8s.io/gateway-api config/crd/standard/
// gateway.networking.k8s.io_gateways.yaml): its defaults (status Accepted and Programmed
// "Waiting for controller", a listener's allowedRoutes from: Same) and some of its schema's
// checks (a listener, unique listener names, port range).
// Simplification: the schema's other patterns and CEL rules are not checked.

import type { AnyObject } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import type { Strategy } from '../../rules.ts';
import { pendingCondition } from '../crd.ts';
import type { Gateway } from '../types.ts';

/** gatewayStrategy is the Gateway's storage strategy. */
export const gatewayStrategy: Strategy = {
  defaults: (obj) => {
    const gw = obj as Gateway;
    for (const l of gw.spec?.listeners ?? []) {
      l.allowedRoutes ??= {};
      l.allowedRoutes.namespaces ??= {};
      l.allowedRoutes.namespaces.from ??= 'Same';
    }
  },
  prepareForCreate: (obj: AnyObject) => {
    (obj as Gateway).status = {
      conditions: [pendingCondition('Accepted'), pendingCondition('Programmed')],
    };
  },
  defaultsInPlace: true,
  validate: (obj) => validateGateway(obj as Gateway),
};

/** validateGateway checks what the CRD's schema checks of the listeners. */
export function validateGateway(gw: Gateway): FieldError[] {
  const errs: FieldError[] = [];
  if (!gw.spec?.gatewayClassName)
    errs.push({ field: 'spec.gatewayClassName', type: 'Required value', detail: '' });
  const listeners = gw.spec?.listeners ?? [];
  if (listeners.length === 0)
    errs.push({ field: 'spec.listeners', type: 'Required value', detail: '' });
  const names = new Set<string>();
  for (const [i, l] of listeners.entries()) {
    if (!Number.isInteger(l.port) || l.port < 1 || l.port > 65535)
      errs.push({
        field: `spec.listeners[${i}].port`,
        type: 'Invalid value',
        value: l.port,
        detail: `spec.listeners[${i}].port in body should be ${l.port < 1 ? 'greater than or equal to 1' : 'less than or equal to 65535'}`,
      });
    if (names.has(l.name))
      errs.push({
        field: 'spec.listeners',
        type: 'Invalid value',
        raw: '"array"',
        detail: 'Listener name must be unique within the Gateway',
      });
    names.add(l.name);
  }
  return errs;
}

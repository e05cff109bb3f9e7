// Mirrors the GatewayClass CRD (sigs.k8s.io/gateway-api config/crd/standard/
// gateway.networking.k8s.io_gatewayclasses.yaml): its status default and its schema's checks on
// spec.controllerName, as kube-apiserver's apiextensions storage applies them.

import type { AnyObject } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import type { Strategy } from '../../rules.ts';
import { pendingCondition } from '../crd.ts';
import type { GatewayClass } from '../types.ts';

const CONTROLLER_PATTERN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** gatewayClassStrategy is the GatewayClass's storage strategy. */
export const gatewayClassStrategy: Strategy = {
  // A custom resource with a status subresource starts without the status a client sent; the
  // schema's default then fills it.
  prepareForCreate: (obj: AnyObject) => {
    (obj as GatewayClass).status = { conditions: [pendingCondition('Accepted')] };
  },
  validate: (obj) => validateGatewayClass(obj as GatewayClass),
};

/** validateGatewayClass checks spec.controllerName as the CRD's schema does. */
export function validateGatewayClass(gc: GatewayClass): FieldError[] {
  const name = gc.spec?.controllerName;
  if (!name) return [{ field: 'spec.controllerName', type: 'Required value', detail: '' }];
  if (!CONTROLLER_PATTERN.test(name))
    return [
      {
        field: 'spec.controllerName',
        type: 'Invalid value',
        value: name,
        detail: `spec.controllerName in body should match '${CONTROLLER_PATTERN.source}'`,
      },
    ];
  return [];
}

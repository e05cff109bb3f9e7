// Mirrors the GatewayClass CRD's additionalPrinterColumns (sigs.k8s.io/gateway-api
// config/crd/standard/gateway.networking.k8s.io_gatewayclasses.yaml): Controller, Accepted, Age,
// and Description with -o wide.

import type { AnyObject } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';
import { conditionStatus } from '../crd.ts';
import type { GatewayClass } from '../types.ts';

/** gatewayClassPrinter is GatewayClass's table for `kubectl get`. */
export const gatewayClassPrinter: Printer = {
  columns: [NAME, col('Controller'), col('Accepted'), AGE, col('Description', 1)],
  row: (obj: AnyObject, now: number, wide: boolean) => {
    const gc = obj as GatewayClass;
    const cells = [
      gc.metadata.name,
      gc.spec?.controllerName ?? '',
      conditionStatus(gc.status?.conditions, 'Accepted'),
      translateTimestampSince(gc.metadata.creationTimestamp, now),
    ];
    if (wide) cells.push(gc.spec?.description ?? '');
    return { cells, object: gc };
  },
};

// Mirrors the Gateway CRD's additionalPrinterColumns (sigs.k8s.io/gateway-api
// config/crd/standard/gateway.networking.k8s.io_gateways.yaml): Class, Address, Programmed, Age.
// Simplification: a cell whose jsonPath finds nothing prints empty.

import type { AnyObject } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';
import { conditionStatus } from '../crd.ts';
import type { Gateway } from '../types.ts';

/** gatewayPrinter is Gateway's table for `kubectl get`. */
export const gatewayPrinter: Printer = {
  columns: [NAME, col('Class'), col('Address'), col('Programmed'), AGE],
  row: (obj: AnyObject, now: number) => {
    const gw = obj as Gateway;
    return {
      cells: [
        gw.metadata.name,
        gw.spec?.gatewayClassName ?? '',
        (gw.status?.addresses ?? []).map((a) => a.value).join(' '),
        conditionStatus(gw.status?.conditions, 'Programmed'),
        translateTimestampSince(gw.metadata.creationTimestamp, now),
      ],
      object: gw,
    };
  },
};

// Mirrors the HTTPRoute CRD's additionalPrinterColumns (sigs.k8s.io/gateway-api
// config/crd/standard/gateway.networking.k8s.io_httproutes.yaml): Hostnames (the jsonPath's
// list, printed as JSON) and Age.

import type { AnyObject } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';
import type { HTTPRoute } from '../types.ts';

/** httpRoutePrinter is HTTPRoute's table for `kubectl get`. */
export const httpRoutePrinter: Printer = {
  columns: [NAME, col('Hostnames'), AGE],
  row: (obj: AnyObject, now: number) => {
    const r = obj as HTTPRoute;
    return {
      cells: [
        r.metadata.name,
        r.spec?.hostnames ? JSON.stringify(r.spec.hostnames) : '',
        translateTimestampSince(r.metadata.creationTimestamp, now),
      ],
      object: r,
    };
  },
};

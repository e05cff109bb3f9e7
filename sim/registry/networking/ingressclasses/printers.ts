// Mirrors printIngressClass and its column definitions (pkg/printers/internalversion/printers.go)
// and describeIngressClassV1 (staging/src/k8s.io/kubectl/pkg/describe/describe.go).

import type { AnyObject } from '../../../api/types.ts';
import {
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Describer, Printer } from '../../rules.ts';
import type { IngressClass } from './types.ts';

/** printIngressClass mirrors printIngressClass: PARAMETERS is Kind[.group]/name or <none>. */
export function printIngressClass(c: IngressClass, now: number): TableRow {
  const p = c.spec?.parameters;
  const parameters = p
    ? `${p.kind}${p.apiGroup !== undefined ? `.${p.apiGroup}` : ''}/${p.name}`
    : '<none>';
  return {
    cells: [
      c.metadata.name,
      c.spec?.controller ?? '',
      parameters,
      translateTimestampSince(c.metadata.creationTimestamp, now),
    ],
    object: c,
  };
}

/** ingressClassPrinter is IngressClass's table for `kubectl get`. */
export const ingressClassPrinter: Printer = {
  columns: [NAME, col('Controller'), col('Parameters'), AGE],
  row: (obj: AnyObject, now: number) => printIngressClass(obj as IngressClass, now),
};

/** describeIngressClassObject mirrors describeIngressClassV1. */
export const describeIngressClassObject: Describer = (ctx, obj) => {
  const c = obj as IngressClass;
  return tabbedString((w) => {
    w.write(0, `Name:\t${c.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', c.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', c.metadata.annotations);
    w.write(0, `Controller:\t${c.spec?.controller ?? ''}\n`);
    const p = c.spec?.parameters;
    if (p) {
      w.write(0, 'Parameters:\n');
      if (p.apiGroup !== undefined) w.write(1, `APIGroup:\t${p.apiGroup}\n`);
      w.write(1, `Kind:\t${p.kind}\n`);
      w.write(1, `Name:\t${p.name}\n`);
    }
    describeEvents(w, ctx.events(true), ctx.now);
  });
};

// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for Namespace: describeNamespace, and the
// objects its describer fetches (see ../../../kubectl/describe.ts for the shared sections).

import type { Namespace } from '../../../api/types.ts';
import {
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import type { Describer } from '../../rules.ts';

/** describeNamespaceObject is the Namespace describer: it fetches what kubectl fetches and prints. */
export const describeNamespaceObject: Describer = (_ctx, obj) => {
  return describeNamespace(obj as Namespace);
};

/**
 * describeNamespace mirrors describe.describeNamespace. Simplification: ResourceQuotas and
 * LimitRanges are not modelled, so both sections print their "none" lines.
 */
export function describeNamespace(ns: Namespace): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${ns.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ns.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ns.metadata.annotations);
    w.write(0, `Status:\t${ns.status?.phase ?? ''}\n`);
    w.write(0, '\n');
    w.write(0, 'No resource quota.\n');
    w.write(0, '\n');
    w.write(0, 'No LimitRange resource.\n');
  });
}

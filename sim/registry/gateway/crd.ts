// Mirrors what the Gateway API kinds share as CustomResourceDefinitions (sigs.k8s.io/gateway-api
// config/crd/standard): the status a CRD's structural schema defaults ("Waiting for
// controller"), the jsonPath cells of additionalPrinterColumns, and kubectl's generic describer
// for custom resources (staging/src/k8s.io/kubectl/pkg/describe/describe.go genericDescriber,
// printUnstructuredContent, smartLabelFor).

import type { AnyObject, MetaCondition } from '../../api/types.ts';
import {
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
  type PrefixWriter,
} from '../../kubectl/describe.ts';
import type { Describer } from '../rules.ts';

/** pendingCondition is a condition the CRD defaults before any controller has written status. */
export function pendingCondition(type: string): MetaCondition {
  return {
    type,
    status: 'Unknown',
    lastTransitionTime: '1970-01-01T00:00:00Z',
    reason: 'Pending',
    message: 'Waiting for controller',
  };
}

/** conditionStatus is the cell of `.status.conditions[?(@.type=="T")].status`. */
export function conditionStatus(conditions: MetaCondition[] | undefined, type: string): string {
  return conditions?.find((c) => c.type === type)?.status ?? '';
}

const commonAcronyms = ['API', 'URL', 'UID', 'OSB', 'GUID'];

/** smartLabelFor mirrors smartLabelFor: "parentRefs" becomes "Parent Refs". */
export function smartLabelFor(field: string): string {
  if (/[^\p{L}-]/u.test(field)) return field;
  // camelcase.Split: runs of lower case, upper case (an acronym before a word loses its last
  // letter to the word) and other characters.
  const parts = field.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[^A-Za-z]+/g) ?? [field];
  return parts
    .filter((p) => p !== '_')
    .map((p) =>
      commonAcronyms.includes(p.toUpperCase()) ? p.toUpperCase() : p[0]!.toUpperCase() + p.slice(1),
    )
    .join(' ');
}

/** printUnstructuredContent mirrors printUnstructuredContent: fields sorted, maps and lists nested. */
export function printUnstructuredContent(
  w: PrefixWriter,
  level: number,
  content: Record<string, unknown>,
  skipPrefix: string,
  skip: string[],
): void {
  for (const field of Object.keys(content).sort()) {
    const value = content[field];
    const expr = `${skipPrefix}.${field}`;
    if (skip.includes(expr)) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      printUnstructuredContent(w, level + 1, value as Record<string, unknown>, expr, skip);
    } else if (Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      for (const child of value)
        if (child !== null && typeof child === 'object' && !Array.isArray(child))
          printUnstructuredContent(w, level + 1, child as Record<string, unknown>, expr, skip);
        else w.write(level + 1, `${String(child)}\n`);
    } else w.write(level, `${smartLabelFor(field)}:\t${String(value)}\n`);
  }
}

/** describeCustomResource mirrors genericDescriber.Describe. */
export const describeCustomResource: Describer = (ctx, obj: AnyObject) =>
  tabbedString((w) => {
    w.write(0, `Name:\t${obj.metadata.name}\n`);
    w.write(0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', obj.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
    printUnstructuredContent(w, 0, obj as unknown as Record<string, unknown>, '', [
      '.metadata.managedFields',
      '.metadata.name',
      '.metadata.namespace',
      '.metadata.labels',
      '.metadata.annotations',
    ]);
    describeEvents(w, ctx.events(true), ctx.now);
  });

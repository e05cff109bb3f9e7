// Mirrors printConfigMap (pkg/printers/internalversion/printers.go: NAME DATA AGE) and
// describeConfigMap (staging/src/k8s.io/kubectl/pkg/describe/describe.go) for ConfigMap.
// Simplification: describe prints keys sorted (upstream ranges over the Go map, in random order).

import type { AnyObject, ConfigMap, Event } from '../../../api/types.ts';
import {
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { col } from '../../../kubectl/table.ts';
import type { Describer, Printer } from '../../rules.ts';

/** configMapColumns are the table's columns. */
export const configMapColumns = ['Name', 'Data', 'Age'];

/** printConfigMap mirrors printConfigMap: name, the number of keys, age. */
export function printConfigMap(cm: ConfigMap, now: number): (string | number)[] {
  return [
    cm.metadata.name,
    Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
    translateTimestampSince(cm.metadata.creationTimestamp, now),
  ];
}

/** describeConfigMap mirrors describeConfigMap, with the events given. */
export function describeConfigMap(cm: ConfigMap, events: Event[] | undefined, now: number): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${cm.metadata.name}\n`);
    w.write(0, `Namespace:\t${cm.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', cm.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', cm.metadata.annotations);
    w.write(0, '\nData\n====\n');
    for (const k of Object.keys(cm.data ?? {}).sort()) {
      w.write(0, `${k}:\n----\n`);
      w.write(0, `${cm.data![k]}\n`);
      w.write(0, '\n');
    }
    w.write(0, '\nBinaryData\n====\n');
    for (const k of Object.keys(cm.binaryData ?? {}).sort())
      w.write(0, `${k}: ${Math.floor((cm.binaryData![k].length * 3) / 4)} bytes\n`);
    w.write(0, '\n');
    if (events) describeEvents(w, events, now);
  });
}

/** configMapPrinter is ConfigMap's table for `kubectl get`. */
export const configMapPrinter: Printer = {
  columns: configMapColumns.map((name, i) => col(name, 0, i === 0 ? 'name' : undefined)),
  row: (obj: AnyObject, now: number) => ({
    cells: printConfigMap(obj as ConfigMap, now),
    object: obj,
  }),
};

/** describeConfigMapObject is the ConfigMap describer. */
export const describeConfigMapObject: Describer = (ctx, obj) => {
  return describeConfigMap(obj as ConfigMap, ctx.events(true), ctx.now);
};

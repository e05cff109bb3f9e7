// Mirrors printServiceAccount (pkg/printers/internalversion/printers.go: NAME SECRETS AGE) and
// describeServiceAccount (staging/src/k8s.io/kubectl/pkg/describe/describe.go) for ServiceAccount
// (core/v1, short name `sa`). The strategy has nothing to default, and its
// validation is the object name's (ValidateServiceAccountName: a DNS-1123 subdomain), which
// kube-apiserver checks for every kind. Its `default` ServiceAccount per namespace comes from
// controllers/serviceaccount, and the ServiceAccount admission plugin reads it.
// Simplification: no Secrets are served, so Tokens is always <none> and no secret is "(not found)".

import type { AnyObject, Event, ServiceAccount } from '../../../api/types.ts';
import {
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { col } from '../../../kubectl/table.ts';
import type { Describer, Printer } from '../../rules.ts';

/** serviceAccountColumns are the table's columns (metav1.TableColumnDefinition names). */
export const serviceAccountColumns = ['Name', 'Secrets', 'Age'];

/** printServiceAccount mirrors printServiceAccount: name, how many secrets it lists, age. */
export function printServiceAccount(sa: ServiceAccount, now: number): (string | number)[] {
  return [
    sa.metadata.name,
    (sa.secrets ?? []).length,
    translateTimestampSince(sa.metadata.creationTimestamp, now),
  ];
}

/** describeServiceAccount mirrors describeServiceAccount, with the events given. */
export function describeServiceAccount(
  sa: ServiceAccount,
  events: Event[] | undefined,
  now: number,
): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${sa.metadata.name}\n`);
    w.write(0, `Namespace:\t${sa.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', sa.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', sa.metadata.annotations);
    const emptyHeader = '                   ';
    // The three headers, in the sorted order of their text (sets.StringKeySet(types).List()).
    const sections: [string, string[]][] = [
      ['Image pull secrets:', (sa.imagePullSecrets ?? []).map((s) => s.name ?? '')],
      ['Mountable secrets: ', (sa.secrets ?? []).map((s) => s.name ?? '')],
      ['Tokens:            ', []],
    ];
    for (const [header, names] of sections) {
      if (names.length === 0) {
        w.write(0, `${header}\t<none>\n`);
        continue;
      }
      names.forEach((name, i) => w.write(0, `${i === 0 ? header : emptyHeader}\t${name}\n`));
    }
    if (events) describeEvents(w, events, now);
  });
}

/** serviceAccountPrinter is ServiceAccount's table for `kubectl get`. */
export const serviceAccountPrinter: Printer = {
  columns: serviceAccountColumns.map((name, i) => col(name, 0, i === 0 ? 'name' : undefined)),
  row: (obj: AnyObject, now: number) => ({
    cells: printServiceAccount(obj as ServiceAccount, now),
    object: obj,
  }),
};

/** describeServiceAccountObject is the ServiceAccount describer. */
export const describeServiceAccountObject: Describer = (ctx, obj) => {
  return describeServiceAccount(obj as ServiceAccount, ctx.events(true), ctx.now);
};

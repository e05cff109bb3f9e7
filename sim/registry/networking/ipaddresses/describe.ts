// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for IPAddress:
// IPAddressDescriber.describeIPAddressV1.

import type { AnyObject, IPAddress } from '../../../api/types.ts';
import {
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import type { DescribeContext, Describer } from '../../rules.ts';

/** describeIPAddressObject is the IPAddress describer: its labels and its parent reference. */
export const describeIPAddressObject: Describer = (ctx: DescribeContext, obj: AnyObject) => {
  const ip = obj as IPAddress;
  const events = ctx.events(true);
  return tabbedString((w) => {
    w.write(0, `Name:\t${ip.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ip.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ip.metadata.annotations);
    const ref = ip.spec?.parentRef;
    if (ref) {
      w.write(0, 'Parent Reference:\n');
      w.write(1, `Group:\t${ref.group ?? ''}\n`);
      w.write(1, `Resource:\t${ref.resource}\n`);
      w.write(1, `Namespace:\t${ref.namespace ?? ''}\n`);
      w.write(1, `Name:\t${ref.name}\n`);
    }
    describeEvents(w, events, ctx.now);
  });
};

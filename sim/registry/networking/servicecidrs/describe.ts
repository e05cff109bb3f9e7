// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for ServiceCIDR:
// ServiceCIDRDescriber.describeServiceCIDRV1.

import type { AnyObject, ServiceCIDR } from '../../../api/types.ts';
import {
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import { formatRFC1123Z } from '../../../kubectl/duration.ts';
import type { DescribeContext, Describer } from '../../rules.ts';

/** describeServiceCIDRObject is the ServiceCIDR describer: the CIDRs and the conditions. */
export const describeServiceCIDRObject: Describer = (ctx: DescribeContext, obj: AnyObject) => {
  const c = obj as ServiceCIDR;
  const events = ctx.events(true);
  return tabbedString((w) => {
    w.write(0, `Name:\t${c.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', c.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', c.metadata.annotations);
    w.write(0, `CIDRs:\t${(c.spec?.cidrs ?? []).join(', ')}\n`);
    const conditions = c.status?.conditions ?? [];
    if (conditions.length) {
      w.write(0, 'Status:\n');
      w.write(0, 'Conditions:\n');
      w.write(1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
      w.write(1, '----\t------\t------------------\t------\t-------\n');
      for (const k of conditions)
        w.write(
          1,
          `${k.type}\t${k.status}\t${formatRFC1123Z(k.lastTransitionTime)}\t${k.reason}\t${k.message}\n`,
        );
    }
    describeEvents(w, events, ctx.now);
  });
};

// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for DaemonSet: describeDaemonSet, and the
// objects its describer fetches (see ../../../kubectl/describe.ts for the shared sections).

import type { DaemonSet, Event } from '../../../api/types.ts';
import { formatLabels, selectorString } from '../../../kubectl/table.ts';
import {
  describeEvents,
  describePodTemplate,
  type PodStatusCounts,
  podStatusCountsFor,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import type { Describer } from '../../rules.ts';

/** describeDaemonSetObject is the DaemonSet describer: it fetches what kubectl fetches and prints. */
export const describeDaemonSetObject: Describer = (ctx, obj) => {
  const ds = obj as DaemonSet;
  return describeDaemonSet(ds, podStatusCountsFor(ctx, ds), ctx.events(true), ctx.now);
};

/** describeDaemonSet mirrors describe.describeDaemonSet. */
export function describeDaemonSet(
  ds: DaemonSet,
  counts: PodStatusCounts,
  events: Event[],
  now: number,
): string {
  return tabbedString((w) => {
    const s = ds.status ?? ({} as DaemonSet['status']);
    w.write(0, `Name:\t${ds.metadata.name}\n`);
    w.write(0, `Namespace:\t${ds.metadata.namespace ?? ''}\n`);
    w.write(0, `Selector:\t${selectorString(ds.spec.selector)}\n`);
    w.write(0, `Node-Selector:\t${formatLabels(ds.spec.template?.spec?.nodeSelector)}\n`);
    printLabelsMultiline(w, 'Labels', ds.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ds.metadata.annotations);
    w.write(0, `Desired Number of Nodes Scheduled: ${s.desiredNumberScheduled ?? 0}\n`);
    w.write(0, `Current Number of Nodes Scheduled: ${s.currentNumberScheduled ?? 0}\n`);
    w.write(
      0,
      `Number of Nodes Scheduled with Up-to-date Pods: ${s.updatedNumberScheduled ?? 0}\n`,
    );
    w.write(0, `Number of Nodes Scheduled with Available Pods: ${s.numberAvailable ?? 0}\n`);
    w.write(0, `Number of Nodes Misscheduled: ${s.numberMisscheduled ?? 0}\n`);
    w.write(
      0,
      `Pods Status:\t${counts.running} Running / ${counts.waiting} Waiting / ${counts.succeeded} Succeeded / ${counts.failed} Failed\n`,
    );
    describePodTemplate(w, ds.spec.template);
    describeEvents(w, events, now);
  });
}

// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for ReplicaSet: describeReplicaSet, and the
// objects its describer fetches (see ../../../kubectl/describe.ts for the shared sections).

import type { Event, ReplicaSet } from '../../../api/types.ts';
import { formatLabelSelector } from '../../../kubectl/table.ts';
import {
  controllerOf,
  describeEvents,
  describePodTemplate,
  type PodStatusCounts,
  podStatusCountsFor,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import type { Describer } from '../../rules.ts';

/** describeReplicaSetObject is the ReplicaSet describer: it fetches what kubectl fetches and prints. */
export const describeReplicaSetObject: Describer = (ctx, obj) => {
  const rs = obj as ReplicaSet;
  return describeReplicaSet(rs, podStatusCountsFor(ctx, rs), ctx.events(true), ctx.now);
};

/** describeReplicaSet mirrors describe.describeReplicaSet. */
export function describeReplicaSet(
  rs: ReplicaSet,
  counts: PodStatusCounts,
  events: Event[],
  now: number,
): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${rs.metadata.name}\n`);
    w.write(0, `Namespace:\t${rs.metadata.namespace ?? ''}\n`);
    w.write(0, `Selector:\t${formatLabelSelector(rs.spec.selector)}\n`);
    printLabelsMultiline(w, 'Labels', rs.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', rs.metadata.annotations);
    const controlledBy = controllerOf(rs.metadata);
    if (controlledBy) w.write(0, `Controlled By:\t${controlledBy}\n`);
    w.write(
      0,
      `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec.replicas ?? 0} desired\n`,
    );
    w.write(0, 'Pods Status:\t');
    w.write(
      0,
      `${counts.running} Running / ${counts.waiting} Waiting / ${counts.succeeded} Succeeded / ${counts.failed} Failed\n`,
    );
    describePodTemplate(w, rs.spec.template);
    const conds = rs.status?.conditions ?? [];
    if (conds.length > 0) {
      w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
      w.write(1, '----\t------\t------\n');
      for (const c of conds) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
    }
    describeEvents(w, events, now);
  });
}

// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for Deployment: describeDeployment, and the
// objects its describer fetches (see ../../../kubectl/describe.ts for the shared sections).

import type { Deployment, Event, ReplicaSet } from '../../../api/types.ts';
import { replicaSetsOf } from '../../../kubectl/deployment-util.ts';
import { formatRFC1123Z } from '../../../kubectl/duration.ts';
import { selectorString } from '../../../kubectl/table.ts';
import {
  describeEvents,
  describePodTemplate,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import type { Describer } from '../../rules.ts';

/** describeDeploymentObject is the Deployment describer: it fetches what kubectl fetches and prints. */
export const describeDeploymentObject: Describer = (ctx, obj) => {
  const d = obj as Deployment;
  const { oldRSs, newRS } = replicaSetsOf(ctx, d);
  return describeDeployment(d, oldRSs, newRS, ctx.events(true), ctx.now);
};

function intOrString(v: number | string | undefined): string {
  return v === undefined ? '<nil>' : String(v);
}

function printReplicaSetsByLabels(rss: ReplicaSet[]): string {
  const list = rss
    .map(
      (rs) =>
        `${rs.metadata.name} (${rs.status?.replicas ?? 0}/${rs.spec.replicas ?? 0} replicas created)`,
    )
    .join(', ');
  return list === '' ? '<none>' : list;
}

/**
 * describeDeployment mirrors describe.describeDeployment. oldRSs are the Deployment's old
 * ReplicaSets that still have replicas (the first result of kubectl's
 * deploymentutil.GetAllReplicaSets), newRS the one matching its template.
 */
export function describeDeployment(
  d: Deployment,
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  events: Event[],
  now: number,
): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${d.metadata.name}\n`);
    w.write(0, `Namespace:\t${d.metadata.namespace ?? ''}\n`);
    w.write(0, `CreationTimestamp:\t${formatRFC1123Z(d.metadata.creationTimestamp)}\n`);
    printLabelsMultiline(w, 'Labels', d.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', d.metadata.annotations);
    w.write(0, `Selector:\t${selectorString(d.spec.selector)}\n`);
    const s = d.status ?? {};
    w.write(
      0,
      `Replicas:\t${d.spec.replicas ?? 0} desired | ${s.updatedReplicas ?? 0} updated | ${s.replicas ?? 0} total | ${s.availableReplicas ?? 0} available | ${s.unavailableReplicas ?? 0} unavailable\n`,
    );
    w.write(0, `StrategyType:\t${d.spec.strategy?.type ?? ''}\n`);
    w.write(0, `MinReadySeconds:\t${d.spec.minReadySeconds ?? 0}\n`);
    const ru = d.spec.strategy?.rollingUpdate;
    if (ru)
      w.write(
        0,
        `RollingUpdateStrategy:\t${intOrString(ru.maxUnavailable)} max unavailable, ${intOrString(ru.maxSurge)} max surge\n`,
      );
    describePodTemplate(w, d.spec.template);
    const conds = s.conditions ?? [];
    if (conds.length > 0) {
      w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
      w.write(1, '----\t------\t------\n');
      for (const c of conds) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
    }
    w.write(0, `OldReplicaSets:\t${printReplicaSetsByLabels(oldRSs)}\n`);
    w.write(0, `NewReplicaSet:\t${printReplicaSetsByLabels(newRS ? [newRS] : [])}\n`);
    describeEvents(w, events, now);
  });
}

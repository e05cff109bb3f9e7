// Mirrors pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and
// pkg/scheduler/framework/preemption/preemption.go#Preempt (see "Simplification:" notes).

import {
  Code,
  NodeToStatus,
  Status,
  fitErrorMessage,
  newDiagnosis,
  type NodeInfo,
  type PodInfo,
} from '../framework.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'DefaultPreemption';

/** Messages of the preemption dry run. */
export const ErrNoVictims = 'No preemption victims found for incoming pod';
export const ErrNotHelpful = 'Preemption is not helpful for scheduling';
export const ErrPreemptionPolicyNever = 'not eligible due to preemptionPolicy=Never.';

/**
 * postFilter mirrors DefaultPreemption.PostFilter and Evaluator.Preempt for the case where no
 * candidate is found, returning the Unschedulable status whose message becomes the FitError's
 * PostFilterMsg ("preemption: 0/N nodes are available: ...").
 *
 * Simplification: preemption is not modelled. The dry run treats every node as if it held no pod
 * of lower priority than the incoming pod, so each node that failed Filter with Unschedulable
 * reports "No preemption victims found for incoming pod" and every other node "Preemption is not
 * helpful for scheduling". This is exactly upstream's answer when all pods share one priority
 * (the default, 0); with lower-priority pods upstream would evict them instead.
 */
export function postFilter(pod: PodInfo, allNodes: readonly NodeInfo[], m: NodeToStatus): Status {
  // PodEligibleToPreemptOthers.
  if (pod.pod.spec.preemptionPolicy === 'Never') {
    return new Status(Code.Unschedulable, [`preemption: ${ErrPreemptionPolicyNever}`], Name);
  }
  // findCandidates: the nodes whose filter status is Unschedulable (not ...AndUnresolvable).
  const nodeStatuses = new NodeToStatus();
  nodeStatuses.absentNodesStatus = new Status(Code.UnschedulableAndUnresolvable, [ErrNotHelpful]);
  const noVictims = new Status(Code.UnschedulableAndUnresolvable, [ErrNoVictims]);
  for (let i = 0; i < m.len; i++) {
    if (m.statuses[i].code === Code.Unschedulable) nodeStatuses.set(m.nodes[i], noVictims);
  }
  if (m.len < allNodes.length && m.absentNodesStatus.code === Code.Unschedulable) {
    const listed = new Set(m.nodes);
    for (const n of allNodes) if (!listed.has(n)) nodeStatuses.set(n, noVictims);
  }
  const d = newDiagnosis();
  d.nodeToStatus = nodeStatuses;
  return new Status(
    Code.Unschedulable,
    [`preemption: ${fitErrorMessage(allNodes.length, d)}`],
    Name,
  );
}

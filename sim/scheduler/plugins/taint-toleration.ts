// Mirrors pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go.

import type { Taint, Toleration } from '../../api/types.ts';
import {
  Code,
  CycleState,
  MaxNodeScore,
  Status,
  stateKey,
  type FilterPlugin,
  type NodeInfo,
  type PodInfo,
  type PreScorePlugin,
  type ScorePlugin,
} from '../framework.ts';
import {
  defaultNormalizeScore,
  doNotScheduleTaintsFilterFunc,
  findMatchingUntoleratedTaint,
  tolerationsTolerateTaint,
} from './helper.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'TaintToleration';

const preScoreStateKey = stateKey('PreScore' + Name);

/**
 * errReason is the Filter reason, naming the first untolerated NoSchedule/NoExecute taint as
 * "{key: value}" (a taint without a value prints as "{key: }"), as v1.34.1 and earlier print it.
 * kubernetes/kubernetes#134740 (v1.35, cherry-picked to v1.34.2) replaced it with the generic
 * "node(s) had untolerated taint(s)" so that taint values stay out of pod statuses.
 */
export function errReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

/** filter rejects a node with a NoSchedule or NoExecute taint the pod does not tolerate. */
export function filter(pod: PodInfo, nodeInfo: NodeInfo): Status | null {
  if (nodeInfo.taints.length === 0) return null;
  const taint = findMatchingUntoleratedTaint(
    nodeInfo.taints,
    pod.pod.spec.tolerations,
    doNotScheduleTaintsFilterFunc,
  );
  if (!taint) return null;
  return new Status(Code.UnschedulableAndUnresolvable, [errReason(taint)], Name);
}

/** getAllTolerationPreferNoSchedule keeps tolerations with effect PreferNoSchedule or empty. */
export function getAllTolerationPreferNoSchedule(
  tolerations: readonly Toleration[] | undefined,
): Toleration[] {
  const out: Toleration[] = [];
  for (const t of tolerations ?? []) if (!t.effect || t.effect === 'PreferNoSchedule') out.push(t);
  return out;
}

/** countIntolerableTaintsPreferNoSchedule counts PreferNoSchedule taints not tolerated. */
export function countIntolerableTaintsPreferNoSchedule(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): number {
  let n = 0;
  for (const taint of taints) {
    if (taint.effect !== 'PreferNoSchedule') continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) n++;
  }
  return n;
}

/** TaintToleration is the plugin instance. */
export const TaintToleration: FilterPlugin & PreScorePlugin & ScorePlugin = {
  name: Name,
  filter: (_state, pod, nodeInfo) => filter(pod, nodeInfo),
  filterNodes(_state, pod, nodes, n, statuses) {
    for (let i = 0; i < n; i++)
      if (statuses[i] === null && nodes[i].taintCount > 0) statuses[i] = filter(pod, nodes[i]);
  },
  preScore(state: CycleState, pod: PodInfo) {
    state.write(preScoreStateKey, getAllTolerationPreferNoSchedule(pod.pod.spec.tolerations));
    return null;
  },
  score(state, _pod, nodeInfo) {
    if (nodeInfo.taints.length === 0) return 0;
    return countIntolerableTaintsPreferNoSchedule(
      nodeInfo.taints,
      state.read<Toleration[]>(preScoreStateKey) ?? [],
    );
  },
  scoreNodes(state, _pod, nodes, out) {
    const tolerations = state.read<Toleration[]>(preScoreStateKey) ?? [];
    for (let i = 0; i < nodes.length; i++) {
      const taints = nodes[i].taints;
      out[i] =
        taints.length === 0 ? 0 : countIntolerableTaintsPreferNoSchedule(taints, tolerations);
    }
  },
  normalizeScore(_state, _pod, scores) {
    defaultNormalizeScore(MaxNodeScore, true, scores);
  },
};

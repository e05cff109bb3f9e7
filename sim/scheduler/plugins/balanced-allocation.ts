// Mirrors pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go and the
// useRequested path of resource_allocation.go.

import {
  CycleState,
  MaxNodeScore,
  SkipStatus,
  stateKey,
  type NodeInfo,
  type PodInfo,
  type PreScorePlugin,
  type ScorePlugin,
} from '../framework.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'NodeResourcesBalancedAllocation';

const preScoreStateKey = stateKey('PreScore' + Name);

/**
 * balancedResourceScorer mirrors balancedResourceScorer: with fraction_i = min(requested_i /
 * allocatable_i, 1) over the resources the node has, the score is (1 - std) * 100, truncated.
 * For two resources std is |f1 - f2| / 2; for more, the population standard deviation.
 */
export function balancedResourceScorer(
  requested: readonly number[],
  allocatable: readonly number[],
): number {
  const fractions: number[] = [];
  let total = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    let f = requested[i] / allocatable[i];
    if (f > 1) f = 1;
    total += f;
    fractions.push(f);
  }
  let std = 0;
  if (fractions.length === 2) {
    std = Math.abs((fractions[0] - fractions[1]) / 2);
  } else if (fractions.length > 2) {
    const mean = total / fractions.length;
    let sum = 0;
    for (const f of fractions) sum += (f - mean) * (f - mean);
    std = Math.sqrt(sum / fractions.length);
  }
  return Math.trunc((1 - std) * MaxNodeScore);
}

/**
 * balancedScore scores a node for cpu and memory (the default resources), using the node's
 * actual requested sums plus the pod's actual requests (useRequested: no non-zero defaults).
 */
export function balancedScore(podMilliCPU: number, podMemory: number, nodeInfo: NodeInfo): number {
  const aCPU = nodeInfo.allocMilliCPU;
  const aMem = nodeInfo.allocMemory;
  // Same arithmetic as balancedResourceScorer for two resources, without allocating.
  let f1 = -1;
  let f2 = -1;
  if (aCPU !== 0) f1 = Math.min((nodeInfo.reqMilliCPU + podMilliCPU) / aCPU, 1);
  if (aMem !== 0) f2 = Math.min((nodeInfo.reqMemory + podMemory) / aMem, 1);
  const std = f1 >= 0 && f2 >= 0 ? Math.abs((f1 - f2) / 2) : 0;
  return Math.trunc((1 - std) * MaxNodeScore);
}

interface BalancedPreScoreState {
  milliCPU: number;
  memory: number;
}

/** NodeResourcesBalancedAllocation is the plugin instance. */
export const NodeResourcesBalancedAllocation: PreScorePlugin & ScorePlugin = {
  name: Name,
  preScore(state: CycleState, pod: PodInfo) {
    const s: BalancedPreScoreState = {
      milliCPU: pod.requests.milliCPU,
      memory: pod.requests.memory,
    };
    // Skip BalancedAllocation for best-effort pods (every request zero), so that a flood of them
    // is not packed onto one node (kubernetes/kubernetes#129138).
    if (s.milliCPU === 0 && s.memory === 0) return SkipStatus;
    state.write(preScoreStateKey, s);
    return null;
  },
  score(state, pod, nodeInfo) {
    const s = state.read<BalancedPreScoreState>(preScoreStateKey) ?? {
      milliCPU: pod.requests.milliCPU,
      memory: pod.requests.memory,
    };
    return balancedScore(s.milliCPU, s.memory, nodeInfo);
  },
  scoreNodes(state, pod, nodes, out) {
    const s = state.read<BalancedPreScoreState>(preScoreStateKey) ?? {
      milliCPU: pod.requests.milliCPU,
      memory: pod.requests.memory,
    };
    for (let i = 0; i < nodes.length; i++) out[i] = balancedScore(s.milliCPU, s.memory, nodes[i]);
  },
};

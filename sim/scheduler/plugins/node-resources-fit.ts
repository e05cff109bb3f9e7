// Mirrors pkg/scheduler/framework/plugins/noderesources/fit.go, least_allocated.go and
// resource_allocation.go (the LeastAllocated scoring strategy, the default).

import {
  Code,
  CycleState,
  MaxNodeScore,
  PreFilterSuccess,
  Status,
  stateKey,
  type FilterPlugin,
  type NodeInfo,
  type PodInfo,
  type PodRequests,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
} from '../framework.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'NodeResourcesFit';

const preFilterStateKey = stateKey('PreFilter' + Name);
const preScoreStateKey = stateKey('PreScore' + Name);

/** InsufficientResource describes what resource limit is hit (fit.go InsufficientResource). */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
}

/**
 * fitsRequest mirrors fitsRequest: the pod count, then cpu, memory, ephemeral storage and
 * extended resources, each compared with allocatable minus what the node's pods already
 * request. Only resources the pod requests (> 0) are checked. Actual requests are used here,
 * not the non-zero defaults.
 */
export function fitsRequest(podRequest: PodRequests, nodeInfo: NodeInfo): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const alloc = nodeInfo.allocatable;
  const req = nodeInfo.requested;
  if (nodeInfo.pods.length + 1 > alloc.allowedPodNumber) {
    out.push({
      resourceName: 'pods',
      reason: 'Too many pods',
      requested: 1,
      used: nodeInfo.pods.length,
      capacity: alloc.allowedPodNumber,
    });
  }
  if (
    podRequest.milliCPU === 0 &&
    podRequest.memory === 0 &&
    podRequest.ephemeralStorage === 0 &&
    !podRequest.scalarResources
  )
    return out;
  if (podRequest.milliCPU > 0 && podRequest.milliCPU > alloc.milliCPU - req.milliCPU) {
    out.push({
      resourceName: 'cpu',
      reason: 'Insufficient cpu',
      requested: podRequest.milliCPU,
      used: req.milliCPU,
      capacity: alloc.milliCPU,
    });
  }
  if (podRequest.memory > 0 && podRequest.memory > alloc.memory - req.memory) {
    out.push({
      resourceName: 'memory',
      reason: 'Insufficient memory',
      requested: podRequest.memory,
      used: req.memory,
      capacity: alloc.memory,
    });
  }
  if (
    podRequest.ephemeralStorage > 0 &&
    podRequest.ephemeralStorage > alloc.ephemeralStorage - req.ephemeralStorage
  ) {
    out.push({
      resourceName: 'ephemeral-storage',
      reason: 'Insufficient ephemeral-storage',
      requested: podRequest.ephemeralStorage,
      used: req.ephemeralStorage,
      capacity: alloc.ephemeralStorage,
    });
  }
  if (podRequest.scalarResources) {
    for (const [name, q] of podRequest.scalarResources) {
      if (q === 0) continue;
      const a = alloc.scalarResources?.get(name) ?? 0;
      const u = req.scalarResources?.get(name) ?? 0;
      if (q > a - u)
        out.push({
          resourceName: name,
          reason: `Insufficient ${name}`,
          requested: q,
          used: u,
          capacity: a,
        });
    }
  }
  return out;
}

// Statuses for the common combinations, so the filter allocates nothing on the hot path.
const commonStatuses = new Map<number, Status>();

/** filter mirrors Fit.Filter: Unschedulable with every insufficient resource as a reason. */
export function filter(podRequest: PodRequests, nodeInfo: NodeInfo): Status | null {
  // Fast path: the same comparisons as fitsRequest, on NodeInfo's flat copies of the sums,
  // without building the list.
  let bits = 0;
  if (nodeInfo.podCount + 1 > nodeInfo.allowedPodNumber) bits |= 1;
  if (
    podRequest.milliCPU > 0 &&
    podRequest.milliCPU > nodeInfo.allocMilliCPU - nodeInfo.reqMilliCPU
  )
    bits |= 2;
  if (podRequest.memory > 0 && podRequest.memory > nodeInfo.allocMemory - nodeInfo.reqMemory)
    bits |= 4;
  if (
    podRequest.ephemeralStorage > 0 &&
    podRequest.ephemeralStorage > nodeInfo.allocEphemeralStorage - nodeInfo.reqEphemeralStorage
  )
    bits |= 8;
  if (podRequest.scalarResources) {
    const list = fitsRequest(podRequest, nodeInfo);
    if (list.length === 0) return null;
    return new Status(
      Code.Unschedulable,
      list.map((r) => r.reason),
      Name,
    );
  }
  if (bits === 0) return null;
  let s = commonStatuses.get(bits);
  if (!s) {
    s = new Status(
      Code.Unschedulable,
      fitsRequest(podRequest, nodeInfo).map((r) => r.reason),
      Name,
    );
    commonStatuses.set(bits, s);
  }
  return s;
}

/** leastRequestedScore mirrors leastRequestedScore: (capacity - requested) * 100 / capacity. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  if (requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MaxNodeScore) / capacity);
}

/**
 * leastResourceScorer mirrors leastResourceScorer: the weighted integer mean of the per-resource
 * scores, skipping resources the node has none of.
 */
export function leastResourceScorer(
  requested: readonly number[],
  allocatable: readonly number[],
  weights: readonly number[],
): number {
  let nodeScore = 0;
  let weightSum = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    nodeScore += leastRequestedScore(requested[i], allocatable[i]) * weights[i];
    weightSum += weights[i];
  }
  if (weightSum === 0) return 0;
  return Math.trunc(nodeScore / weightSum);
}

/** PreScoreState holds the pod's cpu and memory requests with the non-zero defaults. */
interface FitPreScoreState {
  milliCPU: number;
  memory: number;
}

/**
 * leastAllocatedScore scores a node with the default ScoringStrategy: LeastAllocated over cpu
 * and memory, both weight 1, using the node's non-zero requested sums plus the pod's request.
 */
export function leastAllocatedScore(
  podMilliCPU: number,
  podMemory: number,
  nodeInfo: NodeInfo,
): number {
  const aCPU = nodeInfo.allocMilliCPU;
  const aMem = nodeInfo.allocMemory;
  let nodeScore = 0;
  let weightSum = 0;
  if (aCPU !== 0) {
    nodeScore += leastRequestedScore(nodeInfo.nonZeroMilliCPU + podMilliCPU, aCPU);
    weightSum += 1;
  }
  if (aMem !== 0) {
    nodeScore += leastRequestedScore(nodeInfo.nonZeroMemory + podMemory, aMem);
    weightSum += 1;
  }
  return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
}

/** NodeResourcesFit is the plugin instance. */
export const NodeResourcesFit: PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin = {
  name: Name,
  preFilter(state: CycleState, pod: PodInfo) {
    // computePodResourceRequest: the pod's effective requests (PodInfo has them precomputed).
    state.write(preFilterStateKey, pod.requests);
    return PreFilterSuccess;
  },
  filter(state, pod, nodeInfo) {
    return filter(state.read<PodRequests>(preFilterStateKey) ?? pod.requests, nodeInfo);
  },
  filterNodes(state, pod, nodes, n, statuses) {
    const r = state.read<PodRequests>(preFilterStateKey) ?? pod.requests;
    for (let i = 0; i < n; i++) if (statuses[i] === null) statuses[i] = filter(r, nodes[i]);
  },
  preScore(state, pod) {
    const s: FitPreScoreState = { milliCPU: pod.nonZeroMilliCPU, memory: pod.nonZeroMemory };
    state.write(preScoreStateKey, s);
    return null;
  },
  score(state, pod, nodeInfo) {
    const s = state.read<FitPreScoreState>(preScoreStateKey);
    return s
      ? leastAllocatedScore(s.milliCPU, s.memory, nodeInfo)
      : leastAllocatedScore(pod.nonZeroMilliCPU, pod.nonZeroMemory, nodeInfo);
  },
  scoreNodes(state, pod, nodes, out) {
    const s = state.read<FitPreScoreState>(preScoreStateKey) ?? {
      milliCPU: pod.nonZeroMilliCPU,
      memory: pod.nonZeroMemory,
    };
    for (let i = 0; i < nodes.length; i++)
      out[i] = leastAllocatedScore(s.milliCPU, s.memory, nodes[i]);
  },
};

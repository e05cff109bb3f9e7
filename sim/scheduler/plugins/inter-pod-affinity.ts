// Mirrors pkg/scheduler/framework/plugins/interpodaffinity/plugin.go, filtering.go and
// scoring.go (see "Simplification:" notes).

import {
  Code,
  CycleState,
  MaxNodeScore,
  PreFilterSkip,
  PreFilterSuccess,
  SkipStatus,
  Status,
  stateKey,
  type AffinityTerm,
  type FilterPlugin,
  type Handle,
  type NodeInfo,
  type PodInfo,
  type PodMatcher,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScoreList,
  type ScorePlugin,
  type WeightedAffinityTerm,
} from '../framework.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'InterPodAffinity';

/** Filter reasons (filtering.go). */
export const ErrReasonExistingAntiAffinityRulesNotMatch =
  "node(s) didn't satisfy existing pods anti-affinity rules";
export const ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
export const ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";

/** DefaultHardPodAffinityWeight is InterPodAffinityArgs.hardPodAffinityWeight's default. */
export const DefaultHardPodAffinityWeight = 1;

const preFilterStateKey = stateKey('PreFilter' + Name);
const preScoreStateKey = stateKey('PreScore' + Name);

/**
 * Simplification: the simulator's API has no namespaceSelector, matchLabelKeys or
 * mismatchLabelKeys on affinity terms; a term selects pods in its namespaces (or the pod's own
 * namespace) by label selector only.
 */

/** termMatches mirrors AffinityTerm.Matches: namespace and label selector. */
export function termMatches(t: AffinityTerm, pod: PodInfo): boolean {
  return t.namespaces.has(pod.namespace) && t.selector.matches(pod.labels);
}

/** podMatchesAllAffinityTerms is true when the pod matches every term (and there is one). */
export function podMatchesAllAffinityTerms(pod: PodInfo, terms: readonly AffinityTerm[]): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!termMatches(t, pod)) return false;
  return true;
}

/** TopologyToMatchedTermCount maps topologyKey -> topologyValue -> count (topologyToMatchedTermCount). */
export type TopologyToMatchedTermCount = Map<string, Map<string, number>>;

function addPair(m: TopologyToMatchedTermCount, key: string, value: string, n: number): void {
  let inner = m.get(key);
  if (!inner) {
    inner = new Map();
    m.set(key, inner);
  }
  const v = (inner.get(value) ?? 0) + n;
  if (v === 0) inner.delete(value);
  else inner.set(value, v);
  if (inner.size === 0) m.delete(key);
}

function getPair(m: TopologyToMatchedTermCount, key: string, value: string): number {
  return m.get(key)?.get(value) ?? 0;
}

function matcherForTerms(terms: readonly AffinityTerm[]): PodMatcher {
  // A pod matches all terms when its namespace is in every term's namespaces and every selector matches.
  let namespaces = new Set(terms[0].namespaces);
  for (const t of terms.slice(1))
    namespaces = new Set([...namespaces].filter((n) => t.namespaces.has(n)));
  return {
    key: `ipa|${terms.map((t) => t.key).join('&')}`,
    namespaces,
    selectors: terms.map((t) => t.selector),
    excludeTerminating: false,
  };
}

// ---- filtering.go ----

/** IpaPreFilterState mirrors preFilterState. */
export interface IpaPreFilterState {
  existingAntiAffinityCounts: TopologyToMatchedTermCount;
  affinityCounts: TopologyToMatchedTermCount;
  antiAffinityCounts: TopologyToMatchedTermCount;
  podInfo: PodInfo;
}

/**
 * getExistingAntiAffinityCounts: for each existing pod with required anti-affinity whose term
 * matches the incoming pod, count the topology pair of the existing pod's node.
 */
export function getExistingAntiAffinityCounts(
  pod: PodInfo,
  nodes: readonly NodeInfo[],
): TopologyToMatchedTermCount {
  const m: TopologyToMatchedTermCount = new Map();
  for (const nodeInfo of nodes) {
    for (const existing of nodeInfo.podsWithRequiredAntiAffinity) {
      for (const t of existing.requiredAntiAffinityTerms) {
        if (!termMatches(t, pod)) continue;
        const v = nodeInfo.labels[t.topologyKey];
        if (v !== undefined) addPair(m, t.topologyKey, v, 1);
      }
    }
  }
  return m;
}

/**
 * getIncomingAffinityAntiAffinityCounts: topology pairs of the existing pods matching all of the
 * incoming pod's required affinity terms, and of those matching each anti-affinity term.
 */
export function getIncomingAffinityAntiAffinityCounts(
  pod: PodInfo,
  h: Handle,
): [TopologyToMatchedTermCount, TopologyToMatchedTermCount] {
  const affinityCounts: TopologyToMatchedTermCount = new Map();
  const antiAffinityCounts: TopologyToMatchedTermCount = new Map();
  if (pod.requiredAffinityTerms.length > 0) {
    const index = h.podCounts(matcherForTerms(pod.requiredAffinityTerms));
    for (const [nodeInfo, count] of index.perNode) {
      if (count === 0 || !nodeInfo.hasNode) continue;
      for (const t of pod.requiredAffinityTerms) {
        const v = nodeInfo.labels[t.topologyKey];
        if (v !== undefined) addPair(affinityCounts, t.topologyKey, v, count);
      }
    }
  }
  for (const t of pod.requiredAntiAffinityTerms) {
    const index = h.podCounts(matcherForTerms([t]));
    for (const [nodeInfo, count] of index.perNode) {
      if (count === 0 || !nodeInfo.hasNode) continue;
      const v = nodeInfo.labels[t.topologyKey];
      if (v !== undefined) addPair(antiAffinityCounts, t.topologyKey, v, count);
    }
  }
  return [affinityCounts, antiAffinityCounts];
}

/** satisfyExistingPodsAntiAffinity: no existing pod's anti-affinity term covers the node's topology. */
export function satisfyExistingPodsAntiAffinity(s: IpaPreFilterState, nodeInfo: NodeInfo): boolean {
  if (s.existingAntiAffinityCounts.size === 0) return true;
  for (const [key, values] of s.existingAntiAffinityCounts) {
    const v = nodeInfo.labels[key];
    if (v !== undefined && (values.get(v) ?? 0) > 0) return false;
  }
  return true;
}

/** satisfyPodAntiAffinity: no pod matching an anti-affinity term is in the node's topology. */
export function satisfyPodAntiAffinity(s: IpaPreFilterState, nodeInfo: NodeInfo): boolean {
  for (const t of s.podInfo.requiredAntiAffinityTerms) {
    const v = nodeInfo.labels[t.topologyKey];
    if (v !== undefined && getPair(s.antiAffinityCounts, t.topologyKey, v) > 0) return false;
  }
  return true;
}

/**
 * satisfyPodAffinity: every affinity term's topology holds a matching pod. The first pod of a
 * group that matches its own terms is let through when no pod in the cluster matches yet.
 */
export function satisfyPodAffinity(s: IpaPreFilterState, nodeInfo: NodeInfo): boolean {
  let podsExist = true;
  for (const t of s.podInfo.requiredAffinityTerms) {
    const v = nodeInfo.labels[t.topologyKey];
    if (v === undefined) return false; // All topology labels must exist on the node.
    if (getPair(s.affinityCounts, t.topologyKey, v) <= 0) podsExist = false;
  }
  if (!podsExist) {
    return (
      s.affinityCounts.size === 0 &&
      podMatchesAllAffinityTerms(s.podInfo, s.podInfo.requiredAffinityTerms)
    );
  }
  return true;
}

const affinityMismatch = new Status(
  Code.UnschedulableAndUnresolvable,
  [ErrReasonAffinityRulesNotMatch],
  Name,
);
const antiAffinityMismatch = new Status(
  Code.Unschedulable,
  [ErrReasonAntiAffinityRulesNotMatch],
  Name,
);
const existingAntiAffinityMismatch = new Status(
  Code.Unschedulable,
  [ErrReasonExistingAntiAffinityRulesNotMatch],
  Name,
);

/** filter mirrors Filter: affinity, then anti-affinity, then existing pods' anti-affinity. */
export function filter(s: IpaPreFilterState, nodeInfo: NodeInfo): Status | null {
  if (!satisfyPodAffinity(s, nodeInfo)) return affinityMismatch;
  if (!satisfyPodAntiAffinity(s, nodeInfo)) return antiAffinityMismatch;
  if (!satisfyExistingPodsAntiAffinity(s, nodeInfo)) return existingAntiAffinityMismatch;
  return null;
}

// ---- scoring.go ----

/** IpaPreScoreState mirrors preScoreState: topologyKey -> value -> summed weight. */
export interface IpaPreScoreState {
  topologyScore: TopologyToMatchedTermCount;
}

function processTerm(
  m: TopologyToMatchedTermCount,
  t: AffinityTerm,
  weight: number,
  pod: PodInfo,
  node: NodeInfo,
  multiplier: number,
): boolean {
  if (!termMatches(t, pod)) return false;
  const v = node.labels[t.topologyKey];
  if (v === undefined) return false;
  let inner = m.get(t.topologyKey);
  if (!inner) {
    inner = new Map();
    m.set(t.topologyKey, inner);
  }
  inner.set(v, (inner.get(v) ?? 0) + weight * multiplier);
  return true;
}

/**
 * preScore mirrors PreScore: the incoming pod's preferred terms against existing pods, and the
 * existing pods' required (hardPodAffinityWeight) and preferred terms against the incoming pod.
 * It returns null (Skip) when nothing contributed.
 */
export function preScore(
  pod: PodInfo,
  h: Handle,
  hardPodAffinityWeight = DefaultHardPodAffinityWeight,
): IpaPreScoreState | null {
  // Nothing can contribute without preferred terms on the pod or affinity on an existing pod
  // (upstream's hasConstraints check): skip before building anything.
  if (
    pod.preferredAffinityTerms.length === 0 &&
    pod.preferredAntiAffinityTerms.length === 0 &&
    h.havePodsWithAffinityList().length === 0
  )
    return null;
  const m: TopologyToMatchedTermCount = new Map();
  let touched = false;
  // The incoming pod's preferred (anti-)affinity terms against every existing pod, counted per node.
  const incoming: [WeightedAffinityTerm, number][] = [
    ...pod.preferredAffinityTerms.map((t): [WeightedAffinityTerm, number] => [t, 1]),
    ...pod.preferredAntiAffinityTerms.map((t): [WeightedAffinityTerm, number] => [t, -1]),
  ];
  for (const [t, multiplier] of incoming) {
    const index = h.podCounts(matcherForTerms([t]));
    for (const [nodeInfo, count] of index.perNode) {
      if (count === 0 || !nodeInfo.hasNode) continue;
      const v = nodeInfo.labels[t.topologyKey];
      if (v === undefined) continue;
      let inner = m.get(t.topologyKey);
      if (!inner) {
        inner = new Map();
        m.set(t.topologyKey, inner);
      }
      inner.set(v, (inner.get(v) ?? 0) + t.weight * multiplier * count);
      touched = true;
    }
  }
  // The existing pods' terms against the incoming pod.
  for (const nodeInfo of h.havePodsWithAffinityList()) {
    for (const existing of nodeInfo.podsWithAffinity) {
      if (hardPodAffinityWeight > 0) {
        for (const t of existing.requiredAffinityTerms)
          touched = processTerm(m, t, hardPodAffinityWeight, pod, nodeInfo, 1) || touched;
      }
      for (const t of existing.preferredAffinityTerms)
        touched = processTerm(m, t, t.weight, pod, nodeInfo, 1) || touched;
      for (const t of existing.preferredAntiAffinityTerms)
        touched = processTerm(m, t, t.weight, pod, nodeInfo, -1) || touched;
    }
  }
  if (!touched) return null;
  return { topologyScore: m };
}

/** score mirrors Score: the sum of topologyScore over the node's labels. */
export function score(s: IpaPreScoreState, nodeInfo: NodeInfo): number {
  let total = 0;
  for (const [key, values] of s.topologyScore) {
    const v = nodeInfo.labels[key];
    if (v !== undefined) total += values.get(v) ?? 0;
  }
  return total;
}

/** normalizeScore mirrors NormalizeScore: min-max scaling to 0..100, truncated. */
export function normalizeScore(s: IpaPreScoreState, scores: ScoreList): void {
  if (s.topologyScore.size === 0) return;
  let minCount = Number.MAX_SAFE_INTEGER;
  let maxCount = Number.MIN_SAFE_INTEGER;
  for (const v of scores) {
    if (v > maxCount) maxCount = v;
    if (v < minCount) minCount = v;
  }
  const diff = maxCount - minCount;
  for (let i = 0; i < scores.length; i++) {
    scores[i] = diff > 0 ? Math.trunc(MaxNodeScore * ((scores[i] - minCount) / diff)) : 0;
  }
}

/** InterPodAffinity is the plugin instance (hardPodAffinityWeight 1). */
export const InterPodAffinity: PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin = {
  name: Name,
  preFilter(state: CycleState, pod: PodInfo, h: Handle) {
    const withAntiAffinity = h.havePodsWithRequiredAntiAffinityList();
    // The usual case, no (anti-)affinity anywhere, skips without building the counts.
    if (
      withAntiAffinity.length === 0 &&
      pod.requiredAffinityTerms.length === 0 &&
      pod.requiredAntiAffinityTerms.length === 0
    )
      return PreFilterSkip;
    const existingAntiAffinityCounts = getExistingAntiAffinityCounts(pod, withAntiAffinity);
    if (
      existingAntiAffinityCounts.size === 0 &&
      pod.requiredAffinityTerms.length === 0 &&
      pod.requiredAntiAffinityTerms.length === 0
    ) {
      return PreFilterSkip;
    }
    const [affinityCounts, antiAffinityCounts] = getIncomingAffinityAntiAffinityCounts(pod, h);
    const s: IpaPreFilterState = {
      existingAntiAffinityCounts,
      affinityCounts,
      antiAffinityCounts,
      podInfo: pod,
    };
    state.write(preFilterStateKey, s);
    return PreFilterSuccess;
  },
  filter(state, _pod, nodeInfo) {
    const s = state.read<IpaPreFilterState>(preFilterStateKey);
    return s ? filter(s, nodeInfo) : null;
  },
  filterNodes(state, _pod, nodes, n, statuses) {
    const s = state.read<IpaPreFilterState>(preFilterStateKey);
    if (!s) return;
    for (let i = 0; i < n; i++) if (statuses[i] === null) statuses[i] = filter(s, nodes[i]);
  },
  preScore(state, pod, _nodes, h) {
    const s = preScore(pod, h);
    if (!s) return SkipStatus;
    state.write(preScoreStateKey, s);
    return null;
  },
  score(state, _pod, nodeInfo) {
    return score(state.read<IpaPreScoreState>(preScoreStateKey)!, nodeInfo);
  },
  normalizeScore(state, _pod, scores) {
    normalizeScore(state.read<IpaPreScoreState>(preScoreStateKey)!, scores);
  },
};

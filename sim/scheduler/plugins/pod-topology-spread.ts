// Mirrors pkg/scheduler/framework/plugins/podtopologyspread/plugin.go, common.go, filtering.go
// and scoring.go (see "Simplification:" notes).

import { labelSelectorAsSelector, type Selector } from '../../api/labels.ts';
import type { TopologySpreadConstraint } from '../../api/types.ts';
import {
  Code,
  CycleState,
  LabelHostname,
  LabelTopologyZone,
  MaxNodeScore,
  PreFilterSkip,
  PreFilterSuccess,
  SkipStatus,
  Status,
  numZoneIds,
  selectorKey,
  stateKey,
  type FilterPlugin,
  type Handle,
  type NodeInfo,
  type PodCountIndex,
  type PodInfo,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScoreList,
  type ScorePlugin,
} from '../framework.ts';
import { getRequiredNodeAffinity, type RequiredNodeAffinity } from './node-affinity.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'PodTopologySpread';

/** ErrReasonConstraintsNotMatch is the Filter reason when placing the pod would exceed maxSkew. */
export const ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
/** ErrReasonNodeLabelNotMatch is the Filter reason when the node lacks a topology key. */
export const ErrReasonNodeLabelNotMatch =
  ErrReasonConstraintsNotMatch + ' (missing required label)';

const preFilterStateKey = stateKey('PreFilter' + Name);
const preScoreStateKey = stateKey('PreScore' + Name);

/**
 * systemDefaultConstraints are applied to pods without constraints of their own
 * (DefaultingType: System): hostname maxSkew 3 and zone maxSkew 5, both ScheduleAnyway.
 */
export const systemDefaultConstraints: readonly TopologySpreadConstraint[] = [
  { topologyKey: LabelHostname, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LabelTopologyZone, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

/**
 * topologySpreadConstraint is an internal, parsed constraint (common.go).
 * Simplification: minDomains, matchLabelKeys and the node inclusion policies are not in the
 * simulator's API, so minDomains is 1, nodeAffinityPolicy is Honor and nodeTaintsPolicy Ignore
 * (the upstream defaults).
 */
export interface TopologySpreadConstraintInternal {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  minDomains: number;
}

/** filterTopologySpreadConstraints keeps the constraints with the given whenUnsatisfiable. */
export function filterTopologySpreadConstraints(
  constraints: readonly TopologySpreadConstraint[],
  action: 'DoNotSchedule' | 'ScheduleAnyway',
): TopologySpreadConstraintInternal[] {
  const out: TopologySpreadConstraintInternal[] = [];
  for (const c of constraints) {
    if (c.whenUnsatisfiable !== action) continue;
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector: labelSelectorAsSelector(c.labelSelector),
      minDomains: 1,
    });
  }
  return out;
}

/**
 * buildDefaultConstraints applies the system default constraints with the pod's default selector
 * (the selectors of the Services and the ReplicaSet that own it). A pod nothing selects gets none.
 */
export function buildDefaultConstraints(
  pod: PodInfo,
  action: 'DoNotSchedule' | 'ScheduleAnyway',
  h: Handle,
): TopologySpreadConstraintInternal[] {
  const defaults = action === 'ScheduleAnyway' ? defaultScheduleAnyway : defaultDoNotSchedule;
  if (defaults.length === 0) return [];
  const selector = h.defaultSelector(pod);
  if (selector.empty) return [];
  // The list is built once per selector object (selectors are immutable and the default
  // selectors are cached), and shared: constraint lists are never modified.
  const cache = action === 'ScheduleAnyway' ? scheduleAnywayBySelector : doNotScheduleBySelector;
  let out = cache.get(selector);
  if (!out) {
    out = defaults.map((c) => ({ ...c, selector }));
    cache.set(selector, out);
  }
  return out;
}

const scheduleAnywayBySelector = new WeakMap<Selector, TopologySpreadConstraintInternal[]>();
const doNotScheduleBySelector = new WeakMap<Selector, TopologySpreadConstraintInternal[]>();

const defaultScheduleAnyway = filterTopologySpreadConstraints(
  systemDefaultConstraints,
  'ScheduleAnyway',
);
const defaultDoNotSchedule = filterTopologySpreadConstraints(
  systemDefaultConstraints,
  'DoNotSchedule',
);

/** nodeLabelsMatchSpreadConstraints is true when the node has every constraint's topology key. */
export function nodeLabelsMatchSpreadConstraints(
  labels: Record<string, string>,
  constraints: readonly TopologySpreadConstraintInternal[],
): boolean {
  for (const c of constraints) if (labels[c.topologyKey] === undefined) return false;
  return true;
}

/**
 * countIndex returns the live per-node count of pods matching the constraint in the pod's
 * namespace, skipping terminating pods (countPodsMatchSelector). An empty selector counts 0, as
 * upstream's countPodsMatchSelector does.
 */
function countIndex(
  h: Handle,
  pod: PodInfo,
  c: TopologySpreadConstraintInternal,
): PodCountIndex | null {
  if (c.selector.empty) return null;
  // The index is looked up once per selector object and namespace (selectors are immutable), in
  // the handle's own memo: a module-level one would hold the whole simulation through its values.
  let byNs = h.countsBySelector.get(c.selector);
  if (!byNs) h.countsBySelector.set(c.selector, (byNs = new Map()));
  let idx = byNs.get(pod.namespace);
  if (!idx) {
    idx = h.podCounts({
      key: `pts|${pod.namespace}|${selectorKey(c.selector)}`,
      namespaces: new Set([pod.namespace]),
      selectors: [c.selector],
      excludeTerminating: true,
    });
    byNs.set(pod.namespace, idx);
  }
  return idx;
}

// ---- filtering.go ----

/** criticalPaths keeps the minimum match count per topology key (only [0] is read by Filter). */
interface CriticalPath {
  topologyValue: string;
  matchNum: number;
}

/** PreFilterState mirrors preFilterState. */
export interface PtsPreFilterState {
  constraints: TopologySpreadConstraintInternal[];
  tpKeyToCriticalPaths: Map<string, [CriticalPath, CriticalPath]>;
  tpKeyToDomainsNum: Map<string, number>;
  tpPairToMatchNum: Map<string, Map<string, number>>;
}

function updateCriticalPaths(p: [CriticalPath, CriticalPath], tpVal: string, num: number): void {
  let i = -1;
  if (tpVal === p[0].topologyValue) i = 0;
  else if (tpVal === p[1].topologyValue) i = 1;
  if (i >= 0) {
    p[i].matchNum = num;
    if (p[0].matchNum > p[1].matchNum) {
      const t = p[0];
      p[0] = p[1];
      p[1] = t;
    }
  } else if (num < p[0].matchNum) {
    p[1] = p[0];
    p[0] = { topologyValue: tpVal, matchNum: num };
  } else if (num < p[1].matchNum) {
    p[1] = { topologyValue: tpVal, matchNum: num };
  }
}

/** preFilterConstraints are the pod's DoNotSchedule constraints, or the default ones. */
function preFilterConstraints(pod: PodInfo, h: Handle): TopologySpreadConstraintInternal[] {
  const spec = pod.pod.spec.topologySpreadConstraints;
  return spec && spec.length > 0
    ? filterTopologySpreadConstraints(spec, 'DoNotSchedule')
    : buildDefaultConstraints(pod, 'DoNotSchedule', h);
}

/** calPreFilterState mirrors calPreFilterState: match counts per topology pair over all eligible nodes. */
export function calPreFilterState(
  pod: PodInfo,
  h: Handle,
  constraints = preFilterConstraints(pod, h),
): PtsPreFilterState {
  const s: PtsPreFilterState = {
    constraints,
    tpKeyToCriticalPaths: new Map(),
    tpKeyToDomainsNum: new Map(),
    tpPairToMatchNum: new Map(),
  };
  if (constraints.length === 0) return s;
  const indexes = constraints.map((c) => countIndex(h, pod, c));
  const requiredNodeAffinity = getRequiredNodeAffinity(pod.pod);
  for (const c of constraints)
    if (!s.tpPairToMatchNum.has(c.topologyKey)) s.tpPairToMatchNum.set(c.topologyKey, new Map());
  // Upstream sets tpCounts[pair] = count per constraint, so of two constraints on the same key
  // the later one's count is the one that is added.
  const effective = constraints.map(
    (c, i) => !constraints.some((d, j) => j > i && d.topologyKey === c.topologyKey),
  );
  for (const nodeInfo of h.nodeInfos()) {
    if (!nodeLabelsMatchSpreadConstraints(nodeInfo.labels, constraints)) continue;
    // nodeAffinityPolicy Honor: only nodes the pod's nodeSelector/affinity admit are counted.
    if (!requiredNodeAffinity.match(nodeInfo)) continue;
    for (let i = 0; i < constraints.length; i++) {
      if (!effective[i]) continue;
      const c = constraints[i];
      const value = nodeInfo.labels[c.topologyKey];
      const count = indexes[i]?.perNode.get(nodeInfo) ?? 0;
      const m = s.tpPairToMatchNum.get(c.topologyKey)!;
      m.set(value, (m.get(value) ?? 0) + count);
    }
  }
  for (const [key, m] of s.tpPairToMatchNum) {
    s.tpKeyToDomainsNum.set(key, m.size);
    const paths: [CriticalPath, CriticalPath] = [
      { topologyValue: '', matchNum: 2147483647 },
      { topologyValue: '', matchNum: 2147483647 },
    ];
    for (const [value, num] of m) updateCriticalPaths(paths, value, num);
    s.tpKeyToCriticalPaths.set(key, paths);
  }
  return s;
}

const labelMismatch = new Status(
  Code.UnschedulableAndUnresolvable,
  [ErrReasonNodeLabelNotMatch],
  Name,
);
const skewTooHigh = new Status(Code.Unschedulable, [ErrReasonConstraintsNotMatch], Name);

/** filter mirrors Filter: 'existing matching num' + 'self-match (1 or 0)' - 'global minimum' <= maxSkew. */
export function filter(s: PtsPreFilterState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
  for (const c of s.constraints) {
    const tpKey = c.topologyKey;
    const tpVal = nodeInfo.labels[tpKey];
    if (tpVal === undefined) return labelMismatch;
    const paths = s.tpKeyToCriticalPaths.get(tpKey);
    if (!paths) continue;
    let minMatchNum = paths[0].matchNum;
    // When there are fewer eligible domains than minDomains, the global minimum is 0.
    if ((s.tpKeyToDomainsNum.get(tpKey) ?? 0) < c.minDomains) minMatchNum = 0;
    const selfMatchNum = c.selector.matches(pod.labels) ? 1 : 0;
    const matchNum = s.tpPairToMatchNum.get(tpKey)?.get(tpVal) ?? 0;
    const skew = matchNum + selfMatchNum - minMatchNum;
    if (skew > c.maxSkew) return skewTooHigh;
  }
  return null;
}

// ---- scoring.go ----

/**
 * PtsPreScoreState mirrors preScoreState. Simplification (representation only): pod counts per
 * topology value are kept in an array indexed by interned zone id for the zone key, and per node
 * id for the hostname key, instead of maps; the numbers are upstream's.
 */
export interface PtsPreScoreState {
  constraints: TopologySpreadConstraintInternal[];
  /** kinds[i]: 0 for kubernetes.io/hostname, 1 for topology.kubernetes.io/zone, 2 for any other key. */
  kinds: number[];
  ignoredNodes: ReadonlySet<NodeInfo>;
  /** topologyValueToPodCounts[i] maps a topology value to its matching pods (other keys). */
  topologyValueToPodCounts: Map<string, number>[];
  /**
   * zoneCounts[i][zoneId] is the matching pods in a zone; zonePresent[i][zoneId] is 1 for the
   * zones of filtered nodes.
   */
  zoneCounts: (number[] | null)[];
  zonePresent: (number[] | null)[];
  /** hostCounts[i][nodeInfo.id] is the count for a hostname constraint (its index's dense counts). */
  hostCounts: (Float64Array | null)[];
  topologyNormalizingWeight: number[];
}

/** topologyNormalizingWeight is ln(size + 2): smaller topologies are not watered down by bigger ones. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

/** scoreForCount is cnt * weight + (maxSkew - 1). */
export function scoreForCount(cnt: number, maxSkew: number, tpWeight: number): number {
  return cnt * tpWeight + (maxSkew - 1);
}

/**
 * preScore mirrors PreScore and initPreScoreState. It returns null when there is nothing to
 * score (Skip). With the system default constraints, nodes missing a topology key still get the
 * other constraints (requireAllTopologies is false).
 */
export function preScore(
  pod: PodInfo,
  filteredNodes: readonly NodeInfo[],
  h: Handle,
  systemDefaulted = true,
): PtsPreScoreState | null {
  if (h.nodeInfos().length === 0) return null;
  const spec = pod.pod.spec.topologySpreadConstraints;
  const explicit = !!spec && spec.length > 0;
  const requireAllTopologies = explicit || !systemDefaulted;
  const constraints = explicit
    ? filterTopologySpreadConstraints(spec!, 'ScheduleAnyway')
    : buildDefaultConstraints(pod, 'ScheduleAnyway', h);
  if (constraints.length === 0) return null;

  const ignored = requireAllTopologies ? new Set<NodeInfo>() : null;
  const nz = numZoneIds();
  const kinds = constraints.map(constraintKind);
  // Zone counts are small plain arrays: this runs every cycle, and typed arrays cost far more to
  // allocate. The lists are built with map() so that each has exactly one slot per constraint.
  const s: PtsPreScoreState = {
    constraints,
    kinds,
    // Only constraints requiring every topology key ignore nodes; otherwise the set stays empty.
    ignoredNodes: ignored ?? noIgnoredNodes,
    topologyValueToPodCounts: kinds.map((k) => (k === 2 ? new Map<string, number>() : noCounts)),
    zoneCounts: kinds.map((k) => (k === 1 ? new Array<number>(nz).fill(0) : null)),
    zonePresent: kinds.map((k) => (k === 1 ? new Array<number>(nz).fill(0) : null)),
    hostCounts: kinds.map(() => null),
    topologyNormalizingWeight: kinds.map(() => 0),
  };
  const topoSize = kinds.map(() => 0);
  const needLoop = requireAllTopologies || kinds.some((k) => k !== 0);
  // Without ignored nodes or generic keys, the loop only counts zones: it can stop once every
  // zone known to the simulator has been seen.
  const canStopEarly = !requireAllTopologies && kinds.every((k) => k !== 2);
  if (needLoop) {
    for (let n = 0; n < filteredNodes.length; n++) {
      if (canStopEarly && n > 0 && allZonesSeen(kinds, topoSize, nz)) break;
      const nodeInfo = filteredNodes[n];
      if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(nodeInfo.labels, constraints)) {
        ignored!.add(nodeInfo);
        continue;
      }
      for (let i = 0; i < constraints.length; i++) {
        // Per-node counts are calculated during Score.
        if (kinds[i] === 0) continue;
        if (kinds[i] === 1) {
          const present = s.zonePresent[i]!;
          if (present[nodeInfo.zoneId] === 0) {
            present[nodeInfo.zoneId] = 1;
            topoSize[i]++;
          }
          continue;
        }
        // A missing label reads as "" (a Go map lookup), as upstream.
        const value = nodeInfo.labels[constraints[i].topologyKey] ?? '';
        const m = s.topologyValueToPodCounts[i];
        if (!m.has(value)) {
          m.set(value, 0);
          topoSize[i]++;
        }
      }
    }
  }
  for (let i = 0; i < constraints.length; i++) {
    const size = kinds[i] === 0 ? filteredNodes.length - s.ignoredNodes.size : topoSize[i];
    s.topologyNormalizingWeight[i] = topologyNormalizingWeight(size);
  }

  // processAllNode: add each node's matching pods to its topology value. Nodes without matching
  // pods add nothing, so only the nodes in the count index are visited.
  const requiredNodeAffinity: RequiredNodeAffinity = getRequiredNodeAffinity(pod.pod);
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i];
    const index = countIndex(h, pod, c);
    if (kinds[i] === 0) {
      s.hostCounts[i] = index ? (index.dense ?? hostScratch(i, index)) : null;
      continue;
    }
    if (!index) continue;
    if (kinds[i] === 1 && !requireAllTopologies && requiredNodeAffinity.empty) {
      // Every live node counts: the index's per-zone sums are the totals processAllNode adds up.
      const counts = s.zoneCounts[i]!;
      const present = s.zonePresent[i]!;
      const perZone = index.perZone;
      for (let z = 0; z < nz; z++)
        if (present[z] === 1 && z < perZone.length) counts[z] = perZone[z];
      continue;
    }
    for (const [nodeInfo, count] of index.perNode) {
      if (count === 0 || !nodeInfo.hasNode) continue;
      if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(nodeInfo.labels, constraints))
        continue;
      if (!requiredNodeAffinity.empty && !requiredNodeAffinity.match(nodeInfo)) continue;
      if (kinds[i] === 1) {
        const zid = nodeInfo.zoneId;
        if (zid < nz && s.zonePresent[i]![zid] === 1) s.zoneCounts[i]![zid] += count;
        continue;
      }
      const m = s.topologyValueToPodCounts[i];
      const value = nodeInfo.labels[c.topologyKey] ?? '';
      const cur = m.get(value);
      if (cur === undefined) continue;
      m.set(value, cur + count);
    }
  }
  return s;
}

const noCounts: Map<string, number> = new Map();

/** constraintKind is a constraint's entry in PtsPreScoreState.kinds. */
function constraintKind(c: TopologySpreadConstraintInternal): number {
  return c.topologyKey === LabelHostname ? 0 : c.topologyKey === LabelTopologyZone ? 1 : 2;
}

const noIgnoredNodes: ReadonlySet<NodeInfo> = new Set();

// Per-constraint scratch arrays holding a small index's counts by node id for one cycle; the ids
// written are reset before the next use.
const scratch: { counts: Float64Array; touched: number[]; numTouched: number }[] = [];

function hostScratch(i: number, index: PodCountIndex): Float64Array {
  let sc = scratch[i];
  if (!sc) scratch[i] = sc = { counts: new Float64Array(64), touched: [], numTouched: 0 };
  for (let k = 0; k < sc.numTouched; k++) sc.counts[sc.touched[k]] = 0;
  sc.numTouched = 0;
  const s = sc;
  // forEach rather than for...of: no [node, count] entry is allocated per node.
  index.perNode.forEach((count, nodeInfo) => {
    const id = nodeInfo.id;
    if (id >= s.counts.length) {
      const grown = new Float64Array(Math.max(2 * s.counts.length, id + 1));
      grown.set(s.counts);
      s.counts = grown;
    }
    s.counts[id] = count;
    s.touched[s.numTouched++] = id;
  });
  return sc.counts;
}

function allZonesSeen(kinds: readonly number[], topoSize: readonly number[], nz: number): boolean {
  for (let i = 0; i < kinds.length; i++) if (kinds[i] === 1 && topoSize[i] < nz) return false;
  return true;
}

/** score mirrors Score: the sum over constraints of scoreForCount, rounded. */
export function score(s: PtsPreScoreState, nodeInfo: NodeInfo): number {
  if (s.ignoredNodes.size > 0 && s.ignoredNodes.has(nodeInfo)) return 0;
  let total = 0;
  const constraints = s.constraints;
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i];
    let cnt: number;
    const kind = s.kinds[i];
    if (kind === 0) {
      if (nodeInfo.hostname === undefined) continue;
      const dense = s.hostCounts[i];
      const id = nodeInfo.id;
      cnt = dense !== null && id < dense.length ? dense[id] : 0;
    } else if (kind === 1) {
      if (nodeInfo.zone === undefined) continue;
      const counts = s.zoneCounts[i]!;
      cnt = nodeInfo.zoneId < counts.length ? counts[nodeInfo.zoneId] : 0;
    } else {
      const tpVal = nodeInfo.labels[c.topologyKey];
      if (tpVal === undefined) continue;
      cnt = s.topologyValueToPodCounts[i].get(tpVal) ?? 0;
    }
    total += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]);
  }
  // math.Round: the totals are never negative, so Math.round agrees.
  return Math.round(total);
}

/**
 * normalizeScore mirrors NormalizeScore: ignored nodes get 0; if every score is 0 all get 100;
 * otherwise 100 * (max + min - s) / max, in integer division.
 */
export function normalizeScore(
  s: PtsPreScoreState,
  scores: ScoreList,
  nodes: readonly NodeInfo[],
): void {
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  const invalid = -1;
  for (let i = 0; i < scores.length; i++) {
    if (s.ignoredNodes.size > 0 && s.ignoredNodes.has(nodes[i])) {
      scores[i] = invalid;
      continue;
    }
    if (scores[i] < minScore) minScore = scores[i];
    if (scores[i] > maxScore) maxScore = scores[i];
  }
  for (let i = 0; i < scores.length; i++) {
    if (scores[i] === invalid) {
      scores[i] = 0;
      continue;
    }
    if (maxScore === 0) {
      scores[i] = MaxNodeScore;
      continue;
    }
    scores[i] = Math.trunc((MaxNodeScore * (maxScore + minScore - scores[i])) / maxScore);
  }
}

/** PodTopologySpread is the plugin instance, with the system default constraints. */
export const PodTopologySpread: PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin = {
  name: Name,
  preFilter(state: CycleState, pod: PodInfo, h: Handle) {
    // Without constraints (the usual case: no DoNotSchedule defaults) no state is built.
    const constraints = preFilterConstraints(pod, h);
    if (constraints.length === 0) return PreFilterSkip;
    state.write(preFilterStateKey, calPreFilterState(pod, h, constraints));
    return PreFilterSuccess;
  },
  filter(state, pod, nodeInfo) {
    const s = state.read<PtsPreFilterState>(preFilterStateKey);
    return s ? filter(s, pod, nodeInfo) : null;
  },
  filterNodes(state, pod, nodes, n, statuses) {
    const s = state.read<PtsPreFilterState>(preFilterStateKey);
    if (!s) return;
    for (let i = 0; i < n; i++) if (statuses[i] === null) statuses[i] = filter(s, pod, nodes[i]);
  },
  preScore(state, pod, nodes, h) {
    const s = preScore(pod, nodes, h);
    if (!s) return SkipStatus;
    state.write(preScoreStateKey, s);
    return null;
  },
  score(state, _pod, nodeInfo) {
    return score(state.read<PtsPreScoreState>(preScoreStateKey)!, nodeInfo);
  },
  scoreNodes(state, _pod, nodes, out) {
    const s = state.read<PtsPreScoreState>(preScoreStateKey)!;
    if (s.ignoredNodes.size > 0 || s.kinds.some((k) => k === 2)) {
      for (let i = 0; i < nodes.length; i++) out[i] = score(s, nodes[i]);
      return;
    }
    // The same sum as score(), constraint by constraint over all nodes (hostname and zone keys).
    const n = nodes.length;
    for (let i = 0; i < n; i++) out[i] = 0;
    for (let c = 0; c < s.constraints.length; c++) {
      const w = s.topologyNormalizingWeight[c];
      const skew = s.constraints[c].maxSkew - 1;
      if (s.kinds[c] === 0) {
        const dense = s.hostCounts[c];
        for (let i = 0; i < n; i++) {
          const ni = nodes[i];
          if (ni.hostname === undefined) continue;
          const cnt = dense !== null && ni.id < dense.length ? dense[ni.id] : 0;
          out[i] += cnt * w + skew;
        }
      } else {
        const counts = s.zoneCounts[c]!;
        for (let i = 0; i < n; i++) {
          const ni = nodes[i];
          if (ni.zone === undefined) continue;
          const cnt = ni.zoneId < counts.length ? counts[ni.zoneId] : 0;
          out[i] += cnt * w + skew;
        }
      }
    }
    for (let i = 0; i < n; i++) out[i] = Math.round(out[i]);
  },
  normalizeScore(state, _pod, scores, nodes) {
    normalizeScore(state.read<PtsPreScoreState>(preScoreStateKey)!, scores, nodes);
  },
};

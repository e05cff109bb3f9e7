// Mirrors pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go and
// staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go
// (see "Simplification:" notes).

import type {
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  PreferredSchedulingTerm,
} from '../../api/types.ts';
import {
  Code,
  CycleState,
  MaxNodeScore,
  PreFilterSkip,
  PreFilterSuccess,
  SkipStatus,
  Status,
  stateKey,
  type FilterPlugin,
  type NodeInfo,
  type PodInfo,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ScorePlugin,
} from '../framework.ts';
import { defaultNormalizeScore } from './helper.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'NodeAffinity';

/** ErrReasonPod is the Filter reason when nodeSelector or required node affinity do not match. */
export const ErrReasonPod = "node(s) didn't match Pod's node affinity/selector";
/** errReasonConflict is the PreFilter reason when metadata.name terms leave no node. */
export const errReasonConflict = 'pod affinity terms conflict';

const preFilterStateKey = stateKey('PreFilter' + Name);
const preScoreStateKey = stateKey('PreScore' + Name);
const mismatch = new Status(Code.UnschedulableAndUnresolvable, [ErrReasonPod], Name);

/** ObjectNameField is the only field matchFields may use. */
const ObjectNameField = 'metadata.name';

function parseInt64(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

/** validRequirement rejects requirements upstream fails to parse (they make the term match nothing). */
function validRequirement(r: NodeSelectorRequirement): boolean {
  const n = r.values?.length ?? 0;
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      return n > 0;
    case 'Exists':
    case 'DoesNotExist':
      return n === 0;
    case 'Gt':
    case 'Lt':
      return n === 1 && parseInt64(r.values![0]) !== undefined;
    default:
      return false;
  }
}

function matchRequirement(r: NodeSelectorRequirement, v: string | undefined): boolean {
  switch (r.operator) {
    case 'In':
      return v !== undefined && r.values!.includes(v);
    case 'NotIn':
      return v === undefined || !r.values!.includes(v);
    case 'Exists':
      return v !== undefined;
    case 'DoesNotExist':
      return v === undefined;
    case 'Gt':
    case 'Lt': {
      if (v === undefined) return false;
      const have = parseInt64(v);
      if (have === undefined) return false;
      const want = Number(r.values![0]);
      return r.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** ParsedTerm is a node selector term that parsed (nodeSelectorTerm). */
interface ParsedTerm {
  expressions: NodeSelectorRequirement[];
  fields: NodeSelectorRequirement[];
}

/**
 * parseTerm mirrors newNodeSelectorTerm: an empty term, or one with a requirement that does not
 * parse, is dropped (it selects no node).
 */
function parseTerm(t: NodeSelectorTerm): ParsedTerm | undefined {
  const expressions = t.matchExpressions ?? [];
  const fields = t.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return undefined;
  for (const r of expressions) if (!validRequirement(r)) return undefined;
  for (const r of fields) {
    if (
      r.key !== ObjectNameField ||
      (r.operator !== 'In' && r.operator !== 'NotIn') ||
      (r.values?.length ?? 0) !== 1
    )
      return undefined;
  }
  return { expressions, fields };
}

function termMatches(t: ParsedTerm, nodeInfo: NodeInfo): boolean {
  const labels = nodeInfo.labels;
  for (const r of t.expressions) if (!matchRequirement(r, labels[r.key])) return false;
  for (const r of t.fields) if (!matchRequirement(r, nodeInfo.name)) return false;
  return true;
}

/**
 * RequiredNodeAffinity mirrors nodeaffinity.RequiredNodeAffinity: spec.nodeSelector (all labels
 * equal) and the required node affinity terms (any term matches).
 */
export class RequiredNodeAffinity {
  private readonly selector: [string, string][] | null;
  private readonly terms: ParsedTerm[] | null;

  constructor(pod: Pod) {
    const ns = pod.spec.nodeSelector;
    this.selector = ns ? Object.entries(ns) : null;
    const req = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (req) {
      this.terms = [];
      for (const t of req.nodeSelectorTerms) {
        const p = parseTerm(t);
        if (p) this.terms.push(p);
      }
    } else {
      this.terms = null;
    }
  }

  /** empty is true when the pod has neither a nodeSelector nor required node affinity. */
  get empty(): boolean {
    return this.selector === null && this.terms === null;
  }

  /** match mirrors RequiredNodeAffinity.Match. */
  match(nodeInfo: NodeInfo): boolean {
    if (this.selector) {
      const labels = nodeInfo.labels;
      for (const [k, v] of this.selector) if (labels[k] !== v) return false;
    }
    if (this.terms) {
      for (const t of this.terms) if (termMatches(t, nodeInfo)) return true;
      return false;
    }
    return true;
  }
}

/** getRequiredNodeAffinity mirrors nodeaffinity.GetRequiredNodeAffinity. */
export function getRequiredNodeAffinity(pod: Pod): RequiredNodeAffinity {
  return new RequiredNodeAffinity(pod);
}

/** PreferredSchedulingTerms mirrors nodeaffinity.PreferredSchedulingTerms; weight-0 terms are dropped. */
export class PreferredSchedulingTerms {
  private readonly terms: { weight: number; term: ParsedTerm }[] = [];

  constructor(terms: readonly PreferredSchedulingTerm[]) {
    for (const t of terms) {
      if (t.weight === 0) continue;
      const p = parseTerm(t.preference);
      if (p) this.terms.push({ weight: t.weight, term: p });
    }
  }

  /** score sums the weights of the terms the node matches. */
  score(nodeInfo: NodeInfo): number {
    let s = 0;
    for (const t of this.terms) if (termMatches(t.term, nodeInfo)) s += t.weight;
    return s;
  }
}

/**
 * preFilterNodeNames mirrors the PreFilter's metadata.name shortcut: when every required term
 * names nodes with `matchFields: metadata.name In [...]`, only those nodes are evaluated
 * (DaemonSet pods use this). It returns null when all nodes must be evaluated.
 */
export function preFilterNodeNames(pod: Pod): Set<string> | null {
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms;
  if (!terms) return null;
  let nodeNames: Set<string> | null = null;
  for (const t of terms) {
    let termNodeNames: Set<string> | null = null;
    for (const r of t.matchFields ?? []) {
      if (r.key === ObjectNameField && r.operator === 'In') {
        termNodeNames = intersect(termNodeNames, new Set<string>(r.values ?? []));
      }
    }
    // A term without a node.Name requirement admits every node, because terms are ORed.
    if (termNodeNames === null) return null;
    nodeNames = nodeNames === null ? termNodeNames : new Set([...nodeNames, ...termNodeNames]);
  }
  return nodeNames;
}

function intersect(a: Set<string> | null, b: Set<string>): Set<string> {
  if (a === null) return b;
  const out = new Set<string>();
  for (const n of a) if (b.has(n)) out.add(n);
  return out;
}

/** NodeAffinity is the plugin instance (no addedAffinity: the default profile sets none). */
export const NodeAffinity: PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin = {
  name: Name,
  preFilter(state: CycleState, pod: PodInfo) {
    const affinity = pod.pod.spec.affinity;
    const noNodeAffinity = !affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (noNodeAffinity && pod.pod.spec.nodeSelector === undefined) {
      // NodeAffinity Filter has nothing to do with the Pod.
      return PreFilterSkip;
    }
    state.write(preFilterStateKey, getRequiredNodeAffinity(pod.pod));
    const names = preFilterNodeNames(pod.pod);
    if (names === null) return PreFilterSuccess;
    if (names.size === 0)
      return { status: new Status(Code.UnschedulableAndUnresolvable, [errReasonConflict], Name) };
    const result: PreFilterResult = { nodeNames: names };
    return { status: null, result };
  },
  filter(state, pod, nodeInfo) {
    const s =
      state.read<RequiredNodeAffinity>(preFilterStateKey) ?? getRequiredNodeAffinity(pod.pod);
    return s.match(nodeInfo) ? null : mismatch;
  },
  filterNodes(state, pod, nodes, n, statuses) {
    const s =
      state.read<RequiredNodeAffinity>(preFilterStateKey) ?? getRequiredNodeAffinity(pod.pod);
    for (let i = 0; i < n; i++)
      if (statuses[i] === null && !s.match(nodes[i])) statuses[i] = mismatch;
  },
  preScore(state, pod) {
    const preferred =
      pod.pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
    if (!preferred) {
      // NodeAffinity Score has nothing to do with the Pod.
      return SkipStatus;
    }
    state.write(preScoreStateKey, new PreferredSchedulingTerms(preferred));
    return null;
  },
  score(state, pod, nodeInfo) {
    const s = state.read<PreferredSchedulingTerms>(preScoreStateKey);
    if (s) return s.score(nodeInfo);
    const preferred =
      pod.pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
    return preferred ? new PreferredSchedulingTerms(preferred).score(nodeInfo) : 0;
  },
  normalizeScore(_state, _pod, scores) {
    defaultNormalizeScore(MaxNodeScore, false, scores);
  },
};

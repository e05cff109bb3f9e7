// Mirrors pkg/scheduler/framework/runtime/framework.go: running a profile's plugins at each
// extension point (see "Simplification:" notes).

import {
  Code,
  CycleState,
  MaxNodeScore,
  MinNodeScore,
  Status,
  type FilterPlugin,
  type Handle,
  type NodeInfo,
  type NodeToStatus,
  type Plugin,
  type PodInfo,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type Profile,
  type ScorePlugin,
} from './framework.ts';
import { postFilter } from './plugins/default-preemption.ts';

const noPlugins: ReadonlySet<string> = new Set();

/** Registry maps plugin names to plugin instances (plugins are stateless; state is per cycle). */
export type Registry = ReadonlyMap<string, Plugin>;

function implementsPreFilter(p: Plugin): p is PreFilterPlugin {
  return typeof (p as PreFilterPlugin).preFilter === 'function';
}
function implementsFilter(p: Plugin): p is FilterPlugin {
  return typeof (p as FilterPlugin).filter === 'function';
}
function implementsPreScore(p: Plugin): p is PreScorePlugin {
  return typeof (p as PreScorePlugin).preScore === 'function';
}
function implementsScore(p: Plugin): p is ScorePlugin {
  return typeof (p as ScorePlugin).score === 'function';
}

/** PreFilterOutcome is what RunPreFilterPlugins returns. */
export interface PreFilterOutcome {
  result: PreFilterResult | null;
  status: Status | null;
  /** pluginsWithNodes names the plugins that narrowed the node list. */
  pluginsWithNodes: string[];
  /** unschedulablePlugins names a plugin that rejected the pod at PreFilter. */
  unschedulablePlugins: ReadonlySet<string>;
}

/** ScoreOutcome is RunScorePlugins' result, kept as arrays to avoid per-node objects. */
export interface ScoreOutcome {
  /** plugins are the Score plugins that ran (Skip removed), with their weights. */
  plugins: ScorePlugin[];
  weights: number[];
  /** scores[p][i] is plugin p's normalised (unweighted) score for node i. */
  scores: Float64Array[];
  /** totals[i] is Σ weight × normalised score for node i. */
  totals: Float64Array;
}

/** Framework runs one profile's plugins (frameworkImpl). */
export class Framework {
  readonly profileName: string;
  readonly percentageOfNodesToScore: number | undefined;
  readonly preFilterPlugins: PreFilterPlugin[] = [];
  readonly filterPlugins: FilterPlugin[] = [];
  readonly preScorePlugins: PreScorePlugin[] = [];
  readonly scorePlugins: ScorePlugin[] = [];
  readonly scoreWeights = new Map<string, number>();
  // weights[p] is scorePlugins[p]'s weight (scoreWeights by index, for the per-cycle loop).
  private readonly weights: number[] = [];
  // filtersBySkipped caches state.filters by the bit set of PreFilter plugins (by index; a profile
  // has far fewer than 32) that returned Skip.
  private readonly filtersBySkipped = new Map<number, FilterPlugin[]>();
  readonly hasPostFilter: boolean;
  readonly handle: Handle;
  private totalsBuffer = new Float64Array(0);
  private scoreBuffers: Float64Array[] = [];
  // Views of the buffers' first viewLength entries, rebuilt only when the node count changes
  // (it rarely does: numFeasibleNodesToFind is steady), so a cycle allocates no typed arrays.
  private viewLength = -1;
  private totalsView = new Float64Array(0);
  private scoreViews: Float64Array[] = [];
  // The outcome is reused from cycle to cycle, like the buffers it points into.
  private readonly outcome: ScoreOutcome = {
    plugins: [],
    weights: [],
    scores: [],
    totals: new Float64Array(0),
  };

  private growScoreBuffers(n: number): void {
    const size = Math.max(n, 2 * this.totalsBuffer.length, 64);
    this.totalsBuffer = new Float64Array(size);
    this.scoreBuffers = this.scorePlugins.map(() => new Float64Array(size));
    this.viewLength = -1;
  }

  private scoreViewsFor(n: number): void {
    if (this.totalsBuffer.length < n) this.growScoreBuffers(n);
    if (this.viewLength === n) return;
    this.totalsView = this.totalsBuffer.subarray(0, n);
    this.scoreViews = this.scoreBuffers.map((b) => b.subarray(0, n));
    this.viewLength = n;
  }

  constructor(profile: Profile, registry: Registry, handle: Handle) {
    this.profileName = profile.schedulerName;
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore;
    this.handle = handle;
    let hasPostFilter = false;
    for (const cfg of profile.plugins) {
      if (cfg.name === 'DefaultPreemption') {
        hasPostFilter = true;
        continue;
      }
      const p = registry.get(cfg.name);
      if (!p) continue; // PrioritySort is the queue's ordering, not a runnable plugin here.
      if (implementsPreFilter(p)) this.preFilterPlugins.push(p);
      if (implementsFilter(p)) this.filterPlugins.push(p);
      if (implementsPreScore(p)) this.preScorePlugins.push(p);
      if (implementsScore(p)) {
        this.scorePlugins.push(p);
        this.scoreWeights.set(p.name, cfg.weight ?? 1);
      }
    }
    this.hasPostFilter = hasPostFilter;
    for (const p of this.scorePlugins) this.weights.push(this.scoreWeights.get(p.name) ?? 1);
  }

  /**
   * runPreFilterPlugins mirrors RunPreFilterPlugins. Plugins returning Skip are recorded in
   * state.skipFilterPlugins; the first rejection ends the loop. Results narrowing the nodes are
   * intersected; an empty intersection rejects the pod.
   */
  runPreFilterPlugins(state: CycleState, pod: PodInfo): PreFilterOutcome {
    let result: PreFilterResult | null = null;
    const pluginsWithNodes: string[] = [];
    let skipped = 0;
    for (let i = 0; i < this.preFilterPlugins.length; i++) {
      const pl = this.preFilterPlugins[i];
      const { status, result: r } = pl.preFilter(state, pod, this.handle);
      if (status && status.code === Code.Skip) {
        state.skipFilterPlugins.add(pl.name);
        skipped |= 1 << i;
        continue;
      }
      if (status && status.code !== Code.Success) {
        const s =
          status.plugin === pl.name ? status : new Status(status.code, status.reasons, pl.name);
        return {
          result: null,
          status: s,
          pluginsWithNodes,
          unschedulablePlugins: new Set(s.isRejected() ? [pl.name] : []),
        };
      }
      if (r && r.nodeNames) {
        pluginsWithNodes.push(pl.name);
        result = mergePreFilterResult(result, r);
        if (result.nodeNames && result.nodeNames.size === 0) {
          const msg =
            pluginsWithNodes.length === 1
              ? `node(s) didn't satisfy plugin ${pluginsWithNodes[0]}`
              : `node(s) didn't satisfy plugin(s) [${pluginsWithNodes.join(' ')}] simultaneously`;
          return {
            result,
            status: new Status(Code.UnschedulableAndUnresolvable, [msg]),
            pluginsWithNodes,
            unschedulablePlugins: new Set(pluginsWithNodes),
          };
        }
      }
    }
    // The filters to run this cycle, in profile order, without the skipped ones. The list
    // depends only on which PreFilter plugins skipped, so it is built once per combination.
    let filters = this.filtersBySkipped.get(skipped);
    if (!filters) {
      filters = this.filterPlugins.filter((p) => !state.skipFilterPlugins.has(p.name));
      this.filtersBySkipped.set(skipped, filters);
    }
    state.filters = filters;
    return { result, status: null, pluginsWithNodes, unschedulablePlugins: noPlugins };
  }

  /**
   * runFilterPlugins mirrors RunFilterPlugins: the plugins run in order and the first that does
   * not return Success decides (the remaining ones are not run). null means Success.
   * Simplification: there are no nominated pods (preemption is not modelled), so this is also
   * RunFilterPluginsWithNominatedPods.
   */
  runFilterPlugins(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const filters = state.filters;
    for (let i = 0; i < filters.length; i++) {
      const s = filters[i].filter(state, pod, nodeInfo);
      if (s !== null && s.code !== Code.Success) return s;
    }
    return null;
  }

  /**
   * runFilterPluginsOnNodes is runFilterPlugins for nodes[0..n) at once: plugin by plugin, each
   * node keeps the status of the first plugin that rejected it (null for Success). The results are
   * those of runFilterPlugins on each node; only the loop order differs.
   */
  runFilterPluginsOnNodes(
    state: CycleState,
    pod: PodInfo,
    nodes: readonly NodeInfo[],
    n: number,
    statuses: (Status | null)[],
  ): void {
    for (let i = 0; i < n; i++) statuses[i] = null;
    const filters = state.filters;
    for (let f = 0; f < filters.length; f++) {
      const pl = filters[f];
      if (pl.filterNodes) {
        pl.filterNodes(state, pod, nodes, n, statuses);
        continue;
      }
      for (let i = 0; i < n; i++) {
        if (statuses[i] !== null) continue;
        const s = pl.filter(state, pod, nodes[i]);
        if (s !== null && s.code !== Code.Success) statuses[i] = s;
      }
    }
  }

  /** runPostFilterPlugins mirrors RunPostFilterPlugins with DefaultPreemption as the only PostFilter. */
  runPostFilterPlugins(
    pod: PodInfo,
    allNodes: readonly NodeInfo[],
    m: NodeToStatus,
  ): Status | null {
    if (!this.hasPostFilter) return null;
    return postFilter(pod, allNodes, m);
  }

  /** runPreScorePlugins mirrors RunPreScorePlugins; Skip is recorded in state.skipScorePlugins. */
  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null {
    for (const pl of this.preScorePlugins) {
      const s = pl.preScore(state, pod, nodes, this.handle);
      if (s && s.code === Code.Skip) {
        state.skipScorePlugins.add(pl.name);
        continue;
      }
      if (s && s.code !== Code.Success)
        return new Status(
          Code.Error,
          [`running PreScore plugin "${pl.name}": ${s.message()}`],
          pl.name,
        );
    }
    return null;
  }

  /**
   * runScorePlugins mirrors RunScorePlugins: Score every node with each plugin not skipped,
   * NormalizeScore, then weight and sum. Scores outside [0, 100] are an error upstream; here
   * they throw.
   */
  runScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): ScoreOutcome {
    const out = this.outcome;
    // The lists are overwritten in place and cut to length at the end: emptying them first
    // would drop their storage, and pushing would allocate it again every cycle.
    const { plugins, weights, scores } = out;
    let ran = 0;
    const n = nodes.length;
    this.scoreViewsFor(n);
    const totals = this.totalsView;
    totals.fill(0);
    out.totals = totals;
    for (let p = 0; p < this.scorePlugins.length; p++) {
      const pl = this.scorePlugins[p];
      if (state.skipScorePlugins.size > 0 && state.skipScorePlugins.has(pl.name)) continue;
      // Score buffers are reused from cycle to cycle; they are valid until the next cycle.
      const list = this.scoreViews[p];
      if (pl.scoreNodes) pl.scoreNodes(state, pod, nodes, list);
      else for (let i = 0; i < n; i++) list[i] = pl.score(state, pod, nodes[i]);
      if (pl.normalizeScore) pl.normalizeScore(state, pod, list, nodes);
      const w = this.weights[p];
      for (let i = 0; i < n; i++) {
        const s = list[i];
        if (s > MaxNodeScore || s < MinNodeScore) {
          throw new Error(
            `plugin "${pl.name}" returns an invalid score ${s}, it should in the range of [${MinNodeScore}, ${MaxNodeScore}] after normalizing`,
          );
        }
        totals[i] += s * w;
      }
      plugins[ran] = pl;
      weights[ran] = w;
      scores[ran] = list;
      ran++;
    }
    plugins.length = ran;
    weights.length = ran;
    scores.length = ran;
    return out;
  }
}

/** mergePreFilterResult mirrors PreFilterResult.Merge: the intersection of node names. */
export function mergePreFilterResult(
  a: PreFilterResult | null,
  b: PreFilterResult,
): PreFilterResult {
  if (!a || !a.nodeNames) return b;
  if (!b.nodeNames) return a;
  const out = new Set<string>();
  for (const n of a.nodeNames) if (b.nodeNames.has(n)) out.add(n);
  return { nodeNames: out };
}

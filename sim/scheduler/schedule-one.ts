// Mirrors pkg/scheduler/schedule_one.go: schedulePod, findNodesThatFitPod,
// findNodesThatPassFilters, numFeasibleNodesToFind, prioritizeNodes and selectHost
// (see "Simplification:" notes).

import type { Rng } from '../engine/rng.ts';
import type { Simulation } from '../engine/simulation.ts';
import type { FilterEntry, ScoreEntry } from '../engine/trace.ts';
import {
  Code,
  CycleState,
  ErrNoNodesAvailable,
  Status,
  codeNames,
  fitErrorMessage,
  newDiagnosis,
  type Diagnosis,
  type NodeInfo,
  type PodInfo,
} from './framework.ts';
import type { Framework, ScoreOutcome } from './runtime.ts';

/** minFeasibleNodesToFind is the minimum number of nodes scored per cycle (when there are that many). */
export const minFeasibleNodesToFind = 100;
/** minFeasibleNodesPercentageToFind is the floor of the adaptive percentage. */
export const minFeasibleNodesPercentageToFind = 5;

/**
 * numFeasibleNodesToFind mirrors numFeasibleNodesToFind: below 100 nodes every node; otherwise
 * the profile's or global percentageOfNodesToScore, or when that is 0 the adaptive
 * 50 - nodes/125 percent (at least 5%), and never fewer than 100 nodes.
 */
export function numFeasibleNodesToFind(
  profilePercentage: number | undefined,
  globalPercentage: number,
  numAllNodes: number,
): number {
  if (numAllNodes < minFeasibleNodesToFind) return numAllNodes;
  let percentage = profilePercentage !== undefined ? profilePercentage : globalPercentage;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < minFeasibleNodesPercentageToFind)
      percentage = minFeasibleNodesPercentageToFind;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  if (numNodes < minFeasibleNodesToFind) return minFeasibleNodesToFind;
  return numNodes;
}

/**
 * nodeEvaluationCost is the virtual time (ms) one node adds to a scheduling cycle, once for the
 * Filter plugins and once more if the node is scored. Simplification: upstream a cycle takes
 * the CPU time its plugins take; here its cost grows linearly with the nodes it evaluates,
 * calibrated to scheduler_perf: at 5,000 nodes numFeasibleNodesToFind is 500, so a cycle that
 * filters and scores 500 nodes costs 3.3 ms, about 300 Pods per second with the client limits
 * raised as scheduler_perf raises them (QPS and burst 5000, test/integration/scheduler_perf
 * util.go mustSetupCluster). scheduler_perf's threshold for SchedulingBasic/5000Nodes_10000Pods
 * is 270 Pods per second (test/integration/scheduler_perf/misc/performance-config.yaml, README).
 */
export const nodeEvaluationCost = 0.0033;

/** schedulingCycleCost is the virtual time (ms) of a cycle that filters and scores these nodes. */
export function schedulingCycleCost(evaluatedNodes: number, scoredNodes: number): number {
  return (evaluatedNodes + scoredNodes) * nodeEvaluationCost;
}

/**
 * selectHost mirrors selectHost: the highest total wins; ties are broken by reservoir sampling,
 * the k-th tied node replacing the choice with probability 1/k (rand.Intn(k) == 0). It returns
 * the index of the chosen node. (The newest upstream replaced it with a heap of node scores,
 * newSortedNodeScores, whose tie-breaking is random only when extenders score.)
 */
export function selectHost(totals: ArrayLike<number>, rng: Rng): number {
  if (totals.length === 0) throw new Error('empty priorityList');
  let maxScore = totals[0];
  let selected = 0;
  let cntOfMaxScore = 1;
  for (let i = 1; i < totals.length; i++) {
    const s = totals[i];
    if (s > maxScore) {
      maxScore = s;
      selected = i;
      cntOfMaxScore = 1;
    } else if (s === maxScore) {
      cntOfMaxScore++;
      if (rng.intn(cntOfMaxScore) === 0) selected = i;
    }
  }
  return selected;
}

/** ScheduleResult mirrors ScheduleResult. */
export interface ScheduleResult {
  suggestedHost: string;
  evaluatedNodes: number;
  feasibleNodes: number;
}

/** FitError mirrors framework.FitError; its message is fitErrorMessage. */
export interface FitError {
  numAllNodes: number;
  diagnosis: Diagnosis;
}

/** ScheduleOutcome is what schedulePod returns instead of (result, error). */
export type ScheduleOutcome =
  | { kind: 'scheduled'; result: ScheduleResult }
  | { kind: 'fitError'; fitError: FitError }
  | { kind: 'noNodes' }
  | { kind: 'error'; status: Status };

/** SchedulingAlgorithm holds the state schedule_one.go keeps on the Scheduler. */
export class SchedulingAlgorithm {
  /** nextStartNodeIndex is where the next cycle resumes filtering, so every node gets its turn. */
  nextStartNodeIndex = 0;
  private readonly sim: Simulation;
  private readonly rng: Rng;
  private readonly nodeInfos: () => readonly NodeInfo[];
  private readonly getNodeInfo: (name: string) => NodeInfo | undefined;

  constructor(
    sim: Simulation,
    rng: Rng,
    nodeInfos: () => readonly NodeInfo[],
    getNodeInfo: (name: string) => NodeInfo | undefined,
  ) {
    this.sim = sim;
    this.rng = rng;
    this.nodeInfos = nodeInfos;
    this.getNodeInfo = getNodeInfo;
  }

  /** schedulePod mirrors schedulePod: filter, then score, then select a host. */
  schedulePod(fwk: Framework, state: CycleState, pod: PodInfo): ScheduleOutcome {
    const allNodes = this.nodeInfos();
    if (allNodes.length === 0) return { kind: 'noNodes' };
    const fit = this.findNodesThatFitPod(fwk, state, pod, allNodes);
    if ('status' in fit) return { kind: 'error', status: fit.status };
    const { feasibleNodes, diagnosis } = fit;
    if (feasibleNodes.length === 0)
      return { kind: 'fitError', fitError: { numAllNodes: allNodes.length, diagnosis } };
    // When only one node passes the filters, it is used without scoring.
    if (feasibleNodes.length === 1) {
      return {
        kind: 'scheduled',
        result: {
          suggestedHost: feasibleNodes[0].name,
          evaluatedNodes: 1 + diagnosis.nodeToStatus.len,
          feasibleNodes: 1,
        },
      };
    }
    const scores = this.prioritizeNodes(fwk, state, pod, feasibleNodes);
    if ('status' in scores) return { kind: 'error', status: scores.status };
    const i = selectHost(scores.totals, this.rng);
    return {
      kind: 'scheduled',
      result: {
        suggestedHost: feasibleNodes[i].name,
        evaluatedNodes: feasibleNodes.length + diagnosis.nodeToStatus.len,
        feasibleNodes: feasibleNodes.length,
      },
    };
  }

  /**
   * findNodesThatFitPod mirrors findNodesThatFitPod: PreFilter (which may reject the pod or
   * narrow the nodes), then Filter from nextStartNodeIndex, which then advances by the number of
   * nodes processed.
   */
  findNodesThatFitPod(
    fwk: Framework,
    state: CycleState,
    pod: PodInfo,
    allNodes: readonly NodeInfo[],
  ): { feasibleNodes: NodeInfo[]; diagnosis: Diagnosis } | { status: Status } {
    const diagnosis = newDiagnosis();
    const pre = fwk.runPreFilterPlugins(state, pod);
    for (const name of pre.unschedulablePlugins) diagnosis.unschedulablePlugins.add(name);
    if (pre.status) {
      if (!pre.status.isRejected()) return { status: pre.status };
      // Every node gets the PreFilter status, so that preemption sees it.
      diagnosis.nodeToStatus.absentNodesStatus = pre.status;
      diagnosis.preFilterMsg = pre.status.message();
      return { feasibleNodes: [], diagnosis };
    }
    let nodes = allNodes;
    if (pre.result && pre.result.nodeNames) {
      // Simplification: upstream walks PreFilterResult.NodeNames in Go map order (random); the
      // simulator walks them sorted by name.
      nodes = [...pre.result.nodeNames]
        .sort()
        .map((n) => this.getNodeInfo(n))
        .filter((n): n is NodeInfo => n !== undefined);
      const plugins = [...pre.pluginsWithNodes].sort();
      diagnosis.nodeToStatus.absentNodesStatus = new Status(Code.UnschedulableAndUnresolvable, [
        `node(s) didn't satisfy plugin(s) [${plugins.join(' ')}]`,
      ]);
    }
    const feasibleNodes = this.findNodesThatPassFilters(fwk, state, pod, diagnosis, nodes);
    const processedNodes = feasibleNodes.length + diagnosis.nodeToStatus.len;
    this.nextStartNodeIndex = (this.nextStartNodeIndex + processedNodes) % allNodes.length;
    return { feasibleNodes, diagnosis };
  }

  /**
   * findNodesThatPassFilters mirrors findNodesThatPassFilters: run the filters on nodes starting
   * at nextStartNodeIndex until numFeasibleNodesToFind nodes fit.
   * Simplification: nodes are checked one after another; upstream checks them on 16 goroutines,
   * so it may examine a few more nodes than needed before the search is cancelled.
   */
  findNodesThatPassFilters(
    fwk: Framework,
    state: CycleState,
    pod: PodInfo,
    diagnosis: Diagnosis,
    nodes: readonly NodeInfo[],
  ): NodeInfo[] {
    const numAllNodes = nodes.length;
    const numNodesToFind = numFeasibleNodesToFind(
      fwk.percentageOfNodesToScore,
      this.sim.settings.percentageOfNodesToScore,
      numAllNodes,
    );
    // The feasible list is reused from cycle to cycle (like the score buffers): it is only read
    // until schedulePod returns, and with a steady numNodesToFind it never reallocates.
    const feasibleNodes = this.feasibleNodes;
    let found = 0;
    if (numAllNodes === 0) {
      feasibleNodes.length = 0;
      return feasibleNodes;
    }
    const trace = this.sim.traceLevel === 'full';
    const podKey = trace ? `${pod.namespace}/${pod.pod.metadata.name}` : '';
    const start = this.nextStartNodeIndex % numAllNodes;
    // The nodes are filtered in chunks, plugin by plugin (runFilterPluginsOnNodes), and the
    // results are then taken in node order exactly as a node-by-node loop would: the search
    // stops at the node where numNodesToFind nodes fit, and later nodes of the chunk are dropped.
    const chunk = this.chunkNodes;
    const statuses = this.chunkStatuses;
    let i = 0;
    while (i < numAllNodes && found < numNodesToFind) {
      const want = numNodesToFind - found;
      const k = Math.min(numAllNodes - i, Math.max(16, Math.min(want, 256)));
      for (let c = 0; c < k; c++) {
        let j = start + i + c;
        if (j >= numAllNodes) j -= numAllNodes;
        chunk[c] = nodes[j];
      }
      fwk.runFilterPluginsOnNodes(state, pod, chunk, k, statuses);
      let c = 0;
      for (; c < k; c++) {
        const nodeInfo = chunk[c];
        const status = statuses[c];
        if (trace) this.sim.record(filterEntry(state, podKey, nodeInfo, status));
        if (status === null) {
          feasibleNodes[found++] = nodeInfo;
          if (found >= numNodesToFind) {
            c++;
            break;
          }
        } else {
          diagnosis.nodeToStatus.set(nodeInfo, status);
          if (status.isRejected() && status.plugin)
            diagnosis.unschedulablePlugins.add(status.plugin);
        }
      }
      i += c;
    }
    feasibleNodes.length = found;
    return feasibleNodes;
  }

  private readonly feasibleNodes: NodeInfo[] = [];
  private readonly chunkNodes: NodeInfo[] = [];
  private readonly chunkStatuses: (Status | null)[] = [];

  /** prioritizeNodes mirrors prioritizeNodes: PreScore, then Score (normalised and weighted). */
  prioritizeNodes(
    fwk: Framework,
    state: CycleState,
    pod: PodInfo,
    nodes: readonly NodeInfo[],
  ): ScoreOutcome | { status: Status } {
    const pre = fwk.runPreScorePlugins(state, pod, nodes);
    if (pre) return { status: pre };
    const out = fwk.runScorePlugins(state, pod, nodes);
    if (this.sim.traceLevel === 'full') {
      const podKey = `${pod.namespace}/${pod.pod.metadata.name}`;
      for (let i = 0; i < nodes.length; i++) this.sim.record(scoreEntry(out, i, podKey, nodes[i]));
    }
    return out;
  }
}

const SCHEDULER = 'kube-scheduler';

/** filterEntry builds the trace entry of one node's Filter results. */
function filterEntry(
  state: CycleState,
  pod: string,
  nodeInfo: NodeInfo,
  status: Status | null,
): Omit<FilterEntry, 't' | 'seq'> {
  const plugins: FilterEntry['plugins'] = [];
  for (const p of state.filters) {
    if (status && p.name === status.plugin) {
      const code = codeNames[status.code];
      plugins.push({
        plugin: p.name,
        status:
          code === 'Unschedulable' || code === 'UnschedulableAndUnresolvable'
            ? code
            : 'Unschedulable',
        reason: status.message(),
      });
      break;
    }
    plugins.push({ plugin: p.name, status: 'Success' });
  }
  return {
    kind: 'filter',
    from: SCHEDULER,
    to: SCHEDULER,
    pod,
    node: nodeInfo.name,
    plugins,
    feasible: status === null,
  };
}

/** scoreEntry builds the trace entry of one node's normalised, weighted scores. */
function scoreEntry(
  out: ScoreOutcome,
  i: number,
  pod: string,
  nodeInfo: NodeInfo,
): Omit<ScoreEntry, 't' | 'seq'> {
  const plugins: ScoreEntry['plugins'] = [];
  for (let p = 0; p < out.plugins.length; p++)
    plugins.push({ plugin: out.plugins[p].name, score: out.scores[p][i], weight: out.weights[p] });
  return {
    kind: 'score',
    from: SCHEDULER,
    to: SCHEDULER,
    pod,
    node: nodeInfo.name,
    plugins,
    total: out.totals[i],
  };
}

/** fitErrorToMessage renders the FailedScheduling message of a FitError. */
export function fitErrorToMessage(e: FitError): string {
  return fitErrorMessage(e.numAllNodes, e.diagnosis);
}

export { ErrNoNodesAvailable };

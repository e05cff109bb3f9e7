// Mirrors pkg/scheduler/framework/types.go, cycle_state.go, interface.go and
// staging/src/k8s.io/kube-scheduler/framework/interface.go (see "Simplification:" notes).
//
// The types every plugin shares: Status codes, PodInfo and NodeInfo (with incrementally kept
// sums of requested resources), CycleState, the plugin interfaces, FitError and its message, and
// the default profile (getDefaultPlugins) with its score weights.

import { labelSelectorAsSelector, type Selector } from '../api/labels.ts';
import { milliValue, value } from '../api/quantity.ts';
import type {
  Container,
  Node,
  Pod,
  PodAffinityTerm,
  ResourceList,
  Taint,
  WeightedPodAffinityTerm,
} from '../api/types.ts';

// ---- constants (staging/src/k8s.io/kube-scheduler/framework/interface.go, pkg/scheduler/util) ----

/** MaxNodeScore is the maximum score a Score plugin may return (MaxScore). */
export const MaxNodeScore = 100;
/** MinNodeScore is the minimum score a Score plugin may return (MinScore). */
export const MinNodeScore = 0;
/** DefaultMilliCPURequest is the cpu a container without a cpu request counts as when scoring. */
export const DefaultMilliCPURequest = 100;
/** DefaultMemoryRequest is the memory a container without a memory request counts as (200Mi). */
export const DefaultMemoryRequest = 200 * 1024 * 1024;

/** Well-known labels (staging/src/k8s.io/api/core/v1/well_known_labels.go). */
export const LabelHostname = 'kubernetes.io/hostname';
export const LabelTopologyZone = 'topology.kubernetes.io/zone';
export const LabelTopologyRegion = 'topology.kubernetes.io/region';
/** TaintNodeUnschedulable is the taint NodeUnschedulable checks tolerations against. */
export const TaintNodeUnschedulable = 'node.kubernetes.io/unschedulable';

// ---- Status ----

/** Code is a framework status code, numbered as upstream's iota. */
export const Code = {
  Success: 0,
  Error: 1,
  Unschedulable: 2,
  UnschedulableAndUnresolvable: 3,
  Wait: 4,
  Skip: 5,
  Pending: 6,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** codeName prints a Code as upstream's Code.String(). */
export const codeNames = [
  'Success',
  'Error',
  'Unschedulable',
  'UnschedulableAndUnresolvable',
  'Wait',
  'Skip',
  'Pending',
] as const;

/**
 * Status is the result of running a plugin. A nil *Status in Go means Success; here `null`
 * means Success so that the hot path allocates nothing.
 */
export class Status {
  readonly code: Code;
  readonly reasons: readonly string[];
  /** plugin is the name of the plugin that returned this status (set by the framework). */
  plugin: string;

  constructor(code: Code, reasons: readonly string[] = [], plugin = '') {
    this.code = code;
    this.reasons = reasons;
    this.plugin = plugin;
  }

  /** message joins the reasons with ", " as Status.Message does. */
  message(): string {
    return this.reasons.join(', ');
  }

  /** isRejected is true for Unschedulable, UnschedulableAndUnresolvable and Pending. */
  isRejected(): boolean {
    return (
      this.code === Code.Unschedulable ||
      this.code === Code.UnschedulableAndUnresolvable ||
      this.code === Code.Pending
    );
  }
}

/** newStatus mirrors fwk.NewStatus(code, reasons...). */
export function newStatus(code: Code, ...reasons: string[]): Status {
  return new Status(code, reasons);
}

/** isSuccess treats null as Success, as upstream treats a nil *Status. */
export function isSuccess(s: Status | null | undefined): boolean {
  return !s || s.code === Code.Success;
}

/** SkipStatus is the shared Skip status PreFilter/PreScore return to switch a plugin off for one cycle. */
export const SkipStatus = new Status(Code.Skip);

// The common PreFilter results, shared so that a scheduling cycle allocates none for them.
export const PreFilterSuccess = Object.freeze({ status: null });
export const PreFilterSkip = Object.freeze({ status: SkipStatus });

// ---- resources (framework.Resource, component-helpers resource.PodRequests) ----

/** Resource is framework.Resource: cpu in milli-units, memory and ephemeral storage in bytes. */
export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  /** allowedPodNumber is only meaningful for allocatable. */
  allowedPodNumber: number;
  /** scalarResources holds extended resources (hugepages-*, example.com/gpu...), or null. */
  scalarResources: Map<string, number> | null;
}

export function newResource(): Resource {
  return {
    milliCPU: 0,
    memory: 0,
    ephemeralStorage: 0,
    allowedPodNumber: 0,
    scalarResources: null,
  };
}

/** resourceFromList mirrors NewResource(rl): cpu as MilliValue, everything else as Value. */
export function resourceFromList(rl: ResourceList | undefined): Resource {
  const r = newResource();
  if (!rl) return r;
  for (const name in rl) {
    const q = rl[name];
    switch (name) {
      case 'cpu':
        r.milliCPU += milliValue(q);
        break;
      case 'memory':
        r.memory += value(q);
        break;
      case 'pods':
        r.allowedPodNumber += value(q);
        break;
      case 'ephemeral-storage':
        r.ephemeralStorage += value(q);
        break;
      default:
        if (isScalarResourceName(name)) {
          r.scalarResources ??= new Map();
          r.scalarResources.set(name, (r.scalarResources.get(name) ?? 0) + value(q));
        }
    }
  }
  return r;
}

/**
 * isScalarResourceName mirrors schedutil.IsScalarResourceName: extended resources
 * (example.com/gpu), prefixed native resources (kubernetes.io/...), hugepages-* and
 * attachable-volumes-*.
 */
export function isScalarResourceName(name: string): boolean {
  return (
    name.includes('/') || name.startsWith('hugepages-') || name.startsWith('attachable-volumes-')
  );
}

/** PodRequests is the pod's effective request per resource (resourcehelper.PodRequests). */
export interface PodRequests {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  scalarResources: Map<string, number> | null;
}

function containerRequest(c: Container, name: string, nonMissing: boolean): number {
  const req = c.resources?.requests;
  const q = req?.[name];
  if (q === undefined) {
    if (!nonMissing) return 0;
    if (name === 'cpu') return DefaultMilliCPURequest;
    if (name === 'memory') return DefaultMemoryRequest;
    return 0;
  }
  return name === 'cpu' ? milliValue(q) : value(q);
}

/**
 * podRequestFor mirrors resourcehelper.PodRequests for one resource: the sum over app containers
 * and restartable (sidecar) init containers, or the largest non-sidecar init container plus the
 * sidecars started before it, whichever is larger. With nonMissing, a container that does not
 * request cpu or memory counts as DefaultMilliCPURequest / DefaultMemoryRequest (an explicit "0"
 * stays 0). Simplification: pod overhead and pod-level resources are not modelled.
 */
export function podRequestFor(pod: Pod, name: string, nonMissing: boolean): number {
  let reqs = 0;
  for (const c of pod.spec.containers) reqs += containerRequest(c, name, nonMissing);
  const inits = pod.spec.initContainers;
  if (inits && inits.length > 0) {
    let restartable = 0;
    let initMax = 0;
    for (const c of inits) {
      let r = containerRequest(c, name, nonMissing);
      if (c.restartPolicy === 'Always') {
        reqs += r;
        restartable += r;
        r = restartable;
      } else {
        r += restartable;
      }
      if (r > initMax) initMax = r;
    }
    if (initMax > reqs) reqs = initMax;
  }
  return reqs;
}

// addScalarRequests adds the pod's request of each extended resource these containers name that
// is not in r yet. Most pods have none, so the map is only created when one is found.
function addScalarRequests(r: PodRequests, pod: Pod, containers: readonly Container[]): void {
  for (const c of containers) {
    const req = c.resources?.requests;
    if (!req) continue;
    for (const n in req) {
      if (n === 'cpu' || n === 'memory' || n === 'ephemeral-storage' || !isScalarResourceName(n))
        continue;
      r.scalarResources ??= new Map();
      if (!r.scalarResources.has(n)) r.scalarResources.set(n, podRequestFor(pod, n, false));
    }
  }
}

/** computePodRequests returns the pod's requests for every resource it names. */
export function computePodRequests(pod: Pod, nonMissing: boolean): PodRequests {
  const r: PodRequests = {
    milliCPU: podRequestFor(pod, 'cpu', nonMissing),
    memory: podRequestFor(pod, 'memory', nonMissing),
    ephemeralStorage: podRequestFor(pod, 'ephemeral-storage', false),
    scalarResources: null,
  };
  // Extended resources, in the order the containers (then the init containers) name them.
  addScalarRequests(r, pod, pod.spec.containers);
  if (pod.spec.initContainers) addScalarRequests(r, pod, pod.spec.initContainers);
  return r;
}

// ---- PodInfo ----

/** AffinityTerm is a parsed PodAffinityTerm (fwk.AffinityTerm). */
export interface AffinityTerm {
  namespaces: ReadonlySet<string>;
  selector: Selector;
  topologyKey: string;
  /** key identifies the term (namespaces + selector) for the pod count index. */
  key: string;
}

/** WeightedAffinityTerm is a parsed WeightedPodAffinityTerm. */
export interface WeightedAffinityTerm extends AffinityTerm {
  weight: number;
}

/** HostPort is one (protocol, port) a container asks for on the node (fwk.ProtocolPort). */
export interface HostPort {
  protocol: string;
  port: number;
  /** key is "protocol/port", the key of NodeInfo.usedPorts. Simplification: hostIP is always 0.0.0.0. */
  key: string;
}

/**
 * PodInfo is a Pod with everything the plugins need precomputed once (framework.PodInfo plus the
 * resource sums NodeInfo.update computes).
 */
export interface PodInfo {
  pod: Pod;
  /** uid is the cache key (GetPodKey). */
  uid: string;
  namespace: string;
  labels: Record<string, string>;
  /** terminating is true once deletionTimestamp is set. */
  terminating: boolean;
  priority: number;
  requests: PodRequests;
  /** nonZeroMilliCPU and nonZeroMemory use the non-zero defaults for containers without requests. */
  nonZeroMilliCPU: number;
  nonZeroMemory: number;
  hostPorts: HostPort[];
  requiredAffinityTerms: AffinityTerm[];
  requiredAntiAffinityTerms: AffinityTerm[];
  preferredAffinityTerms: WeightedAffinityTerm[];
  preferredAntiAffinityTerms: WeightedAffinityTerm[];
  /** hasAffinity mirrors podWithAffinity: the pod has podAffinity or podAntiAffinity. */
  hasAffinity: boolean;
  /** hasRequiredAntiAffinity mirrors podWithRequiredAntiAffinity. */
  hasRequiredAntiAffinity: boolean;
  /** labelsKey is the labels as a string, computed on first use (a cache key). */
  labelsKey?: string;
}

const EMPTY_LABELS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** selectorKey renders a selector uniquely, telling a nil selector (nothing) from an empty one. */
export function selectorKey(s: Selector): string {
  return s.nothing ? '<nothing>' : s.toString();
}

function newAffinityTerm(pod: Pod, t: PodAffinityTerm): AffinityTerm {
  const selector = labelSelectorAsSelector(t.labelSelector);
  // getNamespacesFromPodAffinityTerm: no namespaces means the pod's own namespace.
  const nsList =
    t.namespaces && t.namespaces.length > 0
      ? [...t.namespaces].sort()
      : [pod.metadata.namespace ?? 'default'];
  const namespaces = new Set(nsList);
  return {
    namespaces,
    selector,
    topologyKey: t.topologyKey,
    key: `${nsList.join(',')}|${selectorKey(selector)}`,
  };
}

function newWeightedTerm(pod: Pod, t: WeightedPodAffinityTerm): WeightedAffinityTerm {
  return { ...newAffinityTerm(pod, t.podAffinityTerm), weight: t.weight };
}

// Most pods have no host ports and no affinity terms: they share these empty lists (never
// modified).
const NO_HOST_PORTS: HostPort[] = Object.freeze([]) as unknown as HostPort[];
const NO_TERMS: AffinityTerm[] = Object.freeze([]) as unknown as AffinityTerm[];
const NO_WEIGHTED_TERMS: WeightedAffinityTerm[] = Object.freeze(
  [],
) as unknown as WeightedAffinityTerm[];

function affinityTerms(pod: Pod, terms: PodAffinityTerm[] | undefined): AffinityTerm[] {
  return terms && terms.length > 0 ? terms.map((t) => newAffinityTerm(pod, t)) : NO_TERMS;
}

function weightedTerms(
  pod: Pod,
  terms: WeightedPodAffinityTerm[] | undefined,
): WeightedAffinityTerm[] {
  return terms && terms.length > 0 ? terms.map((t) => newWeightedTerm(pod, t)) : NO_WEIGHTED_TERMS;
}

/** newPodInfo mirrors framework.NewPodInfo, plus the per-pod resource sums. */
export function newPodInfo(pod: Pod): PodInfo {
  const requests = computePodRequests(pod, false);
  const aff = pod.spec.affinity;
  const pa = aff?.podAffinity;
  const paa = aff?.podAntiAffinity;
  let hostPorts = NO_HOST_PORTS;
  for (const c of pod.spec.containers) {
    for (const p of c.ports ?? []) {
      if (p.hostPort && p.hostPort > 0) {
        const protocol = p.protocol ?? 'TCP';
        if (hostPorts === NO_HOST_PORTS) hostPorts = [];
        hostPorts.push({ protocol, port: p.hostPort, key: `${protocol}/${p.hostPort}` });
      }
    }
  }
  return {
    pod,
    uid: pod.metadata.uid,
    namespace: pod.metadata.namespace ?? 'default',
    labels: pod.metadata.labels ?? EMPTY_LABELS,
    terminating:
      pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null,
    priority: pod.spec.priority ?? 0,
    requests,
    nonZeroMilliCPU: podRequestFor(pod, 'cpu', true),
    nonZeroMemory: podRequestFor(pod, 'memory', true),
    hostPorts,
    requiredAffinityTerms: affinityTerms(pod, pa?.requiredDuringSchedulingIgnoredDuringExecution),
    requiredAntiAffinityTerms: affinityTerms(
      pod,
      paa?.requiredDuringSchedulingIgnoredDuringExecution,
    ),
    preferredAffinityTerms: weightedTerms(pod, pa?.preferredDuringSchedulingIgnoredDuringExecution),
    preferredAntiAffinityTerms: weightedTerms(
      pod,
      paa?.preferredDuringSchedulingIgnoredDuringExecution,
    ),
    hasAffinity: !!aff && (!!pa || !!paa),
    hasRequiredAntiAffinity:
      !!paa && (paa.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0,
  };
}

// ---- NodeInfo ----

/** ImageStateSummary is the cluster-wide state of one image name (fwk.ImageStateSummary). */
export interface ImageStateSummary {
  /** size is the image size in bytes, as first reported by a node. */
  size: number;
  /** numNodes is the number of nodes that have the image. */
  numNodes: number;
  /** present[nodeInfo.id] is 1 when that node has the image (sim index for a fast lookup). */
  present: Uint8Array;
}

const EMPTY_TAINTS: readonly Taint[] = Object.freeze([]) as readonly Taint[];

const zoneIds = new Map<string, number>();

/**
 * zoneIdOf interns a zone label value as a small integer, so that spreading by zone can count
 * pods in arrays instead of maps. A missing label interns as "" (what a Go map lookup returns).
 */
export function zoneIdOf(zone: string | undefined): number {
  const v = zone ?? '';
  let id = zoneIds.get(v);
  if (id === undefined) {
    id = zoneIds.size;
    zoneIds.set(v, id);
  }
  return id;
}

/** numZoneIds is the number of zone values interned so far. */
export function numZoneIds(): number {
  return zoneIds.size;
}

/**
 * NodeInfo is node-level aggregated information (framework.NodeInfo). Sums are kept
 * incrementally as pods are added and removed; nothing is cloned per scheduling cycle.
 */
export class NodeInfo {
  /** id is a small dense integer, stable while the node exists, used to index per-cycle arrays. */
  readonly id: number;
  name: string;
  node!: Node;
  /** hasNode is false for a node that was deleted while pods still point at it (a "ghost"). */
  hasNode = false;
  labels: Record<string, string> = EMPTY_LABELS;
  taints: readonly Taint[] = EMPTY_TAINTS;
  unschedulable = false;
  /** zoneKey is utilnode.GetZoneKey: region and zone, "" when the node has neither. */
  zoneKey = '';
  /** zone and hostname are the values of the well-known labels, read often by the spreading plugins. */
  zone: string | undefined = undefined;
  hostname: string | undefined = undefined;
  /** zoneId is zoneIdOf(zone). */
  zoneId = 0;

  pods: PodInfo[] = [];
  podsWithAffinity: PodInfo[] = [];
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  /** usedPorts counts pods per "protocol/port" (fwk.HostPortInfo). */
  usedPorts = new Map<string, number>();

  /** requested is the sum of the pods' actual requests (assumed pods included). */
  requested: Resource = newResource();
  /** nonZeroRequested sums requests with the non-zero defaults for cpu and memory. */
  nonZeroRequested: Resource = newResource();
  allocatable: Resource = newResource();

  // Hot copies of the sums above as plain fields, so the filter and score loops read one object
  // per node (requested, nonZeroRequested and allocatable stay the upstream-shaped view).
  allocMilliCPU = 0;
  allocMemory = 0;
  allocEphemeralStorage = 0;
  allowedPodNumber = 0;
  reqMilliCPU = 0;
  reqMemory = 0;
  reqEphemeralStorage = 0;
  nonZeroMilliCPU = 0;
  nonZeroMemory = 0;
  podCount = 0;
  taintCount = 0;

  /** imageStates maps every image name on the node to the cluster-wide summary. */
  imageStates = new Map<string, ImageStateSummary>();
  /** generation is bumped on every change, as upstream's nextGeneration(). */
  generation = 0;

  constructor(id: number, name: string) {
    this.id = id;
    this.name = name;
  }

  /** setNode mirrors NodeInfo.SetNode: allocatable and the node's scheduling properties. */
  setNode(node: Node): void {
    this.node = node;
    this.hasNode = true;
    this.name = node.metadata.name;
    this.labels = node.metadata.labels ?? EMPTY_LABELS;
    this.taints = node.spec.taints ?? EMPTY_TAINTS;
    this.unschedulable = node.spec.unschedulable === true;
    this.allocatable = resourceFromList(node.status.allocatable);
    this.allocMilliCPU = this.allocatable.milliCPU;
    this.allocMemory = this.allocatable.memory;
    this.allocEphemeralStorage = this.allocatable.ephemeralStorage;
    this.allowedPodNumber = this.allocatable.allowedPodNumber;
    this.taintCount = this.taints.length;
    const region = this.labels[LabelTopologyRegion] ?? '';
    const zone = this.labels[LabelTopologyZone] ?? '';
    this.zoneKey = region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
    this.zone = this.labels[LabelTopologyZone];
    this.zoneId = zoneIdOf(this.zone);
    this.hostname = this.labels[LabelHostname];
    this.generation++;
  }

  /** label returns the value of a node label, with a fast path for zone and hostname. */
  label(key: string): string | undefined {
    if (key === LabelTopologyZone) return this.zone;
    if (key === LabelHostname) return this.hostname;
    return this.labels[key];
  }

  /** addPodInfo mirrors NodeInfo.AddPodInfo. */
  addPodInfo(pi: PodInfo): void {
    this.pods.push(pi);
    if (pi.hasAffinity) this.podsWithAffinity.push(pi);
    if (pi.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity.push(pi);
    this.update(pi, 1);
  }

  /** removePod mirrors NodeInfo.RemovePod; it returns false when the pod was not on the node. */
  removePod(uid: string): boolean {
    const i = indexOfUid(this.pods, uid);
    if (i < 0) return false;
    const pi = this.pods[i];
    swapRemove(this.pods, i);
    if (pi.hasAffinity) swapRemove(this.podsWithAffinity, indexOfUid(this.podsWithAffinity, uid));
    if (pi.hasRequiredAntiAffinity)
      swapRemove(
        this.podsWithRequiredAntiAffinity,
        indexOfUid(this.podsWithRequiredAntiAffinity, uid),
      );
    this.update(pi, -1);
    return true;
  }

  private update(pi: PodInfo, sign: 1 | -1): void {
    const r = pi.requests;
    this.requested.milliCPU += sign * r.milliCPU;
    this.requested.memory += sign * r.memory;
    this.requested.ephemeralStorage += sign * r.ephemeralStorage;
    if (r.scalarResources) {
      this.requested.scalarResources ??= new Map();
      for (const [k, v] of r.scalarResources)
        this.requested.scalarResources.set(
          k,
          (this.requested.scalarResources.get(k) ?? 0) + sign * v,
        );
    }
    this.nonZeroRequested.milliCPU += sign * pi.nonZeroMilliCPU;
    this.nonZeroRequested.memory += sign * pi.nonZeroMemory;
    this.reqMilliCPU = this.requested.milliCPU;
    this.reqMemory = this.requested.memory;
    this.reqEphemeralStorage = this.requested.ephemeralStorage;
    this.nonZeroMilliCPU = this.nonZeroRequested.milliCPU;
    this.nonZeroMemory = this.nonZeroRequested.memory;
    this.podCount = this.pods.length;
    for (const hp of pi.hostPorts) {
      const n = (this.usedPorts.get(hp.key) ?? 0) + sign;
      if (n <= 0) this.usedPorts.delete(hp.key);
      else this.usedPorts.set(hp.key, n);
    }
    this.generation++;
  }
}

function indexOfUid(list: PodInfo[], uid: string): number {
  for (let i = 0; i < list.length; i++) if (list[i].uid === uid) return i;
  return -1;
}

function swapRemove<T>(list: T[], i: number): void {
  if (i < 0) return;
  list[i] = list[list.length - 1];
  list.pop();
}

// ---- CycleState ----

const stateKeys = new Map<string, number>();

/**
 * stateKey registers a CycleState key (e.g. "PreFilterNodeResourcesFit") and returns its slot.
 * Simplification: slots are array indexes instead of map keys, so reading state in the per-node
 * hot path costs an array access.
 */
export function stateKey(name: string): number {
  let k = stateKeys.get(name);
  if (k === undefined) {
    k = stateKeys.size;
    stateKeys.set(name, k);
  }
  return k;
}

/** CycleState holds the data plugins compute once per scheduling cycle (framework.CycleState). */
export class CycleState {
  private readonly data: unknown[] = [];
  /** skipFilterPlugins are plugins whose PreFilter returned Skip; their Filter is not run. */
  readonly skipFilterPlugins = new Set<string>();
  /** skipScorePlugins are plugins whose PreScore returned Skip; their Score is not run. */
  readonly skipScorePlugins = new Set<string>();
  /** filters are the Filter plugins to run this cycle (profile order, skipped ones removed). */
  filters: FilterPlugin[] = [];

  write(key: number, value: unknown): void {
    this.data[key] = value;
  }

  read<T>(key: number): T | undefined {
    return this.data[key] as T | undefined;
  }
}

// ---- plugin interfaces ----

/** Plugin is the parent of every extension point. */
export interface Plugin {
  readonly name: string;
}

/** PreFilterResult narrows the nodes Filter runs on; null node names means all nodes. */
export interface PreFilterResult {
  nodeNames: ReadonlySet<string> | null;
}

/** PreFilterPlugin runs once per cycle before Filter. */
export interface PreFilterPlugin extends Plugin {
  /** preFilter returns null (Success), Skip, or a rejecting status; it may narrow the nodes. */
  preFilter(
    state: CycleState,
    pod: PodInfo,
    h: Handle,
  ): { status: Status | null; result?: PreFilterResult };
}

/** FilterPlugin decides whether one node can run the pod. null means Success. */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null;
  /**
   * filterNodes runs filter on nodes[0..n) whose status is still null (Success) and stores
   * each failure in statuses. It gives the same results as calling filter node by node; it
   * exists so that each plugin loops over nodes itself (the simulator's hot path).
   */
  filterNodes?(
    state: CycleState,
    pod: PodInfo,
    nodes: readonly NodeInfo[],
    n: number,
    statuses: (Status | null)[],
  ): void;
}

/** PreScorePlugin runs once per cycle before Score, on the feasible nodes. */
export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], h: Handle): Status | null;
}

/** ScorePlugin ranks a feasible node; NormalizeScore (ScoreExtensions) rescales all of them. */
export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number;
  /** scoreNodes stores score(nodes[i]) in out[i] for every node (a batch form of score). */
  scoreNodes?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: ScoreList): void;
  normalizeScore?(
    state: CycleState,
    pod: PodInfo,
    scores: ScoreList,
    nodes: readonly NodeInfo[],
  ): void;
}

/** ScoreList holds one plugin's score per node (fwk.NodeScoreList without the names). */
export type ScoreList = number[] | Float64Array;

/** PluginScore is one plugin's weighted score for a node (fwk.PluginScore). */
export interface PluginScore {
  name: string;
  /** score is the normalised score times the plugin weight. */
  score: number;
}

/** NodePluginScores is a node's scores (fwk.NodePluginScores). */
export interface NodePluginScores {
  name: string;
  nodeInfo: NodeInfo;
  scores: PluginScore[];
  totalScore: number;
}

/**
 * Handle is what plugins may read besides the pod (fwk.Handle): the snapshot of nodes, the pod
 * count index, and listers for the objects DefaultSelector consults.
 */
export interface Handle {
  /** nodeInfos lists every node in snapshot order (NodeInfos().List()). */
  nodeInfos(): readonly NodeInfo[];
  getNodeInfo(name: string): NodeInfo | undefined;
  /** havePodsWithAffinityList mirrors NodeInfos().HavePodsWithAffinityList(). */
  havePodsWithAffinityList(): readonly NodeInfo[];
  /** havePodsWithRequiredAntiAffinityList mirrors NodeInfos().HavePodsWithRequiredAntiAffinityList(). */
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[];
  /** podCounts returns the live count of pods matching m on each node (see PodCountIndex). */
  podCounts(m: PodMatcher): PodCountIndex;
  /** imageState returns the cluster-wide state of an image name, if any node has it. */
  imageState(name: string): ImageStateSummary | undefined;
  /** defaultSelector mirrors helper.DefaultSelector for a pod (services and owner's selector). */
  defaultSelector(pod: PodInfo): Selector;
  /** countsBySelector memoizes podCounts by constraint selector and namespace (PodTopologySpread). */
  readonly countsBySelector: WeakMap<Selector, Map<string, PodCountIndex>>;
}

/**
 * PodMatcher describes a set of pods to count per node: the pods in one of namespaces whose
 * labels match every selector (and, with excludeTerminating, that are not being deleted).
 */
export interface PodMatcher {
  key: string;
  namespaces: ReadonlySet<string>;
  selectors: readonly Selector[];
  excludeTerminating: boolean;
}

/**
 * PodCountIndex is a live count of matching pods per node.
 * Simplification: upstream recounts by walking every pod of every node each cycle
 * (countPodsMatchSelector, processExistingPod); the simulator keeps these counts incrementally in
 * the cache, which gives the same numbers without scanning 150,000 pods per cycle.
 */
export interface PodCountIndex {
  readonly matcher: PodMatcher;
  /** perNode maps a node to its number of matching pods (absent means 0). */
  readonly perNode: ReadonlyMap<NodeInfo, number>;
  /**
   * dense[nodeInfo.id] is the same count, for array-speed reads (0 beyond its length). It is
   * kept only for large groups (hundreds of nodes); null otherwise.
   */
  readonly dense: Float64Array | null;
  /** perZone[zoneId] sums the counts over live nodes of that zone (0 beyond its length). */
  readonly perZone: Float64Array;
}

/** podMatches evaluates a PodMatcher against a pod. */
export function podMatches(m: PodMatcher, pi: PodInfo): boolean {
  if (m.excludeTerminating && pi.terminating) return false;
  if (!m.namespaces.has(pi.namespace)) return false;
  for (const s of m.selectors) if (!s.matches(pi.labels)) return false;
  return true;
}

// ---- FitError (types.go) ----

/** NoNodeAvailableMsg is the FitError prefix. */
export const NoNodeAvailableMsg = (n: number): string => `0/${n} nodes are available`;
/** ErrNoNodesAvailable is returned when the cluster has no nodes at all. */
export const ErrNoNodesAvailable = 'no nodes available to schedule pods';

/**
 * NodeToStatus mirrors framework.NodeToStatus: the status of each node that was rejected, and a
 * status for the nodes not listed (absentNodesStatus).
 */
export class NodeToStatus {
  readonly nodes: NodeInfo[] = [];
  readonly statuses: Status[] = [];
  absentNodesStatus: Status = new Status(Code.UnschedulableAndUnresolvable);

  set(nodeInfo: NodeInfo, s: Status): void {
    this.nodes.push(nodeInfo);
    this.statuses.push(s);
  }

  get len(): number {
    return this.nodes.length;
  }
}

/** Diagnosis records why a pod did not fit (framework.Diagnosis). */
export interface Diagnosis {
  nodeToStatus: NodeToStatus;
  unschedulablePlugins: Set<string>;
  preFilterMsg: string;
  postFilterMsg: string;
}

export function newDiagnosis(): Diagnosis {
  return {
    nodeToStatus: new NodeToStatus(),
    unschedulablePlugins: new Set(),
    preFilterMsg: '',
    postFilterMsg: '',
  };
}

/** sortReasonsHistogram counts each reason and renders "<count> <reason>" sorted as strings. */
export function sortReasonsHistogram(reasons: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [k, v] of reasons) out.push(`${v} ${k}`);
  // sort.Strings compares bytes; for these ASCII strings that is JS's default code-unit order.
  return out.sort();
}

/** reasonHistogram counts the reasons over the listed nodes plus the absent ones. */
export function reasonHistogram(m: NodeToStatus, numAllNodes: number): Map<string, number> {
  const reasons = new Map<string, number>();
  for (const s of m.statuses) for (const r of s.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
  if (m.len < numAllNodes) {
    for (const r of m.absentNodesStatus.reasons)
      reasons.set(r, (reasons.get(r) ?? 0) + numAllNodes - m.len);
  }
  return reasons;
}

/**
 * fitErrorMessage mirrors FitError.Error():
 * "0/X nodes are available: <PreFilterMsg>. <FilterMsg>. <PostFilterMsg>".
 */
export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg = `${NoNodeAvailableMsg(numAllNodes)}:`;
  if (d.preFilterMsg !== '') {
    msg += ` ${d.preFilterMsg}.`;
  } else {
    const sorted = sortReasonsHistogram(reasonHistogram(d.nodeToStatus, numAllNodes));
    if (sorted.length !== 0) msg += ` ${sorted.join(', ')}.`;
  }
  if (d.postFilterMsg !== '') msg += ` ${d.postFilterMsg}`;
  return msg;
}

// ---- the default profile (pkg/scheduler/apis/config/v1/default_plugins.go) ----

/** PluginConfig names a plugin of a profile and, for Score plugins, its weight. */
export interface PluginConfig {
  name: string;
  weight?: number;
}

/** Profile is a scheduling profile (KubeSchedulerProfile) after defaulting. */
export interface Profile {
  schedulerName: string;
  /** percentageOfNodesToScore overrides the global setting when set. */
  percentageOfNodesToScore?: number;
  plugins: readonly PluginConfig[];
}

/**
 * getDefaultPlugins lists the MultiPoint plugins in upstream order with their Score weights.
 * Simplification: SchedulingGates, the volume plugins (VolumeRestrictions, NodeVolumeLimits,
 * VolumeBinding, VolumeZone) and DefaultBinder are not separate plugins here: the simulator has
 * no volumes or gates, and binding is done by the scheduler itself through pods/binding.
 */
export const defaultPlugins: readonly PluginConfig[] = [
  { name: 'PrioritySort' },
  { name: 'NodeUnschedulable' },
  { name: 'NodeName' },
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodePorts' },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'PodTopologySpread', weight: 2 },
  { name: 'InterPodAffinity', weight: 2 },
  { name: 'DefaultPreemption' },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
];

/** DefaultSchedulerName is the name pods select the default profile with. */
export const DefaultSchedulerName = 'default-scheduler';

export const defaultProfile: Profile = {
  schedulerName: DefaultSchedulerName,
  plugins: defaultPlugins,
};

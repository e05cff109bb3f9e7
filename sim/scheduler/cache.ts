// Mirrors pkg/scheduler/backend/cache/cache.go, node_tree.go and snapshot.go: the scheduler's
// view of nodes and of the pods assigned (or assumed) to them (see "Simplification:" notes).

import type { Selector } from '../api/labels.ts';
import type { ContainerImage, Node, Pod } from '../api/types.ts';
import {
  NodeInfo,
  newPodInfo,
  podMatches,
  type Handle,
  type ImageStateSummary,
  type PodCountIndex,
  type PodInfo,
  type PodMatcher,
} from './framework.ts';

/**
 * NodeTree mirrors nodeTree: nodes grouped by zone (region + zone), listed round-robin across
 * zones so that the first nodes examined are spread over zones. Zones and nodes keep the order in
 * which they were added.
 */
export class NodeTree {
  private readonly tree = new Map<string, string[]>();
  private readonly zones: string[] = [];
  numNodes = 0;

  addNode(name: string, zone: string): void {
    const na = this.tree.get(zone);
    if (na) {
      if (na.includes(name)) return;
      na.push(name);
    } else {
      this.zones.push(zone);
      this.tree.set(zone, [name]);
    }
    this.numNodes++;
  }

  removeNode(name: string, zone: string): void {
    const na = this.tree.get(zone);
    if (!na) return;
    const i = na.indexOf(name);
    if (i < 0) return;
    na.splice(i, 1);
    if (na.length === 0) {
      this.tree.delete(zone);
      this.zones.splice(this.zones.indexOf(zone), 1);
    }
    this.numNodes--;
  }

  /** list returns all node names, taking one node from each zone in turn. */
  list(): string[] {
    const out: string[] = [];
    let nodeIndex = 0;
    while (out.length < this.numNodes) {
      for (const z of this.zones) {
        const na = this.tree.get(z)!;
        if (nodeIndex < na.length) out.push(na[nodeIndex]);
      }
      nodeIndex++;
    }
    return out;
  }
}

/** podState mirrors podState: the pod and whether it is only assumed. */
interface PodState {
  podInfo: PodInfo;
  nodeInfo: NodeInfo;
  assumed: boolean;
  bindingFinished: boolean;
}

/** DENSE_MIN_NODES is the number of nodes from which an index also keeps counts by node id. */
const DENSE_MIN_NODES = 256;

/** CountIndex is the live implementation of PodCountIndex. */
class CountIndex implements PodCountIndex {
  readonly matcher: PodMatcher;
  readonly perNode = new Map<NodeInfo, number>();
  dense: Float64Array | null = null;
  perZone: Float64Array = new Float64Array(8);
  constructor(m: PodMatcher) {
    this.matcher = m;
  }
  add(n: NodeInfo, delta: number): void {
    const v = (this.perNode.get(n) ?? 0) + delta;
    if (v === 0) this.perNode.delete(n);
    else this.perNode.set(n, v);
    if (this.dense) {
      if (n.id >= this.dense.length) this.dense = grow(this.dense, n.id + 1);
      this.dense[n.id] += delta;
    } else if (this.perNode.size >= DENSE_MIN_NODES) {
      // A large group: keep counts by node id too, so Score reads an array.
      let max = 0;
      for (const ni of this.perNode.keys()) if (ni.id > max) max = ni.id;
      this.dense = new Float64Array(Math.max(64, 2 * (max + 1)));
      for (const [ni, c] of this.perNode) this.dense[ni.id] = c;
    }
    if (n.hasNode) this.addZone(n.zoneId, delta);
  }
  countOn(n: NodeInfo): number {
    return this.perNode.get(n) ?? 0;
  }
  addZone(zoneId: number, delta: number): void {
    if (zoneId >= this.perZone.length) this.perZone = grow(this.perZone, zoneId + 1);
    this.perZone[zoneId] += delta;
  }
}

function grow(a: Float64Array, min: number): Float64Array {
  const b = new Float64Array(Math.max(min, 2 * a.length));
  b.set(a);
  return b;
}

/** NamespaceIndexes finds the count indexes a pod may affect, by an anchoring label. */
interface NamespaceIndexes {
  anchored: Map<string, Map<string, CountIndex[]>>;
  unanchored: CountIndex[];
}

function anchorOf(selectors: readonly Selector[]): { key: string; values: string[] } | undefined {
  for (const s of selectors) {
    for (const r of s.requirements)
      if (r.operator === 'In' || r.operator === 'Equals') return { key: r.key, values: r.values };
  }
  return undefined;
}

/**
 * Cache mirrors the scheduler cache: NodeInfos kept up to date from the informers, pods assumed
 * by the scheduler before their binding is observed, and the image states.
 *
 * Simplification: there is no separate Snapshot. A scheduling cycle runs within one engine event,
 * so nothing can change the cache while it runs; the cache itself is the snapshot. The node list
 * is rebuilt only when nodes are added or removed or change zone.
 */
export class Cache {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly nodeTree = new NodeTree();
  private nodeList: NodeInfo[] | null = null;
  private readonly podStates = new Map<string, PodState>();
  private readonly imageStates = new Map<string, ImageStateSummary>();
  private capacity = 64;
  private nextId = 0;
  private readonly freeIds: number[] = [];
  private readonly withAffinity = new Set<NodeInfo>();
  private readonly withRequiredAntiAffinity = new Set<NodeInfo>();
  private withAffinityList: NodeInfo[] | null = null;
  private withRequiredAntiAffinityList: NodeInfo[] | null = null;
  private readonly indexes = new Map<string, CountIndex>();
  private readonly indexesByNamespace = new Map<string, NamespaceIndexes>();
  private readonly podsByNamespace = new Map<string, Set<PodState>>();

  // ---- nodes ----

  private newNodeInfo(name: string): NodeInfo {
    let id = this.freeIds.pop();
    if (id === undefined) {
      id = this.nextId++;
      if (id >= this.capacity) {
        this.capacity *= 2;
        for (const s of this.imageStates.values()) {
          const p = new Uint8Array(this.capacity);
          p.set(s.present);
          s.present = p;
        }
      }
    }
    const ni = new NodeInfo(id, name);
    this.nodes.set(name, ni);
    return ni;
  }

  /** addNode mirrors Cache.AddNode. */
  addNode(node: Node): NodeInfo {
    const name = node.metadata.name;
    let ni = this.nodes.get(name);
    if (!ni) ni = this.newNodeInfo(name);
    else if (ni.hasNode) {
      this.removeNodeImageStates(ni);
      this.nodeTree.removeNode(name, ni.zoneKey);
      this.moveZoneCounts(ni, -1);
    }
    ni.setNode(node);
    this.moveZoneCounts(ni, 1);
    this.addNodeImageStates(node, ni);
    this.nodeTree.addNode(name, ni.zoneKey);
    this.nodeListChanged(ni);
    return ni;
  }

  /** updateNode mirrors Cache.UpdateNode. */
  updateNode(oldNode: Node, newNode: Node): NodeInfo {
    const name = newNode.metadata.name;
    const ni = this.nodes.get(name);
    if (!ni || !ni.hasNode) return this.addNode(newNode);
    const oldZone = ni.zoneKey;
    const oldZoneId = ni.zoneId;
    const imagesChanged = !sameImages(oldNode.status.images, newNode.status.images);
    if (imagesChanged) this.removeNodeImageStates(ni);
    ni.setNode(newNode);
    if (ni.zoneId !== oldZoneId) {
      for (const idx of this.indexes.values()) {
        const c = idx.countOn(ni);
        if (c === 0) continue;
        idx.addZone(oldZoneId, -c);
        idx.addZone(ni.zoneId, c);
      }
    }
    if (imagesChanged) this.addNodeImageStates(newNode, ni);
    if (oldZone !== ni.zoneKey) {
      this.nodeTree.removeNode(name, oldZone);
      this.nodeTree.addNode(name, ni.zoneKey);
      this.nodeList = null;
    }
    return ni;
  }

  /**
   * removeNode mirrors Cache.RemoveNode: a node that still has pods stays as a ghost (without a
   * Node) until its pods are removed, but leaves the node list at once.
   */
  removeNode(node: Node): void {
    const name = node.metadata.name;
    const ni = this.nodes.get(name);
    if (!ni || !ni.hasNode) return;
    this.removeNodeImageStates(ni);
    this.nodeTree.removeNode(name, ni.zoneKey);
    this.moveZoneCounts(ni, -1);
    ni.hasNode = false;
    if (ni.pods.length === 0) this.deleteNodeInfo(ni);
    this.nodeListChanged(ni);
  }

  /**
   * moveZoneCounts takes a live node's pod counts out of (-1) or into (+1) the per-zone sums of
   * every count index, when the node leaves or joins the live list.
   */
  private moveZoneCounts(ni: NodeInfo, sign: 1 | -1): void {
    if (!ni.hasNode) return;
    for (const idx of this.indexes.values()) {
      const c = idx.countOn(ni);
      if (c !== 0) idx.addZone(ni.zoneId, sign * c);
    }
  }

  private deleteNodeInfo(ni: NodeInfo): void {
    this.nodes.delete(ni.name);
    this.freeIds.push(ni.id);
  }

  private nodeListChanged(ni: NodeInfo): void {
    this.nodeList = null;
    this.affinityListsChanged(ni);
  }

  private affinityListsChanged(ni: NodeInfo): void {
    const aff = ni.hasNode && ni.podsWithAffinity.length > 0;
    if (aff !== this.withAffinity.has(ni)) {
      if (aff) this.withAffinity.add(ni);
      else this.withAffinity.delete(ni);
      this.withAffinityList = null;
    }
    const anti = ni.hasNode && ni.podsWithRequiredAntiAffinity.length > 0;
    if (anti !== this.withRequiredAntiAffinity.has(ni)) {
      if (anti) this.withRequiredAntiAffinity.add(ni);
      else this.withRequiredAntiAffinity.delete(ni);
      this.withRequiredAntiAffinityList = null;
    }
  }

  private addNodeImageStates(node: Node, ni: NodeInfo): void {
    ni.imageStates = new Map();
    for (const image of node.status.images ?? []) {
      for (const name of image.names) {
        let s = this.imageStates.get(name);
        if (!s) {
          s = { size: image.sizeBytes, numNodes: 0, present: new Uint8Array(this.capacity) };
          this.imageStates.set(name, s);
        }
        if (s.present[ni.id] === 0) {
          s.present[ni.id] = 1;
          s.numNodes++;
        }
        ni.imageStates.set(name, s);
      }
    }
  }

  private removeNodeImageStates(ni: NodeInfo): void {
    for (const [name, s] of ni.imageStates) {
      if (s.present[ni.id] === 1) {
        s.present[ni.id] = 0;
        s.numNodes--;
        if (s.numNodes === 0) this.imageStates.delete(name);
      }
    }
    ni.imageStates = new Map();
  }

  /** nodeInfoList is the snapshot's NodeInfos().List(): nodes in node-tree order. */
  nodeInfoList(): readonly NodeInfo[] {
    if (!this.nodeList) this.nodeList = this.nodeTree.list().map((n) => this.nodes.get(n)!);
    return this.nodeList;
  }

  getNodeInfo(name: string): NodeInfo | undefined {
    const ni = this.nodes.get(name);
    return ni && ni.hasNode ? ni : undefined;
  }

  get numNodes(): number {
    return this.nodeTree.numNodes;
  }

  havePodsWithAffinityList(): readonly NodeInfo[] {
    this.withAffinityList ??= [...this.withAffinity];
    return this.withAffinityList;
  }

  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    this.withRequiredAntiAffinityList ??= [...this.withRequiredAntiAffinity];
    return this.withRequiredAntiAffinityList;
  }

  imageState(name: string): ImageStateSummary | undefined {
    return this.imageStates.get(name);
  }

  // ---- pods ----

  private nodeInfoFor(nodeName: string): NodeInfo {
    // A pod may arrive before its node: upstream creates an empty NodeInfo for it.
    return this.nodes.get(nodeName) ?? this.newNodeInfo(nodeName);
  }

  private addPodToNode(pi: PodInfo, nodeName: string, assumed: boolean): PodState {
    const ni = this.nodeInfoFor(nodeName);
    ni.addPodInfo(pi);
    this.affinityListsChanged(ni);
    const ps: PodState = { podInfo: pi, nodeInfo: ni, assumed, bindingFinished: false };
    this.podStates.set(pi.uid, ps);
    let set = this.podsByNamespace.get(pi.namespace);
    if (!set) this.podsByNamespace.set(pi.namespace, (set = new Set()));
    set.add(ps);
    this.updateIndexes(pi, ni, 1);
    return ps;
  }

  private removePodState(ps: PodState): void {
    const ni = ps.nodeInfo;
    ni.removePod(ps.podInfo.uid);
    this.affinityListsChanged(ni);
    this.podStates.delete(ps.podInfo.uid);
    this.podsByNamespace.get(ps.podInfo.namespace)?.delete(ps);
    this.updateIndexes(ps.podInfo, ni, -1);
    if (!ni.hasNode && ni.pods.length === 0) this.deleteNodeInfo(ni);
  }

  /** assumePod mirrors Cache.AssumePod: the pod counts on the node before the binding is seen. */
  assumePod(pi: PodInfo): void {
    if (this.podStates.has(pi.uid))
      throw new Error(
        `pod ${pi.namespace}/${pi.pod.metadata.name}(${pi.uid}) is in the cache, so can't be assumed`,
      );
    this.addPodToNode(pi, pi.pod.spec.nodeName!, true);
  }

  /** finishBinding mirrors Cache.FinishBinding. */
  finishBinding(uid: string): void {
    const ps = this.podStates.get(uid);
    if (ps && ps.assumed) ps.bindingFinished = true;
  }

  /** forgetPod mirrors Cache.ForgetPod: undo an assumption whose binding failed. */
  forgetPod(uid: string): void {
    const ps = this.podStates.get(uid);
    if (ps && ps.assumed) this.removePodState(ps);
  }

  /** isAssumedPod mirrors Cache.IsAssumedPod. */
  isAssumedPod(uid: string): boolean {
    return this.podStates.get(uid)?.assumed === true;
  }

  /** addPod mirrors Cache.AddPod: an assigned pod seen by the informer (confirms an assumed one). */
  addPod(pod: Pod): void {
    const ps = this.podStates.get(pod.metadata.uid);
    if (ps && ps.assumed) {
      this.updatePodState(ps, pod);
      const cur = this.podStates.get(pod.metadata.uid)!;
      cur.assumed = false;
      return;
    }
    if (ps) {
      this.updatePodState(ps, pod);
      return;
    }
    this.addPodToNode(newPodInfo(pod), pod.spec.nodeName!, false);
  }

  /** updatePod mirrors Cache.UpdatePod. */
  updatePod(_oldPod: Pod, newPod: Pod): void {
    const ps = this.podStates.get(newPod.metadata.uid);
    if (!ps) {
      this.addPod(newPod);
      return;
    }
    this.updatePodState(ps, newPod);
  }

  /**
   * updatePodState replaces the pod. Simplification: pod specs are immutable in the simulator
   * (no in-place resize), so when labels, deletionTimestamp and nodeName are unchanged the
   * precomputed PodInfo is kept and only its pod object is replaced.
   */
  private updatePodState(ps: PodState, pod: Pod): void {
    const old = ps.podInfo;
    const sameNode = ps.nodeInfo.name === pod.spec.nodeName;
    const terminating = !!pod.metadata.deletionTimestamp;
    if (
      sameNode &&
      terminating === old.terminating &&
      sameLabels(old.labels, pod.metadata.labels)
    ) {
      old.pod = pod;
      return;
    }
    const assumed = ps.assumed;
    this.removePodState(ps);
    const next = this.addPodToNode(newPodInfo(pod), pod.spec.nodeName!, assumed);
    next.bindingFinished = ps.bindingFinished;
  }

  /** removePod mirrors Cache.RemovePod. */
  removePod(pod: Pod): void {
    const ps = this.podStates.get(pod.metadata.uid);
    if (ps) this.removePodState(ps);
  }

  /** podCount is the number of pods in the cache (assumed included). */
  get podCount(): number {
    return this.podStates.size;
  }

  // ---- count indexes ----

  /** podCounts returns (creating on first use) the live per-node count for a matcher. */
  podCounts(m: PodMatcher): PodCountIndex {
    let idx = this.indexes.get(m.key);
    if (idx) return idx;
    idx = new CountIndex(m);
    this.indexes.set(m.key, idx);
    const anchor = anchorOf(m.selectors);
    for (const ns of m.namespaces) {
      let nsi = this.indexesByNamespace.get(ns);
      if (!nsi) this.indexesByNamespace.set(ns, (nsi = { anchored: new Map(), unanchored: [] }));
      if (anchor) {
        let byValue = nsi.anchored.get(anchor.key);
        if (!byValue) nsi.anchored.set(anchor.key, (byValue = new Map()));
        for (const v of anchor.values) {
          const list = byValue.get(v);
          if (list) list.push(idx);
          else byValue.set(v, [idx]);
        }
      } else {
        nsi.unanchored.push(idx);
      }
      for (const ps of this.podsByNamespace.get(ns) ?? [])
        if (podMatches(m, ps.podInfo)) idx.add(ps.nodeInfo, 1);
    }
    return idx;
  }

  private updateIndexes(pi: PodInfo, ni: NodeInfo, delta: number): void {
    const nsi = this.indexesByNamespace.get(pi.namespace);
    if (!nsi) return;
    if (nsi.anchored.size > 0) {
      for (const k in pi.labels) {
        const list = nsi.anchored.get(k)?.get(pi.labels[k]);
        if (!list) continue;
        for (const idx of list) if (podMatches(idx.matcher, pi)) idx.add(ni, delta);
      }
    }
    for (const idx of nsi.unanchored) if (podMatches(idx.matcher, pi)) idx.add(ni, delta);
  }

  /** handle returns the plugins' view of this cache. */
  handle(defaultSelector: (pod: PodInfo) => Selector): Handle {
    return {
      nodeInfos: () => this.nodeInfoList(),
      getNodeInfo: (name) => this.getNodeInfo(name),
      havePodsWithAffinityList: () => this.havePodsWithAffinityList(),
      havePodsWithRequiredAntiAffinityList: () => this.havePodsWithRequiredAntiAffinityList(),
      podCounts: (m) => this.podCounts(m),
      imageState: (name) => this.imageState(name),
      defaultSelector,
      countsBySelector: new WeakMap(),
    };
  }
}

/** sameLabels compares two label maps (a missing map equals an empty one). */
export function sameLabels(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined,
): boolean {
  a ??= {};
  const bb = b ?? {};
  let n = 0;
  for (const k in a) {
    if (a[k] !== bb[k]) return false;
    n++;
  }
  for (const k in bb) if (bb[k] !== undefined) n--;
  return n === 0;
}

function sameImages(a: ContainerImage[] | undefined, b: ContainerImage[] | undefined): boolean {
  if (a === b) return true;
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    if (x[i].sizeBytes !== y[i].sizeBytes || x[i].names.length !== y[i].names.length) return false;
    for (let j = 0; j < x[i].names.length; j++) if (x[i].names[j] !== y[i].names[j]) return false;
  }
  return true;
}

// Mirrors pkg/scheduler/framework/plugins/imagelocality/image_locality.go.

import {
  CycleState,
  MaxNodeScore,
  stateKey,
  type Handle,
  type ImageStateSummary,
  type NodeInfo,
  type PodInfo,
  type PreScorePlugin,
  type ScorePlugin,
} from '../framework.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'ImageLocality';

const mb = 1024 * 1024;
/** minThreshold and maxContainerThreshold bound the image score range (23Mi to 1000Mi per container). */
export const minThreshold = 23 * mb;
export const maxContainerThreshold = 1000 * mb;

const preScoreStateKey = stateKey('PreScore' + Name);

/** normalizedImageName mirrors normalizedImageName: an image without a tag gets ":latest". */
export function normalizedImageName(name: string): string {
  if (name.lastIndexOf(':') <= name.lastIndexOf('/')) return `${name}:latest`;
  return name;
}

/**
 * scaledImageScore mirrors scaledImageScore: the image size scaled by the fraction of nodes that
 * have it, truncated to an integer (the "node heating" mitigation).
 */
export function scaledImageScore(
  state: { size: number; numNodes: number },
  totalNumNodes: number,
): number {
  const spread = state.numNodes / totalNumNodes;
  return Math.trunc(state.size * spread);
}

/** calculatePriority mirrors calculatePriority: clamp to [23Mi, 1000Mi * containers] and scale to 0..100. */
export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = maxContainerThreshold * numContainers;
  if (sumScores < minThreshold) sumScores = minThreshold;
  else if (sumScores > maxThreshold) sumScores = maxThreshold;
  return Math.trunc((MaxNodeScore * (sumScores - minThreshold)) / (maxThreshold - minThreshold));
}

/** ImageLocalityState is what Score needs: each container image's cluster-wide state. */
interface ImageLocalityState {
  images: (ImageStateSummary | undefined)[];
  totalNumNodes: number;
  numContainers: number;
  /** uniform is the score of every node when each image is on all nodes or on none, else -1. */
  uniform: number;
}

/** sumImageScores mirrors sumImageScores over init and app containers. */
export function sumImageScores(s: ImageLocalityState, nodeInfo: NodeInfo): number {
  let sum = 0;
  for (const img of s.images) {
    if (img && img.present[nodeInfo.id] === 1) sum += scaledImageScore(img, s.totalNumNodes);
  }
  return sum;
}

/**
 * ImageLocality is the plugin instance. Upstream has no PreScore; the simulator looks up each
 * container's image once per cycle instead of once per node, which gives the same scores.
 */
export const ImageLocality: PreScorePlugin & ScorePlugin = {
  name: Name,
  preScore(state: CycleState, pod: PodInfo, _nodes, h: Handle) {
    // Sized up front: pushing onto an empty list would allocate spare room every cycle.
    const inits = pod.pod.spec.initContainers ?? [];
    const containers = pod.pod.spec.containers;
    const images = new Array<ImageStateSummary | undefined>(inits.length + containers.length);
    let k = 0;
    for (const c of inits) images[k++] = h.imageState(normalizedImageName(c.image));
    for (const c of containers) images[k++] = h.imageState(normalizedImageName(c.image));
    const totalNumNodes = h.nodeInfos().length;
    const s: ImageLocalityState = {
      images,
      totalNumNodes,
      numContainers: images.length,
      uniform: -1,
    };
    // When every image is on all nodes or on none, all nodes have the same sum.
    let sum = 0;
    let uniform = true;
    for (const img of images) {
      if (!img || img.numNodes === 0) continue;
      if (img.numNodes !== totalNumNodes) uniform = false;
      else sum += scaledImageScore(img, totalNumNodes);
    }
    if (uniform) s.uniform = calculatePriority(sum, s.numContainers);
    state.write(preScoreStateKey, s);
    return null;
  },
  score(state, _pod, nodeInfo) {
    const s = state.read<ImageLocalityState>(preScoreStateKey)!;
    return calculatePriority(sumImageScores(s, nodeInfo), s.numContainers);
  },
  scoreNodes(state, _pod, nodes, out) {
    const s = state.read<ImageLocalityState>(preScoreStateKey)!;
    if (s.uniform >= 0) {
      for (let i = 0; i < nodes.length; i++) out[i] = s.uniform;
      return;
    }
    for (let i = 0; i < nodes.length; i++)
      out[i] = calculatePriority(sumImageScores(s, nodes[i]), s.numContainers);
  },
};

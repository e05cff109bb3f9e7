// The cluster lab's model on the worker side: kubectl-style STATUS cells and "Why?" chains,
// computed from a run. No DOM here, so the worker and unit tests share it.

import { nodeStatusString, printPod, type Node, type Pod } from '../../../sim/index.ts';

/**
 * podStatus is kubectl's READY and STATUS cells for a Pod, from the simulator's own printPod
 * (printers.go#printPod), so the island and `kubectl get pods` always agree.
 */
export function podStatus(pod: Pod): { status: string; ready: string } {
  const cells = printPod(pod, 0).cells;
  return { ready: String(cells[1]), status: String(cells[2]) };
}

/** nodeStatus is kubectl's STATUS cell for a Node (printers.go#printNode) and its Ready status. */
export function nodeStatus(node: Node): { status: string; ready: 'True' | 'False' | 'Unknown' } {
  const s = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').pop()?.status;
  return { status: nodeStatusString(node), ready: s === 'True' || s === 'False' ? s : 'Unknown' };
}

/** describeEntry and whyChain are projections (sim/projections/why.ts). */
export { describeEntry, whyChain } from '../../../sim/index.ts';

// Mirrors pkg/scheduler/framework/plugins/nodeports/node_ports.go (see "Simplification:" notes).

import {
  Code,
  CycleState,
  PreFilterSkip,
  PreFilterSuccess,
  Status,
  stateKey,
  type FilterPlugin,
  type HostPort,
  type NodeInfo,
  type PodInfo,
  type PreFilterPlugin,
} from '../framework.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'NodePorts';

/** ErrReason is the Filter reason when a wanted host port is taken. */
export const ErrReason = "node(s) didn't have free ports for the requested pod ports";

const preFilterStateKey = stateKey('PreFilter' + Name);
const conflict = new Status(Code.Unschedulable, [ErrReason], Name);

/**
 * fitsPorts mirrors fitsPorts: no wanted (protocol, port) is already used on the node.
 * Simplification: the simulator has no hostIP, so every port binds 0.0.0.0 and any pod using the
 * same protocol and port conflicts (HostPortInfo.CheckConflict with the wildcard address).
 */
export function fitsPorts(wantPorts: readonly HostPort[], nodeInfo: NodeInfo): boolean {
  for (const p of wantPorts) if (nodeInfo.usedPorts.has(p.key)) return false;
  return true;
}

/** NodePorts is the plugin instance: PreFilter collects the host ports, Filter checks them. */
export const NodePorts: PreFilterPlugin & FilterPlugin = {
  name: Name,
  preFilter(state: CycleState, pod: PodInfo) {
    // getContainerPorts: the pod asks for no host port, so Filter has nothing to check.
    if (pod.hostPorts.length === 0) return PreFilterSkip;
    state.write(preFilterStateKey, pod.hostPorts);
    return PreFilterSuccess;
  },
  filter(state, _pod, nodeInfo) {
    const want = state.read<HostPort[]>(preFilterStateKey) ?? [];
    return fitsPorts(want, nodeInfo) ? null : conflict;
  },
  filterNodes(state, _pod, nodes, n, statuses) {
    const want = state.read<HostPort[]>(preFilterStateKey) ?? [];
    for (let i = 0; i < n; i++)
      if (statuses[i] === null && !fitsPorts(want, nodes[i])) statuses[i] = conflict;
  },
};

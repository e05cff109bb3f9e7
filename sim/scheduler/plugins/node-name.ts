// Mirrors pkg/scheduler/framework/plugins/nodename/node_name.go.

import { Code, Status, type FilterPlugin, type NodeInfo, type PodInfo } from '../framework.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'NodeName';

/** ErrReason is the Filter reason when spec.nodeName names another node. */
export const ErrReason = "node(s) didn't match the requested node name";

const mismatch = new Status(Code.UnschedulableAndUnresolvable, [ErrReason], Name);

/** fits mirrors Fits: the pod names no node, or names this one. */
export function fits(pod: PodInfo, nodeInfo: NodeInfo): boolean {
  const want = pod.pod.spec.nodeName;
  return want === undefined || want === '' || want === nodeInfo.name;
}

/** NodeName is the plugin instance. */
export const NodeName: FilterPlugin = {
  name: Name,
  filter: (_state, pod, nodeInfo) => (fits(pod, nodeInfo) ? null : mismatch),
  filterNodes(_state, pod, nodes, n, statuses) {
    const want = pod.pod.spec.nodeName;
    if (want === undefined || want === '') return;
    for (let i = 0; i < n; i++)
      if (statuses[i] === null && nodes[i].name !== want) statuses[i] = mismatch;
  },
};

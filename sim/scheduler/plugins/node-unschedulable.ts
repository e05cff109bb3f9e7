// Mirrors pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go.

import type { Taint } from '../../api/types.ts';
import {
  Code,
  Status,
  TaintNodeUnschedulable,
  type FilterPlugin,
  type NodeInfo,
  type PodInfo,
} from '../framework.ts';
import { tolerationsTolerateTaint } from './helper.ts';

/** Name is the plugin name in the registry and in profiles. */
export const Name = 'NodeUnschedulable';

/** ErrReasonUnschedulable is the Filter reason for a cordoned node. */
export const ErrReasonUnschedulable = 'node(s) were unschedulable';

const unschedulableTaint: Taint = { key: TaintNodeUnschedulable, effect: 'NoSchedule' };
const unschedulableStatus = new Status(
  Code.UnschedulableAndUnresolvable,
  [ErrReasonUnschedulable],
  Name,
);

/**
 * filter rejects a node with spec.unschedulable unless the pod tolerates the
 * node.kubernetes.io/unschedulable:NoSchedule taint.
 */
export function filter(pod: PodInfo, nodeInfo: NodeInfo): Status | null {
  if (!nodeInfo.unschedulable) return null;
  if (tolerationsTolerateTaint(pod.pod.spec.tolerations, unschedulableTaint)) return null;
  return unschedulableStatus;
}

/** NodeUnschedulable is the plugin instance. */
export const NodeUnschedulable: FilterPlugin = {
  name: Name,
  filter: (_state, pod, nodeInfo) => filter(pod, nodeInfo),
  filterNodes(_state, pod, nodes, n, statuses) {
    for (let i = 0; i < n; i++)
      if (statuses[i] === null && nodes[i].unschedulable) statuses[i] = filter(pod, nodes[i]);
  },
};

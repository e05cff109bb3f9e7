// Mirrors pkg/printers/internalversion/printers.go for Node: the columns AddHandlers declares
// for it and printNode.

import type { AnyObject, Node } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** nodePrinter is Node's table for `kubectl get`. */
export const nodePrinter: Printer = {
  columns: [
    NAME,
    col('Status'),
    col('Roles'),
    AGE,
    col('Version'),
    col('Internal-IP', 1),
    col('External-IP', 1),
    col('OS-Image', 1),
    col('Kernel-Version', 1),
    col('Container-Runtime', 1),
  ],
  row: printNodeRow,
};

function printNodeRow(obj: AnyObject, now: number, wide: boolean): TableRow {
  return printNode(obj as Node, now, wide);
}

/** findNodeRoles mirrors printers.go#findNodeRoles. */
export function findNodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

/** nodeStatusString is the STATUS cell of printNode: Ready / NotReady / Unknown (+SchedulingDisabled). */
export function nodeStatusString(node: Node): string {
  const status: string[] = [];
  const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').pop();
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (status.length === 0) status.push('Unknown');
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/** printNode mirrors printers.go#printNode. */
export function printNode(node: Node, now: number, wide = false): TableRow {
  const roles = findNodeRoles(node).join(',') || '<none>';
  const info = node.status?.nodeInfo;
  const cells: (string | number)[] = [
    node.metadata.name,
    nodeStatusString(node),
    roles,
    translateTimestampSince(node.metadata.creationTimestamp, now),
    info?.kubeletVersion ?? '',
  ];
  if (wide) {
    const addr = (t: string) =>
      (node.status?.addresses ?? []).find((a) => a.type === t)?.address ?? '<none>';
    cells.push(
      addr('InternalIP'),
      addr('ExternalIP'),
      info?.osImage || '<unknown>',
      info?.kernelVersion || '<unknown>',
      info?.containerRuntimeVersion || '<unknown>',
    );
  }
  return { cells, object: node };
}

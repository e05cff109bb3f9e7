// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for Node: describeNode, and the
// objects its describer fetches (see ../../../kubectl/describe.ts for the shared sections).

import type { Event, Lease, Node, Pod, ResourceList } from '../../../api/types.ts';
import { formatRFC1123Z, translateTimestampSince } from '../../../kubectl/duration.ts';
import {
  addQuantity,
  maxQuantity,
  milliValueOf,
  parseQuantityExact,
  quantityString,
  valueOf,
  zeroQuantity,
  type Quantity,
} from '../../../kubectl/quantity.ts';
import { findNodeRoles } from './printer.ts';
import {
  describeEvents,
  PrefixWriter,
  printAnnotationsMultiline,
  printLabelsMultiline,
  printTaintsMultiline,
  quantityText,
  tabbedString,
} from '../../../kubectl/describe.ts';
import type { Describer } from '../../rules.ts';

/** describeNodeObject is the Node describer: it fetches what kubectl fetches and prints. */
export const describeNodeObject: Describer = (ctx, obj) => {
  const node = obj as Node;
  const pods = ctx
    .list<Pod>('pods', undefined, undefined, node.metadata.name)
    .filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  let lease: NodeLeaseInput;
  try {
    lease = { lease: ctx.get<Lease>('leases', 'kube-node-lease', node.metadata.name) };
  } catch (e) {
    const status = (e as { status?: { message?: string } }).status;
    lease = { error: typeof status?.message === 'string' ? status.message : (e as Error).message };
  }
  return describeNode(node, pods, ctx.events(true), lease, ctx.now);
};

/** podRequestsAndLimits mirrors kubectl's resourcehelper.PodRequestsAndLimits (no overhead). */
export function podRequestsAndLimits(pod: Pod): {
  reqs: Record<string, Quantity>;
  limits: Record<string, Quantity>;
} {
  const reqs: Record<string, Quantity> = {};
  const limits: Record<string, Quantity> = {};
  const addList = (into: Record<string, Quantity>, list: ResourceList | undefined) => {
    for (const [k, v] of Object.entries(list ?? {})) {
      const q = parseQuantityExact(v);
      if (q) into[k] = addQuantity(into[k], q);
    }
  };
  for (const c of pod.spec.containers) {
    addList(reqs, c.resources?.requests);
    addList(limits, c.resources?.limits);
  }
  for (const c of pod.spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always') {
      addList(reqs, c.resources?.requests);
      addList(limits, c.resources?.limits);
      continue;
    }
    for (const [k, v] of Object.entries(c.resources?.requests ?? {})) {
      const q = parseQuantityExact(v);
      if (q) reqs[k] = maxQuantity(reqs[k], q);
    }
    for (const [k, v] of Object.entries(c.resources?.limits ?? {})) {
      const q = parseQuantityExact(v);
      if (q) limits[k] = maxQuantity(limits[k], q);
    }
  }
  return { reqs, limits };
}

function pct(part: number, whole: number): number {
  if (whole === 0) return 0;
  return Math.trunc((part / whole) * 100);
}

function describeNodeResource(w: PrefixWriter, pods: Pod[], node: Node, now: number): void {
  w.write(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const allocList =
    Object.keys(node.status?.allocatable ?? {}).length > 0
      ? node.status!.allocatable!
      : (node.status?.capacity ?? {});
  const alloc = (r: string) => parseQuantityExact(allocList[r]);
  const allocCPU = milliValueOf(alloc('cpu'));
  const allocMem = valueOf(alloc('memory'));
  const total = { reqs: {} as Record<string, Quantity>, limits: {} as Record<string, Quantity> };
  for (const pod of pods) {
    const { reqs, limits } = podRequestsAndLimits(pod);
    const cpuReq = reqs.cpu ?? zeroQuantity();
    const cpuLim = limits.cpu ?? zeroQuantity();
    const memReq = reqs.memory ?? zeroQuantity();
    const memLim = limits.memory ?? zeroQuantity();
    w.write(
      1,
      `${pod.metadata.namespace}\t${pod.metadata.name}\t\t${quantityString(cpuReq)} (${pct(milliValueOf(cpuReq), allocCPU)}%)\t${quantityString(cpuLim)} (${pct(milliValueOf(cpuLim), allocCPU)}%)\t${quantityString(memReq)} (${pct(valueOf(memReq), allocMem)}%)\t${quantityString(memLim)} (${pct(valueOf(memLim), allocMem)}%)\t${translateTimestampSince(pod.metadata.creationTimestamp, now)}\n`,
    );
    for (const [k, q] of Object.entries(reqs)) total.reqs[k] = addQuantity(total.reqs[k], q);
    for (const [k, q] of Object.entries(limits)) total.limits[k] = addQuantity(total.limits[k], q);
  }
  w.write(
    0,
    'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n',
  );
  w.write(1, 'Resource\tRequests\tLimits\n');
  w.write(1, '--------\t--------\t------\n');
  const line = (name: string, milli: boolean) => {
    const r = total.reqs[name] ?? zeroQuantity();
    const l = total.limits[name] ?? zeroQuantity();
    const a = milli ? milliValueOf(alloc(name)) : valueOf(alloc(name));
    const v = (q: Quantity) => (milli ? milliValueOf(q) : valueOf(q));
    w.write(
      1,
      `${name}\t${quantityString(r)} (${pct(v(r), a)}%)\t${quantityString(l)} (${pct(v(l), a)}%)\n`,
    );
  };
  line('cpu', true);
  line('memory', false);
  line('ephemeral-storage', false);
  const hugePages = Object.keys(allocList)
    .filter((k) => k.startsWith('hugepages-'))
    .sort();
  for (const h of hugePages) line(h, false);
  const standard = new Set(['cpu', 'memory', 'ephemeral-storage', 'pods', 'storage']);
  const ext = Object.keys(allocList)
    .filter(
      (k) =>
        !k.startsWith('hugepages-') &&
        !standard.has(k) &&
        !k.startsWith('requests.') &&
        !k.startsWith('limits.'),
    )
    .sort();
  for (const e of ext)
    w.write(
      1,
      `${e}\t${quantityString(total.reqs[e] ?? zeroQuantity())}\t${quantityString(total.limits[e] ?? zeroQuantity())}\n`,
    );
}

/** NodeLeaseInput is the node's Lease from kube-node-lease, or the error kubectl got fetching it. */
export type NodeLeaseInput = { lease: Lease } | { error: string };

/**
 * describeNode mirrors describe.describeNode. pods are the node's non-terminated Pods (phase not
 * Succeeded/Failed), events those about the Node.
 */
export function describeNode(
  node: Node,
  pods: Pod[],
  events: Event[],
  lease: NodeLeaseInput,
  now: number,
): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${node.metadata.name}\n`);
    const roles = findNodeRoles(node);
    w.write(0, `Roles:\t${roles.length ? roles.join(',') : '<none>'}\n`);
    printLabelsMultiline(w, 'Labels', node.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', node.metadata.annotations);
    w.write(0, `CreationTimestamp:\t${formatRFC1123Z(node.metadata.creationTimestamp)}\n`);
    printTaintsMultiline(w, 'Taints', node.spec?.taints);
    w.write(0, `Unschedulable:\t${node.spec?.unschedulable ? 'true' : 'false'}\n`);
    if ('lease' in lease) {
      const l = lease.lease;
      w.write(0, 'Lease:\n');
      w.write(1, `HolderIdentity:\t${l.spec?.holderIdentity ?? '<unset>'}\n`);
      w.write(
        1,
        `AcquireTime:\t${l.spec?.acquireTime ? formatRFC1123Z(l.spec.acquireTime) : '<unset>'}\n`,
      );
      w.write(
        1,
        `RenewTime:\t${l.spec?.renewTime ? formatRFC1123Z(l.spec.renewTime) : '<unset>'}\n`,
      );
    } else {
      w.write(0, `Lease:\tFailed to get lease: ${lease.error}\n`);
    }
    const conds = node.status?.conditions ?? [];
    if (conds.length > 0) {
      w.write(
        0,
        'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n',
      );
      w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
      for (const c of conds)
        w.write(
          1,
          `${c.type} \t${c.status} \t${formatRFC1123Z(c.lastHeartbeatTime)} \t${formatRFC1123Z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
        );
    }
    w.write(0, 'Addresses:\n');
    for (const a of node.status?.addresses ?? []) w.write(1, `${a.type}:\t${a.address}\n`);
    const printResourceList = (list: ResourceList) => {
      for (const r of Object.keys(list).sort()) w.write(0, `  ${r}:\t${quantityText(list[r])}\n`);
    };
    if (Object.keys(node.status?.capacity ?? {}).length > 0) {
      w.write(0, 'Capacity:\n');
      printResourceList(node.status!.capacity!);
    }
    if (Object.keys(node.status?.allocatable ?? {}).length > 0) {
      w.write(0, 'Allocatable:\n');
      printResourceList(node.status!.allocatable!);
    }
    const info = node.status?.nodeInfo;
    w.write(0, 'System Info:\n');
    w.write(0, `  Machine ID:\t${info?.machineID ?? ''}\n`);
    w.write(0, `  System UUID:\t${info?.systemUUID ?? ''}\n`);
    w.write(0, `  Boot ID:\t${info?.bootID ?? ''}\n`);
    w.write(0, `  Kernel Version:\t${info?.kernelVersion ?? ''}\n`);
    w.write(0, `  OS Image:\t${info?.osImage ?? ''}\n`);
    w.write(0, `  Operating System:\t${info?.operatingSystem ?? ''}\n`);
    w.write(0, `  Architecture:\t${info?.architecture ?? ''}\n`);
    w.write(0, `  Container Runtime Version:\t${info?.containerRuntimeVersion ?? ''}\n`);
    w.write(0, `  Kubelet Version:\t${info?.kubeletVersion ?? ''}\n`);
    w.write(0, `  Kube-Proxy Version:\t${info?.kubeProxyVersion ?? ''}\n`);
    if (node.spec?.podCIDR) w.write(0, `PodCIDR:\t${node.spec.podCIDR}\n`);
    if (node.spec?.podCIDRs?.length) w.write(0, `PodCIDRs:\t${node.spec.podCIDRs.join(',')}\n`);
    if (node.spec?.providerID) w.write(0, `ProviderID:\t${node.spec.providerID}\n`);
    describeNodeResource(w, pods, node, now);
    describeEvents(w, events, now);
  });
}

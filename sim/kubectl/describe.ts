// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go: describePod, describeNode (with
// describeNodeLease and describeNodeResource), describeDeployment, describeReplicaSet,
// describeService, DescribePodTemplate and DescribeEvents, written through the same
// PrefixWriter + tabwriter (minwidth 0, padding 2) so that alignment matches byte for byte.
// The describers are pure: the caller passes the object, the related objects kubectl would fetch
// (events, pods on the node, the node's Lease, ReplicaSets, EndpointSlices) and `now`.
// Simplification: no volumes, probes, env vars or security contexts are modelled, so those
// sections print their "<none>" forms.

import type {
  Container,
  ContainerState,
  ContainerStatus,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Event,
  Lease,
  Namespace,
  Node,
  Pod,
  PodTemplateSpec,
  ReplicaSet,
  ResourceList,
  Service,
  Taint,
  Toleration,
} from '../api/types.ts';
import { parseTime } from '../engine/clock.ts';
import { formatRFC1123Z, translateTimestampSince } from './duration.ts';
import { findNodeRoles, formatLabels, formatLabelSelector, selectorString } from './printers.ts';
import {
  addQuantity,
  maxQuantity,
  milliValueOf,
  parseQuantityExact,
  quantityString,
  valueOf,
  zeroQuantity,
  type Quantity,
} from './quantity.ts';
import { DESCRIBE_TABWRITER, FLUSH, tabwrite } from './tabwriter.ts';
import { describeContainerVolumes, describeVolumes } from '../registry/core/pods/describe.ts';

/** LastAppliedConfigAnnotation is skipped by printAnnotationsMultiline. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

// PrefixWriter mirrors describe.PrefixWriter: each level indents by two spaces.
export class PrefixWriter {
  private readonly parts: string[] = [];

  write(level: number, text: string): void {
    this.parts.push('  '.repeat(level) + text);
  }

  /** writeLine mirrors WriteLine: the text and a newline, no indentation. */
  writeLine(text: string): void {
    this.parts.push(text + '\n');
  }

  flush(): void {
    this.parts.push(FLUSH);
  }

  text(): string {
    return tabwrite(this.parts.join(''), DESCRIBE_TABWRITER);
  }

  /** raw is the text as written, for writers not backed by a tabwriter. */
  raw(): string {
    return this.parts.filter((p) => p !== FLUSH).join('');
  }
}

export function tabbedString(fn: (w: PrefixWriter) => void): string {
  const w = new PrefixWriter();
  fn(w);
  return w.text();
}

// ---- shared sections ----

/** printLabelsMultiline mirrors describe.printLabelsMultilineWithIndent. */
export function printLabelsMultiline(
  w: PrefixWriter,
  title: string,
  labels: Record<string, string> | undefined,
  initialIndent = '',
  innerIndent = '\t',
): void {
  w.write(0, `${initialIndent}${title}:${innerIndent}`);
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) {
      w.write(0, initialIndent);
      w.write(0, innerIndent);
    }
    w.write(0, `${k}=${labels![k]}\n`);
  });
}

const MAX_ANNOTATION_LEN = 140;

/** printAnnotationsMultiline mirrors describe.printAnnotationsMultiline (last-applied skipped). */
export function printAnnotationsMultiline(
  w: PrefixWriter,
  title: string,
  annotations: Record<string, string> | undefined,
): void {
  w.write(0, `${title}:\t`);
  const keys = Object.keys(annotations ?? {})
    .filter((k) => k !== LAST_APPLIED)
    .sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const indent = '\t';
  keys.forEach((key, i) => {
    if (i !== 0) w.write(0, indent);
    const value = annotations![key].replace(/\n$/, '');
    if (value.length + key.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      w.write(0, `${key}:\n`);
      for (const s of value.split('\n')) {
        const short =
          s.length > MAX_ANNOTATION_LEN - 2 ? s.slice(0, MAX_ANNOTATION_LEN - 2) + '...' : s;
        w.write(0, `${indent}  ${short}\n`);
      }
    } else {
      w.write(0, `${key}: ${value}\n`);
    }
  });
}

/** taintString mirrors Taint.ToString: "key=value:Effect" or "key:Effect". */
export function taintString(t: Taint): string {
  return t.value ? `${t.key}=${t.value}:${t.effect}` : `${t.key}:${t.effect}`;
}

/** printTaintsMultiline mirrors describe.printTaintsMultilineWithIndent (sorted by effect,key). */
function printTaintsMultiline(w: PrefixWriter, title: string, taints: Taint[] | undefined): void {
  w.write(0, `${title}:\t`);
  const list = [...(taints ?? [])];
  if (list.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const key = (t: Taint) => `${t.effect},${t.key}`;
  list.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  list.forEach((t, i) => {
    if (i !== 0) w.write(0, '\t');
    w.write(0, `${taintString(t)}\n`);
  });
}

/** printTolerationsMultiline mirrors describe.printTolerationsMultilineWithIndent (sorted by key). */
function printTolerationsMultiline(
  w: PrefixWriter,
  title: string,
  tolerations: Toleration[] | undefined,
  initialIndent = '',
): void {
  w.write(0, `${initialIndent}${title}:\t`);
  const list = [...(tolerations ?? [])];
  if (list.length === 0) {
    w.writeLine('<none>');
    return;
  }
  list.sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
  list.forEach((t, i) => {
    if (i !== 0) {
      w.write(0, initialIndent);
      w.write(0, '\t');
    }
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null)
      s += ` for ${t.tolerationSeconds}s`;
    w.write(0, `${s}\n`);
  });
}

function sortableEventTime(e: Event): number {
  const t = e.lastTimestamp ? parseTime(e.lastTimestamp) : Number.NaN;
  return Number.isNaN(t) ? -Infinity : t;
}

/** describeEvents mirrors describe.DescribeEvents: sorted by lastTimestamp, "(xN over ...)". */
export function describeEvents(w: PrefixWriter, events: Event[], now: number): void {
  if (events.length === 0) {
    w.write(0, 'Events:\t<none>\n');
    return;
  }
  w.flush();
  const sorted = events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => sortableEventTime(a.e) - sortableEventTime(b.e) || a.i - b.i)
    .map((x) => x.e);
  w.write(0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const firstSince = e.eventTime
      ? translateTimestampSince(e.eventTime, now)
      : translateTimestampSince(e.firstTimestamp, now);
    const interval =
      e.count > 1
        ? `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${firstSince})`
        : firstSince;
    const source = e.source?.component || e.reportingComponent || '';
    let message = (e.message ?? '').trim();
    if (e.involvedObject?.fieldPath) message = `${e.involvedObject.fieldPath}: ${message}`;
    w.write(1, `${e.type}\t${e.reason}\t${interval}\t${source}\t${message}\n`);
  }
}

// ---- containers ----

function describeContainerPorts(c: Container, host: boolean): string {
  return (c.ports ?? [])
    .map((p) => {
      let s = `${host ? (p.hostPort ?? 0) : p.containerPort}/${p.protocol ?? 'TCP'}`;
      if (p.name) s += ` (${p.name})`;
      return s;
    })
    .join(', ');
}

function describeStatus(
  w: PrefixWriter,
  stateName: string,
  state: ContainerState | undefined,
): void {
  if (state?.running) {
    w.write(2, `${stateName}:\tRunning\n`);
    w.write(3, `Started:\t${formatRFC1123Z(state.running.startedAt)}\n`);
  } else if (state?.waiting) {
    w.write(2, `${stateName}:\tWaiting\n`);
    if (state.waiting.reason) w.write(3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(2, `${stateName}:\tTerminated\n`);
    if (t.reason) w.write(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(3, `Message:\t${t.message}\n`);
    w.write(3, `Exit Code:\t${t.exitCode}\n`);
    if (t.signal && t.signal > 0) w.write(3, `Signal:\t${t.signal}\n`);
    w.write(3, `Started:\t${formatRFC1123Z(t.startedAt)}\n`);
    w.write(3, `Finished:\t${formatRFC1123Z(t.finishedAt)}\n`);
  } else {
    w.write(2, `${stateName}:\tWaiting\n`);
  }
}

function describeResources(w: PrefixWriter, r: Container['resources'], level: number): void {
  if (!r) return;
  const limits = Object.keys(r.limits ?? {}).sort();
  if (limits.length) w.write(level, 'Limits:\n');
  for (const k of limits) w.write(level + 1, `${k}:\t${quantityText(r.limits![k])}\n`);
  const requests = Object.keys(r.requests ?? {}).sort();
  if (requests.length) w.write(level, 'Requests:\n');
  for (const k of requests) w.write(level + 1, `${k}:\t${quantityText(r.requests![k])}\n`);
}

function quantityText(s: string): string {
  const q = parseQuantityExact(s);
  return q ? quantityString(q) : s;
}

/** describeContainers mirrors describe.describeContainers (statuses matched by name). */
function describeContainers(
  w: PrefixWriter,
  label: string,
  containers: Container[],
  statuses: ContainerStatus[] | undefined,
  space: string,
): void {
  const byName = new Map((statuses ?? []).map((s) => [s.name, s]));
  w.write(0, `${space}${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
  for (const c of containers) {
    const status = statuses ? byName.get(c.name) : undefined;
    const nameIndent = space ? ' ' : '';
    w.write(1, `${nameIndent}${c.name}:\n`);
    if (status) w.write(2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(2, `Image:\t${c.image}\n`);
    if (status) w.write(2, `Image ID:\t${status.imageID ?? ''}\n`);
    const ports = describeContainerPorts(c, false);
    if (ports.includes(',')) w.write(2, `Ports:\t${ports}\n`);
    else w.write(2, `Port:\t${ports || '<none>'}\n`);
    const hostPorts = describeContainerPorts(c, true);
    if (hostPorts.includes(',')) w.write(2, `Host Ports:\t${hostPorts}\n`);
    else w.write(2, `Host Port:\t${hostPorts || '<none>'}\n`);
    if (c.command?.length) {
      w.write(2, 'Command:\n');
      for (const x of c.command) for (const s of x.split('\n')) w.write(3, `${s}\n`);
    }
    if (c.args?.length) {
      w.write(2, 'Args:\n');
      for (const x of c.args) for (const s of x.split('\n')) w.write(3, `${s}\n`);
    }
    if (status) {
      describeStatus(w, 'State', status.state);
      if (status.lastState?.terminated) describeStatus(w, 'Last State', status.lastState);
      w.write(2, `Ready:\t${status.ready ? 'True' : 'False'}\n`);
      w.write(2, `Restart Count:\t${status.restartCount}\n`);
    }
    describeResources(w, c.resources, 2);
    w.write(2, 'Environment:\t<none>\n');
    describeContainerVolumes(w, c);
  }
}

/** describePodTemplate mirrors describe.DescribePodTemplate. */
function describePodTemplate(w: PrefixWriter, template: PodTemplateSpec | undefined): void {
  w.write(0, 'Pod Template:\n');
  if (!template) {
    w.write(1, '<unset>');
    return;
  }
  printLabelsMultiline(w, '  Labels', template.metadata?.labels);
  if (Object.keys(template.metadata?.annotations ?? {}).length > 0)
    printAnnotationsMultiline(w, '  Annotations', template.metadata?.annotations);
  if (template.spec.serviceAccountName)
    w.write(1, `Service Account:\t${template.spec.serviceAccountName}\n`);
  if (template.spec.initContainers?.length)
    describeContainers(w, 'Init Containers', template.spec.initContainers, undefined, '  ');
  describeContainers(w, 'Containers', template.spec.containers ?? [], undefined, '  ');
  describeVolumes(w, template.spec.volumes, '  ');
  if (template.spec.priorityClassName)
    w.write(1, `Priority Class Name:\t${template.spec.priorityClassName}\n`);
  printLabelsMultiline(w, '  Node-Selectors', template.spec.nodeSelector);
  printTolerationsMultiline(w, '  Tolerations', template.spec.tolerations);
}

function controllerOf(meta: {
  ownerReferences?: { kind: string; name: string; controller?: boolean }[];
}): string {
  const ref = (meta.ownerReferences ?? []).find((r) => r.controller);
  return ref ? `${ref.kind}/${ref.name}` : '';
}

// ---- Pod ----

/** podQOS mirrors qos.GetPodQOS: status.qosClass when set, else computed from requests/limits. */
function podQOS(pod: Pod): string {
  if (pod.status?.qosClass) return pod.status.qosClass;
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
  let anySet = false;
  let guaranteed = true;
  for (const c of all) {
    for (const r of ['cpu', 'memory']) {
      const req = parseQuantityExact(c.resources?.requests?.[r]);
      const lim = parseQuantityExact(c.resources?.limits?.[r]);
      if ((req && req.nano > 0n) || (lim && lim.nano > 0n)) anySet = true;
      if (!lim || lim.nano <= 0n || (req && req.nano !== lim.nano)) guaranteed = false;
    }
  }
  if (!anySet) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** describePod mirrors describe.describePod. events are those whose involvedObject is the Pod. */
export function describePod(pod: Pod, events: Event[], now: number): string {
  return tabbedString((w) => {
    const m = pod.metadata;
    w.write(0, `Name:\t${m.name}\n`);
    w.write(0, `Namespace:\t${m.namespace ?? ''}\n`);
    if (pod.spec.priority !== undefined) w.write(0, `Priority:\t${pod.spec.priority}\n`);
    if (pod.spec.priorityClassName)
      w.write(0, `Priority Class Name:\t${pod.spec.priorityClassName}\n`);
    if (pod.spec.serviceAccountName)
      w.write(0, `Service Account:\t${pod.spec.serviceAccountName}\n`);
    if (!pod.spec.nodeName) w.write(0, 'Node:\t<none>\n');
    else w.write(0, `Node:\t${pod.spec.nodeName}/${pod.status?.hostIP ?? ''}\n`);
    if (pod.status?.startTime) w.write(0, `Start Time:\t${formatRFC1123Z(pod.status.startTime)}\n`);
    printLabelsMultiline(w, 'Labels', m.labels);
    printAnnotationsMultiline(w, 'Annotations', m.annotations);
    const phase = pod.status?.phase ?? '';
    if (m.deletionTimestamp && phase !== 'Failed' && phase !== 'Succeeded') {
      w.write(
        0,
        `Status:\tTerminating (lasts ${translateTimestampSince(m.deletionTimestamp, now)})\n`,
      );
      w.write(0, `Termination Grace Period:\t${m.deletionGracePeriodSeconds ?? 0}s\n`);
    } else {
      w.write(0, `Status:\t${phase}\n`);
    }
    if (pod.status?.reason) w.write(0, `Reason:\t${pod.status.reason}\n`);
    if (pod.status?.message) w.write(0, `Message:\t${pod.status.message}\n`);
    w.write(0, `IP:\t${pod.status?.podIP ?? ''}\n`);
    const ips = pod.status?.podIPs ?? [];
    if (ips.length === 0) w.write(0, 'IPs:\t<none>\n');
    else {
      w.write(0, 'IPs:\n');
      for (const ip of ips) w.write(1, `IP:\t${ip.ip}\n`);
    }
    const controlledBy = controllerOf(m);
    if (controlledBy) w.write(0, `Controlled By:\t${controlledBy}\n`);
    if (pod.status?.nominatedNodeName)
      w.write(0, `NominatedNodeName:\t${pod.status.nominatedNodeName}\n`);
    if (pod.spec.initContainers?.length)
      describeContainers(
        w,
        'Init Containers',
        pod.spec.initContainers,
        pod.status?.initContainerStatuses ?? [],
        '',
      );
    describeContainers(
      w,
      'Containers',
      pod.spec.containers,
      pod.status?.containerStatuses ?? [],
      '',
    );
    const conds = pod.status?.conditions ?? [];
    if (conds.length > 0) {
      w.write(0, 'Conditions:\n  Type\tStatus\n');
      for (const c of conds) w.write(1, `${c.type} \t${c.status} \n`);
    }
    describeVolumes(w, pod.spec.volumes, '');
    w.write(0, `QoS Class:\t${podQOS(pod)}\n`);
    printLabelsMultiline(w, 'Node-Selectors', pod.spec.nodeSelector);
    printTolerationsMultiline(w, 'Tolerations', pod.spec.tolerations);
    describeEvents(w, events, now);
  });
}

// ---- Node ----

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
    describeNodeResource(w, pods, node, now);
    describeEvents(w, events, now);
  });
}

// ---- Deployment / ReplicaSet ----

function intOrString(v: number | string | undefined): string {
  return v === undefined ? '<nil>' : String(v);
}

function printReplicaSetsByLabels(rss: ReplicaSet[]): string {
  const list = rss
    .map(
      (rs) =>
        `${rs.metadata.name} (${rs.status?.replicas ?? 0}/${rs.spec.replicas ?? 0} replicas created)`,
    )
    .join(', ');
  return list === '' ? '<none>' : list;
}

/**
 * describeDeployment mirrors describe.describeDeployment. oldRSs are the Deployment's old
 * ReplicaSets that still have replicas (the first result of kubectl's
 * deploymentutil.GetAllReplicaSets), newRS the one matching its template.
 */
export function describeDeployment(
  d: Deployment,
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  events: Event[],
  now: number,
): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${d.metadata.name}\n`);
    w.write(0, `Namespace:\t${d.metadata.namespace ?? ''}\n`);
    w.write(0, `CreationTimestamp:\t${formatRFC1123Z(d.metadata.creationTimestamp)}\n`);
    printLabelsMultiline(w, 'Labels', d.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', d.metadata.annotations);
    w.write(0, `Selector:\t${selectorString(d.spec.selector)}\n`);
    const s = d.status ?? {};
    w.write(
      0,
      `Replicas:\t${d.spec.replicas ?? 0} desired | ${s.updatedReplicas ?? 0} updated | ${s.replicas ?? 0} total | ${s.availableReplicas ?? 0} available | ${s.unavailableReplicas ?? 0} unavailable\n`,
    );
    w.write(0, `StrategyType:\t${d.spec.strategy?.type ?? ''}\n`);
    w.write(0, `MinReadySeconds:\t${d.spec.minReadySeconds ?? 0}\n`);
    const ru = d.spec.strategy?.rollingUpdate;
    if (ru)
      w.write(
        0,
        `RollingUpdateStrategy:\t${intOrString(ru.maxUnavailable)} max unavailable, ${intOrString(ru.maxSurge)} max surge\n`,
      );
    describePodTemplate(w, d.spec.template);
    const conds = s.conditions ?? [];
    if (conds.length > 0) {
      w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
      w.write(1, '----\t------\t------\n');
      for (const c of conds) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
    }
    w.write(0, `OldReplicaSets:\t${printReplicaSetsByLabels(oldRSs)}\n`);
    w.write(0, `NewReplicaSet:\t${printReplicaSetsByLabels(newRS ? [newRS] : [])}\n`);
    describeEvents(w, events, now);
  });
}

/** PodStatusCounts are getPodStatusForController's counts of the controller's Pods by phase. */
export interface PodStatusCounts {
  running: number;
  waiting: number;
  succeeded: number;
  failed: number;
}

/** podStatusCounts mirrors getPodStatusForController over pods controlled by uid. */
export function podStatusCounts(pods: Pod[], uid: string): PodStatusCounts {
  const c = { running: 0, waiting: 0, succeeded: 0, failed: 0 };
  for (const p of pods) {
    const ref = (p.metadata.ownerReferences ?? []).find((r) => r.controller);
    if (!ref || ref.uid !== uid) continue;
    if (p.status?.phase === 'Running') c.running++;
    else if (p.status?.phase === 'Pending') c.waiting++;
    else if (p.status?.phase === 'Succeeded') c.succeeded++;
    else if (p.status?.phase === 'Failed') c.failed++;
  }
  return c;
}

/** describeReplicaSet mirrors describe.describeReplicaSet. */
export function describeReplicaSet(
  rs: ReplicaSet,
  counts: PodStatusCounts,
  events: Event[],
  now: number,
): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${rs.metadata.name}\n`);
    w.write(0, `Namespace:\t${rs.metadata.namespace ?? ''}\n`);
    w.write(0, `Selector:\t${formatLabelSelector(rs.spec.selector)}\n`);
    printLabelsMultiline(w, 'Labels', rs.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', rs.metadata.annotations);
    const controlledBy = controllerOf(rs.metadata);
    if (controlledBy) w.write(0, `Controlled By:\t${controlledBy}\n`);
    w.write(
      0,
      `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec.replicas ?? 0} desired\n`,
    );
    w.write(0, 'Pods Status:\t');
    w.write(
      0,
      `${counts.running} Running / ${counts.waiting} Waiting / ${counts.succeeded} Succeeded / ${counts.failed} Failed\n`,
    );
    describePodTemplate(w, rs.spec.template);
    const conds = rs.status?.conditions ?? [];
    if (conds.length > 0) {
      w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
      w.write(1, '----\t------\t------\n');
      for (const c of conds) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
    }
    describeEvents(w, events, now);
  });
}

/**
 * describePodTemplateRaw is DescribePodTemplate written to a plain buffer, as rollout history's
 * printTemplate does for --revision=N: the tabs are not expanded.
 */
export function describePodTemplateRaw(template: PodTemplateSpec): string {
  const w = new PrefixWriter();
  describePodTemplate(w, template);
  return w.raw();
}

// ---- Service ----

/** formatEndpointSlices mirrors describe.formatEndpointSlices for one service port name. */
export function formatEndpointSlices(
  slices: EndpointSlice[],
  portName: string | undefined,
): string {
  if (slices.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const s of slices) {
    if (!s.ports || s.ports.length === 0) {
      for (const e of s.endpoints ?? []) {
        if (list.length === max) more = true;
        if (e.conditions?.ready === false) continue;
        if (!more) list.push(e.addresses[0]);
        count++;
      }
    } else {
      for (const p of s.ports) {
        if (portName !== undefined && (p.name ?? '') !== portName) continue;
        for (const e of s.endpoints ?? []) {
          if (list.length === max) more = true;
          if (e.conditions?.ready === false) continue;
          if (!more)
            list.push(
              s.addressType === 'IPv6'
                ? `[${e.addresses[0]}]:${p.port}`
                : `${e.addresses[0]}:${p.port}`,
            );
          count++;
        }
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

/** describeService mirrors describe.describeService. slices are the Service's EndpointSlices. */
export function describeService(
  svc: Service,
  slices: EndpointSlice[],
  events: Event[],
  now: number,
): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${svc.metadata.name}\n`);
    w.write(0, `Namespace:\t${svc.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', svc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', svc.metadata.annotations);
    w.write(0, `Selector:\t${formatLabels(svc.spec.selector)}\n`);
    w.write(0, `Type:\t${svc.spec.type ?? ''}\n`);
    if (svc.spec.ipFamilyPolicy) w.write(0, `IP Family Policy:\t${svc.spec.ipFamilyPolicy}\n`);
    w.write(
      0,
      `IP Families:\t${svc.spec.ipFamilies?.length ? svc.spec.ipFamilies.join(',') : '<none>'}\n`,
    );
    w.write(0, `IP:\t${svc.spec.clusterIP ?? ''}\n`);
    w.write(0, `IPs:\t${svc.spec.clusterIPs?.length ? svc.spec.clusterIPs.join(',') : '<none>'}\n`);
    if (svc.spec.externalIPs?.length)
      w.write(0, `External IPs:\t${svc.spec.externalIPs.join(',')}\n`);
    const ingress = svc.status?.loadBalancer?.ingress ?? [];
    if (ingress.length)
      w.write(
        0,
        `LoadBalancer Ingress:\t${ingress.map((i) => i.ip || i.hostname || '').join(', ')}\n`,
      );
    for (const p of svc.spec.ports ?? []) {
      const name = p.name || '<unset>';
      const proto = p.protocol ?? '';
      w.write(0, `Port:\t${name}\t${p.port}/${proto}\n`);
      w.write(0, `TargetPort:\t${p.targetPort ?? p.port}/${proto}\n`);
      if (p.nodePort) w.write(0, `NodePort:\t${name}\t${p.nodePort}/${proto}\n`);
      w.write(0, `Endpoints:\t${formatEndpointSlices(slices, p.name ?? '')}\n`);
    }
    w.write(0, `Session Affinity:\t${svc.spec.sessionAffinity ?? ''}\n`);
    if (svc.spec.externalTrafficPolicy)
      w.write(0, `External Traffic Policy:\t${svc.spec.externalTrafficPolicy}\n`);
    if (svc.spec.internalTrafficPolicy)
      w.write(0, `Internal Traffic Policy:\t${svc.spec.internalTrafficPolicy}\n`);
    describeEvents(w, events, now);
  });
}

// ---- DaemonSet / Namespace / EndpointSlice ----

/** describeDaemonSet mirrors describe.describeDaemonSet. */
export function describeDaemonSet(
  ds: DaemonSet,
  counts: PodStatusCounts,
  events: Event[],
  now: number,
): string {
  return tabbedString((w) => {
    const s = ds.status ?? ({} as DaemonSet['status']);
    w.write(0, `Name:\t${ds.metadata.name}\n`);
    w.write(0, `Namespace:\t${ds.metadata.namespace ?? ''}\n`);
    w.write(0, `Selector:\t${selectorString(ds.spec.selector)}\n`);
    w.write(0, `Node-Selector:\t${formatLabels(ds.spec.template?.spec?.nodeSelector)}\n`);
    printLabelsMultiline(w, 'Labels', ds.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ds.metadata.annotations);
    w.write(0, `Desired Number of Nodes Scheduled: ${s.desiredNumberScheduled ?? 0}\n`);
    w.write(0, `Current Number of Nodes Scheduled: ${s.currentNumberScheduled ?? 0}\n`);
    w.write(
      0,
      `Number of Nodes Scheduled with Up-to-date Pods: ${s.updatedNumberScheduled ?? 0}\n`,
    );
    w.write(0, `Number of Nodes Scheduled with Available Pods: ${s.numberAvailable ?? 0}\n`);
    w.write(0, `Number of Nodes Misscheduled: ${s.numberMisscheduled ?? 0}\n`);
    w.write(
      0,
      `Pods Status:\t${counts.running} Running / ${counts.waiting} Waiting / ${counts.succeeded} Succeeded / ${counts.failed} Failed\n`,
    );
    describePodTemplate(w, ds.spec.template);
    describeEvents(w, events, now);
  });
}

/**
 * describeNamespace mirrors describe.describeNamespace. Simplification: ResourceQuotas and
 * LimitRanges are not modelled, so both sections print their "none" lines.
 */
export function describeNamespace(ns: Namespace): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${ns.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ns.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ns.metadata.annotations);
    w.write(0, `Status:\t${ns.status?.phase ?? ''}\n`);
    w.write(0, '\n');
    w.write(0, 'No resource quota.\n');
    w.write(0, '\n');
    w.write(0, 'No LimitRange resource.\n');
  });
}

/** describeEndpointSlice mirrors describe.describeEndpointSliceV1. */
export function describeEndpointSlice(eps: EndpointSlice, events: Event[], now: number): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${eps.metadata.name}\n`);
    w.write(0, `Namespace:\t${eps.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', eps.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', eps.metadata.annotations);
    w.write(0, `AddressType:\t${eps.addressType}\n`);
    if (!eps.ports || eps.ports.length === 0) w.write(0, 'Ports: <unset>\n');
    else {
      w.write(0, 'Ports:\n');
      w.write(1, 'Name\tPort\tProtocol\n');
      w.write(1, '----\t----\t--------\n');
      for (const p of eps.ports)
        w.write(
          1,
          `${p.name ? p.name : '<unset>'}\t${p.port !== undefined ? p.port : '<unset>'}\t${p.protocol ?? ''}\n`,
        );
    }
    if (!eps.endpoints || eps.endpoints.length === 0) w.write(0, 'Endpoints: <none>\n');
    else {
      w.write(0, 'Endpoints:\n');
      for (const e of eps.endpoints) {
        w.write(1, `- Addresses:\t${e.addresses.length ? e.addresses.join(', ') : '<none>'}\n`);
        w.write(2, 'Conditions:\n');
        w.write(
          3,
          `Ready:\t${e.conditions?.ready === undefined ? '<unset>' : String(e.conditions.ready)}\n`,
        );
        w.write(2, 'Hostname:\t<unset>\n');
        if (e.targetRef)
          w.write(2, `TargetRef:\t${e.targetRef.kind ?? ''}/${e.targetRef.name ?? ''}\n`);
        w.write(2, `NodeName:\t${e.nodeName ?? '<unset>'}\n`);
        w.write(2, `Zone:\t${e.zone ?? '<unset>'}\n`);
      }
    }
    describeEvents(w, events, now);
  });
}

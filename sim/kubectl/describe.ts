// Mirrors the shared sections of staging/src/k8s.io/kubectl/pkg/describe/describe.go: PrefixWriter
// and tabbedString, labels, annotations, taints and tolerations, DescribeEvents, the containers
// and DescribePodTemplate, written through the same tabwriter (minwidth 0, padding 2) so that
// alignment matches byte for byte. Each kind's describer (describePod, describeNode with
// describeNodeLease and describeNodeResource, describeDeployment, ...) lives in its registry folder
// (sim/registry/<group>/<resource>/describe.ts). The describers are pure: the caller passes the
// object, the related objects kubectl would fetch (events, pods on the node, the node's Lease,
// ReplicaSets, EndpointSlices) and `now`.
// Simplification: no volumes, probes, env vars or security contexts are modelled, so those
// sections print their "<none>" forms.

import type {
  Container,
  DaemonSet,
  ContainerState,
  ContainerStatus,
  Event,
  Pod,
  PodTemplateSpec,
  ReplicaSet,
  Taint,
  Toleration,
} from '../api/types.ts';
import { parseTime } from '../engine/clock.ts';
import { formatRFC1123Z, translateTimestampSince } from './duration.ts';
import {} from '../registry/core/nodes/printer.ts';
import {} from './table.ts';
import { parseQuantityExact, quantityString } from './quantity.ts';
import { DESCRIBE_TABWRITER, FLUSH, tabwrite } from './tabwriter.ts';
import { describeContainerVolumes, describeVolumes } from '../registry/core/pods/describe.ts';
import type { ObjectLister } from '../registry/rules.ts';

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
export function printTaintsMultiline(
  w: PrefixWriter,
  title: string,
  taints: Taint[] | undefined,
): void {
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
export function printTolerationsMultiline(
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

/**
 * describeEvents mirrors describe.DescribeEvents: sorted by lastTimestamp (events.k8s.io/v1 Events
 * have none, so they come first), Age "(xN over ...)" from a series or the count, and no
 * fieldPath (only `kubectl get events -o wide` shows it, as SUBOBJECT).
 */
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
    const interval = e.series
      ? `${translateTimestampSince(e.series.lastObservedTime, now)} (x${e.series.count} over ${firstSince})`
      : (e.count ?? 0) > 1
        ? `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${firstSince})`
        : firstSince;
    const source = e.source?.component || e.reportingComponent || '';
    const message = (e.message ?? '').trim();
    w.write(1, `${e.type}\t${e.reason}\t${interval}\t${source}\t${message}\n`);
  }
}

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

export function quantityText(s: string): string {
  const q = parseQuantityExact(s);
  return q ? quantityString(q) : s;
}

/** describeContainers mirrors describe.describeContainers (statuses matched by name). */
export function describeContainers(
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
export function describePodTemplate(w: PrefixWriter, template: PodTemplateSpec | undefined): void {
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

export function controllerOf(meta: {
  ownerReferences?: { kind: string; name: string; controller?: boolean }[];
}): string {
  const ref = (meta.ownerReferences ?? []).find((r) => r.controller);
  return ref ? `${ref.kind}/${ref.name}` : '';
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

/**
 * podStatusCountsFor lists the Pods a controller's selector matches and counts the ones it owns,
 * as the ReplicaSet and DaemonSet describers do (getPodStatusForController).
 */
export function podStatusCountsFor(
  lister: ObjectLister,
  obj: DaemonSet | ReplicaSet,
): PodStatusCounts {
  const pods = lister.list<Pod>('pods', obj.metadata.namespace, obj.spec.selector);
  return podStatusCounts(pods, obj.metadata.uid);
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

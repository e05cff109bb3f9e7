// Timelines from a run's committed writes (`RunResult.changes`): how an object's fields moved over
// virtual time, for rollout charts, node-failure strips and Pod status tables. A series holds a
// point only where the value changed.

import type { Deployment, Node, Pod, ReplicaSet } from '../api/types.ts';
import { parseSelector } from '../api/labels.ts';
import { printPod } from '../registry/core/pods/printer.ts';
import { getPath, stableStringify, type Change } from './util.ts';

/** ObjectName is "name" (namespace "default" where namespaced) or { namespace, name }. */
export type ObjectName = string | { namespace?: string; name: string };

function split(n: ObjectName, namespaced: boolean): { namespace?: string; name: string } {
  if (typeof n !== 'string')
    return { namespace: n.namespace ?? (namespaced ? 'default' : undefined), name: n.name };
  const i = n.indexOf('/');
  if (i >= 0) return { namespace: n.slice(0, i), name: n.slice(i + 1) };
  return { namespace: namespaced ? 'default' : undefined, name: n };
}

function matches(c: Change, resource: string, id: { namespace?: string; name: string }): boolean {
  return (
    c.resource === resource &&
    c.object.metadata.name === id.name &&
    (id.namespace === undefined || c.object.metadata.namespace === id.namespace)
  );
}

// ---- ReplicaSets of a Deployment ----

export interface ReplicaSetPoint {
  t: number;
  specReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
}

export interface ReplicaSetSeries {
  name: string;
  /** revision is the deployment.kubernetes.io/revision annotation when the series ends. */
  revision?: string;
  /** images are the Pod template's container images. */
  images: string[];
  points: ReplicaSetPoint[];
}

export interface ReplicaSetTimeline {
  deployment: string;
  /** replicas, maxSurge and maxUnavailable (resolved to Pod counts) from the Deployment's last spec. */
  replicas?: number;
  maxSurge?: number;
  maxUnavailable?: number;
  replicaSets: ReplicaSetSeries[];
  /** totals sums all ReplicaSets at every instant any of them changed. */
  totals: ReplicaSetPoint[];
}

/**
 * resolveIntOrPercent mirrors intstr.GetScaledValueFromIntOrPercent: "25%" of 10 is 3 rounding
 * up (maxSurge) and 2 rounding down (maxUnavailable).
 */
export function resolveIntOrPercent(
  v: number | string | undefined,
  total: number,
  roundUp: boolean,
  dflt: string,
): number {
  const x = v ?? dflt;
  if (typeof x === 'number') return x;
  const m = /^(\d+)%$/.exec(x);
  if (!m) return Number(x) || 0;
  const f = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(f) : Math.floor(f);
}

/** replicaSetReplicas follows every ReplicaSet a Deployment owns, and their sum. */
export function replicaSetReplicas(changes: Change[], deployment: ObjectName): ReplicaSetTimeline {
  const id = split(deployment, true);
  const series = new Map<string, ReplicaSetSeries & { last: string; uid: string }>();
  const current = new Map<string, ReplicaSetPoint>();
  const totals: ReplicaSetPoint[] = [];
  let dep: Deployment | undefined;
  for (const c of changes) {
    if (matches(c, 'deployments', id) && c.type !== 'DELETED') dep = c.object as Deployment;
    if (c.resource !== 'replicasets') continue;
    const rs = c.object as ReplicaSet;
    if (id.namespace !== undefined && rs.metadata.namespace !== id.namespace) continue;
    const owner = rs.metadata.ownerReferences?.find((o) => o.controller && o.kind === 'Deployment');
    if (owner?.name !== id.name) continue;
    const p: ReplicaSetPoint =
      c.type === 'DELETED'
        ? { t: c.t, specReplicas: 0, readyReplicas: 0, availableReplicas: 0 }
        : {
            t: c.t,
            specReplicas: rs.spec.replicas ?? 1,
            readyReplicas: rs.status?.readyReplicas ?? 0,
            availableReplicas: rs.status?.availableReplicas ?? 0,
          };
    let s = series.get(rs.metadata.uid);
    if (!s) {
      s = { name: rs.metadata.name, images: [], points: [], last: '', uid: rs.metadata.uid };
      series.set(rs.metadata.uid, s);
    }
    s.revision = rs.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? s.revision;
    s.images = (rs.spec.template.spec.containers ?? []).map((k) => k.image);
    const key = `${p.specReplicas}/${p.readyReplicas}/${p.availableReplicas}`;
    if (key === s.last) continue;
    s.last = key;
    s.points.push(p);
    current.set(rs.metadata.uid, p);
    const total: ReplicaSetPoint = {
      t: c.t,
      specReplicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
    };
    for (const q of current.values()) {
      total.specReplicas += q.specReplicas;
      total.readyReplicas += q.readyReplicas;
      total.availableReplicas += q.availableReplicas;
    }
    // Every intermediate total is kept, even several at one instant, so a check such as
    // "never more than replicas + maxSurge" sees each state the controllers wrote.
    const prev = totals[totals.length - 1];
    if (
      !prev ||
      prev.specReplicas !== total.specReplicas ||
      prev.readyReplicas !== total.readyReplicas ||
      prev.availableReplicas !== total.availableReplicas
    )
      totals.push(total);
  }
  const out: ReplicaSetTimeline = {
    deployment: id.namespace ? `${id.namespace}/${id.name}` : id.name,
    replicaSets: [...series.values()].map(({ name, revision, images, points }) => ({
      name,
      ...(revision !== undefined ? { revision } : {}),
      images,
      points,
    })),
    totals,
  };
  if (dep) {
    const replicas = dep.spec.replicas ?? 1;
    const ru = dep.spec.strategy?.rollingUpdate;
    out.replicas = replicas;
    out.maxSurge = resolveIntOrPercent(ru?.maxSurge, replicas, true, '25%');
    out.maxUnavailable = resolveIntOrPercent(ru?.maxUnavailable, replicas, false, '25%');
  }
  return out;
}

// ---- Node ----

export interface NodePoint {
  t: number;
  ready: 'True' | 'False' | 'Unknown';
  /** reason is the Ready condition's reason (KubeletReady, NodeStatusUnknown, ...). */
  reason?: string;
  /** taints as "key:Effect" (or "key=value:Effect"). */
  taints: string[];
  deleted?: boolean;
}

/** nodeTimeline follows a Node's Ready condition and taints. */
export function nodeTimeline(changes: Change[], node: string): NodePoint[] {
  const out: NodePoint[] = [];
  let last = '';
  for (const c of changes) {
    if (c.resource !== 'nodes' || c.object.metadata.name !== node) continue;
    const n = c.object as Node;
    const cond = n.status?.conditions?.find((x) => x.type === 'Ready');
    const p: NodePoint = {
      t: c.t,
      ready: cond?.status ?? 'Unknown',
      ...(cond?.reason !== undefined ? { reason: cond.reason } : {}),
      taints: (n.spec?.taints ?? []).map(
        (x) => `${x.key}${x.value ? `=${x.value}` : ''}:${x.effect}`,
      ),
      ...(c.type === 'DELETED' ? { deleted: true } : {}),
    };
    const key = stableStringify({ ...p, t: 0 });
    if (key === last) continue;
    last = key;
    out.push(p);
  }
  return out;
}

// ---- Pods ----

export interface PodFilter {
  namespace?: string;
  /** label is a selector in `kubectl -l` syntax. */
  label?: string;
  name?: string;
  /** node keeps points while the Pod is bound to this node. */
  node?: string;
}

export interface PodPoint {
  t: number;
  name: string;
  uid: string;
  phase: string;
  /** status is the STATUS column of `kubectl get pods` (printers.go#printPod). */
  status: string;
  /** ready is the READY column ("1/1"). */
  ready: string;
  nodeName?: string;
  deleted?: boolean;
}

/** podTimeline follows every matching Pod: a point whenever its phase, STATUS, READY or node changed. */
export function podTimeline(changes: Change[], filter: PodFilter = {}): PodPoint[] {
  const sel = filter.label !== undefined ? parseSelector(filter.label) : undefined;
  const last = new Map<string, string>();
  const out: PodPoint[] = [];
  for (const c of changes) {
    if (c.resource !== 'pods') continue;
    const pod = c.object as Pod;
    const m = pod.metadata;
    if (filter.namespace !== undefined && m.namespace !== filter.namespace) continue;
    if (filter.name !== undefined && m.name !== filter.name) continue;
    if (sel && !sel.matches(m.labels)) continue;
    if (filter.node !== undefined && pod.spec.nodeName !== filter.node) continue;
    const row = printPod(pod, c.t * 1000);
    const p: PodPoint = {
      t: c.t,
      name: m.name,
      uid: m.uid,
      phase: pod.status?.phase ?? '',
      status: c.type === 'DELETED' ? 'Deleted' : String(row.cells[2]),
      ready: String(row.cells[1]),
      ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      ...(c.type === 'DELETED' ? { deleted: true } : {}),
    };
    const key = stableStringify({ ...p, t: 0 });
    if (last.get(m.uid) === key) continue;
    last.set(m.uid, key);
    out.push(p);
  }
  return out;
}

// ---- Any field ----

export interface FieldPoint {
  t: number;
  value: unknown;
  deleted?: boolean;
}

/**
 * fieldSeries follows one field of one object. path is dotted, with [i] indexes and [key=value]
 * list selectors: "status.conditions[type=Ready].status".
 */
export function fieldSeries(
  changes: Change[],
  resource: string,
  name: ObjectName,
  path: string,
): FieldPoint[] {
  const namespaced = !['nodes', 'namespaces'].includes(resource);
  const id = split(name, namespaced);
  const out: FieldPoint[] = [];
  let last: string | undefined;
  for (const c of changes) {
    if (!matches(c, resource, id)) continue;
    const p: FieldPoint =
      c.type === 'DELETED'
        ? { t: c.t, value: undefined, deleted: true }
        : { t: c.t, value: getPath(c.object, path) };
    const key = stableStringify(p.value) + (p.deleted ? '#deleted' : '');
    if (key === last) continue;
    last = key;
    out.push(p);
  }
  return out;
}

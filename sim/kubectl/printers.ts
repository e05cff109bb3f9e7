// Mirrors pkg/printers/internalversion/printers.go (the column definitions of AddHandlers and the
// printPod/printNode/... row functions) and staging/src/k8s.io/cli-runtime/pkg/printers/
// tableprinter.go (decorateTable, printTable): the tables `kubectl get` prints.
// Simplification: the table is built client-side from full objects (kubectl asks the server for
// a Table; the server runs these same functions).

import {
  columns as pdbColumns,
  printPodDisruptionBudget,
} from '../registry/policy/poddisruptionbudgets/printers.ts';
import type {
  AnyObject,
  Container,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Event,
  LabelSelector,
  Lease,
  ServiceAccount,
  ConfigMap,
  Namespace,
  Node,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
  Service,
} from '../api/types.ts';
import { isRestartableInitContainer } from '../api/podutil.ts';
import { parseTime } from '../engine/clock.ts';
import { humanDuration, translateTimestampSince } from './duration.ts';
import { GET_TABWRITER, tabwrite } from './tabwriter.ts';
import { printServiceAccount } from '../registry/core/serviceaccounts/printers.ts';
import { printConfigMap } from '../registry/core/configmaps/printers.ts';

/** ColumnDefinition is metav1.TableColumnDefinition: Priority 1 columns appear with -o wide. */
export interface ColumnDefinition {
  name: string;
  priority: 0 | 1;
  /** format "name" marks the column that gets the kind/ prefix. */
  format?: 'name';
}

/** TableRow is metav1.TableRow: the cells and the object they describe. */
export interface TableRow {
  cells: (string | number)[];
  object?: AnyObject;
}

/** Table is metav1.Table. */
export interface Table {
  columns: ColumnDefinition[];
  rows: TableRow[];
}

/** PrintOptions mirrors printers.PrintOptions. */
export interface PrintOptions {
  wide?: boolean;
  /** withNamespace prepends a NAMESPACE column (-A on a namespaced resource). */
  withNamespace?: boolean;
  /** withKind prefixes the name column with "kind.group/", e.g. "deployment.apps". */
  withKind?: string;
  showLabels?: boolean;
  noHeaders?: boolean;
}

function col(name: string, priority: 0 | 1 = 0, format?: 'name'): ColumnDefinition {
  return format ? { name, priority, format } : { name, priority };
}

const NAME = col('Name', 0, 'name');
const AGE = col('Age');

/** columnDefinitions are AddHandlers' column lists, keyed by resource. */
export const columnDefinitions: Record<string, ColumnDefinition[]> = {
  pods: [
    NAME,
    col('Ready'),
    col('Status'),
    col('Restarts'),
    AGE,
    col('IP', 1),
    col('Node', 1),
    col('Nominated Node', 1),
    col('Readiness Gates', 1),
  ],
  replicasets: [
    NAME,
    col('Desired'),
    col('Current'),
    col('Ready'),
    AGE,
    col('Containers', 1),
    col('Images', 1),
    col('Selector', 1),
  ],
  daemonsets: [
    NAME,
    col('Desired'),
    col('Current'),
    col('Ready'),
    col('Up-to-date'),
    col('Available'),
    col('Node Selector'),
    AGE,
    col('Containers', 1),
    col('Images', 1),
    col('Selector', 1),
  ],
  services: [
    NAME,
    col('Type'),
    col('Cluster-IP'),
    col('External-IP'),
    col('Port(s)'),
    AGE,
    col('Selector', 1),
  ],
  nodes: [
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
  events: [
    col('Last Seen'),
    col('Type'),
    col('Reason'),
    col('Object'),
    col('Subobject', 1),
    col('Source', 1),
    col('Message'),
    col('First Seen', 1),
    col('Count', 1),
    col('Name', 1, 'name'),
  ],
  namespaces: [NAME, col('Status'), AGE],
  deployments: [
    NAME,
    col('Ready'),
    col('Up-to-date'),
    col('Available'),
    AGE,
    col('Containers', 1),
    col('Images', 1),
    col('Selector', 1),
  ],
  leases: [NAME, col('Holder'), AGE],
  serviceaccounts: [NAME, col('Secrets'), AGE],
  configmaps: [NAME, col('Data'), AGE],
  endpointslices: [NAME, col('AddressType'), col('Ports'), col('Endpoints'), AGE],
  componentstatuses: [NAME, col('Status'), col('Message'), col('Error')],
  poddisruptionbudgets: pdbColumns,
};

// ---- shared formatting helpers ----

/** formatLabels mirrors labels.FormatLabels: sorted "k=v,k2=v2", or "<none>". */
export function formatLabels(m: Record<string, string> | undefined | null): string {
  const keys = Object.keys(m ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${m![k]}`).join(',');
}

/**
 * selectorString mirrors metav1.LabelSelectorAsSelector(ls).String(): matchLabels become "k=v",
 * expressions "k in (a,b)", "k notin (a)", "k", "!k"; requirements sorted by key; "" for an
 * empty or nil selector.
 */
export function selectorString(ls: LabelSelector | undefined | null): string {
  if (!ls) return '';
  const reqs: { key: string; s: string }[] = [];
  for (const [k, v] of Object.entries(ls.matchLabels ?? {})) reqs.push({ key: k, s: `${k}=${v}` });
  for (const e of ls.matchExpressions ?? []) {
    const vals = [...(e.values ?? [])].sort().join(',');
    const s =
      e.operator === 'In'
        ? `${e.key} in (${vals})`
        : e.operator === 'NotIn'
          ? `${e.key} notin (${vals})`
          : e.operator === 'Exists'
            ? e.key
            : `!${e.key}`;
    reqs.push({ key: e.key, s });
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map((r) => r.s).join(',');
}

/** formatLabelSelector mirrors metav1.FormatLabelSelector: "<none>" when empty. */
export function formatLabelSelector(ls: LabelSelector | undefined | null): string {
  const s = selectorString(ls);
  return s === '' ? '<none>' : s;
}

/** layoutContainerCells mirrors printers.go#layoutContainerCells. */
export function layoutContainerCells(containers: Container[] | undefined): [string, string] {
  const cs = containers ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(',')];
}

function tsMs(ts: string | null | undefined): number | undefined {
  if (!ts) return undefined;
  const t = parseTime(ts);
  return Number.isNaN(t) ? undefined : t;
}

// ---- row functions ----

/** printPod mirrors printers.go#printPod, the STATUS algorithm included. */
export function printPod(pod: Pod, now: number, wide = false): TableRow {
  let restarts = 0;
  let restartableInitContainerRestarts = 0;
  let totalContainers = pod.spec.containers.length;
  let readyContainers = 0;
  let lastRestartDate: number | undefined;
  let lastRestartableInitContainerRestartDate: number | undefined;

  const podPhase = pod.status?.phase ?? '';
  let reason: string = podPhase;
  if (pod.status?.reason) reason = pod.status.reason;

  for (const c of pod.status?.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const initContainers = new Map<string, Container>();
  for (const ic of pod.spec.initContainers ?? []) {
    initContainers.set(ic.name, ic);
    if (isRestartableInitContainer(ic)) totalContainers++;
  }

  let initializing = false;
  const initStatuses = pod.status?.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const container = initStatuses[i];
    restarts += container.restartCount;
    const lastTerm = tsMs(container.lastState?.terminated?.finishedAt);
    if (
      container.lastState?.terminated &&
      lastTerm !== undefined &&
      (lastRestartDate === undefined || lastRestartDate < lastTerm)
    )
      lastRestartDate = lastTerm;
    const restartable = isRestartableInitContainer(initContainers.get(container.name));
    if (restartable) {
      restartableInitContainerRestarts += container.restartCount;
      if (container.lastState?.terminated && lastTerm !== undefined) {
        if (
          lastRestartableInitContainerRestartDate === undefined ||
          lastRestartableInitContainerRestartDate < lastTerm
        )
          lastRestartableInitContainerRestartDate = lastTerm;
      }
    }
    const term = container.state?.terminated;
    const waiting = container.state?.waiting;
    if (term && term.exitCode === 0) continue;
    if (restartable && container.started) {
      if (container.ready) readyContainers++;
      continue;
    }
    if (term) {
      if (!term.reason)
        reason = term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode}`;
      else reason = `Init:${term.reason}`;
      initializing = true;
    } else if (waiting && waiting.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
      initializing = true;
    } else {
      reason = `Init:${i}/${(pod.spec.initContainers ?? []).length}`;
      initializing = true;
    }
    break;
  }

  const initializedTrue = (pod.status?.conditions ?? []).some(
    (c) => c.type === 'Initialized' && c.status === 'True',
  );
  if (!initializing || initializedTrue) {
    restarts = restartableInitContainerRestarts;
    lastRestartDate = lastRestartableInitContainerRestartDate;
    let hasRunning = false;
    const statuses = pod.status?.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = statuses[i];
      restarts += container.restartCount;
      const lastTerm = tsMs(container.lastState?.terminated?.finishedAt);
      if (
        container.lastState?.terminated &&
        lastTerm !== undefined &&
        (lastRestartDate === undefined || lastRestartDate < lastTerm)
      )
        lastRestartDate = lastTerm;
      const waiting = container.state?.waiting;
      const term = container.state?.terminated;
      if (waiting && waiting.reason) reason = waiting.reason;
      else if (term && term.reason) reason = term.reason;
      else if (term && !term.reason)
        reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`;
      else if (container.ready && container.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = (pod.status?.conditions ?? []).some(
        (c) => c.type === 'Ready' && c.status === 'True',
      );
      reason = ready ? 'Running' : 'NotReady';
    }
  }

  if (pod.metadata.deletionTimestamp && pod.status?.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && podPhase !== 'Succeeded' && podPhase !== 'Failed')
    reason = 'Terminating';

  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestartDate !== undefined)
    restartsStr = `${restarts} (${humanDuration(now - lastRestartDate)} ago)`;

  const cells: (string | number)[] = [
    pod.metadata.name,
    `${readyContainers}/${totalContainers}`,
    reason,
    restartsStr,
    translateTimestampSince(pod.metadata.creationTimestamp, now),
  ];
  if (wide) {
    const podIP = pod.status?.podIPs?.[0]?.ip || '<none>';
    const nodeName = pod.spec.nodeName || '<none>';
    const nominated = pod.status?.nominatedNodeName || '<none>';
    // Simplification: readiness gates are not modelled, so READINESS GATES is always <none>.
    cells.push(podIP, nodeName, nominated, '<none>');
  }
  return { cells, object: pod };
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

/** printDeployment mirrors printers.go#printDeployment. */
export function printDeployment(d: Deployment, now: number, wide = false): TableRow {
  const cells: (string | number)[] = [
    d.metadata.name,
    `${d.status?.readyReplicas ?? 0}/${d.spec.replicas ?? 0}`,
    d.status?.updatedReplicas ?? 0,
    d.status?.availableReplicas ?? 0,
    translateTimestampSince(d.metadata.creationTimestamp, now),
  ];
  if (wide) {
    const [names, images] = layoutContainerCells(d.spec.template?.spec?.containers);
    cells.push(names, images, selectorString(d.spec.selector));
  }
  return { cells, object: d };
}

/** printReplicaSet mirrors printers.go#printReplicaSet. */
export function printReplicaSet(rs: ReplicaSet, now: number, wide = false): TableRow {
  const cells: (string | number)[] = [
    rs.metadata.name,
    rs.spec.replicas ?? 0,
    rs.status?.replicas ?? 0,
    rs.status?.readyReplicas ?? 0,
    translateTimestampSince(rs.metadata.creationTimestamp, now),
  ];
  if (wide) {
    const [names, images] = layoutContainerCells(rs.spec.template?.spec?.containers);
    cells.push(names, images, formatLabelSelector(rs.spec.selector));
  }
  return { cells, object: rs };
}

/** printDaemonSet mirrors printers.go#printDaemonSet. */
export function printDaemonSet(ds: DaemonSet, now: number, wide = false): TableRow {
  const s = ds.status ?? ({} as DaemonSet['status']);
  const cells: (string | number)[] = [
    ds.metadata.name,
    s.desiredNumberScheduled ?? 0,
    s.currentNumberScheduled ?? 0,
    s.numberReady ?? 0,
    s.updatedNumberScheduled ?? 0,
    s.numberAvailable ?? 0,
    formatLabels(ds.spec.template?.spec?.nodeSelector),
    translateTimestampSince(ds.metadata.creationTimestamp, now),
  ];
  if (wide) {
    const [names, images] = layoutContainerCells(ds.spec.template?.spec?.containers);
    cells.push(names, images, formatLabelSelector(ds.spec.selector));
  }
  return { cells, object: ds };
}

function loadBalancerStatusString(svc: Service, wide: boolean): string {
  const set = new Set<string>();
  for (const i of svc.status?.loadBalancer?.ingress ?? []) {
    if (i.ip) set.add(i.ip);
    else if (i.hostname) set.add(i.hostname);
  }
  let r = [...set].sort().join(',');
  if (!wide && r.length > 16) r = r.slice(0, 13) + '...';
  return r;
}

/** getServiceExternalIP mirrors printers.go#getServiceExternalIP. */
export function getServiceExternalIP(svc: Service, wide: boolean): string {
  const ext = svc.spec.externalIPs ?? [];
  switch (svc.spec.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return ext.length ? ext.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerStatusString(svc, wide);
      if (ext.length) return [...(lb ? lb.split(',') : []), ...ext].join(',');
      return lb || '<pending>';
    }
    default:
      return '<unknown>';
  }
}

/** makePortString mirrors printers.go#makePortString: "80/TCP" or "80:30080/TCP". */
export function makePortString(svc: Service): string {
  return (svc.spec.ports ?? [])
    .map((p) =>
      p.nodePort && p.nodePort > 0
        ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}`
        : `${p.port}/${p.protocol ?? ''}`,
    )
    .join(',');
}

/** printService mirrors printers.go#printService. */
export function printService(svc: Service, now: number, wide = false): TableRow {
  const cells: (string | number)[] = [
    svc.metadata.name,
    svc.spec.type ?? '',
    svc.spec.clusterIPs?.[0] ?? '<none>',
    getServiceExternalIP(svc, wide),
    makePortString(svc) || '<none>',
    translateTimestampSince(svc.metadata.creationTimestamp, now),
  ];
  if (wide) cells.push(formatLabels(svc.spec.selector));
  return { cells, object: svc };
}

function listWithMoreString(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret === '' ? '<unset>' : ret;
}

/** formatDiscoveryPorts mirrors printers.go#formatDiscoveryPorts. */
export function formatDiscoveryPorts(ports: EndpointSlice['ports']): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const p of ports ?? []) {
    if (list.length < max)
      list.push(p.port !== undefined ? String(p.port) : p.name !== undefined ? p.name : '*');
    else if (list.length === max) more = true;
    count++;
  }
  return listWithMoreString(list, more, count, max);
}

/** formatDiscoveryEndpoints mirrors printers.go#formatDiscoveryEndpoints: up to 3 addresses, then "+ N more...". */
export function formatDiscoveryEndpoints(endpoints: EndpointSlice['endpoints']): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const e of endpoints ?? []) {
    for (const a of e.addresses) {
      if (list.length < max) list.push(a);
      else if (list.length === max) more = true;
      count++;
    }
  }
  return listWithMoreString(list, more, count, max);
}

/** printEndpointSlice mirrors printers.go#printEndpointSlice. */
export function printEndpointSlice(eps: EndpointSlice, now: number): TableRow {
  return {
    cells: [
      eps.metadata.name,
      eps.addressType,
      formatDiscoveryPorts(eps.ports),
      formatDiscoveryEndpoints(eps.endpoints),
      translateTimestampSince(eps.metadata.creationTimestamp, now),
    ],
    object: eps,
  };
}

/** formatEventSource mirrors printers.go#formatEventSource. */
export function formatEventSource(e: Event): string {
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

/** printEvent mirrors printers.go#printEvent. Simplification: no event series. */
export function printEvent(e: Event, now: number, wide = false): TableRow {
  const firstTimestamp = e.firstTimestamp
    ? translateTimestampSince(e.firstTimestamp, now)
    : translateTimestampSince(e.eventTime ?? undefined, now);
  const lastTimestamp = e.lastTimestamp
    ? translateTimestampSince(e.lastTimestamp, now)
    : firstTimestamp;
  const count = e.count || 1;
  const kind = (e.involvedObject?.kind ?? '').toLowerCase();
  const target = e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind;
  const message = (e.message ?? '').trim();
  const cells: (string | number)[] = wide
    ? [
        lastTimestamp,
        e.type,
        e.reason,
        target,
        e.involvedObject?.fieldPath ?? '',
        formatEventSource(e),
        message,
        firstTimestamp,
        count,
        e.metadata.name,
      ]
    : [lastTimestamp, e.type, e.reason, target, message];
  return { cells, object: e };
}

/** printNamespace mirrors printers.go#printNamespace. */
export function printNamespace(ns: Namespace, now: number): TableRow {
  return {
    cells: [
      ns.metadata.name,
      ns.status?.phase ?? '',
      translateTimestampSince(ns.metadata.creationTimestamp, now),
    ],
    object: ns,
  };
}

/** printLease mirrors printers.go#printLease. */
export function printLease(l: Lease, now: number): TableRow {
  return {
    cells: [
      l.metadata.name,
      l.spec?.holderIdentity ?? '',
      translateTimestampSince(l.metadata.creationTimestamp, now),
    ],
    object: l,
  };
}

/** ComponentStatus is core/v1 ComponentStatus (not stored in the simulator). */
export interface ComponentStatus {
  apiVersion: 'v1';
  kind: 'ComponentStatus';
  metadata: { name: string };
  conditions: {
    type: 'Healthy';
    status: 'True' | 'False' | 'Unknown';
    message?: string;
    error?: string;
  }[];
}

/** printComponentStatus mirrors printers.go#printComponentStatus. */
export function printComponentStatus(cs: ComponentStatus): TableRow {
  let status = 'Unknown';
  let message = '';
  let error = '';
  for (const c of cs.conditions) {
    if (c.type === 'Healthy') {
      status = c.status === 'True' ? 'Healthy' : 'Unhealthy';
      message = c.message ?? '';
      error = c.error ?? '';
      break;
    }
  }
  return { cells: [cs.metadata.name, status, message, error] };
}

/**
 * buildTable runs the row function of a resource over its objects, as the server's
 * TableConvertor does: always with Wide set, so rows carry every column and the printer drops
 * the Priority 1 ones unless -o wide.
 */
export function buildTable(resource: string, objects: unknown[], now: number): Table {
  const wide = true;
  const columns = columnDefinitions[resource];
  if (!columns) throw new Error(`no table printer for ${resource}`);
  const rows = objects.map((o): TableRow => {
    switch (resource) {
      case 'pods':
        return printPod(o as Pod, now, wide);
      case 'nodes':
        return printNode(o as Node, now, wide);
      case 'deployments':
        return printDeployment(o as Deployment, now, wide);
      case 'replicasets':
        return printReplicaSet(o as ReplicaSet, now, wide);
      case 'daemonsets':
        return printDaemonSet(o as DaemonSet, now, wide);
      case 'services':
        return printService(o as Service, now, wide);
      case 'endpointslices':
        return printEndpointSlice(o as EndpointSlice, now);
      case 'events':
        return printEvent(o as Event, now, wide);
      case 'namespaces':
        return printNamespace(o as Namespace, now);
      case 'leases':
        return printLease(o as Lease, now);
      case 'serviceaccounts':
        return {
          cells: printServiceAccount(o as ServiceAccount, now),
          object: o as ServiceAccount,
        };
      case 'configmaps':
        return { cells: printConfigMap(o as ConfigMap, now), object: o as ConfigMap };
      case 'componentstatuses':
        return printComponentStatus(o as ComponentStatus);
      case 'poddisruptionbudgets':
        return printPodDisruptionBudget(o as PodDisruptionBudget, now);
      default:
        throw new Error(`no table printer for ${resource}`);
    }
  });
  return { columns, rows };
}

// cellString mirrors printTable's cell formatting: strings are cut at the first newline.
function cellString(cell: string | number): string {
  if (typeof cell === 'number') return String(cell);
  const nl = cell.search(/[\n\r\f]/);
  return nl >= 0 ? `${cell.slice(0, nl)}...` : cell;
}

/**
 * tableText renders one table as tab-separated lines, before the tabwriter: decorateTable (kind
 * prefix, NAMESPACE and LABELS columns) then printTable (wide filtering; no header and no output
 * for an empty table).
 */
export function tableText(table: Table, opts: PrintOptions = {}): string {
  if (table.rows.length === 0) return '';
  const nameColumn = opts.withKind ? table.columns.findIndex((c) => c.format === 'name') : -1;
  const visible = table.columns.map((c) => opts.wide || c.priority === 0);
  const out: string[] = [];
  if (!opts.noHeaders) {
    const headers = table.columns.filter((_, i) => visible[i]).map((c) => c.name.toUpperCase());
    if (opts.withNamespace) headers.unshift('NAMESPACE');
    if (opts.showLabels) headers.push('LABELS');
    out.push(headers.join('\t'));
  }
  for (const row of table.rows) {
    const cells: string[] = [];
    row.cells.forEach((cell, i) => {
      if (i >= table.columns.length || !visible[i]) return;
      let s = cellString(cell);
      if (i === nameColumn) s = `${opts.withKind}/${s}`;
      cells.push(s);
    });
    if (opts.withNamespace) cells.unshift(row.object?.metadata.namespace ?? '');
    if (opts.showLabels) cells.push(formatLabels(row.object?.metadata.labels));
    out.push(cells.join('\t'));
  }
  return out.join('\n') + '\n';
}

/** printTable renders a table through kubectl's tabwriter (minwidth 6, padding 3). */
export function printTable(table: Table, opts: PrintOptions = {}): string {
  return tabwrite(tableText(table, opts), GET_TABWRITER);
}

/**
 * printTables renders several tables, one per resource type, as `kubectl get a,b` and `get all`
 * do: each flushed separately, with a blank line before every group after the first that
 * printed something.
 */
export function printTables(groups: { table: Table; opts: PrintOptions }[]): string {
  let out = '';
  for (const g of groups) {
    const text = printTable(g.table, g.opts);
    if (text === '') continue;
    if (out !== '' && !g.opts.noHeaders) out += '\n';
    out += text;
  }
  return out;
}

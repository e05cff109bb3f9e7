// Mirrors pkg/controller/endpointslice/endpointslice_controller.go with the reconciler of
// staging/src/k8s.io/endpointslice (reconciler.go, utils.go, util/controller_utils.go,
// util/endpointslice_tracker.go, util/trigger_time_tracker.go); see "Simplification:" notes.
// For every Service with a selector it keeps EndpointSlices (at most maxEndpointsPerSlice
// endpoints each) listing the selected Pods that have an IP, reusing and filling existing slices
// so that a change touches as few slices as possible.
// Simplification: IPv4 only; no topology hints or trafficDistribution; no endpoint hostname.

import { deepEqual } from '../../api/clone.ts';
import { isPodReady } from '../../api/podutil.ts';
import type {
  Endpoint,
  EndpointPort,
  EndpointSlice,
  Node,
  OwnerReference,
  Pod,
  Service,
  ServicePort,
} from '../../api/types.ts';
import { isNotFound, StatusError } from '../../apiserver/errors.ts';
import type { Client } from '../../client/client.ts';
import { EventRecorder } from '../../client/events.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../../client/keys.ts';
import { RateLimitingQueue, type Sync } from '../../client/workqueue.ts';
import { formatTime, parseTime } from '../../engine/clock.ts';
import type { Simulation } from '../../engine/simulation.ts';

/** ConcurrentServiceEndpointSyncs is --concurrent-service-endpoint-syncs' default: the workers syncing Services at once. */
export const ConcurrentServiceEndpointSyncs = 5;

/** LabelServiceName names the Service an EndpointSlice belongs to (discovery/v1). */
export const LabelServiceName = 'kubernetes.io/service-name';
/** LabelManagedBy names the controller managing an EndpointSlice. */
export const LabelManagedBy = 'endpointslice.kubernetes.io/managed-by';
/** controllerQualifiedName is this controller's LabelManagedBy value. */
export const controllerQualifiedName = 'endpointslice-controller.k8s.io';
/** IsHeadlessService marks the slices of a Service without a cluster IP. */
export const IsHeadlessService = 'service.kubernetes.io/headless';
/** EndpointsLastChangeTriggerTime is the annotation with the time of the change a write reflects. */
export const EndpointsLastChangeTriggerTime = 'endpoints.kubernetes.io/last-change-trigger-time';

/** maxRetries is how often a failing Service is retried before it is dropped. */
const maxRetries = 15;
/** endpointSliceChangeMinSyncDelay delays a sync caused by an EndpointSlice change (1s). */
const endpointSliceChangeMinSyncDelay = 1000;
const servicesBySelectorIndex = 'selector';
const podsByLabelIndex = 'label';
const slicesByServiceIndex = 'service';

/** StaleInformerCacheError says the EndpointSlice cache lags behind this controller's writes. */
export class StaleInformerCacheError extends Error {}

/** ReconcileError carries the aggregated errors of a reconcile that still wrote what it could. */
export class ReconcileError extends Error {}

type Selector = Record<string, string>;

// serviceSelector is the Service's selector, or undefined for none. An empty selector counts as
// none: it does not survive kube-apiserver's storage round trip (protobuf decodes it as nil).
function serviceSelector(svc: Service): Selector | undefined {
  const s = svc.spec?.selector;
  return s && Object.keys(s).length > 0 ? s : undefined;
}

function selectorMatches(sel: Selector, labels: Record<string, string> | undefined): boolean {
  if (!labels) return false;
  for (const k in sel) if (labels[k] !== sel[k]) return false;
  return true;
}

function publishNotReadyAddresses(svc: Service): boolean {
  return (svc.spec as { publishNotReadyAddresses?: boolean }).publishNotReadyAddresses === true;
}

// hostNameAndDomain reads the two PodSpec fields that affect endpoint hostnames.
/**
 * labelKeys lists "namespace/key=value" for each label, the keys under which the selector index
 * files Services and the label index files Pods. (A memo per labels object was tried: a WeakMap
 * entry per Pod made garbage collection slower at 150,000 Pods than the strings it saved.)
 */
function labelKeys(
  namespace: string,
  labels: Record<string, string> | undefined,
): readonly string[] {
  if (!labels) return noKeys;
  // Stored objects are never changed and a Pod's updates share its labels object, so the keys are
  // kept per labels object: the index asks again on every change of every Pod.
  const memo = labelKeyMemo.get(labels);
  if (memo && memo.namespace === namespace) return memo.keys;
  const keys: string[] = [];
  for (const k in labels) keys.push(`${namespace}/${k}=${labels[k]}`);
  labelKeyMemo.set(labels, { namespace, keys });
  return keys;
}

const noKeys: readonly string[] = [];
const labelKeyMemo = new WeakMap<
  Record<string, string>,
  { namespace: string; keys: readonly string[] }
>();

function hostNameAndDomain(p: Pod): string {
  const s = p.spec as { hostname?: string; subdomain?: string };
  return `${s.hostname ?? ''}.${s.subdomain ?? ''}`;
}

/** podIPv4s is getEndpointAddresses for IPv4: the Pod's IPv4 addresses. */
function podIPv4s(pod: Pod): string[] {
  const ips = pod.status?.podIPs?.length
    ? pod.status.podIPs.map((x) => x.ip)
    : pod.status?.podIP
      ? [pod.status.podIP]
      : [];
  return ips.filter((ip) => !ip.includes(':'));
}

/** shouldPodBeInEndpoints mirrors ShouldPodBeInEndpoints(pod, true): not terminal, has an IP. */
export function shouldPodBeInEndpoints(pod: Pod): boolean {
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return false;
  return !!(pod.status?.podIP || pod.status?.podIPs?.length);
}

/**
 * podEndpointsChanged mirrors upstream: [podChanged, labelsChanged], where podChanged means the
 * endpoint may differ (deletionTimestamp, readiness or IPs changed).
 */
export function podEndpointsChanged(oldPod: Pod, newPod: Pod): [boolean, boolean] {
  // Most updates are status changes that keep the labels and spec objects: identity answers them.
  const labelsChanged =
    (newPod.metadata.labels !== oldPod.metadata.labels &&
      !deepEqual(newPod.metadata.labels ?? {}, oldPod.metadata.labels ?? {})) ||
    (newPod.spec !== oldPod.spec && hostNameAndDomain(newPod) !== hostNameAndDomain(oldPod));
  if (newPod.metadata.deletionTimestamp !== oldPod.metadata.deletionTimestamp)
    return [true, labelsChanged];
  if (isPodReady(oldPod) !== isPodReady(newPod)) return [true, labelsChanged];
  const a = oldPod.status?.podIPs ?? [];
  const b = newPod.status?.podIPs ?? [];
  if (a.length !== b.length) return [true, labelsChanged];
  for (let i = 0; i < a.length; i++) if (a[i].ip !== b[i].ip) return [true, labelsChanged];
  return [false, labelsChanged];
}

/**
 * findPort mirrors FindPort: a numeric targetPort is used as is; a named one is looked up among
 * the containers' ports with the same protocol.
 */
export function findPort(pod: Pod, sp: ServicePort): number | undefined {
  const tp = sp.targetPort ?? sp.port;
  if (typeof tp === 'number') return tp;
  if (/^\d+$/.test(tp)) return Number(tp);
  const proto = sp.protocol ?? 'TCP';
  for (const c of pod.spec.containers ?? [])
    for (const p of c.ports ?? [])
      if (p.name === tp && (p.protocol ?? 'TCP') === proto) return p.containerPort;
  for (const c of pod.spec.initContainers ?? []) {
    if (c.restartPolicy !== 'Always') continue;
    for (const p of c.ports ?? [])
      if (p.name === tp && (p.protocol ?? 'TCP') === proto) return p.containerPort;
  }
  return undefined;
}

/**
 * getEndpointPorts mirrors upstream: one EndpointPort per Service port whose target resolves on
 * this Pod. Simplification: ports keep the Service's order (upstream sorts them by a hash).
 */
export function getEndpointPorts(svc: Service, pod: Pod): EndpointPort[] {
  const out: EndpointPort[] = [];
  if (!svc.spec.ports?.length && svc.spec.clusterIP === 'None') return out;
  for (const sp of svc.spec.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    out.push({ name: sp.name ?? '', protocol: sp.protocol ?? 'TCP', port });
  }
  return out;
}

/** podToEndpoint mirrors upstream: the Pod's addresses, conditions, targetRef, node and zone. */
export function podToEndpoint(pod: Pod, node: Node | undefined, svc: Service): Endpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata.deletionTimestamp;
  // For compatibility, "ready" is never true for a terminating Pod unless publishNotReadyAddresses.
  const ready = publishNotReadyAddresses(svc) || (serving && !terminating);
  const ep: Endpoint = {
    addresses: podIPv4s(pod),
    conditions: { ready, serving, terminating },
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
      uid: pod.metadata.uid,
    },
  };
  if (pod.spec.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata.labels?.['topology.kubernetes.io/zone'];
  if (zone) ep.zone = zone;
  return ep;
}

/** endpointHash mirrors hashEndpoint: sorted addresses and the target's namespace and name. */
function endpointHash(ep: Endpoint): string {
  return `${ep.targetRef?.namespace ?? ''}/${ep.targetRef?.name ?? ''}|${[...ep.addresses].sort().join(',')}`;
}

/** endpointsEqualBeyondHash mirrors upstream: node, zone, conditions and targetRef (not its resourceVersion). */
function endpointsEqualBeyondHash(a: Endpoint, b: Endpoint): boolean {
  if ((a.nodeName ?? null) !== (b.nodeName ?? null) || (a.zone ?? null) !== (b.zone ?? null))
    return false;
  const ca = a.conditions ?? {};
  const cb = b.conditions ?? {};
  if (ca.ready !== cb.ready || ca.serving !== cb.serving || ca.terminating !== cb.terminating)
    return false;
  const ra = a.targetRef ? { ...a.targetRef, resourceVersion: undefined } : undefined;
  const rb = b.targetRef ? { ...b.targetRef, resourceVersion: undefined } : undefined;
  return deepEqual(ra, rb);
}

/** portMapKey is NewPortMapKey: a key for a set of ports (nil and empty alike). */
function portMapKey(ports: readonly EndpointPort[] | null | undefined): string {
  return JSON.stringify(ports ?? []);
}

function ownedBy(slice: EndpointSlice, svc: Service): boolean {
  return (slice.metadata.ownerReferences ?? []).some(
    (o) => o.uid === svc.metadata.uid && o.kind === 'Service' && o.apiVersion === 'v1',
  );
}

function isReservedLabelKey(k: string): boolean {
  return k === LabelServiceName || k === LabelManagedBy || k === IsHeadlessService;
}

/**
 * setEndpointSliceLabels mirrors upstream: the Service's labels (reserved keys excepted), the
 * headless label for a Service without a cluster IP, the service-name and managed-by labels;
 * and whether the slice's own (non-reserved) labels differed from the Service's.
 */
export function setEndpointSliceLabels(
  slice: EndpointSlice,
  svc: Service,
): [Record<string, string>, boolean] {
  const epLabels: Record<string, string> = {};
  const svcLabels: Record<string, string> = {};
  for (const [k, v] of Object.entries(slice.metadata.labels ?? {}))
    if (!isReservedLabelKey(k)) epLabels[k] = v;
  for (const [k, v] of Object.entries(svc.metadata.labels ?? {}))
    if (!isReservedLabelKey(k)) svcLabels[k] = v;
  const updated = !deepEqual(epLabels, svcLabels);
  if (svc.spec.clusterIP === 'None' || !svc.spec.clusterIP) svcLabels[IsHeadlessService] = '';
  svcLabels[LabelServiceName] = svc.metadata.name;
  svcLabels[LabelManagedBy] = controllerQualifiedName;
  return [svcLabels, updated];
}

interface EndpointMeta {
  ports: EndpointPort[];
  addressType: 'IPv4';
}

/** newEndpointSlice mirrors upstream: generateName "<service>-", labels, and the Service as controller. */
export function newEndpointSlice(svc: Service, meta: EndpointMeta): EndpointSlice {
  const ownerRef: OwnerReference = {
    apiVersion: 'v1',
    kind: 'Service',
    name: svc.metadata.name,
    uid: svc.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  const slice: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: `${svc.metadata.name}-`,
      namespace: svc.metadata.namespace,
      labels: {},
      ownerReferences: [ownerRef],
    } as EndpointSlice['metadata'],
    addressType: meta.addressType,
    endpoints: [],
    // An empty list is stored as null (protobuf has no empty list), as `kubectl get -o yaml` shows.
    ports: meta.ports.length ? meta.ports : null,
  };
  slice.metadata.labels = setEndpointSliceLabels(slice, svc)[0];
  return slice;
}

// isPlaceholder is placeholderSliceCompare.DeepEqual against a fresh placeholder: same namespace,
// labels and address type, no ports, no endpoints.
function isPlaceholder(slice: EndpointSlice, placeholder: EndpointSlice): boolean {
  return (
    slice.metadata.namespace === placeholder.metadata.namespace &&
    deepEqual(slice.metadata.labels ?? {}, placeholder.metadata.labels ?? {}) &&
    slice.addressType === placeholder.addressType &&
    (slice.endpoints ?? []).length === 0 &&
    (slice.ports ?? []).length === 0
  );
}

function addTriggerTimeAnnotation(slice: EndpointSlice, triggerTime: number | undefined): void {
  const a = { ...(slice.metadata.annotations ?? {}) };
  if (triggerTime !== undefined) a[EndpointsLastChangeTriggerTime] = formatTime(triggerTime);
  else delete a[EndpointsLastChangeTriggerTime];
  if (Object.keys(a).length) slice.metadata.annotations = a;
  else delete slice.metadata.annotations;
}

/**
 * copyForUpdate copies a cached slice for an update: the sync writes its metadata (labels,
 * annotations) and its endpoints list (replaced or appended to), never an Endpoint or the ports,
 * which stay shared with the cache. The update copies the whole object as it decodes it.
 */
function copyForUpdate(slice: EndpointSlice): EndpointSlice {
  const c = { ...slice, metadata: { ...slice.metadata } };
  if (slice.endpoints) c.endpoints = [...slice.endpoints];
  return c;
}

function rvOf(o: { metadata: { resourceVersion: string } }): number {
  return Number(o.metadata.resourceVersion) || 0;
}

/**
 * EndpointSliceTracker mirrors util.EndpointSliceTracker: the version of every slice this
 * controller last wrote, per Service, so that a sync can tell its cache is stale and an event
 * can tell whether someone else changed a slice.
 * Simplification: resourceVersions stand in for metadata.generation (the simulated API server
 * does not bump an EndpointSlice's generation).
 */
export class EndpointSliceTracker {
  private readonly byService = new Map<string, Map<string, number>>();
  private readonly servicesByUID = new Map<string, string>();

  private serviceKeyOf(slice: EndpointSlice): string {
    return `${slice.metadata.namespace}/${slice.metadata.labels?.[LabelServiceName] ?? ''}`;
  }

  has(slice: EndpointSlice): boolean {
    return this.byService.get(this.serviceKeyOf(slice))?.has(slice.metadata.uid) ?? false;
  }

  /** shouldSync is true for a slice not written by this controller, or changed since. */
  shouldSync(slice: EndpointSlice): boolean {
    const g = this.byService.get(this.serviceKeyOf(slice))?.get(slice.metadata.uid);
    return g === undefined || rvOf(slice) > g;
  }

  /** staleSlices is true when the cache misses a write of ours or still holds a deleted slice. */
  staleSlices(svc: Service, slices: readonly EndpointSlice[]): boolean {
    const key = metaNamespaceKey(svc);
    const tracked = this.servicesByUID.get(key);
    if (tracked && svc.metadata.uid && tracked !== svc.metadata.uid) this.byService.delete(key);
    this.servicesByUID.set(key, svc.metadata.uid);
    const gfs = this.byService.get(key);
    if (!gfs) return false;
    const provided = new Set<string>();
    for (const s of slices) {
      provided.add(s.metadata.uid);
      const g = gfs.get(s.metadata.uid);
      if (g !== undefined && (g === -1 || g > rvOf(s))) return true;
    }
    for (const [uid, g] of gfs) if (g !== -1 && !provided.has(uid)) return true;
    return false;
  }

  update(slice: EndpointSlice): void {
    const key = this.serviceKeyOf(slice);
    let gfs = this.byService.get(key);
    if (!gfs) this.byService.set(key, (gfs = new Map()));
    gfs.set(slice.metadata.uid, rvOf(slice));
  }

  expectDeletion(slice: EndpointSlice): void {
    const key = this.serviceKeyOf(slice);
    let gfs = this.byService.get(key);
    if (!gfs) this.byService.set(key, (gfs = new Map()));
    gfs.set(slice.metadata.uid, -1);
  }

  /** handleDeletion forgets a deleted slice; false if the deletion was not expected. */
  handleDeletion(slice: EndpointSlice): boolean {
    const gfs = this.byService.get(this.serviceKeyOf(slice));
    if (gfs) {
      const g = gfs.get(slice.metadata.uid);
      gfs.delete(slice.metadata.uid);
      if (g !== undefined && g !== -1) return false;
    }
    return true;
  }

  deleteService(namespace: string, name: string): void {
    this.byService.delete(`${namespace}/${name}`);
    this.servicesByUID.delete(`${namespace}/${name}`);
  }
}

/**
 * TriggerTimeTracker mirrors util.TriggerTimeTracker: the time of the oldest change (a Pod's Ready
 * transition, or the Service's creation) not yet reflected in the Service's slices.
 */
export class TriggerTimeTracker {
  private readonly states = new Map<string, { pods: Map<string, number>; service: number }>();

  compute(namespace: string, svc: Service, pods: readonly Pod[]): number | undefined {
    const key = `${namespace}/${svc.metadata.name}`;
    const state = this.states.get(key) ?? { pods: new Map<string, number>(), service: -Infinity };
    let min: number | undefined;
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const c = pod.status?.conditions?.find((x) => x.type === 'Ready');
      const t = c?.lastTransitionTime ? parseTime(c.lastTransitionTime) : NaN;
      if (Number.isNaN(t)) continue;
      podTimes.set(pod.metadata.name, t);
      if (t > (state.pods.get(pod.metadata.name) ?? -Infinity))
        min = min === undefined ? t : Math.min(min, t);
    }
    const st = parseTime(svc.metadata.creationTimestamp);
    if (st > state.service) min = min === undefined ? st : Math.min(min, st);
    this.states.set(key, { pods: podTimes, service: st });
    return min;
  }

  deleteService(namespace: string, name: string): void {
    this.states.delete(`${namespace}/${name}`);
  }
}

/** EndpointSliceController is kube-controller-manager's endpointslice-controller. */
export class EndpointSliceController {
  static readonly NAME = 'endpointslice-controller';

  readonly services: Informer<Service>;
  readonly pods: Informer<Pod>;
  readonly nodes: Informer<Node>;
  readonly endpointSlices: Informer<EndpointSlice>;
  readonly tracker = new EndpointSliceTracker();
  private readonly triggerTimeTracker = new TriggerTimeTracker();
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly queue: RateLimitingQueue;
  private readonly maxEndpointsPerSlice: number;

  constructor(sim: Simulation, client: Client, informers = new SharedInformerFactory(client)) {
    this.sim = sim;
    this.client = client;
    this.maxEndpointsPerSlice = sim.settings.maxEndpointsPerSlice;
    this.recorder = new EventRecorder(client, 'endpoint-slice-controller');
    // 1s doubling to 1000s, as upstream's service queue (the 10 qps bucket is not modelled).
    this.queue = new RateLimitingQueue(
      sim,
      {
        name: 'endpoint_slice',
        baseDelay: 1000,
        maxDelay: 1_000_000,
        workers: ConcurrentServiceEndpointSyncs,
      },
      (key) => this.processNextServiceWorkItem(key),
    );

    // Services are indexed by their selector's key=value pairs, so that the Services of a Pod are
    // found from its labels without scanning the namespace.
    this.services = informers
      .informerFor<Service>('services', EndpointSliceController.NAME)
      .addIndexer(servicesBySelectorIndex, (s) => {
        const sel = serviceSelector(s);
        return sel ? Object.entries(sel).map(([k, v]) => `${s.metadata.namespace}/${k}=${v}`) : [];
      });
    // Every Pod change runs this.
    this.pods = informers
      .informerFor<Pod>('pods', EndpointSliceController.NAME)
      .addIndexer(podsByLabelIndex, (p) =>
        labelKeys(p.metadata.namespace ?? '', p.metadata.labels),
      );
    this.nodes = informers.informerFor<Node>('nodes', EndpointSliceController.NAME);
    this.endpointSlices = informers
      .informerFor<EndpointSlice>('endpointslices', EndpointSliceController.NAME)
      .addIndexer(slicesByServiceIndex, (s) =>
        s.metadata.labels?.[LabelManagedBy] === controllerQualifiedName &&
        s.metadata.labels?.[LabelServiceName]
          ? [`${s.metadata.namespace}/${s.metadata.labels[LabelServiceName]}`]
          : [],
      );

    this.services.addEventHandler(
      {
        onAdd: (s) => this.queue.add(metaNamespaceKey(s)),
        onUpdate: (_o, s) => this.queue.add(metaNamespaceKey(s)),
        onDelete: (s) => this.queue.add(metaNamespaceKey(s)),
      },
      EndpointSliceController.NAME,
    );
    this.pods.addEventHandler(
      {
        onAdd: (p) => this.addPod(p),
        onUpdate: (o, p) => this.updatePod(o, p),
        onDelete: (p) => this.addPod(p),
      },
      EndpointSliceController.NAME,
    );
    this.endpointSlices.addEventHandler(
      {
        onAdd: (s) => this.onEndpointSliceAdd(s),
        onUpdate: (o, s) => this.onEndpointSliceUpdate(o, s),
        onDelete: (s) => this.onEndpointSliceDelete(s),
      },
      EndpointSliceController.NAME,
    );
  }

  start(): void {
    this.services.start();
    this.pods.start();
    this.nodes.start();
    this.endpointSlices.start();
  }

  stop(): void {
    this.queue.shutDown();
    this.services.stop();
    this.pods.stop();
    this.nodes.stop();
    this.endpointSlices.stop();
  }

  // ---- event handlers: they only enqueue Service keys ----

  // servicesForPod is getServicesForPod through the selector index: O(labels x candidates).
  private servicesForPod(
    namespace: string,
    labels: Record<string, string> | undefined,
  ): Set<string> {
    const out = new Set<string>();
    if (!labels) return out;
    for (const key of labelKeys(namespace, labels)) {
      for (const s of this.services.byIndex(servicesBySelectorIndex, key)) {
        const sel = serviceSelector(s);
        if (sel && selectorMatches(sel, labels)) out.add(metaNamespaceKey(s));
      }
    }
    return out;
  }

  private addPod(p: Pod): void {
    for (const key of this.servicesForPod(p.metadata.namespace ?? '', p.metadata.labels))
      this.queue.add(key);
  }

  // updatePod mirrors GetServicesToUpdateOnPodChange: only a change that can alter an endpoint
  // or the Pod's Service membership enqueues anything.
  private updatePod(old: Pod, cur: Pod): void {
    if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
    const [podChanged, labelsChanged] = podEndpointsChanged(old, cur);
    if (!podChanged && !labelsChanged) return;
    const ns = cur.metadata.namespace ?? '';
    let services = this.servicesForPod(ns, cur.metadata.labels);
    if (labelsChanged) {
      const oldServices = this.servicesForPod(ns, old.metadata.labels);
      if (podChanged) services = new Set([...services, ...oldServices]);
      else
        services = new Set([
          ...[...services].filter((s) => !oldServices.has(s)),
          ...[...oldServices].filter((s) => !services.has(s)),
        ]);
    }
    for (const key of services) this.queue.add(key);
  }

  private queueServiceForEndpointSlice(s: EndpointSlice): void {
    const name = s.metadata.labels?.[LabelServiceName];
    if (!name) return;
    this.queue.addAfter(`${s.metadata.namespace}/${name}`, endpointSliceChangeMinSyncDelay);
  }

  private managed(s: EndpointSlice): boolean {
    return s.metadata.labels?.[LabelManagedBy] === controllerQualifiedName;
  }

  private onEndpointSliceAdd(s: EndpointSlice): void {
    if (this.managed(s) && this.tracker.shouldSync(s)) this.queueServiceForEndpointSlice(s);
  }

  private onEndpointSliceUpdate(old: EndpointSlice, s: EndpointSlice): void {
    if (s.metadata.labels?.[LabelServiceName] !== old.metadata.labels?.[LabelServiceName]) {
      this.queueServiceForEndpointSlice(s);
      this.queueServiceForEndpointSlice(old);
      return;
    }
    if (this.managed(old) !== this.managed(s) || (this.managed(s) && this.tracker.shouldSync(s)))
      this.queueServiceForEndpointSlice(s);
  }

  private onEndpointSliceDelete(s: EndpointSlice): void {
    if (this.managed(s) && this.tracker.has(s) && !this.tracker.handleDeletion(s))
      this.queueServiceForEndpointSlice(s);
  }

  // ---- sync ----

  private *processNextServiceWorkItem(key: string): Sync {
    try {
      yield* this.syncService(key);
      this.queue.forget(key);
    } catch (e) {
      if (
        !(e instanceof StatusError) &&
        !(e instanceof StaleInformerCacheError) &&
        !(e instanceof ReconcileError)
      )
        throw e;
      if (this.queue.numRequeues(key) < maxRetries) this.queue.addRateLimited(key);
      else this.queue.forget(key);
    }
  }

  // podsForSelector lists the namespace's Pods matching sel through the smallest label bucket.
  private podsForSelector(namespace: string, sel: Selector): Pod[] {
    let best: Pod[] | undefined;
    for (const k in sel) {
      const bucket = this.pods.byIndex(podsByLabelIndex, `${namespace}/${k}=${sel[k]}`);
      if (!best || bucket.length < best.length) best = bucket;
      if (bucket.length === 0) break;
    }
    const pods = (best ?? []).filter((p) => selectorMatches(sel, p.metadata.labels));
    // Simplification: Pods are taken in name order (upstream's lister order is arbitrary).
    return pods.sort((a, b) =>
      a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0,
    );
  }

  /**
   * syncService makes the Service's managed EndpointSlices list exactly its selected Pods that
   * have an IP. Services of type ExternalName or without a selector get no slices from here.
   * Level-triggered: a second run writes nothing.
   */
  *syncService(key: string): Sync {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const svc = this.services.get(namespace, name);
    if (!svc) {
      // Deleted: the garbage collector removes its slices through their ownerReferences.
      this.triggerTimeTracker.deleteService(namespace, name);
      this.tracker.deleteService(namespace, name);
      return;
    }
    if (svc.spec.type === 'ExternalName') return;
    const sel = serviceSelector(svc);
    if (!sel) return;
    const pods = this.podsForSelector(namespace, sel);
    const slices = this.endpointSlices
      .byIndex(slicesByServiceIndex, key)
      .filter((s) => !s.metadata.deletionTimestamp);
    if (this.tracker.staleSlices(svc, slices))
      throw new StaleInformerCacheError('EndpointSlice informer cache is out of date');
    const triggerTime = this.triggerTimeTracker.compute(namespace, svc, pods);
    try {
      yield* this.reconcile(svc, pods, slices, triggerTime);
    } catch (e) {
      if (e instanceof StatusError || e instanceof ReconcileError)
        this.recorder.event(
          svc,
          'Warning',
          'FailedToUpdateEndpointSlices',
          `Error updating Endpoint Slices for Service ${key}: ${e.message}`,
        );
      throw e;
    }
  }

  /**
   * reconcile mirrors Reconciler.Reconcile for the IPv4 address type: slices of another address
   * type are deleted, the rest reconciled.
   */
  *reconcile(
    svc: Service,
    pods: readonly Pod[],
    existing: readonly EndpointSlice[],
    triggerTime: number | undefined,
  ): Sync {
    const toDelete: EndpointSlice[] = [];
    const ipv4: EndpointSlice[] = [];
    for (const s of existing) (s.addressType === 'IPv4' ? ipv4 : toDelete).push(s);
    const errs: string[] = [];
    yield* this.reconcileByAddressType(svc, pods, ipv4, triggerTime, errs);
    for (const s of toDelete) yield* this.deleteEndpointSlice(svc, s);
    if (errs.length) throw new ReconcileError(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  }

  private *reconcileByAddressType(
    svc: Service,
    pods: readonly Pod[],
    existing: readonly EndpointSlice[],
    triggerTime: number | undefined,
    errs: string[],
  ): Sync {
    const slicesToCreate: EndpointSlice[] = [];
    const slicesToUpdate: EndpointSlice[] = [];
    let slicesToDelete: EndpointSlice[] = [];

    // Existing state, by port map.
    const existingByPortMap = new Map<string, EndpointSlice[]>();
    for (const s of existing) {
      if (!ownedBy(s, svc)) {
        slicesToDelete.push(s);
        continue;
      }
      const k = portMapKey(s.ports);
      let list = existingByPortMap.get(k);
      if (!list) existingByPortMap.set(k, (list = []));
      list.push(s);
    }

    // Desired state, by port map.
    const desiredMeta = new Map<string, EndpointMeta>();
    const desiredEndpoints = new Map<string, Map<string, Endpoint>>();
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod)) continue;
      const ports = getEndpointPorts(svc, pod);
      const k = portMapKey(ports);
      let set = desiredEndpoints.get(k);
      if (!set) desiredEndpoints.set(k, (set = new Map()));
      if (!desiredMeta.has(k)) desiredMeta.set(k, { ports, addressType: 'IPv4' });
      const node = this.nodes.get(undefined, pod.spec.nodeName ?? '');
      if (!node && !publishNotReadyAddresses(svc)) {
        // Keep the slice correct without the Pod, and retry later (the Pod GC may remove it).
        errs.push(
          `skipping Pod ${pod.metadata.name} for Service ${svc.metadata.namespace}/${svc.metadata.name}: Node ${pod.spec.nodeName ?? ''} Not Found`,
        );
        continue;
      }
      const ep = podToEndpoint(pod, node, svc);
      if (ep.addresses.length > 0) set.set(endpointHash(ep), ep);
    }

    for (const [k, desired] of desiredEndpoints) {
      const r = this.reconcileByPortMapping(
        svc,
        existingByPortMap.get(k) ?? [],
        desired,
        desiredMeta.get(k)!,
      );
      slicesToCreate.push(...r.create);
      slicesToUpdate.push(...r.update);
      slicesToDelete.push(...r.delete);
    }
    // Port maps no longer desired lose their slices.
    for (const [k, list] of existingByPortMap)
      if (!desiredEndpoints.has(k)) slicesToDelete.push(...list);

    // A Service with no endpoints keeps one empty placeholder slice.
    if (existing.length === slicesToDelete.length && slicesToCreate.length < 1) {
      const placeholder = newEndpointSlice(svc, { ports: [], addressType: 'IPv4' });
      if (slicesToDelete.length === 1 && isPlaceholder(slicesToDelete[0], placeholder))
        slicesToDelete = [];
      else slicesToCreate.push(placeholder);
    }
    // Simplification: topology hints are not modelled; nothing to add or remove.
    yield* this.finalize(svc, slicesToCreate, slicesToUpdate, slicesToDelete, triggerTime);
  }

  /**
   * reconcileByPortMapping mirrors upstream: (1) keep the desired endpoints found in existing
   * slices, updating changed ones; (2) fill slices already being updated, fullest first; (3) put
   * what is left into the unchanged slice that ends closest to full, or new slices.
   */
  private reconcileByPortMapping(
    svc: Service,
    existing: readonly EndpointSlice[],
    desired: Map<string, Endpoint>,
    meta: EndpointMeta,
  ): { create: EndpointSlice[]; update: EndpointSlice[]; delete: EndpointSlice[] } {
    const max = this.maxEndpointsPerSlice;
    const slicesByName = new Map<string, EndpointSlice>();
    const unchanged = new Set<string>();
    const toUpdate = new Set<string>();
    const toDelete = new Set<string>();

    // 1. Drop endpoints no longer desired; refresh those that changed.
    for (const s of existing) {
      slicesByName.set(s.metadata.name, s);
      const newEndpoints: Endpoint[] = [];
      let endpointUpdated = false;
      for (const ep of s.endpoints ?? []) {
        const h = endpointHash(ep);
        const got = desired.get(h);
        if (!got) continue;
        newEndpoints.push(got);
        if (!endpointsEqualBeyondHash(got, ep)) endpointUpdated = true;
        desired.delete(h);
      }
      const [labels, labelsChanged] = setEndpointSliceLabels(s, svc);
      if (endpointUpdated || (s.endpoints ?? []).length !== newEndpoints.length) {
        if (newEndpoints.length === 0) toDelete.add(s.metadata.name);
        else {
          const c = copyForUpdate(s);
          c.endpoints = newEndpoints;
          c.metadata.labels = labels;
          slicesByName.set(s.metadata.name, c);
          toUpdate.add(s.metadata.name);
        }
      } else if (labelsChanged) {
        const c = copyForUpdate(s);
        c.metadata.labels = labels;
        slicesByName.set(s.metadata.name, c);
        toUpdate.add(s.metadata.name);
      } else unchanged.add(s.metadata.name);
    }

    // Simplification: PopAny takes endpoints in Pod order (Go's map order is random).
    const pending = [...desired.values()];
    let next = 0;
    const left = () => pending.length - next;

    // 2. Fill the slices being updated anyway, fullest first.
    if (left() > 0 && toUpdate.size > 0) {
      const slices = [...toUpdate].map((n) => slicesByName.get(n)!);
      slices.sort((a, b) => b.endpoints.length - a.endpoints.length);
      for (const s of slices)
        while (left() > 0 && s.endpoints.length < max) s.endpoints.push(pending[next++]);
    }

    // 3. Put the rest into the unchanged slice closest to full, else into new slices.
    const create: EndpointSlice[] = [];
    while (left() > 0) {
      let sliceToFill: EndpointSlice | undefined;
      if (left() < max && unchanged.size > 0) {
        let closestDiff = max;
        for (const n of unchanged) {
          const s = slicesByName.get(n)!;
          const diff = max - (left() + s.endpoints.length);
          if (diff >= 0 && diff < closestDiff) {
            closestDiff = diff;
            sliceToFill = s;
            if (diff === 0) break;
          }
        }
      }
      if (!sliceToFill) sliceToFill = newEndpointSlice(svc, meta);
      else {
        sliceToFill = copyForUpdate(sliceToFill);
        slicesByName.set(sliceToFill.metadata.name, sliceToFill);
      }
      while (left() > 0 && sliceToFill.endpoints.length < max)
        sliceToFill.endpoints.push(pending[next++]);
      if (sliceToFill.metadata.name) {
        toUpdate.add(sliceToFill.metadata.name);
        unchanged.delete(sliceToFill.metadata.name);
      } else create.push(sliceToFill);
    }

    return {
      create,
      update: [...toUpdate].map((n) => slicesByName.get(n)!),
      delete: [...toDelete].map((n) => slicesByName.get(n)!),
    };
  }

  /**
   * finalize mirrors upstream: creates paired with deletions become updates of the slices that
   * would have been deleted; then creates (not for a Service being deleted), updates, deletes.
   */
  private *finalize(
    svc: Service,
    create: EndpointSlice[],
    update: EndpointSlice[],
    del: EndpointSlice[],
    triggerTime: number | undefined,
  ): Sync {
    for (let i = 0; i < del.length;) {
      if (create.length === 0) break;
      const d = del[i];
      const c = create[create.length - 1];
      if (d.addressType === c.addressType && ownedBy(d, svc)) {
        c.metadata.name = d.metadata.name;
        delete c.metadata.generateName;
        create.pop();
        update.push(c);
        del.splice(i, 1);
      } else i++;
    }
    if (!svc.metadata.deletionTimestamp) {
      for (const s of create) {
        addTriggerTimeAnnotation(s, triggerTime);
        yield* this.client.throttle();
        this.tracker.update(this.client.create<EndpointSlice>('endpointslices', s));
      }
    }
    for (const s of update) {
      addTriggerTimeAnnotation(s, triggerTime);
      yield* this.client.throttle();
      this.tracker.update(this.client.update<EndpointSlice>('endpointslices', s));
    }
    for (const s of del) yield* this.deleteEndpointSlice(svc, s);
  }

  // deleteEndpointSlice tolerates slices that are already gone.
  private *deleteEndpointSlice(svc: Service, s: EndpointSlice): Sync {
    try {
      yield* this.client.throttle();
      this.client.delete('endpointslices', svc.metadata.namespace, s.metadata.name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      return;
    }
    this.tracker.expectDeletion(s);
  }
}

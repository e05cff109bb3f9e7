// Mirrors the request path of kube-apiserver (staging/src/k8s.io/apiserver/pkg/endpoints/handlers
// and pkg/registry/generic/registry/store.go): decode, default, admit, validate, write to etcd with
// optimistic concurrency, and fan watch events out to every watcher (the watch cache,
// staging/src/k8s.io/apiserver/pkg/storage/cacher). Every client reaches the cluster through here;
// only this component talks to etcd.
// Simplification: Pods carry no metadata.generation and the kubelet reports no observedGeneration
// (PodObservedGenerationTracking, beta and on by default in v1.34: pkg/registry/core/pod/strategy.go
// updatePodGeneration).

import { changedFields, deepClone, deepFreeze, hasUndefined } from '../api/clone.ts';
import type { Selector } from '../api/labels.ts';
import { labelSelectorAsSelector } from '../api/labels.ts';
import { isPodReady } from '../api/podutil.ts';
import type { AnyObject, Binding, Deployment, Event, Eviction, IngressClass, IPAddress, Namespace, Pod, PodDisruptionBudget, ReplicaSet, ResourceName, Scale, Service, ServiceAccount, ServiceCIDR } from '../api/types.ts';
import { updateDisruptionAllowedCondition } from '../registry/policy/poddisruptionbudgets/helpers.ts';
import { formatTime } from '../engine/clock.ts';
import { randString, type Rng } from '../engine/rng.ts';
import type { Simulation } from '../engine/simulation.ts';
import type { RequestEntry } from '../engine/trace.ts';
import type { EtcdStore, KeyValue, WatchEvent } from '../etcd/store.ts';
import { defaultIngressClass, defaultTolerationSeconds, priorityAdmission, taintNodesByCondition } from './admission.ts';
import {
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newConnectionError,
  newInternalError,
  newInvalid,
  newNotFound,
  newUnprocessable,
  newTooManyRequests,
  newForbidden,
  newNotFoundPath,
  newInternalStatus,
  OptimisticLockErrorMsg,
  type FieldError,
} from './errors.ts';
import { apiVersionOf, keyFor, qualifiedKind, qualifiedResource, resources, type ResourceInfo } from './registry.ts';
import { validateName } from './validation.ts';
import { decode, decodeStrict } from './decode.ts';
import { FieldSelector, listFieldSelector, selectableField } from './fields.ts';
import { defaultServiceNodePortRange, PortAllocator } from './portallocator.ts';
import { clusterIPAllocationError, parseIPv4, ServiceIPAllocator } from './ipallocator.ts';
import { serviceAccountAdmission, type ServiceAccountLookup } from './serviceaccount-admission.ts';
import { applyJSONPatch, applyStrategicMergePatch, JSONPatchError, JSONPatchType, strategicMergePatch, StrategicMergePatchType, type PatchType } from './patch.ts';

export const APISERVER = 'kube-apiserver';

/** EvictionRefused is the message of the 429 an eviction gets while a budget forbids it (eviction.go). */
export const EvictionRefused = "Cannot evict pod as it would violate the pod's disruption budget.";

/** MaxDisruptedPodSize bounds status.disruptedPods (eviction.go). */
const MaxDisruptedPodSize = 2000;
export const ETCD = 'etcd';

/** ListOptions narrows a list or watch, as metav1.ListOptions does. */
export interface ListOptions {
  namespace?: string;
  labelSelector?: Selector;
  /**
   * fieldSelector is either the set components pass (spec.nodeName, metadata.name; matched without
   * parsing), or the text of a fieldSelector parameter, which list and watch parse and convert as
   * kube-apiserver does (fields.ts; a bad one is 400 BadRequest), or a selector so parsed.
   */
  fieldSelector?: { 'spec.nodeName'?: string; 'metadata.name'?: string } | string | FieldSelector;
}

// nodeNameOf is the spec.nodeName a pod watch requires exactly (the watch cache's index key).
function nodeNameOf(opts: ListOptions): string | undefined {
  const fs = opts.fieldSelector;
  if (fs === undefined || typeof fs === 'string') return undefined;
  return fs instanceof FieldSelector ? fs.requiresExactMatch('spec.nodeName') : fs['spec.nodeName'];
}

// nodeNamedBy is the metadata.name a node watch requires exactly (the kubelet's watch of its Node).
function nodeNamedBy(opts: ListOptions): string | undefined {
  const fs = opts.fieldSelector;
  if (fs === undefined || typeof fs === 'string') return undefined;
  return fs instanceof FieldSelector ? fs.requiresExactMatch('metadata.name') : fs['metadata.name'];
}

// parsedListOptions replaces a fieldSelector parameter's text with the selector kube-apiserver
// parses from it for resource (handlers/get.go ListResource: DecodeParameters, then Transform
// with the kind's field label conversion); either failing is 400 BadRequest.
function parsedListOptions(resource: ResourceName, opts: ListOptions): ListOptions {
  if (typeof opts.fieldSelector !== 'string') return opts;
  try {
    return { ...opts, fieldSelector: listFieldSelector(resource, opts.fieldSelector) };
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
}

export interface ListResult<T> {
  items: T[];
  resourceVersion: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** WatchStream is one open watch: a component receiving events for one resource. */
export interface WatchStream {
  readonly id: number;
  readonly user: string;
  readonly resource: ResourceName;
  readonly opts: ListOptions;
  /**
   * handler receives each event; traced says whether kube-apiserver recorded the delivery (a
   * shared informer records one delivery per controller reading it instead, see traceWatch).
   */
  readonly handler: (type: WatchEventType, obj: AnyObject, revision: number) => void;
  /** traced is false for a shared informer's stream, which traces its deliveries itself. */
  readonly traced: boolean;
  /** onClose is called when the stream breaks (the watcher became unreachable). */
  readonly onClose: () => void;
  /** since is the store revision the watch started from; older events are not delivered. */
  readonly since: number;
  /** node is the node the watching component runs on (nodeOf its user). */
  readonly node: string | undefined;
  closed: boolean;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** NodeOf returns the node a component runs on, from names like "kubelet@node-1". */
export function nodeOf(user: string): string | undefined {
  const i = user.indexOf('@');
  return i < 0 ? undefined : user.slice(i + 1);
}

/** serviceClusterIPRange is kube-apiserver's --service-cluster-ip-range (kubeadm's default). */
export const serviceClusterIPRange = '10.96.0.0/12';

/** KubeAPIServer is the hub every component talks to. */
export class KubeAPIServer {
  readonly sim: Simulation;
  private readonly etcd: EtcdStore;
  /** down makes every request fail, as when kube-apiserver is stopped. */
  down = false;
  /**
   * etcdError is what a request fails with while etcd is down: etcd's request timeout, or
   * another etcd error (server/etcdserver/errors) when a Raft cluster has no quorum or leader.
   * Simplification: the request fails at once; upstream it waits for etcd's request timeout
   * (7 s by default) first.
   */
  etcdError = 'etcdserver: request timed out';
  /** unreachable holds nodes that cannot reach kube-apiserver (partitioned or powered off). */
  readonly unreachable = new Set<string>();
  /** freeze deep-freezes stored objects so that a component mutating cached state fails loudly. */
  freeze = false;
  /** recordChanges keeps every committed write for `--json` output. */
  recordChanges = true;
  readonly changes: { t: number; type: WatchEventType; resource: ResourceName; object: AnyObject }[] = [];
  private readonly watchers = new Map<ResourceName, WatchStream[]>();
  private readonly podWatchersByNode = new Map<string, WatchStream[]>();
  /** nodeWatchersByName are the node watches of one Node (each kubelet's, metadata.name=<node>). */
  private readonly nodeWatchersByName = new Map<string, WatchStream[]>();
  private watchId = 0;
  /** leaseManager hands out the etcd leases of writes with a TTL (Events). */
  private readonly leaseManager: LeaseManager;
  /** clusterIPs is the Service ClusterIP allocator (the default ServiceCIDR). */
  private readonly clusterIPs = new ServiceIPAllocator(serviceClusterIPRange);
  /** ipAllocatorRng draws the UIDs of the IPAddress and ServiceCIDR objects, on a stream of its own. */
  private readonly ipAllocatorRng: Rng;
  /** tokenVolumeRng draws the ServiceAccount plugin's volume names, on a stream of its own. */
  private readonly tokenVolumeRng;
  /** serviceAccounts is what the ServiceAccount admission plugin looks ServiceAccounts up in. */
  private readonly serviceAccounts: ServiceAccountLookup;
  /** nodePorts is the Service node-port allocator, drawing from its own stream of the rng. */
  private readonly nodePorts: PortAllocator;
  private readonly rng;
  /** address is what kubectl and kubelets dial. */
  address = '10.0.0.1:6443';

  constructor(sim: Simulation, etcd: EtcdStore) {
    this.sim = sim;
    this.etcd = etcd;
    this.rng = sim.rng.fork('kube-apiserver');
    this.nodePorts = new PortAllocator(defaultServiceNodePortRange, sim.rng.fork('kube-apiserver/service-node-port-allocator'));
    this.tokenVolumeRng = sim.rng.fork('kube-apiserver/serviceaccount-admission');
    this.ipAllocatorRng = sim.rng.fork('kube-apiserver/ipallocator');
    this.serviceAccounts = {
      get: (ns, name) => this.etcd.get<ServiceAccount>(keyFor(resources.serviceaccounts, ns, name))?.value,
      defaultPending: (ns) => this.etcd.get<Namespace>(keyFor(resources.namespaces, undefined, ns))?.value.status?.phase === 'Active',
    };
    etcd.watch('/registry/', (ev) => this.onStoreEvent(ev));
    etcd.useClock(sim);
    this.leaseManager = new LeaseManager(sim, etcd);
  }

  /** reachable reports whether a component can open a connection to kube-apiserver. */
  reachable(user: string): boolean {
    if (this.down) return false;
    if (this.unreachable.size === 0) return true;
    let n = this.userNodes.get(user);
    if (n === undefined) this.userNodes.set(user, (n = nodeOf(user) ?? ''));
    return n === '' || !this.unreachable.has(n);
  }

  // userNodes caches nodeOf per user ('' for a user on no node).
  private readonly userNodes = new Map<string, string>();

  /**
   * checkConnection throws the error a client sees when it cannot reach kube-apiserver (or
   * kube-apiserver cannot reach etcd); for requests that are not modelled as resources, such as
   * GET /api/v1/componentstatuses.
   */
  checkConnection(user: string): void {
    this.connect(user);
  }

  private connect(user: string, reachable = this.reachable(user)): void {
    if (this.down) throw newConnectionError(`The connection to the server ${this.address} was refused - did you specify the right host or port?`);
    if (!reachable) throw newConnectionError(`Get "https://${this.address}/api": dial tcp ${this.address}: i/o timeout`);
    if (this.etcd.down && user !== ETCD) throw newConnectionError(this.etcdError);
  }

  private info(resource: ResourceName): ResourceInfo {
    const r = resources[resource];
    if (!r) throw newNotFound('resource', resource);
    return (this.served = r);
  }

  // served is the resource of the request being served (the last one info resolved): the store
  // event of its write is looked up by it before resourceOfKey (no etcd prefix nests in another).
  private served: ResourceInfo | undefined;

  private request(
    user: string,
    verb: 'create' | 'get' | 'list' | 'update' | 'patch' | 'delete' | 'watch',
    resource: string,
    ns: string | undefined,
    name: string | undefined,
    fn: () => { code: number; fields?: string[]; name?: string },
    patchType?: PatchType,
  ): void {
    const connected = this.reachable(user);
    const reachable = connected && !this.etcd.down;
    let code = reachable ? 200 : 0;
    let reason: string | undefined;
    let fields: string[] | undefined;
    try {
      this.connect(user, connected);
      const r = fn();
      code = r.code;
      fields = r.fields;
      // A create with generateName concerns the object it made (its generated name).
      if (r.name !== undefined) name = r.name;
    } catch (e) {
      const st = (e as { status?: { code: number; reason: string } }).status;
      code = st?.code ?? 500;
      reason = st?.reason ?? 'InternalError';
      throw e;
    } finally {
      if ((code !== 0 || reachable) && this.sim.records('request')) {
        const entry: Omit<RequestEntry, 't' | 'seq'> = { kind: 'request', from: user, to: APISERVER, verb, resource, namespace: ns, name, code, reason, fields };
        if (this.requestGroup) entry.group = this.requestGroup;
        if (patchType !== undefined) entry.patchType = patchType;
        this.sim.record(entry);
      }
    }
  }

  /** requestGroup is the API group of the request being served when it is not the resource's own. */
  private requestGroup: string | undefined;

  /**
   * createEventsV1 is POST /apis/events.k8s.io/v1/namespaces/{ns}/events. Both Event APIs store
   * the same objects (pkg/registry/core/event serves both): ev is the events.k8s.io/v1 Event
   * already converted to its stored (core/v1) form.
   */
  createEventsV1(user: string, ev: Event): Event {
    this.requestGroup = 'events.k8s.io';
    try {
      return this.create(user, 'events', ev, true);
    } finally {
      this.requestGroup = undefined;
    }
  }

  /** patchEventsV1 is PATCH /apis/events.k8s.io/v1/namespaces/{ns}/events/{name}, a strategic merge patch. */
  patchEventsV1(user: string, ns: string, name: string, patch: unknown): Event {
    this.requestGroup = 'events.k8s.io';
    try {
      return this.patch<Event>(user, 'events', ns, name, patch, undefined, StrategicMergePatchType);
    } finally {
      this.requestGroup = undefined;
    }
  }

  /**
   * jsonClients are the users whose bodies arrive as JSON and are decoded strictly (kubectl sends
   * fieldValidation=Strict). Components build typed objects that always decode, so decoding
   * their bodies is skipped.
   */
  readonly jsonClients = new Set<string>(['kubectl']);

  /**
   * checkPatchSource answers 400 BadRequest, as a patch request, when the manifest kubectl builds
   * a patch from does not decode (decode.ts). create and patch decode jsonClients' bodies
   * themselves; kubectl asks first because its three-way merge needs a manifest of the right
   * shape, and the patched object would fail to decode with the same error.
   */
  checkPatchSource(user: string, resource: ResourceName, ns: string | undefined, name: string, manifest: Record<string, unknown>): void {
    const { error } = decode(manifest);
    if (error !== undefined)
      this.request(user, 'patch', resource, ns, name, () => {
        throw newBadRequest(error);
      });
  }

  // ---- object helpers ----

  // newUID makes a random (version 4) UUID from four draws, as text
  // aaaaaaaa-bbbb-4bbb-Vccc-ccccdddddddd where V is 8-b. The text is built from character codes
  // in one go: concatenating its pieces would keep a tree of string fragments alive for every
  // object (a tenth of the heap at scale).
  private newUID(rng = this.rng): string {
    const a = rng.next();
    const b = rng.next();
    const c = rng.next();
    const d = rng.next();
    const u = uidCodes;
    for (let i = 0; i < 8; i++) u[i] = hexCode(a, i);
    for (let i = 0; i < 4; i++) u[9 + i] = hexCode(b, i);
    for (let i = 5; i < 8; i++) u[10 + i] = hexCode(b, i);
    u[19] = HEX_CODES[((c >>> 28) & 0x3) | 0x8];
    for (let i = 1; i < 8; i++) u[19 + i + (i >= 4 ? 1 : 0)] = hexCode(c, i);
    for (let i = 0; i < 8; i++) u[28 + i] = hexCode(d, i);
    return String.fromCharCode.apply(null, u);
  }

  /**
   * restoreAllocations rebuilds the Service IP and node-port allocations from the Services in a
   * store loaded from an image (upstream keeps the allocators' state in etcd and repairs it from
   * the Services).
   */
  restoreAllocations(): void {
    for (const kv of this.etcd.range<Service>(resources.services.etcdPrefix)) {
      const ip = kv.value.spec.clusterIP;
      if (ip && ip !== 'None') this.clusterIPs.restore(ip);
      for (const p of kv.value.spec.ports ?? []) if (p.nodePort) this.nodePorts.allocate(p.nodePort);
      if (kv.value.spec.healthCheckNodePort) this.nodePorts.allocate(kv.value.spec.healthCheckNodePort);
    }
  }

  /**
   * initNodePorts mirrors initNodePorts (pkg/registry/core/service/storage/alloc.go) on create:
   * every port of a NodePort Service (or a LoadBalancer one that allocates node ports) gets a node
   * port, the requested one or the next free one; ports sharing a port number (TCP and UDP 53)
   * share the node port. All or nothing: a failure releases what this call allocated.
   */
  private initNodePorts(svc: Service): void {
    if (!needsNodePort(svc)) return;
    const ports = svc.spec.ports ?? [];
    const taken: number[] = [];
    const byPort = new Map<number, number>();
    try {
      for (let i = 0; i < ports.length; i++) {
        const p = ports[i];
        if (!p.nodePort && !shouldAllocateNodePorts(svc)) continue;
        const allocated = byPort.get(p.port) ?? 0;
        if (allocated === 0) {
          const np = ports.find((q) => q.port === p.port && q.nodePort)?.nodePort ?? 0;
          const port = np !== 0 ? this.allocateNodePort(svc, i, np) : this.allocateNextNodePort();
          taken.push(port);
          p.nodePort = port;
          byPort.set(p.port, port);
        } else if (p.nodePort !== allocated) {
          if (!p.nodePort) p.nodePort = allocated;
          else taken.push(this.allocateNodePort(svc, i, p.nodePort));
        }
      }
    } catch (e) {
      for (const port of taken) this.nodePorts.release(port);
      throw e;
    }
  }

  /**
   * updateNodePorts mirrors patchAllocatedValues, updateNodePorts and the node-port part of
   * dropTypeDependentFields (pkg/registry/core/service/storage, strategy.go) on update: a port the
   * client left without a node port keeps the one its namesake had; new requests are allocated,
   * missing ones drawn, and node ports no longer used are released. A Service that stops needing
   * node ports loses them (when the client did not change them) and frees them.
   */
  private updateNodePorts(old: Service, svc: Service): void {
    const oldPorts = old.spec.ports ?? [];
    const ports = svc.spec.ports ?? [];
    const oldNumbers = oldPorts.flatMap((p) => (p.nodePort ? [p.nodePort] : []));
    if (needsNodePort(old) && !needsNodePort(svc)) {
      const same = ports.length === oldPorts.length && ports.every((p, i) => (p.nodePort ?? 0) === (oldPorts[i].nodePort ?? 0));
      if (same) for (const p of ports) delete p.nodePort;
    }
    if (needsNodePort(old) && needsNodePort(svc)) {
      const used = new Set(ports.flatMap((p) => (p.nodePort && oldNumbers.includes(p.nodePort) ? [p.nodePort] : [])));
      const byName = new Map(oldPorts.map((p) => [p.name ?? '', p.nodePort ?? 0]));
      for (const p of ports) {
        if (p.nodePort) continue;
        const v = byName.get(p.name ?? '') ?? 0;
        if (v && !used.has(v)) p.nodePort = v;
      }
    }
    const taken: number[] = [];
    if (needsNodePort(svc)) {
      try {
        const requested = new Set<number>();
        for (let i = 0; i < ports.length; i++) {
          const p = ports[i];
          if (!p.nodePort && !shouldAllocateNodePorts(svc)) continue;
          if (!p.nodePort) {
            p.nodePort = this.allocateNextNodePort();
            taken.push(p.nodePort);
          } else if (!oldNumbers.includes(p.nodePort) && !requested.has(p.nodePort)) {
            taken.push(this.allocateNodePort(svc, i, p.nodePort));
            requested.add(p.nodePort);
          }
        }
      } catch (e) {
        for (const port of taken) this.nodePorts.release(port);
        throw e;
      }
    }
    const now = new Set(ports.flatMap((p) => (p.nodePort ? [p.nodePort] : [])));
    for (const port of oldNumbers) if (!now.has(port)) this.nodePorts.release(port);
  }

  // allocateNodePort reserves a requested node port, or throws the Invalid error upstream answers.
  private allocateNodePort(svc: Service, i: number, port: number): number {
    const err = this.nodePorts.allocate(port);
    if (err !== undefined)
      throw newInvalid('Service', svc.metadata.name, [{ field: `spec.ports[${i}].nodePort`, type: 'Invalid value', value: port, detail: err }]);
    return port;
  }

  private allocateNextNodePort(): number {
    const port = this.nodePorts.allocateNext();
    if (port === undefined) throw newInternalError('failed to allocate a nodePort: range is full');
    return port;
  }

  /**
   * allocHealthCheckNodePort mirrors allocHealthCheckNodePort (storage/alloc.go): a LoadBalancer
   * Service with externalTrafficPolicy Local gets a health-check node port from the node-port
   * range, the requested one or the next free one; a failure is an internal error.
   */
  private allocHealthCheckNodePort(svc: Service): void {
    const requested = svc.spec.healthCheckNodePort;
    if (requested) {
      const err = this.nodePorts.allocate(requested);
      if (err !== undefined) throw newInternalError(`failed to allocate requested HealthCheck NodePort ${requested}: ${err}`);
      return;
    }
    const port = this.nodePorts.allocateNext();
    if (port === undefined) throw newInternalError('failed to allocate a HealthCheck NodePort 0: range is full');
    svc.spec.healthCheckNodePort = port;
  }

  // releaseServiceAllocations frees what a Service holds: its cluster IP and node ports.
  private releaseServiceAllocations(svc: Service): void {
    this.releaseClusterIP(svc.spec.clusterIP);
    for (const p of svc.spec.ports ?? []) if (p.nodePort) this.nodePorts.release(p.nodePort);
    if (svc.spec.healthCheckNodePort) this.nodePorts.release(svc.spec.healthCheckNodePort);
  }

  /**
   * allocateClusterIP mirrors normalizeClusterIPs, initIPFamilyFields and allocClusterIPs
   * (pkg/registry/core/service/storage/alloc.go): an ExternalName Service gets nothing; a headless
   * one (`None`) gets no address, SingleStack, or RequireDualStack with both families when it has
   * no selector; a requested IP is reserved or refused with the allocator's error, a missing one
   * is drawn.
   * Simplification: one IPv4 ServiceCIDR, so a request for IPv6 or dual-stack is refused as a
   * single-stack cluster refuses it.
   */
  private allocateClusterIP(svc: Service): void {
    const spec = svc.spec;
    // normalizeClusterIPs: clusterIP and clusterIPs[0] say the same.
    if (!spec.clusterIP && spec.clusterIPs?.length) spec.clusterIP = spec.clusterIPs[0];
    else if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
    if (spec.type === 'ExternalName') return;
    const headless = spec.clusterIP === 'None';
    const selectorless = !spec.selector || Object.keys(spec.selector).length === 0;
    const policy = spec.ipFamilyPolicy || (headless && selectorless ? 'RequireDualStack' : 'SingleStack');
    let families = spec.ipFamilies ?? [];
    const errs: FieldError[] = [];
    if (policy === 'SingleStack' && families.length > 1)
      errs.push({ field: 'spec.ipFamilyPolicy', type: 'Invalid value', value: policy, detail: "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified" });
    if (headless && selectorless) {
      // The special case: a headless Service without a selector may name both families.
      if (!families.length) families = ['IPv4'];
      if (families.length < 2 && policy !== 'SingleStack') families = [...families, families[0] === 'IPv4' ? 'IPv6' : 'IPv4'];
    } else {
      if (policy === 'RequireDualStack') errs.push({ field: 'spec.ipFamilyPolicy', type: 'Invalid value', value: policy, detail: 'this cluster is not configured for dual-stack services' });
      families.forEach((f, i) => {
        if (f !== 'IPv4') errs.push({ field: `spec.ipFamilies[${i}]`, type: 'Invalid value', value: f, detail: 'not configured on this cluster' });
      });
      if (!families.length) families = ['IPv4'];
    }
    if (errs.length) throw newInvalid('Service', svc.metadata.name, errs);
    if (headless) spec.clusterIPs = ['None'];
    else {
      let ip = spec.clusterIP;
      if (!ip) ip = this.clusterIPs.allocateNext(this.rng);
      else {
        const invalid = validateClusterIP(ip);
        if (invalid) throw newInvalid('Service', svc.metadata.name, [invalid]);
        const err = this.clusterIPs.allocate(ip);
        if (err !== undefined) throw newInvalid('Service', svc.metadata.name, [clusterIPAllocationError(svc, ip, err)]);
      }
      this.createIPAddress(ip, svc);
      spec.clusterIP = ip;
      spec.clusterIPs = [ip];
    }
    // Set after the address, in the order the simulator always set them (stored JSON key order).
    spec.ipFamilies = families;
    spec.ipFamilyPolicy = policy;
  }

  /**
   * createIPAddress mirrors Allocator.createIPAddress (pkg/registry/core/service/ipallocator/
   * ipallocator.go): every allocated cluster IP is an IPAddress object named by the IP, labelled
   * with its family and manager, whose parentRef is the Service.
   * Simplification: kube-apiserver writes it to etcd within the Service's request (upstream's
   * allocator creates it through its loopback client, a request of its own), and the allocator's
   * bitmap, not the IPAddress objects, says which IPs are taken.
   */
  private createIPAddress(ip: string, svc: Service): void {
    const r = this.info('ipaddresses');
    const key = keyFor(r, undefined, ip);
    const obj: IPAddress = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IPAddress',
      metadata: {
        name: ip,
        labels: { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' },
        uid: this.newUID(this.ipAllocatorRng),
        resourceVersion: '',
        creationTimestamp: formatTime(this.sim.now()),
      },
      // ParentReference.group is omitempty: the core group leaves it out.
      spec: { parentRef: { resource: 'services', namespace: svc.metadata.namespace, name: svc.metadata.name } },
    };
    const res = this.etcd.create<IPAddress>(key, (rev) => this.withRV(obj, rev));
    if (res.succeeded) this.recordStore('txn-create', key, res.revision, r, undefined, ip);
  }

  // releaseClusterIP frees a Service's cluster IP (none for "None" or an ExternalName Service) and
  // deletes its IPAddress, as Allocator.Release does.
  private releaseClusterIP(ip: string | undefined): void {
    if (!ip || ip === 'None') return;
    this.clusterIPs.release(ip);
    const r = this.info('ipaddresses');
    const key = keyFor(r, undefined, ip);
    const kv = this.etcd.get<IPAddress>(key);
    if (!kv) return;
    const res = this.etcd.delete<IPAddress>(key, kv.modRevision);
    this.recordStore('txn-delete', key, res.revision, r, undefined, ip);
  }

  /**
   * createDefaultServiceCIDR mirrors the default ServiceCIDR controller of kube-apiserver
   * (pkg/controlplane/controller/defaultservicecidr): the ServiceCIDR `kubernetes` holds
   * --service-cluster-ip-range and is Ready.
   * Simplification: written once at bootstrap; kube-controller-manager's servicecidrs controller
   * (its finalizer) is not modelled.
   */
  createDefaultServiceCIDR(): void {
    const r = this.info('servicecidrs');
    const key = keyFor(r, undefined, 'kubernetes');
    const now = formatTime(this.sim.now());
    const obj: ServiceCIDR = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'ServiceCIDR',
      metadata: { name: 'kubernetes', uid: this.newUID(this.ipAllocatorRng), resourceVersion: '', creationTimestamp: now },
      spec: { cidrs: [serviceClusterIPRange] },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now, reason: '', message: 'Kubernetes default Service CIDR is ready' }] },
    };
    const res = this.etcd.create<ServiceCIDR>(key, (rev) => this.withRV(obj, rev));
    if (res.succeeded) this.recordStore('txn-create', key, res.revision, r, undefined, 'kubernetes');
  }

  /**
   * updateClusterIP mirrors the cluster-IP part of the storage's allocateUpdate and releasing the
   * old IPs after an update (pkg/registry/core/service/storage/alloc.go): a Service that becomes
   * ExternalName frees its address, one that stops being ExternalName gets one as on create; then
   * the node ports (updateNodePorts). All or nothing, as the storage's transaction.
   */
  private updateClusterIP(old: Service, svc: Service): void {
    if (old.spec.type === 'ExternalName' && svc.spec.type !== 'ExternalName') this.allocateClusterIP(svc);
    const allocated = svc.spec.clusterIP !== old.spec.clusterIP ? svc.spec.clusterIP : undefined;
    try {
      this.updateNodePorts(old, svc);
      try {
        // updateHealthCheckNodePort: allocated when the Service comes to need one, freed below
        // when it no longer does.
        if (!needsHealthCheck(old) && needsHealthCheck(svc)) this.allocHealthCheckNodePort(svc);
      } catch (e) {
        const kept = new Set((old.spec.ports ?? []).map((p) => p.nodePort));
        for (const p of svc.spec.ports ?? []) if (p.nodePort && !kept.has(p.nodePort)) this.nodePorts.release(p.nodePort);
        throw e;
      }
    } catch (e) {
      if (allocated) this.releaseClusterIP(allocated);
      throw e;
    }
    if (old.spec.healthCheckNodePort && svc.spec.healthCheckNodePort !== old.spec.healthCheckNodePort) this.nodePorts.release(old.spec.healthCheckNodePort);
    const oldIP = old.spec.clusterIP;
    if (svc.spec.clusterIP !== oldIP) this.releaseClusterIP(oldIP);
  }

  private withRV<T extends AnyObject>(obj: T, rev: number): T {
    obj.metadata.resourceVersion = String(rev);
    return this.freeze ? deepFreeze(obj) : obj;
  }

  /**
   * defaultAndAdmit runs what happens to a request's object before validation, in upstream's
   * order: defaulting (the kind's SetDefaults), then on create the mutating admission plugins,
   * the strategy's PrepareForCreate, and the Service storage's IP and node port allocation.
   */
  private defaultAndAdmit(r: ResourceInfo, obj: AnyObject, isCreate: boolean, requestName = obj.metadata.name): void {
    const strategy = r.rules.strategy;
    strategy?.defaults?.(obj);
    if (!isCreate) return;
    if (obj.kind === 'Pod') {
      // The mutating plugins in AllOrderedPlugins' order (pkg/kubeapiserver/options/plugins.go).
      serviceAccountAdmission(obj, requestName, this.serviceAccounts, this.tokenVolumeRng);
      priorityAdmission(obj, requestName);
      defaultTolerationSeconds(obj, this.sim.settings);
    }
    if (obj.kind === 'Node') taintNodesByCondition(obj);
    // DefaultIngressClass reads IngressClasses from its informer; the store stands for a synced one.
    if (obj.kind === 'Ingress') defaultIngressClass(obj, this.peekAll<IngressClass>('ingressclasses'));
    strategy?.prepareForCreate?.(obj);
    if (obj.kind === 'Service') {
      // pkg/registry/core/service/storage/alloc.go: the Service REST storage allocates.
      this.allocateClusterIP(obj);
      try {
        this.initNodePorts(obj);
        if (needsHealthCheck(obj)) {
          try {
            this.allocHealthCheckNodePort(obj);
          } catch (e) {
            for (const p of obj.spec.ports ?? []) if (p.nodePort) this.nodePorts.release(p.nodePort);
            throw e;
          }
        }
      } catch (e) {
        this.releaseClusterIP(obj.spec.clusterIP);
        throw e;
      }
    }
  }

  private checkNamespace(r: ResourceInfo, ns: string | undefined): void {
    if (!r.namespaced) return;
    if (!ns) throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    if (!this.etcd.get(keyFor(resources.namespaces, undefined, ns))) throw newNotFound('namespaces', ns);
  }

  // ---- verbs ----

  /**
   * create mirrors Store.Create: name generation, uid, timestamps, defaulting, admission, validation.
   * handOff says the caller built input afresh and never touches it again, so the copy that stands
   * for decoding the request is skipped (kube-apiserver keeps and may change the object).
   */
  create<T extends AnyObject>(user: string, resource: ResourceName, input: T, handOff = false): T {
    const r = this.info(resource);
    let out: T | undefined;
    let obj = decoded(input, handOff);
    this.request(user, 'create', resource, obj.metadata?.namespace, obj.metadata?.name || obj.metadata?.generateName, () => {
      // A body that arrives as JSON is decoded into the Go type first (decode.ts).
      if (this.jsonClients.has(user)) obj = decodeStrict(obj as unknown as Record<string, unknown>) as unknown as T;
      obj.apiVersion = apiVersionOf(r) as T['apiVersion'];
      obj.kind = r.kind as T['kind'];
      const m = (obj.metadata ??= {} as T['metadata']);
      if (!r.namespaced) delete m.namespace;
      this.checkNamespace(r, m.namespace);
      const generated = !m.name && !!m.generateName;
      if (generated) m.name = m.generateName!.slice(0, 58) + randString(this.rng, 5);
      const nameErrs = validateName(m.name ?? '', !!r.rules.strategy?.nameIsDNSLabel, !!r.rules.strategy?.nameIsDNS1035Label);
      if (nameErrs.length) throw newInvalid(qualifiedKind(r), m.name ?? '', nameErrs);
      m.uid = this.newUID();
      m.creationTimestamp = formatTime(this.sim.now());
      delete m.deletionTimestamp;
      delete m.deletionGracePeriodSeconds;
      if (r.tracksGeneration) m.generation = 1;
      this.defaultAndAdmit(r, obj, true, generated ? m.generateName : m.name);
      const errs = r.rules.strategy?.validate?.(obj) ?? [];
      if (errs.length) {
        if (obj.kind === 'Service') this.releaseServiceAllocations(obj);
        throw newInvalid(qualifiedKind(r), m.name!, errs);
      }
      let key = keyFor(r, m.namespace, m.name!);
      const ttl = r.rules.strategy?.ttlSeconds;
      const lease = ttl !== undefined ? this.leaseManager.getLease(ttl) : undefined;
      let res = this.etcd.create<T>(key, (rev) => this.withRV(obj, rev), lease);
      // RetryGenerateName (GA in v1.32): a generated name that collides is drawn again, up to
      // 7 more times, before the client sees AlreadyExists.
      for (let i = 0; !res.succeeded && generated && i < 7; i++) {
        m.name = m.generateName!.slice(0, 58) + randString(this.rng, 5);
        key = keyFor(r, m.namespace, m.name);
        res = this.etcd.create<T>(key, (rev) => this.withRV(obj, rev), lease);
      }
      if (!res.succeeded) {
        if (obj.kind === 'Service') this.releaseServiceAllocations(obj);
        throw newAlreadyExists(qualifiedResource(r), m.name!);
      }
      this.recordStore('txn-create', key, res.revision, r, m.namespace, m.name);
      out = res.kv!.value;
      return generated ? { code: 201, name: m.name } : { code: 201 };
    });
    return out!;
  }

  /** get returns the current object (never mutate it). */
  get<T extends AnyObject>(user: string, resource: ResourceName, ns: string | undefined, name: string): T {
    const r = this.info(resource);
    let out: T | undefined;
    this.request(user, 'get', resource, ns, name, () => {
      const kv = this.etcd.get<T>(keyFor(r, ns, name));
      if (!kv) throw newNotFound(qualifiedResource(r), name);
      out = kv.value;
      return { code: 200 };
    });
    return out!;
  }

  /** list returns the matching objects sorted by key, with the store's revision. */
  list<T extends AnyObject>(user: string, resource: ResourceName, opts: ListOptions = {}): ListResult<T> {
    const r = this.info(resource);
    let out: ListResult<T> | undefined;
    this.request(user, 'list', resource, opts.namespace, undefined, () => {
      const o = parsedListOptions(resource, opts);
      const prefix = r.namespaced && opts.namespace ? `${r.etcdPrefix}${opts.namespace}/` : r.etcdPrefix;
      const items = this.etcd
        .range<T>(prefix)
        .map((kv) => kv.value)
        .filter((x) => matches(x, o, resource));
      out = { items, resourceVersion: String(this.etcd.revision) };
      return { code: 200 };
    });
    return out!;
  }

  /** count returns how many objects a resource holds, without a request (for summaries). */
  count(resource: ResourceName): number {
    return this.etcd.count(this.info(resource).etcdPrefix);
  }

  /** peekAll reads every object of a resource without a request: for reports and tests only. */
  peekAll<T extends AnyObject>(resource: ResourceName): T[] {
    return this.etcd.range<T>(this.info(resource).etcdPrefix).map((kv) => kv.value);
  }

  /**
   * update mirrors Store.Update with the status subresource split: the main resource ignores
   * status changes and the status subresource ignores everything but status (and, for Nodes and
   * Pods, nothing in spec). A stale resourceVersion gets 409 Conflict.
   */
  update<T extends AnyObject>(user: string, resource: ResourceName, input: T, subresource?: 'status', handOff = false): T {
    const r = this.info(resource);
    let out: T | undefined;
    const ns = r.namespaced ? input.metadata?.namespace : undefined;
    const name = input.metadata?.name;
    this.request(user, 'update', subresource ? `${resource}/${subresource}` : resource, ns, name, () => {
      const key = keyFor(r, ns, name);
      const cur = this.etcd.get<T>(key);
      if (!cur) throw newNotFound(qualifiedResource(r), name);
      const obj = decoded(input, handOff, cur.value);
      const rv = obj.metadata.resourceVersion;
      if (rv && rv !== cur.value.metadata.resourceVersion) throw newConflict(qualifiedResource(r), name, OptimisticLockErrorMsg);
      const next = this.merge(r, cur.value, obj, subresource);
      const res = this.commitUpdate(r, key, cur, next);
      // What etcd now holds is next itself (withRV stamps it), or nothing after a deletion.
      out = next;
      return res;
    });
    return out!;
  }

  // merge builds the object to store from the current one and the client's, per subresource.
  private merge<T extends AnyObject>(r: ResourceInfo, cur: T, obj: T, subresource?: 'status'): T {
    const c = cur as unknown as Record<string, unknown>;
    const o = obj as unknown as Record<string, unknown>;
    let next: Record<string, unknown>;
    // Stored objects are immutable, so the new object may share unchanged parts with the old one.
    if (subresource === 'status') {
      next = { ...c, status: o.status, metadata: { ...cur.metadata } };
      r.rules.strategy?.prepareForStatusUpdate?.(next as unknown as AnyObject, obj);
    } else {
      next = { ...o };
      if (r.hasStatus) next.status = c.status;
      const m = { ...obj.metadata } as Record<string, unknown>;
      m.uid = cur.metadata.uid;
      m.creationTimestamp = cur.metadata.creationTimestamp;
      setOrDelete(m, 'namespace', cur.metadata.namespace);
      setOrDelete(m, 'generateName', cur.metadata.generateName);
      if (cur.metadata.deletionTimestamp) {
        m.deletionTimestamp = cur.metadata.deletionTimestamp;
        m.deletionGracePeriodSeconds = cur.metadata.deletionGracePeriodSeconds;
      } else {
        setOrDelete(m, 'deletionTimestamp', undefined);
        setOrDelete(m, 'deletionGracePeriodSeconds', undefined);
      }
      setOrDelete(m, 'generation', cur.metadata.generation);
      next.metadata = m as unknown as T['metadata'];
      this.defaultAndAdmit(r, next as unknown as AnyObject, false);
      if (r.tracksGeneration && c.spec !== next.spec && JSON.stringify(c.spec) !== JSON.stringify(next.spec)) m.generation = (cur.metadata.generation ?? 0) + 1;
      if (r.resource === 'services') {
        const changed = clusterIPChange(cur as unknown as Service, next as unknown as Service);
        if (changed) throw newInvalid('Service', cur.metadata.name, [changed]);
      }
      r.rules.strategy?.prepareForUpdate?.(next as unknown as AnyObject, cur);
      const errs: FieldError[] = r.rules.strategy?.validate?.(next as unknown as AnyObject) ?? [];
      if (errs.length) throw newInvalid(qualifiedKind(r), cur.metadata.name, errs);
      // Simplification: cluster IPs and node ports are allocated after validation (upstream: before, in beginUpdate).
      if (r.resource === 'services') this.updateClusterIP(cur as unknown as Service, next as unknown as Service);
    }
    return next as unknown as T;
  }

  private commitUpdate<T extends AnyObject>(r: ResourceInfo, key: string, cur: KeyValue<T>, next: T): { code: number; fields?: string[] } {
    const fields = this.sim.traceLevel === 'full' ? changedFields(cur.value, next) : undefined;
    // A finalizer-free object whose deletion is pending goes away once it has no finalizers;
    // one deleted gracefully (a Pod) waits for its grace period to be confirmed.
    if (next.metadata.deletionTimestamp && !(next.metadata.finalizers?.length) && !r.rules.strategy?.checkGracefulDelete) {
      const res = this.etcd.delete<T>(key, cur.modRevision);
      this.recordStore('txn-delete', key, res.revision, r, next.metadata.namespace, next.metadata.name);
      return { code: 200, fields };
    }
    const ttl = r.rules.strategy?.ttlSeconds;
    const lease = ttl !== undefined ? this.leaseManager.getLease(ttl) : undefined;
    const res = this.etcd.update<T>(key, cur.modRevision, (rev) => this.withRV(next, rev), lease);
    if (!res.succeeded) throw newConflict(qualifiedResource(r), next.metadata.name, OptimisticLockErrorMsg);
    this.recordStore('txn-update', key, res.revision, r, next.metadata.namespace, next.metadata.name);
    return { code: 200, fields };
  }

  /**
   * patch applies a patch to the current object: a JSON merge patch (RFC 7386) unless patchType
   * names another (patch.ts: strategic merge patch, JSON patch). A patchType given is recorded in
   * the trace (the request's Content-Type); a call that passes none is a merge patch recorded
   * without a type. handOff
   * says the caller built the patch's values for this request and never changes them, so a merge
   * patch stores them without the copy that stands for decoding (as create's handOff).
   */
  patch<T extends AnyObject>(user: string, resource: ResourceName, ns: string | undefined, name: string, patch: unknown, subresource?: 'status', patchType?: PatchType, handOff = false): T {
    const r = this.info(resource);
    let out: T | undefined;
    const path = subresource ? `${resource}/${subresource}` : resource;
    this.request(
      user,
      'patch',
      path,
      r.namespaced ? ns : undefined,
      name,
      () => {
        const key = keyFor(r, r.namespaced ? ns : undefined, name);
        const cur = this.etcd.get<T>(key);
        if (!cur) throw newNotFound(qualifiedResource(r), name);
        // Status patches, and kinds whose update path changes only the top level and metadata, build
        // the patched object sharing unchanged parts with the stored one; the rest copy it whole.
        const shared = subresource === 'status' || !r.rules.strategy?.defaultsInPlace;
        let merged: T;
        if (patchType === JSONPatchType) {
          try {
            merged = applyJSONPatch(cur.value, patch) as T;
          } catch (e) {
            if (e instanceof JSONPatchError) throw newUnprocessable(e.message);
            throw e;
          }
        } else if (patchType === StrategicMergePatchType) {
          merged = (shared ? applyStrategicMergePatch(cur.value, patch) : strategicMergePatch(cur.value, patch)) as T;
        } else {
          merged = (shared ? applyMergePatch(cur.value, patch, handOff) : mergePatch(deepClone(cur.value), deepClone(patch))) as T;
        }
        // The patched JSON is decoded into the Go type like a request body (decode.ts).
        const patched = (this.jsonClients.has(user) ? decodeStrict(merged as unknown as Record<string, unknown>) : merged) as T;
        // A resourceVersion in the patch (or left by a JSON patch) is a precondition.
        const rv = patchType === JSONPatchType ? patched.metadata?.resourceVersion : (patch as { metadata?: { resourceVersion?: string } })?.metadata?.resourceVersion;
        if (rv && rv !== cur.value.metadata.resourceVersion) throw newConflict(qualifiedResource(r), name, OptimisticLockErrorMsg);
        const next = this.merge(r, cur.value, patched, subresource);
        const res = this.commitUpdate(r, key, cur, next);
        out = next;
        return res;
      },
      patchType,
    );
    return out!;
  }

  /**
   * delete mirrors Store.Delete with graceful deletion for Pods (pkg/registry/core/pod/strategy.go
   * CheckGracefulDelete): a scheduled, non-terminal Pod gets deletionTimestamp = now + grace and is
   * removed only when its kubelet confirms with grace 0; an unscheduled Pod goes at once.
   * Simplification: only background propagation; the garbage collector deletes dependents.
   */
  delete(user: string, resource: ResourceName, ns: string | undefined, name: string, opts: DeleteOptions = {}): AnyObject {
    const r = this.info(resource);
    let out: AnyObject | undefined;
    this.request(user, 'delete', resource, r.namespaced ? ns : undefined, name, () => {
      const res = this.deleteStored(r, r.namespaced ? ns : undefined, name, opts);
      out = res.out;
      return res;
    });
    return out!;
  }

  // deleteStored is Store.Delete without the request: what delete and the eviction subresource share.
  private deleteStored(r: ResourceInfo, ns: string | undefined, name: string, opts: DeleteOptions): { code: number; fields?: string[]; out: AnyObject } {
    const resource = r.resource;
    const key = keyFor(r, ns, name);
    const cur = this.etcd.get<AnyObject>(key);
    if (!cur) throw newNotFound(qualifiedResource(r), name);
    if (opts.preconditions?.uid && opts.preconditions.uid !== cur.value.metadata.uid)
      throw newConflict(
        qualifiedResource(r),
        name,
        `Precondition failed: UID in precondition: ${opts.preconditions.uid}, UID in object meta: ${cur.value.metadata.uid}`,
      );
    if (opts.preconditions?.resourceVersion && opts.preconditions.resourceVersion !== cur.value.metadata.resourceVersion)
      throw newConflict(
        qualifiedResource(r),
        name,
        `Precondition failed: ResourceVersion in precondition: ${opts.preconditions.resourceVersion}, ResourceVersion in object meta: ${cur.value.metadata.resourceVersion}`,
      );
    const grace = r.rules.strategy?.checkGracefulDelete?.(cur.value, opts.gracePeriodSeconds) ?? 0;
    if (grace > 0) {
      const obj = cur.value;
      const next = { ...obj, metadata: { ...obj.metadata } };
      const deadline = this.sim.now() + grace * 1000;
      const existing = obj.metadata.deletionTimestamp;
      // Graceful deletion may shorten but never extend a pending grace period.
      if (!existing || (obj.metadata.deletionGracePeriodSeconds ?? Infinity) > grace) {
        next.metadata.deletionTimestamp = formatTime(deadline);
        next.metadata.deletionGracePeriodSeconds = grace;
      }
      if (existing && next.metadata.deletionTimestamp === existing) return { code: 202, out: obj };
      const res = this.etcd.update<AnyObject>(key, cur.modRevision, (rev) => this.withRV(next, rev));
      this.recordStore('txn-update', key, res.revision, r, ns, name);
      return { code: 202, fields: ['metadata.deletionTimestamp'], out: res.kv!.value };
    }
    if (cur.value.metadata.finalizers?.length && !cur.value.metadata.deletionTimestamp) {
      const next = deepClone(cur.value);
      next.metadata.deletionTimestamp = formatTime(this.sim.now());
      next.metadata.deletionGracePeriodSeconds = 0;
      const res = this.etcd.update<AnyObject>(key, cur.modRevision, (rev) => this.withRV(next, rev));
      this.recordStore('txn-update', key, res.revision, r, ns, name);
      return { code: 202, out: res.kv!.value };
    }
    const res = this.etcd.delete<AnyObject>(key, cur.modRevision);
    this.recordStore('txn-delete', key, res.revision, r, ns, name);
    if (resource === 'services') this.releaseServiceAllocations(cur.value as Service);
    return { code: 200, out: cur.value };
  }

  // ---- the scale subresource ----

  /**
   * scaleOf mirrors scaleFromDeployment / scaleFromReplicaSet (pkg/registry/apps/deployment/storage,
   * pkg/registry/apps/replicaset/storage): an autoscaling/v1 Scale with the workload's metadata,
   * spec.replicas, status.replicas and the selector as a string. Resources without a scale
   * subresource have no such path: 404 as from the router.
   */
  private scaleOf(resource: ResourceName, ns: string | undefined, name: string): { r: ResourceInfo; key: string; cur: KeyValue<Deployment | ReplicaSet>; scale: Scale } {
    if (resource !== 'deployments' && resource !== 'replicasets') throw newNotFoundPath();
    const r = this.info(resource);
    const key = keyFor(r, ns, name);
    const cur = this.etcd.get<Deployment | ReplicaSet>(key);
    if (!cur) throw newNotFound(qualifiedResource(r), name);
    const w = cur.value;
    const m = w.metadata;
    const scale: Scale = {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
      spec: { replicas: w.spec.replicas },
      status: { replicas: w.status?.replicas ?? 0, selector: labelSelectorAsSelector(w.spec.selector).toString() },
    };
    return { r, key, cur, scale };
  }

  /** getScale mirrors GET <resource>/<name>/scale (ScaleREST.Get). */
  getScale(user: string, resource: ResourceName, ns: string, name: string): Scale {
    let out: Scale | undefined;
    this.request(user, 'get', `${resource}/scale`, ns, name, () => {
      out = this.scaleOf(resource, ns, name).scale;
      return { code: 200 };
    });
    return out!;
  }

  /** updateScale mirrors PUT <resource>/<name>/scale (ScaleREST.Update, scaleUpdatedObjectInfo). */
  updateScale(user: string, resource: ResourceName, scale: Scale): Scale {
    const { namespace: ns, name } = scale.metadata;
    let out: Scale | undefined;
    this.request(user, 'update', `${resource}/scale`, ns, name, () => {
      const res = this.writeScale(resource, ns, name, () => deepClone(scale));
      out = res.scale;
      return res;
    });
    return out!;
  }

  /**
   * patchScale mirrors PATCH <resource>/<name>/scale: the patch applies to the Scale built from
   * the workload, and the patched Scale's spec.replicas is written back (as updateScale).
   */
  patchScale(user: string, resource: ResourceName, ns: string, name: string, patch: unknown, patchType: PatchType): Scale {
    let out: Scale | undefined;
    this.request(
      user,
      'patch',
      `${resource}/scale`,
      ns,
      name,
      () => {
        const res = this.writeScale(resource, ns, name, (old) => {
          try {
            if (patchType === JSONPatchType) return applyJSONPatch(old, patch) as Scale;
            if (patchType === StrategicMergePatchType) return strategicMergePatch(old, patch) as Scale;
            return mergePatch(deepClone(old), deepClone(patch)) as Scale;
          } catch (e) {
            if (e instanceof JSONPatchError) throw newUnprocessable(e.message);
            throw e;
          }
        });
        out = res.scale;
        return res;
      },
      patchType,
    );
    return out!;
  }

  // writeScale validates the new Scale (ValidateScale), checks its resourceVersion against the
  // workload's, and stores the workload with the new spec.replicas.
  private writeScale(resource: ResourceName, ns: string | undefined, name: string, next: (old: Scale) => Scale): { code: number; fields?: string[]; scale: Scale } {
    const { r, key, cur, scale: old } = this.scaleOf(resource, ns, name);
    const scale = next(old);
    const replicas = scale.spec?.replicas ?? 0;
    if (!Number.isInteger(replicas) || replicas < 0)
      throw newInvalid('Scale.autoscaling', name, [{ field: 'spec.replicas', type: 'Invalid value', value: replicas, detail: 'must be greater than or equal to 0' }]);
    const rv = scale.metadata?.resourceVersion;
    if (rv && rv !== cur.value.metadata.resourceVersion) throw newConflict(qualifiedResource(r), name, OptimisticLockErrorMsg);
    const w = { ...cur.value, spec: { ...cur.value.spec, replicas } } as Deployment | ReplicaSet;
    const merged = this.merge(r, cur.value, w);
    const res = this.commitUpdate(r, key, cur, merged);
    return { ...res, scale: this.scaleOf(resource, ns, name).scale };
  }

  // ---- the eviction subresource ----

  /**
   * evict mirrors POST pods/<name>/eviction (pkg/registry/core/pod/storage/eviction.go
   * EvictionREST.Create): a Pod that is terminal, Pending or already deleting goes at once;
   * otherwise the one PodDisruptionBudget selecting it must allow a disruption, which is taken
   * (status.disruptionsAllowed - 1, the Pod in status.disruptedPods, written by kube-apiserver's
   * loopback client through poddisruptionbudgets/status) before the Pod gets the DisruptionTarget
   * condition and is deleted with the Eviction's delete options. A budget that allows none
   * answers 429 TooManyRequests.
   * Simplification: no retry on conflicts (EvictionsRetry), no dry run.
   */
  evict(user: string, eviction: Eviction): void {
    const { namespace: ns, name } = eviction.metadata;
    this.request(user, 'create', 'pods/eviction', ns, name, () => {
      const r = resources.pods;
      const opts: DeleteOptions = { ...eviction.deleteOptions };
      const kv = this.etcd.get<Pod>(keyFor(r, ns, name));
      if (!kv) throw newNotFound('pods', name);
      const pod = kv.value;
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp) {
        // canIgnorePDB; shouldEnforceResourceVersion holds only for a Pending Pod here.
        const pending = phase === 'Pending' && !pod.metadata.deletionTimestamp && !opts.preconditions?.resourceVersion;
        this.addConditionAndDeletePod(ns, name, pending ? { ...opts, preconditions: { ...opts.preconditions, resourceVersion: pod.metadata.resourceVersion } } : opts);
        return { code: 201 };
      }
      const pdbs = this.etcd
        .range<PodDisruptionBudget>(`${resources.poddisruptionbudgets.etcdPrefix}${ns}/`)
        .map((x) => x.value)
        .filter((pdb) => {
          const sel = labelSelectorAsSelector(pdb.spec?.selector);
          // A nil or empty selector matches nothing here, not everything.
          return !sel.empty && !sel.nothing && sel.matches(pod.metadata.labels);
        });
      if (pdbs.length > 1) throw newInternalStatus('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
      let o = opts;
      if (pdbs.length === 1) {
        const pdb = pdbs[0];
        const st = pdb.status;
        const unready = !isPodReady(pod);
        if (unready && (pdb.spec.unhealthyPodEvictionPolicy === 'AlwaysAllow' || (st.currentHealthy >= st.desiredHealthy && st.desiredHealthy > 0))) {
          // An unready Pod does not count as healthy: deleting it takes no disruption, provided
          // it has not become ready meanwhile (the resourceVersion precondition).
          o = { ...opts, preconditions: { ...opts.preconditions, resourceVersion: opts.preconditions?.resourceVersion ?? pod.metadata.resourceVersion } };
        } else this.checkAndDecrement(name, pdb);
      }
      this.addConditionAndDeletePod(ns, name, o);
      return { code: 201 };
    });
  }

  // checkAndDecrement mirrors EvictionREST.checkAndDecrement: a budget the disruption controller
  // has not yet processed, or one allowing no disruption, refuses with 429.
  private checkAndDecrement(podName: string, pdb: PodDisruptionBudget): void {
    const st = pdb.status;
    if ((st.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0))
      throw newTooManyRequests(EvictionRefused, 10, [{ reason: 'DisruptionBudget', field: '', message: `The disruption budget ${pdb.metadata.name} is still being processed by the server.` }]);
    if (st.disruptionsAllowed < 0) throw newForbidden('poddisruptionbudget.policy', pdb.metadata.name, 'pdb disruptions allowed is negative');
    if (Object.keys(st.disruptedPods ?? {}).length > MaxDisruptedPodSize)
      throw newForbidden('poddisruptionbudget.policy', pdb.metadata.name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
    if (st.disruptionsAllowed === 0)
      throw newTooManyRequests(EvictionRefused, 0, [
        { reason: 'DisruptionBudget', field: '', message: `The disruption budget ${pdb.metadata.name} needs ${st.desiredHealthy} healthy pods and has ${st.currentHealthy} currently` },
      ]);
    const next = deepClone(pdb);
    next.status.disruptionsAllowed--;
    if (next.status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(next, this.sim.now());
    next.status.disruptedPods = { ...next.status.disruptedPods, [podName]: formatTime(this.sim.now()) };
    this.update(APISERVER, 'poddisruptionbudgets', next, 'status', true);
  }

  // addConditionAndDeletePod mirrors addConditionAndDeletePod: the Pod's status gets the
  // DisruptionTarget condition (through the status store, so no request), then it is deleted.
  private addConditionAndDeletePod(ns: string, name: string, opts: DeleteOptions): void {
    const r = resources.pods;
    const key = keyFor(r, ns, name);
    const cur = this.etcd.get<Pod>(key);
    if (!cur) throw newNotFound('pods', name);
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== cur.value.metadata.uid)
      throw newConflict('pods', name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${cur.value.metadata.uid}`);
    if (pre?.resourceVersion && pre.resourceVersion !== cur.value.metadata.resourceVersion)
      throw newConflict('pods', name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${cur.value.metadata.resourceVersion}`);
    const pod = cur.value;
    const conds = [...(pod.status.conditions ?? [])];
    const i = conds.findIndex((c) => c.type === 'DisruptionTarget');
    const now = formatTime(this.sim.now());
    // UpdatePodCondition keeps lastTransitionTime when the status does not change.
    const cond = { type: 'DisruptionTarget', status: 'True' as const, lastProbeTime: null, lastTransitionTime: i >= 0 && conds[i].status === 'True' ? conds[i].lastTransitionTime : now, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
    if (i >= 0) conds[i] = cond;
    else conds.push(cond);
    const next: Pod = { ...pod, metadata: { ...pod.metadata }, status: { ...pod.status, conditions: conds } };
    const res = this.etcd.update<Pod>(key, cur.modRevision, (rev) => this.withRV(next, rev));
    this.recordStore('txn-update', key, res.revision, r, ns, name);
    const o = pre?.resourceVersion ? { ...opts, preconditions: { ...pre, resourceVersion: res.kv!.value.metadata.resourceVersion } } : opts;
    this.deleteStored(r, ns, name, o);
  }


  /**
   * bind mirrors the pods/binding subresource (pkg/registry/core/pod/storage/storage.go
   * BindingREST.Create / assignPod): sets spec.nodeName and the PodScheduled condition, and
   * refuses a Pod that is already assigned.
   */
  bind(user: string, binding: Binding): void {
    const r = (this.served = resources.pods);
    const { namespace: ns, name } = binding.metadata;
    this.request(user, 'create', 'pods/binding', ns, name, () => {
      const key = keyFor(r, ns, name);
      const cur = this.etcd.get<Pod>(key);
      if (!cur) throw newNotFound('pods', name);
      const pod = cur.value;
      if (binding.metadata.uid && binding.metadata.uid !== pod.metadata.uid)
        throw newConflict('pods/binding', name, `Precondition failed: UID in precondition: ${binding.metadata.uid}, UID in object meta: ${pod.metadata.uid}`);
      if (pod.metadata.deletionTimestamp) throw newConflict('pods/binding', name, `pod ${name} is being deleted, cannot be assigned to a host`);
      if (pod.spec.nodeName) throw newConflict('pods/binding', name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
      // The bound Pod shares everything but the changed paths with the stored one.
      const conds = (pod.status.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
      conds.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: formatTime(this.sim.now()) });
      const next: Pod = {
        ...pod,
        metadata: { ...pod.metadata },
        spec: { ...pod.spec, nodeName: binding.target.name },
        status: { ...pod.status, conditions: conds },
      };
      const res = this.etcd.update<Pod>(key, cur.modRevision, (rev) => this.withRV(next, rev));
      this.recordStore('txn-update', key, res.revision, r, ns, name);
      return { code: 201, fields: ['spec.nodeName', 'status.conditions'] };
    });
  }

  /** watch opens a stream; events are delivered watchLatency after each commit. */
  watch(user: string, resource: ResourceName, opts: ListOptions, handler: WatchStream['handler'], onClose: () => void, traced = true): WatchStream {
    let parsed = opts;
    this.request(user, 'watch', resource, opts.namespace, undefined, () => {
      parsed = parsedListOptions(resource, opts);
      return { code: 200 };
    });
    const s: WatchStream = { id: ++this.watchId, user, resource, opts: parsed, handler, traced, onClose, since: this.etcd.revision, node: nodeOf(user), closed: false };
    // A delivery in progress may see the new stream, but skips it: it starts after the event.
    const [lists, key] = this.watchList(s);
    const list = lists.get(key);
    if (list) list.push(s);
    else lists.set(key, [s]);
    return s;
  }

  // watchList is where a stream is kept: pod watches of one node and node watches of one Node
  // in their own lists (the watch cache's indexes), every other stream under its resource.
  private watchList(s: WatchStream): [Map<string, WatchStream[]>, string] {
    const node = s.resource === 'pods' ? nodeNameOf(s.opts) : undefined;
    if (node !== undefined) return [this.podWatchersByNode, node];
    const name = s.resource === 'nodes' ? nodeNamedBy(s.opts) : undefined;
    if (name !== undefined) return [this.nodeWatchersByName, name];
    return [this.watchers, s.resource];
  }

  /** closeWatch ends a stream from the client side. */
  closeWatch(s: WatchStream): void {
    s.closed = true;
    const [lists, key] = this.watchList(s);
    const list = lists.get(key);
    // Removal copies the list, so a delivery in progress iterates an unchanging one.
    if (list?.includes(s)) lists.set(key, list.filter((x) => x !== s));
  }

  /** breakWatches closes every stream whose client can no longer reach kube-apiserver. */
  breakWatches(): void {
    const all = [...this.watchers.values(), ...this.podWatchersByNode.values(), ...this.nodeWatchersByName.values()].flat();
    for (const s of all) {
      if (!s.closed && !this.reachable(s.user)) {
        this.closeWatch(s);
        s.onClose();
      }
    }
  }

  private recordStore(op: 'txn-create' | 'txn-update' | 'txn-delete', key: string, revision: number, r: ResourceInfo, ns?: string, name?: string): void {
    if (this.sim.records('store')) this.sim.record({ kind: 'store', from: APISERVER, to: ETCD, op, key, revision, resource: r.resource, namespace: ns, name });
  }

  // onStoreEvent is the watch cache: one etcd event becomes one delivery to every watcher.
  private onStoreEvent(ev: WatchEvent): void {
    const served = this.served;
    const resource = served !== undefined && ev.kv.key.startsWith(served.etcdPrefix) ? served.resource : resourceOfKey(ev.kv.key);
    if (!resource) return;
    const obj = ev.kv.value as AnyObject;
    const prev = ev.prevKv?.value as AnyObject | undefined;
    const type: WatchEventType = ev.type === 'DELETE' ? 'DELETED' : ev.prevKv ? 'MODIFIED' : 'ADDED';
    if (this.recordChanges) this.changes.push({ t: this.sim.now() / 1000, type, resource, object: type === 'DELETED' ? withDeleteRV(prev!, ev.kv.modRevision) : obj });
    // Nothing to deliver when no stream watches the resource (kube-apiserver's watch cache has no
    // watchers to dispatch to): no component watches Events, for one. Every stream starts at the
    // revision current when it opens, so one opened before the delivery would skip this event anyway.
    if (resource !== 'pods' && !this.watchers.get(resource)?.length && !(resource === 'nodes' && this.nodeWatchersByName.get((prev ?? obj).metadata.name)?.length)) return;
    const revision = ev.kv.modRevision;
    this.sim.after(this.sim.settings.watchLatency, watchWhat[resource], () => this.deliver(resource, type, obj, prev, revision));
  }

  private deliver(resource: ResourceName, type: WatchEventType, obj: AnyObject, prev: AnyObject | undefined, revision: number): void {
    const deleted = type === 'DELETED' ? withDeleteRV(prev!, revision) : obj;
    const all = this.watchers.get(resource);
    if (all) this.deliverTo(all, resource, type, obj, prev, deleted, revision);
    if (resource === 'nodes') {
      const named = this.nodeWatchersByName.get((prev ?? obj).metadata.name);
      if (named) this.deliverTo(named, resource, type, obj, prev, deleted, revision);
      return;
    }
    if (resource !== 'pods') return;
    // A Pod event also reaches the watchers of the nodes it is (or was) bound to, or the watchers
    // of unbound Pods; the lists are walked in turn (a removal replaces a list, never changes it).
    const a = (obj as Pod).spec?.nodeName;
    const b = (prev as Pod | undefined)?.spec?.nodeName;
    const byNode = this.podWatchersByNode;
    const onA = a !== undefined ? byNode.get(a) : undefined;
    const onB = b !== undefined && b !== a ? byNode.get(b) : undefined;
    const unbound = a === undefined || b === undefined ? byNode.get('') : undefined;
    if (onA) this.deliverTo(onA, resource, type, obj, prev, deleted, revision);
    if (onB) this.deliverTo(onB, resource, type, obj, prev, deleted, revision);
    if (unbound) this.deliverTo(unbound, resource, type, obj, prev, deleted, revision);
  }

  private deliverTo(
    targets: readonly WatchStream[],
    resource: ResourceName,
    type: WatchEventType,
    obj: AnyObject,
    prev: AnyObject | undefined,
    deleted: AnyObject,
    revision: number,
  ): void {
    const cause = this.sim.cause;
    const tracing = this.sim.records('watch');
    for (const s of targets) {
      if (s.closed || revision <= s.since) continue;
      if (this.down || (s.node !== undefined && this.unreachable.has(s.node))) {
        this.closeWatch(s);
        s.onClose();
        continue;
      }
      const now = type !== 'DELETED' && matches(obj, s.opts, resource);
      const before = prev !== undefined && matches(prev, s.opts, resource);
      let t: WatchEventType;
      if (type === 'DELETED') {
        if (!before) continue;
        t = 'DELETED';
      } else if (now && before) t = 'MODIFIED';
      else if (now) t = 'ADDED';
      else if (before) t = 'DELETED';
      else continue;
      const o = t === 'DELETED' ? deleted : obj;
      const seq = tracing && s.traced && this.traceWatch(s.user, t, resource, o, revision);
      this.sim.cause = seq || cause;
      s.handler(t, o, revision);
      this.sim.cause = cause;
    }
  }

  /** traceWatch records the delivery of a watch event to a component; it returns the entry's seq (0 if not recorded). */
  traceWatch(to: string, type: WatchEventType, resource: ResourceName, obj: AnyObject, revision: number): number {
    if (!this.sim.records('watch')) return 0;
    const m = obj.metadata;
    return this.sim.record({ kind: 'watch', from: APISERVER, to, type, resource, namespace: m.namespace, name: m.name, revision });
  }
}

// validateClusterIP mirrors the clusterIPs[0] check of ValidateServiceClusterIPsRelatedFields
// (pkg/apis/core/validation/validation.go), which allocation runs first: a valid IP or None.
function validateClusterIP(ip: string): FieldError | undefined {
  if (parseIPv4(ip) !== undefined) return undefined;
  return { field: 'spec.clusterIPs[0]', type: 'Invalid value', value: ip, detail: 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' };
}

// clusterIPChange mirrors validateUpgradeDowngradeClusterIPs (pkg/apis/core/validation): the primary
// cluster IP of a Service may not change once set (a clusterIP the client sends is normalised into
// clusterIPs[0] first, as the storage's normalizeClusterIPs does). A client that leaves it out keeps it.
// Simplification: changes to and from type ExternalName, which may drop or set it, are not modelled.
function clusterIPChange(cur: Service, next: Service): FieldError | undefined {
  const old = cur.spec.clusterIP;
  const ip = next.spec.clusterIP || next.spec.clusterIPs?.[0];
  if (!old || !ip || ip === old) return undefined;
  const ips = next.spec.clusterIP && next.spec.clusterIPs?.[0] !== next.spec.clusterIP ? [next.spec.clusterIP, ...(next.spec.clusterIPs ?? []).slice(1)] : next.spec.clusterIPs!;
  return { field: 'spec.clusterIPs[0]', type: 'Invalid value', raw: `[]string{${ips.map((x) => JSON.stringify(x)).join(', ')}}`, detail: 'may not change once set' };
}

// needsNodePort mirrors needsNodePort (pkg/registry/core/service/storage/storage.go): NodePort and
// LoadBalancer Services have node ports.
function needsNodePort(svc: Service): boolean {
  return svc.spec.type === 'NodePort' || svc.spec.type === 'LoadBalancer';
}

// needsHealthCheck mirrors service.NeedsHealthCheck (pkg/api/v1/service/util.go): a LoadBalancer
// Service with externalTrafficPolicy Local.
function needsHealthCheck(svc: Service): boolean {
  return svc.spec.type === 'LoadBalancer' && svc.spec.externalTrafficPolicy === 'Local';
}

// shouldAllocateNodePorts: a NodePort Service always, a LoadBalancer one unless
// allocateLoadBalancerNodePorts is false.
function shouldAllocateNodePorts(svc: Service): boolean {
  if (svc.spec.type === 'NodePort') return true;
  return svc.spec.type === 'LoadBalancer' && svc.spec.allocateLoadBalancerNodePorts !== false;
}

// decoded is the object kube-apiserver works on: a copy of the client's, as decoding makes one,
// unless the client handed it off. A handed-off object with undefined fields is still copied,
// since the copy drops them (as encoding would). stored is the object an update replaces: the
// parts the client's object shares with it were checked when they were stored, and are skipped.
function decoded<T>(input: T, handOff: boolean, stored?: unknown): T {
  return handOff && !undefinedBeside(input, stored) ? input : deepClone(input);
}

// undefinedBeside is hasUndefined for v, skipping what v shares with stored at the same place.
// stored[k] is read for every key, so that V8 compiles it as a generic keyed load from the start
// (read only for object values, it was specialized on their few names and deoptimized on every
// other, hundreds of times at scale); only an object value that is not shared costs a call.
function undefinedBeside(v: unknown, stored: unknown): boolean {
  if (v === stored || v === null || typeof v !== 'object') return false;
  if (stored === null || typeof stored !== 'object') return hasUndefined(v);
  const s = stored as Record<string, unknown>;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (v[i] === undefined || undefinedBeside(v[i], s[i])) return true;
    return false;
  }
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined) return true;
    const y = s[k];
    if (x !== y && x !== null && typeof x === 'object' && undefinedBeside(x, y)) return true;
  }
  return false;
}


// applyMergePatch is mergePatch without touching target: objects along the patch's paths are
// copied, everything else is shared, and values from the patch are copied, unless handed off
// (then a value is copied only to drop undefined fields, as decoding would).
function applyMergePatch(target: unknown, patch: unknown, handOff = false): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return handOff && !hasUndefined(patch) ? patch : deepClone(patch);
  const p = patch as Record<string, unknown>;
  const base = target && typeof target === 'object' && !Array.isArray(target) ? (target as Record<string, unknown>) : {};
  let removes = false;
  for (const k in p) if (p[k] === null && Object.hasOwn(base, k)) removes = true;
  // A copy that then loses keys would be a slow dictionary-mode object (see setOrDelete), so
  // removals build the copy without them, keeping the key order the deletes would leave.
  let t: Record<string, unknown>;
  if (removes) {
    t = {};
    for (const k in base) if (p[k] !== null) t[k] = base[k];
  } else t = { ...base };
  for (const k in p) {
    const v = p[k];
    if (v === undefined || v === null) continue;
    t[k] = applyMergePatch(t[k], v, handOff);
  }
  return t;
}

// setOrDelete sets m[k] to v, or removes k when v is undefined, without adding a key only to
// delete it: V8 turns an object that loses a property into a slow dictionary-mode object, and
// every later reader of the stored object (each informer, each clone) would pay for that.
function setOrDelete(m: Record<string, unknown>, k: string, v: unknown): void {
  if (v !== undefined) m[k] = v;
  else if (Object.hasOwn(m, k)) delete m[k];
}

function withDeleteRV(o: AnyObject, rev: number): AnyObject {
  return { ...o, metadata: { ...o.metadata, resourceVersion: String(rev) } } as AnyObject;
}

const watchWhat = Object.fromEntries(Object.keys(resources).map((r) => [r, `watch ${r}`])) as Record<ResourceName, string>;

const prefixToResource = new Map<string, ResourceName>(Object.values(resources).map((r) => [r.etcdPrefix, r.resource]));

// resourceOfKey finds the resource of a key, first by its first two path segments
// (/registry/pods/...), then by the longer prefixes (/registry/services/specs/).
function resourceOfKey(key: string): ResourceName | undefined {
  const i = key.indexOf('/', key.indexOf('/', 1) + 1);
  const r = i < 0 ? undefined : prefixToResource.get(key.slice(0, i + 1));
  if (r) return r;
  for (const [p, r] of prefixToResource) if (key.startsWith(p)) return r;
  return undefined;
}

// HEX_CODES are the character codes of the lowercase hex digits.
const HEX_CODES = Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));

// hexCode is the character code of hex digit i (0 is the most significant) of a 32-bit number.
function hexCode(n: number, i: number): number {
  return HEX_CODES[(n >>> (28 - 4 * i)) & 15];
}

// uidCodes is newUID's buffer: the dashes stay, the digits are overwritten on every call.
const uidCodes = Array.from('00000000-0000-4000-8000-000000000000', (ch) => ch.charCodeAt(0));

/**
 * matches applies ListOptions to an object of resource (a SelectionPredicate: labels, then the
 * fields its strategy makes selectable). A fieldSelector must have been parsed (parsedListOptions).
 */
export function matches(o: AnyObject, opts: ListOptions, resource: ResourceName): boolean {
  if (opts.namespace && o.metadata.namespace !== opts.namespace) return false;
  if (opts.labelSelector && !opts.labelSelector.matches(o.metadata.labels)) return false;
  const fs = opts.fieldSelector;
  if (fs !== undefined) {
    if (typeof fs === 'string') throw new Error('matches: fieldSelector not parsed');
    if (fs instanceof FieldSelector) return fs.matches((field) => selectableField(resource, o, field));
    if (fs['metadata.name'] !== undefined && o.metadata.name !== fs['metadata.name']) return false;
    if (fs['spec.nodeName'] !== undefined && ((o as Pod).spec?.nodeName ?? '') !== fs['spec.nodeName']) return false;
  }
  return true;
}

/** mergePatch applies an RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const t = (target && typeof target === 'object' && !Array.isArray(target) ? target : {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete t[k];
    else t[k] = mergePatch(t[k], v);
  }
  return t;
}

/**
 * LeaseManager mirrors staging/src/k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go with its
 * defaults: writes with a TTL share one etcd lease while it fits. A lease is granted for ttl plus a
 * reuse window (5% of ttl, at most 60 s) and reused by every write whose ttl ends within that
 * window, up to 1,000 writes, so an Event written with the 1 h TTL is deleted 3600 to 3660 s
 * after its last write, and a stream of Events costs one lease (one expiry timer) a minute or a
 * thousand Events, not one per Event.
 */
class LeaseManager {
  private prevLeaseID = 0;
  private prevLeaseExpirationTime = -Infinity;
  private leaseAttachedObjectCount = 0;
  private readonly sim: Simulation;
  private readonly etcd: EtcdStore;
  constructor(sim: Simulation, etcd: EtcdStore) {
    this.sim = sim;
    this.etcd = etcd;
  }

  /** getLease returns a lease at least ttl seconds long, reusing the previous one when it fits. */
  getLease(ttl: number): number {
    const now = this.sim.now();
    const reuse = Math.min(Math.trunc(0.05 * ttl), 60);
    const valid = now + ttl * 1000 < this.prevLeaseExpirationTime;
    const sufficient = now + (ttl + reuse) * 1000 > this.prevLeaseExpirationTime;
    this.leaseAttachedObjectCount++;
    if (valid && sufficient && this.leaseAttachedObjectCount <= 1000) return this.prevLeaseID;
    this.prevLeaseID = this.etcd.grant(ttl + reuse);
    this.prevLeaseExpirationTime = now + (ttl + reuse) * 1000;
    this.leaseAttachedObjectCount = 1;
    return this.prevLeaseID;
  }
}

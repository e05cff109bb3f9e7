// Mirrors k8s.io/cloud-provider controllers/service/controller.go (see "Simplification:" notes):
// cloud-controller-manager's service controller, which gives a LoadBalancer Service a load
// balancer from the cloud and records its address in status.loadBalancer. The ensure path records
// EnsuringLoadBalancer, adds the service.kubernetes.io/load-balancer-cleanup finalizer before it
// calls the cloud, calls EnsureLoadBalancer with the stable node set, records EnsuredLoadBalancer
// and patches the status; the delete path (the Service no longer wants a load balancer, or is
// being deleted) records DeletingLoadBalancer, deletes it, removes the finalizer and records
// DeletedLoadBalancer. Every write is a strategic merge patch of services/status
// (service/helpers PatchService). A change in the node set updates every load balancer's hosts
// (UpdatedLoadBalancer "Updated load balancer with new hosts").
// Simplification: no informer resyncs (serviceSyncPeriod 30 s, nodeSyncPeriod 100 s): a resync
// delivers an unchanged object, for which neither handler enqueues anything.

import { deepClone } from '../../api/clone.ts';
import type { Node, Service } from '../../api/types.ts';
import { isNotFound, StatusError } from '../../apiserver/errors.ts';
import { createTwoWayMergePatch, StrategicMergePatchType } from '../../apiserver/patch.ts';
import type { Client } from '../../client/client.ts';
import { EventRecorder } from '../../client/events.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../../client/keys.ts';
import { RateLimitingQueue, type Sync } from '../../client/workqueue.ts';
import type { Simulation } from '../../engine/simulation.ts';
import { CloudError, type FakeCloud, type LoadBalancerStatus } from '../../cloudprovider/fake.ts';

/** LoadBalancerCleanupFinalizer keeps a Service until its load balancer is deleted. */
export const LoadBalancerCleanupFinalizer = 'service.kubernetes.io/load-balancer-cleanup';
/** LabelNodeExcludeBalancers keeps a node out of every load balancer (kubeadm's control plane). */
export const LabelNodeExcludeBalancers = 'node.kubernetes.io/exclude-from-external-load-balancers';
/** ToBeDeletedTaint is the Cluster Autoscaler's taint on a node it is removing. */
export const ToBeDeletedTaint = 'ToBeDeletedByClusterAutoscaler';

// minRetryDelay and maxRetryDelay bound both queues' per-item back-off.
const minRetryDelay = 5_000;
const maxRetryDelay = 300_000;
// The node queue has one key: every node change asks for one syncNodes.
const nodeSyncKey = 'nodes';

type LBStatus = Service['status']['loadBalancer'];

/** ServiceController is cloud-controller-manager's service-controller. */
export class ServiceController {
  static readonly NAME = 'service-controller';
  readonly services: Informer<Service>;
  readonly nodes: Informer<Node>;
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly cloud: FakeCloud;
  private readonly recorder: EventRecorder;
  private serviceQueue: RateLimitingQueue;
  private nodeQueue: RateLimitingQueue;
  /** cache is serviceCache: the last Service synced under each key (cachedService.state). */
  private readonly cache = new Map<string, Service>();
  private readonly lastSyncedNodes = new Map<string, Node[]>();

  constructor(
    sim: Simulation,
    client: Client,
    cloud: FakeCloud,
    informers = new SharedInformerFactory(client),
  ) {
    this.sim = sim;
    this.client = client;
    this.cloud = cloud;
    this.recorder = new EventRecorder(client, 'service-controller');
    this.serviceQueue = this.newServiceQueue();
    this.nodeQueue = this.newNodeQueue();
    this.services = informers.informerFor<Service>('services', ServiceController.NAME);
    this.services.addEventHandler(
      {
        // Checking cleanup on add mends what a controller that stopped midway left behind.
        onAdd: (s) => {
          if (wantsLoadBalancer(s) || needsCleanup(s)) this.serviceQueue.add(metaNamespaceKey(s));
        },
        onUpdate: (o, s) => {
          if (needsUpdate(o, s) || needsCleanup(s)) this.serviceQueue.add(metaNamespaceKey(s));
        },
        // A deletion goes through the update that sets deletionTimestamp (the finalizer holds it).
      },
      ServiceController.NAME,
    );
    this.nodes = informers.informerFor<Node>('nodes', ServiceController.NAME);
    this.nodes.addEventHandler(
      {
        onAdd: () => this.nodeQueue.add(nodeSyncKey),
        onUpdate: (o, n) => {
          if (shouldSyncUpdatedNode(o, n)) this.nodeQueue.add(nodeSyncKey);
        },
        onDelete: () => this.nodeQueue.add(nodeSyncKey),
      },
      ServiceController.NAME,
    );
  }

  // One worker each (--concurrent-service-syncs defaults to 1): a load balancer being
  // provisioned holds the service worker until the cloud answers.
  private newServiceQueue(): RateLimitingQueue {
    return new RateLimitingQueue(
      this.sim,
      { name: 'service', baseDelay: minRetryDelay, maxDelay: maxRetryDelay },
      (key) => this.processNextServiceItem(key),
    );
  }

  private newNodeQueue(): RateLimitingQueue {
    return new RateLimitingQueue(
      this.sim,
      { name: 'node', baseDelay: minRetryDelay, maxDelay: maxRetryDelay },
      () => this.processNextNodeItem(),
    );
  }

  start(): void {
    if (this.serviceQueue.shuttingDown) {
      this.serviceQueue = this.newServiceQueue();
      this.nodeQueue = this.newNodeQueue();
    }
    this.services.start();
    this.nodes.start();
  }

  stop(): void {
    this.services.stop();
    this.nodes.stop();
    this.serviceQueue.shutDown();
    this.nodeQueue.shutDown();
  }

  private *processNextServiceItem(key: string): Sync {
    try {
      yield* this.syncService(key);
      this.serviceQueue.forget(key);
    } catch (e) {
      if (!(e instanceof StatusError) && !(e instanceof CloudError)) throw e;
      this.serviceQueue.addRateLimited(key);
    }
  }

  /** syncService ensures or deletes the load balancer of the Service under key. Level-triggered. */
  *syncService(key: string): Sync {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const service = this.services.get(namespace, name);
    if (!service) {
      yield* this.processServiceDeletion(key);
      return;
    }
    // Never mutate cached objects; clone first.
    yield* this.processServiceCreateOrUpdate(deepClone(service), key);
  }

  private *processServiceCreateOrUpdate(service: Service, key: string): Sync {
    const cached = this.cache.get(key);
    // A Service deleted and created again (possible only without the finalizer).
    if (cached && cached.metadata.uid !== service.metadata.uid)
      yield* this.processLoadBalancerDelete(cached);
    this.cache.set(key, service);
    let op: 'delete' | 'ensure';
    try {
      op = yield* this.syncLoadBalancerIfNeeded(service);
    } catch (e) {
      if (e instanceof StatusError || e instanceof CloudError)
        this.recorder.event(
          service,
          'Warning',
          'SyncLoadBalancerFailed',
          `Error syncing load balancer: ${e.message}`,
        );
      throw e;
    }
    if (op === 'delete') this.cache.delete(key);
  }

  /**
   * syncLoadBalancerIfNeeded ensures the Service's load balancer exists if it wants one, or is
   * gone if it does not, and records the result in status.loadBalancer.
   */
  private *syncLoadBalancerIfNeeded(service: Service): Generator<number, 'delete' | 'ensure'> {
    const previousStatus: LBStatus = service.status?.loadBalancer ?? {};
    let newStatus: LBStatus;
    let op: 'delete' | 'ensure';
    if (!wantsLoadBalancer(service) || needsCleanup(service)) {
      op = 'delete';
      newStatus = {};
      if (this.cloud.getLoadBalancer(ServiceController.NAME, service).exists) {
        this.recorder.event(service, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
        yield* wrap(
          this.cloud.ensureLoadBalancerDeleted(ServiceController.NAME, service),
          'failed to delete load balancer',
        );
      }
      yield* wrap(
        this.removeFinalizer(service),
        'failed to remove load balancer cleanup finalizer',
      );
      this.recorder.event(service, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
    } else {
      op = 'ensure';
      this.recorder.event(service, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
      yield* wrap(this.addFinalizer(service), 'failed to add load balancer cleanup finalizer');
      newStatus = yield* wrap(this.ensureLoadBalancer(service), 'failed to ensure load balancer');
      this.recorder.event(service, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
    }
    try {
      yield* this.patchStatus(service, previousStatus, newStatus);
    } catch (e) {
      // NotFound: the Service went away once its finalizer was removed.
      if (!isNotFound(e)) throw withPrefix(e, 'failed to update load balancer status');
    }
    return op;
  }

  private *ensureLoadBalancer(service: Service): Generator<number, LBStatus> {
    const nodes = this.nodes.list().filter(isStableNode);
    if (!nodes.length)
      this.recorder.event(
        service,
        'Warning',
        'UnAvailableLoadBalancer',
        'There are no available nodes for LoadBalancer',
      );
    this.lastSyncedNodes.set(metaNamespaceKey(service), nodes);
    const status: LoadBalancerStatus = yield* this.cloud.ensureLoadBalancer(
      ServiceController.NAME,
      service,
      nodes,
    );
    return status;
  }

  private *processServiceDeletion(key: string): Sync {
    const cached = this.cache.get(key);
    if (!cached) return;
    yield* this.processLoadBalancerDelete(cached);
    this.cache.delete(key);
  }

  // processLoadBalancerDelete deletes the load balancer of a Service gone without the finalizer.
  private *processLoadBalancerDelete(service: Service): Sync {
    if (!wantsLoadBalancer(service)) return;
    this.recorder.event(service, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
    yield* this.cloud.ensureLoadBalancerDeleted(ServiceController.NAME, service);
    this.recorder.event(service, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
  }

  /** addFinalizer patches the cleanup finalizer in, before any load balancer exists. */
  private *addFinalizer(service: Service): Sync {
    if (service.metadata.finalizers?.includes(LoadBalancerCleanupFinalizer)) return;
    const updated = deepClone(service);
    updated.metadata.finalizers = [
      ...(updated.metadata.finalizers ?? []),
      LoadBalancerCleanupFinalizer,
    ];
    yield* this.patchService(service, updated);
  }

  /** removeFinalizer patches the cleanup finalizer out, once the load balancer is gone. */
  private *removeFinalizer(service: Service): Sync {
    if (!service.metadata.finalizers?.includes(LoadBalancerCleanupFinalizer)) return;
    const updated = deepClone(service);
    const rest = updated.metadata.finalizers!.filter((f) => f !== LoadBalancerCleanupFinalizer);
    if (rest.length) updated.metadata.finalizers = rest;
    else delete updated.metadata.finalizers;
    yield* this.patchService(service, updated);
  }

  /** patchStatus records the load balancer's status, unless it is unchanged. */
  private *patchStatus(service: Service, previous: LBStatus, next: LBStatus): Sync {
    if (loadBalancerStatusEqual(previous, next)) return;
    const updated = deepClone(service);
    updated.status = { ...updated.status, loadBalancer: next };
    yield* this.patchService(service, updated);
  }

  /**
   * patchService mirrors service/helpers PatchService: the two-way strategic merge patch from the
   * old Service to the new (spec reset to the old), sent to services/status.
   */
  private *patchService(oldSvc: Service, newSvc: Service): Sync {
    newSvc.spec = oldSvc.spec;
    const patch = createTwoWayMergePatch(oldSvc, newSvc);
    yield* this.client.throttle();
    this.client.patch<Service>(
      'services',
      oldSvc.metadata.namespace,
      oldSvc.metadata.name,
      patch,
      'status',
      StrategicMergePatchType,
    );
  }

  private *processNextNodeItem(): Sync {
    for (const key of yield* this.syncNodes()) this.serviceQueue.add(key);
    this.nodeQueue.forget(nodeSyncKey);
  }

  /**
   * syncNodes points every load balancer at the current stable node set, and returns the keys of
   * the Services whose update failed (they are retried through the service queue).
   */
  private *syncNodes(): Generator<number, string[]> {
    const retry: string[] = [];
    for (const key of [...this.cache.keys()].sort()) {
      const svc = this.cache.get(key);
      if (svc && (yield* this.nodeSyncService(svc))) retry.push(key);
    }
    return retry;
  }

  // nodeSyncService updates one load balancer's hosts; true asks for a retry.
  private *nodeSyncService(svc: Service): Generator<number, boolean> {
    if (!wantsLoadBalancer(svc)) return false;
    const key = metaNamespaceKey(svc);
    const newNodes = this.nodes.list().filter(isStableNode);
    const oldNodes = (this.lastSyncedNodes.get(key) ?? []).filter(isStableNode);
    this.lastSyncedNodes.set(key, newNodes);
    if (nodesSufficientlyEqual(oldNodes, newNodes)) return false;
    try {
      yield* this.cloud.updateLoadBalancer(ServiceController.NAME, svc, newNodes);
    } catch (e) {
      if (!(e instanceof CloudError)) throw e;
      // It is an error only if the load balancer still exists (one being provisioned does not).
      if (!this.cloud.getLoadBalancer(ServiceController.NAME, svc).exists) return false;
      const names = goStringList(newNodes.slice(0, 20).map((n) => n.metadata.name));
      this.recorder.event(
        svc,
        'Warning',
        'UpdateLoadBalancerFailed',
        `Error updating load balancer with new hosts ${names} [node names limited, total number of nodes: ${newNodes.length}], error: ${e.message}`,
      );
      return true;
    }
    if (!newNodes.length)
      this.recorder.event(
        svc,
        'Warning',
        'UnAvailableLoadBalancer',
        'There are no available nodes for LoadBalancer',
      );
    else
      this.recorder.event(
        svc,
        'Normal',
        'UpdatedLoadBalancer',
        'Updated load balancer with new hosts',
      );
    return false;
  }
}

// goStringList prints a []string as Go's %v does: [a b c].
function goStringList(names: string[]): string {
  return `[${names.join(' ')}]`;
}

// wrap runs a step and words its failure as syncLoadBalancerIfNeeded's fmt.Errorf does.
function* wrap<T>(step: Generator<number, T, void>, prefix: string): Generator<number, T, void> {
  try {
    return yield* step;
  } catch (e) {
    throw withPrefix(e, prefix);
  }
}

function withPrefix(e: unknown, prefix: string): unknown {
  if (e instanceof StatusError || e instanceof CloudError) e.message = `${prefix}: ${e.message}`;
  return e;
}

/** wantsLoadBalancer: type LoadBalancer and no loadBalancerClass (a class means someone else's). */
export function wantsLoadBalancer(service: Service): boolean {
  return service.spec.type === 'LoadBalancer' && service.spec.loadBalancerClass === undefined;
}

/** needsCleanup: the finalizer is on a Service being deleted or no longer of type LoadBalancer. */
export function needsCleanup(service: Service): boolean {
  if (!service.metadata.finalizers?.includes(LoadBalancerCleanupFinalizer)) return false;
  return !!service.metadata.deletionTimestamp || service.spec.type !== 'LoadBalancer';
}

/** needsUpdate says whether a change to a Service concerns its load balancer. */
export function needsUpdate(o: Service, n: Service): boolean {
  if (!wantsLoadBalancer(o) && !wantsLoadBalancer(n)) return false;
  if (wantsLoadBalancer(o) !== wantsLoadBalancer(n)) return true;
  const a = o.spec;
  const b = n.spec;
  const same = (x: unknown, y: unknown) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);
  return !(
    same(a.loadBalancerSourceRanges, b.loadBalancerSourceRanges) &&
    same(portsForLB(o), portsForLB(n)) &&
    a.sessionAffinity === b.sessionAffinity &&
    same(a.sessionAffinityConfig, b.sessionAffinityConfig) &&
    a.loadBalancerIP === b.loadBalancerIP &&
    same(a.externalIPs ?? [], b.externalIPs ?? []) &&
    same(o.metadata.annotations ?? {}, n.metadata.annotations ?? {}) &&
    o.metadata.uid === n.metadata.uid &&
    a.externalTrafficPolicy === b.externalTrafficPolicy &&
    a.healthCheckNodePort === b.healthCheckNodePort &&
    (a.ipFamilies?.length ?? 0) === (b.ipFamilies?.length ?? 0)
  );
}

// portsForLB is what portEqualForLB compares: name, protocol, port, nodePort, targetPort and
// appProtocol.
function portsForLB(s: Service): unknown[] {
  return (s.spec.ports ?? []).map((p) => [
    p.name ?? '',
    p.protocol ?? '',
    p.port,
    p.nodePort ?? 0,
    p.targetPort ?? 0,
    (p as { appProtocol?: string }).appProtocol ?? null,
  ]);
}

/** shouldSyncUpdatedNode: a node's exclusion label or providerID changed. */
function shouldSyncUpdatedNode(o: Node, n: Node): boolean {
  return nodeIncluded(o) !== nodeIncluded(n) || o.spec.providerID !== n.spec.providerID;
}

// nodeIncluded is nodeIncludedPredicate: the exclusion label is absent or parses as false.
function nodeIncluded(node: Node): boolean {
  const v = node.metadata.labels?.[LabelNodeExcludeBalancers];
  if (v === undefined) return true;
  return /^(0|f|F|false|FALSE|False)$/.test(v);
}

/**
 * isStableNode is stableNodeSetPredicates: not being deleted, not excluded, not being removed by
 * the Cluster Autoscaler. Readiness is not among them.
 */
export function isStableNode(node: Node): boolean {
  return (
    !node.metadata.deletionTimestamp &&
    nodeIncluded(node) &&
    !(node.spec.taints ?? []).some((t) => t.key === ToBeDeletedTaint)
  );
}

// nodesSufficientlyEqual: the same node names with the same providerIDs.
function nodesSufficientlyEqual(a: readonly Node[], b: readonly Node[]): boolean {
  if (a.length !== b.length) return false;
  const ids = new Map(a.map((n) => [n.metadata.name, n.spec.providerID ?? '']));
  return b.every(
    (n) => ids.has(n.metadata.name) && ids.get(n.metadata.name) === (n.spec.providerID ?? ''),
  );
}

// loadBalancerStatusEqual is LoadBalancerStatusEqual: a semantic deep equality of the ingress.
function loadBalancerStatusEqual(a: LBStatus, b: LBStatus): boolean {
  return JSON.stringify(a?.ingress ?? []) === JSON.stringify(b?.ingress ?? []);
}

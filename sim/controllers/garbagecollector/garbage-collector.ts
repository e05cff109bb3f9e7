// Mirrors pkg/controller/garbagecollector/{garbagecollector.go,graph_builder.go} (see
// "Simplification:" notes): the owner graph is built from ownerReferences (by uid), and a dependent
// whose owners are all gone is deleted (attemptToDeleteItem) with background propagation and a uid
// precondition; an object that keeps at least one owner loses only its dangling references.
// The resources it monitors come from discovery (GetDeletableResources): every row of the
// discovery table (apiserver/discovery.ts) that can be deleted, listed and watched, so a new kind
// is collected once its row is there.
// Simplification: only background propagation (no foregroundDeletion or orphan finalizers), the
// table is read once at start (upstream re-reads discovery every 30 s: Sync), and the graph is
// the informers' caches indexed by owner uid instead of a separate node graph with virtual nodes.

import type { AnyObject, OwnerReference, ResourceName } from '../../api/types.ts';
import { isNotFound, StatusError } from '../../apiserver/errors.ts';
import { StrategicMergePatchType } from '../../apiserver/patch.ts';
import { API_RESOURCES, qualifiedResource } from '../../apiserver/discovery.ts';
import { apiVersionOf, resourceForKind, resources } from '../../apiserver/registry.ts';
import type { Client } from '../../client/client.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import { RateLimitingQueue, type Sync } from '../../client/workqueue.ts';
import type { Simulation } from '../../engine/simulation.ts';

/** ConcurrentGCSyncs is --concurrent-gc-syncs' default: the attemptToDelete workers. */
export const ConcurrentGCSyncs = 20;

/**
 * ignoredResources mirrors the garbage collector's DefaultIgnoredResources
 * (pkg/controller/garbagecollector): Events are never monitored.
 */
const ignoredResources = new Set(['events', 'events.events.k8s.io']);

/**
 * gcResources mirrors GetDeletableResources (pkg/controller/garbagecollector/garbagecollector.go):
 * the served resources whose verbs include delete, list and watch (discovery.SupportsAllVerbs),
 * less the ignored ones, in discovery order; a plural that two groups serve is one storage and
 * is watched once, through the row that stores it.
 */
export const gcResources: readonly ResourceName[] = API_RESOURCES.filter(
  (r) =>
    r.resource in resources &&
    r.sharesStorageWith === undefined &&
    ['delete', 'list', 'watch'].every((v) => r.verbs.includes(v)) &&
    !ignoredResources.has(qualifiedResource(r)),
).map((r) => r.resource as ResourceName);

const ownerUIDIndex = 'ownerUID';
/** absentOwnerCacheSize is the LRU size upstream uses (500). */
const absentOwnerCacheSize = 500;

/** ObjectIdentity names one object: resource, namespace, name and uid. */
export interface ObjectIdentity {
  resource: ResourceName;
  namespace: string;
  name: string;
  uid: string;
}

function identityKey(id: ObjectIdentity): string {
  return `${id.resource}|${id.namespace}|${id.name}|${id.uid}`;
}

function parseIdentityKey(key: string): ObjectIdentity {
  const [resource, namespace, name, uid] = key.split('|');
  return { resource: resource as ResourceName, namespace, name, uid };
}

function identityOf(resource: ResourceName, o: AnyObject): ObjectIdentity {
  return {
    resource,
    namespace: o.metadata.namespace ?? '',
    name: o.metadata.name,
    uid: o.metadata.uid,
  };
}

function sameOwnerUIDs(
  a: readonly OwnerReference[] | undefined,
  b: readonly OwnerReference[] | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i].uid !== y[i].uid) return false;
  return true;
}

/** GarbageCollector is kube-controller-manager's garbage-collector. */
export class GarbageCollector {
  static readonly NAME = 'garbage-collector';

  readonly informers = new Map<ResourceName, Informer<AnyObject>>();
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly attemptToDelete: RateLimitingQueue;
  /** uidToObject is the graph's node set: every observed object by uid. */
  private readonly uidToObject = new Map<string, ObjectIdentity>();
  /** absentOwnerCache remembers owners found missing (LRU, as upstream's ReferenceCache). */
  private readonly absentOwnerCache = new Map<string, true>();

  constructor(sim: Simulation, client: Client, informers = new SharedInformerFactory(client)) {
    this.sim = sim;
    this.client = client;
    this.attemptToDelete = new RateLimitingQueue(
      sim,
      { name: 'garbage_collector_attempt_to_delete', workers: ConcurrentGCSyncs },
      (key) => this.processAttemptToDeleteWorker(key),
    );
    for (const resource of gcResources) {
      const inf = informers
        .informerFor<AnyObject>(resource, GarbageCollector.NAME)
        .addIndexer(ownerUIDIndex, (o) => (o.metadata.ownerReferences ?? []).map((r) => r.uid));
      inf.addEventHandler(
        {
          onAdd: (o) => this.onAdd(resource, o),
          onUpdate: (old, o) => this.onUpdate(resource, old, o),
          onDelete: (o) => this.onDelete(resource, o),
        },
        GarbageCollector.NAME,
      );
      this.informers.set(resource, inf);
    }
  }

  start(): void {
    for (const inf of this.informers.values()) inf.start();
  }

  stop(): void {
    this.attemptToDelete.shutDown();
    for (const inf of this.informers.values()) inf.stop();
  }

  // ---- graph builder: handlers only record uids and enqueue dependents ----

  private onAdd(resource: ResourceName, o: AnyObject): void {
    this.uidToObject.set(o.metadata.uid, identityOf(resource, o));
    if (this.hasUnobservedOwner(o)) this.attemptToDelete.add(identityKey(identityOf(resource, o)));
  }

  private onUpdate(resource: ResourceName, old: AnyObject, o: AnyObject): void {
    if (old.metadata.uid !== o.metadata.uid) this.uidToObject.delete(old.metadata.uid);
    // An update rarely changes an identity; an equal one already in the graph is kept.
    const known = this.uidToObject.get(o.metadata.uid);
    if (
      !known ||
      known.resource !== resource ||
      known.name !== o.metadata.name ||
      known.namespace !== (o.metadata.namespace ?? '')
    )
      this.uidToObject.set(o.metadata.uid, identityOf(resource, o));
    if (
      !sameOwnerUIDs(old.metadata.ownerReferences, o.metadata.ownerReferences) &&
      this.hasUnobservedOwner(o)
    )
      this.attemptToDelete.add(identityKey(identityOf(resource, o)));
  }

  // onDelete is the owner's removal from the graph: each of its dependents is attempted.
  private onDelete(_resource: ResourceName, o: AnyObject): void {
    const uid = o.metadata.uid;
    if (this.uidToObject.get(uid)?.name === o.metadata.name) this.uidToObject.delete(uid);
    for (const [r, inf] of this.informers) {
      for (const dep of inf.byIndex(ownerUIDIndex, uid))
        this.attemptToDelete.add(identityKey(identityOf(r, dep)));
    }
  }

  // observedOwner says whether the graph holds the owner a reference points at: same uid, and for
  // a namespaced owner the dependent's namespace (owners never cross namespaces).
  private observedOwner(ref: OwnerReference, dependent: AnyObject): boolean {
    const id = this.uidToObject.get(ref.uid);
    if (!id) return false;
    if (resources[id.resource].namespaced && id.namespace !== (dependent.metadata.namespace ?? ''))
      return false;
    return true;
  }

  private hasUnobservedOwner(o: AnyObject): boolean {
    for (const r of o.metadata.ownerReferences ?? []) if (!this.observedOwner(r, o)) return true;
    return false;
  }

  // ---- attemptToDelete worker ----

  private *processAttemptToDeleteWorker(key: string): Sync {
    try {
      yield* this.attemptToDeleteItem(parseIdentityKey(key));
      this.attemptToDelete.forget(key);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      this.attemptToDelete.addRateLimited(key);
    }
  }

  /**
   * attemptToDeleteItem mirrors upstream: skip an object being deleted; GET the live object (it
   * must still have the same uid); classify its owner references as solid or dangling (a live GET
   * of each owner not known to be absent); with no solid owner delete it (background, uid
   * precondition), otherwise patch the dangling references away. Level-triggered.
   */
  *attemptToDeleteItem(item: ObjectIdentity): Sync {
    const cached = this.informers.get(item.resource)?.get(item.namespace || undefined, item.name);
    if (cached && cached.metadata.uid === item.uid) {
      // "Being deleted" is a one-way trip to the final deletion.
      if (cached.metadata.deletionTimestamp) return;
      // Every owner has been observed since the item was queued: nothing dangles.
      if (!this.hasUnobservedOwner(cached)) return;
    }
    let latest: AnyObject;
    try {
      yield* this.client.throttle();
      latest = this.client.get<AnyObject>(item.resource, item.namespace || undefined, item.name);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (latest.metadata.uid !== item.uid) return;
    if (latest.metadata.deletionTimestamp) return;
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return;
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    for (const r of refs) ((yield* this.isDangling(r, item)) ? dangling : solid).push(r);
    if (solid.length > 0) {
      if (dangling.length === 0) return;
      // gc.patch with GenerateDeleteOwnerRefStrategicMergeBytes (patch.go): a strategic merge
      // patch that deletes each dangling reference by its merge key (uid) and carries the
      // dependent's uid (upstream falls back to a JSON merge patch only for custom resources).
      yield* this.client.throttle();
      this.client.patch(
        item.resource,
        item.namespace || undefined,
        item.name,
        {
          metadata: {
            ownerReferences: dangling.map((r) => ({ $patch: 'delete', uid: r.uid })),
            uid: item.uid,
          },
        },
        undefined,
        StrategicMergePatchType,
      );
      return;
    }
    yield* this.client.throttle();
    this.client.delete(item.resource, item.namespace || undefined, item.name, {
      preconditions: { uid: item.uid },
    });
  }

  /**
   * isDangling mirrors upstream: an owner recorded absent, or a live GET that finds nothing or an
   * object with another uid, makes the reference dangling.
   * Simplification: a reference to a kind the simulator does not serve counts as solid (upstream
   * requeues the item until discovery knows the kind).
   */
  private *isDangling(ref: OwnerReference, item: ObjectIdentity): Generator<number, boolean, void> {
    const info = resourceForKind(ref.kind);
    if (!info || apiVersionOf(info) !== ref.apiVersion) return false;
    const itemNamespaced = resources[item.resource].namespaced;
    const ns = info.namespaced ? item.namespace : '';
    const cacheKey = `${ns}|${ref.uid}`;
    if (this.absentOwnerCache.has(cacheKey)) {
      this.absentOwnerCache.delete(cacheKey);
      this.absentOwnerCache.set(cacheKey, true);
      return true;
    }
    // A cluster-scoped object cannot be owned by a namespaced one.
    if (!itemNamespaced && info.namespaced) return true;
    let owner: AnyObject;
    try {
      yield* this.client.throttle();
      owner = this.client.get<AnyObject>(
        info.resource,
        info.namespaced ? item.namespace : undefined,
        ref.name,
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
      this.addAbsentOwner(cacheKey);
      return true;
    }
    if (owner.metadata.uid !== ref.uid) {
      this.addAbsentOwner(cacheKey);
      return true;
    }
    return false;
  }

  private addAbsentOwner(key: string): void {
    this.absentOwnerCache.set(key, true);
    if (this.absentOwnerCache.size > absentOwnerCacheSize)
      this.absentOwnerCache.delete(this.absentOwnerCache.keys().next().value!);
  }

  /** dependents lists the observed objects that reference owner uid (for tests and views). */
  dependents(uid: string): ObjectIdentity[] {
    const out: ObjectIdentity[] = [];
    for (const [r, inf] of this.informers)
      for (const d of inf.byIndex(ownerUIDIndex, uid)) out.push(identityOf(r, d));
    return out;
  }
}

// The typed client every component uses (the simulator's client-go clientset). Each call carries
// the component's identity, goes to kube-apiserver, and throws StatusError on failure, as the
// Go client returns an error. Simplification: requests are synchronous and take no virtual time.
// A client built with rate limits has client-go's token bucket (rest.Config QPS and Burst,
// util/flowcontrol/throttle.go, taken by rest/request.go's tryThrottle before every request):
// every request takes a token, a watch one when it is opened (its events are one long response).
// A caller that can wait does as upstream's request does: a sync written as a generator (see
// RateLimitingQueue) yields `throttle()` before a request, which reserves the token and, when the
// bucket is empty, suspends the sync until the token's time, when the request is sent; the
// worker stays busy meanwhile. kube-scheduler's binding is sent at its token's time too.
// Simplification: other requests are sent at once and leave the bucket in debt, so the requests
// after them wait as they would behind them: Events (upstream the broadcaster's goroutine sends
// them through the same client), kubelet Leases and status, kube-proxy, kubectl, and
// node-lifecycle-controller, whose node monitor runs on a timer (and whose untainting of a
// 5,000-node cluster's new nodes would otherwise outlast the cluster's birth). At their defaults
// they stay far below their bucket in every scenario here but a birth of thousands of nodes.

import type { AnyObject, Binding, Event, Eviction, ResourceName, Scale } from '../api/types.ts';
import type { PatchType } from '../apiserver/patch.ts';
import type {
  DeleteOptions,
  KubeAPIServer,
  ListOptions,
  ListResult,
  WatchStream,
} from '../apiserver/apiserver.ts';
import { TokenBucketRateLimiter } from './throttle.ts';

/** RateLimits are rest.Config's QPS and Burst. */
export interface RateLimits {
  qps: number;
  burst: number;
}

/** Client is bound to one component (user), e.g. "replicaset-controller" or "kubelet@node-1". */
export class Client {
  readonly user: string;
  readonly apiserver: KubeAPIServer;
  /** limiter is the client's token bucket; undefined means unlimited (rest.Config QPS < 0). */
  readonly limiter: TokenBucketRateLimiter | undefined;

  constructor(apiserver: KubeAPIServer, user: string, limits?: RateLimits) {
    this.apiserver = apiserver;
    this.user = user;
    this.limiter = limits ? new TokenBucketRateLimiter(limits.qps, limits.burst) : undefined;
  }

  /**
   * reserve takes a token for one request and returns the virtual time at which it may be sent
   * (now unless the bucket is empty). A caller that waits for that time itself passes
   * `reserved` to the call, which then takes no second token.
   */
  reserve(): number {
    const now = this.apiserver.sim.now();
    return this.limiter ? this.limiter.reserve(now) : now;
  }

  /**
   * throttle is tryThrottle for a caller that can wait: it reserves the next request's token and
   * yields its time when that is later than now (a generator sync's worker then resumes it at
   * that time); the request made right after it takes no second token. With tokens in the bucket
   * it yields nothing, so a sync that never waits runs in one go.
   */
  *throttle(): Generator<number, void, void> {
    if (!this.limiter) return;
    yield* this.sendAt(this.reserve());
  }

  /**
   * sendAt waits until at, the time of a token reserve() took (requests made in parallel reserve
   * theirs together, then each is sent at its own time); the request made right after it takes
   * no second token.
   */
  *sendAt(at: number): Generator<number, void, void> {
    if (!this.limiter) return;
    if (at > this.apiserver.sim.now()) yield at;
    this.prepaid = true;
  }

  // prepaid says the next request's token was taken by throttle or sendAt.
  private prepaid = false;

  // take is the token of a request sent now (see the file comment for what waits).
  private take(): void {
    if (!this.limiter) return;
    if (this.prepaid) this.prepaid = false;
    else this.limiter.reserve(this.apiserver.sim.now());
  }

  /**
   * create POSTs obj. handOff promises that obj was built for this call and is never touched
   * again (not even read): kube-apiserver then keeps it instead of copying it.
   */
  create<T extends AnyObject>(resource: ResourceName, obj: T, handOff = false): T {
    this.take();
    return this.apiserver.create(this.user, resource, obj, handOff);
  }

  get<T extends AnyObject>(resource: ResourceName, namespace: string | undefined, name: string): T {
    this.take();
    return this.apiserver.get<T>(this.user, resource, namespace, name);
  }

  list<T extends AnyObject>(resource: ResourceName, opts: ListOptions = {}): ListResult<T> {
    this.take();
    return this.apiserver.list<T>(this.user, resource, opts);
  }

  /** checkPatchSource has kube-apiserver decode the manifest a patch is built from (400 if it does not). */
  checkPatchSource(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
    manifest: Record<string, unknown>,
  ): void {
    this.apiserver.checkPatchSource(this.user, resource, namespace, name, manifest);
  }

  /** update PUTs obj; handOff as for create. */
  update<T extends AnyObject>(resource: ResourceName, obj: T, handOff = false): T {
    this.take();
    return this.apiserver.update(this.user, resource, obj, undefined, handOff);
  }

  /** updateStatus PUTs obj to the status subresource; handOff as for create. */
  updateStatus<T extends AnyObject>(resource: ResourceName, obj: T, handOff = false): T {
    this.take();
    return this.apiserver.update(this.user, resource, obj, 'status', handOff);
  }

  /**
   * patch sends a patch, a JSON merge patch unless patchType names another; subresource "status"
   * patches status only; handOff as for create (the patch's values are never changed after).
   */
  patch<T extends AnyObject>(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    subresource?: 'status',
    patchType?: PatchType,
    handOff = false,
  ): T {
    this.take();
    return this.apiserver.patch<T>(
      this.user,
      resource,
      namespace,
      name,
      patch,
      subresource,
      patchType,
      handOff,
    );
  }

  /** getScale GETs a workload's scale subresource. */
  getScale(resource: ResourceName, namespace: string, name: string): Scale {
    this.take();
    return this.apiserver.getScale(this.user, resource, namespace, name);
  }

  /** updateScale PUTs a workload's scale subresource. */
  updateScale(resource: ResourceName, scale: Scale): Scale {
    this.take();
    return this.apiserver.updateScale(this.user, resource, scale);
  }

  /** patchScale PATCHes a workload's scale subresource. */
  patchScale(
    resource: ResourceName,
    namespace: string,
    name: string,
    patch: unknown,
    patchType: PatchType,
  ): Scale {
    this.take();
    return this.apiserver.patchScale(this.user, resource, namespace, name, patch, patchType);
  }

  /** evict POSTs a policy/v1 Eviction to pods/eviction (client-go's Evictions(ns).Evict). */
  evict(eviction: Eviction): void {
    this.take();
    this.apiserver.evict(this.user, eviction);
  }

  delete(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
    opts?: DeleteOptions,
  ): AnyObject {
    this.take();
    return this.apiserver.delete(this.user, resource, namespace, name, opts);
  }

  /** createEventsV1 POSTs an events.k8s.io/v1 Event (given in its stored, core/v1 form). */
  createEventsV1(ev: Event): Event {
    this.take();
    return this.apiserver.createEventsV1(this.user, ev);
  }

  /** patchEventsV1 PATCHes an events.k8s.io/v1 Event. */
  patchEventsV1(namespace: string, name: string, patch: unknown): Event {
    this.take();
    return this.apiserver.patchEventsV1(this.user, namespace, name, patch);
  }

  /** bind POSTs to pods/binding; reserved says the caller already took its token (reserve). */
  bind(namespace: string, name: string, uid: string, nodeName: string, reserved = false): void {
    if (!reserved) this.take();
    const b: Binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { namespace, name, uid },
      target: { kind: 'Node', name: nodeName },
    };
    this.apiserver.bind(this.user, b);
  }

  /** watch opens a stream; traced false leaves tracing its deliveries to the caller (shared informers). */
  watch(
    resource: ResourceName,
    opts: ListOptions,
    handler: WatchStream['handler'],
    onClose: () => void,
    traced = true,
  ): WatchStream {
    this.take();
    return this.apiserver.watch(this.user, resource, opts, handler, onClose, traced);
  }

  closeWatch(s: WatchStream): void {
    this.apiserver.closeWatch(s);
  }

  /** reachable says whether this component can currently connect to kube-apiserver. */
  reachable(): boolean {
    return this.apiserver.reachable(this.user);
  }
}

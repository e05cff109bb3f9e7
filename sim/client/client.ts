// The typed client every component uses (the simulator's client-go clientset). Each call carries
// the component's identity, goes to kube-apiserver, and throws StatusError on failure, as the
// Go client returns an error. Simplification: requests are synchronous and take no virtual time.

import type { AnyObject, Binding, Eviction, ResourceName, Scale } from '../api/types.ts';
import type { PatchType } from '../apiserver/patch.ts';
import type { DeleteOptions, KubeAPIServer, ListOptions, ListResult, WatchStream } from '../apiserver/apiserver.ts';

/** Client is bound to one component (user), e.g. "replicaset-controller" or "kubelet@node-1". */
export class Client {
  readonly user: string;
  readonly apiserver: KubeAPIServer;

  constructor(apiserver: KubeAPIServer, user: string) {
    this.apiserver = apiserver;
    this.user = user;
  }

  /**
   * create POSTs obj. handOff promises that obj was built for this call and is never touched
   * again (not even read): kube-apiserver then keeps it instead of copying it.
   */
  create<T extends AnyObject>(resource: ResourceName, obj: T, handOff = false): T {
    return this.apiserver.create(this.user, resource, obj, handOff);
  }

  get<T extends AnyObject>(resource: ResourceName, namespace: string | undefined, name: string): T {
    return this.apiserver.get<T>(this.user, resource, namespace, name);
  }

  list<T extends AnyObject>(resource: ResourceName, opts: ListOptions = {}): ListResult<T> {
    return this.apiserver.list<T>(this.user, resource, opts);
  }

  /** checkPatchSource has kube-apiserver decode the manifest a patch is built from (400 if it does not). */
  checkPatchSource(resource: ResourceName, namespace: string | undefined, name: string, manifest: Record<string, unknown>): void {
    this.apiserver.checkPatchSource(this.user, resource, namespace, name, manifest);
  }

  /** update PUTs obj; handOff as for create. */
  update<T extends AnyObject>(resource: ResourceName, obj: T, handOff = false): T {
    return this.apiserver.update(this.user, resource, obj, undefined, handOff);
  }

  /** updateStatus PUTs obj to the status subresource; handOff as for create. */
  updateStatus<T extends AnyObject>(resource: ResourceName, obj: T, handOff = false): T {
    return this.apiserver.update(this.user, resource, obj, 'status', handOff);
  }

  /**
   * patch sends a patch, a JSON merge patch unless patchType names another; subresource "status"
   * patches status only.
   */
  patch<T extends AnyObject>(resource: ResourceName, namespace: string | undefined, name: string, patch: unknown, subresource?: 'status', patchType?: PatchType): T {
    return this.apiserver.patch<T>(this.user, resource, namespace, name, patch, subresource, patchType);
  }

  /** getScale GETs a workload's scale subresource. */
  getScale(resource: ResourceName, namespace: string, name: string): Scale {
    return this.apiserver.getScale(this.user, resource, namespace, name);
  }

  /** updateScale PUTs a workload's scale subresource. */
  updateScale(resource: ResourceName, scale: Scale): Scale {
    return this.apiserver.updateScale(this.user, resource, scale);
  }

  /** patchScale PATCHes a workload's scale subresource. */
  patchScale(resource: ResourceName, namespace: string, name: string, patch: unknown, patchType: PatchType): Scale {
    return this.apiserver.patchScale(this.user, resource, namespace, name, patch, patchType);
  }

  /** evict POSTs a policy/v1 Eviction to pods/eviction (client-go's Evictions(ns).Evict). */
  evict(eviction: Eviction): void {
    this.apiserver.evict(this.user, eviction);
  }

  delete(resource: ResourceName, namespace: string | undefined, name: string, opts?: DeleteOptions): AnyObject {
    return this.apiserver.delete(this.user, resource, namespace, name, opts);
  }

  /** bind POSTs to pods/binding. */
  bind(namespace: string, name: string, uid: string, nodeName: string): void {
    const b: Binding = { apiVersion: 'v1', kind: 'Binding', metadata: { namespace, name, uid }, target: { kind: 'Node', name: nodeName } };
    this.apiserver.bind(this.user, b);
  }

  /** watch opens a stream; traced false leaves tracing its deliveries to the caller (shared informers). */
  watch(resource: ResourceName, opts: ListOptions, handler: WatchStream['handler'], onClose: () => void, traced = true): WatchStream {
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

// The cloud behind cloud-controller-manager when a scenario sets `cluster.cloud: fake`: the parts
// of k8s.io/cloud-provider's Interface (cloud.go) its service and node controllers call,
// LoadBalancer (GetLoadBalancer, EnsureLoadBalancer, UpdateLoadBalancer,
// EnsureLoadBalancerDeleted) and InstancesV2 (InstanceMetadata), answered by a made-up provider
// named "fake". It is not upstream's test double (k8s.io/cloud-provider/fake), which answers at
// once with one fixed address: this one behaves as a real cloud's API does, slowly.
//
// - A load balancer takes LB_CREATE_MS plus up to LB_CREATE_JITTER_MS (from the seeded RNG) to
//   provision the first time; ensuring one that exists, changing its hosts and deleting it take
//   LB_UPDATE_MS and LB_DELETE_MS. A call blocks its caller that long, as a cloud SDK call blocks
//   the service controller's worker.
// - Each load balancer gets one IPv4 address from LB_POOL (203.0.113.0/24, TEST-NET-3, RFC 5737:
//   documentation addresses that are never routed), the lowest free one from .10 up, and gives it
//   back when it is deleted. The address is a VIP (ipMode VIP: the nodes' rules take its traffic),
//   which the cloud says, as kube-apiserver would default it: a Service synced again then
//   compares equal (LoadBalancerStatusEqual) and is not written.
// - A node's instance is `fake://<node name>`, of type fake.standard, in zone fake-zone-a of
//   region fake-region; its ExternalIP is 198.51.100.<n> (TEST-NET-2) for the InternalIP
//   10.0.0.<n>.
// - Every call is a `call` trace entry to `cloud` as it returns, with what it concerns and its
//   result (the address, the number of hosts, "not found").
// Simplification: the fake cloud fails only when its pool is used up or a load balancer to update
// is missing (no quotas, no unsupported protocols), honours neither spec.loadBalancerIP nor
// loadBalancerSourceRanges, and reports no ingress ports.

import type { Node, Service } from '../api/types.ts';
import type { Rng } from '../engine/rng.ts';
import type { Simulation } from '../engine/simulation.ts';

/** CLOUD is the cloud's name in the trace: every call to it is a `call` entry to `cloud`. */
export const CLOUD = 'cloud';
/** ProviderName is the cloud's name, the scheme of its provider IDs. */
export const ProviderName = 'fake';
/** LB_POOL is the documented range load balancer addresses come from. */
export const LB_POOL = '203.0.113.0/24';
/** LB_CREATE_MS is the least time a new load balancer takes to provision. */
export const LB_CREATE_MS = 4000;
/** LB_CREATE_JITTER_MS is the most a provisioning may take beyond LB_CREATE_MS. */
export const LB_CREATE_JITTER_MS = 2000;
/** LB_UPDATE_MS is how long ensuring an existing load balancer or changing its hosts takes. */
export const LB_UPDATE_MS = 500;
/** LB_DELETE_MS is how long deleting a load balancer takes. */
export const LB_DELETE_MS = 2000;

/** The first and last host of LB_POOL handed out. */
const FIRST_HOST = 10;
const LAST_HOST = 254;

/** LoadBalancerStatus is what EnsureLoadBalancer returns: the address to record. */
export interface LoadBalancerStatus {
  ingress: { ip: string; ipMode: 'VIP' }[];
}

/** Balancer is one provisioned load balancer. */
interface Balancer {
  name: string;
  host: number;
  /** hosts are the node names it sends traffic to. */
  hosts: string[];
}

/** InstanceMetadata is cloudprovider.InstanceMetadata for one node. */
export interface InstanceMetadata {
  providerID: string;
  instanceType: string;
  nodeAddresses: { type: 'InternalIP' | 'ExternalIP' | 'Hostname'; address: string }[];
  zone: string;
  region: string;
}

/**
 * A Wait is a blocking cloud call: a generator that yields the virtual time at which the call
 * returns (the caller's worker sleeps until then) and returns the call's result.
 */
export type Wait<T> = Generator<number, T, void>;

/** FakeCloud is the fake provider's state: its load balancers and their addresses. */
export class FakeCloud {
  private readonly sim: Simulation;
  private readonly rng: Rng;
  private readonly balancers = new Map<string, Balancer>();
  private readonly used = new Set<number>();

  constructor(sim: Simulation) {
    this.sim = sim;
    this.rng = sim.rng.fork('cloud');
  }

  /**
   * getLoadBalancerName mirrors cloudprovider.DefaultLoadBalancerName: "a" followed by the
   * Service's UID without dashes, cut to 32 characters.
   */
  getLoadBalancerName(service: Service): string {
    return `a${String(service.metadata.uid).replace(/-/g, '')}`.slice(0, 32);
  }

  /** getLoadBalancer says whether the Service's load balancer exists, and its status. */
  getLoadBalancer(
    caller: string,
    service: Service,
  ): { status?: LoadBalancerStatus; exists: boolean } {
    const b = this.balancers.get(this.getLoadBalancerName(service));
    this.call(caller, 'GetLoadBalancer', service, b ? statusOf(b).ingress[0].ip : 'not found');
    return b ? { status: statusOf(b), exists: true } : { exists: false };
  }

  /** ensureLoadBalancer creates the Service's load balancer, or updates the one it has. */
  *ensureLoadBalancer(
    caller: string,
    service: Service,
    nodes: readonly Node[],
  ): Wait<LoadBalancerStatus> {
    const name = this.getLoadBalancerName(service);
    let b = this.balancers.get(name);
    if (b) {
      yield this.sim.now() + LB_UPDATE_MS;
    } else {
      yield this.sim.now() + LB_CREATE_MS + this.rng.intn(LB_CREATE_JITTER_MS + 1);
      b = this.balancers.get(name);
      if (!b) {
        let host: number;
        try {
          host = this.allocate();
        } catch (e) {
          this.call(caller, 'EnsureLoadBalancer', service, (e as Error).message);
          throw e;
        }
        b = { name, host, hosts: [] };
        this.balancers.set(name, b);
      }
    }
    b.hosts = nodes.map((n) => n.metadata.name);
    const status = statusOf(b);
    this.call(caller, 'EnsureLoadBalancer', service, status.ingress[0].ip);
    return status;
  }

  /** updateLoadBalancer points the Service's load balancer at another set of nodes. */
  *updateLoadBalancer(caller: string, service: Service, nodes: readonly Node[]): Wait<void> {
    yield this.sim.now() + LB_UPDATE_MS;
    const b = this.balancers.get(this.getLoadBalancerName(service));
    this.call(caller, 'UpdateLoadBalancer', service, b ? `${nodes.length} hosts` : 'not found');
    if (!b) throw new CloudError(`load balancer ${this.getLoadBalancerName(service)} not found`);
    b.hosts = nodes.map((n) => n.metadata.name);
  }

  /** ensureLoadBalancerDeleted deletes the Service's load balancer and frees its address. */
  *ensureLoadBalancerDeleted(caller: string, service: Service): Wait<void> {
    const name = this.getLoadBalancerName(service);
    if (this.balancers.has(name)) {
      yield this.sim.now() + LB_DELETE_MS;
      const b = this.balancers.get(name);
      if (b) {
        this.balancers.delete(name);
        this.used.delete(b.host);
      }
    }
    this.call(caller, 'EnsureLoadBalancerDeleted', service);
  }

  /** exists says whether the Service has a load balancer, without a call (for tests and views). */
  exists(service: Service): boolean {
    return this.balancers.has(this.getLoadBalancerName(service));
  }

  /** hostsOf lists the nodes a Service's load balancer sends traffic to (for tests and views). */
  hostsOf(service: Service): string[] | undefined {
    return this.balancers.get(this.getLoadBalancerName(service))?.hosts.slice();
  }

  /** instanceMetadata is InstancesV2.InstanceMetadata: the machine behind a Node. */
  instanceMetadata(caller: string, node: Node): InstanceMetadata {
    const name = node.metadata.name;
    const internal = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
    const m = internal && /^10\.0\.(\d+)\.(\d+)$/.exec(internal);
    const nodeAddresses: InstanceMetadata['nodeAddresses'] = [];
    if (internal) nodeAddresses.push({ type: 'InternalIP', address: internal });
    if (m && m[1] === '0')
      nodeAddresses.push({ type: 'ExternalIP', address: `198.51.100.${m[2]}` });
    const providerID = `${ProviderName}://${name}`;
    this.call(caller, 'InstanceMetadata', node, providerID);
    return {
      providerID,
      instanceType: 'fake.standard',
      nodeAddresses,
      zone: 'fake-zone-a',
      region: 'fake-region',
    };
  }

  // call records one call to the cloud's API as it returns.
  private call(caller: string, method: string, obj: Service | Node, result?: string): void {
    if (!this.sim.records('call')) return;
    const ns = obj.metadata.namespace;
    const object = ns ? `${ns}/${obj.metadata.name}` : obj.metadata.name;
    this.sim.record({
      kind: 'call',
      from: caller,
      to: CLOUD,
      method,
      object,
      ...(result !== undefined ? { result } : {}),
    });
  }

  // allocate takes the lowest free host of the pool.
  private allocate(): number {
    for (let h = FIRST_HOST; h <= LAST_HOST; h++)
      if (!this.used.has(h)) {
        this.used.add(h);
        return h;
      }
    throw new CloudError(`no free address in ${LB_POOL}`);
  }
}

/** CloudError is a failed cloud call (the error EnsureLoadBalancer returns). */
export class CloudError extends Error {}

function statusOf(b: Balancer): LoadBalancerStatus {
  return { ingress: [{ ip: `203.0.113.${b.host}`, ipMode: 'VIP' }] };
}

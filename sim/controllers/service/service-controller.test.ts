import { describe, expect, it } from 'vitest';
import type { Event, Node, Service } from '../../api/types.ts';
import type { KubeAPIServer } from '../../apiserver/apiserver.ts';
import { Client } from '../../client/client.ts';
import { FakeCloud, LB_CREATE_JITTER_MS, LB_CREATE_MS } from '../../cloudprovider/fake.ts';
import type { Simulation } from '../../engine/simulation.ts';
import { frozenAPIServer } from '../../testing.ts';
import { LoadBalancerCleanupFinalizer, ServiceController } from './service-controller.ts';

// The controller's client, with every patch body it sends kept in order.
class RecordingClient extends Client {
  readonly patches: { resource: string; subresource?: string; patch: unknown }[] = [];
  override patch<T extends import('../../api/types.ts').AnyObject>(
    ...args: Parameters<Client['patch']>
  ): T {
    const [resource, , , patch, subresource] = args;
    this.patches.push({ resource, subresource, patch: JSON.parse(JSON.stringify(patch)) });
    return super.patch<T>(...args);
  }
}

function newNode(api: KubeAPIServer, name: string, labels: Record<string, string> = {}): void {
  api.create('test', 'nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: { providerID: `fake://${name}` },
    status: {},
  } as unknown as Node);
}

function setup(nodes = ['node-1', 'node-2']) {
  const { sim, api } = frozenAPIServer();
  api.createDefaultServiceCIDR();
  newNode(api, 'control-plane', { 'node.kubernetes.io/exclude-from-external-load-balancers': '' });
  for (const n of nodes) newNode(api, n);
  const cloud = new FakeCloud(sim);
  const client = new RecordingClient(api, ServiceController.NAME);
  const sc = new ServiceController(sim, client, cloud);
  sc.start();
  return { sim, api, cloud, client, sc };
}

function createService(api: KubeAPIServer, name: string, spec: Partial<Service['spec']> = {}) {
  return api.create<Service>('test', 'services', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' } as Service['metadata'],
    spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80 }], ...spec },
    status: {},
  });
}

const svc = (api: KubeAPIServer, name: string) =>
  api.peekAll<Service>('services').find((s) => s.metadata.name === name);

const reasons = (api: KubeAPIServer, name: string) =>
  api
    .peekAll<Event>('events')
    .filter((e) => e.involvedObject.kind === 'Service' && e.involvedObject.name === name)
    .sort((a, b) => (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? ''))
    .map((e) => `${e.type} ${e.reason} ${e.message}`);

const provisioned = (sim: Simulation) => sim.now() + LB_CREATE_MS + LB_CREATE_JITTER_MS;

describe('ServiceController', () => {
  it('adds the cleanup finalizer, then after provisioning patches the address into services/status', () => {
    const { sim, api, client } = setup();
    createService(api, 'web');
    sim.runUntil(100);
    // The finalizer is on before the cloud answers; the address is not.
    expect(svc(api, 'web')!.metadata.finalizers).toEqual([LoadBalancerCleanupFinalizer]);
    expect(svc(api, 'web')!.status.loadBalancer).toEqual({});
    expect(reasons(api, 'web')).toEqual(['Normal EnsuringLoadBalancer Ensuring load balancer']);
    sim.runUntil(LB_CREATE_MS - 1);
    expect(svc(api, 'web')!.status.loadBalancer).toEqual({});
    sim.runUntil(provisioned(sim));
    expect(svc(api, 'web')!.status.loadBalancer).toEqual({
      ingress: [{ ip: '203.0.113.10', ipMode: 'VIP' }],
    });
    expect(reasons(api, 'web')).toEqual([
      'Normal EnsuringLoadBalancer Ensuring load balancer',
      'Normal EnsuredLoadBalancer Ensured load balancer',
    ]);
    // Both writes are strategic merge patches of services/status, as PatchService sends them.
    expect(client.patches).toEqual([
      {
        resource: 'services',
        subresource: 'status',
        patch: { metadata: { finalizers: [LoadBalancerCleanupFinalizer] } },
      },
      {
        resource: 'services',
        subresource: 'status',
        patch: { status: { loadBalancer: { ingress: [{ ip: '203.0.113.10', ipMode: 'VIP' }] } } },
      },
    ]);
    // The cloud call is in the trace when it returns, 4 to 6 s after the Service was created.
    const calls = sim.trace.flatMap((e) =>
      e.kind === 'call'
        ? [{ t: e.t, call: `${e.from} ${e.to} ${e.method} ${e.object} ${e.result}` }]
        : [],
    );
    expect(calls.map((c) => c.call)).toEqual([
      'service-controller cloud EnsureLoadBalancer default/web 203.0.113.10',
    ]);
    expect(calls[0].t).toBeGreaterThanOrEqual(LB_CREATE_MS / 1000);
    expect(calls[0].t).toBeLessThanOrEqual((LB_CREATE_MS + LB_CREATE_JITTER_MS) / 1000);
    // In upstream's order: EnsuringLoadBalancer, the finalizer, EnsuredLoadBalancer, the status.
    const writes = sim.trace.filter(
      (e) =>
        e.kind === 'request' &&
        e.from === ServiceController.NAME &&
        e.verb !== 'list' &&
        e.verb !== 'watch',
    );
    expect(
      writes.map((e) => e.kind === 'request' && `${e.verb} ${e.resource} ${e.patchType} ${e.code}`),
    ).toEqual([
      'create events undefined 201',
      'patch services/status application/strategic-merge-patch+json 200',
      'create events undefined 201',
      'patch services/status application/strategic-merge-patch+json 200',
    ]);
  });

  it('ignores changes that do not concern the load balancer, and Services with a loadBalancerClass', () => {
    const { sim, api, client } = setup();
    createService(api, 'web');
    createService(api, 'other', { loadBalancerClass: 'example.com/lb' });
    sim.runUntil(provisioned(sim));
    const n = client.patches.length;
    const cur = svc(api, 'web')!;
    api.update('test', 'services', {
      ...cur,
      metadata: { ...cur.metadata, labels: { team: 'a' } },
    });
    sim.runUntil(sim.now() + 60_000);
    expect(client.patches.length).toBe(n);
    expect(reasons(api, 'web')).toHaveLength(2);
    expect(svc(api, 'other')!.metadata.finalizers).toBeUndefined();
    expect(reasons(api, 'other')).toEqual([]);
  });

  it('keeps the address and the object when it syncs an ensured Service again', () => {
    const { sim, api } = setup();
    createService(api, 'web');
    sim.runUntil(provisioned(sim));
    const cur = svc(api, 'web')!;
    // An annotation change is one the load balancer may care about: the Service is synced again.
    const changed = api.update<Service>('test', 'services', {
      ...cur,
      metadata: { ...cur.metadata, annotations: { note: 'x' } },
    });
    sim.runUntil(sim.now() + 10_000);
    // The repeated Events are counted on the first ones (the recorder's correlator).
    const counts = api
      .peekAll<Event>('events')
      .filter((e) => e.involvedObject.name === 'web')
      .map((e) => `${e.reason} ${e.count}`);
    expect(counts.sort()).toEqual(['EnsuredLoadBalancer 2', 'EnsuringLoadBalancer 2']);
    const after = svc(api, 'web')!;
    expect(after.metadata.resourceVersion).toBe(changed.metadata.resourceVersion);
    expect(after.status.loadBalancer?.ingress).toEqual([{ ip: '203.0.113.10', ipMode: 'VIP' }]);
  });

  it('deletes the load balancer of a deleted Service, removes the finalizer and frees the address', () => {
    const { sim, api, cloud } = setup();
    createService(api, 'web');
    sim.runUntil(provisioned(sim));
    createService(api, 'api');
    sim.runUntil(provisioned(sim));
    expect(svc(api, 'api')!.status.loadBalancer?.ingress?.[0].ip).toBe('203.0.113.11');
    const web = svc(api, 'web')!;
    api.delete('test', 'services', 'default', 'web');
    // The finalizer holds the Service while its load balancer is deleted.
    expect(svc(api, 'web')!.metadata.deletionTimestamp).toBeDefined();
    sim.runUntil(sim.now() + 10_000);
    expect(svc(api, 'web')).toBeUndefined();
    expect(cloud.exists(web)).toBe(false);
    expect(reasons(api, 'web').slice(2)).toEqual([
      'Normal DeletingLoadBalancer Deleting load balancer',
      'Normal DeletedLoadBalancer Deleted load balancer',
    ]);
    createService(api, 'again');
    sim.runUntil(provisioned(sim));
    expect(svc(api, 'again')!.status.loadBalancer?.ingress?.[0].ip).toBe('203.0.113.10');
  });

  it('releases the address when the type changes away from LoadBalancer', () => {
    const { sim, api, cloud, client } = setup();
    createService(api, 'web');
    sim.runUntil(provisioned(sim));
    const cur = svc(api, 'web')!;
    const spec = { ...cur.spec, type: 'ClusterIP' as const };
    delete spec.allocateLoadBalancerNodePorts;
    delete spec.externalTrafficPolicy;
    spec.ports = spec.ports!.map(({ nodePort: _n, ...p }) => p);
    api.update('test', 'services', { ...cur, spec });
    sim.runUntil(sim.now() + 10_000);
    const after = svc(api, 'web')!;
    expect(after.spec.type).toBe('ClusterIP');
    expect(after.metadata.finalizers).toBeUndefined();
    expect(after.status.loadBalancer).toEqual({});
    expect(cloud.exists(after)).toBe(false);
    expect(reasons(api, 'web').slice(2)).toEqual([
      'Normal DeletingLoadBalancer Deleting load balancer',
      'Normal DeletedLoadBalancer Deleted load balancer',
    ]);
    expect(client.patches.at(-1)).toEqual({
      resource: 'services',
      subresource: 'status',
      patch: { metadata: { finalizers: null } },
    });
  });

  it('records SyncLoadBalancerFailed and retries with back-off when the pool is used up', () => {
    const { sim, api } = setup();
    // 203.0.113.10 to .254: 245 addresses.
    for (let i = 0; i < 245; i++) createService(api, `s${i}`);
    createService(api, 'one-too-many');
    sim.runUntil(246 * (LB_CREATE_MS + LB_CREATE_JITTER_MS));
    expect(svc(api, 's244')!.status.loadBalancer?.ingress?.[0].ip).toBe('203.0.113.254');
    const failed = api
      .peekAll<Event>('events')
      .find(
        (e) => e.involvedObject.name === 'one-too-many' && e.reason === 'SyncLoadBalancerFailed',
      );
    expect(failed?.type).toBe('Warning');
    expect(failed?.message).toBe(
      'Error syncing load balancer: failed to ensure load balancer: no free address in 203.0.113.0/24',
    );
    expect(svc(api, 'one-too-many')!.status.loadBalancer).toEqual({});
    // Once an address is free, a retry (5 s doubling, up to 300 s) takes it.
    api.delete('test', 'services', 'default', 's0');
    sim.runUntil(sim.now() + 700_000);
    expect(svc(api, 'one-too-many')!.status.loadBalancer?.ingress?.[0].ip).toBe('203.0.113.10');
  });

  it('warns when no node can take traffic, and updates the hosts when a node joins', () => {
    const { sim, api, cloud } = setup([]);
    createService(api, 'web');
    sim.runUntil(provisioned(sim));
    expect(reasons(api, 'web')).toEqual([
      'Normal EnsuringLoadBalancer Ensuring load balancer',
      'Warning UnAvailableLoadBalancer There are no available nodes for LoadBalancer',
      'Normal EnsuredLoadBalancer Ensured load balancer',
    ]);
    expect(cloud.hostsOf(svc(api, 'web')!)).toEqual([]);
    newNode(api, 'node-1');
    sim.runUntil(sim.now() + 10_000);
    expect(cloud.hostsOf(svc(api, 'web')!)).toEqual(['node-1']);
    expect(reasons(api, 'web').at(-1)).toBe(
      'Normal UpdatedLoadBalancer Updated load balancer with new hosts',
    );
  });
});

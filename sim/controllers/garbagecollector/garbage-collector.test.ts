import { describe, expect, it } from 'vitest';
import { newControllerRef } from '../../api/podutil.ts';
import type { EndpointSlice, OwnerReference, Pod, ReplicaSet, Service } from '../../api/types.ts';
import { KubeAPIServer } from '../../apiserver/apiserver.ts';
import { Client } from '../../client/client.ts';
import { Simulation } from '../../engine/simulation.ts';
import type { RequestEntry } from '../../engine/trace.ts';
import { GarbageCollector, gcResources } from './garbage-collector.ts';
import { frozenAPIServer } from '../../testing.ts';

function setup() {
  const { sim, api } = frozenAPIServer();
  return { sim, api };
}

function startGC(sim: Simulation, api: KubeAPIServer): GarbageCollector {
  const gc = new GarbageCollector(sim, new Client(api, GarbageCollector.NAME));
  gc.start();
  return gc;
}

function createRS(api: KubeAPIServer, name: string): ReplicaSet {
  return api.create<ReplicaSet>('test', 'replicasets', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' } as ReplicaSet['metadata'],
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
    },
    status: { replicas: 0 },
  });
}

function createPod(
  api: KubeAPIServer,
  name: string,
  owners: OwnerReference[],
  nodeName?: string,
): Pod {
  return api.create<Pod>('test', 'pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels: { app: 'web' },
      ownerReferences: owners,
    } as unknown as Pod['metadata'],
    spec: { nodeName, containers: [{ name: 'web', image: 'nginx:1.27' }] },
    status: {},
  });
}

const pods = (api: KubeAPIServer) => api.peekAll<Pod>('pods');

describe('GarbageCollector', () => {
  it('monitors every resource discovery lists with delete, list and watch, but Events', () => {
    // GetDeletableResources over the discovery table, less DefaultIgnoredResources; events.k8s.io
    // Events are the core Events' storage, and componentstatuses cannot be deleted.
    expect(gcResources).toEqual([
      'configmaps',
      'namespaces',
      'nodes',
      'pods',
      'serviceaccounts',
      'services',
      'daemonsets',
      'deployments',
      'replicasets',
      'leases',
      'endpointslices',
      'gatewayclasses',
      'gateways',
      'httproutes',
      'ingressclasses',
      'ingresses',
      'ipaddresses',
      'networkpolicies',
      'servicecidrs',
      'poddisruptionbudgets',
    ]);
  });

  it('deletes the pods of a deleted ReplicaSet (background, uid precondition, graceful)', () => {
    const { sim, api } = setup();
    startGC(sim, api);
    const rs = createRS(api, 'web-7d4b9c');
    createPod(api, 'web-7d4b9c-aaaaa', [newControllerRef(rs)], 'node-1');
    createPod(api, 'web-7d4b9c-bbbbb', [newControllerRef(rs)]);
    sim.runUntil(1000);
    expect(pods(api)).toHaveLength(2);
    expect(
      sim.trace.filter(
        (e) => e.kind === 'request' && e.from === GarbageCollector.NAME && e.verb === 'delete',
      ),
    ).toEqual([]);
    api.delete('kubectl', 'replicasets', 'default', 'web-7d4b9c');
    sim.runUntil(2000);
    // The scheduled pod is terminating (30s grace); the unscheduled one is gone at once.
    const left = pods(api);
    expect(left.map((p) => p.metadata.name)).toEqual(['web-7d4b9c-aaaaa']);
    expect(left[0].metadata.deletionTimestamp).toBeDefined();
    const reqs = sim.trace.filter(
      (e) =>
        e.kind === 'request' &&
        e.from === GarbageCollector.NAME &&
        e.verb !== 'list' &&
        e.verb !== 'watch',
    );
    expect(
      reqs.map((e) => (e.kind === 'request' ? `${e.verb} ${e.resource} ${e.name} ${e.code}` : '')),
    ).toEqual([
      'get pods web-7d4b9c-aaaaa 200',
      'get replicasets web-7d4b9c 404',
      'delete pods web-7d4b9c-aaaaa 202',
      'get pods web-7d4b9c-bbbbb 200',
      'delete pods web-7d4b9c-bbbbb 200',
    ]);
  });

  it('collects dependents whose owner is already gone at start', () => {
    const { sim, api } = setup();
    const rs = createRS(api, 'web-1');
    createPod(api, 'orphan-of-gone', [newControllerRef(rs)]);
    api.delete('kubectl', 'replicasets', 'default', 'web-1');
    startGC(sim, api);
    sim.runUntil(1000);
    expect(pods(api)).toEqual([]);
  });

  it('removes only the dangling reference of an object that keeps another owner', () => {
    const { sim, api } = setup();
    startGC(sim, api);
    const a = createRS(api, 'a');
    const b = createRS(api, 'b');
    createPod(api, 'shared', [newControllerRef(a), { ...newControllerRef(b), controller: false }]);
    sim.runUntil(1000);
    api.delete('kubectl', 'replicasets', 'default', 'a');
    sim.runUntil(2000);
    const [p] = pods(api);
    expect(p.metadata.name).toBe('shared');
    expect(p.metadata.ownerReferences?.map((r) => r.name)).toEqual(['b']);
    // One strategic merge patch of the Pod, deleting the dangling reference by uid.
    const patches = sim.trace.filter(
      (e): e is RequestEntry =>
        e.kind === 'request' && e.from === 'garbage-collector' && e.verb === 'patch',
    );
    expect(patches.map((e) => [e.resource, e.name, e.patchType])).toEqual([
      ['pods', 'shared', 'application/strategic-merge-patch+json'],
    ]);
  });

  it('deletes the EndpointSlices of a deleted Service', () => {
    const { sim, api } = setup();
    startGC(sim, api);
    const svc = api.create<Service>('test', 'services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' } as Service['metadata'],
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
      status: {},
    });
    api.create<EndpointSlice>('test', 'endpointslices', {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'web-abcde',
        namespace: 'default',
        ownerReferences: [newControllerRef(svc)],
      } as EndpointSlice['metadata'],
      addressType: 'IPv4',
      endpoints: [],
      ports: null,
    });
    sim.runUntil(1000);
    api.delete('kubectl', 'services', 'default', 'web');
    sim.runUntil(2000);
    expect(api.peekAll('endpointslices')).toEqual([]);
  });

  it('leaves objects with living owners and without owners alone', () => {
    const { sim, api } = setup();
    startGC(sim, api);
    const rs = createRS(api, 'web');
    createPod(api, 'owned', [newControllerRef(rs)]);
    createPod(api, 'bare', []);
    sim.runUntil(60_000);
    expect(
      pods(api)
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['bare', 'owned']);
  });
});

import { describe, expect, it } from 'vitest';
import { deepClone } from '../../api/clone.ts';
import type { EndpointSlice, Node, Pod, Service } from '../../api/types.ts';
import { KubeAPIServer } from '../../apiserver/apiserver.ts';
import { Client } from '../../client/client.ts';
import { formatTime } from '../../engine/clock.ts';
import {
  controllerQualifiedName,
  EndpointSliceController,
  LabelManagedBy,
  LabelServiceName,
} from './endpointslice-controller.ts';
import { frozenAPIServer } from '../../testing.ts';

function setup(maxEndpointsPerSlice?: number) {
  const { sim, api } = frozenAPIServer({
    sim: { settings: maxEndpointsPerSlice ? { maxEndpointsPerSlice } : {} },
  });
  for (const name of ['node-1', 'node-2'])
    api.create('test', 'nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'topology.kubernetes.io/zone': 'zone-a' } },
      spec: {},
      status: {},
    } as unknown as Node);
  const ec = new EndpointSliceController(sim, new Client(api, EndpointSliceController.NAME));
  ec.start();
  return { sim, api, ec };
}

function createService(
  api: KubeAPIServer,
  name = 'web',
  selector: Record<string, string> | null = { app: 'web' },
): Service {
  return api.create<Service>('test', 'services', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      namespace: 'default',
      labels: { team: 'a' },
    } as unknown as Service['metadata'],
    spec: { selector: selector ?? undefined, ports: [{ port: 80, targetPort: 'http' }] },
    status: {},
  });
}

let ip = 1;
function createPod(
  api: KubeAPIServer,
  name: string,
  opts: { ready?: boolean; ip?: boolean; labels?: Record<string, string>; node?: string } = {},
): Pod {
  const ready = opts.ready ?? true;
  return api.create<Pod>('test', 'pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels: opts.labels ?? { app: 'web' },
    } as Pod['metadata'],
    spec: {
      nodeName: opts.node ?? 'node-1',
      containers: [
        { name: 'web', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 8080 }] },
      ],
    },
    status:
      opts.ip === false
        ? { phase: 'Pending' }
        : {
            phase: 'Running',
            podIP: `10.244.${Math.floor(ip / 250)}.${(ip % 250) + 1}`,
            podIPs: [{ ip: `10.244.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}` }],
            conditions: [
              {
                type: 'Ready',
                status: ready ? 'True' : 'False',
                lastTransitionTime: formatTime(0),
              },
            ],
          },
  });
}

const slices = (api: KubeAPIServer, svc = 'web') =>
  api
    .peekAll<EndpointSlice>('endpointslices')
    .filter((s) => s.metadata.labels?.[LabelServiceName] === svc);
const byPod = (s: EndpointSlice) =>
  Object.fromEntries(s.endpoints.map((e) => [e.targetRef!.name!, e]));

describe('EndpointSliceController', () => {
  it('lists the selected pods that have an IP, with conditions, ports, labels and owner', () => {
    const { sim, api } = setup();
    const svc = createService(api);
    const a = createPod(api, 'web-a');
    createPod(api, 'web-b', { ready: false });
    createPod(api, 'web-c', { ip: false });
    createPod(api, 'other', { labels: { app: 'other' } });
    sim.runUntil(1000);
    const all = slices(api);
    expect(all).toHaveLength(1);
    const s = all[0];
    expect(s.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(s.metadata.generateName).toBe('web-');
    expect(s.metadata.labels).toEqual({
      team: 'a',
      [LabelServiceName]: 'web',
      [LabelManagedBy]: controllerQualifiedName,
    });
    expect(s.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Service',
        name: 'web',
        uid: svc.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(s.addressType).toBe('IPv4');
    expect(s.ports).toEqual([{ name: '', protocol: 'TCP', port: 8080 }]);
    const eps = byPod(s);
    expect(Object.keys(eps).sort()).toEqual(['web-a', 'web-b']);
    expect(eps['web-a']).toEqual({
      addresses: [a.status.podIP],
      conditions: { ready: true, serving: true, terminating: false },
      targetRef: { kind: 'Pod', namespace: 'default', name: 'web-a', uid: a.metadata.uid },
      nodeName: 'node-1',
      zone: 'zone-a',
    });
    expect(eps['web-b'].conditions).toEqual({ ready: false, serving: false, terminating: false });
    expect(s.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toBe(
      formatTime(0),
    );
  });

  it('marks a terminating pod terminating and serving but not ready', () => {
    const { sim, api } = setup();
    createService(api);
    createPod(api, 'web-a');
    sim.runUntil(1000);
    api.delete('kubectl', 'pods', 'default', 'web-a');
    sim.runUntil(2000);
    expect(byPod(slices(api)[0])['web-a'].conditions).toEqual({
      ready: false,
      serving: true,
      terminating: true,
    });
  });

  it('splits more than maxEndpointsPerSlice endpoints into several slices', () => {
    const { sim, api } = setup();
    createService(api);
    for (let i = 0; i < 150; i++) createPod(api, `web-${String(i).padStart(3, '0')}`);
    sim.runUntil(5000);
    const sizes = slices(api)
      .map((s) => s.endpoints.length)
      .sort((x, y) => y - x);
    expect(sizes).toEqual([100, 50]);
    const writes = sim.trace.filter(
      (e) =>
        e.kind === 'request' &&
        e.from === EndpointSliceController.NAME &&
        e.verb !== 'list' &&
        e.verb !== 'watch',
    );
    expect(writes.map((e) => (e.kind === 'request' ? e.verb : ''))).toEqual(['create', 'create']);
  });

  it('keeps a placeholder slice for a Service with no endpoints, and reuses it', () => {
    const { sim, api } = setup();
    createService(api);
    sim.runUntil(1000);
    const [placeholder] = slices(api);
    expect(placeholder.endpoints).toEqual([]);
    expect(placeholder.ports).toBeNull();
    createPod(api, 'web-a');
    sim.runUntil(2000);
    const after = slices(api);
    expect(after).toHaveLength(1);
    expect(after[0].metadata.name).toBe(placeholder.metadata.name);
    expect(after[0].endpoints).toHaveLength(1);
  });

  it('writes nothing when nothing changed (level-triggered)', () => {
    const { sim, api, ec } = setup();
    createService(api);
    createPod(api, 'web-a');
    sim.runUntil(2000);
    const before = sim.trace.length;
    expect([...ec.syncService('default/web')]).toEqual([]); // no token to wait for
    const p = deepClone(api.get<Pod>('test', 'pods', 'default', 'web-a'));
    p.status.containerStatuses = [];
    api.update('kubelet@node-1', 'pods', p, 'status');
    sim.runUntil(10_000);
    const writes = sim.trace
      .slice(before)
      .filter((e) => e.kind === 'request' && e.from === EndpointSliceController.NAME);
    expect(writes).toEqual([]);
  });

  it('moves an endpoint to not ready when the pod loses readiness, and drops deleted pods', () => {
    const { sim, api } = setup();
    createService(api);
    createPod(api, 'web-a');
    createPod(api, 'web-b');
    sim.runUntil(1000);
    const p = deepClone(api.get<Pod>('test', 'pods', 'default', 'web-a'));
    p.status.conditions = [
      { type: 'Ready', status: 'False', lastTransitionTime: formatTime(1000) },
    ];
    api.update('node-lifecycle-controller', 'pods', p, 'status');
    sim.runUntil(2000);
    expect(byPod(slices(api)[0])['web-a'].conditions.ready).toBe(false);
    api.delete('kubectl', 'pods', 'default', 'web-b', { gracePeriodSeconds: 0 });
    sim.runUntil(3000);
    expect(Object.keys(byPod(slices(api)[0]))).toEqual(['web-a']);
  });

  it('manages no slices for a Service without a selector', () => {
    const { sim, api } = setup();
    createService(api, 'external', null);
    createPod(api, 'web-a');
    sim.runUntil(1000);
    expect(slices(api, 'external')).toEqual([]);
  });

  it('follows a pod whose labels change in and out of the selector', () => {
    const { sim, api } = setup();
    createService(api);
    createPod(api, 'web-a');
    sim.runUntil(1000);
    const p = deepClone(api.get<Pod>('test', 'pods', 'default', 'web-a'));
    p.metadata.labels = { app: 'debug' };
    api.update('kubectl', 'pods', p);
    sim.runUntil(2000);
    expect(slices(api)[0].endpoints).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Event, Node } from '../../api/types.ts';
import { Client } from '../../client/client.ts';
import { FakeCloud } from '../../cloudprovider/fake.ts';
import { frozenAPIServer } from '../../testing.ts';
import { CloudNodeController, TaintExternalCloudProvider } from './node-controller.ts';

function setup() {
  const { sim, api } = frozenAPIServer();
  api.create('kubelet@node-1', 'nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } },
    spec: {
      taints: [
        { key: 'example.com/dedicated', value: 'db', effect: 'NoSchedule' },
        { key: TaintExternalCloudProvider, value: 'true', effect: 'NoSchedule' },
      ],
    },
    status: {
      addresses: [
        { type: 'InternalIP', address: '10.0.0.11' },
        { type: 'Hostname', address: 'node-1' },
      ],
    },
  } as unknown as Node);
  const cloud = new FakeCloud(sim);
  const c = new CloudNodeController(sim, new Client(api, CloudNodeController.NAME), cloud);
  c.start();
  const node = () => api.peekAll<Node>('nodes')[0];
  return { sim, api, node };
}

describe('CloudNodeController', () => {
  it('initializes a tainted node: providerID, labels, the taint removed, the cloud addresses', () => {
    const { sim, api, node } = setup();
    sim.runUntil(1000);
    const n = node();
    expect(n.spec.providerID).toBe('fake://node-1');
    // The other taints stay (node.kubernetes.io/not-ready is TaintNodesByCondition's, at create).
    expect(n.spec.taints?.map((t) => t.key)).toEqual([
      'example.com/dedicated',
      'node.kubernetes.io/not-ready',
    ]);
    expect(n.metadata.labels).toMatchObject({
      'node.kubernetes.io/instance-type': 'fake.standard',
      'topology.kubernetes.io/zone': 'fake-zone-a',
      'topology.kubernetes.io/region': 'fake-region',
    });
    expect(n.status.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.11' },
      { type: 'ExternalIP', address: '198.51.100.11' },
      { type: 'Hostname', address: 'node-1' },
    ]);
    const events = api
      .peekAll<Event>('events')
      .map((e) => `${e.involvedObject.kind}/${e.involvedObject.name} ${e.reason} ${e.message}`);
    expect(events).toEqual(['Node/node-1 Synced Node synced successfully']);
    // One update of the Node (spec and labels), then a strategic merge patch of nodes/status.
    const writes = sim.trace.flatMap((e) =>
      e.kind === 'request' && e.from === CloudNodeController.NAME && e.resource !== 'events'
        ? e.verb === 'list' || e.verb === 'watch'
          ? []
          : [`${e.verb} ${e.resource} ${e.patchType ?? ''}`.trim()]
        : [],
    );
    expect(writes).toEqual([
      'update nodes',
      'patch nodes/status application/strategic-merge-patch+json',
    ]);
  });

  it('leaves an initialized node alone', () => {
    const { sim, node } = setup();
    sim.runUntil(1000);
    const rv = node().metadata.resourceVersion;
    sim.runUntil(20 * 60_000);
    expect(node().metadata.resourceVersion).toBe(rv);
  });
});

import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types.ts';
import { frozenAPIServer } from '../testing.ts';
import { Client } from './client.ts';
import { Informer, SharedInformerFactory } from './informer.ts';

function setup() {
  const { sim, api } = frozenAPIServer();
  const pod = (name: string): Pod =>
    ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] }, status: {} }) as unknown as Pod;
  return { sim, api, pod };
}

describe('Informer', () => {
  it('lists, then follows the watch, keeping its cache and calling handlers', () => {
    const { sim, api, pod } = setup();
    api.create('test', 'pods', pod('a'));
    const inf = new Informer<Pod>(new Client(api, 'replicaset-controller'), 'pods');
    const seen: string[] = [];
    inf.addEventHandler({
      onAdd: (p) => seen.push(`add ${p.metadata.name}`),
      onUpdate: (_o, n) => seen.push(`update ${n.metadata.name}`),
      onDelete: (p) => seen.push(`delete ${p.metadata.name}`),
    });
    inf.start();
    expect(inf.hasSynced).toBe(true);
    api.create('test', 'pods', pod('b'));
    api.patch('test', 'pods', 'default', 'a', { metadata: { labels: { x: '1' } } });
    api.delete('test', 'pods', 'default', 'b');
    sim.runUntil(100);
    expect(seen).toEqual(['add a', 'add b', 'update a', 'delete b']);
    expect(inf.list().map((p) => p.metadata.name)).toEqual(['a']);
    expect(inf.get('default', 'a')?.metadata.labels).toEqual({ x: '1' });
  });
  it('relists after a partition heals and reports what changed meanwhile', () => {
    const { sim, api, pod } = setup();
    api.create('test', 'pods', pod('a'));
    const inf = new Informer<Pod>(new Client(api, 'kubelet@node-1'), 'pods');
    const seen: string[] = [];
    inf.addEventHandler({ onAdd: (p) => seen.push(`add ${p.metadata.name}`), onDelete: (p) => seen.push(`delete ${p.metadata.name}`) });
    inf.start();
    api.unreachable.add('node-1');
    api.breakWatches();
    api.delete('test', 'pods', 'default', 'a');
    api.create('test', 'pods', pod('c'));
    sim.runUntil(5_000);
    expect(seen).toEqual(['add a']);
    api.unreachable.delete('node-1');
    sim.runUntil(60_000);
    expect(seen).toEqual(['add a', 'add c', 'delete a']);
  });
  it('maintains indexes', () => {
    const { sim, api, pod } = setup();
    const inf = new Informer<Pod>(new Client(api, 'x'), 'pods').addIndexer('node', (p) => [p.spec.nodeName ?? '']);
    inf.start();
    api.create('test', 'pods', pod('a'));
    sim.runUntil(10);
    expect(inf.byIndex('node', '').map((p) => p.metadata.name)).toEqual(['a']);
    api.bind('s', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'a', namespace: 'default' }, target: { kind: 'Node', name: 'n1' } });
    sim.runUntil(20);
    expect(inf.byIndex('node', '')).toEqual([]);
    expect(inf.byIndex('node', 'n1').map((p) => p.metadata.name)).toEqual(['a']);
  });
});

describe('SharedInformerFactory', () => {
  it('gives every controller the same informer: one list and watch, each delivery traced to each reader', () => {
    const { sim, api, pod } = setup();
    const factory = new SharedInformerFactory(new Client(api, 'kube-controller-manager'));
    const a = factory.informerFor<Pod>('pods', 'replicaset-controller');
    const b = factory.informerFor<Pod>('pods', 'endpointslice-controller');
    expect(a).toBe(b);
    const causes: Record<string, number> = {};
    a.addEventHandler({ onAdd: () => (causes.rs = sim.cause) }, 'replicaset-controller');
    b.addEventHandler({ onAdd: () => (causes.es = sim.cause) }, 'endpointslice-controller');
    a.start();
    b.start(); // already started: no second list or watch
    const calls = sim.trace.filter((e) => e.kind === 'request' && e.resource === 'pods');
    expect(calls.map((e) => [e.from, e.kind === 'request' && e.verb])).toEqual([
      ['kube-controller-manager', 'list'],
      ['kube-controller-manager', 'watch'],
    ]);
    api.create('test', 'pods', pod('a'));
    sim.runUntil(100);
    const watches = sim.trace.filter((e) => e.kind === 'watch');
    expect(watches.map((e) => e.to)).toEqual(['replicaset-controller', 'endpointslice-controller']);
    // Each controller's handler runs caused by its own delivery; both deliveries have the write's cause.
    expect([causes.rs, causes.es]).toEqual(watches.map((e) => e.seq));
    expect(watches[0].cause).toBe(watches[1].cause);
  });
  it('refuses a second indexer under a taken name with another function, and keeps the same one', () => {
    const { api } = setup();
    const factory = new SharedInformerFactory(new Client(api, 'kube-controller-manager'));
    const byNode = (p: Pod) => [p.spec.nodeName ?? ''];
    const inf = factory.informerFor<Pod>('pods', 'x').addIndexer('node', byNode);
    expect(() => inf.addIndexer('node', byNode)).not.toThrow();
    expect(() => inf.addIndexer('node', (p) => [p.metadata.name])).toThrow(/indexer conflict: node on the shared pods informer/);
  });
  it('restart relists and tells only the restarting reader about every object again', () => {
    const { sim, api, pod } = setup();
    const factory = new SharedInformerFactory(new Client(api, 'kube-controller-manager'));
    const inf = factory.informerFor<Pod>('pods', 'a');
    factory.informerFor<Pod>('pods', 'b');
    const seen: string[] = [];
    inf.addEventHandler({ onAdd: (p) => seen.push(`a add ${p.metadata.name}`) }, 'a');
    inf.addEventHandler({ onAdd: (p) => seen.push(`b add ${p.metadata.name}`) }, 'b');
    api.create('test', 'pods', pod('p'));
    inf.start();
    sim.runUntil(100);
    inf.restart('a');
    expect(seen).toEqual(['a add p', 'b add p', 'a add p']);
    expect(inf.hasSynced).toBe(true);
  });
});


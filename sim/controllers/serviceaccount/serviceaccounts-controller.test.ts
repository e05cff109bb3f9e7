import { describe, expect, it } from 'vitest';
import type { Namespace, ServiceAccount } from '../../api/types.ts';
import { KubeAPIServer } from '../../apiserver/apiserver.ts';
import { Client } from '../../client/client.ts';
import { ServiceAccountsController } from './serviceaccounts-controller.ts';
import { frozenAPIServer } from '../../testing.ts';

function setup(namespaces: string[]) {
  const { sim, api } = frozenAPIServer({ namespaces });
  const c = new ServiceAccountsController(sim, new Client(api, ServiceAccountsController.NAME));
  c.start();
  return { sim, api };
}

const names = (api: KubeAPIServer) =>
  api
    .peekAll<ServiceAccount>('serviceaccounts')
    .map((sa) => `${sa.metadata.namespace}/${sa.metadata.name}`);

describe('ServiceAccountsController', () => {
  it('creates the default ServiceAccount in every namespace it finds at start', () => {
    const { sim, api } = setup(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    sim.runUntil(1000);
    expect(names(api)).toEqual([
      'default/default',
      'kube-node-lease/default',
      'kube-public/default',
      'kube-system/default',
    ]);
  });

  it('creates it in a namespace made later, and recreates it when deleted; a second sync changes nothing', () => {
    const { sim, api } = setup(['default']);
    sim.runUntil(1000);
    api.create('kubectl', 'namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a' },
    } as Namespace);
    sim.runUntil(2000);
    expect(names(api)).toContain('team-a/default');
    const before = api.get<ServiceAccount>('test', 'serviceaccounts', 'team-a', 'default').metadata
      .uid;
    api.delete('kubectl', 'serviceaccounts', 'team-a', 'default');
    expect(names(api)).not.toContain('team-a/default');
    sim.runUntil(3000);
    const after = api.get<ServiceAccount>('test', 'serviceaccounts', 'team-a', 'default');
    expect(after.metadata.uid).not.toBe(before);
    const creates = () =>
      sim.trace.filter(
        (e) => e.kind === 'request' && e.verb === 'create' && e.resource === 'serviceaccounts',
      ).length;
    const n = creates();
    sim.runUntil(10_000);
    expect(creates()).toBe(n);
  });

  it('writes as serviceaccount-controller, with a create of the ServiceAccount', () => {
    const { sim, api } = setup(['default']);
    sim.runUntil(1000);
    api.create('kubectl', 'namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'web' },
    } as Namespace);
    sim.runUntil(2000);
    const req = sim.trace.find(
      (e) => e.kind === 'request' && e.resource === 'serviceaccounts' && e.namespace === 'web',
    );
    expect(req).toMatchObject({
      from: 'serviceaccount-controller',
      verb: 'create',
      name: 'default',
      code: 201,
    });
  });
});

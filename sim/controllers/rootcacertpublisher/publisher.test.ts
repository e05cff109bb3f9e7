import { describe, expect, it } from 'vitest';
import type { ConfigMap } from '../../api/types.ts';
import { Client } from '../../client/client.ts';
import { Description, Publisher, rootCA } from './publisher.ts';
import { frozenAPIServer } from '../../testing.ts';

function setup(namespaces: string[]) {
  const { sim, api } = frozenAPIServer({ namespaces });
  new Publisher(sim, new Client(api, Publisher.NAME)).start();
  return { sim, api };
}

describe('root CA publisher', () => {
  it('creates kube-root-ca.crt with the CA bundle and its description in every namespace', () => {
    const { sim, api } = setup(['default', 'kube-system']);
    sim.runUntil(1000);
    const cms = api.peekAll<ConfigMap>('configmaps');
    expect(cms.map((c) => `${c.metadata.namespace}/${c.metadata.name}`)).toEqual([
      'default/kube-root-ca.crt',
      'kube-system/kube-root-ca.crt',
    ]);
    expect(cms[0].data).toEqual({ 'ca.crt': rootCA });
    expect(cms[0].metadata.annotations).toEqual({ 'kubernetes.io/description': Description });
  });

  it('puts back the data someone changed, and the ConfigMap someone deleted', () => {
    const { sim, api } = setup(['default']);
    sim.runUntil(1000);
    const cm = api.get<ConfigMap>('test', 'configmaps', 'default', 'kube-root-ca.crt');
    api.update('kubectl', 'configmaps', { ...cm, data: { 'ca.crt': 'x', extra: 'y' } });
    sim.runUntil(2000);
    expect(api.get<ConfigMap>('test', 'configmaps', 'default', 'kube-root-ca.crt').data).toEqual({
      'ca.crt': rootCA,
    });
    api.delete('kubectl', 'configmaps', 'default', 'kube-root-ca.crt');
    sim.runUntil(3000);
    expect(api.get<ConfigMap>('test', 'configmaps', 'default', 'kube-root-ca.crt').data).toEqual({
      'ca.crt': rootCA,
    });
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import type { AnyObject, Pod } from '../api/types.ts';
import { Simulation } from '../engine/simulation.ts';
import { EtcdStore } from '../etcd/store.ts';
import { newEvent, newNode, newPod } from '../kubectl/testing.ts';
import { KubeAPIServer, type WatchEventType } from './apiserver.ts';
import {
  convertFieldLabel,
  listFieldSelector,
  oneTermEqualSelector,
  parseFieldSelector,
  selectableField,
  unescapeValue,
} from './fields.ts';

describe('parseFieldSelector (fields.ParseSelector)', () => {
  it('parses =, == and != terms, sorted, skipping empty ones', () => {
    const s = parseFieldSelector('status.phase!=Running,,metadata.name==a,spec.nodeName=node-1');
    expect(s.requirements).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a' },
      { field: 'spec.nodeName', operator: '=', value: 'node-1' },
      { field: 'status.phase', operator: '!=', value: 'Running' },
    ]);
    expect(s.toString()).toBe('metadata.name=a,spec.nodeName=node-1,status.phase!=Running');
    expect(s.requiresExactMatch('spec.nodeName')).toBe('node-1');
    expect(s.requiresExactMatch('status.phase')).toBeUndefined();
    expect(parseFieldSelector('').empty()).toBe(true);
    expect(parseFieldSelector('a=').requirements).toEqual([
      { field: 'a', operator: '=', value: '' },
    ]);
  });

  it('unescapes \\, \\= and \\\\ in values, and splits only at unescaped commas', () => {
    expect(parseFieldSelector('metadata.name=a\\,b\\=c\\\\d').requirements).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a,b=c\\d' },
    ]);
    expect(unescapeValue('plain')).toBe('plain');
  });

  it("fails with apimachinery's messages", () => {
    expect(() => parseFieldSelector('status.phase')).toThrow(
      "invalid selector: 'status.phase'; can't understand 'status.phase'",
    );
    expect(() => parseFieldSelector('a=b,c')).toThrow(
      "invalid selector: 'a=b,c'; can't understand 'c'",
    );
    // Go's %v prints a rune as its number.
    expect(() => parseFieldSelector('status.phase=a=b')).toThrow(
      'invalid field selector: unescaped character in value: 61',
    );
    expect(() => parseFieldSelector('a=b\\x')).toThrow(
      'invalid field selector: invalid escape sequence: \\x',
    );
    expect(() => parseFieldSelector('a=b\\')).toThrow(
      'invalid field selector: invalid escape sequence: \\',
    );
  });

  it('matches against a getter, an absent field reading as ""', () => {
    const s = parseFieldSelector('a=1,b!=2');
    expect(s.matches((f) => ({ a: '1', b: '3' })[f] ?? '')).toBe(true);
    expect(s.matches((f) => ({ a: '1', b: '2' })[f] ?? '')).toBe(false);
    expect(oneTermEqualSelector('c', '').matches(() => '')).toBe(true);
  });
});

describe('convertFieldLabel (Scheme.ConvertFieldLabel)', () => {
  it("accepts each kind's labels and words refusals as upstream does", () => {
    expect(convertFieldLabel('pods', 'status.podIPs', 'x')).toEqual({
      field: 'status.podIPs',
      value: 'x',
    });
    expect(convertFieldLabel('pods', 'spec.host', 'n')).toEqual({
      field: 'spec.nodeName',
      value: 'n',
    });
    expect(() => convertFieldLabel('pods', 'status.hostIP', 'x')).toThrow(
      'field label not supported: status.hostIP',
    );
    expect(() => convertFieldLabel('nodes', 'metadata.namespace', 'x')).toThrow(
      'field label not supported: metadata.namespace',
    );
    expect(convertFieldLabel('nodes', 'spec.unschedulable', 'true').field).toBe(
      'spec.unschedulable',
    );
    expect(convertFieldLabel('events', 'reportingComponent', 'x').field).toBe('reportingComponent');
    expect(convertFieldLabel('namespaces', 'status.phase', 'Active').field).toBe('status.phase');
    expect(convertFieldLabel('services', 'spec.type', 'NodePort').field).toBe('spec.type');
    expect(() => convertFieldLabel('replicasets', 'status.replicas', '0')).toThrow(
      '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    expect(convertFieldLabel('deployments', 'metadata.namespace', 'x').field).toBe(
      'metadata.namespace',
    );
  });

  it('listFieldSelector converts every term, reporting the first refusal in sorted order', () => {
    expect(() => listFieldSelector('pods', 'zzz=1,foo=bar')).toThrow(
      'field label not supported: foo',
    );
    expect(listFieldSelector('pods', 'spec.host=n').toString()).toBe('spec.nodeName=n');
  });
});

describe('selectableField (ToSelectableFields)', () => {
  it('reads Pod fields as the pod strategy sets them', () => {
    const p = newPod('a', { node: 'node-1', ip: '10.244.1.5' });
    expect(selectableField('pods', p, 'spec.nodeName')).toBe('node-1');
    expect(selectableField('pods', p, 'status.phase')).toBe('Running');
    expect(selectableField('pods', p, 'status.podIP')).toBe(p.status.podIPs?.[0]?.ip ?? '');
    expect(selectableField('pods', p, 'spec.hostNetwork')).toBe('false');
    // status.podIPs converts but is not in the set: it reads as "".
    expect(selectableField('pods', p, 'status.podIPs')).toBe('');
    expect(selectableField('pods', p, 'metadata.namespace')).toBe('default');
  });

  it('reads Event, Node and cluster-scoped metadata fields', () => {
    const e = newEvent({ kind: 'Pod', name: 'a' }, 'Warning', 'BackOff', 'm', 'kubelet', 0);
    expect(selectableField('events', e, 'involvedObject.kind')).toBe('Pod');
    expect(selectableField('events', e, 'source')).toBe('kubelet');
    expect(selectableField('events', { ...e, source: { component: '' } }, 'source')).toBe(
      'kubelet',
    );
    expect(selectableField('events', e, 'type')).toBe('Warning');
    const n = newNode('node-1');
    expect(selectableField('nodes', n, 'spec.unschedulable')).toBe('false');
    expect(
      selectableField('nodes', { ...n, spec: { unschedulable: true } }, 'spec.unschedulable'),
    ).toBe('true');
    expect(selectableField('nodes', n, 'metadata.namespace')).toBe('');
  });
});

describe('kube-apiserver list and watch with a field selector', () => {
  let sim: Simulation;
  let api: KubeAPIServer;
  beforeEach(() => {
    sim = new Simulation({ seed: 1 });
    api = new KubeAPIServer(sim, new EtcdStore());
    api.create('test', 'namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'default' },
      spec: {},
      status: { phase: 'Active' },
    } as unknown as AnyObject);
  });

  function seedPod(p: Pod): void {
    const created = api.create('test', 'pods', JSON.parse(JSON.stringify(p)) as Pod);
    api.update('test', 'pods', { ...created, status: p.status }, 'status');
  }

  it('filters a list by the text of a fieldSelector parameter', () => {
    seedPod(newPod('a', { node: 'node-1' }));
    seedPod(newPod('b', { node: 'node-2' }));
    seedPod(newPod('c', { phase: 'Pending' }));
    const names = (fs: string) =>
      api.list<Pod>('kubectl', 'pods', { fieldSelector: fs }).items.map((p) => p.metadata.name);
    expect(names('spec.nodeName=node-1')).toEqual(['a']);
    expect(names('spec.nodeName!=node-1')).toEqual(['b', 'c']);
    expect(names('spec.nodeName=')).toEqual(['c']);
    expect(names('status.phase=Running,metadata.name!=a')).toEqual(['b']);
    expect(names('metadata.namespace=kube-system')).toEqual([]);
  });

  it('answers 400 BadRequest for a selector it cannot parse or convert', () => {
    expect(() => api.list('kubectl', 'pods', { fieldSelector: 'foo=bar' })).toThrow(
      expect.objectContaining({
        status: expect.objectContaining({
          code: 400,
          reason: 'BadRequest',
          message: 'field label not supported: foo',
        }),
      }),
    );
    expect(() => api.list('kubectl', 'deployments', { fieldSelector: 'x' })).toThrow(
      expect.objectContaining({
        status: expect.objectContaining({
          code: 400,
          message: "invalid selector: 'x'; can't understand 'x'",
        }),
      }),
    );
  });

  it('delivers watch events that enter and leave a parsed selector', () => {
    const seen: [WatchEventType, string][] = [];
    api.watch(
      'kubectl',
      'pods',
      { fieldSelector: 'status.phase=Running' },
      (t, o) => seen.push([t, o.metadata.name]),
      () => {},
    );
    seedPod(newPod('a', { phase: 'Pending' }));
    sim.runUntil(1000);
    const cur = api.get<Pod>('test', 'pods', 'default', 'a');
    api.update('test', 'pods', { ...cur, status: { ...cur.status, phase: 'Running' } }, 'status');
    sim.runUntil(2000);
    const now = api.get<Pod>('test', 'pods', 'default', 'a');
    api.update('test', 'pods', { ...now, status: { ...now.status, phase: 'Failed' } }, 'status');
    sim.runUntil(3000);
    expect(seen).toEqual([
      ['ADDED', 'a'],
      ['DELETED', 'a'],
    ]);
  });

  it('indexes a pod watch requiring spec.nodeName by node, as a set does', () => {
    const seen: [WatchEventType, string][] = [];
    api.watch(
      'kubectl',
      'pods',
      { fieldSelector: 'spec.nodeName=node-1' },
      (t, o) => seen.push([t, o.metadata.name]),
      () => {},
    );
    seedPod(newPod('a', { node: 'node-1' }));
    seedPod(newPod('b', { node: 'node-2' }));
    sim.runUntil(1000);
    // The create, then the status update; nothing of node-2's Pod.
    expect(seen).toEqual([
      ['ADDED', 'a'],
      ['MODIFIED', 'a'],
    ]);
  });
});

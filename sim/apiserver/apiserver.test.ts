import { describe, expect, it } from 'vitest';
import type { Deployment, Event, Namespace, Pod, Service, ServiceAccount } from '../api/types.ts';
import type { Simulation } from '../engine/simulation.ts';
import { frozenAPIServer } from '../testing.ts';
import type { KubeAPIServer } from './apiserver.ts';
import { StatusError } from './errors.ts';

function newServer(): { sim: Simulation; api: KubeAPIServer } {
  return frozenAPIServer({ namespaces: ['default', 'kube-system'] });
}

function newPod(name: string, extra: Partial<Pod['spec']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' } as Pod['metadata'],
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }], ...extra },
    status: {},
  };
}

function caught(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a StatusError');
}

describe('KubeAPIServer create', () => {
  it('assigns uid, resourceVersion, creationTimestamp and upstream defaults', () => {
    const { api } = newServer();
    const p = api.create('test', 'pods', newPod('a'));
    expect(p.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(p.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(p.spec).toMatchObject({ restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' });
    expect(p.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(p.status).toMatchObject({ phase: 'Pending', qosClass: 'BestEffort' });
  });
  it('makes a new Namespace Active with the kubernetes finalizer and its metadata.name label', () => {
    const { api } = newServer();
    const ns = api.create('test', 'namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } as Namespace);
    expect(ns.status).toEqual({ phase: 'Active' });
    expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
  });
  it('adds the DefaultTolerationSeconds tolerations unless already tolerated', () => {
    const { api } = newServer();
    const p = api.create('test', 'pods', newPod('a'));
    expect(p.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    const q = api.create('test', 'pods', newPod('b', { tolerations: [{ operator: 'Exists' }] }));
    expect(q.spec.tolerations).toEqual([{ operator: 'Exists' }]);
  });
  it('generates names from generateName with 5 characters of the apimachinery alphabet', () => {
    const { api } = newServer();
    const p = api.create('test', 'pods', { ...newPod(''), metadata: { generateName: 'web-7d4b9c-', namespace: 'default' } as Pod['metadata'] });
    expect(p.metadata.name).toMatch(/^web-7d4b9c-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
  it('forbids a priorityClassName that names no PriorityClass, naming the Pod as the request did', () => {
    const { api } = newServer();
    const e = caught(() => api.create('test', 'pods', newPod('hi', { priorityClassName: 'high' })));
    expect(e.code).toBe(403);
    expect(e.message).toBe('pods "hi" is forbidden: no PriorityClass with name high was found');
    const g = caught(() =>
      api.create('test', 'pods', { ...newPod('', { priorityClassName: 'high' }), metadata: { generateName: 'web-7d4b9c-', namespace: 'default' } as Pod['metadata'] }),
    );
    expect(g.message).toBe('pods "web-7d4b9c-" is forbidden: no PriorityClass with name high was found');
    expect(api.create('test', 'pods', newPod('ok', { priorityClassName: 'system-cluster-critical' })).spec.priority).toBe(2000000000);
  });
  it('traces a create with generateName under the name it generated', () => {
    const { sim, api } = newServer();
    const p = api.create('test', 'pods', { ...newPod(''), metadata: { generateName: 'web-7d4b9c-', namespace: 'default' } as Pod['metadata'] });
    const req = sim.trace.filter((e) => e.kind === 'request' && e.verb === 'create' && e.resource === 'pods');
    expect(req.map((e) => (e as { name?: string }).name)).toEqual([p.metadata.name]);
  });
  it('rejects duplicates, missing namespaces and invalid objects with upstream messages', () => {
    const { api } = newServer();
    api.create('test', 'pods', newPod('a'));
    expect(caught(() => api.create('test', 'pods', newPod('a'))).message).toBe('pods "a" already exists');
    expect(caught(() => api.create('test', 'pods', { ...newPod('x'), metadata: { name: 'x', namespace: 'nope' } as Pod['metadata'] })).message).toBe(
      'namespaces "nope" not found',
    );
    const bad = caught(() => api.create('test', 'pods', newPod('Bad_Name')));
    expect(bad.code).toBe(422);
    expect(bad.message).toMatch(/^Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    const d: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' } as Deployment['metadata'],
      spec: { replicas: -1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'other' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      status: {},
    };
    expect(caught(() => api.create('test', 'deployments', d)).message).toBe(
      'Deployment.apps "web" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`]',
    );
  });
});

describe('KubeAPIServer update and concurrency', () => {
  it('answers a stale resourceVersion with 409 Conflict', () => {
    const { api } = newServer();
    const p = api.create('test', 'pods', newPod('a'));
    const next = structuredClone(p);
    next.metadata.labels = { x: '1' };
    api.update('test', 'pods', next);
    const e = caught(() => api.update('test', 'pods', { ...structuredClone(p), metadata: { ...p.metadata, labels: { x: '2' } } }));
    expect(e.code).toBe(409);
    expect(e.message).toBe('Operation cannot be fulfilled on pods "a": the object has been modified; please apply your changes to the latest version and try again');
  });
  it('keeps status on main-resource updates and spec on status updates', () => {
    const { api } = newServer();
    const p = api.create('test', 'pods', newPod('a'));
    const s = structuredClone(p);
    s.status.phase = 'Running';
    s.metadata.labels = { ignored: 'yes' };
    const after = api.update('test', 'pods', s, 'status');
    expect(after.status.phase).toBe('Running');
    expect(after.metadata.labels).toBeUndefined();
    const m = structuredClone(after);
    m.status.phase = 'Failed';
    expect(api.update('test', 'pods', m).status.phase).toBe('Running');
  });
  it('bumps generation only when a Deployment spec changes', () => {
    const { api } = newServer();
    const d = api.create('test', 'deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      status: {},
    } as unknown as Deployment);
    expect(d.metadata.generation).toBe(1);
    expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    const s = api.update('test', 'deployments', { ...structuredClone(d), status: { replicas: 3 } }, 'status');
    expect(s.metadata.generation).toBe(1);
    const u = structuredClone(s);
    u.spec.replicas = 5;
    expect(api.update('test', 'deployments', u).metadata.generation).toBe(2);
  });
});

describe('KubeAPIServer binding and graceful deletion', () => {
  it('binds once and refuses to re-bind', () => {
    const { api } = newServer();
    const p = api.create('test', 'pods', newPod('a'));
    api.bind('kube-scheduler', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'a', namespace: 'default', uid: p.metadata.uid }, target: { kind: 'Node', name: 'node-1' } });
    const got = api.get<Pod>('test', 'pods', 'default', 'a');
    expect(got.spec.nodeName).toBe('node-1');
    expect(got.status.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    const e = caught(() =>
      api.bind('kube-scheduler', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'a', namespace: 'default' }, target: { kind: 'Node', name: 'node-2' } }),
    );
    expect(e.message).toBe('Operation cannot be fulfilled on pods/binding "a": pod a is already assigned to node "node-1"');
  });
  it('deletes an unscheduled Pod at once and a scheduled one gracefully', () => {
    const { sim, api } = newServer();
    api.create('test', 'pods', newPod('a'));
    api.delete('test', 'pods', 'default', 'a');
    expect(api.peekAll('pods')).toHaveLength(0);
    api.create('test', 'pods', newPod('b'));
    api.bind('s', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b', namespace: 'default' }, target: { kind: 'Node', name: 'n' } });
    sim.runUntil(10_000);
    const d = api.delete('test', 'pods', 'default', 'b') as Pod;
    expect(d.metadata.deletionTimestamp).toBe('2026-01-01T00:00:40Z');
    expect(d.metadata.deletionGracePeriodSeconds).toBe(30);
    api.delete('kubelet@n', 'pods', 'default', 'b', { gracePeriodSeconds: 0 });
    expect(api.peekAll('pods')).toHaveLength(0);
  });
});

describe('KubeAPIServer watch', () => {
  it('delivers events after the watch latency, filtered by field selector, with ADDED on entering it', () => {
    const { sim, api } = newServer();
    const seen: string[] = [];
    api.watch('kubelet@node-1', 'pods', { fieldSelector: { 'spec.nodeName': 'node-1' } }, (t, o) => seen.push(`${t} ${o.metadata.name}`), () => {});
    api.create('test', 'pods', newPod('a'));
    sim.runUntil(100);
    expect(seen).toEqual([]);
    api.bind('s', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'a', namespace: 'default' }, target: { kind: 'Node', name: 'node-1' } });
    api.delete('test', 'pods', 'default', 'a');
    sim.runUntil(200);
    expect(seen).toEqual(['ADDED a', 'MODIFIED a']);
    const kinds = sim.trace.filter((e) => e.kind === 'watch').map((e) => e.to);
    expect(kinds).toEqual(['kubelet@node-1', 'kubelet@node-1']);
  });
  it('breaks the watch of an unreachable client instead of delivering', () => {
    const { sim, api } = newServer();
    let closed = 0;
    const seen: string[] = [];
    api.watch('kubelet@node-1', 'pods', {}, (t) => seen.push(t), () => closed++);
    api.unreachable.add('node-1');
    api.create('test', 'pods', newPod('a'));
    sim.runUntil(100);
    expect(seen).toEqual([]);
    expect(closed).toBe(1);
    expect(() => api.list('kubelet@node-1', 'pods')).toThrow(/i\/o timeout/);
  });
});

describe('KubeAPIServer Event TTL (--event-ttl 1h)', () => {
  const newEvent = (name: string) =>
    ({ apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: 'default' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' }, reason: 'Pulled', message: 'm', type: 'Normal', count: 1 }) as unknown as Event;
  const names = (api: KubeAPIServer) => api.list<Event>('test', 'events', { namespace: 'default' }).items.map((e) => e.metadata.name);

  it('deletes an Event 3600 to 3660 s after its last write, one lease per minute of writes, with a watch DELETED', () => {
    const { sim, api } = newServer();
    const seen: string[] = [];
    api.watch('kubectl', 'events', {}, (t, o) => seen.push(`${sim.now() / 1000} ${t} ${o.metadata.name}`), () => {});
    api.create('test', 'events', newEvent('a'));
    sim.runUntil(30_000);
    api.create('test', 'events', newEvent('b'));
    sim.runUntil(61_000);
    api.create('test', 'events', newEvent('c'));
    sim.runUntil(1_800_000);
    api.patch('test', 'events', 'default', 'c', { count: 2 });
    sim.runUntil(3_659_999);
    expect(names(api)).toEqual(['a', 'b', 'c']);
    // a and b share the lease granted at 0 s for 3600 + 60 s; c, created at 61 s, got its own.
    sim.runUntil(3_661_000);
    expect(names(api)).toEqual(['c']);
    expect(seen.filter((x) => x.includes('DELETED'))).toEqual(['3660.002 DELETED a', '3660.002 DELETED b']);
    // c was last written at 1800 s: its lease then runs to 1800 + 3660 s.
    sim.runUntil(5_459_999);
    expect(names(api)).toEqual(['c']);
    sim.runUntil(5_460_000);
    expect(names(api)).toEqual([]);
  });

  it('gives other kinds no lease', () => {
    const { sim, api } = newServer();
    api.create('test', 'pods', newPod('a'));
    sim.runUntil(10 * 3_600_000);
    expect(api.list<Pod>('test', 'pods', { namespace: 'default' }).items).toHaveLength(1);
  });
});

describe('KubeAPIServer encoding and defaults (v1.34)', () => {
  it('stores resource quantities in canonical form, rounded up to milli-units', () => {
    const { api } = newServer();
    const pod = newPod('q');
    pod.spec.containers[0].resources = { requests: { cpu: '0.5', memory: '1024Mi' }, limits: { cpu: '1000m', memory: '1.5Gi', 'example.com/x': '100u' } };
    const p = api.create('test', 'pods', pod);
    expect(p.spec.containers[0].resources).toEqual({
      requests: { cpu: '500m', memory: '1Gi', 'example.com/x': '1m' },
      limits: { cpu: '1', memory: '1536Mi', 'example.com/x': '1m' },
    });
  });
  it('decodes a quantity kubectl sends (a JSON number too) to its canonical text', () => {
    const { api } = newServer();
    const pod = newPod('k') as unknown as Record<string, unknown>;
    (pod.spec as Pod['spec']).containers[0].resources = { requests: { cpu: 0.25 as unknown as string, memory: '8388608Ki' } };
    const p = api.create('kubectl', 'pods', pod as unknown as Pod);
    expect(p.spec.containers[0].resources?.requests).toEqual({ cpu: '250m', memory: '8Gi' });
  });
  it('sets serviceAccount from serviceAccountName, and omits a zero creationTimestamp in templates', () => {
    const { api } = newServer();
    const p = api.create('test', 'pods', newPod('sa'));
    expect(p.spec).toMatchObject({ serviceAccount: 'default', serviceAccountName: 'default' });
    api.create('test', 'serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } as ServiceAccount['metadata'] });
    const old = api.create('test', 'pods', newPod('old', { serviceAccount: 'builder' }));
    expect(old.spec).toMatchObject({ serviceAccount: 'builder', serviceAccountName: 'builder' });
    const d = api.create('test', 'deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' } as Deployment['metadata'],
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
      status: {},
    } as Deployment);
    expect(d.spec.template.metadata).toEqual({ labels: { app: 'web' } });
    expect(d.spec.template.spec.serviceAccount).toBeUndefined();
  });
});

describe('KubeAPIServer Service node ports', () => {
  function svc(name: string, ports: Service['spec']['ports'], type: Service['spec']['type'] = 'NodePort'): Service {
    return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' } as Service['metadata'], spec: { type, selector: { app: name }, ports }, status: {} };
  }
  it('allocates a node port from the upper band for every port without one, and defaults externalTrafficPolicy', () => {
    const { api } = newServer();
    const s = api.create('test', 'services', svc('web', [{ name: 'http', port: 80 }, { name: 'https', port: 443, nodePort: 30443 }]));
    const [http, https] = s.spec.ports!;
    expect(http.nodePort).toBeGreaterThanOrEqual(30086);
    expect(http.nodePort).toBeLessThanOrEqual(32767);
    expect(https.nodePort).toBe(30443);
    expect(s.spec.externalTrafficPolicy).toBe('Cluster');
    const c = api.create('test', 'services', svc('plain', [{ port: 80 }], 'ClusterIP'));
    expect(c.spec.ports![0].nodePort).toBeUndefined();
    expect(c.spec.externalTrafficPolicy).toBeUndefined();
  });
  it('gives ports with the same number one node port', () => {
    const { api } = newServer();
    const s = api.create('test', 'services', svc('dns', [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }]));
    expect(s.spec.ports![0].nodePort).toBe(s.spec.ports![1].nodePort);
  });
  it('refuses a requested node port that is taken or out of range, and frees ports on delete', () => {
    const { api } = newServer();
    api.create('test', 'services', svc('a', [{ port: 80, nodePort: 30080 }]));
    const e = caught(() => api.create('test', 'services', svc('b', [{ port: 80, nodePort: 30080 }])));
    expect(e.status.code).toBe(422);
    expect(e.message).toBe('Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const r = caught(() => api.create('test', 'services', svc('c', [{ port: 80, nodePort: 29999 }])));
    expect(r.message).toBe(
      'Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    api.delete('test', 'services', 'default', 'a');
    expect(api.create('test', 'services', svc('b', [{ port: 80, nodePort: 30080 }])).spec.ports![0].nodePort).toBe(30080);
  });
  it('keeps node ports across an update that leaves them out, and drops them when the type becomes ClusterIP', () => {
    const { api } = newServer();
    const s = api.create('test', 'services', svc('web', [{ name: 'http', port: 80 }]));
    const np = s.spec.ports![0].nodePort;
    const u = api.patch<Service>('test', 'services', 'default', 'web', { spec: { ports: [{ name: 'http', port: 80 }] } });
    expect(u.spec.ports![0].nodePort).toBe(np);
    const c = api.patch<Service>('test', 'services', 'default', 'web', { spec: { type: 'ClusterIP' } });
    expect(c.spec.ports![0].nodePort).toBeUndefined();
    expect(c.spec.externalTrafficPolicy).toBeUndefined();
    expect(api.create('test', 'services', svc('again', [{ port: 80, nodePort: np }])).spec.ports![0].nodePort).toBe(np);
  });
  it('draws node ports from their own stream: the same seed gives the same ports', () => {
    const a = newServer().api.create('test', 'services', svc('web', [{ port: 80 }]));
    const b = newServer().api.create('test', 'services', svc('web', [{ port: 80 }]));
    expect(a.spec.ports![0].nodePort).toBe(b.spec.ports![0].nodePort);
  });
});

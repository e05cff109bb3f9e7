// Measures read off a real run of node-failure (seed 7): the numbers the course quotes.
import { describe, expect, it } from 'vitest';
import { loadScenarios } from './load.ts';
import { runVariant } from './grade.ts';
import { eventTime, measure, objectsAt, componentOf, matchesWhere, getPath, needsFullTrace } from './measure.ts';

const run = runVariant(loadScenarios().get('node-failure')!, { v: 0, seed: 7, params: {} });

describe('measure over node-failure', () => {
  it('finds the fault and the node going Unknown 50 s later', () => {
    expect(eventTime(run, { fault: 'node-down' })).toBe(60);
    expect(
      measure(run, {
        duration: {
          from: { fault: 'node-down' },
          to: { change: { resource: 'nodes', where: { 'metadata.name': 'node-1', 'status.conditions[type=Ready].status': 'Unknown' } } },
        },
      }),
    ).toBe(50);
  });
  it('tells a replacement Pod from the original with new: true', () => {
    const running = { resource: 'pods' as const, where: { 'status.phase': 'Running' } };
    const first = eventTime(run, { change: running, after: { fault: 'node-down' } });
    const replacement = eventTime(run, { change: { ...running, new: true }, after: { fault: 'node-down' } });
    expect(first).toBeDefined();
    expect(replacement!).toBeGreaterThan(60 + 50 + 300);
  });
  it('counts objects at a moment by replaying changes', () => {
    expect(measure(run, { count: { resource: 'pods', where: { 'metadata.labels.app': 'web' }, at: 30 } })).toBe(3);
    expect(objectsAt(run, 'nodes', 30).length).toBe(4);
    expect(measure(run, { max: { resource: 'pods', where: { 'metadata.labels.app': 'web' } } })).toBe(4);
  });
  it('reads the actors of a request, counting kubelet@node-1 as kubelet', () => {
    expect(measure(run, { actors: { verb: 'update', resource: 'leases', name: 'node-1' } })).toEqual(['kubelet']);
    expect(componentOf('kubelet@node-1')).toBe('kubelet');
  });
  it('selects list items by several fields: the NoExecute taint comes after the NoSchedule one', () => {
    const noSchedule = eventTime(run, { change: { resource: 'nodes', where: { 'spec.taints[key=node.kubernetes.io/unreachable,effect=NoSchedule].key': { exists: true } } } });
    const noExecute = eventTime(run, { change: { resource: 'nodes', where: { 'spec.taints[key=node.kubernetes.io/unreachable,effect=NoExecute].key': { exists: true } } } });
    expect(noSchedule).toBeGreaterThan(100);
    expect(noExecute!).toBeGreaterThanOrEqual(noSchedule!);
  });
  it('matches field tests and the ready shorthand', () => {
    const pod = { metadata: { name: 'p' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } } as never;
    expect(matchesWhere(pod, { ready: true })).toBe(true);
    expect(matchesWhere(pod, { 'metadata.name': { in: ['a', 'p'] } })).toBe(true);
    expect(matchesWhere(pod, { 'metadata.deletionTimestamp': { exists: false } })).toBe(true);
    expect(matchesWhere(pod, { 'metadata.name': { ne: 'p' } })).toBe(false);
  });
});

describe('getPath', () => {
  it('reads [i] indexes and [k=v] selectors', () => {
    const o = { endpoints: [{ addresses: ['10.0.0.1'] }], c: [{ type: 'A', s: 1 }, { type: 'B', s: 2 }] };
    expect(getPath(o, 'endpoints[0].addresses[0]')).toBe('10.0.0.1');
    expect(getPath(o, 'c[type=B].s')).toBe(2);
    expect(getPath(o, 'endpoints[3]')).toBeUndefined();
    expect(getPath({ metadata: { labels: { 'kubernetes.io/service-name': 'web' } } }, 'metadata.labels[kubernetes.io/service-name]')).toBe('web');
  });
  it('asks for the full trace only for calls and changed fields', () => {
    expect(needsFullTrace({ measure: { actors: { verb: 'patch', field: 'status.podIP' } } })).toBe(true);
    expect(needsFullTrace({ at: { call: { method: 'ADD' } } })).toBe(true);
    expect(needsFullTrace({ measure: { field: { resource: 'pods', path: 'spec.nodeName' } } })).toBe(false);
  });
});

describe('measures over a Pod’s DNS questions and connections (lesson7-services, seed 7)', () => {
  const l7 = runVariant(loadScenarios().get('lesson7-services')!, { v: 0, seed: 7, params: {} });

  it('counts DNS questions between two steps, by asker, name, type and answer', () => {
    expect(measure(l7, { queries: { from: 'shop/client', after: { step: 2 }, before: { step: 3 } } })).toBe(4);
    expect(measure(l7, { queries: { from: 'shop/client', after: { step: 2 }, before: { step: 3 }, rcode: 'NXDOMAIN' } })).toBe(2);
    expect(measure(l7, { queries: { from: 'shop/client', qtype: 'A', name: 'wbe' } })).toBe(1);
    expect(measure(l7, { queries: { from: 'shop/nobody' } })).toBe(0);
  });

  it('reads a connection’s node, outcome and endpoint, and a step’s exit code', () => {
    expect(measure(l7, { packet: { from: 'shop/client', path: 'node' } })).toBe('node-1');
    expect(measure(l7, { packet: { from: 'shop/client', after: { step: 3 }, path: 'outcome' } })).toBe('rejected');
    expect(measure(l7, { packet: { from: 'shop/client', after: { step: 4 }, path: 'endpoint' } })).toMatch(/:9090$/);
    expect(measure(l7, { exitCode: { step: 5 } })).toBe(6);
    expect(() => measure(l7, { packet: { from: 'shop/nobody', path: 'node' } })).toThrow(/no connection matches/);
    // The apply step records `kubectl apply -f -`; the steps at 49 s each find their own command.
    expect(measure(l7, { exitCode: { step: 0 } })).toBe(0);
    expect(measure(l7, { exitCode: { step: 6 } })).toBe(1);
    expect(measure(l7, { exitCode: { step: 8 } })).toBe(0);
    expect(() => measure(l7, { exitCode: { step: 99 } })).toThrow(/runs no command/);
  });
});

describe('measures over a connection a NetworkPolicy dropped (cni: calico)', () => {
  const yaml = `name: netpol-measure
seed: 1
cluster:
  settings:
    cni: calico
steps:
  - at: 0s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata: {name: client, labels: {app: client}}
      spec:
        containers: [{name: curl, image: "curlimages/curl:8.17.0", command: [sleep, "3600"]}]
      ---
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: deny-egress}
      spec:
        podSelector: {}
        policyTypes: [Egress]
  - at: 30s
    kubectl: exec client -- curl -m 1 10.96.0.1:443
until: 40s
`;
  const run = runVariant(yaml, { v: 0, seed: 1, params: {} });
  it('reads the outcome dropped and the policy that dropped it', () => {
    expect(measure(run, { packet: { from: 'default/client', path: 'outcome' } })).toBe('dropped');
    expect(measure(run, { packet: { from: 'default/client', path: 'policy' } })).toBe('default/deny-egress');
  });
});

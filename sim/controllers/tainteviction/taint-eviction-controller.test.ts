import { describe, expect, it } from 'vitest';
import { deepClone } from '../../api/clone.ts';
import type { Event, Node, Pod, Taint, Toleration } from '../../api/types.ts';
import { KubeAPIServer } from '../../apiserver/apiserver.ts';
import { Client } from '../../client/client.ts';
import { formatTime } from '../../engine/clock.ts';
import {
  getMatchingTolerations,
  getMinTolerationTime,
  TaintEvictionController,
} from './taint-eviction-controller.ts';
import { frozenAPIServer } from '../../testing.ts';

const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
const custom: Taint = { key: 'example.com/evict', effect: 'NoExecute' };

function setup() {
  const { sim, api } = frozenAPIServer();
  api.create('test', 'nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-1' },
    spec: {},
    status: {},
  } as unknown as Node);
  const tc = new TaintEvictionController(sim, new Client(api, TaintEvictionController.NAME));
  tc.start();
  return { sim, api, tc };
}

function createPod(api: KubeAPIServer, name: string, tolerations?: Toleration[]): Pod {
  return api.create<Pod>('test', 'pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' } as Pod['metadata'],
    spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx:1.27' }], tolerations },
    status: { phase: 'Running' },
  });
}

function setTaints(api: KubeAPIServer, taints: Taint[]): void {
  const n = deepClone(api.get<Node>('test', 'nodes', undefined, 'node-1'));
  n.spec.taints = taints;
  api.update('node-lifecycle-controller', 'nodes', n);
}

const pod = (api: KubeAPIServer, name: string) => api.get<Pod>('test', 'pods', 'default', name);
const evictionEvents = (api: KubeAPIServer) =>
  api
    .peekAll<Event>('events')
    .filter((e) => e.reason === 'TaintManagerEviction')
    .map((e) => e.message);

describe('getMinTolerationTime', () => {
  it('returns 0 for none, the minimum, 0 for a non-positive value, -1 for forever', () => {
    expect(getMinTolerationTime([])).toBe(0);
    expect(getMinTolerationTime([{ tolerationSeconds: 300 }, { tolerationSeconds: 60 }])).toBe(
      60_000,
    );
    expect(getMinTolerationTime([{ tolerationSeconds: 300 }, { tolerationSeconds: -5 }])).toBe(0);
    expect(getMinTolerationTime([{ key: 'a', operator: 'Exists' }])).toBe(-1);
  });
  it('matches tolerations per taint', () => {
    expect(getMatchingTolerations([unreachable], [{ operator: 'Exists' }])).toEqual([
      true,
      [{ operator: 'Exists' }],
    ]);
    expect(
      getMatchingTolerations(
        [custom],
        [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }],
      )[0],
    ).toBe(false);
  });
});

describe('TaintEvictionController', () => {
  it('deletes a pod with the default 300s toleration 300s after the taint, DisruptionTarget first', () => {
    const { sim, api } = setup();
    createPod(api, 'web-1');
    sim.runUntil(10_000);
    setTaints(api, [unreachable]);
    // The node update reaches the controller 2ms later (watch latency); the eviction is due 300s on.
    sim.runUntil(310_001);
    expect(pod(api, 'web-1').metadata.deletionTimestamp).toBeUndefined();
    sim.runUntil(310_002);
    const p = pod(api, 'web-1');
    expect(p.metadata.deletionTimestamp).toBe(formatTime(310_002 + 30_000));
    expect(p.status.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    });
    expect(evictionEvents(api)).toEqual(['Marking for deletion Pod default/web-1']);
    // The status patch precedes the delete.
    const reqs = sim.trace.filter(
      (e) =>
        e.kind === 'request' &&
        e.from === TaintEvictionController.NAME &&
        e.resource.startsWith('pods') &&
        e.t > 10,
    );
    expect(reqs.map((e) => (e.kind === 'request' ? `${e.verb} ${e.resource}` : ''))).toEqual([
      'get pods',
      'patch pods/status',
      'delete pods',
    ]);
  });

  it('deletes at once a pod that does not tolerate the taint', () => {
    const { sim, api } = setup();
    createPod(api, 'web-1');
    sim.runUntil(10_000);
    setTaints(api, [custom]);
    sim.runUntil(10_002);
    expect(pod(api, 'web-1').metadata.deletionTimestamp).toBe(formatTime(40_002));
  });

  it('never deletes a pod that tolerates the taint without tolerationSeconds', () => {
    const { sim, api } = setup();
    createPod(api, 'web-1', [
      { key: 'example.com/evict', operator: 'Exists', effect: 'NoExecute' },
    ]);
    sim.runUntil(10_000);
    setTaints(api, [custom]);
    sim.runUntil(3_600_000);
    expect(pod(api, 'web-1').metadata.deletionTimestamp).toBeUndefined();
    expect(evictionEvents(api)).toEqual([]);
  });

  it('cancels the eviction when the taint goes away', () => {
    const { sim, api, tc } = setup();
    createPod(api, 'web-1');
    sim.runUntil(10_000);
    setTaints(api, [unreachable]);
    sim.runUntil(100_000);
    expect(tc.scheduledEviction('default/web-1')).toMatchObject({ fireAt: 310_002 });
    setTaints(api, []);
    sim.runUntil(1_000_000);
    expect(pod(api, 'web-1').metadata.deletionTimestamp).toBeUndefined();
    expect(evictionEvents(api)).toEqual(['Cancelling deletion of Pod default/web-1']);
  });

  it('keeps the earlier deadline when the taint is swapped', () => {
    const { sim, api } = setup();
    createPod(api, 'web-1');
    sim.runUntil(10_000);
    setTaints(api, [unreachable]);
    sim.runUntil(100_000);
    setTaints(api, [notReady]);
    sim.runUntil(310_002);
    expect(pod(api, 'web-1').metadata.deletionTimestamp).toBe(formatTime(340_002));
  });

  it('schedules a pod that arrives on an already tainted node', () => {
    const { sim, api } = setup();
    setTaints(api, [unreachable]);
    sim.runUntil(50_000);
    createPod(api, 'web-1', [
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 60,
      },
    ]);
    sim.runUntil(110_002);
    expect(pod(api, 'web-1').metadata.deletionTimestamp).toBe(formatTime(140_002));
  });
});

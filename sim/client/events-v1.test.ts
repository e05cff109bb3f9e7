import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types.ts';
import { printEvent } from '../kubectl/printers.ts';
import { EventRecorderV1 } from './events-v1.ts';
import { eventsTestbed } from './testing.ts';

function setup() {
  const bed = eventsTestbed('kube-scheduler');
  const { pod } = bed;
  const recorder = new EventRecorderV1(bed.client, 'default-scheduler', 'control-plane');
  recorder.start();
  const fail = () =>
    recorder.eventf(
      pod,
      'Warning',
      'FailedScheduling',
      'Scheduling',
      '0/3 nodes are available: 3 Insufficient cpu.',
    );
  return { ...bed, recorder, fail };
}

describe('EventRecorderV1 (client-go tools/events)', () => {
  it('creates an events.k8s.io/v1 Event, stored with eventTime, action and the reporting fields, and no source, timestamps or count', () => {
    const { sim, pod, recorder, events, requests } = setup();
    sim.runUntil(1_500);
    recorder.eventf(
      pod,
      'Normal',
      'Scheduled',
      'Binding',
      'Successfully assigned default/web to node-1',
    );
    const [e] = events();
    expect(e).toMatchObject({
      reason: 'Scheduled',
      message: 'Successfully assigned default/web to node-1',
      action: 'Binding',
      eventTime: '2026-01-01T00:00:01.500000Z',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-control-plane',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      involvedObject: {
        kind: 'Pod',
        name: 'web',
        uid: pod.metadata.uid,
        resourceVersion: pod.metadata.resourceVersion,
      },
    });
    expect(e.count).toBeUndefined();
    expect(e.series).toBeUndefined();
    expect(requests()).toMatchObject([{ verb: 'create', group: 'events.k8s.io', code: 201 }]);
    // kubectl get events: first and last seen at eventTime, count 1 (printers.go printEvent).
    sim.runUntil(61_500);
    expect(printEvent(e, sim.now(), true).cells).toEqual([
      '60s',
      'Normal',
      'Scheduled',
      'pod/web',
      '',
      'default-scheduler, default-scheduler-control-plane',
      'Successfully assigned default/web to node-1',
      '60s',
      1,
      e.metadata.name,
    ]);
  });

  it('the second isomorphic Event starts a series with one PATCH; later ones are only counted until the 6-minute pass', () => {
    const { sim, events, requests, at, fail } = setup();
    at(1_000, fail);
    at(2_000, fail);
    expect(requests().map((r) => r.verb)).toEqual(['create', 'patch']);
    expect(requests()[1]).toMatchObject({
      group: 'events.k8s.io',
      patchType: 'application/strategic-merge-patch+json',
    });
    expect(events()[0].series).toEqual({
      count: 2,
      lastObservedTime: '2026-01-01T00:00:02.000000Z',
    });
    at(62_000, fail);
    at(122_000, fail);
    expect(requests()).toHaveLength(2);
    expect(events()[0].series!.count).toBe(2);
    // finishSeries runs every 6 minutes from the start: at 12 min the series, quiet since 2:02, is
    // written a last time and forgotten.
    sim.runUntil(6 * 60_000);
    expect(requests()).toHaveLength(2);
    sim.runUntil(12 * 60_000);
    expect(requests().map((r) => r.verb)).toEqual(['create', 'patch', 'patch']);
    expect(events()[0].series).toEqual({
      count: 4,
      lastObservedTime: '2026-01-01T00:02:02.000000Z',
    });
    // The next one starts a new Event.
    at(13 * 60_000, fail);
    expect(events()).toHaveLength(2);
  });

  it('refreshes a running series every 30 minutes', () => {
    const { sim, requests, at, fail } = setup();
    for (let t = 1_000; t < 31 * 60_000; t += 60_000) at(t, fail);
    const patches = requests().filter((r) => r.verb === 'patch');
    // The second Event, then the refresh at 30 min.
    expect(patches.map((r) => r.t)).toEqual([61, 1800]);
    expect(sim.now()).toBeGreaterThan(1800_000);
  });

  it('a new resourceVersion of the regarding object is a new Event (the reference is the key)', () => {
    const { api, pod, recorder, events } = setup();
    recorder.eventf(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'a');
    const updated = api.update<Pod>('test', 'pods', {
      ...pod,
      metadata: { ...pod.metadata, labels: { x: 'y' } },
    });
    recorder.eventf(updated, 'Warning', 'FailedScheduling', 'Scheduling', 'a');
    expect(events()).toHaveLength(2);
  });

  it('kubectl shows a series as its count and last observed time', () => {
    const { sim, events, at, fail } = setup();
    at(1_000, fail);
    at(121_000, fail);
    sim.runUntil(181_000);
    const e = events()[0];
    expect(printEvent(e, sim.now()).cells.slice(0, 3)).toEqual([
      '60s',
      'Warning',
      'FailedScheduling',
    ]);
    expect(printEvent(e, sim.now(), true).cells[8]).toBe(2);
  });
});

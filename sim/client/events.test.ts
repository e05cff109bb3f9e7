import { describe, expect, it } from 'vitest';
import { EventRecorder } from './events.ts';
import { eventsTestbed } from './testing.ts';

function setup() {
  const bed = eventsTestbed('kubelet');
  const recorder = new EventRecorder(bed.client, 'kubelet', 'node-1');
  return { ...bed, recorder };
}

describe('EventRecorder (client-go tools/record)', () => {
  it('writes a core/v1 Event with source, count 1, first and last timestamps, and the fieldPath of a container', () => {
    const { pod, recorder, events } = setup();
    recorder.event(
      pod,
      'Normal',
      'Pulling',
      'Pulling image "nginx:1.27"',
      'spec.containers{nginx}',
    );
    const [e] = events();
    expect(e).toMatchObject({
      reason: 'Pulling',
      type: 'Normal',
      count: 1,
      source: { component: 'kubelet', host: 'node-1' },
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
      involvedObject: {
        kind: 'Pod',
        name: 'web',
        namespace: 'default',
        uid: pod.metadata.uid,
        fieldPath: 'spec.containers{nginx}',
      },
    });
    expect(e.firstTimestamp).toBe(e.lastTimestamp);
    expect(e.metadata.name).toMatch(/^web\.[0-9a-f]+$/);
  });

  it('a repeat bumps count and lastTimestamp with one PATCH of the stored Event (count, lastTimestamp, message)', () => {
    const { pod, recorder, events, requests, at } = setup();
    at(1_000, () =>
      recorder.event(
        pod,
        'Warning',
        'BackOff',
        'Back-off restarting failed container',
        'spec.containers{nginx}',
      ),
    );
    at(11_000, () =>
      recorder.event(
        pod,
        'Warning',
        'BackOff',
        'Back-off restarting failed container',
        'spec.containers{nginx}',
      ),
    );
    at(31_000, () =>
      recorder.event(
        pod,
        'Warning',
        'BackOff',
        'Back-off restarting failed container',
        'spec.containers{nginx}',
      ),
    );
    expect(requests().map((r) => r.verb)).toEqual(['create', 'patch', 'patch']);
    // recordEvent sends the correlator's patch as a strategic merge patch.
    expect(requests()[1].patchType).toBe('application/strategic-merge-patch+json');
    const [e] = events();
    expect(e.count).toBe(3);
    expect(e.firstTimestamp).toBe('2026-01-01T00:00:01Z');
    expect(e.lastTimestamp).toBe('2026-01-01T00:00:31Z');
  });

  it('the same reason and message about another container is another Event (fieldPath is in the key)', () => {
    const { pod, recorder, events } = setup();
    recorder.event(
      pod,
      'Normal',
      'Pulled',
      'Container image "busybox" already present on machine',
      'spec.initContainers{init}',
    );
    recorder.event(
      pod,
      'Normal',
      'Pulled',
      'Container image "busybox" already present on machine',
      'spec.containers{nginx}',
    );
    expect(
      events()
        .map((e) => e.involvedObject.fieldPath)
        .sort(),
    ).toEqual(['spec.containers{nginx}', 'spec.initContainers{init}']);
  });

  it('creates the Event again (same name, next count) when the one it would patch is gone', () => {
    const { api, pod, recorder, events, requests, at } = setup();
    at(1_000, () => recorder.event(pod, 'Normal', 'Killing', 'Stopping container nginx'));
    const name = events()[0].metadata.name;
    api.delete('test', 'events', 'default', name);
    at(2_000, () => recorder.event(pod, 'Normal', 'Killing', 'Stopping container nginx'));
    expect(requests().map((r) => `${r.verb} ${r.code}`)).toEqual([
      'create 201',
      'patch 404',
      'create 201',
    ]);
    expect(events()).toMatchObject([
      { metadata: { name }, count: 2, firstTimestamp: '2026-01-01T00:00:01Z' },
    ]);
  });

  it('aggregates the 10th different message of one reason within 600 s into "(combined from similar events): "', () => {
    const { pod, recorder, events, at } = setup();
    for (let i = 1; i <= 9; i++)
      at(i * 1_000, () => recorder.event(pod, 'Warning', 'FailedMount', `volume ${i} not found`));
    expect(events()).toHaveLength(9);
    at(10_000, () => recorder.event(pod, 'Warning', 'FailedMount', 'volume 10 not found'));
    at(11_000, () => recorder.event(pod, 'Warning', 'FailedMount', 'volume 11 not found'));
    const combined = events().filter((e) =>
      e.message.startsWith('(combined from similar events): '),
    );
    expect(combined).toHaveLength(1);
    expect(combined[0]).toMatchObject({
      message: '(combined from similar events): volume 11 not found',
      count: 2,
      reportingComponent: '',
      source: { component: 'kubelet', host: 'node-1' },
    });
    expect(events()).toHaveLength(10);
  });

  it('does not aggregate when the similar events are more than 600 s apart', () => {
    const { pod, recorder, events, at } = setup();
    for (let i = 1; i <= 12; i++)
      at(i * 601_000, () => recorder.event(pod, 'Warning', 'FailedMount', `volume ${i} not found`));
    expect(events().some((e) => e.message.startsWith('(combined'))).toBe(false);
  });

  it('the spam filter lets 25 events about an object through, then one per 300 s; dropped repeats still count', () => {
    const { pod, recorder, events, requests, at } = setup();
    for (let i = 0; i < 30; i++)
      at(1_000 + i, () => recorder.event(pod, 'Normal', `Reason${i}`, 'm'));
    expect(requests()).toHaveLength(25);
    at(301_100, () => recorder.event(pod, 'Normal', 'Reason0', 'm'));
    at(301_200, () => recorder.event(pod, 'Normal', 'Reason1', 'm'));
    expect(requests()).toHaveLength(26);
    expect(events().find((e) => e.reason === 'Reason0')!.count).toBe(2);
    // Reason1's repeat was dropped but counted: the next one let through says 3.
    at(602_000, () => recorder.event(pod, 'Normal', 'Reason1', 'm'));
    expect(events().find((e) => e.reason === 'Reason1')!.count).toBe(3);
  });
});

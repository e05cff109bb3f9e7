// Shared test helper for the event recorders' tests (events.test.ts, events-v1.test.ts): a
// kube-apiserver with the default namespace and one Pod, and readers of what was recorded.
// Used by tests only (lint treats sim/**/testing.ts as tests).
import type { Event, Pod } from '../api/types.ts';
import type { RequestEntry } from '../engine/trace.ts';
import { frozenAPIServer } from '../testing.ts';
import { Client } from './client.ts';

/**
 * eventsTestbed starts kube-apiserver (freeze on) with namespace default and Pod default/web
 * (one nginx container), and a client for user. events lists the stored Events, requests the
 * user's requests to events, and at(ms, fn) runs the clock to ms, then fn.
 */
export function eventsTestbed(user: string) {
  const { sim, api } = frozenAPIServer();
  const pod = api.create<Pod>('test', 'pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
  } as unknown as Pod);
  const client = new Client(api, user);
  const events = () => api.list<Event>('test', 'events').items;
  const requests = () =>
    sim.trace.filter(
      (e): e is RequestEntry => e.kind === 'request' && e.resource === 'events' && e.from === user,
    );
  const at = (ms: number, fn: () => void) => {
    sim.runUntil(ms);
    fn();
  };
  return { sim, api, pod, client, events, requests, at };
}

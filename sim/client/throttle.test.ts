import { describe, expect, it } from 'vitest';
import { KubeAPIServer } from '../apiserver/apiserver.ts';
import { Simulation } from '../engine/simulation.ts';
import { EtcdStore } from '../etcd/store.ts';
import type { Namespace } from '../api/types.ts';
import { Client } from './client.ts';
import { TokenBucketRateLimiter } from './throttle.ts';
import { RateLimitingQueue, type Sync } from './workqueue.ts';

describe('TokenBucketRateLimiter', () => {
  it('lets a burst through at once, then spaces requests 1/QPS apart', () => {
    const b = new TokenBucketRateLimiter(20, 30);
    const times = Array.from({ length: 34 }, () => b.reserve(1_000));
    expect(times.slice(0, 30)).toEqual(Array(30).fill(1_000));
    // The 31st request waits for one token refilled at 20 per second (50 ms), the next 50 ms more.
    expect(times.slice(30)).toEqual([1_050, 1_100, 1_150, 1_200]);
    expect(b.throttled).toBe(4);
    expect(b.waitedMs).toBe(50 + 100 + 150 + 200);
  });

  it('refills with virtual time, never above burst', () => {
    const b = new TokenBucketRateLimiter(10, 5);
    for (let i = 0; i < 5; i++) b.reserve(0);
    expect(b.readyAt(0)).toBe(100);
    expect(b.tryAccept(50)).toBe(false);
    expect(b.tryAccept(100)).toBe(true);
    // A long idle time refills to burst (5), not more: the sixth request waits.
    const times = Array.from({ length: 6 }, () => b.reserve(60_000));
    expect(times).toEqual([60_000, 60_000, 60_000, 60_000, 60_000, 60_100]);
  });

  it('rounds waits up to whole milliseconds without drifting', () => {
    const b = new TokenBucketRateLimiter(30, 1);
    const times = Array.from({ length: 4 }, () => b.reserve(0));
    expect(times).toEqual([0, 34, 67, 100]);
  });
});

describe('Client rate limits', () => {
  function setup(qps: number, burst: number) {
    const sim = new Simulation({ seed: 1 });
    const api = new KubeAPIServer(sim, new EtcdStore());
    const client = new Client(api, 'replicaset-controller', { qps, burst });
    return { sim, api, client };
  }

  it('takes a token per request and one per watch opened, none per watch event', () => {
    const { sim, client } = setup(1, 3);
    client.watch(
      'namespaces',
      {},
      () => {},
      () => {},
    );
    client.create<Namespace>('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'a' },
    } as Namespace);
    client.create<Namespace>('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'b' },
    } as Namespace);
    sim.runUntil(10);
    // Three tokens used (watch + two creates); the deliveries took none, so the next waits 1 s.
    expect(client.reserve()).toBe(1_000);
  });

  it('holds a controller queue until its client has a token again', () => {
    const { sim, client } = setup(2, 2);
    const ran: [string, number][] = [];
    const q = new RateLimitingQueue(sim, { name: 'test', limiter: client.limiter }, (key) => {
      ran.push([key, sim.now()]);
      // Each sync sends two requests.
      client.list('namespaces');
      client.list('namespaces');
    });
    // The bucket (2 tokens, 2 per second) is empty at 0: the first sync waits for a token (500 ms),
    // and its two requests leave the bucket one token in debt: the second sync waits until a whole
    // token is back, two refills later (1,500).
    client.limiter!.reserve(0);
    client.limiter!.reserve(0);
    q.add('a');
    q.add('b');
    sim.runUntil(5_000);
    expect(ran).toEqual([
      ['a', 500],
      ['b', 1_500],
    ]);
  });

  it('moves a key added again while the queue waits for a token behind the keys added since', () => {
    const { sim, client } = setup(2, 2);
    const ran: string[] = [];
    const q = new RateLimitingQueue(sim, { name: 'test', limiter: client.limiter }, (key) => {
      ran.push(key);
    });
    // The bucket is empty: the queue waits. "new" was queued first, then "old" changed, then "new"
    // changed again: upstream a worker would have taken new's first change already, so the second
    // comes after old's.
    client.limiter!.reserve(0);
    client.limiter!.reserve(0);
    q.add('new');
    q.add('old');
    q.add('new');
    sim.runUntil(5_000);
    expect(ran).toEqual(['old', 'new']);
    // With tokens to spare, a key added again keeps its place, as client-go's queue does.
    q.add('x');
    q.add('y');
    q.add('x');
    sim.runUntil(10_000);
    expect(ran.slice(2)).toEqual(['x', 'y']);
  });

  // requests returns the trace's requests as [verb, virtual ms].
  function requests(sim: Simulation): [string, number][] {
    return sim.trace.flatMap((e) => (e.kind === 'request' ? [[e.verb, e.t * 1000]] : []));
  }

  it("sends each request of a generator sync at its token's time, the worker busy meanwhile", () => {
    const { sim, client } = setup(10, 2);
    const ran: [string, number][] = [];
    const q = new RateLimitingQueue(sim, { name: 'test', workers: 1 }, function* (key): Sync {
      ran.push([key, sim.now()]);
      for (let i = 0; i < 3; i++) {
        yield* client.throttle();
        client.list('namespaces');
      }
    });
    q.add('a');
    q.add('b');
    sim.runUntil(5_000);
    // Two tokens at 0, then one every 100 ms: a's third request waits until 100; b, on the only
    // worker, starts when a is done and its requests take the tokens of 200, 300 and 400.
    expect(ran).toEqual([
      ['a', 0],
      ['b', 100],
    ]);
    expect(requests(sim)).toEqual([
      ['list', 0],
      ['list', 0],
      ['list', 100],
      ['list', 200],
      ['list', 300],
      ['list', 400],
    ]);
    expect(client.limiter!.throttled).toBe(4);
  });

  it('lets the other workers sync while one waits for a token', () => {
    const { sim, client } = setup(10, 1);
    const ran: [string, number][] = [];
    const q = new RateLimitingQueue(sim, { name: 'test', workers: 2 }, function* (key): Sync {
      ran.push([key, sim.now()]);
      if (key === 'quiet') return; // a sync that sends nothing waits for no token
      for (let i = 0; i < 2; i++) {
        yield* client.throttle();
        client.list('namespaces');
      }
    });
    q.add('a');
    q.add('b');
    q.add('quiet');
    sim.runUntil(5_000);
    // a takes the one token and waits for the next (100); b, on the second worker, reserves the
    // tokens after a's (200, 300); quiet waits for a free worker, a's at 100.
    expect(ran).toEqual([
      ['a', 0],
      ['b', 0],
      ['quiet', 100],
    ]);
    expect(requests(sim)).toEqual([
      ['list', 0],
      ['list', 100],
      ['list', 200],
      ['list', 300],
    ]);
  });

  it('schedules nothing for a generator sync while the bucket has tokens', () => {
    const { sim, client } = setup(10, 5);
    const q = new RateLimitingQueue(sim, { name: 'test', workers: 5 }, function* (): Sync {
      for (let i = 0; i < 4; i++) {
        yield* client.throttle();
        client.list('namespaces');
      }
    });
    q.add('a');
    // One engine event hands the key to a worker; the sync runs in it to the end.
    expect(sim.pending).toBe(1);
    sim.step();
    expect(sim.pending).toBe(0);
    expect(requests(sim)).toEqual([
      ['list', 0],
      ['list', 0],
      ['list', 0],
      ['list', 0],
    ]);
  });

  it('drops the syncs waiting for a token when the queue shuts down', () => {
    const { sim, client } = setup(10, 1);
    const q = new RateLimitingQueue(sim, { name: 'test', workers: 1 }, function* (): Sync {
      for (let i = 0; i < 2; i++) {
        yield* client.throttle();
        client.list('namespaces');
      }
    });
    q.add('a');
    sim.runUntil(50);
    q.shutDown();
    sim.runUntil(5_000);
    expect(requests(sim)).toEqual([['list', 0]]);
  });
});

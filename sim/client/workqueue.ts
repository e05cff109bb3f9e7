// Mirrors staging/src/k8s.io/client-go/util/workqueue: a de-duplicating queue with the
// dirty/processing sets (a key is never processed by two workers at once, and a key added while
// it is processed runs again afterwards), delayed adds, and per-item exponential back-off
// (DefaultControllerRateLimiter's ItemExponentialFailureRateLimiter: 5ms doubling to 1000s).
// Simplification: the overall 10 qps / 100 burst bucket limiter is not modelled.
//
// Workers: a controller runs `workers` goroutines (--concurrent-replicaset-syncs=5 and the like),
// each taking a key and running its sync. A sync that returns nothing ran in one engine event and
// took no virtual time. A sync written as a generator (Sync) waits in its client's rate limiter as
// upstream's worker blocks in rest/request.go's tryThrottle: it yields the time of the token it
// waits for (Client.throttle), its worker stays busy until the sync is done, and the other
// workers take the next keys meanwhile. While the bucket has tokens nothing waits, so such a
// sync also runs in one event.
//
// Simplification: a queue given its controller's client token bucket (limiter), for a controller
// whose sync is not a generator, starts the next key only when that bucket has a token again:
// the sync's requests go out together and the next sync waits for the tokens they borrowed, so
// the controller keeps its client's rate. While it waits, a key added again that is still queued
// moves to the back: upstream a free worker would already have taken its earlier change (a sync
// that sends nothing waits for no token), so the new change comes after the keys added since.

import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import type { TokenBucketRateLimiter } from './throttle.ts';

export interface WorkQueueOptions {
  /** name is the queue's owner, shown in agenda entries. */
  name: string;
  baseDelay?: number;
  maxDelay?: number;
  /**
   * limiter is the controller's client token bucket, for a sync that is not a generator: a sync
   * starts only when it has a token (see the file comment).
   */
  limiter?: TokenBucketRateLimiter;
  /** workers is how many syncs may be in progress at once (generator syncs waiting for tokens); 1 by default. */
  workers?: number;
}

/**
 * Sync is a sync that can wait for its client's tokens: it yields the virtual time at which to
 * resume it (Client.throttle), as a worker blocks in the rate limiter before a request.
 */
export type Sync = Generator<number, void, void>;

/** RateLimitingQueue runs process(key) once per distinct key added, on the virtual clock. */
export class RateLimitingQueue {
  private readonly sim: Simulation;
  private readonly process: (key: string) => void | Sync;
  private readonly name: string;
  private readonly baseDelay: number;
  private readonly maxDelay: number;
  private readonly limiter: TokenBucketRateLimiter | undefined;
  private readonly queue: string[] = [];
  private head = 0;
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly waiting = new Map<string, { at: number; timer: TimerHandle }>();
  private readonly causes = new Map<string, number>();
  /** stale counts, per key, the earlier queue entries a move to the back left behind. */
  private readonly stale = new Map<string, number>();
  private staleTotal = 0;
  private scheduled = false;
  private readonly workers: number;
  /** busy counts the workers in a sync; waits holds the wake-ups of the syncs waiting for a token. */
  private busy = 0;
  private readonly waits = new Set<TimerHandle>();
  shuttingDown = false;

  constructor(sim: Simulation, opts: WorkQueueOptions, process: (key: string) => void | Sync) {
    this.sim = sim;
    this.name = opts.name;
    this.baseDelay = opts.baseDelay ?? 5;
    this.maxDelay = opts.maxDelay ?? 1_000_000;
    this.limiter = opts.limiter;
    this.workers = opts.workers ?? 1;
    this.process = process;
  }

  get len(): number {
    return this.queue.length - this.head - this.staleTotal;
  }

  /** add marks key dirty and queues it unless already queued or being processed. */
  add(key: string): void {
    if (this.shuttingDown) return;
    if (this.dirty.has(key)) {
      if (
        this.limiter &&
        !this.processing.has(key) &&
        this.limiter.readyAt(this.sim.now()) > this.sim.now()
      ) {
        this.stale.set(key, (this.stale.get(key) ?? 0) + 1);
        this.staleTotal++;
        this.queue.push(key);
        if (this.sim.cause) this.causes.set(key, this.sim.cause);
      }
      return;
    }
    this.dirty.add(key);
    if (this.sim.cause) this.causes.set(key, this.sim.cause);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.kick();
  }

  /** addAfter adds key once delay has passed (the earliest pending time wins). */
  addAfter(key: string, delay: number): void {
    if (this.shuttingDown) return;
    if (delay <= 0) return this.add(key);
    const at = this.sim.now() + delay;
    const w = this.waiting.get(key);
    if (w && w.at <= at) return;
    w?.timer.cancel();
    const timer = this.sim.at(at, `${this.name}: requeue ${key}`, () => {
      this.waiting.delete(key);
      this.add(key);
    });
    this.waiting.set(key, { at, timer });
  }

  /** addRateLimited adds key after its exponential back-off. */
  addRateLimited(key: string): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    this.addAfter(key, Math.min(this.baseDelay * 2 ** n, this.maxDelay));
  }

  /** forget clears key's failure count. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  shutDown(): void {
    this.shuttingDown = true;
    for (const w of this.waiting.values()) w.timer.cancel();
    this.waiting.clear();
    // The process exits: the syncs waiting for a token are gone with it.
    for (const t of this.waits) t.cancel();
    this.waits.clear();
  }

  private kick(): void {
    if (this.scheduled || this.len === 0 || this.busy >= this.workers) return;
    this.scheduled = true;
    this.sim.after(0, `${this.name}: process`, () => this.runOne(), 0);
  }

  // runOne gives one key to a free worker, one per engine event, so other components interleave fairly.
  private runOne(): void {
    this.scheduled = false;
    if (this.shuttingDown || this.len === 0 || this.busy >= this.workers) return;
    if (this.limiter) {
      const now = this.sim.now();
      const at = this.limiter.readyAt(now);
      if (at > now) {
        this.scheduled = true;
        this.sim.at(at, `${this.name}: process`, () => this.runOne(), 0);
        return;
      }
    }
    let key = this.queue[this.head++];
    for (let n = this.stale.get(key); n; n = this.stale.get(key)) {
      if (n === 1) this.stale.delete(key);
      else this.stale.set(key, n - 1);
      this.staleTotal--;
      key = this.queue[this.head++];
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.dirty.delete(key);
    this.processing.add(key);
    const cause = this.causes.get(key) ?? 0;
    this.causes.delete(key);
    this.busy++;
    this.sim.cause = cause;
    let sync: void | Sync = undefined;
    try {
      sync = this.process(key);
    } finally {
      this.sim.cause = 0;
      if (!sync) this.done(key);
    }
    if (sync) this.resume(key, sync, cause);
  }

  // resume runs a generator sync until it waits for a token (its worker then wakes at that time)
  // or is done.
  private resume(key: string, sync: Sync, cause: number): void {
    this.sim.cause = cause;
    let waiting = false;
    try {
      const r = sync.next();
      if (!r.done) {
        waiting = true;
        const wake: TimerHandle = this.sim.at(
          r.value,
          `${this.name}: ${key} waits for its client's token`,
          () => {
            this.waits.delete(wake);
            this.resume(key, sync, cause);
          },
          cause,
        );
        this.waits.add(wake);
      }
    } finally {
      this.sim.cause = 0;
      // A free worker takes the next key while this one waits.
      if (waiting) this.kick();
      else this.done(key);
    }
  }

  // done frees the worker of key's sync and queues key again if it changed meanwhile.
  private done(key: string): void {
    this.busy--;
    this.processing.delete(key);
    if (this.dirty.has(key)) this.queue.push(key);
    this.kick();
  }
}

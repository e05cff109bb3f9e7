// Mirrors staging/src/k8s.io/client-go/util/workqueue: a de-duplicating queue with the
// dirty/processing sets (a key is never processed by two workers at once, and a key added while
// it is processed runs again afterwards), delayed adds, and per-item exponential back-off
// (DefaultControllerRateLimiter's ItemExponentialFailureRateLimiter: 5ms doubling to 1000s).
// Simplification: the overall 10 qps / 100 burst bucket limiter is not modelled. Each key is
// processed in its own engine event, which takes no virtual time.
// Simplification: a queue given its controller's client token bucket (limiter) starts the next
// key only when that bucket has a token again. Upstream the worker blocks inside the sync, in
// the client's rate limiter, before each request; here a sync's requests go out together and the
// next sync waits for the tokens they borrowed, so the controller keeps its client's rate.
// While it waits, a key added again that is still queued moves to the back: upstream a free
// worker would already have taken its earlier change (a sync that sends nothing waits for no
// token), so the new change comes after the keys added since. Without this, a ReplicaSet created
// (and queued) before an old one was scaled down would be synced first once scaled up, and a
// rolling update would create its new Pods before deleting the old ones. Where several
// Deployments roll at once and the controller stays in debt, a new ReplicaSet's Pods can still be
// created a few tokens before an old one's are deleted (the property test checks maxSurge on the
// ReplicaSets' spec.replicas, which the Deployment controller bounds).

import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import type { TokenBucketRateLimiter } from './throttle.ts';

export interface WorkQueueOptions {
  /** name is the queue's owner, shown in agenda entries. */
  name: string;
  baseDelay?: number;
  maxDelay?: number;
  /** limiter is the controller's client token bucket: a sync starts only when it has a token. */
  limiter?: TokenBucketRateLimiter;
}

/** RateLimitingQueue runs process(key) once per distinct key added, on the virtual clock. */
export class RateLimitingQueue {
  private readonly sim: Simulation;
  private readonly process: (key: string) => void;
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
  shuttingDown = false;

  constructor(sim: Simulation, opts: WorkQueueOptions, process: (key: string) => void) {
    this.sim = sim;
    this.name = opts.name;
    this.baseDelay = opts.baseDelay ?? 5;
    this.maxDelay = opts.maxDelay ?? 1_000_000;
    this.limiter = opts.limiter;
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
  }

  private kick(): void {
    if (this.scheduled || this.len === 0) return;
    this.scheduled = true;
    this.sim.after(0, `${this.name}: process`, () => this.runOne(), 0);
  }

  // runOne processes one key per engine event, so other components interleave fairly.
  private runOne(): void {
    this.scheduled = false;
    if (this.shuttingDown || this.len === 0) return;
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
    this.sim.cause = cause;
    try {
      this.process(key);
    } finally {
      this.sim.cause = 0;
      this.processing.delete(key);
      if (this.dirty.has(key)) this.queue.push(key);
      this.kick();
    }
  }
}

// Mirrors pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go (see "Simplification:"
// notes): the per-zone RateLimitedTimedQueue that paces NoExecute tainting, with the token-bucket
// limiter it is built on (client-go util/flowcontrol NewTokenBucketRateLimiter, burst 1).

/** NodeEvictionPeriod is how often doNoExecuteTaintingPass runs upstream (100ms). */
export const NodeEvictionPeriod = 100;
/** EvictionRateLimiterBurst is the burst of every eviction rate limiter. */
export const EvictionRateLimiterBurst = 1;

/** TimedValue is a node name to be processed at processAt (virtual ms). */
export interface TimedValue {
  value: string;
  uid: string;
  addedAt: number;
  processAt: number;
}

/** RateLimiter is flowcontrol.RateLimiter reduced to what the queue uses. */
export interface RateLimiter {
  readonly qps: number;
  /** tryAccept takes a token if one is available at now. */
  tryAccept(now: number): boolean;
  /** nextTokenAt is the earliest time a token is available (Infinity for a limiter that never allows). */
  nextTokenAt(): number;
}

/**
 * TokenBucketRateLimiter mirrors flowcontrol.NewTokenBucketRateLimiter(qps, 1). With a burst of
 * one the bucket holds a token exactly when 1/qps seconds have passed since the last one was
 * taken, so the state is the time of the last take; a new limiter starts full. Keeping a time
 * instead of a fractional token count keeps the arithmetic exact (10s at 0.1 qps, not 9.999s).
 */
export class TokenBucketRateLimiter implements RateLimiter {
  readonly qps: number;
  private lastTaken = -Infinity;

  constructor(qps: number) {
    this.qps = qps;
  }

  tryAccept(now: number): boolean {
    if (now < this.nextTokenAt()) return false;
    this.lastTaken = now;
    return true;
  }

  nextTokenAt(): number {
    return this.lastTaken + 1000 / this.qps;
  }
}

/** NeverRateLimiter mirrors flowcontrol.NewFakeNeverRateLimiter: QPS 0, nothing is ever accepted. */
export class NeverRateLimiter implements RateLimiter {
  readonly qps = 0;
  tryAccept(): boolean {
    return false;
  }
  nextTokenAt(): number {
    return Infinity;
  }
}

interface Entry extends TimedValue {
  seq: number;
}

/**
 * RateLimitedTimedQueue mirrors scheduler.RateLimitedTimedQueue: a unique queue of node names
 * ordered by processAt, drained by try() no faster than its limiter allows. A value processed
 * successfully stays in the set (so add() refuses it) until remove() is called, as upstream's
 * UniqueQueue.RemoveFromQueue keeps it.
 * Simplification: entries with equal processAt come out in insertion order (Go's heap leaves the
 * order of ties unspecified).
 */
export class RateLimitedTimedQueue {
  private limiter: RateLimiter;
  private readonly queue = new Map<string, Entry>();
  private readonly set = new Set<string>();
  private seq = 0;

  constructor(limiter: RateLimiter) {
    this.limiter = limiter;
  }

  get qps(): number {
    return this.limiter.qps;
  }

  get length(): number {
    return this.queue.size;
  }

  /** add queues value for processing now, unless it is already in the set. Returns true if added. */
  add(value: string, uid: string, now: number): boolean {
    if (this.set.has(value)) return false;
    this.queue.set(value, { value, uid, addedAt: now, processAt: now, seq: ++this.seq });
    this.set.add(value);
    return true;
  }

  /** remove drops value from the queue and the set, so that it may be added again. */
  remove(value: string): boolean {
    if (!this.set.has(value)) return false;
    this.set.delete(value);
    this.queue.delete(value);
    return true;
  }

  /** head is the entry with the lowest processAt. */
  head(): TimedValue | undefined {
    let best: Entry | undefined;
    for (const e of this.queue.values())
      if (
        !best ||
        e.processAt < best.processAt ||
        (e.processAt === best.processAt && e.seq < best.seq)
      )
        best = e;
    return best;
  }

  /**
   * try mirrors RateLimitedTimedQueue.Try: while the head is due and the limiter grants a token,
   * call fn; fn returns [true] when done (the value leaves the queue but stays in the set) or
   * [false, wait] to retry after wait ms. As upstream, a token is taken before the head's
   * processAt is checked.
   */
  try(now: number, fn: (v: TimedValue) => [boolean, number]): void {
    let head = this.head() as Entry | undefined;
    while (head) {
      if (!this.limiter.tryAccept(now)) break;
      if (now < head.processAt) break;
      const [ok, wait] = fn(head);
      if (!ok) head.processAt = now + wait;
      else this.queue.delete(head.value);
      head = this.head() as Entry | undefined;
    }
  }

  /**
   * swapLimiter mirrors SwapLimiter: a new token bucket at newQPS (a never-limiter at 0), drained
   * at once if the old limiter had no token left.
   */
  swapLimiter(newQPS: number, now: number): void {
    if (this.limiter.qps === newQPS) return;
    if (newQPS <= 0) {
      this.limiter = new NeverRateLimiter();
      return;
    }
    const next = new TokenBucketRateLimiter(newQPS);
    if (!this.limiter.tryAccept(now)) next.tryAccept(now);
    this.limiter = next;
  }

  /** nextAttemptAt is when try() could next make progress, or undefined if never. */
  nextAttemptAt(): number | undefined {
    const head = this.head();
    if (!head) return undefined;
    const t = this.limiter.nextTokenAt();
    if (t === Infinity) return undefined;
    return Math.max(t, head.processAt);
  }
}

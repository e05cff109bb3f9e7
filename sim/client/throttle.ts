// Mirrors staging/src/k8s.io/client-go/util/flowcontrol/throttle.go (tokenBucketRateLimiter over
// golang.org/x/time/rate.Limiter): a bucket of `burst` tokens refilled at `qps` per second; every
// request takes one, and a request that finds the bucket empty waits until its token has been
// refilled. The clock is the engine's virtual clock, so the waits are deterministic.

/**
 * TokenBucketRateLimiter is one client's bucket (client-go builds one per clientset from
 * rest.Config's QPS and Burst). Its state is as rate.Limiter keeps it: the tokens at the time of
 * the last reservation, which may be negative when requests are waiting for tokens not yet refilled.
 */
export class TokenBucketRateLimiter {
  readonly qps: number;
  readonly burst: number;
  private tokens: number;
  private last = 0;
  private started = false;
  /** throttled counts the requests that had to wait, waitedMs the virtual time they waited. */
  throttled = 0;
  waitedMs = 0;

  constructor(qps: number, burst: number) {
    if (!(qps > 0)) throw new Error(`qps must be above 0, got ${qps}`);
    if (!(burst >= 1)) throw new Error(`burst must be at least 1, got ${burst}`);
    this.qps = qps;
    this.burst = burst;
    this.tokens = burst;
  }

  // tokensAt is rate.Limiter.advance: the tokens refilled by now, capped at burst.
  private tokensAt(now: number): number {
    if (!this.started) return this.tokens;
    const elapsed = Math.max(0, now - this.last);
    return Math.min(this.burst, this.tokens + (elapsed * this.qps) / 1000);
  }

  /**
   * reserve takes a token for a request made at now (virtual ms) and returns the time at which the
   * request may go: now when a token is there, else when the refill reaches it (rate.Limiter's
   * Reserve; throttle.go's Wait sleeps for the difference). Times are whole milliseconds, rounded up.
   */
  reserve(now: number): number {
    const tokens = this.tokensAt(now) - 1;
    this.tokens = tokens;
    this.last = Math.max(now, this.last);
    this.started = true;
    if (tokens >= 0) return now;
    const at = Math.ceil(now + (-tokens * 1000) / this.qps);
    this.throttled++;
    this.waitedMs += at - now;
    return at;
  }

  /** tryAccept mirrors TryAccept: take a token only if one is there now. */
  tryAccept(now: number): boolean {
    if (this.tokensAt(now) < 1) return false;
    this.reserve(now);
    return true;
  }

  /** readyAt is the earliest time at which a request would get a token without waiting. */
  readyAt(now: number): number {
    const tokens = this.tokensAt(now);
    if (tokens >= 1) return now;
    return Math.ceil(now + ((1 - tokens) * 1000) / this.qps);
  }
}

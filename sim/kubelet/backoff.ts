// Mirrors staging/src/k8s.io/client-go/util/flowcontrol/backoff.go as the kubelet creates it
// (flowcontrol.NewBackOff(backOffPeriod, MaxContainerBackOff): no jitter). Used for crash-loop
// back-off (keyed by pod UID and container name) and image-pull back-off (pod UID and image).
// Entries are grouped by pod UID so that a deleted pod's entries go in O(1).

interface BackoffEntry {
  backoff: number;
  lastUpdate: number;
}

/** Backoff is a per-item exponential back-off on the virtual clock (ms). */
export class Backoff {
  readonly initial: number;
  readonly max: number;
  private readonly byPod = new Map<string, Map<string, BackoffEntry>>();

  constructor(initial: number, max: number) {
    this.initial = initial;
    this.max = max;
  }

  private entry(uid: string, id: string): BackoffEntry | undefined {
    return this.byPod.get(uid)?.get(id);
  }

  // hasExpired: an item that has been fine for twice the maximum is treated as new.
  private hasExpired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.max * 2;
  }

  /** get returns the current back-off duration for an item (0 if none). */
  get(uid: string, id: string): number {
    return this.entry(uid, id)?.backoff ?? 0;
  }

  /** next records a failure at eventTime: start at initial, else double up to max. */
  next(uid: string, id: string, eventTime: number, now: number): void {
    let m = this.byPod.get(uid);
    if (!m) this.byPod.set(uid, (m = new Map()));
    const e = m.get(id);
    if (!e || this.hasExpired(eventTime, e.lastUpdate))
      m.set(id, { backoff: this.initial, lastUpdate: now });
    else {
      e.backoff = Math.min(e.backoff * 2, this.max);
      e.lastUpdate = now;
    }
  }

  /** isInBackOffSince: is now within the back-off window that started at eventTime? */
  isInBackOffSince(uid: string, id: string, eventTime: number, now: number): boolean {
    const e = this.entry(uid, id);
    if (!e || this.hasExpired(eventTime, e.lastUpdate)) return false;
    return now - eventTime < e.backoff;
  }

  /** isInBackOffSinceUpdate: is eventTime within the window that started at the last update? */
  isInBackOffSinceUpdate(uid: string, id: string, eventTime: number): boolean {
    const e = this.entry(uid, id);
    if (!e || this.hasExpired(eventTime, e.lastUpdate)) return false;
    return eventTime - e.lastUpdate < e.backoff;
  }

  /** expiresAt is when the window that started at the last update ends (for scheduling a retry). */
  expiresAt(uid: string, id: string): number {
    const e = this.entry(uid, id);
    return e ? e.lastUpdate + e.backoff : 0;
  }

  /** deletePod forgets every item of a pod (the pod was deleted). */
  deletePod(uid: string): void {
    this.byPod.delete(uid);
  }

  /** clear forgets everything (the kubelet restarted). */
  clear(): void {
    this.byPod.clear();
  }
}

// Mirrors staging/src/k8s.io/client-go/tools/leaderelection (leaderelection.go, and
// resourcelock/leaselock.go for the Lease lock) as kube-scheduler and kube-controller-manager run
// it: lock kube-system/<component>, LeaseDuration 15 s, RenewDeadline 10 s, RetryPeriod 2 s.
// - acquire: tryAcquireOrRenew at once, then again every RetryPeriod × (1 + rand × 1.2)
//   (wait.JitterUntil, sliding) until it succeeds; then the Event "<identity> became leader"
//   (reason LeaderElection, type Normal, about the Lease) and OnStartedLeading;
// - renew: every RetryPeriod (wait.Until, sliding) one round of tries, the first at once and then
//   every RetryPeriod (wait.PollUntilContextTimeout), that gives up RenewDeadline after the round
//   began: then release (ReleaseOnCancel only), the Event "<identity> stopped leading", and
//   OnStoppedLeading (the components exit: "leaderelection lost");
// - tryAcquireOrRenew: a leader whose lease is still valid PUTs its renewal from the Lease it
//   last wrote (the fast path); otherwise GET the Lease (create it if NotFound), and when its
//   record changed since last seen, note the local time (observedTime). Another holder's record
//   is valid until observedTime + leaseDurationSeconds by this candidate's own clock: renewTime
//   in the object is never trusted (so clock skew between hosts does no harm). Otherwise PUT our
//   record: acquireTime kept when renewing, leaseTransitions + 1 when the holder changes.
// Any error (kube-apiserver unreachable, etcd timing out, 409 Conflict) fails the try.
// Simplification: requests take no virtual time, so a try that cannot connect fails at once
// (upstream it waits up to the lock client's timeout, RenewDeadline / 2); where a retry tick and
// RenewDeadline fall on the same instant, the deadline wins (upstream it is a race).
// Simplification: callbacks run synchronously (upstream OnStartedLeading and OnNewLeader run in
// goroutines), and Events are sent at once (upstream the broadcaster sends them asynchronously,
// so the "stopped leading" of a process that exits right after is often never written).
// Simplification: no Coordinated Leader Election (LeaseCandidate, KEP-4355; off by default).

import type { KubeObject, Lease, LeaseSpec } from '../api/types.ts';
import { isConflict, isNotFound } from '../apiserver/errors.ts';
import { formatMicroTime, formatTime, parseTime } from '../engine/clock.ts';
import type { Rng } from '../engine/rng.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import type { Client } from './client.ts';
import type { EventRecorder } from './events.ts';

/** JitterFactor scales the acquire loop's jitter (leaderelection.go). */
export const JitterFactor = 1.2;

/**
 * LeaderElectionConfig is leaderelection.LeaderElectionConfig with a Lease lock. The defaults
 * are component-base's, which kube-scheduler and kube-controller-manager keep.
 */
export interface LeaderElectionConfig {
  /** lockNamespace and lockName name the Lease: kube-system/kube-scheduler, kube-system/kube-controller-manager. */
  lockNamespace: string;
  lockName: string;
  /** identity is the holderIdentity this candidate writes: "<hostname>_<uuid>" (newLeaderElectionID). */
  identity: string;
  /** leaseDurationMs is how long a standby waits, from when it saw the record change, before taking over (15 s). */
  leaseDurationMs?: number;
  /** renewDeadlineMs is how long the leader retries a renewal before it stops leading (10 s). */
  renewDeadlineMs?: number;
  /** retryPeriodMs is the wait between tries (2 s). */
  retryPeriodMs?: number;
  /**
   * releaseOnCancel makes cancel() give the Lease up (holder "", leaseDurationSeconds 1) so that a
   * standby takes over at its next try. kube-scheduler sets it (cmd/kube-scheduler/app/options
   * makeLeaderElectionConfig); kube-controller-manager does not.
   */
  releaseOnCancel?: boolean;
}

/** LeaderCallbacks are leaderelection.LeaderCallbacks. */
export interface LeaderCallbacks {
  /** onStartedLeading is called once this candidate holds the Lease. */
  onStartedLeading(): void;
  /**
   * onStoppedLeading is called when a leader fails to renew within the renew deadline, and when
   * cancel() ends the run (upstream Run defers it, so a standby that is cancelled gets it too).
   * Never after stop().
   */
  onStoppedLeading(): void;
  /** onNewLeader is called when this candidate sees a holder other than the last one it reported. */
  onNewLeader?(identity: string): void;
}

/** LeaderElectionRecord is resourcelock.LeaderElectionRecord; times are MicroTime texts ('' for zero). */
interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaderTransitions: number;
  strategy?: string;
  preferredHolder?: string;
}

type Phase = 'new' | 'acquiring' | 'leading' | 'stopped';

/**
 * LeaderElector is one process's leader election client. A process that restarts is a new
 * LeaderElector with a new identity (upstream the uuid is drawn at every start). recorder is the
 * component's core/v1 recorder: kube-scheduler's is its broadcaster's DeprecatedNewLegacyRecorder
 * for the first profile's schedulerName (source component "default-scheduler"), and
 * kube-controller-manager's has source component "kube-controller-manager"; neither sets a host.
 */
export class LeaderElector {
  readonly identity: string;
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly callbacks: LeaderCallbacks;
  private readonly rng: Rng;
  private readonly namespace: string;
  private readonly name: string;
  private readonly leaseDuration: number;
  private readonly renewDeadline: number;
  private readonly retryPeriod: number;
  private readonly releaseOnCancel: boolean;
  private readonly what: string;

  // observedRecord, observedRawRecord and observedTime are the elector's bookkeeping: the record
  // last seen or written, its serialized form as last read, and the local time it was taken.
  private observedRecord: LeaderElectionRecord = emptyRecord();
  private observedRawRecord: string | undefined;
  private observedTime = 0;
  private reportedLeader = '';
  /** lease is the lock's Lease as last read or written (LeaseLock.lease). */
  private lease: Lease | undefined;
  private phase: Phase = 'new';
  private timer: TimerHandle | undefined;
  /** deadline ends the current renew round. */
  private deadline = 0;

  constructor(
    sim: Simulation,
    client: Client,
    recorder: EventRecorder,
    config: LeaderElectionConfig,
    callbacks: LeaderCallbacks,
  ) {
    this.sim = sim;
    this.client = client;
    this.recorder = recorder;
    this.callbacks = callbacks;
    this.identity = config.identity;
    this.namespace = config.lockNamespace;
    this.name = config.lockName;
    this.leaseDuration = config.leaseDurationMs ?? 15_000;
    this.renewDeadline = config.renewDeadlineMs ?? 10_000;
    this.retryPeriod = config.retryPeriodMs ?? 2_000;
    this.releaseOnCancel = config.releaseOnCancel ?? false;
    // NewLeaderElector's checks, with its messages.
    if (this.leaseDuration <= this.renewDeadline)
      throw new Error('leaseDuration must be greater than renewDeadline');
    if (this.renewDeadline <= JitterFactor * this.retryPeriod)
      throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
    if (this.retryPeriod < 1) throw new Error('retryPeriod must be greater than zero');
    if (!this.identity) throw new Error('Lock identity is empty');
    this.rng = sim.rng.fork(`leaderelection/${this.identity}`);
    this.what = `${client.user}: leader election ${this.namespace}/${this.name}`;
  }

  /** run starts the election: the first try is at once (in an event of its own, at this instant). */
  run(): void {
    if (this.phase !== 'new') throw new Error('LeaderElector.run: already run');
    this.phase = 'acquiring';
    this.schedule(0, () => this.acquireTry());
  }

  /** stop is the process dying: every timer stops, nothing is released and no callback runs. */
  stop(): void {
    this.phase = 'stopped';
    this.timer?.cancel();
    this.timer = undefined;
  }

  /**
   * cancel is the run's context being cancelled (the process asked to terminate): a leader
   * releases the Lease when releaseOnCancel is set and records "stopped leading"; then
   * onStoppedLeading runs, leader or not, as upstream's Run defers it.
   */
  cancel(): void {
    if (this.phase === 'new' || this.phase === 'stopped') return this.stop();
    const leading = this.phase === 'leading';
    this.stop();
    if (leading) {
      if (this.releaseOnCancel) this.release();
      this.recordEvent('stopped leading');
    }
    this.callbacks.onStoppedLeading();
  }

  /** isLeader says whether this candidate leads now (between onStartedLeading and losing). */
  isLeader(): boolean {
    return this.phase === 'leading';
  }

  /** getLeader is GetLeader: the holder last observed ('' before any). */
  getLeader(): string {
    return this.observedRecord.holderIdentity;
  }

  private schedule(delay: number, fn: () => void): void {
    this.timer = this.sim.after(delay, this.what, fn);
  }

  // acquireTry is one pass of acquire's JitterUntil loop.
  private acquireTry(): void {
    this.timer = undefined;
    if (this.phase !== 'acquiring') return;
    const succeeded = this.tryAcquireOrRenew();
    this.maybeReportTransition();
    if (!succeeded) {
      // wait.Jitter: RetryPeriod + rand × JitterFactor × RetryPeriod, after the try (sliding).
      const wait = Math.round(this.retryPeriod * (1 + this.rng.float() * JitterFactor));
      this.schedule(wait, () => this.acquireTry());
      return;
    }
    this.recordEvent('became leader');
    this.phase = 'leading';
    this.callbacks.onStartedLeading();
    // renew's wait.Until runs its first round at once.
    if (this.isLeader()) this.renewRound();
  }

  // renewRound starts one round of renew's PollUntilContextTimeout.
  private renewRound(): void {
    this.timer = undefined;
    if (this.phase !== 'leading') return;
    this.deadline = this.sim.now() + this.renewDeadline;
    this.renewTry();
  }

  // renewTry is one condition of the round: success ends the round (the next starts RetryPeriod
  // later); a failure retries RetryPeriod later unless the deadline comes first.
  private renewTry(): void {
    this.timer = undefined;
    if (this.phase !== 'leading') return;
    if (this.tryAcquireOrRenew()) {
      this.maybeReportTransition();
      this.schedule(this.retryPeriod, () => this.renewRound());
      return;
    }
    const next = this.sim.now() + this.retryPeriod;
    if (next < this.deadline) this.schedule(this.retryPeriod, () => this.renewTry());
    else this.schedule(this.deadline - this.sim.now(), () => this.lose());
  }

  // lose ends a leader's run when a renew round timed out ("failed to renew lease").
  private lose(): void {
    this.timer = undefined;
    if (this.phase !== 'leading') return;
    this.maybeReportTransition();
    this.phase = 'stopped';
    if (this.releaseOnCancel) this.release();
    this.recordEvent('stopped leading');
    this.callbacks.onStoppedLeading();
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + this.observedRecord.leaseDurationSeconds * 1000 > now;
  }

  // holds is upstream's IsLeader: the record last observed names this candidate.
  private holds(): boolean {
    return this.observedRecord.holderIdentity === this.identity;
  }

  private setObservedRecord(r: LeaderElectionRecord): void {
    this.observedRecord = r;
    this.observedTime = this.sim.now();
  }

  /** tryAcquireOrRenew acquires the Lease, or renews it when held; false when it cannot. */
  private tryAcquireOrRenew(): boolean {
    const now = formatMicroTime(this.sim.now());
    const record: LeaderElectionRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.floor(this.leaseDuration / 1000),
      acquireTime: now,
      renewTime: now,
      leaderTransitions: 0,
    };
    // 1. The fast path: a leader updates optimistically from the Lease it last wrote.
    if (this.holds() && this.isLeaseValid(this.sim.now())) {
      record.acquireTime = this.observedRecord.acquireTime;
      record.leaderTransitions = this.observedRecord.leaderTransitions;
      if (this.update(record)) {
        this.setObservedRecord(record);
        return true;
      }
    }
    // 2. Get the Lease, or create it.
    let lease: Lease;
    try {
      lease = this.client.get<Lease>('leases', this.namespace, this.name);
    } catch (e) {
      if (!isNotFound(e)) return false;
      try {
        this.lease = this.client.create<Lease>('leases', this.newLease(record), true);
      } catch {
        return false;
      }
      this.setObservedRecord(record);
      return true;
    }
    this.lease = lease;
    // 3. A record that changed since last read restarts the observed lease.
    const old = recordOf(lease.spec);
    const raw = rawRecord(old);
    if (raw !== this.observedRawRecord) {
      this.setObservedRecord(old);
      this.observedRawRecord = raw;
    }
    if (old.holderIdentity && this.isLeaseValid(this.sim.now()) && !this.holds()) return false;
    // 4. Renew (keeping acquireTime) or take over (one more transition).
    if (this.holds()) {
      record.acquireTime = old.acquireTime;
      record.leaderTransitions = old.leaderTransitions;
    } else record.leaderTransitions = old.leaderTransitions + 1;
    if (!this.update(record)) return false;
    this.setObservedRecord(record);
    return true;
  }

  // release is tryRelease: an empty holder and a one-second lease, retried on conflict.
  private release(): boolean {
    let old: Lease;
    try {
      old = this.client.get<Lease>('leases', this.namespace, this.name);
    } catch {
      return false;
    }
    this.lease = old;
    if (!this.holds()) return true;
    const now = formatMicroTime(this.sim.now());
    const record: LeaderElectionRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaderTransitions: recordOf(old.spec).leaderTransitions,
    };
    try {
      this.lease = this.client.update<Lease>('leases', this.leaseWith(record), true);
    } catch (e) {
      return isConflict(e) ? this.release() : false;
    }
    this.setObservedRecord(record);
    return true;
  }

  // update is LeaseLock.Update: PUT the Lease last read or written with the record as its spec.
  private update(record: LeaderElectionRecord): boolean {
    if (!this.lease) return false; // "lease not initialized, call get or create first"
    try {
      this.lease = this.client.update<Lease>('leases', this.leaseWith(record), true);
      return true;
    } catch {
      return false;
    }
  }

  private leaseWith(record: LeaderElectionRecord): Lease {
    const base = this.lease!;
    return { ...base, metadata: { ...base.metadata }, spec: specOf(record) };
  }

  private newLease(record: LeaderElectionRecord): Lease {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.name, namespace: this.namespace },
      spec: specOf(record),
    } as Lease;
  }

  // recordEvent is LeaseLock.RecordEvent: "<identity> <what>" about the Lease.
  private recordEvent(what: string): void {
    if (!this.lease) return;
    const subject: KubeObject = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: this.lease.metadata,
    } as KubeObject;
    this.recorder.event(subject, 'Normal', 'LeaderElection', `${this.identity} ${what}`);
  }

  private maybeReportTransition(): void {
    const holder = this.observedRecord.holderIdentity;
    if (holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    this.callbacks.onNewLeader?.(holder);
  }
}

function emptyRecord(): LeaderElectionRecord {
  return {
    holderIdentity: '',
    leaseDurationSeconds: 0,
    acquireTime: '',
    renewTime: '',
    leaderTransitions: 0,
  };
}

// recordOf is LeaseSpecToLeaderElectionRecord.
function recordOf(spec: LeaseSpec | undefined): LeaderElectionRecord {
  const s = (spec ?? {}) as LeaseSpec & { strategy?: string; preferredHolder?: string };
  const r: LeaderElectionRecord = {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: s.acquireTime ?? '',
    renewTime: s.renewTime ?? '',
    leaderTransitions: s.leaseTransitions ?? 0,
  };
  if (s.strategy) r.strategy = s.strategy;
  if (s.preferredHolder) r.preferredHolder = s.preferredHolder;
  return r;
}

// specOf is LeaderElectionRecordToLeaseSpec.
function specOf(r: LeaderElectionRecord): LeaseSpec {
  const spec: LeaseSpec & { strategy?: string; preferredHolder?: string } = {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: r.acquireTime || undefined,
    renewTime: r.renewTime || undefined,
    leaseTransitions: r.leaderTransitions,
  };
  if (r.preferredHolder) spec.preferredHolder = r.preferredHolder;
  if (r.strategy) spec.strategy = r.strategy;
  return spec;
}

// rawRecord is the record as json.Marshal writes it: the record's times are metav1.Time, so
// only their seconds count (a renewal within the same second is no change).
function rawRecord(r: LeaderElectionRecord): string {
  const t = (s: string) => (s ? formatTime(parseTime(s)) : 'null');
  return `${r.holderIdentity}\0${r.leaseDurationSeconds}\0${t(r.acquireTime)}\0${t(r.renewTime)}\0${r.leaderTransitions}\0${r.strategy ?? ''}\0${r.preferredHolder ?? ''}`;
}

/**
 * newLeaderElectionID is kube-scheduler's and kube-controller-manager's lock identity,
 * hostname + "_" + uuid.NewUUID() (a random, version 4 UUID), drawn from rng: give each
 * component on each host one stream and draw again at every process start.
 */
export function newLeaderElectionID(hostname: string, rng: Rng): string {
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  const h = hex(rng.next()) + hex(rng.next()) + hex(rng.next()) + hex(rng.next());
  const variant = '89ab'[parseInt(h[16], 16) & 3];
  return `${hostname}_${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

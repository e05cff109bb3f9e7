// Mirrors staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go as the kubelet runs
// it (pkg/kubelet/kubelet.go: nodelease.NewController with renewInterval = leaseDuration * 0.25 and
// setNodeOwnerFunc): the Lease kube-node-lease/<node> is created if missing and its renewTime is
// updated every renewInterval, jittered by 4% (wait.JitterUntil(sync, renewInterval, 0.04, ...)).
// An update reuses the last lease it wrote (no GET); on failure the controller falls back to
// ensureLease (GET, or create), retried with back-off from 200ms to 7s until it succeeds.
// The trace entries are the requests themselves.

import type { Lease, Node } from '../api/types.ts';
import { isConflict, isNotFound } from '../apiserver/errors.ts';
import type { Client } from '../client/client.ts';
import { formatMicroTime } from '../engine/clock.ts';
import type { Rng } from '../engine/rng.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';

export const NodeLeaseNamespace = 'kube-node-lease';
/** maxBackoff is the lease controller's cap on ensureLease retries. */
const maxBackoff = 7_000;
/** renewJitter is the JitterUntil factor. */
const renewJitter = 0.04;

export interface NodeLeaseOptions {
  nodeName: string;
  leaseDurationSeconds: number;
  renewInterval: number;
  /** node returns the Node as last seen, for the owner reference (setNodeOwnerFunc). */
  node: () => Node | undefined;
}

/** NodeLeaseController renews one node's Lease. */
export class NodeLeaseController {
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly rng: Rng;
  private readonly opts: NodeLeaseOptions;
  /**
   * renewWhat names the renewal event and renew is its callback (both made once: the loop
   * schedules one every 10 s).
   */
  private readonly renewWhat: string;
  private readonly renew: () => void;
  private latestLease: Lease | undefined;
  private timer: TimerHandle | undefined;
  private ensureSleep = 100;
  private stopped = true;

  constructor(sim: Simulation, client: Client, rng: Rng, opts: NodeLeaseOptions) {
    this.sim = sim;
    this.client = client;
    this.rng = rng;
    this.opts = opts;
    this.renewWhat = `${client.user}: renew lease`;
    const renew = () => this.sync();
    this.renew = renew;
  }

  /** start syncs now, then every renewInterval (jittered); firstDelay offsets the loop's phase. */
  start(firstDelay = 0): void {
    this.stopped = false;
    this.schedule(firstDelay);
  }

  /** stop ends the loop; the last lease is forgotten with the process's memory. */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.latestLease = undefined;
    this.ensureSleep = 100;
  }

  /** lease returns the last lease written (for tests). */
  get lease(): Lease | undefined {
    return this.latestLease;
  }

  private schedule(delay: number): void {
    this.timer?.cancel();
    this.timer = this.sim.after(delay, this.renewWhat, this.renew);
  }

  private jittered(): number {
    return Math.round(this.opts.renewInterval * (1 + renewJitter * this.rng.float()));
  }

  // sync mirrors controller.sync: update from the last lease, else ensure and then update.
  private sync(): void {
    this.timer = undefined;
    if (this.stopped) return;
    if (this.latestLease && this.retryUpdateLease(this.latestLease))
      return this.schedule(this.jittered());
    this.ensureAndUpdate();
  }

  // ensureAndUpdate is backoffEnsureLease followed by the first update.
  private ensureAndUpdate(): void {
    if (this.stopped) return;
    const r = this.ensureLease();
    if (!r) {
      this.ensureSleep = Math.min(this.ensureSleep * 2, maxBackoff);
      this.timer = this.sim.after(this.ensureSleep, `${this.client.user}: ensure lease`, () => {
        this.timer = undefined;
        this.ensureAndUpdate();
      });
      return;
    }
    this.ensureSleep = 100;
    this.latestLease = r.lease;
    if (!r.created) this.retryUpdateLease(r.lease);
    this.schedule(this.jittered());
  }

  // ensureLease mirrors controller.ensureLease: GET, or create when absent.
  private ensureLease(): { lease: Lease; created: boolean } | undefined {
    if (!this.client.reachable()) return undefined;
    try {
      return {
        lease: this.client.get<Lease>('leases', NodeLeaseNamespace, this.opts.nodeName),
        created: false,
      };
    } catch (e) {
      if (!isNotFound(e)) return undefined;
    }
    try {
      return {
        lease: this.client.create<Lease>('leases', this.newLease(undefined), true),
        created: true,
      };
    } catch {
      return undefined;
    }
  }

  // retryUpdateLease mirrors controller.retryUpdateLease. Simplification: one try instead of five
  // (maxUpdateRetries); a conflict re-ensures once.
  private retryUpdateLease(base: Lease): boolean {
    if (!this.client.reachable()) return false;
    try {
      this.latestLease = this.client.update<Lease>('leases', this.newLease(base), true);
      return true;
    } catch (e) {
      if (!isConflict(e)) return false;
    }
    const r = this.ensureLease();
    if (!r) return false;
    this.latestLease = r.lease;
    if (r.created) return true;
    try {
      this.latestLease = this.client.update<Lease>('leases', this.newLease(r.lease), true);
      return true;
    } catch {
      return false;
    }
  }

  // newLease mirrors controller.newLease: holder, duration, renewTime now, owner reference to the Node.
  // A renewal copies only what it changes (base is the stored Lease, which is never mutated).
  private newLease(base: Lease | undefined): Lease {
    // The spec is built in one literal (the fields keep base's order, new ones come last).
    const spec: Lease['spec'] = {
      ...base?.spec,
      holderIdentity: this.opts.nodeName,
      leaseDurationSeconds: this.opts.leaseDurationSeconds,
      renewTime: formatMicroTime(this.sim.now()),
    };
    const lease: Lease = base
      ? { ...base, metadata: { ...base.metadata }, spec }
      : ({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.opts.nodeName, namespace: NodeLeaseNamespace },
          spec,
        } as Lease);
    // The Node is looked up only while the Lease has no owner yet (its first renewals): at scale
    // each lookup is a walk through another component's cold memory, on every renewal.
    if (lease.metadata.ownerReferences?.length) return lease;
    const node = this.opts.node();
    if (node?.metadata.uid)
      lease.metadata.ownerReferences = [
        { apiVersion: 'v1', kind: 'Node', name: node.metadata.name, uid: node.metadata.uid },
      ];
    return lease;
  }
}

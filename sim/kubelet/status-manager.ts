// Mirrors pkg/kubelet/status/status_manager.go: the kubelet's cache of the status it wants each pod
// to have, and the only writer of pods/status from the node. SetPodStatus stores the status and
// syncs the pod at once; a sync that cannot reach kube-apiserver is retried by syncBatch every 10s.
// When a pod is being deleted and its containers are gone (canBeDeleted), the manager deletes it
// with gracePeriodSeconds 0 and a UID precondition, which is what finally removes a Terminating pod.
// Simplification: the base for the patch is the newest pod the kubelet knows (its informer or its
// own last response) rather than a GET before every patch, as upstream does.

import { deepEqual } from '../api/clone.ts';
import type { Pod, PodStatus } from '../api/types.ts';
import { isConflict, isNotFound, StatusError } from '../apiserver/errors.ts';
import type { Client } from '../client/client.ts';
import type { Lister } from '../client/informer.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import { createMergePatch } from './merge-patch.ts';
import { mergePodStatus, needsReconcile } from './pod-status.ts';

/** syncPeriod is status_manager.go's syncPeriod. */
export const statusSyncPeriod = 10_000;

interface Entry {
  uid: string;
  namespace: string;
  name: string;
  /** key is the pod's informer cache key (namespace/name), made once. */
  key: string;
  /** desired is the status the kubelet last generated. */
  desired: PodStatus | undefined;
  /** known is the newest pod object seen (informer or own response). */
  known: Pod | undefined;
  /** canDelete: the pod worker has stopped every container and the sandbox. */
  canDelete: boolean;
  deleteSent: boolean;
}

function rv(p: Pod | undefined): number {
  return p ? Number(p.metadata.resourceVersion) || 0 : -1;
}

/** isConnectionError is true when kube-apiserver could not be reached at all. */
export function isConnectionError(e: unknown): boolean {
  return e instanceof StatusError && e.code === 0;
}

/**
 * sharedWithStored is desired with the lists the status patch just wrote taken from the stored
 * status, where they are equal: kube-apiserver keeps its own copy of what it is sent, so the
 * kubelet need not hold a second copy of every pod's conditions and container statuses. The
 * stored lists are copies of the patch's, in the same key order, and read-only, so the status
 * compares, merges and patches exactly as before.
 */
function sharedWithStored(
  desired: PodStatus,
  patch: Record<string, unknown>,
  stored: PodStatus | undefined,
): PodStatus {
  if (!stored) return desired;
  const d = desired as Record<string, unknown>;
  const s = stored as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k in patch) {
    const v = d[k];
    const w = s[k];
    if (v === w || typeof v !== 'object' || v === null || !deepEqual(v, w)) continue;
    // The copy keeps desired's keys in their order.
    out ??= { ...d };
    out[k] = w;
  }
  return (out as PodStatus | undefined) ?? desired;
}

/** StatusManager writes pod statuses for one kubelet. */
export class StatusManager {
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly pods: Lister<Pod>;
  private readonly entries = new Map<string, Entry>();
  private readonly dirty = new Set<string>();
  private batch: TimerHandle | undefined;
  private stopped = false;

  constructor(sim: Simulation, client: Client, pods: Lister<Pod>) {
    this.sim = sim;
    this.client = client;
    this.pods = pods;
  }

  /** stop drops all state (the kubelet process exited). */
  stop(): void {
    this.stopped = true;
    this.batch?.cancel();
    this.batch = undefined;
    this.entries.clear();
    this.dirty.clear();
  }

  private entryFor(pod: Pod): Entry {
    let e = this.entries.get(pod.metadata.uid);
    if (!e) {
      const namespace = pod.metadata.namespace ?? 'default';
      e = {
        uid: pod.metadata.uid,
        namespace,
        name: pod.metadata.name,
        key: namespace ? `${namespace}/${pod.metadata.name}` : pod.metadata.name,
        desired: undefined,
        known: undefined,
        canDelete: false,
        deleteSent: false,
      };
      this.entries.set(e.uid, e);
    }
    if (rv(pod) > rv(e.known)) e.known = pod;
    return e;
  }

  /** latestPod returns the newest object known for a pod UID (never mutate it). */
  latestPod(uid: string, fallback?: Pod): Pod | undefined {
    const e = this.entries.get(uid);
    let best = e?.known ?? fallback;
    // An entry has the cache key at hand; otherwise it is made from the fallback.
    const cached = e
      ? this.pods.getByKey(e.key)
      : fallback?.metadata.name !== undefined
        ? this.pods.get(fallback.metadata.namespace, fallback.metadata.name)
        : undefined;
    if (cached && cached.metadata.uid === uid && rv(cached) > rv(best)) best = cached;
    return best;
  }

  /** getPodStatus returns the status the kubelet last decided for a pod. */
  getPodStatus(uid: string): PodStatus | undefined {
    return this.entries.get(uid)?.desired;
  }

  /** setPodStatus records the status the kubelet wants and syncs the pod now. */
  setPodStatus(pod: Pod, status: PodStatus): void {
    const e = this.entryFor(pod);
    if (e.desired && deepEqual(e.desired, status)) return;
    e.desired = status;
    this.syncPod(e);
  }

  /**
   * assumePodStatus records a status as already reported, without a request: used for pods adopted
   * as already running at bootstrap, whose API status the bootstrap wrote.
   */
  assumePodStatus(pod: Pod, status: PodStatus): void {
    this.entryFor(pod).desired = status;
  }

  /** markCanBeDeleted says the pod's containers and sandbox are gone; a deleted pod may now go. */
  markCanBeDeleted(pod: Pod): void {
    const e = this.entryFor(pod);
    e.canDelete = true;
    this.syncPod(e);
  }

  /** onPodUpdate feeds the informer's view in; someone else's status write is reconciled. */
  onPodUpdate(pod: Pod): void {
    const e = this.entries.get(pod.metadata.uid);
    if (!e) return;
    // The echo of the kubelet's own write needs no reconciling.
    if (pod === e.known || rv(pod) <= rv(e.known)) return;
    e.known = pod;
    if (e.desired && needsReconcile(pod.status, mergePodStatus(pod.status, e.desired)))
      this.syncPod(e);
    else if (e.canDelete && pod.metadata.deletionTimestamp && !e.deleteSent) this.syncPod(e);
  }

  /** removePod forgets a pod that is gone from the API. */
  removePod(uid: string): void {
    this.entries.delete(uid);
    this.dirty.delete(uid);
  }

  private markDirty(e: Entry): void {
    this.dirty.add(e.uid);
    if (!this.batch && !this.stopped)
      this.batch = this.sim.after(statusSyncPeriod, `${this.client.user}: status syncBatch`, () =>
        this.syncBatch(),
      );
  }

  // syncBatch mirrors status_manager.go syncBatch: retry every pod whose status is not yet written.
  private syncBatch(): void {
    this.batch = undefined;
    const uids = [...this.dirty];
    this.dirty.clear();
    for (const uid of uids) {
      const e = this.entries.get(uid);
      if (e) this.syncPod(e);
    }
  }

  // syncPod mirrors status_manager.go syncPod: patch the status if it differs, then delete the pod
  // if it is being deleted and the kubelet has finished with it.
  private syncPod(e: Entry): void {
    if (this.stopped) return;
    if (!this.client.reachable()) return this.markDirty(e);
    let pod = this.latestPod(e.uid);
    try {
      if (!pod) {
        pod = this.client.get<Pod>('pods', e.namespace, e.name);
        e.known = pod;
      }
      if (pod.metadata.uid !== e.uid) return this.removePod(e.uid);
      for (let attempt = 0; e.desired && attempt < 3; attempt++) {
        const merged = mergePodStatus(pod.status, e.desired);
        const patch = createMergePatch(pod.status, merged);
        if (!patch) break;
        try {
          // The patch's values are desired's, which is replaced, never changed: handed off.
          pod = this.client.patch<Pod>(
            'pods',
            e.namespace,
            e.name,
            { status: patch },
            'status',
            undefined,
            true,
          );
          e.known = pod;
          e.desired = sharedWithStored(e.desired, patch, pod.status);
          break;
        } catch (err) {
          if (!isConflict(err)) throw err;
          pod = this.client.get<Pod>('pods', e.namespace, e.name);
          e.known = pod;
          if (pod.metadata.uid !== e.uid) return this.removePod(e.uid);
        }
      }
      if (e.canDelete && pod.metadata.deletionTimestamp && !e.deleteSent) {
        e.deleteSent = true;
        this.client.delete('pods', e.namespace, e.name, {
          gracePeriodSeconds: 0,
          preconditions: { uid: e.uid },
        });
      }
    } catch (err) {
      if (isNotFound(err)) return this.removePod(e.uid);
      if (isConflict(err)) return this.removePod(e.uid); // UID precondition: a new pod took the name
      e.deleteSent = false;
      this.markDirty(e);
    }
  }

  /** pendingCount is how many pods have a status not yet written (for tests and summaries). */
  get pendingCount(): number {
    return this.dirty.size;
  }
}

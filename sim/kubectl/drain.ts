// Mirrors staging/src/k8s.io/kubectl/pkg/drain/drain.go and filters.go (drain.Helper:
// GetPodsForDeletion, DeleteOrEvictPods, evictPods, deletePods, waitForDelete) and the per-node
// part of pkg/cmd/drain/drain.go (deleteOrEvictPodsSimple, onPodDeletionOrEvictionFinished).
// kubectl lists the node's Pods, filters them, then for each Pod POSTs a policy/v1 Eviction to
// pods/<name>/eviction, retrying every 5 s while kube-apiserver answers 429 (a
// PodDisruptionBudget allows no disruption), and polls each Pod every second until it is gone.
// Simplification: upstream runs one goroutine per Pod; the simulator steps them in Pod order at
// each instant (every "evicting pod" line of an instant comes before its evictions' outcomes).
// Simplification: kubectl waits in virtual time through DrainIO.sleep, which runs the cluster
// meanwhile; a context without it (unit tests with a bare kube-apiserver) does not wait, and
// counts a Pod as evicted once its eviction is accepted.

import type { AnyObject, DaemonSet, Pod } from '../api/types.ts';

/** DrainClient is what drain needs from kubectl's client (see KubectlClient). */
export interface DrainClient {
  get<T extends AnyObject>(resource: 'pods' | 'daemonsets', namespace: string, name: string): T;
  list<T extends AnyObject>(resource: 'pods', opts: { fieldSelector: string }): { items: T[] };
  delete(
    resource: 'pods',
    namespace: string,
    name: string,
    opts: { gracePeriodSeconds?: number },
  ): unknown;
  evict?(eviction: {
    apiVersion: 'policy/v1';
    kind: 'Eviction';
    metadata: { name: string; namespace: string };
    deleteOptions: { gracePeriodSeconds?: number };
  }): void;
}

/** DrainIO is where drain writes and how it waits. */
export interface DrainIO {
  client: DrainClient;
  out(s: string): void;
  err(s: string): void;
  /** warn prints a warning as kubectl's WarningPrinter does ("Warning: ..."). */
  warn(s: string): void;
  /** now is the virtual time in ms. */
  now(): number;
  /** sleep lets ms of virtual time pass (the cluster runs meanwhile); absent, drain does not wait. */
  sleep?(ms: number): void;
}

/** DrainOptions are drain.Helper's fields that the command's flags set. */
export interface DrainOptions {
  force: boolean;
  ignoreAllDaemonSets: boolean;
  deleteEmptyDirData: boolean;
  /** gracePeriodSeconds is --grace-period; -1 keeps each Pod's own. */
  gracePeriodSeconds: number;
  /** timeoutMs is --timeout; 0 waits without end (see maxWaitMs). */
  timeoutMs: number;
  disableEviction: boolean;
}

/** EvictErrorRetryDelay is how long kubectl waits after a 429 before evicting again (5 s). */
export const EvictErrorRetryDelay = 5000;

/**
 * maxWaitMs bounds a drain given no --timeout.
 * Simplification: upstream then waits forever (until interrupted); the simulator stops after
 * 10 virtual minutes as if --timeout=10m had been given, so that a budget that never allows a
 * disruption cannot hang a run.
 */
export const maxWaitMs = 10 * 60 * 1000;

const daemonSetFatal = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
const daemonSetWarning = 'ignoring DaemonSet-managed Pods';
const localStorageFatal = 'Pods with local storage (use --delete-emptydir-data to override)';
const localStorageWarning = 'deleting Pods with local storage';
const unmanagedFatal = 'Pods that declare no controller (use --force to override)';
const unmanagedWarning = 'deleting Pods that declare no controller';

interface PodDeleteStatus {
  delete: boolean;
  reason: 'Okay' | 'Skip' | 'Warning' | 'Error';
  message?: string;
}

/** PodDelete is a Pod and what the filters decided about it. */
export interface PodDelete {
  pod: Pod;
  status: PodDeleteStatus;
}

interface StatusLike {
  status: { code: number; reason: string; message: string };
}

function isStatus(e: unknown): e is StatusLike {
  return (
    typeof e === 'object' &&
    e !== null &&
    'status' in e &&
    typeof (e as StatusLike).status?.reason === 'string'
  );
}

function reasonOf(e: unknown): string | undefined {
  return isStatus(e) ? e.status.reason : undefined;
}

function messageOf(e: unknown): string {
  return isStatus(e) ? e.status.message : (e as Error).message;
}

const okay: PodDeleteStatus = { delete: true, reason: 'Okay' };

function finished(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

function controllerOf(pod: Pod) {
  return (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
}

/** hasLocalStorage mirrors hasLocalStorage: any emptyDir volume. */
function hasLocalStorage(pod: Pod): boolean {
  const volumes = (pod.spec as { volumes?: { emptyDir?: unknown }[] }).volumes ?? [];
  return volumes.some((v) => v.emptyDir !== undefined && v.emptyDir !== null);
}

/** makeFilters mirrors makeFilters: skipDeleted, daemonSet, mirrorPod, localStorage, unreplicated. */
function makeFilters(io: DrainIO, o: DrainOptions): ((pod: Pod) => PodDeleteStatus)[] {
  return [
    // skipDeletedFilter: --skip-wait-for-delete-timeout is not offered, so it never skips.
    () => okay,
    (pod) => {
      const ref = controllerOf(pod);
      if (!ref || ref.kind !== 'DaemonSet' || ref.apiVersion !== 'apps/v1') return okay;
      if (finished(pod)) return okay;
      try {
        io.client.get<DaemonSet>('daemonsets', pod.metadata.namespace ?? '', ref.name);
      } catch (e) {
        if (reasonOf(e) === 'NotFound' && o.force)
          return { delete: true, reason: 'Warning', message: messageOf(e) };
        return { delete: false, reason: 'Error', message: messageOf(e) };
      }
      if (!o.ignoreAllDaemonSets)
        return { delete: false, reason: 'Error', message: daemonSetFatal };
      return { delete: false, reason: 'Warning', message: daemonSetWarning };
    },
    (pod) =>
      pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined
        ? { delete: false, reason: 'Skip' }
        : okay,
    (pod) => {
      if (!hasLocalStorage(pod) || finished(pod)) return okay;
      if (!o.deleteEmptyDirData)
        return { delete: false, reason: 'Error', message: localStorageFatal };
      return { delete: true, reason: 'Warning', message: localStorageWarning };
    },
    (pod) => {
      if (finished(pod) || controllerOf(pod)) return okay;
      if (o.force) return { delete: true, reason: 'Warning', message: unmanagedWarning };
      return { delete: false, reason: 'Error', message: unmanagedFatal };
    },
  ];
}

/**
 * getPodsForDeletion mirrors GetPodsForDeletion: list the node's Pods (fieldSelector
 * spec.nodeName) and run the filters; errors are "cannot delete <message>: <pods>" per message.
 */
export function getPodsForDeletion(
  io: DrainIO,
  o: DrainOptions,
  node: string,
): { list: PodDelete[]; errors: string[] } {
  const pods = io.client.list<Pod>('pods', { fieldSelector: `spec.nodeName=${node}` }).items;
  const filters = makeFilters(io, o);
  const list: PodDelete[] = [];
  for (const pod of pods) {
    let status = okay;
    for (const f of filters) {
      status = f(pod);
      if (!status.delete) break;
    }
    list.push({ pod, status });
  }
  return {
    list,
    errors: grouped(list, 'Error').map((g) => `cannot delete ${g.message}: ${g.pods.join(', ')}`),
  };
}

// grouped collects the Pods of one reason by message, in first-seen order.
// Simplification: upstream ranges over a Go map, whose order varies between runs.
function grouped(
  list: PodDelete[],
  reason: 'Warning' | 'Error',
): { message: string; pods: string[] }[] {
  const groups: { message: string; pods: string[] }[] = [];
  for (const p of list) {
    if (p.status.reason !== reason) continue;
    const message = p.status.message || 'unexpected error';
    let g = groups.find((x) => x.message === message);
    if (!g) groups.push((g = { message, pods: [] }));
    g.pods.push(`${p.pod.metadata.namespace}/${p.pod.metadata.name}`);
  }
  return groups;
}

/** warnings mirrors PodDeleteList.Warnings. */
export function warnings(list: PodDelete[]): string {
  return grouped(list, 'Warning')
    .map((g) => `${g.message}: ${g.pods.join(', ')}`)
    .join('; ');
}

/** goDuration formats milliseconds as Go's time.Duration String does (1m0s, 30s, 1h0m0s). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const s = ms / 1000;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s - h * 3600 - m * 60;
  const secText = `${Number.isInteger(sec) ? sec : Number(sec.toFixed(9))}s`;
  if (h > 0) return `${h}h${m}m${secText}`;
  if (m > 0) return `${m}m${secText}`;
  return secText;
}

interface Worker {
  pod: Pod;
  /** state: evicting (or about to evict again), waiting for the Pod to go, or done. */
  state: 'evict' | 'wait' | 'done';
  wakeAt: number;
  /** retried says the Pod is re-read (GET) before its next eviction, as after a 429. */
  retried: boolean;
}

/**
 * deleteOrEvictPods mirrors DeleteOrEvictPods: evictPods unless --disable-eviction, else
 * deletePods. It returns the errors (an aggregate's items), empty when every Pod is gone.
 */
export function deleteOrEvictPods(io: DrainIO, o: DrainOptions, pods: Pod[]): string[] {
  if (pods.length === 0) return [];
  const start = io.now();
  const globalTimeout = o.timeoutMs > 0 ? o.timeoutMs : maxWaitMs;
  const deadline = start + globalTimeout;
  const deleteOptions =
    o.gracePeriodSeconds >= 0 ? { gracePeriodSeconds: o.gracePeriodSeconds } : {};
  const useEviction = !o.disableEviction && io.client.evict !== undefined;
  const errors: string[] = [];
  const printDone = (pod: Pod) =>
    io.out(`pod/${pod.metadata.name} ${useEviction ? 'evicted' : 'deleted'}\n`);
  const gone = (pod: Pod): boolean => {
    try {
      const p = io.client.get<Pod>('pods', pod.metadata.namespace ?? '', pod.metadata.name);
      return p.metadata.uid !== pod.metadata.uid;
    } catch (e) {
      if (reasonOf(e) === 'NotFound') return true;
      throw e;
    }
  };

  if (!useEviction) {
    // deletePods: delete all, then one waitForDelete over them all.
    for (const pod of pods) {
      try {
        io.client.delete('pods', pod.metadata.namespace ?? '', pod.metadata.name, deleteOptions);
      } catch (e) {
        if (reasonOf(e) !== 'NotFound') return [messageOf(e)];
      }
    }
    let pending = pods;
    for (;;) {
      pending = pending.filter((pod) => {
        if (!io.sleep || gone(pod)) {
          printDone(pod);
          return false;
        }
        return true;
      });
      if (pending.length === 0) return [];
      if (io.now() + 1000 > deadline) {
        io.sleep!(deadline - io.now());
        return ['context deadline exceeded'];
      }
      io.sleep!(1000);
    }
  }

  const workers: Worker[] = pods.map((pod) => ({
    pod,
    state: 'evict',
    wakeAt: start,
    retried: false,
  }));
  for (;;) {
    const now = io.now();
    const due = workers.filter((w) => w.state !== 'done' && w.wakeAt <= now);
    // Every due eviction announces itself first, as the goroutines all print before the calls return.
    const evicting: Worker[] = [];
    for (const w of due) {
      if (w.state !== 'evict') continue;
      if (w.retried) {
        try {
          w.pod = io.client.get<Pod>('pods', w.pod.metadata.namespace ?? '', w.pod.metadata.name);
        } catch {
          // getPodFn's error is ignored: the last Pod seen is evicted again.
        }
      }
      io.out(`evicting pod ${w.pod.metadata.namespace}/${w.pod.metadata.name}\n`);
      evicting.push(w);
    }
    for (const w of due) {
      const { namespace = '', name } = w.pod.metadata;
      if (w.state === 'evict' && evicting.includes(w)) {
        if (now >= deadline) {
          errors.push(
            `error when evicting pods/"${name}" -n "${namespace}": global timeout reached: ${goDuration(globalTimeout)}`,
          );
          w.state = 'done';
          continue;
        }
        try {
          io.client.evict!({
            apiVersion: 'policy/v1',
            kind: 'Eviction',
            metadata: { name, namespace },
            deleteOptions,
          });
        } catch (e) {
          const reason = reasonOf(e);
          if (reason === 'NotFound') {
            w.state = 'done';
            continue;
          }
          if (reason === 'TooManyRequests') {
            io.err(
              `error when evicting pods/"${name}" -n "${namespace}" (will retry after ${goDuration(EvictErrorRetryDelay)}): ${messageOf(e)}\n`,
            );
            w.wakeAt = now + EvictErrorRetryDelay;
            w.retried = true;
            continue;
          }
          errors.push(`error when evicting pods/"${name}" -n "${namespace}": ${messageOf(e)}`);
          w.state = 'done';
          continue;
        }
        // waitForDelete polls at once, then every second.
        w.state = 'wait';
        w.wakeAt = now;
      }
      if (w.state === 'wait') {
        try {
          if (!io.sleep || gone(w.pod)) {
            printDone(w.pod);
            w.state = 'done';
          } else w.wakeAt = now + 1000;
        } catch (e) {
          io.out(`pod/${name} eviction failed\n`);
          errors.push(
            `error when waiting for pod "${name}" in namespace "${namespace}" to terminate: ${messageOf(e)}`,
          );
          w.state = 'done';
        }
      }
    }
    const live = workers.filter((w) => w.state !== 'done');
    if (live.length === 0) return errors;
    if (!io.sleep) {
      // Without a clock to wait on, a refused eviction is not retried.
      for (const w of live)
        errors.push(
          `error when evicting pods/"${w.pod.metadata.name}" -n "${w.pod.metadata.namespace}": global timeout reached: ${goDuration(globalTimeout)}`,
        );
      return errors;
    }
    const next = Math.min(...live.map((w) => w.wakeAt));
    // A waiting Pod's poll stops at the deadline (the context ends); a sleeping retry does not.
    const waiting = live.filter((w) => w.state === 'wait');
    if (waiting.length && next > deadline) {
      io.sleep(deadline - io.now());
      for (const w of waiting) {
        errors.push(
          `error when waiting for pod "${w.pod.metadata.name}" in namespace "${w.pod.metadata.namespace}" to terminate: context deadline exceeded`,
        );
        w.state = 'done';
      }
      continue;
    }
    io.sleep(next - io.now());
  }
}

/**
 * drainNode mirrors deleteOrEvictPodsSimple for one node: it returns the node's error (one
 * message, or "[a, b]" for several, as an aggregate prints) or undefined when it drained.
 */
export function drainNode(
  io: DrainIO,
  o: DrainOptions,
  node: string,
): { error?: string; errors?: string[] } {
  const { list, errors } = getPodsForDeletion(io, o, node);
  if (errors.length) return { error: aggregate(errors), errors };
  const w = warnings(list);
  if (w) io.warn(w);
  const pods = list.filter((p) => p.status.delete).map((p) => p.pod);
  const errs = deleteOrEvictPods(io, o, pods);
  if (errs.length === 0) return {};
  const err = aggregate(errs);
  const pending = getPodsForDeletion(io, o, node);
  const left = pending.list.filter((p) => p.status.delete);
  if (left.length) {
    io.err(`There are pending pods in node "${node}" when an error occurred: ${err}\n`);
    for (const p of left) io.err(`pod/${p.pod.metadata.name}\n`);
  }
  if (pending.errors.length)
    io.err(
      `Following errors occurred while getting the list of pods to delete:\n${aggregate(pending.errors)}`,
    );
  return { error: err, errors: errs };
}

/** aggregate prints errors as utilerrors.Aggregate's Error does. */
export function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

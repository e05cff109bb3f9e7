// Mirrors pkg/util/taints/taints.go (TaintExists, TaintSetDiff, AddOrUpdateTaint, RemoveTaint) and
// the node-taint writers of pkg/controller/controller_utils.go (AddOrUpdateTaintOnNode,
// RemoveTaintOffNode, PatchNodeTaints) and pkg/controller/util/node/controller_utils.go
// (SwapNodeControllerTaint), as the node lifecycle controller uses them.

import { deepEqual } from '../../api/clone.ts';
import type { Node, Taint } from '../../api/types.ts';
import { isConflict } from '../../apiserver/errors.ts';
import { StrategicMergePatchType } from '../../apiserver/patch.ts';
import type { Client } from '../../client/client.ts';
import { formatTime } from '../../engine/clock.ts';

export const TaintNodeNotReady = 'node.kubernetes.io/not-ready';
export const TaintNodeUnreachable = 'node.kubernetes.io/unreachable';
export const TaintNodeUnschedulable = 'node.kubernetes.io/unschedulable';
export const TaintNodeMemoryPressure = 'node.kubernetes.io/memory-pressure';
export const TaintNodeDiskPressure = 'node.kubernetes.io/disk-pressure';
export const TaintNodeNetworkUnavailable = 'node.kubernetes.io/network-unavailable';
export const TaintNodePIDPressure = 'node.kubernetes.io/pid-pressure';

/** matchTaint mirrors Taint.MatchTaint: same key and effect (the value is not compared). */
export function matchTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** taintExists mirrors taints.TaintExists. */
export function taintExists(taints: readonly Taint[] | undefined, t: Taint): boolean {
  return (taints ?? []).some((x) => matchTaint(x, t));
}

/** taintSetDiff mirrors taints.TaintSetDiff: taints to add (in t1 only) and to remove (in t2 only). */
export function taintSetDiff(
  t1: readonly Taint[],
  t2: readonly Taint[],
): { add: Taint[]; del: Taint[] } {
  return {
    add: t1.filter((t) => !taintExists(t2, t)),
    del: t2.filter((t) => !taintExists(t1, t)),
  };
}

// addOrUpdateTaint mirrors taints.AddOrUpdateTaint: a taint matching by key and effect is
// replaced unless identical (timeAdded included); otherwise the taint is appended.
function addOrUpdateTaint(taints: Taint[], taint: Taint): [Taint[], boolean] {
  const out: Taint[] = [];
  let updated = false;
  for (const t of taints) {
    if (matchTaint(taint, t)) {
      if (deepEqual(taint, t)) return [taints, false];
      out.push(taint);
      updated = true;
      continue;
    }
    out.push(t);
  }
  if (!updated) out.push(taint);
  return [out, true];
}

// removeTaint mirrors taints.RemoveTaint: drops every taint matching by key and effect.
function removeTaint(taints: Taint[], taint: Taint): [Taint[], boolean] {
  const out = taints.filter((t) => !matchTaint(t, taint));
  return [out, out.length !== taints.length];
}

/** UpdateTaintBackoff is retry.DefaultBackoff-like: 5 attempts on conflict. */
const UpdateTaintBackoffSteps = 5;

/**
 * patchNodeTaints mirrors controller.PatchNodeTaints (pkg/controller/controller_utils.go): the
 * strategic merge patch CreateTwoWayMergePatch makes from the node without its resourceVersion to
 * the node with the new taints, so it carries the resourceVersion (a concurrent change conflicts)
 * and the whole new taint list (spec.taints has no merge key; null when none is left).
 */
function patchNodeTaints(client: Client, node: Node, taints: Taint[]): void {
  client.patch<Node>(
    'nodes',
    undefined,
    node.metadata.name,
    {
      metadata: { resourceVersion: node.metadata.resourceVersion },
      spec: { taints: taints.length ? taints : null },
    },
    undefined,
    StrategicMergePatchType,
  );
}

// retryOnConflict mirrors clientretry.RetryOnConflict with UpdateTaintBackoff.
// Simplification: retries follow at once (upstream sleeps 100ms with jitter between them).
function retryOnConflict(fn: () => void): void {
  for (let i = 0; ; i++) {
    try {
      fn();
      return;
    } catch (e) {
      if (!isConflict(e) || i + 1 >= UpdateTaintBackoffSteps) throw e;
    }
  }
}

/**
 * addOrUpdateTaintOnNode mirrors controller.AddOrUpdateTaintOnNode: GET the node, add or update
 * the taints, and patch only if something changed. Throws the API error on failure.
 * Simplification: the first GET reads the current object (upstream asks for resourceVersion=0,
 * served from kube-apiserver's watch cache).
 */
export function addOrUpdateTaintOnNode(client: Client, nodeName: string, ...taints: Taint[]): void {
  if (taints.length === 0) return;
  retryOnConflict(() => {
    const old = client.get<Node>('nodes', undefined, nodeName);
    let list = [...(old.spec.taints ?? [])];
    let updated = false;
    for (const t of taints) {
      const [next, ok] = addOrUpdateTaint(list, t);
      list = next;
      updated ||= ok;
    }
    if (!updated) return;
    patchNodeTaints(client, old, list);
  });
}

/**
 * removeTaintOffNode mirrors controller.RemoveTaintOffNode: when node (a cached copy) carries
 * none of the taints it makes no request at all; otherwise GET, remove, patch.
 */
export function removeTaintOffNode(
  client: Client,
  nodeName: string,
  node: Node | undefined,
  ...taints: Taint[]
): void {
  if (taints.length === 0) return;
  if (node && !taints.some((t) => taintExists(node.spec.taints, t))) return;
  retryOnConflict(() => {
    const old = client.get<Node>('nodes', undefined, nodeName);
    let list = [...(old.spec.taints ?? [])];
    let updated = false;
    for (const t of taints) {
      const [next, ok] = removeTaint(list, t);
      list = next;
      updated ||= ok;
    }
    if (!updated) return;
    patchNodeTaints(client, old, list);
  });
}

/**
 * swapNodeControllerTaint mirrors controllerutil.SwapNodeControllerTaint: stamp timeAdded on the
 * taints to add, add them, then remove the others. Returns false if either write failed.
 */
export function swapNodeControllerTaint(
  client: Client,
  nowMs: number,
  add: readonly Taint[],
  remove: readonly Taint[],
  node: Node,
): boolean {
  const stamped = add.map((t) => ({ ...t, timeAdded: formatTime(nowMs) }));
  try {
    addOrUpdateTaintOnNode(client, node.metadata.name, ...stamped);
    removeTaintOffNode(client, node.metadata.name, node, ...remove);
  } catch {
    return false;
  }
  return true;
}

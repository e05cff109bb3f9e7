// Heartbeats: the writes a healthy cluster repeats every few seconds with nothing new in them, so
// a figure of a run can leave them out. Pure: (run) -> the seqs of those trace entries.
//
// - Lease renewals: kubelet's node Lease in kube-node-lease every 10 s (pkg/kubelet/nodelease),
//   and leader-election renewals, each changing only spec.renewTime.
// - Node status heartbeats: the kubelet's nodes/status patch every nodeStatusUpdateFrequency
//   (10 s) that leaves every condition's status as it was, moving only lastHeartbeatTime.

import type { Node } from '../api/types.ts';
import type { TraceEntry } from '../engine/trace.ts';
import { indexTrace } from './follow.ts';
import type { RunLike } from './util.ts';

/** readyOf summarises a Node's condition statuses ("Ready=True,MemoryPressure=False"). */
function conditionStatuses(n: Node | undefined): string {
  return (n?.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(',');
}

/**
 * heartbeatSeqs returns the seqs of heartbeat writes and of what they caused inside
 * kube-apiserver: their etcd writes and the watch events delivering them.
 */
export function heartbeatSeqs(run: RunLike): Set<number> {
  const idx = indexTrace(run.trace);
  // A node's condition statuses after each revision, from the changes (when the run has them).
  const statusAt = new Map<string, string>();
  const lastOf = new Map<string, string>();
  const beatRevisions = new Set<number>();
  for (const c of run.changes ?? []) {
    if (c.resource !== 'nodes') continue;
    const name = c.object.metadata.name;
    const now = conditionStatuses(c.object as Node);
    statusAt.set(c.object.metadata.resourceVersion ?? '', `${lastOf.get(name) ?? ''}|${now}`);
    lastOf.set(name, now);
  }
  const out = new Set<number>();
  const isBeat = (e: TraceEntry): boolean => {
    if (e.kind !== 'request' || e.code >= 300 || (e.verb !== 'update' && e.verb !== 'patch'))
      return false;
    if (e.resource === 'leases')
      return e.fields !== undefined && e.fields.length === 1 && e.fields[0] === 'spec.renewTime';
    if (e.resource !== 'nodes/status' || !e.from.startsWith('kubelet@')) return false;
    if (e.fields?.some((f) => f !== 'status.conditions')) return false;
    const s = idx.storeOf.get(e.seq);
    const pair = s ? statusAt.get(String(s.revision)) : undefined;
    if (pair === undefined) return run.changes === undefined;
    const [before, after] = pair.split('|');
    return before === after;
  };
  for (const e of run.trace) {
    if (!isBeat(e)) continue;
    out.add(e.seq);
    const s = idx.storeOf.get(e.seq);
    if (s) {
      out.add(s.seq);
      beatRevisions.add(s.revision);
    }
  }
  for (const e of run.trace)
    if (e.kind === 'watch' && beatRevisions.has(e.revision)) out.add(e.seq);
  return out;
}

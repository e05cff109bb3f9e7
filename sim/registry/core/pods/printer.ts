// Mirrors pkg/printers/internalversion/printers.go for Pod: the columns AddHandlers declares
// for it and printPod.

import type { AnyObject, Container, Pod } from '../../../api/types.ts';
import { isRestartableInitContainer } from '../../../api/podutil.ts';
import { humanDuration, translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME, tsMs, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** podPrinter is Pod's table for `kubectl get`. */
export const podPrinter: Printer = {
  columns: [
    NAME,
    col('Ready'),
    col('Status'),
    col('Restarts'),
    AGE,
    col('IP', 1),
    col('Node', 1),
    col('Nominated Node', 1),
    col('Readiness Gates', 1),
  ],
  row: printPodRow,
};

function printPodRow(obj: AnyObject, now: number, wide: boolean): TableRow {
  return printPod(obj as Pod, now, wide);
}

/** printPod mirrors printers.go#printPod, the STATUS algorithm included. */
export function printPod(pod: Pod, now: number, wide = false): TableRow {
  let restarts = 0;
  let restartableInitContainerRestarts = 0;
  let totalContainers = pod.spec.containers.length;
  let readyContainers = 0;
  let lastRestartDate: number | undefined;
  let lastRestartableInitContainerRestartDate: number | undefined;

  const podPhase = pod.status?.phase ?? '';
  let reason: string = podPhase;
  if (pod.status?.reason) reason = pod.status.reason;

  for (const c of pod.status?.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const initContainers = new Map<string, Container>();
  for (const ic of pod.spec.initContainers ?? []) {
    initContainers.set(ic.name, ic);
    if (isRestartableInitContainer(ic)) totalContainers++;
  }

  let initializing = false;
  const initStatuses = pod.status?.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const container = initStatuses[i];
    restarts += container.restartCount;
    const lastTerm = tsMs(container.lastState?.terminated?.finishedAt);
    if (
      container.lastState?.terminated &&
      lastTerm !== undefined &&
      (lastRestartDate === undefined || lastRestartDate < lastTerm)
    )
      lastRestartDate = lastTerm;
    const restartable = isRestartableInitContainer(initContainers.get(container.name));
    if (restartable) {
      restartableInitContainerRestarts += container.restartCount;
      if (container.lastState?.terminated && lastTerm !== undefined) {
        if (
          lastRestartableInitContainerRestartDate === undefined ||
          lastRestartableInitContainerRestartDate < lastTerm
        )
          lastRestartableInitContainerRestartDate = lastTerm;
      }
    }
    const term = container.state?.terminated;
    const waiting = container.state?.waiting;
    if (term && term.exitCode === 0) continue;
    if (restartable && container.started) {
      if (container.ready) readyContainers++;
      continue;
    }
    if (term) {
      if (!term.reason)
        reason = term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode}`;
      else reason = `Init:${term.reason}`;
      initializing = true;
    } else if (waiting && waiting.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
      initializing = true;
    } else {
      reason = `Init:${i}/${(pod.spec.initContainers ?? []).length}`;
      initializing = true;
    }
    break;
  }

  const initializedTrue = (pod.status?.conditions ?? []).some(
    (c) => c.type === 'Initialized' && c.status === 'True',
  );
  if (!initializing || initializedTrue) {
    restarts = restartableInitContainerRestarts;
    lastRestartDate = lastRestartableInitContainerRestartDate;
    let hasRunning = false;
    const statuses = pod.status?.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = statuses[i];
      restarts += container.restartCount;
      const lastTerm = tsMs(container.lastState?.terminated?.finishedAt);
      if (
        container.lastState?.terminated &&
        lastTerm !== undefined &&
        (lastRestartDate === undefined || lastRestartDate < lastTerm)
      )
        lastRestartDate = lastTerm;
      const waiting = container.state?.waiting;
      const term = container.state?.terminated;
      if (waiting && waiting.reason) reason = waiting.reason;
      else if (term && term.reason) reason = term.reason;
      else if (term && !term.reason)
        reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`;
      else if (container.ready && container.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = (pod.status?.conditions ?? []).some(
        (c) => c.type === 'Ready' && c.status === 'True',
      );
      reason = ready ? 'Running' : 'NotReady';
    }
  }

  if (pod.metadata.deletionTimestamp && pod.status?.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && podPhase !== 'Succeeded' && podPhase !== 'Failed')
    reason = 'Terminating';

  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestartDate !== undefined)
    restartsStr = `${restarts} (${humanDuration(now - lastRestartDate)} ago)`;

  const cells: (string | number)[] = [
    pod.metadata.name,
    `${readyContainers}/${totalContainers}`,
    reason,
    restartsStr,
    translateTimestampSince(pod.metadata.creationTimestamp, now),
  ];
  if (wide) {
    const podIP = pod.status?.podIPs?.[0]?.ip || '<none>';
    const nodeName = pod.spec.nodeName || '<none>';
    const nominated = pod.status?.nominatedNodeName || '<none>';
    // Simplification: readiness gates are not modelled, so READINESS GATES is always <none>.
    cells.push(podIP, nodeName, nominated, '<none>');
  }
  return { cells, object: pod };
}

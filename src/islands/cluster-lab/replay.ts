// The lab's replay of a learner's actions on a fresh run, as sim/scenario/snapshot.ts#restore
// replays them, keeping what each printed, `kubectl get -w` rows included, so that a shared link
// shows the console transcript it was made with. Pure: no worker or DOM (the worker calls it).

import { watchRows, type KubectlWatch, type ScenarioRun } from '../../../sim/index.ts';
import type { Action } from './lab-state.ts';
import type { CommandResult } from './protocol.ts';

/** Watch is a running `kubectl get -w`: what it watches, and how many changes it has printed. */
export interface Watch {
  w: KubectlWatch;
  from: number;
}

/**
 * streamedRows prints the rows a watch adds for the changes the run made since it last printed,
 * and moves it on. Each row is printed as of its change's own time (AGE), as kubectl prints an
 * event when it arrives, so the rows do not depend on how playback sliced the time.
 */
export function streamedRows(run: ScenarioRun, watch: Watch): string {
  const changes = run.cluster.apiserver.changes;
  let rows = '';
  for (let i = watch.from; i < changes.length; i++)
    rows += watchRows(watch.w, [changes[i]!], changes[i]!.t * 1000);
  watch.from = changes.length;
  return rows;
}

/** perform does one action on the cluster, as restore replays it; a kubectl -w returns its watch. */
export function perform(
  run: ScenarioRun,
  a: Action,
): { result?: CommandResult; watch?: KubectlWatch } {
  const c = run.cluster;
  if ('kubectl' in a) {
    const { watch, ...result } = c.kubectl(a.kubectl, a.stdin);
    return { result, ...(watch ? { watch } : {}) };
  }
  if ('exec' in a) return { result: c.exec(a.node, a.exec) };
  c.fault(a.fault as Parameters<typeof c.fault>[0], a.node);
  return {};
}

/**
 * replay performs the actions on run (fresh, at time 0) in time order up to time (ms), keeping what
 * each printed. A `kubectl get -w` prints, after its list, the rows it streamed until it ended:
 * at its stop time (stops, by action index: Escape, Ctrl+C, a line the console answered), at the
 * next kubectl or node command (which ends a watch in the lab too), or at time, when it is still
 * running: it is then returned, to stream on.
 */
export function replay(
  run: ScenarioRun,
  acts: Action[],
  time: number,
  stops: ReadonlyMap<number, number> = new Map(),
): { outputs: (CommandResult | undefined)[]; watch?: Watch } {
  const outputs = new Array<CommandResult | undefined>(acts.length);
  let open: (Watch & { action: number; stop?: number }) | undefined;
  const close = () => {
    if (!open) return;
    const out = outputs[open.action]!;
    outputs[open.action] = { ...out, stdout: out.stdout + streamedRows(run, open) };
    open = undefined;
  };
  /** playTo plays on to t, ending the open watch on the way if it was stopped before t. */
  const playTo = (t: number) => {
    if (open?.stop !== undefined && open.stop <= t) {
      run.runUntil(open.stop);
      close();
    }
    run.runUntil(t);
  };
  const order = acts.map((a, i) => ({ a, i })).sort((x, y) => x.a.at - y.a.at || x.i - y.i);
  for (const { a, i } of order) {
    playTo(a.at);
    if (!('fault' in a)) close();
    const { result, watch } = perform(run, a);
    outputs[i] = result;
    if (watch)
      open = {
        w: watch,
        from: run.cluster.apiserver.changes.length,
        action: i,
        stop: stops.get(i),
      };
  }
  playTo(time);
  if (!open) return { outputs };
  const running: Watch = { w: open.w, from: open.from };
  close();
  running.from = run.cluster.apiserver.changes.length;
  return { outputs, watch: running };
}

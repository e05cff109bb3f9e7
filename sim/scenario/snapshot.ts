// Snapshots are plain JSON: the scenario, the seed, the virtual time and every action taken since
// (kubectl commands, manifests, faults, node commands). Because a run is a pure function of these, restoring
// replays them on a fresh cluster and reaches a state identical to the original, byte for byte;
// forking is restoring and then acting differently. Replay is cheap: the standard scenarios
// simulate 15 virtual minutes in milliseconds (see BENCHMARKS.md).
// Simplification: we do not serialise component state; replay-based restore is exact because the
// engine is deterministic, and a test checks that it is.

import type { ScenarioInput } from './schema.ts';
import { validateScenario } from './loader.ts';
import { ScenarioRun, type RunOptions } from './runner.ts';

/** Action is something a learner did at a virtual time (ms). */
export type Action =
  | { at: number; kubectl: string; stdin?: string }
  | { at: number; fault: string; node?: string }
  /** exec is a node command line (ssh NODE COMMAND): mv and systemctl change the node. */
  | { at: number; exec: string; node: string };

export interface Snapshot {
  version: 1;
  scenario: ScenarioInput;
  seed: number;
  time: number;
  actions: Action[];
}

/** snapshot captures a run's inputs as JSON-ready data. */
export function snapshot(scenario: ScenarioInput, seed: number, time: number, actions: Action[]): Snapshot {
  return { version: 1, scenario, seed, time, actions: actions.map((a) => ({ ...a })) };
}

/** restore rebuilds the run a snapshot describes. */
export function restore(s: Snapshot, opts: RunOptions = {}): ScenarioRun {
  const sc = validateScenario(s.scenario);
  const run = new ScenarioRun(sc, { ...opts, seed: s.seed, until: Math.max(sc.until, s.time) });
  for (const a of [...s.actions].sort((x, y) => x.at - y.at)) {
    run.runUntil(a.at);
    if ('kubectl' in a) run.cluster.kubectl(a.kubectl, a.stdin);
    else if ('exec' in a) run.cluster.exec(a.node, a.exec);
    else run.cluster.fault(a.fault as never, a.node);
  }
  run.runUntil(s.time);
  return run;
}

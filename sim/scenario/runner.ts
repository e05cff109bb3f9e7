// Runs a scenario: builds the cluster, plays its steps at their virtual times, captures every
// kubectl and node command's output, and returns the run in the `--json` shape.

import type { AnyObject, ResourceName } from '../api/types.ts';
import { Cluster, type CommandOutput } from '../cluster/cluster.ts';
import type { TraceEntry, TraceLevel } from '../engine/trace.ts';
import type { Scenario, Step } from './schema.ts';

export interface RunOptions {
  /** seed overrides the scenario's seed. */
  seed?: number;
  /** until overrides the scenario's end time (ms). */
  until?: number;
  traceLevel?: TraceLevel;
  /** recordChanges keeps every committed write (needed for `--json`). */
  recordChanges?: boolean;
  /** freeze deep-freezes stored objects (tests): a component mutating cached state throws. */
  freeze?: boolean;
}

export interface Output extends CommandOutput {
  t: number;
  command: string;
}

/** StepProblem is an apply step that did not do what its author declared (ScenarioRun.stepProblems). */
export interface StepProblem {
  /** step is the step's index in scenario.steps. */
  step: number;
  message: string;
}

/** RunResult is what `sim run --json` prints. */
export interface RunResult {
  name: string;
  seed: number;
  until: number;
  objects: Partial<Record<ResourceName, AnyObject[]>>;
  changes: { t: number; type: 'ADDED' | 'MODIFIED' | 'DELETED'; resource: ResourceName; object: AnyObject }[];
  trace: TraceEntry[];
  outputs: Output[];
}

/** OUTPUT_RESOURCES are the resources `objects` lists. */
export const OUTPUT_RESOURCES: ResourceName[] = ['pods', 'nodes', 'deployments', 'replicasets', 'services', 'endpointslices', 'events', 'leases'];

/** stepCommand is how a step shows in outputs: "kubectl get pods", "apply", "fault node-down". */
export function stepCommand(s: Step): string {
  if (s.kubectl !== undefined) return `kubectl ${s.kubectl}`;
  if (s.apply !== undefined) return 'kubectl apply -f -';
  if (s.exec !== undefined) return s.exec;
  return `fault ${s.fault}${s.node ? ` ${s.node}` : ''}`;
}

/** ScenarioRun is a scenario being played; it can be advanced step by step (islands, grading). */
export class ScenarioRun {
  readonly scenario: Scenario;
  readonly cluster: Cluster;
  readonly outputs: Output[] = [];
  /**
   * stepProblems are apply steps that failed without declaring expectError, or that declared it
   * and succeeded or failed otherwise: the author's mistake, which the site's build reports.
   */
  readonly stepProblems: StepProblem[] = [];
  readonly until: number;
  private next = 0;

  constructor(scenario: Scenario, opts: RunOptions = {}) {
    this.scenario = scenario;
    this.until = opts.until ?? scenario.until;
    this.cluster = new Cluster({
      seed: opts.seed ?? scenario.seed,
      config: scenario.cluster,
      traceLevel: opts.traceLevel ?? 'full',
      recordChanges: opts.recordChanges ?? true,
      freeze: opts.freeze ?? false,
    });
  }

  /** runUntil plays every step due up to t (ms) and advances the cluster to t. */
  runUntil(t: number): void {
    const steps = this.scenario.steps;
    while (this.next < steps.length && steps[this.next].at <= t) {
      const s = steps[this.next++];
      this.cluster.runUntil(s.at);
      this.runStep(s, this.next - 1);
    }
    this.cluster.runUntil(t);
  }

  private runStep(s: Step, index: number): void {
    const t = this.cluster.sim.now() / 1000;
    let out: CommandOutput | undefined;
    if (s.kubectl !== undefined) out = this.cluster.kubectl(s.kubectl);
    else if (s.apply !== undefined) out = this.cluster.kubectl('apply -f -', s.apply);
    else if (s.exec !== undefined) out = this.cluster.exec(s.node!, s.exec);
    else if (s.fault !== undefined) this.cluster.fault(s.fault, s.node);
    if (out) this.outputs.push({ t, command: stepCommand(s), ...out });
    if (s.apply !== undefined && out) {
      const err = out.stderr.trim();
      const failed = out.exitCode !== 0;
      if (failed && s.expectError === undefined)
        this.stepProblems.push({ step: index, message: `kubectl apply failed: ${err}; expected the apply to succeed (if the step is meant to fail, give it expectError: ${JSON.stringify(err.split('\n')[0].split(': ').slice(0, 2).join(': '))} or another part of the error)` });
      else if (!failed && s.expectError !== undefined)
        this.stepProblems.push({ step: index, message: `kubectl apply succeeded, expected it to fail with ${JSON.stringify(s.expectError)} (expectError)` });
      else if (failed && !err.includes(s.expectError!))
        this.stepProblems.push({ step: index, message: `kubectl apply failed with: ${err}; expected an error containing ${JSON.stringify(s.expectError)} (expectError)` });
    }
  }

  /** run plays the whole scenario. */
  run(): this {
    this.runUntil(this.until);
    return this;
  }

  /** result returns the run in the `--json` shape. */
  result(): RunResult {
    const objects: RunResult['objects'] = {};
    for (const r of OUTPUT_RESOURCES) objects[r] = this.cluster.apiserver.peekAll(r);
    return {
      name: this.scenario.name,
      seed: this.cluster.sim.seed,
      until: this.until / 1000,
      objects,
      changes: this.cluster.apiserver.changes,
      trace: this.cluster.sim.trace,
      outputs: this.outputs,
    };
  }
}

/** runScenario plays a scenario to its end and returns the result. */
export function runScenario(scenario: Scenario, opts: RunOptions = {}): RunResult {
  return new ScenarioRun(scenario, opts).run().result();
}

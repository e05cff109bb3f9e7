// The simulator's public API: what islands, the site build, the CLI and tests use. Nothing else
// in sim/ is imported from outside sim/.

export { parseScenario, validateScenario, ScenarioError, formatIssue, issueAt, locate, stepPosition } from './scenario/loader.ts';
export type { Issue, Where } from './scenario/loader.ts';
export { closest, didYouMean } from './scenario/suggest.ts';
export { ScenarioSchema, StepSchema, ClusterSchema, FAULTS } from './scenario/schema.ts';
export type { Scenario, ScenarioInput, Step, Fault, ClusterConfig } from './scenario/schema.ts';
export { substitute, unfilled, missingParamsMessage } from './scenario/params.ts';
export type { Placeholder } from './scenario/params.ts';
export { ScenarioRun, runScenario, stepCommand, OUTPUT_RESOURCES } from './scenario/runner.ts';
export type { RunOptions, RunResult, Output, StepProblem } from './scenario/runner.ts';
export { Cluster, BIRTH_MS, bornImageSteps } from './cluster/cluster.ts';
export { SLICE_MS, drive, untilInSlices } from './engine/steps.ts';
export type { CommandOutput, NodeAgents } from './cluster/cluster.ts';
export { Simulation } from './engine/simulation.ts';
export type { TraceEntry, TraceLevel } from './engine/trace.ts';
export { defaultSettings } from './engine/settings.ts';
export type { Settings } from './engine/settings.ts';
export { formatTime, parseTime, parseDuration, formatDuration } from './engine/clock.ts';
export { snapshot, restore } from './scenario/snapshot.ts';
export type { Snapshot } from './scenario/snapshot.ts';
export type * from './api/types.ts';
export * from './projections/index.ts';
export type * from './projections/index.ts';
export { printPod } from './registry/core/pods/printer.ts';
export { nodeStatusString } from './registry/core/nodes/printer.ts';
export { runKubectl, watchRows } from './kubectl/kubectl.ts';
export type { KubectlResult, KubectlWatch, WatchChange } from './kubectl/kubectl.ts';

// The messages between the cluster lab island (main thread) and its simulator worker. Every
// request carries an id; the worker answers with the same id. Types only: no code.

import type { Action } from './lab-state.ts';

/** NodeView is one node as the island draws it. */
export interface NodeView {
  name: string;
  /** status is kubectl's STATUS cell: Ready, NotReady, Unknown, with ",SchedulingDisabled". */
  status: string;
  ready: 'True' | 'False' | 'Unknown';
  cordoned: boolean;
  taints: string[];
  controlPlane: boolean;
  /** power and partitioned are the faults the learner injected (what the node itself knows). */
  power: boolean;
  partitioned: boolean;
}

/** PodView is one Pod as the island draws it. */
export interface PodView {
  name: string;
  namespace: string;
  /** status is kubectl's STATUS cell (Running, Pending, ContainerCreating, Terminating...). */
  status: string;
  node: string;
  ready: string;
}

export interface ServiceView {
  name: string;
  namespace: string;
  clusterIP: string;
  endpoints: number;
}

/** TraceLite is a trace entry reduced to what the animation needs. */
export interface TraceLite {
  t: number;
  seq: number;
  kind: string;
  from: string;
  to: string;
  label: string;
}

/** ViewState is the compact state the worker returns after every change. */
export interface ViewState {
  /** time is the virtual time in ms. */
  time: number;
  until: number;
  nodes: NodeView[];
  pods: PodView[];
  /** hiddenPods counts, by node ("" for unscheduled), the Pods left out of pods to keep it small. */
  hiddenPods: Record<string, number>;
  services: ServiceView[];
  components: { name: string; up: boolean }[];
  /** events are the trace entries since the previous state (at most the last 60). */
  events: TraceLite[];
  actions: Action[];
  traceLength: number;
}

/** WhyLink is one step of a causal chain. */
export interface WhyLink {
  t: number;
  component: string;
  text: string;
}

/** WhyWrite is one write that changed the chosen object, with what led to it. */
export interface WhyWrite {
  t: number;
  component: string;
  write: string;
  fields: string[];
  /** because is the chain of causes, nearest first. */
  because: WhyLink[];
}

export interface FiguresResult {
  steps: { n: number; t: number; from: string; to: string; text: string; dotted: boolean }[];
  participants: { id: string; label: string }[];
  mermaid: string;
  /** svg is the sequence diagram drawn by src/lib/figures (every string in it is escaped). */
  svg: string;
  rows: {
    component: string;
    where: string;
    watches: string[];
    decides: string;
    writes: string[];
  }[];
  headers: string[];
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Request is what the island asks the worker. */
export type Request =
  | {
      id: number;
      type: 'init';
      scenarioYaml: string;
      seed: number;
      time?: number;
      actions?: Action[];
    }
  | { id: number; type: 'advance'; toMs: number }
  | { id: number; type: 'step' }
  | { id: number; type: 'seek'; ms: number }
  | { id: number; type: 'kubectl'; line: string }
  | { id: number; type: 'exec'; node: string; line: string }
  | { id: number; type: 'fault'; kind: string; node: string }
  | { id: number; type: 'why'; kind: 'pod' | 'node'; name: string }
  | { id: number; type: 'figures'; lang: 'en' | 'ja' };

/** Response is the worker's answer: a new state, optionally with a result, or an error. */
export type Response =
  | {
      id: number;
      ok: true;
      state: ViewState;
      result?: CommandResult;
      why?: WhyWrite[];
      figures?: FiguresResult;
    }
  | { id: number; ok: false; error: string; state?: ViewState };

/** RequestBody is a request before the island stamps its id. */
export type RequestBody = Request extends infer R
  ? R extends Request
    ? Omit<R, 'id'>
    : never
  : never;

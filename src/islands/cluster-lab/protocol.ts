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
  /** names lists object names by resource, for the console's Tab completion (capped). */
  names: Record<string, string[]>;
  /** watchRows are the rows a running `kubectl get -w` printed since the previous state. */
  watchRows?: string;
  /** watching says whether a `kubectl get -w` is running. */
  watching: boolean;
}

/** WhyLink and WhyWrite are sim/projections/why.ts's chain, sent as is. */
export type { WhyLink, WhyWrite } from '../../../sim/index.ts';
import type { WhyWrite } from '../../../sim/index.ts';

export interface FiguresResult {
  /** from and to are the window drawn (s); left is how many heartbeat arrows were left out. */
  from: number;
  to: number;
  left: number;
  steps: {
    kind: string;
    n: number;
    t: number;
    from: string;
    to: string;
    text: string;
    dotted: boolean;
  }[];
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
  /** terminal is both streams in write order, when they interleave (see sim/kubectl terminalText). */
  terminal?: string;
}

/** FiguresWindow is the part of the run "Figures of my run" draws. */
export interface FiguresWindow {
  /** around is the chosen moment (ms): the current time, or a learner's action. */
  around: number;
  /** span is the window's length (ms); 0 draws the whole run up to now. */
  span: number;
  /** heartbeats keeps Lease renewals and kubelet status heartbeats (left out by default). */
  heartbeats: boolean;
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
      /** stops are when the learner stopped each `kubectl get -w` of actions (by index), in ms. */
      stops?: { action: number; at: number }[];
    }
  | { id: number; type: 'advance'; toMs: number }
  | { id: number; type: 'step' }
  | { id: number; type: 'seek'; ms: number }
  | { id: number; type: 'kubectl'; line: string; stdin?: string }
  | { id: number; type: 'unwatch' }
  | { id: number; type: 'exec'; node: string; line: string }
  | { id: number; type: 'fault'; kind: string; node: string }
  | { id: number; type: 'why'; kind: 'pod' | 'node'; name: string }
  | { id: number; type: 'figures'; lang: 'en' | 'ja'; window: FiguresWindow };

/** Response is the worker's answer: a new state, optionally with a result, or an error. */
export type Response =
  | {
      id: number;
      ok: true;
      state: ViewState;
      result?: CommandResult;
      why?: WhyWrite[];
      figures?: FiguresResult;
      /** outputs are, on init, what each replayed action printed (undefined for faults), a watch's rows included. */
      outputs?: (CommandResult | undefined)[];
    }
  | { id: number; ok: false; error: string; state?: ViewState };

/** RequestBody is a request before the island stamps its id. */
export type RequestBody = Request extends infer R
  ? R extends Request
    ? Omit<R, 'id'>
    : never
  : never;

// Projections: pure functions from a run (its trace, changes or objects) to figures, tables and
// timelines (STYLE.md §4). Each figure returns a structured model and the same figure as Mermaid.

export { sequenceDiagram, waitLabel } from './sequence.ts';
export { packetPathDiagram } from './packet-path.ts';
export { electionTimeline, ELECTION_LEASES } from './election.ts';
export { commitSequence } from './commit.ts';
export type { CommitOptions, CommitSequence } from './commit.ts';
export type {
  ElectionLane,
  ElectionOptions,
  ElectionSegment,
  ElectionState,
  ElectionTimeline,
  Handover,
} from './election.ts';
export { ruleChains } from './rule-chain.ts';
export { topology } from './topology.ts';
export type {
  Topology,
  TopologyLink,
  TopologyNode,
  TopologyOptions,
  TopologyPod,
  TopologyService,
} from './topology.ts';
export type { RuleChain, RuleChainEndpoint } from './rule-chain.ts';
export type { PacketPathOptions } from './packet-path.ts';
export type { SequenceOptions, SequenceDiagram, SequenceStep, Participant } from './sequence.ts';
export { resolveFollow, indexTrace, entryObject, causeClosure, parentsOf } from './follow.ts';
export type { FollowSpec, ObjectRef, TraceIndex } from './follow.ts';
export { componentGraph } from './component-graph.ts';
export type {
  ComponentGraph,
  ComponentGraphOptions,
  GraphNode,
  GraphEdge,
} from './component-graph.ts';
export { resourceDiagram, CLASS_KINDS } from './resource-diagram.ts';
export type {
  ResourceDiagram,
  ResourceDiagramOptions,
  ResourceClass,
  ResourceField,
  ResourceRelation,
} from './resource-diagram.ts';
export { componentTable, toMarkdownTable, TABLE_HEADERS } from './component-table.ts';
export type { ComponentRow, ComponentTableOptions } from './component-table.ts';
export { COMPONENTS, componentInfo } from './components.ts';
export type { Lang, ComponentGroup, ComponentInfo } from './components.ts';
export {
  replicaSetReplicas,
  nodeTimeline,
  podTimeline,
  fieldSeries,
  resolveIntOrPercent,
} from './timeline.ts';
export type {
  ObjectName,
  ReplicaSetPoint,
  ReplicaSetSeries,
  ReplicaSetTimeline,
  NodePoint,
  PodFilter,
  PodPoint,
  FieldPoint,
} from './timeline.ts';
export { compareComponents } from './util.ts';
export type { Change, RunLike } from './util.ts';
export { whyChain, describeEntry } from './why.ts';
export type { WhyLink, WhyLinkKind, WhyWrite, WhyOptions } from './why.ts';
export { heartbeatSeqs } from './heartbeats.ts';

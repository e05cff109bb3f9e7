// The trace: everything observable that the components did, as one discriminated union.
// Figures, tables, timelines and quiz grading are all pure projections of this list.

/** TraceBase is what every entry carries. t is virtual seconds; seq orders entries totally. */
export interface TraceBase {
  t: number;
  seq: number;
  from: string;
  to: string;
  /** cause is the seq of the entry that led to this one (a watch delivery, a timer...), if known. */
  cause?: number;
}

/** A client's call to kube-apiserver. */
export interface RequestEntry extends TraceBase {
  kind: 'request';
  verb: 'create' | 'get' | 'list' | 'watch' | 'update' | 'patch' | 'delete';
  /** resource with subresource, e.g. "pods", "pods/binding", "pods/status", "nodes/status". */
  resource: string;
  /**
   * group is the API group the request went to when a resource is served by two (the Events of
   * events.k8s.io/v1, stored as core/v1 Events): absent means the resource's own group.
   */
  group?: string;
  namespace?: string;
  name?: string;
  /** code is the HTTP status code kube-apiserver answered with. */
  code: number;
  /** reason is the Status reason for failed calls (Conflict, NotFound, Invalid...). */
  reason?: string;
  /** fields names what an update changed, e.g. ["spec.nodeName"], for "Why?" and grading. */
  fields?: string[];
  /**
   * patchType is a patch's Content-Type (application/merge-patch+json, ...-strategic-merge-patch+json,
   * application/json-patch+json), recorded when the client names it (kubectl always does).
   */
  patchType?: string;
}

/** kube-apiserver's read or write against etcd. */
export interface StoreEntry extends TraceBase {
  kind: 'store';
  op: 'txn-create' | 'txn-update' | 'txn-delete' | 'range';
  key: string;
  revision: number;
  resource: string;
  namespace?: string;
  name?: string;
}

/** A watch event delivered by kube-apiserver to a watching client. */
export interface WatchEntry extends TraceBase {
  kind: 'watch';
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: string;
  namespace?: string;
  name?: string;
  revision: number;
}

/**
 * A CRI or CNI call (kubelet to container runtime, runtime to CNI plugin), or a call to the cloud
 * provider's API (cloud-controller-manager's controllers to `cloud`), recorded when it returns.
 */
export interface CallEntry extends TraceBase {
  kind: 'call';
  method: string;
  /** pod is namespace/name of the Pod concerned. */
  pod?: string;
  /** object is what a cloud call concerns: a Service's namespace/name or a node's name. */
  object?: string;
  container?: string;
  image?: string;
  result?: string;
}

/** kube-proxy writing the node's rules. */
export interface ProgramEntry extends TraceBase {
  kind: 'program';
  /** what: iptables-restore (iptables mode), nft (nftables mode), ipvs (IPVS netlink calls). */
  what: 'iptables-restore' | 'nft' | 'ipvs';
  rules: number;
  services: number;
  endpoints: number;
}

/** One node's Filter results in a scheduling cycle. */
export interface FilterEntry extends TraceBase {
  kind: 'filter';
  pod: string;
  node: string;
  plugins: {
    plugin: string;
    status: 'Success' | 'Unschedulable' | 'UnschedulableAndUnresolvable';
    reason?: string;
  }[];
  feasible: boolean;
}

/** One node's Score results in a scheduling cycle. */
export interface ScoreEntry extends TraceBase {
  kind: 'score';
  pod: string;
  node: string;
  plugins: { plugin: string; score: number; weight: number }[];
  total: number;
}

/** The scheduler's choice. */
export interface SelectEntry extends TraceBase {
  kind: 'select';
  pod: string;
  node: string;
  feasibleNodes: number;
  evaluatedNodes: number;
}

/** A fault injected by the scenario or the learner. */
export interface FaultEntry extends TraceBase {
  kind: 'fault';
  fault: string;
  node?: string;
}

/** A timer firing inside a component (lease renewal, node monitor, eviction). */
export interface TimerEntry extends TraceBase {
  kind: 'timer';
  what: string;
  object?: string;
}

/** A command run by the learner or the scenario (kubectl or a node command). */
export interface CommandEntry extends TraceBase {
  kind: 'command';
  command: string;
  exitCode: number;
}

/**
 * One DNS question and its answer: from is the asking Pod (namespace/name), to the DNS server
 * Pod that answered (namespace/name), server the address the question was sent to.
 */
export interface DnsEntry extends TraceBase {
  kind: 'dns';
  server: string;
  name: string;
  qtype: string;
  rcode: string;
  /** answers are the answer records as text, e.g. "A 10.96.0.1", "CNAME example.com". */
  answers: string[];
}

/**
 * One TCP connection a Pod opened: from the client Pod to the Pod that took it (to is "" when
 * none did; for a dropped one, the Pod it was for), the address asked for and where the rules
 * sent it, and how it ended. A DNS question a NetworkPolicy dropped is one too (protocol UDP).
 */
export interface PacketEntry extends TraceBase {
  kind: 'packet';
  /** dst is the address the client connected to (ip:port). */
  dst: string;
  /** node is the client's node, whose rules translated the address. */
  node: string;
  /** chains are the node's chains the connection went through (KUBE-SVC-..., KUBE-SEP-...). */
  chains: string[];
  /** endpoint is the address the rules chose (ip:port), when they chose one. */
  endpoint?: string;
  /**
   * outcome: dropped is a NetworkPolicy's drop by a CNI plugin that enforces policy (the client
   * sees no answer, as for timeout).
   */
  outcome: 'established' | 'refused' | 'rejected' | 'timeout' | 'dropped';
  /** policy is the NetworkPolicy (namespace/name) that isolated the Pod, on a dropped packet. */
  policy?: string;
  /** protocol is UDP for a DNS question; absent for a TCP connection. */
  protocol?: 'UDP';
}

/**
 * One Raft message between etcd members (from and to are etcd@<node>), or a member's change of
 * role (msg StateChange, from = to, with state). term is the message's (or the new) term; index
 * and logTerm are the last log entry a vote asks with or an append follows; commit the sender's
 * commit index; reject a refused vote or append.
 */
export interface RaftEntry extends TraceBase {
  kind: 'raft';
  msg:
    | 'MsgPreVote'
    | 'MsgPreVoteResp'
    | 'MsgVote'
    | 'MsgVoteResp'
    | 'MsgApp'
    | 'MsgAppResp'
    | 'MsgHeartbeat'
    | 'MsgHeartbeatResp'
    | 'StateChange';
  term: number;
  index?: number;
  logTerm?: number;
  commit?: number;
  reject?: boolean;
  state?: 'follower' | 'pre-candidate' | 'candidate' | 'leader';
}

export type TraceEntry =
  | RaftEntry
  | DnsEntry
  | PacketEntry
  | RequestEntry
  | StoreEntry
  | WatchEntry
  | CallEntry
  | ProgramEntry
  | FilterEntry
  | ScoreEntry
  | SelectEntry
  | FaultEntry
  | TimerEntry
  | CommandEntry;

/** TraceEntryInput is an entry before the engine stamps t and seq. */
export type TraceEntryInput = TraceEntry extends infer E
  ? E extends TraceEntry
    ? Omit<E, 't' | 'seq'>
    : never
  : never;

/** TraceLevel selects how much is recorded: large runs keep only commands and faults. */
export type TraceLevel = 'full' | 'requests' | 'none';

// Mirrors staging/src/k8s.io/api/core/v1/types.go for Node: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { ConditionStatus, KubeObject, ResourceList, Taint, Time } from '../../../api/types.ts';
import {
  str,
  bool,
  any,
  opaque,
  strings,
  list,
  struct,
  byValue,
  kindSchema,
} from '../../../api/schema.ts';

export interface Node extends KubeObject {
  apiVersion: 'v1';
  kind: 'Node';
  spec: NodeSpec;
  status: NodeStatus;
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  nodeInfo?: NodeSystemInfo;
  images?: ContainerImage[];
}

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  lastHeartbeatTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface NodeAddress {
  type: 'InternalIP' | 'ExternalIP' | 'Hostname';
  address: string;
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  kubeProxyVersion: string;
  operatingSystem: string;
  architecture: string;
}

export interface ContainerImage {
  names: string[];
  sizeBytes: number;
}

const taint = struct('Taint', () => ({
  key: str(),
  value: str(),
  effect: str('v1.TaintEffect'),
  timeAdded: any,
}));

const nodeSpec = struct('NodeSpec', () => ({
  podCIDR: str(),
  podCIDRs: strings,
  providerID: str(),
  unschedulable: bool,
  taints: list(taint),
  configSource: opaque('NodeConfigSource'),
  externalID: str(),
}));

/** nodeSchema is the Go type Node bodies decode into. */
export const nodeSchema = kindSchema<Node>('Node', {
  spec: byValue(nodeSpec),
  status: opaque('NodeStatus'),
});

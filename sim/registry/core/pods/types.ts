// Mirrors staging/src/k8s.io/api/core/v1/types.go for Pod: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { ConditionStatus, KubeObject, PodSpec, Time } from '../../../api/types.ts';
import {
  str,
  i32,
  i64,
  bool,
  opaque,
  opaques,
  strings,
  stringMap,
  resourceList,
  list,
  struct,
  byValue,
  objectMeta,
  localObjectReference,
  kindSchema,
} from '../../../api/schema.ts';

export interface Pod extends KubeObject {
  apiVersion: 'v1';
  kind: 'Pod';
  spec: PodSpec;
  status: PodStatus;
}

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: PodIP[];
  podIP?: string;
  podIPs?: PodIP[];
  startTime?: Time;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: 'Guaranteed' | 'Burstable' | 'BestEffort';
}

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  lastProbeTime?: Time | null;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

export interface ContainerStatus {
  name: string;
  state: ContainerState;
  lastState: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
}

export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}

export interface ContainerStateRunning {
  startedAt?: Time;
}

export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: Time;
  finishedAt?: Time;
  containerID?: string;
}

export interface PodIP {
  ip: string;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

const containerPort = struct('ContainerPort', () => ({
  name: str(),
  hostPort: i32,
  containerPort: i32,
  protocol: str('v1.Protocol'),
  hostIP: str(),
}));

const envVar = struct('EnvVar', () => ({
  name: str(),
  value: str(),
  valueFrom: opaque('EnvVarSource'),
}));

const resourceRequirements = struct('ResourceRequirements', () => ({
  limits: resourceList,
  requests: resourceList,
  claims: opaques('ResourceClaim'),
}));

const volumeMount = struct('VolumeMount', () => ({
  name: str(),
  readOnly: bool,
  recursiveReadOnly: str('v1.RecursiveReadOnlyMode'),
  mountPath: str(),
  subPath: str(),
  mountPropagation: str('v1.MountPropagationMode'),
  subPathExpr: str(),
}));

const container = struct('Container', () => ({
  name: str(),
  image: str(),
  command: strings,
  args: strings,
  workingDir: str(),
  ports: list(containerPort),
  envFrom: opaques('EnvFromSource'),
  env: list(envVar),
  resources: byValue(resourceRequirements),
  resizePolicy: opaques('ContainerResizePolicy'),
  restartPolicy: str('v1.ContainerRestartPolicy'),
  restartPolicyRules: opaques('ContainerRestartRule'),
  volumeMounts: list(volumeMount),
  volumeDevices: opaques('VolumeDevice'),
  livenessProbe: opaque('Probe'),
  readinessProbe: opaque('Probe'),
  startupProbe: opaque('Probe'),
  lifecycle: opaque('Lifecycle'),
  terminationMessagePath: str(),
  terminationMessagePolicy: str('v1.TerminationMessagePolicy'),
  imagePullPolicy: str('v1.PullPolicy'),
  securityContext: opaque('SecurityContext'),
  stdin: bool,
  stdinOnce: bool,
  tty: bool,
}));

const toleration = struct('Toleration', () => ({
  key: str(),
  operator: str('v1.TolerationOperator'),
  value: str(),
  effect: str('v1.TaintEffect'),
  tolerationSeconds: i64,
}));

const podSpec = struct('PodSpec', () => ({
  volumes: opaques('Volume'),
  initContainers: list(container),
  containers: list(container),
  ephemeralContainers: opaques('EphemeralContainer'),
  restartPolicy: str('v1.RestartPolicy'),
  terminationGracePeriodSeconds: i64,
  activeDeadlineSeconds: i64,
  dnsPolicy: str('v1.DNSPolicy'),
  nodeSelector: stringMap,
  serviceAccountName: str(),
  serviceAccount: str(),
  automountServiceAccountToken: bool,
  nodeName: str(),
  hostNetwork: bool,
  hostPID: bool,
  hostIPC: bool,
  shareProcessNamespace: bool,
  securityContext: opaque('PodSecurityContext'),
  imagePullSecrets: list(localObjectReference),
  hostname: str(),
  subdomain: str(),
  affinity: opaque('Affinity'),
  schedulerName: str(),
  tolerations: list(toleration),
  hostAliases: opaques('HostAlias'),
  priorityClassName: str(),
  priority: i32,
  dnsConfig: opaque('PodDNSConfig'),
  readinessGates: opaques('PodReadinessGate'),
  runtimeClassName: str(),
  enableServiceLinks: bool,
  preemptionPolicy: str('v1.PreemptionPolicy'),
  overhead: resourceList,
  topologySpreadConstraints: opaques('TopologySpreadConstraint'),
  setHostnameAsFQDN: bool,
  os: opaque('PodOS'),
  hostUsers: bool,
  schedulingGates: opaques('PodSchedulingGate'),
  resourceClaims: opaques('PodResourceClaim'),
  resources: resourceRequirements,
  hostnameOverride: str(),
}));

/** podTemplateSpec is core/v1 PodTemplateSpec, which the workload kinds hold. */
export const podTemplateSpec = struct('PodTemplateSpec', () => ({
  metadata: byValue(objectMeta),
  spec: byValue(podSpec),
}));

/** podSchema is the Go type Pod bodies decode into. */
export const podSchema = kindSchema<Pod>('Pod', {
  spec: byValue(podSpec),
  status: opaque('PodStatus'),
});

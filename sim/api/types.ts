// Mirrors staging/src/k8s.io/api/{core/v1,apps/v1,discovery/v1,coordination/v1,events}/types.go
// as the JSON the API returns: field names, optionality and string enums are upstream's.
// Here are the structs several kinds share (metadata, PodSpec, references, conditions) and the
// subresource bodies; each kind's own type sits in its folder (sim/registry/<group>/<resource>/
// types.ts) and is re-exported below, so `import type { Pod } from 'api/types.ts'` keeps working.
// AnyObject and ResourceName come from the discovery table (apiserver/discovery.ts).
// Simplification: only the fields the simulator reads or writes are declared.

export type { AnyObject, ResourceName } from '../apiserver/discovery.ts';
export type {
  ContainerState,
  ContainerStateRunning,
  ContainerStateTerminated,
  ContainerStateWaiting,
  ContainerStatus,
  Pod,
  PodCondition,
  PodIP,
  PodPhase,
  PodStatus,
} from '../registry/core/pods/types.ts';
export type {
  ContainerImage,
  Node,
  NodeAddress,
  NodeCondition,
  NodeSpec,
  NodeStatus,
  NodeSystemInfo,
} from '../registry/core/nodes/types.ts';
export type { Service, ServicePort, ServiceSpec } from '../registry/core/services/types.ts';
export type { Event, EventSeries } from '../registry/core/events/types.ts';
export type { Namespace } from '../registry/core/namespaces/types.ts';
export type { ServiceAccount } from '../registry/core/serviceaccounts/types.ts';
export type { ConfigMap } from '../registry/core/configmaps/types.ts';
export type {
  Deployment,
  DeploymentCondition,
  DeploymentSpec,
  DeploymentStatus,
  DeploymentStrategy,
} from '../registry/apps/deployments/types.ts';
export type {
  ReplicaSet,
  ReplicaSetCondition,
  ReplicaSetSpec,
  ReplicaSetStatus,
} from '../registry/apps/replicasets/types.ts';
export type { DaemonSet } from '../registry/apps/daemonsets/types.ts';
export type { Lease, LeaseSpec } from '../registry/coordination/leases/types.ts';
export type { IPAddress, ParentReference } from '../registry/networking/ipaddresses/types.ts';
export type {
  IPBlock,
  NetworkPolicy,
  NetworkPolicyEgressRule,
  NetworkPolicyIngressRule,
  NetworkPolicyPeer,
  NetworkPolicyPort,
  NetworkPolicySpec,
  PolicyType,
} from '../registry/networking/networkpolicies/types.ts';
export type { ServiceCIDR } from '../registry/networking/servicecidrs/types.ts';
export type {
  HTTPIngressPath,
  Ingress,
  IngressBackend,
  IngressRule,
  PathType,
} from '../registry/networking/ingresses/types.ts';
export type { IngressClass } from '../registry/networking/ingressclasses/types.ts';
export type {
  Gateway,
  GatewayClass,
  HTTPRoute,
  HTTPRouteMatch,
  HTTPRouteRule,
} from '../registry/gateway/types.ts';
export type {
  Endpoint,
  EndpointConditions,
  EndpointPort,
  EndpointSlice,
} from '../registry/discovery/endpointslices/types.ts';
export type { PodDisruptionBudget } from '../registry/policy/poddisruptionbudgets/types.ts';

/** Time is an RFC 3339 timestamp with second precision, as metav1.Time serialises. */
export type Time = string;
/** MicroTime is an RFC 3339 timestamp with microseconds, as metav1.MicroTime serialises. */
export type MicroTime = string;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  generateName?: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  generation?: number;
  creationTimestamp: Time;
  deletionTimestamp?: Time;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
}

/** What a client sends: server-set fields may be absent. */
export type ObjectMetaInput = Partial<ObjectMeta>;

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

export interface KubeObject extends TypeMeta {
  metadata: ObjectMeta;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

// ---- core/v1 ----

export type ResourceList = Record<string, string>;

export interface ResourceRequirements {
  requests?: ResourceList;
  limits?: ResourceList;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}

export interface Container {
  name: string;
  image: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  command?: string[];
  args?: string[];
  ports?: ContainerPort[];
  env?: EnvVar[];
  resources?: ResourceRequirements;
  restartPolicy?: 'Always';
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  volumeMounts?: VolumeMount[];
}

/** EnvVar is one of a container's variables: a value, or a reference (valueFrom, left opaque). */
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: Record<string, unknown>;
}

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath: string;
}

export interface DownwardAPIVolumeFile {
  path: string;
  fieldRef?: ObjectFieldSelector;
  mode?: number;
}

/** VolumeProjection is one source of a projected volume (exactly one field is set). */
export interface VolumeProjection {
  serviceAccountToken?: { audience?: string; expirationSeconds?: number; path: string };
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardAPIVolumeFile[] };
}

export interface ProjectedVolumeSource {
  sources: VolumeProjection[] | null;
  defaultMode?: number;
}

/**
 * Volume is a Pod's volume: a name and one volume source. Simplification: only the projected
 * source is typed; the others a manifest may hold (emptyDir, configMap, hostPath ...) are carried
 * as they came and mounted by nothing.
 */
export interface Volume {
  name: string;
  projected?: ProjectedVolumeSource;
  [source: string]: unknown;
}

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: Time;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: TaintEffect | '';
  tolerationSeconds?: number;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAffinity;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds?: number;
  dnsPolicy?: string;
  schedulerName?: string;
  serviceAccountName?: string;
  /** serviceAccount is DeprecatedServiceAccount: the v1 conversion sets it to serviceAccountName. */
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  volumes?: Volume[];
  imagePullSecrets?: LocalObjectReference[];
  hostNetwork?: boolean;
  hostname?: string;
  subdomain?: string;
  priority?: number;
  priorityClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: string;
  securityContext?: Record<string, unknown>;
  overhead?: ResourceList;
}

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface PodTemplateSpec {
  metadata?: ObjectMetaInput;
  spec: PodSpec;
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface LocalObjectReference {
  name?: string;
}

// ---- apps/v1 ----

export type IntOrString = number | string;

/** Binding is the body of a POST to pods/binding. */
export interface Binding {
  apiVersion: 'v1';
  kind: 'Binding';
  metadata: { name: string; namespace: string; uid?: string };
  target: { apiVersion?: string; kind: 'Node'; name: string };
}

// ---- policy/v1 ----

/** metav1.Condition, as PodDisruptionBudget status conditions are. */
export interface MetaCondition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: number;
  lastTransitionTime: Time;
  reason: string;
  message: string;
}

/** Eviction is policy/v1 Eviction, POSTed to pods/eviction. */
export interface Eviction {
  apiVersion: 'policy/v1';
  kind: 'Eviction';
  metadata: { name: string; namespace: string };
  deleteOptions?: {
    gracePeriodSeconds?: number;
    preconditions?: { uid?: string; resourceVersion?: string };
  };
}

/** Scale is autoscaling/v1 Scale, what the scale subresource of a workload reads and writes. */
export interface Scale {
  apiVersion: 'autoscaling/v1';
  kind: 'Scale';
  metadata: Pick<
    ObjectMeta,
    'name' | 'namespace' | 'uid' | 'resourceVersion' | 'creationTimestamp'
  >;
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

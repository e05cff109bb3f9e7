// Mirrors staging/src/k8s.io/api/{core/v1,apps/v1,discovery/v1,coordination/v1,events}/types.go
// as the JSON the API returns: field names, optionality and string enums are upstream's.
// Simplification: only the fields the simulator reads or writes are declared.

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
  resources?: ResourceRequirements;
  restartPolicy?: 'Always';
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  volumeMounts?: VolumeMount[];
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
  priority?: number;
  priorityClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: string;
  securityContext?: Record<string, unknown>;
  overhead?: ResourceList;
}

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  lastProbeTime?: Time | null;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
  observedGeneration?: number;
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
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
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

export interface PodIP {
  ip: string;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

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

export interface Pod extends KubeObject {
  apiVersion: 'v1';
  kind: 'Pod';
  spec: PodSpec;
  status: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: ObjectMetaInput;
  spec: PodSpec;
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

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
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

export interface Node extends KubeObject {
  apiVersion: 'v1';
  kind: 'Node';
  spec: NodeSpec;
  status: NodeStatus;
}

export interface ServicePort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port: number;
  targetPort?: number | string;
  nodePort?: number;
}

export interface ServiceSpec {
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
  selector?: Record<string, string>;
  ports?: ServicePort[];
  clusterIP?: string;
  clusterIPs?: string[];
  externalIPs?: string[];
  sessionAffinity?: 'None' | 'ClientIP';
  internalTrafficPolicy?: 'Cluster' | 'Local';
  externalTrafficPolicy?: 'Cluster' | 'Local';
  healthCheckNodePort?: number;
  allocateLoadBalancerNodePorts?: boolean;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
}

export interface Service extends KubeObject {
  apiVersion: 'v1';
  kind: 'Service';
  spec: ServiceSpec;
  status: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
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

/** EventSeries is a core/v1 EventSeries: an events.k8s.io/v1 Event's repeats. */
export interface EventSeries {
  count: number;
  lastObservedTime: MicroTime;
}

/**
 * Event is a core/v1 Event, as `kubectl get events` and `describe` read it. An Event written
 * through events.k8s.io/v1 is stored the same (pkg/apis/events/v1 conversion): regarding is
 * involvedObject, note is message, reportingController is reportingComponent, and its
 * deprecatedSource/FirstTimestamp/LastTimestamp/Count are the empty source, null timestamps and
 * no count; it has eventTime, action and, once repeated, series instead.
 */
export interface Event extends KubeObject {
  apiVersion: 'v1';
  kind: 'Event';
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: { component?: string; host?: string };
  firstTimestamp: Time | null;
  lastTimestamp: Time | null;
  count?: number;
  type: 'Normal' | 'Warning';
  eventTime?: MicroTime | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  reportingComponent: string;
  reportingInstance: string;
}

export interface LocalObjectReference {
  name?: string;
}

/** ServiceAccount is a core/v1 ServiceAccount (staging/src/k8s.io/api/core/v1/types.go). */
export interface ServiceAccount extends KubeObject {
  apiVersion: 'v1';
  kind: 'ServiceAccount';
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}

/** ConfigMap is a core/v1 ConfigMap. */
export interface ConfigMap extends KubeObject {
  apiVersion: 'v1';
  kind: 'ConfigMap';
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

// ---- apps/v1 ----

export type IntOrString = number | string;

export interface DeploymentStrategy {
  type?: 'RollingUpdate' | 'Recreate';
  rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
}

export interface DeploymentSpec {
  replicas?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export interface DeploymentCondition {
  type: 'Available' | 'Progressing' | 'ReplicaFailure';
  status: ConditionStatus;
  lastUpdateTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  apiVersion: 'apps/v1';
  kind: 'Deployment';
  spec: DeploymentSpec;
  status: DeploymentStatus;
}

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
}

export interface ReplicaSetCondition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

export interface ReplicaSet extends KubeObject {
  apiVersion: 'apps/v1';
  kind: 'ReplicaSet';
  spec: ReplicaSetSpec;
  status: ReplicaSetStatus;
}

// ---- discovery/v1 ----

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface Endpoint {
  addresses: string[];
  conditions: EndpointConditions;
  nodeName?: string;
  zone?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port?: number;
}

export interface EndpointSlice extends KubeObject {
  apiVersion: 'discovery.k8s.io/v1';
  kind: 'EndpointSlice';
  addressType: 'IPv4' | 'IPv6' | 'FQDN';
  endpoints: Endpoint[];
  ports: EndpointPort[] | null;
}

// ---- coordination/v1 ----

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: MicroTime;
  renewTime?: MicroTime;
  leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  spec: LeaseSpec;
}

// ---- apps/v1 DaemonSet (bootstrap only) ----

export interface DaemonSet extends KubeObject {
  apiVersion: 'apps/v1';
  kind: 'DaemonSet';
  spec: { selector: LabelSelector; template: PodTemplateSpec };
  status: {
    currentNumberScheduled: number;
    desiredNumberScheduled: number;
    numberReady: number;
    numberMisscheduled: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
  };
}

/** Binding is the body of a POST to pods/binding. */
export interface Binding {
  apiVersion: 'v1';
  kind: 'Binding';
  metadata: { name: string; namespace: string; uid?: string };
  target: { apiVersion?: string; kind: 'Node'; name: string };
}

export type AnyObject =
  | Pod
  | Node
  | Service
  | Event
  | Deployment
  | ReplicaSet
  | EndpointSlice
  | Lease
  | DaemonSet
  | Namespace
  | ServiceAccount
  | ConfigMap
  | PodDisruptionBudget;

/** ResourceName is the lower-case plural resource, as in REST paths and `kubectl get`. */
export type ResourceName =
  | 'pods'
  | 'nodes'
  | 'services'
  | 'events'
  | 'deployments'
  | 'replicasets'
  | 'endpointslices'
  | 'leases'
  | 'daemonsets'
  | 'namespaces'
  | 'serviceaccounts'
  | 'configmaps'
  | 'poddisruptionbudgets';

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

/** PodDisruptionBudget is policy/v1 PodDisruptionBudget (k8s.io/api/policy/v1/types.go). */
export interface PodDisruptionBudget extends KubeObject {
  apiVersion: 'policy/v1';
  kind: 'PodDisruptionBudget';
  spec: {
    minAvailable?: IntOrString;
    maxUnavailable?: IntOrString;
    selector?: LabelSelector;
    unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
  };
  status: {
    observedGeneration?: number;
    /** disruptedPods maps a Pod's name to when kube-apiserver admitted its eviction. */
    disruptedPods?: Record<string, Time>;
    disruptionsAllowed: number;
    currentHealthy: number;
    desiredHealthy: number;
    expectedPods: number;
    conditions?: MetaCondition[];
  };
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

export interface Namespace extends KubeObject {
  apiVersion: 'v1';
  kind: 'Namespace';
  spec: { finalizers?: string[] };
  status: { phase: 'Active' | 'Terminating' };
}

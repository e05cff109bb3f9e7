// Strict decoding of a request body into the Go types, as kube-apiserver does before anything
// else: a value of the wrong JSON type is a 400 BadRequest, and with `fieldValidation=Strict`
// (what kubectl apply and create send by default since v1.27) so is a field the type does not have.
//
// Upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (decode, then
// "<Kind> in version "v1" cannot be handled as a <Kind>: <err>"),
// staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go (strict errors after a
// successful decode), sigs.k8s.io/json (a fork of encoding/json: "json: cannot unmarshal <value>
// into Go struct field <Struct>.<json path> of type <type>", the first such error wins, and
// unknown fields are reported with their index path), resource.Quantity.UnmarshalJSON and
// intstr.IntOrString.UnmarshalJSON (errors that stop decoding at once). A quantity decodes to its
// canonical text (resource.Quantity round-trips through ParseQuantity and MarshalJSON).
//
// Simplification: the field tables below cover the types a learner writes (object metadata, Pod,
// Deployment, ReplicaSet, DaemonSet, Service, Namespace, Node, Lease, EndpointSlice, Event,
// ServiceAccount, ConfigMap and the structs they are made of). Structs the simulator does not model
// (probes, volume sources, security contexts, affinity terms, status ...) are accepted as any JSON
// object, so an unknown field inside them is not reported.

import { canonicalQuantity } from '../api/quantity.ts';
import { newBadRequest } from './errors.ts';

type T =
  | { k: 'string'; go: string }
  | { k: 'int'; go: 'int32' | 'int64' }
  | { k: 'bool' }
  | { k: 'map'; go: string; value: T }
  | { k: 'list'; go: string; item: T }
  | { k: 'struct'; name: string; fields: () => Record<string, T>; value?: boolean }
  | { k: 'object'; go: string }
  | { k: 'intstr' }
  | { k: 'quantity' }
  | { k: 'any' };

const str = (go = 'string'): T => ({ k: 'string', go });
const i32: T = { k: 'int', go: 'int32' };
const i64: T = { k: 'int', go: 'int64' };
const bool: T = { k: 'bool' };
const any: T = { k: 'any' };
/** opaque is a struct the simulator does not model: any JSON object (or null) is accepted. */
const opaque = (name: string): T => ({ k: 'object', go: `v1.${name}` });
const opaques = (name: string): T => ({ k: 'list', go: `[]v1.${name}`, item: opaque(name) });
const intstr: T = { k: 'intstr' };
const quantity: T = { k: 'quantity' };
const strings: T = { k: 'list', go: '[]string', item: str() };
const stringMap: T = { k: 'map', go: 'map[string]string', value: str() };
const resourceList: T = { k: 'map', go: 'v1.ResourceList', value: quantity };
const list = (item: T & { k: 'struct' }): T => ({ k: 'list', go: `[]v1.${item.name}`, item });
const struct = (name: string, fields: () => Record<string, T>): T & { k: 'struct' } => ({ k: 'struct', name, fields });
/** byValue marks a struct field that is not a pointer in Go: absent or null, it decodes to {}. */
const byValue = (t: T & { k: 'struct' }): T => ({ ...t, value: true });

// ---- meta/v1 ----

const ownerReference = struct('OwnerReference', () => ({
  apiVersion: str(),
  kind: str(),
  name: str(),
  uid: str('types.UID'),
  controller: bool,
  blockOwnerDeletion: bool,
}));

const objectMeta = struct('ObjectMeta', () => ({
  name: str(),
  generateName: str(),
  namespace: str(),
  selfLink: str(),
  uid: str('types.UID'),
  resourceVersion: str(),
  generation: i64,
  // Simplification: timestamps are set by kube-apiserver; their format is not checked here.
  creationTimestamp: any,
  deletionTimestamp: any,
  deletionGracePeriodSeconds: i64,
  labels: stringMap,
  annotations: stringMap,
  ownerReferences: list(ownerReference),
  finalizers: strings,
  managedFields: opaques('ManagedFieldsEntry'),
}));

const labelSelectorRequirement = struct('LabelSelectorRequirement', () => ({
  key: str(),
  operator: str('v1.LabelSelectorOperator'),
  values: strings,
}));

const labelSelector = struct('LabelSelector', () => ({
  matchLabels: stringMap,
  matchExpressions: list(labelSelectorRequirement),
}));

// ---- core/v1 ----

const containerPort = struct('ContainerPort', () => ({
  name: str(),
  hostPort: i32,
  containerPort: i32,
  protocol: str('v1.Protocol'),
  hostIP: str(),
}));

const envVar = struct('EnvVar', () => ({ name: str(), value: str(), valueFrom: opaque('EnvVarSource') }));

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

const taint = struct('Taint', () => ({ key: str(), value: str(), effect: str('v1.TaintEffect'), timeAdded: any }));

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

const localObjectReference = struct('LocalObjectReference', () => ({ name: str() }));

const podTemplateSpec = struct('PodTemplateSpec', () => ({
  metadata: byValue(objectMeta),
  spec: byValue(podSpec),
}));

const servicePort = struct('ServicePort', () => ({
  name: str(),
  protocol: str('v1.Protocol'),
  appProtocol: str(),
  port: i32,
  targetPort: intstr,
  nodePort: i32,
}));

const serviceSpec = struct('ServiceSpec', () => ({
  ports: list(servicePort),
  selector: stringMap,
  clusterIP: str(),
  clusterIPs: strings,
  type: str('v1.ServiceType'),
  externalIPs: strings,
  sessionAffinity: str('v1.ServiceAffinity'),
  loadBalancerIP: str(),
  loadBalancerSourceRanges: strings,
  externalName: str(),
  externalTrafficPolicy: str('v1.ServiceExternalTrafficPolicy'),
  healthCheckNodePort: i32,
  publishNotReadyAddresses: bool,
  sessionAffinityConfig: opaque('SessionAffinityConfig'),
  ipFamilies: { k: 'list', go: '[]v1.IPFamily', item: str('v1.IPFamily') },
  ipFamilyPolicy: str('v1.IPFamilyPolicy'),
  allocateLoadBalancerNodePorts: bool,
  loadBalancerClass: str(),
  internalTrafficPolicy: str('v1.ServiceInternalTrafficPolicy'),
  trafficDistribution: str(),
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

// ---- apps/v1 ----

const rollingUpdateDeployment = struct('RollingUpdateDeployment', () => ({ maxUnavailable: intstr, maxSurge: intstr }));
const deploymentStrategy = struct('DeploymentStrategy', () => ({ type: str('v1.DeploymentStrategyType'), rollingUpdate: rollingUpdateDeployment }));

const deploymentSpec = struct('DeploymentSpec', () => ({
  replicas: i32,
  selector: labelSelector,
  template: byValue(podTemplateSpec),
  strategy: byValue(deploymentStrategy),
  minReadySeconds: i32,
  revisionHistoryLimit: i32,
  paused: bool,
  progressDeadlineSeconds: i32,
}));

const replicaSetSpec = struct('ReplicaSetSpec', () => ({ replicas: i32, minReadySeconds: i32, selector: labelSelector, template: byValue(podTemplateSpec) }));

const daemonSetSpec = struct('DaemonSetSpec', () => ({
  selector: labelSelector,
  template: byValue(podTemplateSpec),
  updateStrategy: opaque('DaemonSetUpdateStrategy'),
  minReadySeconds: i32,
  revisionHistoryLimit: i32,
}));

// ---- coordination/v1, discovery/v1 ----

const leaseSpec = struct('LeaseSpec', () => ({
  holderIdentity: str(),
  leaseDurationSeconds: i32,
  acquireTime: any,
  renewTime: any,
  leaseTransitions: i32,
  strategy: str('v1.CoordinatedLeaseStrategy'),
  preferredHolder: str(),
}));

const endpointConditions = struct('EndpointConditions', () => ({ ready: bool, serving: bool, terminating: bool }));
const endpoint = struct('Endpoint', () => ({
  addresses: strings,
  conditions: byValue(endpointConditions),
  hostname: str(),
  targetRef: opaque('ObjectReference'),
  deprecatedTopology: stringMap,
  nodeName: str(),
  zone: str(),
  hints: opaque('EndpointHints'),
}));
const endpointPort = struct('EndpointPort', () => ({ name: str(), protocol: str('v1.Protocol'), port: i32, appProtocol: str() }));

// ---- top-level kinds ----

const top = (kind: string, fields: Record<string, T>) => struct(kind, () => ({ apiVersion: str(), kind: str(), metadata: byValue(objectMeta), ...fields }));

const KINDS: Record<string, T & { k: 'struct' }> = {
  Pod: top('Pod', { spec: byValue(podSpec), status: opaque('PodStatus') }),
  Service: top('Service', { spec: byValue(serviceSpec), status: opaque('ServiceStatus') }),
  Namespace: top('Namespace', { spec: opaque('NamespaceSpec'), status: opaque('NamespaceStatus') }),
  Node: top('Node', { spec: byValue(nodeSpec), status: opaque('NodeStatus') }),
  Deployment: top('Deployment', { spec: byValue(deploymentSpec), status: opaque('DeploymentStatus') }),
  ReplicaSet: top('ReplicaSet', { spec: byValue(replicaSetSpec), status: opaque('ReplicaSetStatus') }),
  DaemonSet: top('DaemonSet', { spec: byValue(daemonSetSpec), status: opaque('DaemonSetStatus') }),
  Lease: top('Lease', { spec: byValue(leaseSpec) }),
  ServiceAccount: top('ServiceAccount', {
    secrets: opaques('ObjectReference'),
    imagePullSecrets: list(localObjectReference),
    automountServiceAccountToken: bool,
  }),
  ConfigMap: top('ConfigMap', {
    immutable: bool,
    data: stringMap,
    // Simplification: binaryData is []byte per key upstream (base64 in JSON); any string is accepted.
    binaryData: { k: 'map', go: 'map[string][]uint8', value: str('[]uint8') },
  }),
  PodDisruptionBudget: top('PodDisruptionBudget', {
    spec: byValue(
      struct('PodDisruptionBudgetSpec', () => ({
        minAvailable: intstr,
        maxUnavailable: intstr,
        selector: labelSelector,
        unhealthyPodEvictionPolicy: str('v1.UnhealthyPodEvictionPolicyType'),
      })),
    ),
    status: opaque('PodDisruptionBudgetStatus'),
  }),
  EndpointSlice: top('EndpointSlice', {
    addressType: str('v1.AddressType'),
    endpoints: list(endpoint),
    ports: list(endpointPort),
  }),
  Event: top('Event', {
    involvedObject: opaque('ObjectReference'),
    reason: str(),
    message: str(),
    source: opaque('EventSource'),
    firstTimestamp: any,
    lastTimestamp: any,
    count: i32,
    type: str(),
    eventTime: any,
    series: opaque('EventSeries'),
    action: str(),
    related: opaque('ObjectReference'),
    reportingComponent: str(),
    reportingInstance: str(),
  }),
};

// ---- the decoder ----

/** Fatal is an error that stops decoding at once, as an Unmarshaler's error does. */
class Fatal extends Error {}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  return 'string';
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

// Quantity.UnmarshalJSON → ParseQuantity (staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go).
const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const SUFFIXES = new Set(['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);

/** quantityError returns ParseQuantity's error for a value's JSON text, or undefined. */
export function quantityError(v: unknown): string | undefined {
  const text = typeof v === 'string' ? v.trim() : JSON.stringify(v);
  const m = new RegExp(SPLIT_RE).exec(text);
  if (!m) return `quantities must match the regular expression '${SPLIT_RE}'`;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(m[1])) return 'unable to parse numeric part of quantity';
  if (!SUFFIXES.has(m[2]) && !/^[eE][-+]?\d+$/.test(m[2])) return "unable to parse quantity's suffix";
  return undefined;
}

/** zero is Go's zero value of a type, as a null list item or map value decodes to. */
function zero(t: T): unknown {
  switch (t.k) {
    case 'string':
      return '';
    case 'int':
    case 'intstr':
      return 0;
    case 'bool':
      return false;
    case 'quantity':
      return '0';
    case 'struct':
      return empty(t);
    case 'object':
    case 'map':
      return {};
    default:
      return null;
  }
}

/** empty is a value struct's zero value as re-encoded: {} holding its own value structs. */
function empty(t: T & { k: 'struct' }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(t.fields())) if (f.k === 'struct' && f.value) out[k] = empty(f);
  return out;
}

class Decoder {
  typeError?: string;
  readonly unknown: string[] = [];

  /**
   * value checks v against t and returns it as Go would re-encode it: a null field is dropped
   * (the zero value), a null list item or map value becomes the zero value. structName and
   * jsonPath are encoding/json's error context: the innermost struct and the dotted field names
   * (no indices); path is the strict-error path.
   */
  value(v: unknown, t: T, structName: string, jsonPath: string[], path: string): unknown {
    if (v === null || v === undefined || t.k === 'any') return v;
    switch (t.k) {
      case 'string':
        if (typeof v !== 'string') this.mismatch(jsonKind(v), t.go, structName, jsonPath);
        return v;
      case 'bool':
        if (typeof v !== 'boolean') this.mismatch(jsonKind(v), 'bool', structName, jsonPath);
        return v;
      case 'int':
        this.int(v, t.go, structName, jsonPath);
        return v;
      case 'intstr':
        // IntOrString: a JSON string is kept as a string; anything else is decoded as an int32,
        // and that error stops decoding.
        if (typeof v !== 'string') this.int(v, 'int32', structName, jsonPath, true);
        return v;
      case 'quantity': {
        const err = quantityError(v);
        if (err) throw new Fatal(err);
        // Quantity.UnmarshalJSON then MarshalJSON: the value is held in canonical form.
        return canonicalQuantity(v as string | number) ?? v;
      }
      case 'object':
        if (!isObject(v)) this.mismatch(jsonKind(v), t.go, structName, jsonPath);
        return v;
      case 'map': {
        if (!isObject(v)) return this.mismatch(jsonKind(v), t.go, structName, jsonPath);
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) out[k] = x === null ? zero(t.value) : this.value(x, t.value, structName, jsonPath, `${path}[${k}]`);
        return out;
      }
      case 'list':
        if (!Array.isArray(v)) return this.mismatch(jsonKind(v), t.go, structName, jsonPath);
        return v.map((x, i) => (x === null ? zero(t.item) : this.value(x, t.item, structName, jsonPath, `${path}[${i}]`)));
      case 'struct': {
        if (!isObject(v)) return this.mismatch(jsonKind(v), `v1.${t.name}`, structName, jsonPath);
        const fields = t.fields();
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) {
          const f = Object.hasOwn(fields, k) ? fields[k] : undefined;
          const p = path ? `${path}.${k}` : k;
          if (!f) this.unknown.push(p);
          else if (x !== null && x !== undefined) out[k] = this.value(x, f, t.name, [...jsonPath, k], p);
        }
        for (const [k, f] of Object.entries(fields)) if (f.k === 'struct' && f.value && out[k] === undefined) out[k] = empty(f);
        return out;
      }
    }
  }

  private int(v: unknown, go: string, structName: string, jsonPath: string[], fatal = false): void {
    let value: string | undefined;
    if (typeof v !== 'number') value = jsonKind(v);
    else {
      const limit = go === 'int32' ? 2 ** 31 : 2 ** 63;
      if (!Number.isInteger(v) || v < -limit || v >= limit) value = `number ${String(v)}`;
    }
    if (value === undefined) return;
    if (fatal) throw new Fatal(unmarshalError(value, go, structName, jsonPath));
    this.mismatch(value, go, structName, jsonPath);
  }

  private mismatch(value: string, go: string, structName: string, jsonPath: string[]): undefined {
    this.typeError ??= unmarshalError(value, go, structName, jsonPath);
    return undefined;
  }
}

function unmarshalError(value: string, go: string, structName: string, jsonPath: string[]): string {
  return `json: cannot unmarshal ${value} into Go struct field ${structName}.${jsonPath.join('.')} of type ${go}`;
}

/** Decoded is a request body after decoding: the object as the server holds it, or why not. */
export type Decoded = { object: Record<string, unknown>; error?: undefined } | { error: string; object?: undefined };

/**
 * decode decodes a request body as its kind with strict field validation. The error is worded as
 * kube-apiserver words it; a kind without a field table is passed through unchanged.
 */
export function decode(obj: Record<string, unknown>): Decoded {
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const t = KINDS[kind];
  if (!t) return { object: obj };
  const d = new Decoder();
  let out: unknown;
  let err: string | undefined;
  try {
    out = d.value(obj, t, kind, [], '');
    err = d.typeError;
  } catch (e) {
    if (!(e instanceof Fatal)) throw e;
    err = e.message;
  }
  if (!err && d.unknown.length) err = `strict decoding error: ${d.unknown.map((p) => `unknown field "${p}"`).join(', ')}`;
  if (!err) return { object: out as Record<string, unknown> };
  const version = typeof obj.apiVersion === 'string' ? obj.apiVersion.slice(obj.apiVersion.indexOf('/') + 1) : 'v1';
  return { error: `${kind} in version "${version}" cannot be handled as a ${kind}: ${err}` };
}

/** decodeError returns decode's error, or undefined when obj decodes. */
export function decodeError(obj: Record<string, unknown>): string | undefined {
  return decode(obj).error;
}

/** decodeStrict returns the decoded object, or throws the 400 BadRequest kube-apiserver answers. */
export function decodeStrict(obj: Record<string, unknown>): Record<string, unknown> {
  const d = decode(obj);
  if (d.error !== undefined) throw newBadRequest(d.error);
  return d.object;
}

/**
 * knownFields lists the fields of the struct that holds the field at a strict-error path
 * ("spec.replica" → the fields of DeploymentSpec), so an author's typo can be matched with what
 * exists. Undefined when the kind or a step of the path is not modelled.
 */
export function knownFields(kind: string, path: string): string[] | undefined {
  let t: T | undefined = KINDS[kind];
  const parts = path.replace(/\[[^\]]*\]/g, '').split('.');
  parts.pop();
  for (const p of parts) {
    while (t && (t.k === 'list' || t.k === 'map')) t = t.k === 'list' ? t.item : t.value;
    if (!t || t.k !== 'struct') return undefined;
    t = Object.hasOwn(t.fields(), p) ? t.fields()[p] : undefined;
  }
  while (t && (t.k === 'list' || t.k === 'map')) t = t.k === 'list' ? t.item : t.value;
  return t && t.k === 'struct' ? Object.keys(t.fields()) : undefined;
}

// Mirrors the defaulting functions kube-apiserver runs on create and update:
// pkg/apis/core/v1/defaults.go, pkg/apis/apps/v1/defaults.go, pkg/apis/discovery/v1/defaults.go,
// and pkg/registry/core/pod/strategy.go (status.qosClass on create). As in Go, a string field
// holding "" is unset (||=); a pointer field is unset only when absent (??=). Quantities are held
// in canonical form (SetDefaults_ResourceList, see api/quantity.ts), and a PodSpec's
// serviceAccount follows serviceAccountName as the v1 conversion makes it
// (pkg/apis/core/v1/conversion.go).

import { defaultResourceList, parseQuantity } from '../api/quantity.ts';
import { defaultVolumes } from '../registry/core/pods/volumes.ts';
import type { Container, Deployment, Pod, PodSpec, PodTemplateSpec, ReplicaSet, Service } from '../api/types.ts';

function defaultContainer(c: Container): void {
  if (!c.imagePullPolicy) {
    // SetDefaults_Container: Always for :latest or no tag, else IfNotPresent.
    const ref = c.image.includes('@') ? '' : c.image.slice(c.image.lastIndexOf('/') + 1);
    const tag = ref.includes(':') ? ref.slice(ref.indexOf(':') + 1) : c.image.includes('@') ? 'digest' : 'latest';
    c.imagePullPolicy = tag === 'latest' ? 'Always' : 'IfNotPresent';
  }
  c.terminationMessagePath ||= '/dev/termination-log';
  c.terminationMessagePolicy ||= 'File';
  c.resources ??= {};
  for (const p of c.ports ?? []) p.protocol ||= 'TCP';
  // SetDefaults_ResourceList / defaulting limits into requests (pkg/apis/core/v1/defaults.go).
  const r = c.resources;
  defaultResourceList(r.limits);
  defaultResourceList(r.requests);
  if (r.limits) {
    r.requests ??= {};
    for (const [k, v] of Object.entries(r.limits)) if (r.requests[k] === undefined) r.requests[k] = v;
  }
}

/**
 * convertServiceAccount mirrors the v1 conversion of a PodSpec's service account: on the way in
 * (Convert_v1_PodSpec_To_core_PodSpec) a missing serviceAccountName is taken from the deprecated
 * serviceAccount; on the way out (Convert_core_PodSpec_To_v1_PodSpec) serviceAccount is set to
 * serviceAccountName, and omitted when that is empty.
 */
function convertServiceAccount(s: PodSpec): void {
  if (!s.serviceAccountName && s.serviceAccount) s.serviceAccountName = s.serviceAccount;
  // Only a change is written: the template of a stored object may be shared (and frozen).
  if (s.serviceAccountName) {
    if (s.serviceAccount !== s.serviceAccountName) s.serviceAccount = s.serviceAccountName;
  }
  else if (s.serviceAccount !== undefined) delete s.serviceAccount;
}

/** defaultPodSpec mirrors SetDefaults_PodSpec. */
export function defaultPodSpec(s: PodSpec): void {
  s.restartPolicy ||= 'Always';
  s.terminationGracePeriodSeconds ??= 30;
  s.dnsPolicy ||= 'ClusterFirst';
  s.schedulerName ||= 'default-scheduler';
  s.securityContext ??= {};
  for (const c of s.containers ?? []) defaultContainer(c);
  for (const c of s.initContainers ?? []) defaultContainer(c);
  defaultVolumes(s);
  defaultResourceList(s.overhead);
}

// defaultTemplate defaults a pod template. Since v1.34 a zero metadata.creationTimestamp is
// omitted (kubernetes/kubernetes#130989: omitzero), so a template has no creationTimestamp: null.
function defaultTemplate(t: PodTemplateSpec): void {
  t.metadata ??= {};
  defaultPodSpec(t.spec);
  convertServiceAccount(t.spec);
}

/** getPodQOS mirrors pkg/apis/core/v1/helper/qos/qos.go#GetPodQOS for cpu and memory. */
export function getPodQOS(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const qos = { anySet: false, guaranteed: true };
  for (const c of pod.spec.initContainers ?? []) addContainerQOS(c, qos);
  for (const c of pod.spec.containers) addContainerQOS(c, qos);
  if (!qos.anySet) return 'BestEffort';
  return qos.guaranteed ? 'Guaranteed' : 'Burstable';
}

const QOS_RESOURCES = ['cpu', 'memory'] as const;

// addContainerQOS folds one container's cpu and memory requests and limits into qos.
function addContainerQOS(c: Container, qos: { anySet: boolean; guaranteed: boolean }): void {
  const req = c.resources?.requests ?? {};
  const lim = c.resources?.limits ?? {};
  for (const r of QOS_RESOURCES) {
    const q = parseQuantity(req[r] ?? '0') ?? 0;
    const l = parseQuantity(lim[r] ?? '0') ?? 0;
    if (q > 0 || l > 0) qos.anySet = true;
    if (!(l > 0) || (req[r] !== undefined && q !== l)) qos.guaranteed = false;
  }
}

export function defaultPod(p: Pod): void {
  defaultPodSpec(p.spec);
  // SetDefaults_Pod (not SetDefaults_PodSpec, so templates do not get it) and the Priority
  // admission plugin default these on Pods only.
  p.spec.enableServiceLinks ??= true;
  p.spec.preemptionPolicy ??= 'PreemptLowerPriority';
  // The ServiceAccount admission plugin then names the default account on a new Pod
  // (serviceaccount-admission.ts).
  convertServiceAccount(p.spec);
  p.spec.priority ??= 0;
  p.status ??= {};
  p.status.phase ??= 'Pending';
  p.status.qosClass ??= getPodQOS(p);
}

/** defaultDeployment mirrors SetDefaults_Deployment (apps/v1). */
export function defaultDeployment(d: Deployment): void {
  d.spec.replicas ??= 1;
  d.spec.strategy ??= {};
  d.spec.strategy.type ||= 'RollingUpdate';
  if (d.spec.strategy.type === 'RollingUpdate') {
    d.spec.strategy.rollingUpdate ??= {};
    d.spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
    d.spec.strategy.rollingUpdate.maxSurge ??= '25%';
  }
  d.spec.revisionHistoryLimit ??= 10;
  d.spec.progressDeadlineSeconds ??= 600;
  defaultTemplate(d.spec.template);
  d.status ??= {};
}

/** defaultReplicaSet mirrors SetDefaults_ReplicaSet. */
export function defaultReplicaSet(rs: ReplicaSet): void {
  rs.spec.replicas ??= 1;
  defaultTemplate(rs.spec.template);
  rs.status ??= { replicas: 0 };
}

/**
 * defaultService mirrors SetDefaults_Service: type, sessionAffinity, protocol, targetPort, the
 * traffic policies (externalTrafficPolicy only for a Service reachable from outside), and
 * allocateLoadBalancerNodePorts for LoadBalancer.
 */
export function defaultService(s: Service): void {
  s.spec.type ||= 'ClusterIP';
  s.spec.sessionAffinity ||= 'None';
  s.spec.internalTrafficPolicy ??= 'Cluster';
  // service.ExternallyAccessible (pkg/api/v1/service/util.go): NodePort, LoadBalancer, or a
  // ClusterIP Service with external IPs.
  const t = s.spec.type;
  if (t === 'NodePort' || t === 'LoadBalancer' || (t === 'ClusterIP' && s.spec.externalIPs?.length)) s.spec.externalTrafficPolicy ||= 'Cluster';
  if (s.spec.type === 'LoadBalancer') s.spec.allocateLoadBalancerNodePorts ??= true;
  for (const p of s.spec.ports ?? []) {
    p.protocol ||= 'TCP';
    // Upstream: a zero targetPort (0 or "") means the port itself.
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  s.status ??= { loadBalancer: {} };
}

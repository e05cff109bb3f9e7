// Mirrors the defaulting functions kube-apiserver runs on create and update:
// pkg/apis/core/v1/defaults.go, pkg/apis/apps/v1/defaults.go, pkg/apis/discovery/v1/defaults.go,
// and pkg/registry/core/pod/strategy.go (status.qosClass on create). As in Go, a string field
// holding "" is unset (||=); a pointer field is unset only when absent (??=).

import { parseQuantity } from '../api/quantity.ts';
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
  if (r.limits) {
    r.requests ??= {};
    for (const [k, v] of Object.entries(r.limits)) if (r.requests[k] === undefined) r.requests[k] = v;
  }
}

/** defaultPodSpec mirrors SetDefaults_PodSpec. */
export function defaultPodSpec(s: PodSpec): void {
  s.restartPolicy ||= 'Always';
  s.terminationGracePeriodSeconds ??= 30;
  s.dnsPolicy ||= 'ClusterFirst';
  s.schedulerName ||= 'default-scheduler';
  s.securityContext ??= {};
  s.enableServiceLinks ??= true;
  s.preemptionPolicy ??= 'PreemptLowerPriority';
  for (const c of s.containers ?? []) defaultContainer(c);
  for (const c of s.initContainers ?? []) defaultContainer(c);
}

function defaultTemplate(t: PodTemplateSpec): void {
  t.metadata ??= {};
  t.metadata.creationTimestamp ??= null as unknown as string;
  defaultPodSpec(t.spec);
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
  // The ServiceAccount admission plugin names the default account on Pods (not on templates).
  p.spec.serviceAccountName ||= 'default';
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

/** defaultService mirrors SetDefaults_Service: type, sessionAffinity, protocol, targetPort. */
export function defaultService(s: Service): void {
  s.spec.type ||= 'ClusterIP';
  s.spec.sessionAffinity ||= 'None';
  s.spec.internalTrafficPolicy ??= 'Cluster';
  for (const p of s.spec.ports ?? []) {
    p.protocol ||= 'TCP';
    // Upstream: a zero targetPort (0 or "") means the port itself.
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  s.status ??= { loadBalancer: {} };
}

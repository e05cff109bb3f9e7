// Mirrors pkg/registry/core/pod/strategy.go (PrepareForCreate: status.phase Pending and
// status.qosClass; PrepareForUpdate: the spec is immutable but for a few fields, nodeName only via
// binding), SetDefaults_Pod (pkg/apis/core/v1/defaults.go) and ValidatePodCreate's PodSpec checks.

import { parseQuantity } from '../../../api/quantity.ts';
import type { AnyObject, Container, Pod } from '../../../api/types.ts';
import type { Strategy } from '../../rules.ts';
import { convertServiceAccount, defaultPodSpec, validatePodSpec } from './podspec.ts';

/** POD_FIELD_LABELS are what the Pod's field label conversion func accepts. */
const POD_FIELD_LABELS: ReadonlySet<string> = new Set([
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.podIPs',
  'status.nominatedNodeName',
]);

/** podStrategy is the Pod's REST strategy. */
export const podStrategy: Strategy = {
  defaults: (obj) => defaultPod(obj as Pod),
  prepareForUpdate: preparePodForUpdate,
  validate: (obj) => validatePodSpec((obj as Pod).spec, 'spec'),
  checkGracefulDelete: podGracePeriod,
  defaultsInPlace: true,
  // Old v1 clients send spec.host for spec.nodeName.
  fieldLabels: { labels: POD_FIELD_LABELS, renamed: { 'spec.host': 'spec.nodeName' } },
  selectableField: podSelectableField,
};

/**
 * podGracePeriod mirrors podStrategy.CheckGracefulDelete: the request's grace period, else the
 * Pod's terminationGracePeriodSeconds; 0 for a Pod never scheduled or already finished.
 */
function podGracePeriod(obj: AnyObject, gracePeriodSeconds: number | undefined): number {
  const pod = obj as Pod;
  if (!pod.spec.nodeName || pod.status.phase === 'Succeeded' || pod.status.phase === 'Failed')
    return 0;
  return gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
}

// preparePodForUpdate keeps what only the binding subresource may set.
function preparePodForUpdate(next: AnyObject, cur: AnyObject): void {
  (next as Pod).spec.nodeName = (cur as Pod).spec.nodeName;
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

/** defaultPod mirrors SetDefaults_Pod over SetDefaults_PodSpec, with the create-time status. */
export function defaultPod(p: Pod): void {
  defaultPodSpec(p.spec);
  // SetDefaults_Pod (not SetDefaults_PodSpec, so templates do not get it) and the Priority
  // admission plugin default these on Pods only.
  p.spec.enableServiceLinks ??= true;
  p.spec.preemptionPolicy ??= 'PreemptLowerPriority';
  // The ServiceAccount admission plugin then names the default account on a new Pod
  // (apiserver/serviceaccount-admission.ts).
  convertServiceAccount(p.spec);
  p.spec.priority ??= 0;
  p.status ??= {};
  p.status.phase ??= 'Pending';
  p.status.qosClass ??= getPodQOS(p);
}

/** podSelectableField mirrors ToSelectableFields (pkg/registry/core/pod/strategy.go). */
function podSelectableField(o: AnyObject, field: string): string {
  const p = o as Pod;
  switch (field) {
    case 'spec.nodeName':
      return p.spec?.nodeName ?? '';
    case 'spec.restartPolicy':
      return p.spec?.restartPolicy ?? '';
    case 'spec.schedulerName':
      return p.spec?.schedulerName ?? '';
    case 'spec.serviceAccountName':
      return p.spec?.serviceAccountName ?? '';
    case 'spec.hostNetwork':
      return p.spec?.hostNetwork ? 'true' : 'false';
    case 'status.phase':
      return p.status?.phase ?? '';
    // The first of status.podIPs; status.podIPs itself converts but is not in the set.
    case 'status.podIP':
      return p.status?.podIPs?.[0]?.ip ?? '';
    case 'status.nominatedNodeName':
      return p.status?.nominatedNodeName ?? '';
  }
  return '';
}

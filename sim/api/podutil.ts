// Mirrors pkg/api/v1/pod/util.go, pkg/controller/controller_utils.go (IsPodActive...) and
// staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/controller_ref.go: small helpers shared by
// the controllers, the kubelet and kubectl.

import { parseTime } from '../engine/clock.ts';
import type { Container, KubeObject, Node, NodeCondition, OwnerReference, Pod, PodCondition } from './types.ts';

/** getPodCondition returns the pod's condition of the given type. */
export function getPodCondition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** isRestartableInitContainer mirrors podutil.IsRestartableInitContainer: a sidecar. */
export function isRestartableInitContainer(c: Container | undefined): boolean {
  return c?.restartPolicy === 'Always';
}

/** isPodReady is true when the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return getPodCondition(pod, 'Ready')?.status === 'True';
}

/**
 * isPodAvailable mirrors podutil.IsPodAvailable: Ready for at least minReadySeconds, measured from
 * the Ready condition's lastTransitionTime.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  const c = getPodCondition(pod, 'Ready');
  if (c?.status !== 'True') return false;
  if (minReadySeconds === 0) return true;
  const t = c.lastTransitionTime ? parseTime(c.lastTransitionTime) : NaN;
  return !Number.isNaN(t) && t + minReadySeconds * 1000 <= nowMs;
}

/** isPodActive mirrors controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: Pod): boolean {
  return pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** isPodTerminating is true for a pod that has a deletionTimestamp but has not finished. */
export function isPodTerminating(pod: Pod): boolean {
  return !!pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}

/** getControllerOf returns the owner reference with controller: true. */
export function getControllerOf(o: KubeObject): OwnerReference | undefined {
  return o.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** newControllerRef mirrors metav1.NewControllerRef. */
export function newControllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** getNodeCondition returns the node's condition of the given type. */
export function getNodeCondition(node: Node, type: string): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === type);
}


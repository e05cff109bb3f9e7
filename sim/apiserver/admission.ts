// The admission plugins the simulator runs, in upstream's order for the ones modelled.
// Simplification: only ServiceAccount (serviceaccount-admission.ts), TaintNodesByCondition,
// Priority, DefaultTolerationSeconds and DefaultIngressClass are modelled; LimitRanger, ResourceQuota and webhooks are not.

import type { Ingress, IngressClass, Node, Pod, Toleration } from '../api/types.ts';
import { AnnotationIsDefaultIngressClass } from '../registry/networking/ingressclasses/types.ts';
import type { Settings } from '../engine/settings.ts';
import { newForbidden } from './errors.ts';

export const TaintNodeNotReady = 'node.kubernetes.io/not-ready';
export const TaintNodeUnreachable = 'node.kubernetes.io/unreachable';

// tolerates mirrors the check in defaulttolerationseconds/admission.go: a toleration whose key is
// the taint key or empty, and whose effect is NoExecute or empty, already covers the taint.
function tolerates(ts: Toleration[], key: string): boolean {
  return ts.some((t) => (!t.key || t.key === key) && (!t.effect || t.effect === 'NoExecute'));
}

/** defaultTolerationSeconds mirrors plugin/pkg/admission/defaulttolerationseconds#Admit. */
export function defaultTolerationSeconds(pod: Pod, settings: Settings): void {
  const ts = pod.spec.tolerations ?? [];
  const add: Toleration[] = [];
  if (!tolerates(ts, TaintNodeNotReady))
    add.push({ key: TaintNodeNotReady, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: settings.defaultNotReadyTolerationSeconds });
  if (!tolerates(ts, TaintNodeUnreachable))
    add.push({ key: TaintNodeUnreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: settings.defaultUnreachableTolerationSeconds });
  if (add.length) pod.spec.tolerations = [...ts, ...add];
}

/**
 * priorityAdmission mirrors plugin/pkg/admission/priority admitPod: the priority comes from the
 * PriorityClass named, and a name that resolves to none is Forbidden (admission.NewForbidden names
 * the Pod as the request did: its generateName when the name is still to be generated).
 * Simplification: only the two built-in classes exist (PriorityClass objects are not modelled).
 */
export function priorityAdmission(pod: Pod, requestName: string): void {
  const pc = pod.spec.priorityClassName;
  if (pc === 'system-node-critical') pod.spec.priority = 2000001000;
  else if (pc === 'system-cluster-critical') pod.spec.priority = 2000000000;
  else if (pc) throw newForbidden('pods', requestName, `no PriorityClass with name ${pc} was found`);
}

/** taintNodesByCondition mirrors plugin/pkg/admission/nodetaint: new nodes start not-ready:NoSchedule. */
export function taintNodesByCondition(node: Node): void {
  const taints = node.spec.taints ?? [];
  if (!taints.some((t) => t.key === TaintNodeNotReady && t.effect === 'NoSchedule'))
    node.spec.taints = [...taints, { key: TaintNodeNotReady, effect: 'NoSchedule' }];
}

/**
 * defaultIngressClass mirrors plugin/pkg/admission/network/defaultingressclass Admit: an Ingress
 * created with neither spec.ingressClassName nor the deprecated kubernetes.io/ingress.class
 * annotation gets the class annotated ingressclass.kubernetes.io/is-default-class: "true"; with
 * several such classes, the newest (then the first by name) wins (getDefaultClass).
 */
export function defaultIngressClass(ing: Ingress, classes: IngressClass[]): void {
  if (ing.metadata.annotations?.['kubernetes.io/ingress.class'] !== undefined) return;
  if (ing.spec?.ingressClassName !== undefined) return;
  const defaults = classes
    .filter((c) => c.metadata.annotations?.[AnnotationIsDefaultIngressClass] === 'true')
    .sort((a, b) => {
      const ta = a.metadata.creationTimestamp ?? '';
      const tb = b.metadata.creationTimestamp ?? '';
      if (ta === tb) return a.metadata.name < b.metadata.name ? -1 : 1;
      return ta > tb ? -1 : 1;
    });
  if (defaults.length === 0) return;
  ing.spec ??= {};
  ing.spec.ingressClassName = defaults[0]!.metadata.name;
}

// Mirrors pkg/registry/core/service/strategy.go (PrepareForUpdate: the allocated cluster IPs stay;
// dropTypeDependentFields), SetDefaults_Service (pkg/apis/core/v1/defaults.go) and
// ValidateService (pkg/apis/core/validation). Allocation of cluster IPs and node ports is the
// service REST storage's (pkg/registry/core/service/storage/alloc.go), in kube-apiserver.
// Simplification: ValidateService checks ports and their names only.

import type { AnyObject, Service } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import type { Strategy } from '../../rules.ts';

const SERVICE_FIELD_LABELS: ReadonlySet<string> = new Set([
  'metadata.namespace',
  'metadata.name',
  'spec.clusterIP',
  'spec.type',
]);

/** serviceStrategy is the Service's REST strategy. */
export const serviceStrategy: Strategy = {
  defaults: (obj) => defaultService(obj as Service),
  prepareForUpdate: prepareServiceForUpdate,
  validate: (obj) => validateService(obj as Service),
  defaultsInPlace: true,
  fieldLabels: { labels: SERVICE_FIELD_LABELS },
  selectableField: serviceSelectableField,
};

// serviceSelectableField mirrors ServiceSelectableFields (pkg/registry/core/service/strategy.go).
function serviceSelectableField(o: AnyObject, field: string): string {
  const s = o as Service;
  if (field === 'spec.clusterIP') return s.spec?.clusterIP ?? '';
  if (field === 'spec.type') return s.spec?.type ?? '';
  return '';
}

// prepareServiceForUpdate keeps the allocated IPs and drops what the new type no longer has.
function prepareServiceForUpdate(next: AnyObject, cur: AnyObject): void {
  const s = next as Service;
  const cs = cur as Service;
  s.spec.clusterIP = cs.spec.clusterIP;
  s.spec.clusterIPs = cs.spec.clusterIPs;
  s.spec.ipFamilies = cs.spec.ipFamilies;
  s.spec.ipFamilyPolicy = cs.spec.ipFamilyPolicy;
  // dropTypeDependentFields: a Service no longer reachable from outside loses the
  // externalTrafficPolicy the client did not change.
  if (
    externallyAccessible(cs) &&
    !externallyAccessible(s) &&
    s.spec.externalTrafficPolicy === cs.spec.externalTrafficPolicy
  )
    delete s.spec.externalTrafficPolicy;
}

/** externallyAccessible mirrors service.ExternallyAccessible (pkg/api/v1/service/util.go). */
export function externallyAccessible(svc: Service): boolean {
  const t = svc.spec.type;
  return (
    t === 'NodePort' ||
    t === 'LoadBalancer' ||
    (t === 'ClusterIP' && !!svc.spec.externalIPs?.length)
  );
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
  if (t === 'NodePort' || t === 'LoadBalancer' || (t === 'ClusterIP' && s.spec.externalIPs?.length))
    s.spec.externalTrafficPolicy ||= 'Cluster';
  if (s.spec.type === 'LoadBalancer') s.spec.allocateLoadBalancerNodePorts ??= true;
  for (const p of s.spec.ports ?? []) {
    p.protocol ||= 'TCP';
    // Upstream: a zero targetPort (0 or "") means the port itself.
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '')
      p.targetPort = p.port;
  }
  s.status ??= { loadBalancer: {} };
}

function validateService(s: Service): FieldError[] {
  const errs: FieldError[] = [];
  const ports = s.spec?.ports ?? [];
  if (ports.length === 0 && s.spec?.type !== 'ExternalName')
    errs.push({ field: 'spec.ports', type: 'Required value' });
  ports.forEach((p, i) => {
    if (!(Number.isInteger(p.port) && p.port >= 1 && p.port <= 65535))
      errs.push({
        field: `spec.ports[${i}].port`,
        type: 'Invalid value',
        value: p.port,
        detail: 'must be between 1 and 65535, inclusive',
      });
    if (ports.length > 1 && !p.name)
      errs.push({ field: `spec.ports[${i}].name`, type: 'Required value' });
  });
  return errs;
}

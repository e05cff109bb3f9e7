// Mirrors pkg/registry/core/service/strategy.go (PrepareForUpdate: patchAllocatedValues keeps the
// allocated cluster IPs, dropTypeDependentFields), SetDefaults_Service (pkg/apis/core/v1/defaults.go)
// and ValidateService (pkg/apis/core/validation/validation.go). Allocation of cluster IPs and node
// ports is the service REST storage's (pkg/registry/core/service/storage/alloc.go), in
// kube-apiserver.
// Simplification: ValidateService leaves out selector label syntax, appProtocol, loadBalancerClass, source-range
// syntax, trafficDistribution values, the special-IP checks of externalIPs and the deprecated
// topology annotations.

import { deepClone } from '../../../api/clone.ts';
import type { AnyObject, Service } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import { DNS1123_LABEL, LABEL_MSG } from '../../../apiserver/validation.ts';
import type { Strategy } from '../../rules.ts';
import type { ServicePort } from './types.ts';

const SERVICE_FIELD_LABELS: ReadonlySet<string> = new Set([
  'metadata.namespace',
  'metadata.name',
  'spec.clusterIP',
  'spec.type',
]);

/** DefaultClientIPServiceAffinitySeconds is core/v1's default ClientIP affinity timeout (3 h). */
export const DefaultClientIPServiceAffinitySeconds = 10800;
/** MaxClientIPServiceAffinitySeconds is the longest ClientIP affinity timeout (1 day). */
export const MaxClientIPServiceAffinitySeconds = 86400;

/** serviceStrategy is the Service's REST strategy. */
export const serviceStrategy: Strategy = {
  defaults: (obj) => defaultService(obj as Service),
  prepareForCreate: prepareServiceForCreate,
  prepareForUpdate: prepareServiceForUpdate,
  prepareForStatusUpdate: prepareServiceForStatusUpdate,
  validate: (obj) => validateService(obj as Service),
  defaultsInPlace: true,
  // ValidateServiceName is NameIsDNS1035Label.
  nameIsDNS1035Label: true,
  fieldLabels: { labels: SERVICE_FIELD_LABELS },
  selectableField: serviceSelectableField,
};

/**
 * prepareServiceForStatusUpdate mirrors serviceStatusStrategy.PrepareForUpdate, which resets only
 * spec: metadata written through services/status sticks (labels, annotations, finalizers,
 * ownerReferences). That is how the cloud service controller adds and removes its
 * service.kubernetes.io/load-balancer-cleanup finalizer (k8s.io/cloud-provider
 * service/helpers PatchService patches services/status). The ingress IP mode is defaulted as the
 * decoder defaults every Service (defaultLoadBalancerIPMode).
 * Simplification: ValidateServiceStatusUpdate (ingress IP syntax) is not run.
 */
function prepareServiceForStatusUpdate(next: AnyObject, client: AnyObject): void {
  const m = next.metadata as unknown as Record<string, unknown>;
  const from = client.metadata as unknown as Record<string, unknown> | undefined;
  for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences']) {
    if (from?.[k] !== undefined) m[k] = deepClone(from[k]);
    else delete m[k];
  }
  defaultLoadBalancerIPMode(next as Service);
}

/**
 * defaultLoadBalancerIPMode mirrors the end of SetDefaults_Service (LoadBalancerIPMode, GA in
 * v1.32): a LoadBalancer Service's ingress entry with an IP and no ipMode gets ipMode VIP. The
 * ingress list is replaced, never written in place (it may be the stored object's).
 */
function defaultLoadBalancerIPMode(s: Service): void {
  const ingress = s.status?.loadBalancer?.ingress;
  if (s.spec?.type !== 'LoadBalancer' || !ingress?.some((i) => i.ip && !i.ipMode)) return;
  s.status = {
    ...s.status,
    loadBalancer: {
      ...s.status.loadBalancer,
      ingress: ingress.map((i) => (i.ip && !i.ipMode ? { ...i, ipMode: 'VIP' as const } : i)),
    },
  };
}

// serviceSelectableField mirrors ServiceSelectableFields (pkg/registry/core/service/strategy.go).
function serviceSelectableField(o: AnyObject, field: string): string {
  const s = o as Service;
  if (field === 'spec.clusterIP') return s.spec?.clusterIP ?? '';
  if (field === 'spec.type') return s.spec?.type ?? '';
  return '';
}

/** needsClusterIP mirrors needsClusterIP (storage.go): every type but ExternalName has one. */
export function needsClusterIP(svc: Service): boolean {
  return svc.spec.type !== 'ExternalName';
}

/** needsHealthCheck mirrors service.NeedsHealthCheck: LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(svc: Service): boolean {
  return svc.spec.type === 'LoadBalancer' && svc.spec.externalTrafficPolicy === 'Local';
}

/** needsNodePort mirrors needsNodePort (storage.go): NodePort and LoadBalancer Services. */
export function needsNodePort(svc: Service): boolean {
  return svc.spec.type === 'NodePort' || svc.spec.type === 'LoadBalancer';
}

// sameNodePorts mirrors sameNodePorts: the same (protocol, node port) pairs.
function sameNodePorts(a: Service, b: Service): boolean {
  const bag = (s: Service) =>
    (s.spec.ports ?? [])
      .filter((p) => p.nodePort)
      .map((p) => `${p.protocol}/${p.nodePort}`)
      .sort();
  return sameStrings(bag(a), bag(b));
}

function sameStrings(a: string[] | undefined, b: string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

// prepareServiceForUpdate mirrors patchAllocatedValues (a client that leaves the cluster IPs out
// keeps the allocated ones) and dropTypeDependentFields (a field the new type no longer has, and
// the client did not change, is dropped; allocation is the storage's, in kube-apiserver).
function prepareServiceForUpdate(next: AnyObject, cur: AnyObject): void {
  const s = next as Service;
  const old = cur as Service;
  if (needsClusterIP(old) && needsClusterIP(s)) {
    if (!s.spec.clusterIP) s.spec.clusterIP = old.spec.clusterIP;
    if (!s.spec.clusterIPs?.length && old.spec.clusterIPs?.length)
      s.spec.clusterIPs = old.spec.clusterIPs;
    // initIPFamilyFields: an update without a policy adopts the old one.
    if (!s.spec.ipFamilyPolicy && old.spec.ipFamilyPolicy)
      s.spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
    if (!s.spec.ipFamilies?.length && old.spec.ipFamilies?.length)
      s.spec.ipFamilies = old.spec.ipFamilies;
  }
  // dropTypeDependentFields.
  if (needsClusterIP(old) && !needsClusterIP(s)) {
    if (
      (s.spec.clusterIP ?? '') === (old.spec.clusterIP ?? '') &&
      (!s.spec.clusterIPs || sameStrings(s.spec.clusterIPs, old.spec.clusterIPs))
    ) {
      delete s.spec.clusterIP;
      delete s.spec.clusterIPs;
    }
    if (!s.spec.ipFamilies || sameStrings(s.spec.ipFamilies, old.spec.ipFamilies))
      delete s.spec.ipFamilies;
    if (!s.spec.ipFamilyPolicy || s.spec.ipFamilyPolicy === old.spec.ipFamilyPolicy)
      delete s.spec.ipFamilyPolicy;
  }
  if (needsHealthCheck(old) && needsHealthCheck(s) && !s.spec.healthCheckNodePort)
    s.spec.healthCheckNodePort = old.spec.healthCheckNodePort;
  if (
    needsHealthCheck(old) &&
    !needsHealthCheck(s) &&
    s.spec.healthCheckNodePort === old.spec.healthCheckNodePort
  )
    delete s.spec.healthCheckNodePort;
  if (needsNodePort(old) && !needsNodePort(s) && sameNodePorts(old, s))
    for (const p of s.spec.ports ?? []) delete p.nodePort;
  if (
    old.spec.type === 'LoadBalancer' &&
    s.spec.type !== 'LoadBalancer' &&
    s.spec.allocateLoadBalancerNodePorts !== undefined &&
    s.spec.allocateLoadBalancerNodePorts === old.spec.allocateLoadBalancerNodePorts
  )
    delete s.spec.allocateLoadBalancerNodePorts;
  if (
    externallyAccessible(old) &&
    !externallyAccessible(s) &&
    s.spec.externalTrafficPolicy === old.spec.externalTrafficPolicy
  )
    delete s.spec.externalTrafficPolicy;
  // The load-balancer status goes with the type.
  if (s.spec.type !== 'LoadBalancer' && s.status?.loadBalancer?.ingress)
    s.status = { ...s.status, loadBalancer: {} };
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
 * defaultService mirrors SetDefaults_Service: sessionAffinity (and the ClientIP timeout), type,
 * protocol, targetPort, the traffic policies (externalTrafficPolicy only for a Service reachable
 * from outside, internalTrafficPolicy for every type but ExternalName), and
 * allocateLoadBalancerNodePorts for LoadBalancer.
 */
export function defaultService(s: Service): void {
  // The fields are set in the order the simulator always set them, so stored objects keep their
  // JSON key order.
  s.spec.type ||= 'ClusterIP';
  s.spec.sessionAffinity ||= 'None';
  if (s.spec.sessionAffinity === 'None') delete s.spec.sessionAffinityConfig;
  if (
    s.spec.sessionAffinity === 'ClientIP' &&
    s.spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined
  )
    s.spec.sessionAffinityConfig = {
      clientIP: { timeoutSeconds: DefaultClientIPServiceAffinitySeconds },
    };
  const t = s.spec.type;
  if (t === 'NodePort' || t === 'LoadBalancer' || t === 'ClusterIP')
    s.spec.internalTrafficPolicy ??= 'Cluster';
  if (externallyAccessible(s)) s.spec.externalTrafficPolicy ||= 'Cluster';
  if (t === 'LoadBalancer') s.spec.allocateLoadBalancerNodePorts ??= true;
  for (const p of s.spec.ports ?? []) {
    p.protocol ||= 'TCP';
    // A zero targetPort (0 or "") means the port itself.
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '')
      p.targetPort = p.port;
  }
}

// prepareServiceForCreate mirrors PrepareForCreate: a new Service starts with an empty status
// (its loadBalancer is a struct, so it reads `loadBalancer: {}`).
function prepareServiceForCreate(obj: AnyObject): void {
  (obj as Service).status = { loadBalancer: {} };
}

const SUPPORTED_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SUPPORTED_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SUPPORTED_AFFINITY = ['ClientIP', 'None'];
const SUPPORTED_TRAFFIC_POLICIES = ['Cluster', 'Local'];
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const PORT_NUM_MSG = 'must be between 1 and 65535, inclusive';
const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

function quoted(values: string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}

function notSupported(field: string, value: string, supported: string[]): FieldError {
  return {
    field,
    type: 'Unsupported value',
    value,
    detail: `supported values: ${quoted(supported)}`,
  };
}

/** isHeadlessService mirrors isHeadlessService: clusterIPs[0] is None. */
export function isHeadlessService(s: Service): boolean {
  return s.spec.clusterIPs?.[0] === 'None' || s.spec.clusterIP === 'None';
}

/** isValidPortNum mirrors validation.IsValidPortNum. */
function isValidPortNum(n: unknown): boolean {
  return Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 65535;
}

/** isValidPortName mirrors validation.IsValidPortName: its messages, in its order. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens (-)');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-')))
    errs.push('must not begin or end with a hyphen (-)');
  return errs;
}

function isIPv4(ip: string): boolean {
  const parts = ip.split('.');
  return (
    parts.length === 4 && parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255)
  );
}

// goServicePort renders a duplicate port key as Go's %#v prints core.ServicePort{Protocol, Port}.
function goServicePort(p: ServicePort): string {
  return `core.ServicePort{Name:"", Protocol:"${p.protocol ?? ''}", AppProtocol:(*string)(nil), Port:${p.port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;
}

// validateServicePort mirrors validateServicePort: the name (required when there are several
// ports, a DNS-1123 label, unique), the port number, the protocol and the target port.
function validateServicePort(
  p: ServicePort,
  requireName: boolean,
  names: Set<string>,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !p.name) errs.push({ field: `${path}.name`, type: 'Required value' });
  else if (p.name) {
    if (p.name.length > 63)
      errs.push({
        field: `${path}.name`,
        type: 'Invalid value',
        value: p.name,
        detail: 'must be no more than 63 characters',
      });
    if (!DNS1123_LABEL.test(p.name))
      errs.push({ field: `${path}.name`, type: 'Invalid value', value: p.name, detail: LABEL_MSG });
    if (names.has(p.name))
      errs.push({ field: `${path}.name`, type: 'Duplicate value', value: p.name });
    else names.add(p.name);
  }
  if (!isValidPortNum(p.port))
    errs.push({
      field: `${path}.port`,
      type: 'Invalid value',
      value: p.port,
      detail: PORT_NUM_MSG,
    });
  if (!p.protocol) errs.push({ field: `${path}.protocol`, type: 'Required value' });
  else if (!SUPPORTED_PROTOCOLS.includes(p.protocol))
    errs.push(notSupported(`${path}.protocol`, p.protocol, SUPPORTED_PROTOCOLS));
  // ValidatePortNumOrName.
  const tp = p.targetPort;
  if (typeof tp === 'number') {
    if (!isValidPortNum(tp))
      errs.push({
        field: `${path}.targetPort`,
        type: 'Invalid value',
        value: tp,
        detail: PORT_NUM_MSG,
      });
  } else if (typeof tp === 'string') {
    for (const msg of isValidPortName(tp))
      errs.push({ field: `${path}.targetPort`, type: 'Invalid value', value: tp, detail: msg });
  }
  return errs;
}

/** validateService mirrors ValidateService, in its order of checks. */
export function validateService(s: Service): FieldError[] {
  const errs: FieldError[] = [];
  const spec = s.spec ?? {};
  const ports = spec.ports ?? [];
  const headless = isHeadlessService(s);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName')
    errs.push({ field: 'spec.ports', type: 'Required value' });
  switch (spec.type) {
    case 'LoadBalancer':
    case 'NodePort':
      if (headless)
        errs.push({
          field: 'spec.clusterIPs[0]',
          type: 'Invalid value',
          value: 'None',
          detail: `may not be set to 'None' for ${spec.type} services`,
        });
      break;
    case 'ExternalName': {
      const forbidden = 'may not be set for ExternalName services';
      if (spec.clusterIPs?.length)
        errs.push({ field: 'spec.clusterIPs', type: 'Forbidden', detail: forbidden });
      if (spec.ipFamilies?.length)
        errs.push({ field: 'spec.ipFamilies', type: 'Forbidden', detail: forbidden });
      if (spec.ipFamilyPolicy)
        errs.push({ field: 'spec.ipFamilyPolicy', type: 'Forbidden', detail: forbidden });
      // The name (a CNAME) may end in a dot, as a fully qualified name does.
      const cname = (spec.externalName ?? '').replace(/\.$/, '');
      if (!cname) errs.push({ field: 'spec.externalName', type: 'Required value' });
      else {
        if (cname.length > 253)
          errs.push({
            field: 'spec.externalName',
            type: 'Invalid value',
            value: cname,
            detail: 'must be no more than 253 characters',
          });
        if (!DNS1123_SUBDOMAIN.test(cname))
          errs.push({
            field: 'spec.externalName',
            type: 'Invalid value',
            value: cname,
            detail: SUBDOMAIN_MSG,
          });
      }
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((p, i) => {
    errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`));
  });
  if (!spec.sessionAffinity) errs.push({ field: 'spec.sessionAffinity', type: 'Required value' });
  else if (!SUPPORTED_AFFINITY.includes(spec.sessionAffinity))
    errs.push(notSupported('spec.sessionAffinity', spec.sessionAffinity, SUPPORTED_AFFINITY));
  if (spec.sessionAffinity === 'ClientIP') errs.push(...validateClientIPAffinityConfig(s));
  else if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig)
    errs.push({
      field: 'spec.sessionAffinityConfig',
      type: 'Forbidden',
      detail: 'must not be set when session affinity is None',
    });
  (spec.externalIPs ?? []).forEach((ip, i) => {
    if (!isIPv4(ip))
      errs.push({
        field: `spec.externalIPs[${i}]`,
        type: 'Invalid value',
        value: ip,
        detail: IP_MSG,
      });
  });
  if (!spec.type) errs.push({ field: 'spec.type', type: 'Required value' });
  else if (!SUPPORTED_TYPES.includes(spec.type))
    errs.push(notSupported('spec.type', spec.type, SUPPORTED_TYPES));
  if (spec.type === 'ClusterIP')
    ports.forEach((p, i) => {
      if (p.nodePort)
        errs.push({
          field: `spec.ports[${i}].nodePort`,
          type: 'Forbidden',
          detail: "may not be used when `type` is 'ClusterIP'",
        });
    });
  // Duplicate node ports and ports, each keyed by protocol.
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (!p.nodePort) return;
    const key = `${p.protocol}/${p.nodePort}`;
    if (nodePorts.has(key))
      errs.push({ field: `spec.ports[${i}].nodePort`, type: 'Duplicate value', value: p.nodePort });
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p.protocol}/${p.port}`;
    if (seen.has(key))
      errs.push({ field: `spec.ports[${i}]`, type: 'Duplicate value', raw: goServicePort(p) });
    seen.add(key);
  });
  if (spec.loadBalancerSourceRanges?.length && spec.type !== 'LoadBalancer')
    errs.push({
      // Upstream's path has the capital L.
      field: 'spec.LoadBalancerSourceRanges',
      type: 'Forbidden',
      detail: "may only be used when `type` is 'LoadBalancer'",
    });
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== 'LoadBalancer')
    errs.push({
      field: 'spec.allocateLoadBalancerNodePorts',
      type: 'Forbidden',
      detail: "may only be used when `type` is 'LoadBalancer'",
    });
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined)
    errs.push({ field: 'allocateLoadBalancerNodePorts', type: 'Required value' });
  errs.push(...validateServiceExternalTrafficPolicy(s));
  // validateServiceInternalTrafficFieldsValue.
  const itp = spec.internalTrafficPolicy;
  if (itp === undefined) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')
      errs.push({ field: 'spec.internalTrafficPolicy', type: 'Required value' });
  } else if (!SUPPORTED_TRAFFIC_POLICIES.includes(itp))
    errs.push(notSupported('spec.internalTrafficPolicy', itp, SUPPORTED_TRAFFIC_POLICIES));
  return errs;
}

// validateClientIPAffinityConfig mirrors validateClientIPAffinityConfig.
function validateClientIPAffinityConfig(s: Service): FieldError[] {
  const detail = 'when session affinity type is ClientIP';
  const config = s.spec.sessionAffinityConfig;
  if (!config) return [{ field: 'spec.sessionAffinityConfig', type: 'Required value', detail }];
  if (!config.clientIP)
    return [{ field: 'spec.sessionAffinityConfig.clientIP', type: 'Required value', detail }];
  const t = config.clientIP.timeoutSeconds;
  const field = 'spec.sessionAffinityConfig.clientIP.timeoutSeconds';
  if (t === undefined) return [{ field, type: 'Required value', detail }];
  if (!(t > 0 && t <= MaxClientIPServiceAffinitySeconds))
    return [
      {
        field,
        type: 'Invalid value',
        value: t,
        detail: `must be greater than 0 and less than ${MaxClientIPServiceAffinitySeconds}`,
      },
    ];
  return [];
}

// validateServiceExternalTrafficPolicy mirrors validateServiceExternalTrafficPolicy: only a Service
// reachable from outside has the policy (and must), and only a LoadBalancer one with policy Local
// has a health-check node port.
function validateServiceExternalTrafficPolicy(s: Service): FieldError[] {
  const etp = s.spec.externalTrafficPolicy;
  const field = 'spec.externalTrafficPolicy';
  const errs: FieldError[] = [];
  if (!externallyAccessible(s)) {
    if (etp)
      errs.push({
        field,
        type: 'Invalid value',
        value: etp,
        detail: 'may only be set for externally-accessible services',
      });
  } else if (!etp) errs.push({ field, type: 'Required value' });
  else if (!SUPPORTED_TRAFFIC_POLICIES.includes(etp))
    errs.push(notSupported(field, etp, SUPPORTED_TRAFFIC_POLICIES));
  if (!needsHealthCheck(s) && s.spec.healthCheckNodePort)
    errs.push({
      field: 'spec.healthCheckNodePort',
      type: 'Forbidden',
      detail:
        "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    });
  return errs;
}

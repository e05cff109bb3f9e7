// Mirrors a subset of pkg/apis/core/validation/validation.go and pkg/apis/apps/validation:
// the checks a learner's manifest is most likely to fail, with upstream's field paths and words.
// Simplification: many rarely-hit checks are not modelled; an object they would reject is accepted.

import { labelSelectorAsSelector } from '../api/labels.ts';
import { parseQuantity } from '../api/quantity.ts';
import type { AnyObject, Container, Deployment, PodSpec, ReplicaSet, Service } from '../api/types.ts';
import type { FieldError } from './errors.ts';
import { validateVolumeMounts, validateVolumes } from '../registry/core/pods/volumes.ts';
import { validateConfigMap } from '../registry/core/configmaps/strategy.ts';
import { validatePodDisruptionBudget } from '../registry/policy/poddisruptionbudgets/strategy.ts';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** validateName checks metadata.name as ValidateObjectMeta does for the resource's rule. */
export function validateName(name: string, label: boolean): FieldError[] {
  if (!name) return [{ field: 'metadata.name', type: 'Required value', detail: 'name or generateName is required' }];
  const errs: FieldError[] = [];
  if (name.length > (label ? 63 : 253))
    errs.push({ field: 'metadata.name', type: 'Invalid value', value: name, detail: `must be no more than ${label ? 63 : 253} characters` });
  if (!(label ? DNS1123_LABEL : DNS1123_SUBDOMAIN).test(name))
    errs.push({ field: 'metadata.name', type: 'Invalid value', value: name, detail: label ? LABEL_MSG : SUBDOMAIN_MSG });
  return errs;
}

const RESOURCE_LISTS = ['requests', 'limits'] as const;

// validateResources checks a container's quantities. Every Pod created runs it, so it walks the
// maps without building entry arrays, and paths are built only for errors.
function validateResources(c: Container, path: string, errs: FieldError[]): void {
  if (!c.resources) return;
  for (const kind of RESOURCE_LISTS) {
    const list = c.resources[kind];
    for (const k in list) {
      const v = list[k];
      const q = parseQuantity(v);
      if (q === undefined) errs.push({ field: `${path}.resources.${kind}[${k}]`, type: 'Invalid value', value: v, detail: 'must be a valid quantity' });
      else if (q < 0) errs.push({ field: `${path}.resources.${kind}[${k}]`, type: 'Invalid value', value: v, detail: 'must be greater than or equal to 0' });
    }
  }
  const req = c.resources.requests ?? {};
  const lim = c.resources.limits ?? {};
  for (const k in req) {
    if (lim[k] === undefined) continue;
    const r = parseQuantity(req[k]);
    const l = parseQuantity(lim[k]);
    if (r !== undefined && l !== undefined && r > l)
      errs.push({ field: `${path}.resources.requests`, type: 'Invalid value', value: req[k], detail: `must be less than or equal to ${k} limit of ${lim[k]}` });
  }
}

/**
 * validatePodSpec checks volumes, containers (names, images, ports, resources, mounts), then init
 * containers (whose names may not repeat a container's), and the policies.
 */
export function validatePodSpec(spec: PodSpec | undefined, base: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec || !Array.isArray(spec.containers) || spec.containers.length === 0) {
    errs.push({ field: `${base}.containers`, type: 'Required value' });
    return errs;
  }
  const volumes = validateVolumes(spec, base, errs);
  const names = new Set<string>();
  validateContainers(spec.containers, `${base}.containers`, names, volumes, errs);
  if (spec.initContainers?.length)
    validateContainers(spec.initContainers, `${base}.initContainers`, names, volumes, errs);
  if (spec.restartPolicy && !RESTART_POLICIES.includes(spec.restartPolicy))
    errs.push({ field: `${base}.restartPolicy`, type: 'Unsupported value', value: spec.restartPolicy, detail: 'supported values: "Always", "OnFailure", "Never"' });
  if (spec.dnsPolicy && !DNS_POLICIES.includes(spec.dnsPolicy))
    errs.push({ field: `${base}.dnsPolicy`, type: 'Unsupported value', value: spec.dnsPolicy, detail: 'supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"' });
  if (spec.serviceAccountName)
    for (const e of validateName(spec.serviceAccountName, false))
      errs.push({ ...e, field: `${base}.serviceAccountName` });
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0)
    errs.push({ field: `${base}.terminationGracePeriodSeconds`, type: 'Invalid value', value: spec.terminationGracePeriodSeconds, detail: 'must be greater than or equal to 0' });
  for (const [i, t] of (spec.tolerations ?? []).entries()) {
    if (t.operator === 'Exists' && t.value) errs.push({ field: `${base}.tolerations[${i}].operator`, type: 'Invalid value', value: t.value, detail: 'value must be empty when `operator` is \'Exists\'' });
    if (t.tolerationSeconds !== undefined && t.effect && t.effect !== 'NoExecute')
      errs.push({ field: `${base}.tolerations[${i}].effect`, type: 'Invalid value', value: t.effect, detail: "effect must be 'NoExecute' when `tolerationSeconds` is set" });
  }
  return errs;
}

const RESTART_POLICIES: readonly string[] = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES: readonly string[] = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

// validateContainers mirrors validateContainers and validateInitContainers: names are DNS-1123
// labels unique across both lists (names carries them over), images are set, ports in range,
// resources valid and every mount names a volume.
function validateContainers(list: Container[], path: string, names: Set<string>, volumes: ReadonlySet<string>, errs: FieldError[]): void {
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    if (!c.name) errs.push({ field: `${p}.name`, type: 'Required value' });
    else if (!DNS1123_LABEL.test(c.name)) errs.push({ field: `${p}.name`, type: 'Invalid value', value: c.name, detail: LABEL_MSG });
    else if (names.has(c.name)) errs.push({ field: `${p}.name`, type: 'Duplicate value', value: c.name });
    names.add(c.name);
    if (!c.image || !String(c.image).trim()) errs.push({ field: `${p}.image`, type: 'Required value' });
    (c.ports ?? []).forEach((port, j) => {
      if (!(Number.isInteger(port.containerPort) && port.containerPort >= 1 && port.containerPort <= 65535))
        errs.push({ field: `${p}.ports[${j}].containerPort`, type: 'Invalid value', value: port.containerPort, detail: 'must be between 1 and 65535, inclusive' });
    });
    validateResources(c, p, errs);
    validateVolumeMounts(c, volumes, p, errs);
  });
}

export function validatePercentOrInt(v: unknown, field: string, errs: FieldError[]): void {
  if (typeof v === 'number') {
    if (v < 0) errs.push({ field, type: 'Invalid value', value: v, detail: 'must be greater than or equal to 0' });
  } else if (typeof v === 'string') {
    const m = /^(\d+)%$/.exec(v);
    if (!m) errs.push({ field, type: 'Invalid value', value: v, detail: "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')" });
    else if (Number(m[1]) > 100) errs.push({ field, type: 'Invalid value', value: v, detail: 'must not be greater than 100%' });
  }
}

function isZero(v: unknown): boolean {
  return v === 0 || v === '0%';
}

function validateWorkload(o: Deployment | ReplicaSet, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o.spec;
  if (!spec) return [{ field: 'spec', type: 'Required value' }];
  if (spec.replicas !== undefined && (!Number.isInteger(spec.replicas) || spec.replicas < 0))
    errs.push({ field: 'spec.replicas', type: 'Invalid value', value: spec.replicas, detail: 'must be greater than or equal to 0' });
  if (!spec.selector) errs.push({ field: 'spec.selector', type: 'Required value' });
  else if (!spec.selector.matchLabels && !spec.selector.matchExpressions)
    errs.push({ field: 'spec.selector', type: 'Invalid value', raw: 'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}', detail: `empty selector is invalid for ${kind}` });
  else if (!labelSelectorAsSelector(spec.selector).matches(spec.template?.metadata?.labels))
    errs.push({ field: 'spec.template.metadata.labels', type: 'Invalid value', raw: goMap(spec.template?.metadata?.labels ?? {}), detail: '`selector` does not match template `labels`' });
  if (!spec.template) errs.push({ field: 'spec.template', type: 'Required value' });
  else {
    errs.push(...validatePodSpec(spec.template.spec, 'spec.template.spec'));
    if (spec.template.spec?.restartPolicy && spec.template.spec.restartPolicy !== 'Always')
      errs.push({ field: 'spec.template.spec.restartPolicy', type: 'Unsupported value', value: spec.template.spec.restartPolicy, detail: 'supported values: "Always"' });
  }
  return errs;
}

function goMap(m: Record<string, string>): string {
  return `map[string]string{${Object.keys(m)
    .sort()
    .map((k) => `"${k}":"${m[k]}"`)
    .join(', ')}}`;
}

function validateDeployment(d: Deployment): FieldError[] {
  const errs = validateWorkload(d, 'deployment');
  const s = d.spec?.strategy;
  if (s?.type === 'RollingUpdate' && s.rollingUpdate) {
    const { maxSurge, maxUnavailable } = s.rollingUpdate;
    validatePercentOrInt(maxSurge, 'spec.strategy.rollingUpdate.maxSurge', errs);
    validatePercentOrInt(maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable', errs);
    if (isZero(maxSurge) && isZero(maxUnavailable))
      errs.push({ field: 'spec.strategy.rollingUpdate.maxUnavailable', type: 'Invalid value', value: maxUnavailable, detail: 'may not be 0 when `maxSurge` is 0' });
  }
  if (s?.type === 'Recreate' && s.rollingUpdate)
    errs.push({ field: 'spec.strategy.rollingUpdate', type: 'Forbidden', detail: 'may not be specified when strategy `type` is \'Recreate\'' });
  if (s?.type && s.type !== 'Recreate' && s.type !== 'RollingUpdate')
    errs.push({ field: 'spec.strategy.type', type: 'Unsupported value', value: s.type, detail: 'supported values: "Recreate", "RollingUpdate"' });
  return errs;
}

function validateService(s: Service): FieldError[] {
  const errs: FieldError[] = [];
  const ports = s.spec?.ports ?? [];
  if (ports.length === 0 && s.spec?.type !== 'ExternalName') errs.push({ field: 'spec.ports', type: 'Required value' });
  ports.forEach((p, i) => {
    if (!(Number.isInteger(p.port) && p.port >= 1 && p.port <= 65535))
      errs.push({ field: `spec.ports[${i}].port`, type: 'Invalid value', value: p.port, detail: 'must be between 1 and 65535, inclusive' });
    if (ports.length > 1 && !p.name) errs.push({ field: `spec.ports[${i}].name`, type: 'Required value' });
  });
  return errs;
}

/** validate runs the checks for an object's kind; names are checked by the caller. */
export function validateObject(o: AnyObject): FieldError[] {
  switch (o.kind) {
    case 'Pod':
      return validatePodSpec(o.spec, 'spec');
    case 'Deployment':
      return validateDeployment(o);
    case 'ReplicaSet':
      return validateWorkload(o, 'replicaset');
    case 'Service':
      return validateService(o);
    case 'ConfigMap':
      return validateConfigMap(o);
    case 'PodDisruptionBudget':
      return validatePodDisruptionBudget(o);
    default:
      return [];
  }
}

// Mirrors the PodSpec rules every kind with a pod template shares: SetDefaults_PodSpec and
// SetDefaults_Container (pkg/apis/core/v1/defaults.go), the v1 conversion of the service account
// fields (pkg/apis/core/v1/conversion.go), and ValidatePodSpec (pkg/apis/core/validation).
// As in Go, a string field holding "" is unset (||=); a pointer field is unset only when absent
// (??=). Quantities are held in canonical form (SetDefaults_ResourceList, see api/quantity.ts).
// Simplification: ValidatePodSpec checks volumes, mounts, containers, names, images, ports,
// quantities, policies and tolerations only.

import { defaultResourceList, parseQuantity } from '../../../api/quantity.ts';
import type { Container, PodSpec, PodTemplateSpec } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import { DNS1123_LABEL, LABEL_MSG, validateName } from '../../../apiserver/validation.ts';
import { defaultVolumes, validateVolumeMounts, validateVolumes } from './volumes.ts';

function defaultContainer(c: Container): void {
  if (!c.imagePullPolicy) {
    // SetDefaults_Container: Always for :latest or no tag, else IfNotPresent.
    const ref = c.image.includes('@') ? '' : c.image.slice(c.image.lastIndexOf('/') + 1);
    const tag = ref.includes(':')
      ? ref.slice(ref.indexOf(':') + 1)
      : c.image.includes('@')
        ? 'digest'
        : 'latest';
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
    for (const [k, v] of Object.entries(r.limits))
      if (r.requests[k] === undefined) r.requests[k] = v;
  }
}

/**
 * convertServiceAccount mirrors the v1 conversion of a PodSpec's service account: on the way in
 * (Convert_v1_PodSpec_To_core_PodSpec) a missing serviceAccountName is taken from the deprecated
 * serviceAccount; on the way out (Convert_core_PodSpec_To_v1_PodSpec) serviceAccount is set to
 * serviceAccountName, and omitted when that is empty.
 */
export function convertServiceAccount(s: PodSpec): void {
  if (!s.serviceAccountName && s.serviceAccount) s.serviceAccountName = s.serviceAccount;
  // Only a change is written: the template of a stored object may be shared (and frozen).
  if (s.serviceAccountName) {
    if (s.serviceAccount !== s.serviceAccountName) s.serviceAccount = s.serviceAccountName;
  } else if (s.serviceAccount !== undefined) delete s.serviceAccount;
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
export function defaultTemplate(t: PodTemplateSpec): void {
  t.metadata ??= {};
  defaultPodSpec(t.spec);
  convertServiceAccount(t.spec);
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
      if (q === undefined)
        errs.push({
          field: `${path}.resources.${kind}[${k}]`,
          type: 'Invalid value',
          value: v,
          detail: 'must be a valid quantity',
        });
      else if (q < 0)
        errs.push({
          field: `${path}.resources.${kind}[${k}]`,
          type: 'Invalid value',
          value: v,
          detail: 'must be greater than or equal to 0',
        });
    }
  }
  const req = c.resources.requests ?? {};
  const lim = c.resources.limits ?? {};
  for (const k in req) {
    if (lim[k] === undefined) continue;
    const r = parseQuantity(req[k]);
    const l = parseQuantity(lim[k]);
    if (r !== undefined && l !== undefined && r > l)
      errs.push({
        field: `${path}.resources.requests`,
        type: 'Invalid value',
        value: req[k],
        detail: `must be less than or equal to ${k} limit of ${lim[k]}`,
      });
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
    errs.push({
      field: `${base}.restartPolicy`,
      type: 'Unsupported value',
      value: spec.restartPolicy,
      detail: 'supported values: "Always", "OnFailure", "Never"',
    });
  if (spec.dnsPolicy && !DNS_POLICIES.includes(spec.dnsPolicy))
    errs.push({
      field: `${base}.dnsPolicy`,
      type: 'Unsupported value',
      value: spec.dnsPolicy,
      detail: 'supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    });
  if (spec.serviceAccountName)
    for (const e of validateName(spec.serviceAccountName, false))
      errs.push({ ...e, field: `${base}.serviceAccountName` });
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0)
    errs.push({
      field: `${base}.terminationGracePeriodSeconds`,
      type: 'Invalid value',
      value: spec.terminationGracePeriodSeconds,
      detail: 'must be greater than or equal to 0',
    });
  for (const [i, t] of (spec.tolerations ?? []).entries()) {
    if (t.operator === 'Exists' && t.value)
      errs.push({
        field: `${base}.tolerations[${i}].operator`,
        type: 'Invalid value',
        value: t.value,
        detail: "value must be empty when `operator` is 'Exists'",
      });
    if (t.tolerationSeconds !== undefined && t.effect && t.effect !== 'NoExecute')
      errs.push({
        field: `${base}.tolerations[${i}].effect`,
        type: 'Invalid value',
        value: t.effect,
        detail: "effect must be 'NoExecute' when `tolerationSeconds` is set",
      });
  }
  return errs;
}

const RESTART_POLICIES: readonly string[] = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES: readonly string[] = [
  'ClusterFirstWithHostNet',
  'ClusterFirst',
  'Default',
  'None',
];

// validateContainers mirrors validateContainers and validateInitContainers: names are DNS-1123
// labels unique across both lists (names carries them over), images are set, ports in range,
// resources valid and every mount names a volume.
function validateContainers(
  list: Container[],
  path: string,
  names: Set<string>,
  volumes: ReadonlySet<string>,
  errs: FieldError[],
): void {
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    if (!c.name) errs.push({ field: `${p}.name`, type: 'Required value' });
    else if (!DNS1123_LABEL.test(c.name))
      errs.push({ field: `${p}.name`, type: 'Invalid value', value: c.name, detail: LABEL_MSG });
    else if (names.has(c.name))
      errs.push({ field: `${p}.name`, type: 'Duplicate value', value: c.name });
    names.add(c.name);
    if (!c.image || !String(c.image).trim())
      errs.push({ field: `${p}.image`, type: 'Required value' });
    (c.ports ?? []).forEach((port, j) => {
      if (!(
        Number.isInteger(port.containerPort) &&
        port.containerPort >= 1 &&
        port.containerPort <= 65535
      ))
        errs.push({
          field: `${p}.ports[${j}].containerPort`,
          type: 'Invalid value',
          value: port.containerPort,
          detail: 'must be between 1 and 65535, inclusive',
        });
    });
    validateResources(c, p, errs);
    validateVolumeMounts(c, volumes, p, errs);
  });
}

// Mirrors the volume checks of pkg/apis/core/validation/validation.go: ValidateVolumes (a DNS-1123
// label name, unique, exactly one volume source) and ValidateVolumeMounts (each mount names a
// volume the Pod has, a mountPath, unique within the container), with upstream's field paths.
// Simplification: the sources themselves (paths, items, modes) are not validated.

import type { Container, PodSpec } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** volumeSources are the VolumeSource fields of core/v1, in the Go struct's order. */
const volumeSources = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];

/**
 * validateVolumes checks spec.volumes and returns the names of the valid ones (the volumes a
 * mount may name), appending errors to errs.
 */
export function validateVolumes(spec: PodSpec, base: string, errs: FieldError[]): Set<string> {
  const names = new Set<string>();
  (spec.volumes ?? []).forEach((v, i) => {
    const p = `${base}.volumes[${i}]`;
    const el: FieldError[] = [];
    const set = volumeSources.filter((k) => v[k] !== undefined && v[k] !== null);
    if (set.length === 0)
      el.push({ field: p, type: 'Required value', detail: 'must specify a volume type' });
    for (const k of set.slice(1))
      el.push({
        field: `${p}.${k}`,
        type: 'Forbidden',
        detail: 'may not specify more than 1 volume type',
      });
    if (!v.name) el.push({ field: `${p}.name`, type: 'Required value' });
    else {
      if (v.name.length > 63)
        el.push({
          field: `${p}.name`,
          type: 'Invalid value',
          value: v.name,
          detail: 'must be no more than 63 characters',
        });
      if (!DNS1123_LABEL.test(v.name))
        el.push({ field: `${p}.name`, type: 'Invalid value', value: v.name, detail: LABEL_MSG });
    }
    if (names.has(v.name)) el.push({ field: `${p}.name`, type: 'Duplicate value', value: v.name });
    if (el.length === 0) names.add(v.name);
    else errs.push(...el);
  });
  return names;
}

/** validateVolumeMounts checks one container's volumeMounts against the Pod's volumes. */
export function validateVolumeMounts(
  c: Container,
  volumes: ReadonlySet<string>,
  path: string,
  errs: FieldError[],
): void {
  const mountPoints = new Set<string>();
  (c.volumeMounts ?? []).forEach((m, i) => {
    const p = `${path}.volumeMounts[${i}]`;
    if (!m.name) errs.push({ field: `${p}.name`, type: 'Required value' });
    if (!volumes.has(m.name))
      errs.push({ field: `${p}.name`, type: 'Not found', value: m.name ?? '' });
    if (!m.mountPath) errs.push({ field: `${p}.mountPath`, type: 'Required value' });
    if (mountPoints.has(m.mountPath))
      errs.push({
        field: `${p}.mountPath`,
        type: 'Invalid value',
        value: m.mountPath,
        detail: 'must be unique',
      });
    mountPoints.add(m.mountPath);
  });
}

const DefaultMode = 420;

/**
 * defaultVolumes mirrors the volume defaulting of pkg/apis/core/v1/defaults.go: a volume with no
 * source is an emptyDir (SetDefaults_Volume), hostPath's type is "" (SetDefaults_HostPathVolumeSource),
 * and secret, configMap, downwardAPI and projected sources get defaultMode 420 and their field
 * references apiVersion v1 (SetDefaults_ObjectFieldSelector).
 */
export function defaultVolumes(spec: PodSpec): void {
  for (const v of spec.volumes ?? []) {
    if (!volumeSources.some((k) => v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
    const src = v as Record<string, Record<string, unknown> | undefined>;
    if (src.hostPath) src.hostPath.type ??= '';
    for (const k of ['secret', 'configMap', 'downwardAPI', 'projected'])
      if (src[k]) src[k].defaultMode ??= DefaultMode;
    defaultFieldRefs(src.downwardAPI?.items);
    for (const s of v.projected?.sources ?? []) defaultFieldRefs(s.downwardAPI?.items);
  }
}

function defaultFieldRefs(items: unknown): void {
  if (!Array.isArray(items)) return;
  for (const item of items as { fieldRef?: { apiVersion?: string } }[])
    if (item.fieldRef) item.fieldRef.apiVersion ||= 'v1';
}

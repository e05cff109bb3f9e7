// Mirrors plugin/pkg/admission/serviceaccount/admission.go (v1.34, BoundServiceAccountTokenVolume):
// the ServiceAccount admission plugin, on Pod create only. It names the `default` ServiceAccount
// when the Pod names none, refuses a Pod whose ServiceAccount does not exist, and (unless the Pod
// or its ServiceAccount turns automounting off) adds the projected `kube-api-access-<5>` volume
// (TokenVolumeSource) and a read-only mount of it at /var/run/secrets/kubernetes.io/serviceaccount
// to every init container and container that has no mount there yet. Mirror Pods are left alone,
// and may not name a ServiceAccount nor use a token projection.
// Simplification: the token is never issued (no TokenRequest, the kubelet mounts nothing), the
// ServiceAccount's imagePullSecrets are not copied to the Pod, and mountable-secrets enforcement
// (kubernetes.io/enforce-mountable-secrets) is not modelled.

import type {
  Container,
  Pod,
  ProjectedVolumeSource,
  ServiceAccount,
  VolumeMount,
} from '../api/types.ts';
import { randString, type Rng } from '../engine/rng.ts';
import { newForbidden } from './errors.ts';

/** DefaultServiceAccountName is the ServiceAccount a Pod that names none runs as. */
export const DefaultServiceAccountName = 'default';
/** ServiceAccountVolumeName is the prefix of the token volume's generated name. */
export const ServiceAccountVolumeName = 'kube-api-access';
/** DefaultAPITokenMountPath is where every container finds the token, the CA and the namespace. */
export const DefaultAPITokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
/** MirrorPodAnnotationKey marks a static Pod's mirror (pkg/apis/core/annotation_key_constants.go). */
export const MirrorPodAnnotationKey = 'kubernetes.io/config.mirror';
/**
 * WarnOnlyBoundTokenExpirationSeconds is the expiration the volume asks for: 1 h + 7 s
 * (pkg/serviceaccount/claims.go), which kube-apiserver extends while warning past it.
 */
export const WarnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;
/** RootCACertConfigMapName is the ConfigMap the root CA publisher writes in every namespace. */
export const RootCACertConfigMapName = 'kube-root-ca.crt';

/**
 * tokenVolumeSource is TokenVolumeSource() as the v1 object stores it (defaultMode 420, set
 * explicitly since kubernetes/kubernetes#104464). Stored objects are never changed in place, so
 * every Pod's volume shares this one frozen value.
 */
const tokenVolumeSource: ProjectedVolumeSource = deepFreeze({
  defaultMode: 420,
  sources: [
    {
      serviceAccountToken: {
        expirationSeconds: WarnOnlyBoundTokenExpirationSeconds,
        path: 'token',
      },
    },
    { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: RootCACertConfigMapName } },
    {
      downwardAPI: {
        items: [
          { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' },
        ],
      },
    },
  ],
});

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/** ServiceAccountLookup finds a ServiceAccount as the plugin's lister (and its live GET) would. */
export interface ServiceAccountLookup {
  /** get returns the ServiceAccount, or undefined when it does not exist. */
  get(namespace: string, name: string): ServiceAccount | undefined;
  /**
   * defaultPending says the default ServiceAccount of an active namespace is about to be made by
   * the serviceaccounts controller. Simplification: upstream retries the GET of `default` up to
   * 10 times 100-200 ms apart before refusing the Pod; requests here take no virtual time, so a
   * Pod created before the controller has caught up is admitted as one created after it.
   */
  defaultPending(namespace: string): boolean;
}

/**
 * serviceAccountAdmission mirrors Plugin.Admit then Plugin.Validate for a Pod being created.
 * requestName names the Pod in a Forbidden error as the request did (its generateName while the
 * name is still to be generated). rng draws the volume's 5 random characters (utilrand.String).
 */
export function serviceAccountAdmission(
  pod: Pod,
  requestName: string,
  lookup: ServiceAccountLookup,
  rng: Rng,
): void {
  const ns = pod.metadata.namespace ?? '';
  if (pod.metadata.annotations?.[MirrorPodAnnotationKey] !== undefined) {
    validateMirrorPod(pod, requestName);
    return;
  }
  const spec = pod.spec;
  if (!spec.serviceAccountName) spec.serviceAccountName = DefaultServiceAccountName;
  // The v1 object keeps the deprecated field equal to serviceAccountName (v1 conversion).
  spec.serviceAccount = spec.serviceAccountName;
  const name = spec.serviceAccountName;
  const sa = lookup.get(ns, name);
  if (!sa && !(name === DefaultServiceAccountName && lookup.defaultPending(ns)))
    throw newForbidden(
      'pods',
      requestName,
      `error looking up service account ${ns}/${name}: serviceaccount "${name}" not found`,
    );
  if (shouldAutomount(sa, pod)) mountServiceAccountToken(pod, rng);
}

// shouldAutomount: the Pod's preference wins, then the ServiceAccount's, else true.
function shouldAutomount(sa: ServiceAccount | undefined, pod: Pod): boolean {
  if (pod.spec.automountServiceAccountToken !== undefined)
    return pod.spec.automountServiceAccountToken;
  if (sa?.automountServiceAccountToken !== undefined) return sa.automountServiceAccountToken;
  return true;
}

// validateMirrorPod mirrors Validate's checks on mirror Pods.
function validateMirrorPod(pod: Pod, requestName: string): void {
  if (pod.spec.serviceAccountName)
    throw newForbidden('pods', requestName, 'a mirror pod may not reference service accounts');
  for (const v of pod.spec.volumes ?? [])
    if (v.projected?.sources?.some((s) => s.serviceAccountToken))
      throw newForbidden(
        'pods',
        requestName,
        'a mirror pod may not use ServiceAccountToken volume projections',
      );
}

// hasTokenMount says a container already mounts something at the token's path.
function hasTokenMount(c: Container): boolean {
  return (c.volumeMounts ?? []).some((m) => m.mountPath === DefaultAPITokenMountPath);
}

/**
 * mountServiceAccountToken mirrors Plugin.mountServiceAccountToken: reuse a volume already named
 * kube-api-access-*, else generate a name; append the mount to every init container, then every
 * container, without one at the path; append the volume when one of them needed it.
 */
export function mountServiceAccountToken(pod: Pod, rng: Rng): void {
  const spec = pod.spec;
  const existing = (spec.volumes ?? []).find((v) =>
    v.name.startsWith(`${ServiceAccountVolumeName}-`),
  );
  const needing = [...(spec.initContainers ?? []), ...spec.containers].filter(
    (c) => !hasTokenMount(c),
  );
  // names.SimpleNameGenerator draws its characters even when no container turns out to need
  // them; drawing only when a name is used keeps the stream the same for Pods that need none.
  if (needing.length === 0) return;
  const name = existing?.name ?? `${ServiceAccountVolumeName}-${randString(rng, 5)}`;
  for (const c of needing) {
    const m: VolumeMount = { mountPath: DefaultAPITokenMountPath, name, readOnly: true };
    c.volumeMounts = [...(c.volumeMounts ?? []), m];
  }
  if (!existing) spec.volumes = [...(spec.volumes ?? []), { name, projected: tokenVolumeSource }];
}

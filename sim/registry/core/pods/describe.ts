// Mirrors the volume parts of `kubectl describe pod` (staging/src/k8s.io/kubectl/pkg/describe/
// describe.go): describeContainerVolumes (a container's Mounts, sorted by mount path, "ro"/"rw")
// and describeVolumes with the printers of the volume sources the simulator's Pods hold.
// Simplification: sources other than projected, emptyDir, configMap, secret, hostPath and
// downwardAPI print as "<unknown>" (upstream describes each kind).

import type { Container, Volume } from '../../../api/types.ts';
import type { PrefixWriter } from '../../../kubectl/describe.ts';

/** describeContainerVolumes writes a container's "Mounts:" section. */
export function describeContainerVolumes(w: PrefixWriter, c: Container): void {
  const mounts = c.volumeMounts ?? [];
  w.write(2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
  // SortableVolumeMounts orders by MountPath (a stable copy: the Pod is not changed).
  const sorted = [...mounts].sort((a, b) =>
    a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0,
  );
  for (const m of sorted) {
    const flags = [m.readOnly ? 'ro' : 'rw'];
    if (m.subPath) flags.push(`path=${JSON.stringify(m.subPath)}`);
    w.write(3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
  }
}

const goBool = (v: unknown): string => (v === true ? 'true' : 'false');

/** describeVolumes writes a Pod's (or, with space "  ", a template's) "Volumes:" section. */
export function describeVolumes(
  w: PrefixWriter,
  volumes: Volume[] | undefined,
  space: string,
): void {
  if (!volumes?.length) {
    w.write(0, `${space}Volumes:\t<none>\n`);
    return;
  }
  w.write(0, `${space}Volumes:\n`);
  const nameIndent = space ? ' ' : '';
  for (const v of volumes) {
    w.write(1, `${nameIndent}${v.name}:\n`);
    const src = v as Record<string, Record<string, unknown> | undefined>;
    if (src.hostPath) {
      const type = src.hostPath.type;
      w.write(
        2,
        `Type:\tHostPath (bare host directory volume)\n    Path:\t${String(src.hostPath.path ?? '')}\n    HostPathType:\t${type === undefined ? '<none>' : String(type)}\n`,
      );
    } else if (src.emptyDir) {
      const limit = src.emptyDir.sizeLimit;
      w.write(
        2,
        `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${String(src.emptyDir.medium ?? '')}\n    SizeLimit:\t${limit && limit !== '0' ? String(limit) : '<unset>'}\n`,
      );
    } else if (src.secret) {
      w.write(
        2,
        `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${String(src.secret.secretName ?? '')}\n    Optional:\t${goBool(src.secret.optional)}\n`,
      );
    } else if (src.configMap) {
      w.write(
        2,
        `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${String(src.configMap.name ?? '')}\n    Optional:\t${goBool(src.configMap.optional)}\n`,
      );
    } else if (src.downwardAPI) {
      w.write(
        2,
        'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n',
      );
      for (const item of (src.downwardAPI.items as
        { path: string; fieldRef?: { fieldPath: string } }[] | undefined) ?? [])
        if (item.fieldRef) w.write(3, `${item.fieldRef.fieldPath} -> ${item.path}\n`);
    } else if (v.projected) printProjectedVolumeSource(w, v);
    else w.write(1, '<unknown>\n');
  }
}

// printProjectedVolumeSource mirrors printProjectedVolumeSource: one line per source.
function printProjectedVolumeSource(w: PrefixWriter, v: Volume): void {
  w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
  for (const s of v.projected?.sources ?? []) {
    if (s.secret)
      w.write(
        2,
        `SecretName:\t${s.secret.name ?? ''}\n    Optional:\t${goBool(s.secret.optional)}\n`,
      );
    else if (s.downwardAPI) w.write(2, 'DownwardAPI:\ttrue\n');
    else if (s.configMap)
      w.write(
        2,
        `ConfigMapName:\t${s.configMap.name ?? ''}\n    Optional:\t${goBool(s.configMap.optional)}\n`,
      );
    else if (s.serviceAccountToken)
      w.write(2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 0}\n`);
  }
}

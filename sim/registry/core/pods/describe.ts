// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for Pod: describePod, and the
// objects its describer fetches (see ../../../kubectl/describe.ts for the shared sections), with
// the volume parts: describeContainerVolumes (a container's Mounts, sorted by mount path, "ro"/"rw")
// and describeVolumes with the printers of the volume sources the simulator's Pods hold.
// Simplification: sources other than projected, emptyDir, configMap, secret, hostPath and
// downwardAPI print as "<unknown>" (upstream describes each kind).

import type { Event, Pod } from '../../../api/types.ts';
import { formatRFC1123Z, translateTimestampSince } from '../../../kubectl/duration.ts';
import { parseQuantityExact } from '../../../kubectl/quantity.ts';
import {
  controllerOf,
  describeContainers,
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  printTolerationsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import type { Describer } from '../../rules.ts';
import type { Container, Volume } from '../../../api/types.ts';
import type { PrefixWriter } from '../../../kubectl/describe.ts';

/** describePodObject is the Pod describer: it fetches what kubectl fetches and prints. */
export const describePodObject: Describer = (ctx, obj) => {
  return describePod(obj as Pod, ctx.events(false), ctx.now);
};

/** podQOS mirrors qos.GetPodQOS: status.qosClass when set, else computed from requests/limits. */
function podQOS(pod: Pod): string {
  if (pod.status?.qosClass) return pod.status.qosClass;
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
  let anySet = false;
  let guaranteed = true;
  for (const c of all) {
    for (const r of ['cpu', 'memory']) {
      const req = parseQuantityExact(c.resources?.requests?.[r]);
      const lim = parseQuantityExact(c.resources?.limits?.[r]);
      if ((req && req.nano > 0n) || (lim && lim.nano > 0n)) anySet = true;
      if (!lim || lim.nano <= 0n || (req && req.nano !== lim.nano)) guaranteed = false;
    }
  }
  if (!anySet) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** describePod mirrors describe.describePod. events are those whose involvedObject is the Pod. */
export function describePod(pod: Pod, events: Event[], now: number): string {
  return tabbedString((w) => {
    const m = pod.metadata;
    w.write(0, `Name:\t${m.name}\n`);
    w.write(0, `Namespace:\t${m.namespace ?? ''}\n`);
    if (pod.spec.priority !== undefined) w.write(0, `Priority:\t${pod.spec.priority}\n`);
    if (pod.spec.priorityClassName)
      w.write(0, `Priority Class Name:\t${pod.spec.priorityClassName}\n`);
    if (pod.spec.serviceAccountName)
      w.write(0, `Service Account:\t${pod.spec.serviceAccountName}\n`);
    if (!pod.spec.nodeName) w.write(0, 'Node:\t<none>\n');
    else w.write(0, `Node:\t${pod.spec.nodeName}/${pod.status?.hostIP ?? ''}\n`);
    if (pod.status?.startTime) w.write(0, `Start Time:\t${formatRFC1123Z(pod.status.startTime)}\n`);
    printLabelsMultiline(w, 'Labels', m.labels);
    printAnnotationsMultiline(w, 'Annotations', m.annotations);
    const phase = pod.status?.phase ?? '';
    if (m.deletionTimestamp && phase !== 'Failed' && phase !== 'Succeeded') {
      w.write(
        0,
        `Status:\tTerminating (lasts ${translateTimestampSince(m.deletionTimestamp, now)})\n`,
      );
      w.write(0, `Termination Grace Period:\t${m.deletionGracePeriodSeconds ?? 0}s\n`);
    } else {
      w.write(0, `Status:\t${phase}\n`);
    }
    if (pod.status?.reason) w.write(0, `Reason:\t${pod.status.reason}\n`);
    if (pod.status?.message) w.write(0, `Message:\t${pod.status.message}\n`);
    w.write(0, `IP:\t${pod.status?.podIP ?? ''}\n`);
    const ips = pod.status?.podIPs ?? [];
    if (ips.length === 0) w.write(0, 'IPs:\t<none>\n');
    else {
      w.write(0, 'IPs:\n');
      for (const ip of ips) w.write(1, `IP:\t${ip.ip}\n`);
    }
    const controlledBy = controllerOf(m);
    if (controlledBy) w.write(0, `Controlled By:\t${controlledBy}\n`);
    if (pod.status?.nominatedNodeName)
      w.write(0, `NominatedNodeName:\t${pod.status.nominatedNodeName}\n`);
    if (pod.spec.initContainers?.length)
      describeContainers(
        w,
        'Init Containers',
        pod.spec.initContainers,
        pod.status?.initContainerStatuses ?? [],
        '',
      );
    describeContainers(
      w,
      'Containers',
      pod.spec.containers,
      pod.status?.containerStatuses ?? [],
      '',
    );
    const conds = pod.status?.conditions ?? [];
    if (conds.length > 0) {
      w.write(0, 'Conditions:\n  Type\tStatus\n');
      for (const c of conds) w.write(1, `${c.type} \t${c.status} \n`);
    }
    describeVolumes(w, pod.spec.volumes, '');
    w.write(0, `QoS Class:\t${podQOS(pod)}\n`);
    printLabelsMultiline(w, 'Node-Selectors', pod.spec.nodeSelector);
    printTolerationsMultiline(w, 'Tolerations', pod.spec.tolerations);
    describeEvents(w, events, now);
  });
}

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

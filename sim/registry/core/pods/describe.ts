// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for Pod: describePod, and the
// objects its describer fetches (see ../../../kubectl/describe.ts for the shared sections).

import type { AnyObject, Event, Pod } from '../../../api/types.ts';
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
import type { DescribeContext } from '../../rules.ts';

/** describePodObject is the Pod describer: it fetches what kubectl fetches and prints. */
export function describePodObject(ctx: DescribeContext, obj: AnyObject): string {
  return describePod(obj as Pod, ctx.events(false), ctx.now);
}

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
    w.write(0, 'Volumes:\t<none>\n');
    w.write(0, `QoS Class:\t${podQOS(pod)}\n`);
    printLabelsMultiline(w, 'Node-Selectors', pod.spec.nodeSelector);
    printTolerationsMultiline(w, 'Tolerations', pod.spec.tolerations);
    describeEvents(w, events, now);
  });
}

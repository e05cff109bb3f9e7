// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for Service: describeService, and the
// objects its describer fetches (see ../../../kubectl/describe.ts for the shared sections).

import type { EndpointSlice, Event, Service } from '../../../api/types.ts';
import { formatLabels } from '../../../kubectl/table.ts';
import {
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import type { Describer } from '../../rules.ts';
import type { LoadBalancerIngress } from './types.ts';

/** describeServiceObject is the Service describer: it fetches what kubectl fetches and prints. */
export const describeServiceObject: Describer = (ctx, obj) => {
  const svc = obj as Service;
  const slices = ctx
    .list<EndpointSlice>('endpointslices', svc.metadata.namespace)
    .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name);
  return describeService(svc, slices, ctx.events(true), ctx.now);
};

/** formatEndpointSlices mirrors describe.formatEndpointSlices for one service port name. */
export function formatEndpointSlices(
  slices: EndpointSlice[],
  portName: string | undefined,
): string {
  if (slices.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const s of slices) {
    if (!s.ports || s.ports.length === 0) {
      for (const e of s.endpoints ?? []) {
        if (list.length === max) more = true;
        if (e.conditions?.ready === false) continue;
        if (!more) list.push(e.addresses[0]);
        count++;
      }
    } else {
      for (const p of s.ports) {
        if (portName !== undefined && (p.name ?? '') !== portName) continue;
        for (const e of s.endpoints ?? []) {
          if (list.length === max) more = true;
          if (e.conditions?.ready === false) continue;
          if (!more)
            list.push(
              s.addressType === 'IPv6'
                ? `[${e.addresses[0]}]:${p.port}`
                : `${e.addresses[0]}:${p.port}`,
            );
          count++;
        }
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

/** buildIngressString mirrors describe.buildIngressString: IPs (with their mode) or hostnames. */
function buildIngressString(ingress: LoadBalancerIngress[]): string {
  return ingress
    .map((i) => (i.ip ? (i.ipMode ? `${i.ip} (${i.ipMode})` : i.ip) : (i.hostname ?? '')))
    .join(', ');
}

/** describeService mirrors describe.describeService. slices are the Service's EndpointSlices. */
export function describeService(
  svc: Service,
  slices: EndpointSlice[],
  events: Event[],
  now: number,
): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${svc.metadata.name}\n`);
    w.write(0, `Namespace:\t${svc.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', svc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', svc.metadata.annotations);
    w.write(0, `Selector:\t${formatLabels(svc.spec.selector)}\n`);
    w.write(0, `Type:\t${svc.spec.type ?? ''}\n`);
    if (svc.spec.ipFamilyPolicy) w.write(0, `IP Family Policy:\t${svc.spec.ipFamilyPolicy}\n`);
    w.write(
      0,
      `IP Families:\t${svc.spec.ipFamilies?.length ? svc.spec.ipFamilies.join(',') : '<none>'}\n`,
    );
    w.write(0, `IP:\t${svc.spec.clusterIP ?? ''}\n`);
    w.write(0, `IPs:\t${svc.spec.clusterIPs?.length ? svc.spec.clusterIPs.join(',') : '<none>'}\n`);
    if (svc.spec.externalIPs?.length)
      w.write(0, `External IPs:\t${svc.spec.externalIPs.join(',')}\n`);
    if (svc.spec.loadBalancerIP)
      w.write(0, `Desired LoadBalancer IP:\t${svc.spec.loadBalancerIP}\n`);
    if (svc.spec.externalName) w.write(0, `External Name:\t${svc.spec.externalName}\n`);
    const ingress = svc.status?.loadBalancer?.ingress ?? [];
    if (ingress.length) w.write(0, `LoadBalancer Ingress:\t${buildIngressString(ingress)}\n`);
    for (const p of svc.spec.ports ?? []) {
      const name = p.name || '<unset>';
      const proto = p.protocol ?? '';
      w.write(0, `Port:\t${name}\t${p.port}/${proto}\n`);
      w.write(0, `TargetPort:\t${p.targetPort ?? p.port}/${proto}\n`);
      if (p.nodePort) w.write(0, `NodePort:\t${name}\t${p.nodePort}/${proto}\n`);
      w.write(0, `Endpoints:\t${formatEndpointSlices(slices, p.name ?? '')}\n`);
    }
    w.write(0, `Session Affinity:\t${svc.spec.sessionAffinity ?? ''}\n`);
    if (svc.spec.externalTrafficPolicy)
      w.write(0, `External Traffic Policy:\t${svc.spec.externalTrafficPolicy}\n`);
    if (svc.spec.internalTrafficPolicy)
      w.write(0, `Internal Traffic Policy:\t${svc.spec.internalTrafficPolicy}\n`);
    if (svc.spec.healthCheckNodePort)
      w.write(0, `HealthCheck NodePort:\t${svc.spec.healthCheckNodePort}\n`);
    if (svc.spec.loadBalancerSourceRanges?.length)
      w.write(0, `LoadBalancer Source Ranges:\t${svc.spec.loadBalancerSourceRanges.join(',')}\n`);
    if (svc.spec.trafficDistribution)
      w.write(0, `Traffic Distribution:\t${svc.spec.trafficDistribution}\n`);
    describeEvents(w, events, now);
  });
}

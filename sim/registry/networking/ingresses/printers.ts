// Mirrors printIngress and its column definitions (pkg/printers/internalversion/printers.go:
// formatHosts, formatPorts, ingressLoadBalancerStatusStringer) and describeIngressV1
// (staging/src/k8s.io/kubectl/pkg/describe/describe.go: describeBackendV1, serviceBackendStringer).

import type { AnyObject, EndpointSlice, Event, Service } from '../../../api/types.ts';
import {
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME, type TableRow } from '../../../kubectl/table.ts';
import { formatEndpointSlices } from '../../core/services/describe.ts';
import type { DescribeContext, Describer, Printer } from '../../rules.ts';
import type { Ingress, IngressBackend, IngressRule } from './types.ts';

/** loadBalancerWidth is how wide the ADDRESS cell may be without -o wide. */
const loadBalancerWidth = 16;

/** formatHosts mirrors formatHosts: up to three hosts, "*" when no rule names one. */
export function formatHosts(rules: IngressRule[] | undefined): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  for (const r of rules ?? []) {
    if (list.length === max) more = true;
    if (!more && r.host) list.push(r.host);
  }
  if (list.length === 0) return '*';
  const ret = list.join(',');
  return more ? `${ret} + ${(rules?.length ?? 0) - max} more...` : ret;
}

/** ingressLoadBalancerStatusStringer mirrors its namesake: the addresses, cut short unless wide. */
export function ingressLoadBalancerStatusStringer(ing: Ingress, wide: boolean): string {
  const r = (ing.status?.loadBalancer?.ingress ?? [])
    .map((i) => i.ip || i.hostname || '')
    .filter((s) => s !== '')
    .join(',');
  if (!wide && r.length > loadBalancerWidth) return `${r.slice(0, loadBalancerWidth - 3)}...`;
  return r;
}

/** printIngress mirrors printIngress: NAME CLASS HOSTS ADDRESS PORTS AGE. */
export function printIngress(ing: Ingress, now: number, wide: boolean): TableRow {
  return {
    cells: [
      ing.metadata.name,
      ing.spec?.ingressClassName ?? '<none>',
      formatHosts(ing.spec?.rules),
      ingressLoadBalancerStatusStringer(ing, wide),
      ing.spec?.tls?.length ? '80, 443' : '80',
      translateTimestampSince(ing.metadata.creationTimestamp, now),
    ],
    object: ing,
  };
}

/** ingressPrinter is Ingress's table for `kubectl get`. */
export const ingressPrinter: Printer = {
  columns: [NAME, col('Class'), col('Hosts'), col('Address'), col('Ports'), AGE],
  row: (obj: AnyObject, now: number, wide: boolean) => printIngress(obj as Ingress, now, wide),
};

/** serviceBackendStringer mirrors serviceBackendStringer: name:port. */
function serviceBackendStringer(b: NonNullable<IngressBackend['service']>): string {
  const port = b.port?.name ? b.port.name : String(b.port?.number ?? 0);
  return `${b.name}:${port}`;
}

/** describeBackend mirrors describeBackendV1: the Service's ready endpoints for the port. */
function describeBackend(ctx: DescribeContext, ns: string, b: IngressBackend): string {
  if (b.service) {
    const sb = serviceBackendStringer(b.service);
    let svc: Service;
    try {
      svc = ctx.get<Service>('services', ns, b.service.name);
    } catch (e) {
      return `${sb} (<error: ${(e as Error).message}>)`;
    }
    const slices = ctx
      .list<EndpointSlice>('endpointslices', ns)
      .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === b.service!.name);
    let spName = '';
    for (const sp of svc.spec.ports ?? []) {
      if (b.service.port?.number && b.service.port.number === sp.port) spName = sp.name ?? '';
      else if (b.service.port?.name && b.service.port.name === sp.name) spName = sp.name ?? '';
    }
    return `${sb} (${formatEndpointSlices(slices, spName)})`;
  }
  if (b.resource)
    return `APIGroup: ${b.resource.apiGroup ?? '<none>'}, Kind: ${b.resource.kind}, Name: ${b.resource.name}`;
  return '';
}

/** describeIngress mirrors describeIngressV1. */
export function describeIngress(ctx: DescribeContext, ing: Ingress, events: Event[]): string {
  const ns = ing.metadata.namespace ?? '';
  return tabbedString((w) => {
    w.write(0, `Name:\t${ing.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ing.metadata.labels);
    w.write(0, `Namespace:\t${ns}\n`);
    w.write(0, `Address:\t${ingressLoadBalancerStatusStringer(ing, true)}\n`);
    w.write(0, `Ingress Class:\t${ing.spec?.ingressClassName ?? '<none>'}\n`);
    const def = ing.spec?.defaultBackend
      ? describeBackend(ctx, ns, ing.spec.defaultBackend)
      : '<default>';
    w.write(0, `Default backend:\t${def}\n`);
    if (ing.spec?.tls?.length) {
      w.write(0, 'TLS:\n');
      for (const t of ing.spec.tls)
        w.write(
          1,
          t.secretName
            ? `${t.secretName} terminates ${(t.hosts ?? []).join(',')}\n`
            : `SNI routes ${(t.hosts ?? []).join(',')}\n`,
        );
    }
    w.write(0, 'Rules:\n  Host\tPath\tBackends\n');
    w.write(1, '----\t----\t--------\n');
    let count = 0;
    for (const r of ing.spec?.rules ?? []) {
      if (!r.http) continue;
      count++;
      w.write(1, `${r.host || '*'}\t\n`);
      for (const p of r.http.paths ?? [])
        w.write(2, `\t${p.path ?? ''} \t${describeBackend(ctx, ns, p.backend)}\n`);
    }
    if (count === 0) w.write(1, `*\t*\t${def}\n`);
    printAnnotationsMultiline(w, 'Annotations', ing.metadata.annotations);
    describeEvents(w, events, ctx.now);
  });
}

/** describeIngressObject is the Ingress describer. */
export const describeIngressObject: Describer = (ctx, obj) =>
  describeIngress(ctx, obj as Ingress, ctx.events(true));

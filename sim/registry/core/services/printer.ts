// Mirrors pkg/printers/internalversion/printers.go for Service: the columns AddHandlers declares
// for it and printService.

import type { AnyObject, Service } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, formatLabels, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** servicePrinter is Service's table for `kubectl get`. */
export const servicePrinter: Printer = {
  columns: [
    NAME,
    col('Type'),
    col('Cluster-IP'),
    col('External-IP'),
    col('Port(s)'),
    AGE,
    col('Selector', 1),
  ],
  row: printServiceRow,
};

function printServiceRow(obj: AnyObject, now: number, wide: boolean): TableRow {
  return printService(obj as Service, now, wide);
}

function loadBalancerStatusString(svc: Service, wide: boolean): string {
  const set = new Set<string>();
  for (const i of svc.status?.loadBalancer?.ingress ?? []) {
    if (i.ip) set.add(i.ip);
    else if (i.hostname) set.add(i.hostname);
  }
  let r = [...set].sort().join(',');
  if (!wide && r.length > 16) r = r.slice(0, 13) + '...';
  return r;
}

/** getServiceExternalIP mirrors printers.go#getServiceExternalIP. */
export function getServiceExternalIP(svc: Service, wide: boolean): string {
  const ext = svc.spec.externalIPs ?? [];
  switch (svc.spec.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return ext.length ? ext.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerStatusString(svc, wide);
      if (ext.length) return [...(lb ? lb.split(',') : []), ...ext].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** makePortString mirrors printers.go#makePortString: "80/TCP" or "80:30080/TCP". */
export function makePortString(svc: Service): string {
  return (svc.spec.ports ?? [])
    .map((p) =>
      p.nodePort && p.nodePort > 0
        ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}`
        : `${p.port}/${p.protocol ?? ''}`,
    )
    .join(',');
}

/**
 * printService mirrors printers.go#printService: CLUSTER-IP is spec.clusterIP (`None` for a
 * headless Service, `<none>` for an ExternalName one).
 */
export function printService(svc: Service, now: number, wide = false): TableRow {
  const cells: (string | number)[] = [
    svc.metadata.name,
    svc.spec.type ?? '',
    svc.spec.clusterIP || '<none>',
    getServiceExternalIP(svc, wide),
    makePortString(svc) || '<none>',
    translateTimestampSince(svc.metadata.creationTimestamp, now),
  ];
  if (wide) cells.push(formatLabels(svc.spec.selector));
  return { cells, object: svc };
}

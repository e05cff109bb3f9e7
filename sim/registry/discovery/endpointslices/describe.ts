// Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go for EndpointSlice: describeEndpointSlice, and the
// objects its describer fetches (see ../../../kubectl/describe.ts for the shared sections).

import type { EndpointSlice, Event } from '../../../api/types.ts';
import {
  describeEvents,
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
} from '../../../kubectl/describe.ts';
import type { Describer } from '../../rules.ts';

/** describeEndpointSliceObject is the EndpointSlice describer: it fetches what kubectl fetches and prints. */
export const describeEndpointSliceObject: Describer = (ctx, obj) => {
  return describeEndpointSlice(obj as EndpointSlice, ctx.events(true), ctx.now);
};

/** describeEndpointSlice mirrors describe.describeEndpointSliceV1. */
export function describeEndpointSlice(eps: EndpointSlice, events: Event[], now: number): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${eps.metadata.name}\n`);
    w.write(0, `Namespace:\t${eps.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', eps.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', eps.metadata.annotations);
    w.write(0, `AddressType:\t${eps.addressType}\n`);
    if (!eps.ports || eps.ports.length === 0) w.write(0, 'Ports: <unset>\n');
    else {
      w.write(0, 'Ports:\n');
      w.write(1, 'Name\tPort\tProtocol\n');
      w.write(1, '----\t----\t--------\n');
      for (const p of eps.ports)
        w.write(
          1,
          `${p.name ? p.name : '<unset>'}\t${p.port !== undefined ? p.port : '<unset>'}\t${p.protocol ?? ''}\n`,
        );
    }
    if (!eps.endpoints || eps.endpoints.length === 0) w.write(0, 'Endpoints: <none>\n');
    else {
      w.write(0, 'Endpoints:\n');
      for (const e of eps.endpoints) {
        w.write(1, `- Addresses:\t${e.addresses.length ? e.addresses.join(', ') : '<none>'}\n`);
        w.write(2, 'Conditions:\n');
        w.write(
          3,
          `Ready:\t${e.conditions?.ready === undefined ? '<unset>' : String(e.conditions.ready)}\n`,
        );
        w.write(2, 'Hostname:\t<unset>\n');
        if (e.targetRef)
          w.write(2, `TargetRef:\t${e.targetRef.kind ?? ''}/${e.targetRef.name ?? ''}\n`);
        w.write(2, `NodeName:\t${e.nodeName ?? '<unset>'}\n`);
        w.write(2, `Zone:\t${e.zone ?? '<unset>'}\n`);
      }
    }
    describeEvents(w, events, now);
  });
}

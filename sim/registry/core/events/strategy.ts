// Mirrors pkg/registry/core/event/strategy.go: the Event's selectable fields (ToSelectableFields)
// and the labels its field label conversion func accepts (pkg/apis/core/v1/conversion.go); and the
// TTL its storage (pkg/registry/core/event/storage/storage.go, shared by events.k8s.io/v1) gives
// every write: kube-apiserver's --event-ttl, 1h by default.

import type { AnyObject, Event } from '../../../api/types.ts';
import type { Strategy } from '../../rules.ts';

const EVENT_FIELD_LABELS: ReadonlySet<string> = new Set([
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
]);

/** eventTTLSeconds is kube-apiserver's --event-ttl default (1h). */
export const eventTTLSeconds = 3600;

/** eventStrategy is the Event's REST strategy. */
export const eventStrategy: Strategy = {
  fieldLabels: { labels: EVENT_FIELD_LABELS },
  ttlSeconds: eventTTLSeconds,
  selectableField: eventSelectableField,
};

function eventSelectableField(o: AnyObject, field: string): string {
  const e = o as Event;
  const io = e.involvedObject ?? {};
  switch (field) {
    case 'involvedObject.kind':
      return io.kind ?? '';
    case 'involvedObject.namespace':
      return io.namespace ?? '';
    case 'involvedObject.name':
      return io.name ?? '';
    case 'involvedObject.uid':
      return io.uid ?? '';
    case 'involvedObject.apiVersion':
      return io.apiVersion ?? '';
    case 'involvedObject.resourceVersion':
      return io.resourceVersion ?? '';
    case 'involvedObject.fieldPath':
      return io.fieldPath ?? '';
    case 'reason':
      return e.reason ?? '';
    case 'reportingComponent':
      return e.reportingComponent ?? '';
    // source is source.component, or the reporting controller when that is empty.
    case 'source':
      return e.source?.component || (e.reportingComponent ?? '');
    case 'type':
      return e.type ?? '';
  }
  return '';
}

// Mirrors staging/src/k8s.io/api/core/v1/types.go for Event: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { KubeObject, MicroTime, ObjectReference, Time } from '../../../api/types.ts';
import { str, i32, any, opaque, kindSchema } from '../../../api/schema.ts';

/**
 * Event is a core/v1 Event, as `kubectl get events` and `describe` read it. An Event written
 * through events.k8s.io/v1 is stored the same (pkg/apis/events/v1 conversion): regarding is
 * involvedObject, note is message, reportingController is reportingComponent, and its
 * deprecatedSource/FirstTimestamp/LastTimestamp/Count are the empty source, null timestamps and
 * no count; it has eventTime, action and, once repeated, series instead.
 */
export interface Event extends KubeObject {
  apiVersion: 'v1';
  kind: 'Event';
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: { component?: string; host?: string };
  firstTimestamp: Time | null;
  lastTimestamp: Time | null;
  count?: number;
  type: 'Normal' | 'Warning';
  eventTime?: MicroTime | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  reportingComponent: string;
  reportingInstance: string;
}

/** EventSeries is a core/v1 EventSeries: an events.k8s.io/v1 Event's repeats. */
export interface EventSeries {
  count: number;
  lastObservedTime: MicroTime;
}

/** eventSchema is the Go type core/v1 Event bodies decode into. */
export const eventSchema = kindSchema<Event>('Event', {
  involvedObject: opaque('ObjectReference'),
  reason: str(),
  message: str(),
  source: opaque('EventSource'),
  firstTimestamp: any,
  lastTimestamp: any,
  count: i32,
  type: str(),
  eventTime: any,
  series: opaque('EventSeries'),
  action: str(),
  related: opaque('ObjectReference'),
  reportingComponent: str(),
  reportingInstance: str(),
});

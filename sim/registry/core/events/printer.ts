// Mirrors pkg/printers/internalversion/printers.go for Event: the columns AddHandlers declares
// for it and printEvent.

import type { AnyObject, Event } from '../../../api/types.ts';
import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { col, type TableRow } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';

/** eventPrinter is Event's table for `kubectl get`. */
export const eventPrinter: Printer = {
  columns: [
    col('Last Seen'),
    col('Type'),
    col('Reason'),
    col('Object'),
    col('Subobject', 1),
    col('Source', 1),
    col('Message'),
    col('First Seen', 1),
    col('Count', 1),
    col('Name', 1, 'name'),
  ],
  row: printEventRow,
};

function printEventRow(obj: AnyObject, now: number, wide: boolean): TableRow {
  return printEvent(obj as Event, now, wide);
}

/** formatEventSource mirrors printers.go#formatEventSource. */
export function formatEventSource(e: Event): string {
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

/**
 * printEvent mirrors printers.go#printEvent: an events.k8s.io/v1 Event (no firstTimestamp or
 * lastTimestamp) is first seen at its eventTime, and a series gives LAST SEEN and COUNT.
 */
export function printEvent(e: Event, now: number, wide = false): TableRow {
  const firstTimestamp = e.firstTimestamp
    ? translateTimestampSince(e.firstTimestamp, now)
    : translateTimestampSince(e.eventTime ?? undefined, now);
  let lastTimestamp = e.lastTimestamp
    ? translateTimestampSince(e.lastTimestamp, now)
    : firstTimestamp;
  let count = e.count || 1;
  if (e.series) {
    lastTimestamp = translateTimestampSince(e.series.lastObservedTime, now);
    count = e.series.count;
  }
  const kind = (e.involvedObject?.kind ?? '').toLowerCase();
  const target = e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind;
  const message = (e.message ?? '').trim();
  const cells: (string | number)[] = wide
    ? [
        lastTimestamp,
        e.type,
        e.reason,
        target,
        e.involvedObject?.fieldPath ?? '',
        formatEventSource(e),
        message,
        firstTimestamp,
        count,
        e.metadata.name,
      ]
    : [lastTimestamp, e.type, e.reason, target, message];
  return { cells, object: e };
}

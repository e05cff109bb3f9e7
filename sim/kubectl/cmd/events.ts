// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/events/events.go (and event_printer.go): `kubectl
// events [--for TYPE/NAME] [--types=Normal,Warning] [-A] [--no-headers]` lists core/v1 Events
// (those written through events.k8s.io/v1 included: both APIs store the same objects), sorted by
// when they were last seen, with describe's Age ("41s (x8 over 5m)") as LAST SEEN and the object
// as Kind/name.
// Simplification: -o and --watch are not supported.

import type { Event } from '../../api/types.ts';
import { parseTime } from '../../engine/clock.ts';
import { ALL_NS, bool, CmdError, f, OUTPUT, str, type Command, type Common } from '../cmdutil.ts';
import { resolveResource, ResolveError } from '../../apiserver/discovery.ts';
import { translateTimestampSince } from '../duration.ts';
import { KubectlError } from '../errors.ts';
import { typeOf, type Run } from '../run.ts';
import { GET_TABWRITER, tabwrite } from '../tabwriter.ts';

export interface EventsOptions {
  verb: 'events';
  allNamespaces: boolean;
  /** forKind and forName are --for's object: its kind and name. */
  forKind?: string;
  forName?: string;
  types: string[];
  noHeaders: boolean;
}

export const events: Command<EventsOptions> = {
  path: 'events',
  short: 'List events',
  flags: [
    ALL_NS,
    f('for', 'string'),
    f('types', 'stringSlice'),
    f('no-headers', 'bool'),
    f('watch', 'bool', 'w'),
    OUTPUT,
  ],
  complete(fp) {
    if (bool(fp.flags.watch))
      throw new KubectlError('events --watch is not supported in this simulator');
    if (str(fp.flags.output) !== undefined)
      throw new KubectlError('events -o is not supported in this simulator');
    const types = (fp.flags.types as string[] | undefined) ?? [];
    // Validate: only the two event types.
    for (const t of types)
      if (t.toLowerCase() !== 'normal' && t.toLowerCase() !== 'warning')
        throw new CmdError('valid --types are Normal or Warning');
    const o: EventsOptions = {
      verb: 'events',
      allNamespaces: bool(fp.flags['all-namespaces']),
      types,
      noHeaders: bool(fp.flags['no-headers']),
    };
    const forObject = str(fp.flags.for);
    if (forObject) {
      // Complete: --for is TYPE/NAME, the type resolved through discovery (the RESTMapper).
      const parts = forObject.split('/');
      if (parts.length !== 2) throw new CmdError('--for must be in resource/name form');
      try {
        o.forKind = resolveResource(parts[0]).kind;
      } catch (e) {
        if (e instanceof ResolveError) throw new CmdError(e.message);
        throw e;
      }
      o.forName = parts[1];
    }
    return o;
  },
  run: runEvents,
};

/** eventTime is events.go's eventTime: the series' last observation, lastTimestamp or eventTime. */
function eventTime(e: Event): number {
  const t = e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? '';
  const ms = parseTime(t);
  return Number.isNaN(ms) ? -Infinity : ms;
}

/** getInterval is event_printer.go's getInterval, describe's Age. */
export function getInterval(e: Event, now: number): string {
  const firstSince = e.eventTime
    ? translateTimestampSince(e.eventTime, now)
    : translateTimestampSince(e.firstTimestamp, now);
  if (e.series)
    return `${translateTimestampSince(e.series.lastObservedTime, now)} (x${e.series.count} over ${firstSince})`;
  if ((e.count ?? 0) > 1)
    return `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${firstSince})`;
  return firstSince;
}

function runEvents(r: Run, cmd: EventsOptions & Common): void {
  const ns = r.ns(cmd);
  const fieldSelector =
    cmd.forName !== undefined
      ? `involvedObject.kind=${cmd.forKind},involvedObject.name=${cmd.forName}`
      : undefined;
  let list = r.list<Event>(
    typeOf('events'),
    cmd.allNamespaces ? undefined : ns,
    undefined,
    undefined,
    fieldSelector,
  );
  if (cmd.types.length)
    list = list.filter((e) => cmd.types.some((t) => t.toLowerCase() === e.type.toLowerCase()));
  if (list.length === 0) {
    r.stderr += cmd.allNamespaces ? 'No events found.\n' : `No events found in ${ns} namespace.\n`;
    return;
  }
  const now = r.now();
  const sorted = list
    .map((e, i) => ({ e, i, t: eventTime(e) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map((x) => x.e);
  let text = '';
  if (!cmd.noHeaders)
    text += `${cmd.allNamespaces ? 'NAMESPACE\t' : ''}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n`;
  for (const e of sorted) {
    const io = e.involvedObject ?? {};
    text += `${cmd.allNamespaces ? `${e.metadata.namespace}\t` : ''}${getInterval(e, now)}\t${e.type}\t${e.reason}\t${io.kind}/${io.name}\t${(e.message ?? '').trim()}\n`;
  }
  r.out(tabwrite(text, GET_TABWRITER));
}

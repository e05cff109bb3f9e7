// Mirrors how kubectl reports errors: cmdutil.CheckErr and StandardErrorMessage
// (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go), utilerrors.Aggregate, AddSourceToErr,
// and cli-runtime's resource.EnhanceListError.

import type { Selector } from '../api/labels.ts';
import { goQuote } from '../apiserver/errors.ts';
import type { APIResource } from '../apiserver/discovery.ts';

export interface StatusLike {
  status: {
    code: number;
    reason: string;
    message: string;
    details?: { name?: string; kind?: string; causes?: { field: string; message: string }[] };
  };
}

export function isStatusError(e: unknown): e is StatusLike {
  return (
    typeof e === 'object' &&
    e !== null &&
    'status' in e &&
    typeof (e as StatusLike).status?.message === 'string'
  );
}

export function isNotFound(e: unknown): boolean {
  return isStatusError(e) && e.status.reason === 'NotFound';
}

/** LocalStatusError is a Status kubectl itself synthesises (as the server would send it). */
export class LocalStatusError extends Error {
  readonly status: StatusLike['status'];
  constructor(code: number, reason: string, message: string) {
    super(message);
    this.status = { code, reason, message };
  }
}

/** ListSelector is a `-l` value as typed, with its parse result or kube-apiserver's error. */
export interface ListSelector {
  raw: string;
  selector?: Selector;
  error?: string;
}

/**
 * enhanceListError mirrors cli-runtime resource.EnhanceListError for a list call with a label or
 * field selector: a BadRequest or NotFound keeps its reason and gains the resource and selectors.
 */
export function enhanceListError(
  e: unknown,
  t: APIResource,
  labelSelector: string,
  fieldSelector: string,
): unknown {
  if (!isStatusError(e) || (e.status.code !== 400 && e.status.code !== 404)) return e;
  if (e.status.reason !== 'BadRequest' && e.status.reason !== 'NotFound') return e;
  // schema.GroupVersionResource.String(): every served resource is version v1.
  const gvr = `${t.group}/v1, Resource=${t.resource}`;
  return new LocalStatusError(
    e.status.code,
    e.status.reason,
    `Unable to find ${goQuote(gvr)} that match label selector ${goQuote(labelSelector)}, field selector ${goQuote(fieldSelector)}: ${e.status.message}`,
  );
}

/**
 * Aggregate is utilerrors.Aggregate. CheckErr prints one of several errors per line, each in
 * its standard form but without the "error: " prefix (cmdutil.MultipleErrors); nested inside
 * another aggregate it reads "[a, b]".
 */
export class Aggregate extends Error {
  readonly errors: unknown[];
  constructor(errors: unknown[]) {
    super(`[${errors.map((e) => messageForError(e)).join(', ')}]`);
    this.errors = errors;
  }
}

/** messageForError mirrors cmdutil's messageForError: StandardErrorMessage or the plain text. */
function messageForError(e: unknown): string {
  if (isStatusError(e) || e instanceof RawError) return errorMessage(e).replace(/\n$/, '');
  return (e as Error)?.message ?? String(e);
}

/** KubectlError is an error kubectl prints as "error: <message>". */
export class KubectlError extends Error {}

/** RawError is printed exactly as given (its message carries its own prefix and lines). */
export class RawError extends Error {}

/** withSource mirrors cmdutil.AddSourceToErr: `error when creating "STDIN": ...`. */
export function withSource(verb: string, source: string, e: unknown): unknown {
  if (isStatusError(e)) {
    const out = new LocalStatusError(
      e.status.code,
      e.status.reason,
      `error when ${verb} "${source}": ${e.status.message}`,
    );
    out.status.details = e.status.details;
    return out;
  }
  return new KubectlError(`error when ${verb} "${source}": ${(e as Error).message}`);
}

/** errorMessage mirrors cmdutil.CheckErr / StandardErrorMessage: the text kubectl prints. */
export function errorMessage(e: unknown): string {
  let msg: string;
  if (e instanceof RawError) msg = e.message;
  else if (e instanceof Aggregate && e.errors.length > 1)
    msg = e.errors.map((x) => messageForError(x)).join('\n');
  else if (e instanceof Aggregate) return errorMessage(e.errors[0]);
  else if (isStatusError(e)) {
    const s = e.status;
    if (s.reason === 'ConnectionError') {
      if (s.message.startsWith('The connection to the server')) msg = s.message;
      else if (s.message.startsWith('etcdserver')) msg = `Error from server: ${s.message}`;
      else msg = `Unable to connect to the server: ${s.message.replace(/^[A-Z]+ "[^"]*": /, '')}`;
    } else if (s.reason === 'Invalid') {
      const name = s.details?.name ?? '';
      // details.kind names the kind; without it, read it from `Kind.group "name" is invalid`.
      const kind =
        s.details?.kind ??
        /([A-Za-z]+)(?:\.[a-z0-9.-]+)? "(?:[^"\\]|\\.)*" is invalid/.exec(s.message)?.[1] ??
        '';
      const prefix = `The ${kind} ${goQuote(name)} is invalid: `;
      const causes = s.details?.causes ?? [];
      if (causes.length === 0) msg = s.message;
      else if (causes.length === 1) msg = `${prefix}${causes[0].field}: ${causes[0].message}`;
      else msg = `${prefix}\n${causes.map((c) => `* ${c.field}: ${c.message}`).join('\n')}`;
    } else if (s.reason) msg = `Error from server (${s.reason}): ${s.message}`;
    else msg = `Error from server: ${s.message}`;
  } else {
    msg = (e as Error)?.message ?? String(e);
    if (!msg.startsWith('error: ')) msg = `error: ${msg}`;
  }
  return msg.endsWith('\n') ? msg : msg + '\n';
}

// Mirrors staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go: the Status errors
// kube-apiserver returns, with upstream's reasons, codes and message wording.

/** Status is metav1.Status as a failed request returns it. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  status: 'Failure';
  message: string;
  reason: string;
  code: number;
  details?: { name?: string; group?: string; kind?: string; retryAfterSeconds?: number; causes?: { reason: string; message: string; field: string }[] };
}

/** StatusError is thrown by the API client for every failed request. */
export class StatusError extends Error {
  readonly status: Status;
  constructor(status: Status) {
    // Components throw and catch these as values (409 Conflict is routine), so no stack trace is
    // captured: capturing one costs more than the rest of a request.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(status.message);
    Error.stackTraceLimit = limit;
    this.status = status;
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): string {
    return this.status.reason;
  }
}

/** GroupResource names a resource as errors print it: "pods", "deployments.apps". */
export function qualified(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

/** goQuote mirrors Go's %q for a string: double quotes, backslash escapes, control bytes as \xNN. */
export function goQuote(s: string): string {
  return JSON.stringify(s)
    .replace(/\\u00([0-9a-f]{2})/g, (_, h: string) => `\\x${h}`)
    .replace(/[\u007f\u2028\u2029]/g, (c) => (c === '\u007f' ? '\\x7f' : `\\u${c.charCodeAt(0).toString(16)}`));
}

function err(code: number, reason: string, message: string, details?: Status['details']): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code, details });
}

export function newNotFound(qr: string, name: string): StatusError {
  return err(404, 'NotFound', `${qr} ${goQuote(name)} not found`, { name });
}

export function newAlreadyExists(qr: string, name: string): StatusError {
  return err(409, 'AlreadyExists', `${qr} ${goQuote(name)} already exists`, { name });
}

export function newConflict(qr: string, name: string, cause: string): StatusError {
  return err(409, 'Conflict', `Operation cannot be fulfilled on ${qr} ${goQuote(name)}: ${cause}`, { name });
}

/** OptimisticLockErrorMsg is storage's message for a stale resourceVersion. */
export const OptimisticLockErrorMsg = 'the object has been modified; please apply your changes to the latest version and try again';

export interface FieldError {
  field: string;
  /** type is the field.ErrorType string: "Invalid value", "Required value", "Unsupported value"... */
  type: string;
  value?: unknown;
  /** raw is a value already rendered as Go's %#v prints it (maps, structs): shown unquoted. */
  raw?: string;
  detail?: string;
}

/** fieldErrorString mirrors field.Error.Error(). */
export function fieldErrorString(e: FieldError): string {
  if (e.type === 'Required value' || e.type === 'Forbidden' || e.type === 'Too many' || e.type === 'Internal error') {
    return `${e.field}: ${e.type}${e.detail ? `: ${e.detail}` : ''}`;
  }
  const v = e.raw !== undefined ? e.raw : typeof e.value === 'string' ? goQuote(e.value) : e.value === undefined || e.value === null ? 'null' : JSON.stringify(e.value);
  return `${e.field}: ${e.type}: ${v}${e.detail ? `: ${e.detail}` : ''}`;
}

/** newInvalid mirrors errors.NewInvalid: `Kind.group "name" is invalid: ...`. */
export function newInvalid(kindGroup: string, name: string, errs: FieldError[]): StatusError {
  const list = errs.map(fieldErrorString);
  const msg = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  return err(422, 'Invalid', `${kindGroup} ${goQuote(name)} is invalid: ${msg}`, {
    name,
    causes: errs.map((e) => ({ reason: `Field${e.type.replace(/ /g, '')}`, message: fieldErrorString(e).slice(e.field.length + 2), field: e.field })),
  });
}

/** newForbidden mirrors errors.NewForbidden: `resource "name" is forbidden: <err>`. */
export function newForbidden(qr: string, name: string, message: string): StatusError {
  return err(403, 'Forbidden', `${qr} ${goQuote(name)} is forbidden: ${message}`, { name });
}

export function newBadRequest(message: string): StatusError {
  return err(400, 'BadRequest', message);
}

/**
 * newUnprocessable is the 422 kube-apiserver answers when a JSON patch does not apply to the
 * object (handlers/patch.go: errors.NewGenericServerResponse(422, ...) with the patch library's error).
 */
export function newUnprocessable(message: string): StatusError {
  return err(422, 'Invalid', message);
}

/** newTooManyRequests mirrors errors.NewTooManyRequests: 429 with a Retry-After of seconds (0: none). */
export function newTooManyRequests(message: string, retryAfterSeconds: number, causes: { reason: string; message: string; field: string }[] = []): StatusError {
  return err(429, 'TooManyRequests', message, { ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}), ...(causes.length ? { causes } : {}) });
}

export function isTooManyRequests(e: unknown): boolean {
  return e instanceof StatusError && e.status.reason === 'TooManyRequests';
}

/** newNotFoundPath is the router's 404 for a path no API serves (a subresource a resource lacks). */
export function newNotFoundPath(): StatusError {
  return err(404, 'NotFound', 'the server could not find the requested resource');
}

/** newInternalStatus is a 500 Failure Status with a message as given (no "Internal error occurred:"). */
export function newInternalStatus(message: string): StatusError {
  return err(500, '', message);
}

/** newInternalError mirrors errors.NewInternalError: 500 "Internal error occurred: <err>". */
export function newInternalError(message: string): StatusError {
  return err(500, 'InternalError', `Internal error occurred: ${message}`);
}

/** newConnectionError is what a client sees when kube-apiserver cannot be reached at all. */
export function newConnectionError(message: string): StatusError {
  return err(0, 'ConnectionError', message);
}

export function isNotFound(e: unknown): boolean {
  return e instanceof StatusError && e.status.reason === 'NotFound';
}
export function isConflict(e: unknown): boolean {
  return e instanceof StatusError && e.status.reason === 'Conflict';
}
export function isAlreadyExists(e: unknown): boolean {
  return e instanceof StatusError && e.status.reason === 'AlreadyExists';
}

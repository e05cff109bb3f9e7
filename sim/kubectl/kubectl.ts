// runKubectl executes one kubectl command line against the simulated kube-apiserver, mirroring
// the Run functions of staging/src/k8s.io/kubectl/pkg/cmd/{get,describe,apply,create,scale,set,
// rollout,delete,drain,label,taint,version} and the error printing of cmdutil.CheckErr. The
// command line is parsed, never executed by a shell.
// Simplifications (each repeated where it is made): kubectl never blocks (no --watch, no waiting
// for deletion or rollout); apply's strategic merge patch is a three-way merge with list merge
// keys for the common lists, sent as a JSON merge patch; rollout undo writes with an update;
// delete has no --cascade (background propagation only, as the garbage collector models).

import { parseAllDocuments } from 'yaml';
import { deepClone } from '../api/clone.ts';
import { parseSelector, type Selector } from '../api/labels.ts';
import type {
  AnyObject,
  Container,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Event,
  Eviction,
  Lease,
  Namespace,
  Node,
  Pod,
  ReplicaSet,
  ResourceName,
  Service,
  Taint,
} from '../api/types.ts';
import type { DeleteOptions, ListOptions, ListResult } from '../apiserver/apiserver.ts';
import { listFieldSelector, type FieldSelector } from '../apiserver/fields.ts';
import {
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  revision as revisionOf,
} from '../controllers/deployment/util.ts';
import { formatTime } from '../engine/clock.ts';
import { goQuote } from '../apiserver/errors.ts';
import {
  describeDaemonSet,
  describeDeployment,
  describeEndpointSlice,
  describeNamespace,
  describeNode,
  describePod,
  describePodTemplateRaw,
  describeReplicaSet,
  describeService,
  LAST_APPLIED,
  podStatusCounts,
  taintString,
  type NodeLeaseInput,
} from './describe.ts';
import {
  parseCommandLine,
  groupKindString,
  qualifiedResource,
  RESOURCE_TYPES,
  type KubectlCommand,
  type ParsedTaint,
  type ResourceType,
  type Targets,
} from './parse.ts';
import {
  buildTable,
  printTables,
  type ComponentStatus,
  type PrintOptions,
  type Table,
} from './printers.ts';
import { sortObjects, sortTableRows, UnsortableError } from './sorter.ts';
import { DESCRIBE_TABWRITER, tabwrite } from './tabwriter.ts';
import { toCompactJSON, toJSON, toYAML } from './yaml-json.ts';

/**
 * KubectlClient is what kubectl needs from the API client. sim/client/client.ts's Client
 * satisfies it; every method throws a StatusError ({ status: { code, reason, message } }).
 */
export interface KubectlClient {
  create<T extends AnyObject>(resource: ResourceName, obj: T): T;
  get<T extends AnyObject>(resource: ResourceName, namespace: string | undefined, name: string): T;
  list<T extends AnyObject>(resource: ResourceName, opts?: ListOptions): ListResult<T>;
  update<T extends AnyObject>(resource: ResourceName, obj: T): T;
  /** patch sends a JSON merge patch (RFC 7386). */
  patch<T extends AnyObject>(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
    patch: unknown,
  ): T;
  delete(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
    opts?: DeleteOptions,
  ): AnyObject;
  /** evict POSTs a policy/v1 Eviction to pods/eviction; when absent, drain deletes the Pod instead. */
  evict?(eviction: Eviction): void;
  /** checkPatchSource has kube-apiserver decode the manifest a patch is built from (400 if not). */
  checkPatchSource(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
    manifest: Record<string, unknown>,
  ): void;
}

/** healthyComponentStatuses is what GET /api/v1/componentstatuses returns when all three answer. */
export function healthyComponentStatuses(): ComponentStatus[] {
  return ['scheduler', 'controller-manager', 'etcd-0'].map((name) => ({
    apiVersion: 'v1',
    kind: 'ComponentStatus',
    metadata: { name },
    conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
  }));
}

/** KubectlContext is the environment one command runs in. */
export interface KubectlContext {
  client: KubectlClient;
  /** now is the virtual time in milliseconds. */
  now(): number;
  /** namespace is the kubeconfig context's namespace; "default" when unset. */
  namespace?: string;
  /** componentStatuses answers `kubectl get componentstatuses`; all Healthy when absent. */
  componentStatuses?(): ComponentStatus[];
  /** serverVersion is kube-apiserver's gitVersion; v1.34.1 when absent. */
  serverVersion?: string;
  /**
   * kubelet says whether kube-apiserver can reach a node's kubelet (port 10250), which serves
   * `kubectl logs` and `kubectl exec`; always reachable when absent.
   */
  kubelet?(node: string): { ip: string; dialError?: string };
}

/** KubectlResult is what the terminal shows: both streams and the exit code. */
export interface KubectlResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** watch is set by `kubectl get -w`: what to print as objects change (see watchRows). */
  watch?: KubectlWatch;
}

/**
 * KubectlWatch is a running `kubectl get -w`, as plain data: the objects it watches and how it
 * prints them. kubectl prints the list, then one row per watch event, without a header.
 */
export interface KubectlWatch {
  resource: string;
  namespace?: string;
  name?: string;
  selector?: string;
  wide: boolean;
  withNamespace: boolean;
}

/** WatchChange is one committed write, as kube-apiserver's changes list records it. */
export interface WatchChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: string;
  object: AnyObject;
}

/**
 * watchRows prints the rows `kubectl get -w` adds for these changes: one per event on a watched
 * object, each row laid out on its own (kubectl flushes its tab writer after every event, so the
 * columns line up with the header only by chance). now is the virtual time in ms, for AGE.
 */
export function watchRows(w: KubectlWatch, changes: WatchChange[], now: number): string {
  let sel: Selector | undefined;
  try {
    sel = w.selector !== undefined ? parseSelector(w.selector) : undefined;
  } catch {
    return '';
  }
  let out = '';
  for (const c of changes) {
    const m = c.object.metadata;
    if (c.resource !== w.resource) continue;
    if (w.namespace !== undefined && (m.namespace ?? '') !== w.namespace) continue;
    if (w.name !== undefined && m.name !== w.name) continue;
    if (sel && !sel.matches(m.labels)) continue;
    const table = buildTable(w.resource, [c.object], now);
    out += printTables([
      { table, opts: { wide: w.wide, withNamespace: w.withNamespace, noHeaders: true } },
    ]);
  }
  return out;
}

export const CLIENT_VERSION = 'v1.34.1';
export const KUSTOMIZE_VERSION = 'v5.7.1';

// ---- errors ----

interface StatusLike {
  status: {
    code: number;
    reason: string;
    message: string;
    details?: { name?: string; kind?: string; causes?: { field: string; message: string }[] };
  };
}

function isStatusError(e: unknown): e is StatusLike {
  return (
    typeof e === 'object' &&
    e !== null &&
    'status' in e &&
    typeof (e as StatusLike).status?.message === 'string'
  );
}

function isNotFound(e: unknown): boolean {
  return isStatusError(e) && e.status.reason === 'NotFound';
}

/** LocalStatusError is a Status kubectl itself synthesises (as the server would send it). */
class LocalStatusError extends Error {
  readonly status: StatusLike['status'];
  constructor(code: number, reason: string, message: string) {
    super(message);
    this.status = { code, reason, message };
  }
}

/** ListSelector is a `-l` value as typed, with its parse result or kube-apiserver's error. */
interface ListSelector {
  raw: string;
  selector?: Selector;
  error?: string;
}

/**
 * enhanceListError mirrors cli-runtime resource.EnhanceListError for a list call with a label or
 * field selector: a BadRequest or NotFound keeps its reason and gains the resource and selectors.
 */
function enhanceListError(
  e: unknown,
  t: ResourceType,
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
 * componentStatusMatches filters the ComponentStatuses kube-apiserver makes up on each list
 * (pkg/registry/core/componentstatus/rest.go): they carry no labels, so a selector with
 * requirements matches none, and only metadata.name is selectable. A bad field selector is
 * 400 BadRequest, as on any list.
 */
function componentStatusMatches(
  cs: ComponentStatus,
  labelSelector: Selector | undefined,
  fieldSelector: string | undefined,
): boolean {
  if (labelSelector && !labelSelector.matches(undefined)) return false;
  if (fieldSelector === undefined) return true;
  let fs: FieldSelector;
  try {
    fs = listFieldSelector('componentstatuses', fieldSelector);
  } catch (e) {
    throw new LocalStatusError(400, 'BadRequest', (e as Error).message);
  }
  return fs.matches((f) => (f === 'metadata.name' ? cs.metadata.name : ''));
}

/**
 * Aggregate is utilerrors.Aggregate. CheckErr prints one of several errors per line, each in
 * its standard form but without the "error: " prefix (cmdutil.MultipleErrors); nested inside
 * another aggregate it reads "[a, b]".
 */
class Aggregate extends Error {
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
class KubectlError extends Error {}

/** RawError is printed exactly as given (its message carries its own prefix and lines). */
class RawError extends Error {}

/** withSource mirrors cmdutil.AddSourceToErr: `error when creating "STDIN": ...`. */
function withSource(verb: string, source: string, e: unknown): unknown {
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

// ---- helpers ----

function typeOf(resource: string): ResourceType {
  return RESOURCE_TYPES.find((t) => t.resource === resource)!;
}

/** namePrint mirrors printers.NamePrinter: "deployment.apps/web created". */
function namePrint(t: ResourceType, name: string, operation = ''): string {
  return `${groupKindString(t)}/${name}${operation ? ` ${operation}` : ''}\n`;
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort())
      if ((v as Record<string, unknown>)[k] !== undefined)
        out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

class Run {
  readonly ctx: KubectlContext;
  stdout = '';
  stderr = '';
  failed = false;

  constructor(ctx: KubectlContext) {
    this.ctx = ctx;
  }

  get client(): KubectlClient {
    return this.ctx.client;
  }

  now(): number {
    return this.ctx.now();
  }

  out(s: string): void {
    this.stdout += s;
  }

  fail(e: unknown): void {
    this.stderr += errorMessage(e);
    this.failed = true;
  }

  warn(msg: string): void {
    this.stderr += `Warning: ${msg}\n`;
  }

  ns(cmd: { namespace?: string }): string {
    return cmd.namespace ?? this.ctx.namespace ?? 'default';
  }

  /**
   * selector parses `-l`. kube-apiserver parses it on each list call, so a bad one fails there:
   * the result carries the parse error for list to raise.
   */
  selector(s: string | undefined): ListSelector | undefined {
    if (s === undefined) return undefined;
    try {
      return { raw: s, selector: parseSelector(s) };
    } catch (e) {
      return { raw: s, error: (e as Error).message };
    }
  }

  /**
   * list lists a resource. selector is a parsed label selector or a typed `-l`; fieldSelector is
   * a typed --field-selector, sent as text for kube-apiserver to parse (fields.ts); nodeName
   * selects Pods bound to a node, as kubectl's own calls do.
   */
  list<T extends AnyObject>(
    t: ResourceType,
    namespace: string | undefined,
    selector?: Selector | ListSelector,
    nodeName?: string,
    fieldSelector?: string,
  ): T[] {
    const typed = selector && 'raw' in selector ? selector : undefined;
    if (t.resource === 'componentstatuses' && !typed && fieldSelector === undefined)
      return this.componentStatuses() as unknown as T[];
    const opts: ListOptions = {};
    if (t.namespaced && namespace !== undefined) opts.namespace = namespace;
    if (nodeName !== undefined) opts.fieldSelector = { 'spec.nodeName': nodeName };
    if (typed || fieldSelector !== undefined) {
      try {
        if (typed?.error !== undefined) throw new LocalStatusError(400, 'BadRequest', typed.error);
        if (t.resource === 'componentstatuses')
          return this.componentStatuses().filter((cs) =>
            componentStatusMatches(cs, typed?.selector, fieldSelector),
          ) as unknown as T[];
        if (typed) opts.labelSelector = typed.selector;
        if (fieldSelector !== undefined) opts.fieldSelector = fieldSelector;
        return this.client.list<T>(t.resource as ResourceName, opts).items;
      } catch (e) {
        throw enhanceListError(e, t, typed?.raw ?? '', fieldSelector ?? '');
      }
    }
    if (selector) opts.labelSelector = selector as Selector;
    return this.client.list<T>(t.resource as ResourceName, opts).items;
  }

  get<T extends AnyObject>(t: ResourceType, namespace: string, name: string): T {
    if (t.resource === 'componentstatuses') {
      const cs = this.componentStatuses().find((c) => c.metadata.name === name);
      if (!cs) throw new LocalStatusError(404, 'NotFound', `componentstatuses "${name}" not found`);
      return cs as unknown as T;
    }
    return this.client.get<T>(
      t.resource as ResourceName,
      t.namespaced ? namespace : undefined,
      name,
    );
  }

  componentStatuses(): ComponentStatus[] {
    const list = this.ctx.componentStatuses ? this.ctx.componentStatuses() : healthyComponentStatuses();
    // The deprecation warning arrives in the response's Warning header, so only a request that
    // kube-apiserver answered prints it (client-go rest.WarningHandler).
    if (!this.warnedComponentStatus) this.warn('v1 ComponentStatus is deprecated in v1.19+');
    this.warnedComponentStatus = true;
    return list;
  }

  private warnedComponentStatus = false;

  /** resolveNamed lists the (type, name) pairs of named targets, in the order the builder visits them. */
  resolveNamed(targets: Targets): { type: ResourceType; name: string }[] {
    if (targets.form === 'pairs') return targets.pairs;
    if (targets.form === 'types') {
      const out: { type: ResourceType; name: string }[] = [];
      for (const type of targets.types) for (const name of targets.names) out.push({ type, name });
      return out;
    }
    return [];
  }

  watch: KubectlWatch | undefined;

  result(): KubectlResult {
    const res: KubectlResult = { stdout: this.stdout, stderr: this.stderr, exitCode: this.failed ? 1 : 0 };
    if (this.watch && !this.failed) res.watch = this.watch;
    return res;
  }
}

// ---- get ----

interface Info {
  type: ResourceType;
  /** objects are the items (a list request) or the single object (a get by name). */
  objects: AnyObject[];
  byName: boolean;
}

function runGet(r: Run, cmd: Extract<KubectlCommand, { verb: 'get' }>): void {
  const ns = r.ns(cmd);
  const selector = r.selector(cmd.selector);
  const infos: Info[] = [];
  const errors: unknown[] = [];
  const named =
    cmd.targets.form === 'pairs' || (cmd.targets.form === 'types' && cmd.targets.names.length > 0);
  if (named && (cmd.selector !== undefined || cmd.fieldSelector !== undefined))
    throw new KubectlError('name cannot be provided when a selector is specified');
  if (named && cmd.allNamespaces)
    throw new KubectlError('a resource cannot be retrieved by name across all namespaces');
  const types = cmd.targets.form === 'types' ? cmd.targets.types : [];
  if (named) {
    for (const { type, name } of r.resolveNamed(cmd.targets)) {
      try {
        infos.push({ type, objects: [r.get(type, ns, name)], byName: true });
      } catch (e) {
        if (cmd.ignoreNotFound && isNotFound(e)) continue;
        errors.push(e);
      }
    }
  } else {
    for (const type of types) {
      try {
        infos.push({
          type,
          objects: r.list(
            type,
            cmd.allNamespaces ? undefined : ns,
            selector,
            undefined,
            cmd.fieldSelector,
          ),
          byName: false,
        });
      } catch (e) {
        errors.push(e);
      }
    }
  }

  if (cmd.output === 'yaml' || cmd.output === 'json' || cmd.output === 'name') {
    const singleItemImplied = named && r.resolveNamed(cmd.targets).length === 1;
    let typed = infos.flatMap((i) => i.objects.map((obj) => ({ type: i.type, obj })));
    // printGeneric prints one List; SortingPrinter sorts it (a single implied item is no list).
    if (cmd.sortBy !== undefined && !(singleItemImplied && typed.length === 1)) {
      try {
        typed = sortObjectsBy(typed, cmd.sortBy);
      } catch (e) {
        for (const x of errors) r.fail(x);
        throw sortError(e);
      }
    }
    const items = typed.map((x) => x.obj);
    if (cmd.output === 'name') {
      for (const { type, obj } of typed) r.out(namePrint(type, obj.metadata.name));
    } else if (singleItemImplied && items.length === 1) {
      r.out(cmd.output === 'yaml' ? toYAML(items[0]) : toJSON(items[0]));
    } else if (!(singleItemImplied && errors.length > 0)) {
      const list = { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
      r.out(cmd.output === 'yaml' ? toYAML(list) : toJSON(list));
    }
    for (const e of errors) r.fail(e);
    return;
  }

  // RuntimeSorter sorts the rows of each info's table before anything is printed; an error
  // ends the command there (the list errors with it).
  if (cmd.sortBy !== undefined) {
    for (const info of infos) {
      try {
        info.objects = sortTableRows(info.objects, cmd.sortBy);
      } catch (e) {
        throw sortError(e);
      }
    }
  }

  // Human-readable: one table per run of infos with the same resource; kind prefixes when more
  // than one resource type was requested (multipleGVKsRequested).
  const printWithKind =
    infos.length >= 2 && infos.some((i) => i.type.resource !== infos[0].type.resource);
  const wide = cmd.output === 'wide';
  let allResourcesNamespaced = !cmd.allNamespaces;
  const groups: { table: Table; opts: PrintOptions; resource: string }[] = [];
  for (const info of infos) {
    allResourcesNamespaced = allResourcesNamespaced && info.type.namespaced;
    const table = buildTable(info.type.resource, info.objects, r.now());
    const last = groups.at(-1);
    if (last && last.resource === info.type.resource) {
      last.table.rows.push(...table.rows);
      continue;
    }
    const opts: PrintOptions = {
      wide,
      withNamespace: cmd.allNamespaces && info.type.namespaced,
      showLabels: cmd.showLabels,
      noHeaders: cmd.noHeaders,
      withKind: printWithKind ? groupKindString(info.type) : undefined,
    };
    groups.push({ table, opts, resource: info.type.resource });
  }
  const text = printTables(groups);
  r.out(text);
  if (cmd.watch) {
    // get.go#watch: one resource (a collection or one object), else an error before watching.
    if (infos.length !== 1 && types.length + r.resolveNamed(cmd.targets).length !== 1)
      throw new KubectlError(
        `watch is only supported on individual resources and resource collections, but ${infos.length} resources were found`,
      );
    const info = infos[0];
    if (info) {
      r.watch = {
        resource: info.type.resource,
        ...(info.type.namespaced && !cmd.allNamespaces ? { namespace: ns } : {}),
        ...(info.byName ? { name: info.objects[0].metadata.name } : {}),
        ...(cmd.selector !== undefined ? { selector: cmd.selector } : {}),
        wide,
        withNamespace: cmd.allNamespaces && info.type.namespaced,
      };
    }
  }
  if (text === '' && !cmd.ignoreNotFound && errors.length === 0) {
    r.stderr += allResourcesNamespaced
      ? `No resources found in ${ns} namespace.\n`
      : 'No resources found\n';
  }
  for (const e of errors) r.fail(e);
}

// sortObjectsBy sorts typed items by their objects (SortObjects on the List printGeneric prints).
function sortObjectsBy<T extends { obj: AnyObject }>(items: T[], sortBy: string): T[] {
  const order = sortObjects(
    items.map((x) => x.obj),
    sortBy,
  );
  const byObj = new Map(items.map((x) => [x.obj, x]));
  return order.map((o) => byObj.get(o)!);
}

// sortError is how a sorting failure reaches the terminal: a returned error is "error: ...", and
// an unsortable value ends kubectl through klog.Exitf (exit code 1).
// Simplification: klog's header (severity, time, pid, file:line) is left off that message.
function sortError(e: unknown): Error {
  if (e instanceof UnsortableError) return new RawError(`${e.message}\n`);
  return new KubectlError((e as Error).message);
}

// ---- describe ----

function eventsFor(r: Run, obj: AnyObject, kindFilter: boolean): Event[] {
  const ns = obj.metadata.namespace;
  const t = typeOf('events');
  const all = r.list<Event>(t, ns);
  return all.filter((e) => {
    const io = e.involvedObject ?? {};
    if (io.name !== obj.metadata.name) return false;
    if (ns && (io.namespace ?? e.metadata.namespace) !== ns) return false;
    if (kindFilter && io.kind && io.kind !== obj.kind) return false;
    if (
      io.uid &&
      io.uid !== obj.metadata.uid &&
      !(obj.kind === 'Node' && io.uid === obj.metadata.name)
    )
      return false;
    return true;
  });
}

function describeObject(r: Run, type: ResourceType, obj: AnyObject, showEvents: boolean): string {
  const now = r.now();
  const events = (kindFilter: boolean) => (showEvents ? eventsFor(r, obj, kindFilter) : []);
  switch (type.resource) {
    case 'pods':
      return describePod(obj as Pod, events(false), now);
    case 'nodes': {
      const node = obj as Node;
      const pods = r
        .list<Pod>(typeOf('pods'), undefined, undefined, node.metadata.name)
        .filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
      let lease: NodeLeaseInput;
      try {
        lease = { lease: r.get<Lease>(typeOf('leases'), 'kube-node-lease', node.metadata.name) };
      } catch (e) {
        lease = { error: isStatusError(e) ? e.status.message : (e as Error).message };
      }
      return describeNode(node, pods, events(true), lease, now);
    }
    case 'deployments': {
      const d = obj as Deployment;
      const { oldRSs, newRS } = replicaSetsOf(r, d);
      return describeDeployment(d, oldRSs, newRS, events(true), now);
    }
    case 'replicasets': {
      const rs = obj as ReplicaSet;
      const pods = r.list<Pod>(
        typeOf('pods'),
        rs.metadata.namespace,
        labelSelectorOf(rs.spec.selector),
      );
      return describeReplicaSet(rs, podStatusCounts(pods, rs.metadata.uid), events(true), now);
    }
    case 'services': {
      const svc = obj as Service;
      const slices = r
        .list<EndpointSlice>(typeOf('endpointslices'), svc.metadata.namespace)
        .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name);
      return describeService(svc, slices, events(true), now);
    }
    case 'daemonsets': {
      const ds = obj as DaemonSet;
      const pods = r.list<Pod>(
        typeOf('pods'),
        ds.metadata.namespace,
        labelSelectorOf(ds.spec.selector),
      );
      return describeDaemonSet(ds, podStatusCounts(pods, ds.metadata.uid), events(true), now);
    }
    case 'namespaces':
      return describeNamespace(obj as Namespace);
    case 'endpointslices':
      return describeEndpointSlice(obj as EndpointSlice, events(true), now);
    default:
      // Simplification: the generic describer (events, leases, componentstatuses) is not modelled.
      throw new KubectlError(
        `describe is not supported for ${qualifiedResource(type)} in this simulator; use kubectl get ${type.resource} -o yaml`,
      );
  }
}

function labelSelectorOf(ls: Deployment['spec']['selector'] | undefined): Selector {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(ls?.matchLabels ?? {})) parts.push(`${k}=${v}`);
  for (const e of ls?.matchExpressions ?? []) {
    if (e.operator === 'In') parts.push(`${e.key} in (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else parts.push(`!${e.key}`);
  }
  return parseSelector(parts.join(','));
}

/**
 * replicaSetsOf mirrors kubectl's util/deployment GetAllReplicaSets: the old ReplicaSets that
 * still have replicas (findOldReplicaSets' requiredRSs, without spec.replicas == 0 ones; what
 * describe prints), all old ones (what rollout history and undo read) and the new one.
 */
function replicaSetsOf(
  r: Run,
  d: Deployment,
): { oldRSs: ReplicaSet[]; allOldRSs: ReplicaSet[]; newRS: ReplicaSet | undefined } {
  const sel = labelSelectorOf(d.spec.selector);
  const owned = r
    .list<ReplicaSet>(typeOf('replicasets'), d.metadata.namespace, sel)
    .filter((rs) =>
      (rs.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === d.metadata.uid),
    );
  const newRS = findNewReplicaSet(d, [...owned]);
  const { requiredRSs, allRSs } = findOldReplicaSets(d, [...owned]);
  return { oldRSs: requiredRSs, allOldRSs: allRSs, newRS };
}

function runDescribe(r: Run, cmd: Extract<KubectlCommand, { verb: 'describe' }>): void {
  const ns = r.ns(cmd);
  const selector = r.selector(cmd.selector);
  const found: { type: ResourceType; obj: AnyObject }[] = [];
  const errors: unknown[] = [];
  const targets = cmd.targets;
  if (targets.form === 'types' && targets.names.length === 0) {
    for (const type of targets.types) {
      try {
        for (const obj of r.list(type, cmd.allNamespaces ? undefined : ns, selector))
          found.push({ type, obj });
      } catch (e) {
        errors.push(e);
      }
    }
  } else {
    for (const { type, name } of r.resolveNamed(targets)) {
      try {
        found.push({ type, obj: r.get(type, ns, name) });
      } catch (e) {
        // DescribeMatchingResources: `describe TYPE NAME` falls back to a name prefix match.
        if (
          isNotFound(e) &&
          targets.form === 'types' &&
          targets.types.length === 1 &&
          targets.names.length === 1
        ) {
          const matches = r.list(type, ns).filter((o) => o.metadata.name.startsWith(name));
          if (matches.length > 0) {
            for (const obj of matches) found.push({ type, obj });
            continue;
          }
        }
        errors.push(e);
      }
    }
  }
  let first = true;
  for (const { type, obj } of found) {
    try {
      const s = describeObject(r, type, obj, cmd.showEvents);
      r.out(first ? s : `\n\n${s}`);
      first = false;
    } catch (e) {
      errors.push(e);
    }
  }
  if (found.length === 0 && errors.length === 0)
    r.stderr += cmd.allNamespaces
      ? 'No resources found\n'
      : `No resources found in ${ns} namespace.\n`;
  for (const e of errors) r.fail(e);
}

// ---- apply / create -f ----

const YAML_ERRORS: Record<string, string> = {
  TAB_AS_INDENT: 'found character that cannot start any token',
  BAD_INDENT: 'did not find expected key',
  MULTILINE_IMPLICIT_KEY: 'mapping values are not allowed in this context',
  BLOCK_AS_IMPLICIT_KEY: 'mapping values are not allowed in this context',
  UNEXPECTED_TOKEN: 'did not find expected key',
  MISSING_CHAR: "did not find expected ',' or ']'",
  BAD_SCALAR_START: 'found character that cannot start any token',
};

// decoded remembers the documents of manifests seen before (grading applies the same manifest in
// run after run); callers get a copy, as a fresh decode would give them. Manifests with anchors or
// aliases are not remembered, since a decode may share objects between their documents.
const decodedManifests = new Map<string, Record<string, unknown>[]>();

/** decodeManifests mirrors resource.StreamVisitor over YAMLOrJSONDecoder: one object per document. */
function decodeManifests(text: string, source: string): Record<string, unknown>[] {
  const hit = decodedManifests.get(text);
  if (hit) return deepClone(hit);
  const out = decodeManifestsOnce(text, source);
  if (!/[&*]/.test(text)) {
    if (decodedManifests.size >= 64) decodedManifests.clear();
    decodedManifests.set(text, deepClone(out));
  }
  return out;
}

function decodeManifestsOnce(text: string, source: string): Record<string, unknown>[] {
  const docs = parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false });
  const out: Record<string, unknown>[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) {
      const err = doc.errors[0];
      // Lines count from the start of the document, as each document is converted on its own;
      // the "---" line belongs to no document (apimachinery yaml.YAMLReader#Read drops it).
      let start = doc.range[0];
      if (text.startsWith('---', start)) start = text.indexOf('\n', start) + 1 || start;
      const line = text.slice(start, Math.max(start, err.pos[0])).split('\n').length;
      // Simplification: go-yaml's messages (and its off-by-one for parser errors) are approximated
      // from the yaml package's error codes.
      const msg = YAML_ERRORS[err.code] ?? 'did not find expected node content';
      throw new KubectlError(
        `error parsing ${source}: error converting YAML to JSON: yaml: line ${line}: ${msg}`,
      );
    }
    const v = doc.toJS({ maxAliasCount: 100 }) as unknown;
    if (v === null || v === undefined) continue;
    if (!isMap(v))
      throw new KubectlError(
        `error parsing ${source}: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : 'number'} into Go value of type map[string]interface {}`,
      );
    // A List is flattened into its items, as the builder does.
    if (v.kind === 'List' && Array.isArray(v.items))
      for (const item of v.items) out.push(item as Record<string, unknown>);
    else out.push(v);
  }
  return out;
}

const STOP_VALIDATE =
  'if you choose to ignore these errors, turn validation off with --validate=false';

interface ManifestInfo {
  type: ResourceType;
  obj: Record<string, unknown> & { metadata: Record<string, unknown> };
  namespace: string;
  name: string;
}

/**
 * BUILTIN_KINDS are built-in kinds (group/kind) kube-apiserver serves that the simulator does not
 * model; applying one gets a simulator message rather than kubectl's CRD hint.
 */
const BUILTIN_KINDS = new Set([
  '/Binding',
  '/ConfigMap',
  '/Endpoints',
  '/LimitRange',
  '/PersistentVolume',
  '/PersistentVolumeClaim',
  '/PodTemplate',
  '/ReplicationController',
  '/ResourceQuota',
  '/Secret',
  '/ServiceAccount',
  'apps/ControllerRevision',
  'apps/StatefulSet',
  'autoscaling/HorizontalPodAutoscaler',
  'batch/CronJob',
  'batch/Job',
  'networking.k8s.io/Ingress',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/NetworkPolicy',
  'policy/PodDisruptionBudget',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'scheduling.k8s.io/PriorityClass',
  'storage.k8s.io/StorageClass',
]);

/**
 * manifestInfos validates and maps every document, as GetObjects does before anything is sent.
 * Decoding and validation errors stop everything; a document whose kind cannot be mapped is
 * left out and its error returned, as the builder's ContinueOnError does.
 */
function manifestInfos(
  r: Run,
  text: string,
  cmdNs: string | undefined,
  source: string,
): { infos: ManifestInfo[]; mappingErrors: Error[] } {
  const docs = decodeManifests(text, source);
  const defaultNs = cmdNs ?? r.ctx.namespace ?? 'default';
  const infos: ManifestInfo[] = [];
  const mappingErrors: Error[] = [];
  for (const doc of docs) {
    const errs: string[] = [];
    if (doc.apiVersion === undefined || doc.apiVersion === null) errs.push('apiVersion not set');
    else if (typeof doc.apiVersion !== 'string') errs.push("apiVersion isn't string type");
    if (doc.kind === undefined || doc.kind === null) errs.push('kind not set');
    else if (typeof doc.kind !== 'string') errs.push("kind isn't string type");
    if (errs.length)
      throw new KubectlError(
        `error validating "${source}": error validating data: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}; ${STOP_VALIDATE}`,
      );
    const apiVersion = doc.apiVersion as string;
    const kind = doc.kind as string;
    const meta = (isMap(doc.metadata) ? doc.metadata : {}) as Record<string, unknown>;
    const name = typeof meta.name === 'string' ? meta.name : '';
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const version = apiVersion.includes('/')
      ? apiVersion.slice(apiVersion.indexOf('/') + 1)
      : apiVersion;
    const type = RESOURCE_TYPES.find(
      (t) =>
        t.kind === kind &&
        t.group === group &&
        version === 'v1' &&
        t.resource !== 'componentstatuses',
    );
    if (!type) {
      const objNs = typeof meta.namespace === 'string' ? meta.namespace : '';
      const where = `resource mapping not found for name: "${name}" namespace: "${objNs}" from "${source}"`;
      // Simplification: built-in kinds outside the model are refused with a message that says so;
      // real kube-apiserver serves them and the apply succeeds.
      if (BUILTIN_KINDS.has(`${group}/${kind}`))
        mappingErrors.push(
          new KubectlError(
            `${where}: kind "${kind}" in version "${apiVersion}" is built into Kubernetes but not modelled by this simulator, which models ${MODELLED_KINDS}`,
          ),
        );
      else
        mappingErrors.push(
          new KubectlError(
            `${where}: no matches for kind "${kind}" in version "${apiVersion}"\nensure CRDs are installed first`,
          ),
        );
      continue;
    }
    let namespace = '';
    if (type.namespaced) {
      const objNs =
        typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : undefined;
      if (cmdNs !== undefined && objNs !== undefined && objNs !== cmdNs)
        throw new KubectlError(
          `the namespace from the provided object "${objNs}" does not match the namespace "${cmdNs}". You must pass '--namespace=${objNs}' to perform this operation.`,
        );
      namespace = objNs ?? defaultNs;
      meta.namespace = namespace;
    }
    doc.metadata = meta;
    infos.push({ type, obj: doc as ManifestInfo['obj'], namespace, name });
  }
  return { infos, mappingErrors };
}

/** MODELLED_KINDS lists the kinds apply can send, for the message above. */
const MODELLED_KINDS = RESOURCE_TYPES.filter((t) => t.resource !== 'componentstatuses')
  .map((t) => (t.group ? `${t.kind}.${t.group}` : t.kind))
  .join(', ');

function gvkString(t: ResourceType): { resource: string; gvk: string } {
  const gv = t.group ? `${t.group}/v1` : 'v1';
  return { resource: `${gv}, Resource=${t.resource}`, gvk: `${gv}, Kind=${t.kind}` };
}

/** modifiedConfiguration mirrors util.GetModifiedConfiguration: the object as JSON, annotated. */
function modifiedConfiguration(obj: ManifestInfo['obj']): ManifestInfo['obj'] {
  const o = clone(obj);
  const annots = isMap(o.metadata.annotations)
    ? (o.metadata.annotations as Record<string, string>)
    : {};
  delete annots[LAST_APPLIED];
  o.metadata.annotations = annots;
  const lastApplied = toCompactJSON(o) + '\n';
  annots[LAST_APPLIED] = lastApplied;
  return o;
}

// mergeKeyFor names the patchMergeKey of the lists strategic merge patch merges by key.
function mergeKeyFor(field: string, items: unknown[]): string | undefined {
  switch (field) {
    case 'containers':
    case 'initContainers':
    case 'ephemeralContainers':
    case 'volumes':
    case 'env':
    case 'imagePullSecrets':
      return 'name';
    case 'volumeMounts':
      return 'mountPath';
    case 'ports':
      return items.some((i) => isMap(i) && 'containerPort' in i) ? 'containerPort' : 'port';
    case 'ownerReferences':
      return 'uid';
    case 'conditions':
      return 'type';
    case 'hostAliases':
      return 'ip';
    default:
      return undefined;
  }
}

/**
 * threeWayMerge applies `modified` onto `current`, deleting what `original` (the last applied
 * configuration) had and `modified` no longer has. Simplification of strategic merge patch: lists
 * with a known patchMergeKey merge by key, other lists are replaced.
 */
function threeWayMerge(
  current: unknown,
  original: unknown,
  modified: unknown,
  field = '',
): unknown {
  if (isMap(modified)) {
    const cur = isMap(current) ? current : {};
    const orig = isMap(original) ? original : {};
    const out: Record<string, unknown> = clone(cur);
    for (const [k, v] of Object.entries(modified)) {
      if (v === null) delete out[k];
      else out[k] = threeWayMerge(cur[k], orig[k], v, k);
    }
    for (const k of Object.keys(orig)) if (!(k in modified)) delete out[k];
    return out;
  }
  if (Array.isArray(modified)) {
    const key = mergeKeyFor(field, modified);
    const cur = Array.isArray(current) ? current : [];
    const orig = Array.isArray(original) ? original : [];
    if (key && modified.every(isMap)) {
      const id = (x: unknown) => (isMap(x) ? JSON.stringify(x[key]) : undefined);
      const origIds = new Set(orig.map(id));
      const modIds = new Set(modified.map(id));
      const out: unknown[] = modified.map((m) => {
        const c = cur.find((x) => id(x) === id(m));
        const o = orig.find((x) => id(x) === id(m));
        return threeWayMerge(c, o, m);
      });
      for (const c of cur) if (!modIds.has(id(c)) && !origIds.has(id(c))) out.push(clone(c));
      return out;
    }
    if (field === 'finalizers') {
      const out = cur.filter((c) => modified.includes(c) || !orig.includes(c));
      for (const m of modified) if (!out.includes(m)) out.push(m);
      return out;
    }
    return clone(modified);
  }
  return modified;
}

/** mergePatchBetween is a JSON merge patch turning a into b (lists whole, null for removals). */
function mergePatchBetween(a: unknown, b: unknown): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const ao = isMap(a) ? a : {};
  const bo = isMap(b) ? b : {};
  for (const [k, v] of Object.entries(bo)) {
    if (isMap(v) && isMap(ao[k])) {
      const sub = mergePatchBetween(ao[k], v);
      if (Object.keys(sub).length) patch[k] = sub;
    } else if (!deepEqual(ao[k], v)) patch[k] = v;
  }
  for (const k of Object.keys(ao)) if (!(k in bo) && ao[k] !== undefined) patch[k] = null;
  return patch;
}

function runApply(
  r: Run,
  cmd: Extract<KubectlCommand, { verb: 'apply' | 'create' }>,
  stdin: string | undefined,
): void {
  const source = 'STDIN';
  const { infos, mappingErrors } = manifestInfos(r, stdin ?? '', cmd.namespace, source);
  // Run: errs starts with GetObjects' error (one error, or an aggregate of several), then one
  // per object that failed; one error is printed as CheckErr prints it, several as an aggregate.
  const errs: unknown[] = [];
  if (mappingErrors.length === 1) errs.push(mappingErrors[0]);
  else if (mappingErrors.length > 1) errs.push(new Aggregate(mappingErrors));
  if (infos.length === 0 && errs.length === 0)
    throw new KubectlError('no objects passed to ' + cmd.verb);
  for (const info of infos) {
    const res = info.type.resource as ResourceName;
    const ns = info.type.namespaced ? info.namespace : undefined;
    try {
      if (cmd.verb === 'create') {
        try {
          r.client.create(res, info.obj as unknown as AnyObject);
        } catch (e) {
          throw withSource('creating', source, e);
        }
        r.out(namePrint(info.type, info.name, 'created'));
        continue;
      }
      const annotated = modifiedConfiguration(info.obj);
      let current: AnyObject | undefined;
      try {
        if (!info.name)
          throw new LocalStatusError(400, 'BadRequest', 'resource name may not be empty');
        current = r.client.get(res, ns, info.name);
      } catch (e) {
        if (!isNotFound(e)) {
          const g = gvkString(info.type);
          const msg = isStatusError(e) ? e.status.message : (e as Error).message;
          throw new KubectlError(
            `error when retrieving current configuration of:\nResource: "${g.resource}", GroupVersionKind: "${g.gvk}"\nName: "${info.name}", Namespace: "${info.namespace}"\nfrom server for: "${source}": ${msg}`,
          );
        }
      }
      if (!current) {
        try {
          r.client.create(res, annotated as unknown as AnyObject);
        } catch (e) {
          throw withSource('creating', source, e);
        }
        r.out(namePrint(info.type, info.name, 'created'));
        continue;
      }
      // The patched object is decoded strictly on the server; the manifest carries every field
      // the patch can add, so decoding it finds the same errors before a merge is attempted.
      try {
        r.client.checkPatchSource(res, ns, info.name, annotated);
      } catch (e) {
        throw withSource('patching', source, e);
      }
      const originalText = current.metadata.annotations?.[LAST_APPLIED];
      let original: unknown;
      try {
        original = originalText ? JSON.parse(originalText) : undefined;
      } catch {
        original = undefined;
      }
      const merged = threeWayMerge(current, original, annotated);
      const patch = mergePatchBetween(current, merged);
      if (Object.keys(patch).length === 0) {
        r.out(namePrint(info.type, info.name, 'unchanged'));
        continue;
      }
      try {
        r.client.patch(res, ns, info.name, patch);
      } catch (e) {
        throw withSource('patching', source, e);
      }
      r.out(namePrint(info.type, info.name, 'configured'));
    } catch (e) {
      errs.push(e);
    }
  }
  if (errs.length === 1) r.fail(errs[0]);
  else if (errs.length > 1) r.fail(new Aggregate(errs));
}

// ---- create deployment ----

function runCreateDeployment(
  r: Run,
  cmd: Extract<KubectlCommand, { verb: 'create deployment' }>,
): void {
  const labels = { app: cmd.name };
  const seen = new Set<string>();
  const containers = cmd.images.map((image, i) => {
    // Retain just the image name, without registry, tag or digest (buildPodSpec).
    let name = image.split('/').pop()!;
    if (name.includes(':')) name = name.split(':')[0];
    if (name.includes('@')) name = name.split('@')[0];
    name = name.replace(/_/g, '-');
    // Simplification: sanitizeAndUniquify appends a random suffix to duplicates; we use the index.
    if (seen.has(name)) name = `${name}-${i}`;
    seen.add(name);
    return { name, image } as Pod['spec']['containers'][number];
  });
  if (cmd.port >= 0 && containers.length > 0) containers[0].ports = [{ containerPort: cmd.port }];
  const meta: Record<string, unknown> = {
    name: cmd.name,
    labels: { ...labels },
    namespace: r.ns(cmd),
  };
  const deploy = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta,
    spec: {
      replicas: cmd.replicas,
      selector: { matchLabels: { ...labels } },
      template: { metadata: { labels: { ...labels } }, spec: { containers } },
    },
    status: {},
  } as unknown as Deployment;
  try {
    r.client.create('deployments', deploy);
  } catch (e) {
    throw new KubectlError(
      `failed to create deployment: ${isStatusError(e) ? e.status.message : (e as Error).message}`,
    );
  }
  r.out(namePrint(typeOf('deployments'), cmd.name, 'created'));
}

// ---- scale / set image ----

function objectsFor(
  r: Run,
  targets: Targets,
  ns: string,
  selector?: string,
  all = false,
  fieldSelector?: string,
): { type: ResourceType; obj: AnyObject }[] {
  const out: { type: ResourceType; obj: AnyObject }[] = [];
  if (
    targets.form === 'types' &&
    targets.names.length === 0 &&
    (selector !== undefined || fieldSelector !== undefined || all)
  ) {
    const sel = r.selector(selector);
    for (const type of targets.types)
      for (const obj of r.list(type, ns, sel, undefined, fieldSelector)) out.push({ type, obj });
    return out;
  }
  for (const { type, name } of r.resolveNamed(targets))
    out.push({ type, obj: r.get(type, ns, name) });
  return out;
}

function runScale(r: Run, cmd: Extract<KubectlCommand, { verb: 'scale' }>): void {
  const ns = r.ns(cmd);
  if (cmd.targets.form === 'types' && cmd.targets.names.length === 0 && cmd.selector === undefined)
    throw new KubectlError('resource(s) were provided, but no name was specified');
  for (const { type, obj } of objectsFor(r, cmd.targets, ns, cmd.selector)) {
    const scalable = type.resource === 'deployments' || type.resource === 'replicasets';
    // --current-replicas: ScalePrecondition.validate against the scale subresource's
    // spec.replicas (PreconditionError); RunScale returns it, leaving the other objects alone.
    if (scalable && cmd.currentReplicas >= 0) {
      const current = (obj as Deployment | ReplicaSet).spec?.replicas ?? 1;
      if (current !== cmd.currentReplicas)
        throw new KubectlError(`Expected replicas to be ${cmd.currentReplicas}, was ${current}`);
    }
    try {
      if (!scalable)
        throw new LocalStatusError(
          404,
          'NotFound',
          'the server could not find the requested resource',
        );
      // Simplification: the scale subresource is a merge patch of spec.replicas.
      r.client.patch(type.resource as ResourceName, obj.metadata.namespace, obj.metadata.name, {
        spec: { replicas: cmd.replicas },
      });
      r.out(namePrint(type, obj.metadata.name, 'scaled'));
    } catch (e) {
      r.fail(e);
    }
  }
}

function podSpecPath(type: ResourceType): 'pod' | 'template' | undefined {
  if (type.resource === 'pods') return 'pod';
  if (
    type.resource === 'deployments' ||
    type.resource === 'replicasets' ||
    type.resource === 'daemonsets'
  )
    return 'template';
  return undefined;
}

function runSetImage(r: Run, cmd: Extract<KubectlCommand, { verb: 'set image' }>): void {
  const ns = r.ns(cmd);
  // Complete fetches the objects; Validate then needs at least one name=image pair.
  const objects = objectsFor(r, cmd.targets, ns);
  if (cmd.images.length === 0) throw new KubectlError('at least one image update is required');
  for (const { type, obj } of objects) {
    const where = podSpecPath(type);
    try {
      if (!where)
        throw new KubectlError(
          `${type.resource}/${obj.metadata.name} the object is not a pod or does not have a pod template: ${type.kind}`,
        );
      const spec = where === 'pod' ? (obj as Pod).spec : (obj as Deployment).spec.template.spec;
      const containers = clone(spec.containers);
      const initContainers = clone(spec.initContainers);
      const errs: string[] = [];
      for (const { container, image } of cmd.images) {
        let found = false;
        for (const c of [...(initContainers ?? []), ...containers]) {
          if (c.name === container || container === '*') {
            found = true;
            c.image = image;
          }
        }
        if (!found) errs.push(`unable to find container named "${container}"`);
      }
      if (errs.length)
        throw new RawError(
          `error: ${type.resource}/${obj.metadata.name} ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}\n`,
        );
      const changed =
        !deepEqual(containers, spec.containers) || !deepEqual(initContainers, spec.initContainers);
      if (!changed) continue;
      const podPatch: Record<string, unknown> = { containers };
      if (initContainers) podPatch.initContainers = initContainers;
      const patch =
        where === 'pod' ? { spec: podPatch } : { spec: { template: { spec: podPatch } } };
      r.client.patch(
        type.resource as ResourceName,
        obj.metadata.namespace,
        obj.metadata.name,
        patch,
      );
      r.out(namePrint(type, obj.metadata.name, 'image updated'));
    } catch (e) {
      r.fail(e);
    }
  }
}

// ---- rollout ----

const RevisionAnnotation = 'deployment.kubernetes.io/revision';
const ChangeCauseAnnotation = 'kubernetes.io/change-cause';
const ANNOTATIONS_TO_SKIP = new Set([
  LAST_APPLIED,
  RevisionAnnotation,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

function deploymentsOf(r: Run, targets: Targets, ns: string, what: string): Deployment[] {
  const out: Deployment[] = [];
  for (const { type, obj } of objectsFor(r, targets, ns)) {
    if (type.resource !== 'deployments')
      throw new KubectlError(`no ${what} has been implemented for "${type.kind}"`);
    out.push(obj as Deployment);
  }
  return out;
}

function runRolloutStatus(r: Run, cmd: Extract<KubectlCommand, { verb: 'rollout status' }>): void {
  const ns = r.ns(cmd);
  for (const d of deploymentsOf(r, cmd.targets, ns, 'status viewer')) {
    // Mirrors polymorphichelpers.DeploymentStatusViewer.Status. Simplification: kubectl would
    // watch until the rollout finishes; the simulator prints the state at this instant.
    if (cmd.revision > 0) {
      const rev = revisionOf(d) ?? 0;
      if (rev !== cmd.revision)
        throw new KubectlError(
          `desired revision (${cmd.revision}) is different from the running revision (${rev})`,
        );
    }
    const s = d.status ?? {};
    const name = d.metadata.name;
    if ((d.metadata.generation ?? 0) <= (s.observedGeneration ?? 0)) {
      const cond = (s.conditions ?? []).find((c) => c.type === 'Progressing');
      if (cond && cond.reason === 'ProgressDeadlineExceeded')
        throw new KubectlError(`deployment "${name}" exceeded its progress deadline`);
      const replicas = d.spec.replicas;
      const updated = s.updatedReplicas ?? 0;
      if (replicas !== undefined && updated < replicas)
        r.out(
          `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${replicas} new replicas have been updated...\n`,
        );
      else if ((s.replicas ?? 0) > updated)
        r.out(
          `Waiting for deployment "${name}" rollout to finish: ${(s.replicas ?? 0) - updated} old replicas are pending termination...\n`,
        );
      else if ((s.availableReplicas ?? 0) < updated)
        r.out(
          `Waiting for deployment "${name}" rollout to finish: ${s.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`,
        );
      else r.out(`deployment "${name}" successfully rolled out\n`);
    } else {
      r.out('Waiting for deployment spec update to be observed...\n');
    }
  }
}

function runRolloutHistory(
  r: Run,
  cmd: Extract<KubectlCommand, { verb: 'rollout history' }>,
): void {
  const ns = r.ns(cmd);
  for (const d of deploymentsOf(r, cmd.targets, ns, 'history viewer')) {
    const { allOldRSs: oldRSs, newRS } = replicaSetsOf(r, d);
    const all = newRS ? [...oldRSs, newRS] : oldRSs;
    const history = new Map<number, { template: ReplicaSet['spec']['template']; cause?: string }>();
    for (const rs of all) {
      const v = revisionOf(rs);
      if (v === undefined) continue;
      history.set(v, {
        template: rs.spec.template,
        cause: rs.metadata.annotations?.[ChangeCauseAnnotation],
      });
    }
    const type = typeOf('deployments');
    let info: string;
    if (history.size === 0) info = 'No rollout history found.';
    else if (cmd.revision > 0) {
      const h = history.get(cmd.revision);
      if (!h) throw new KubectlError('unable to find the specified revision');
      const template = clone(h.template);
      if (h.cause)
        template.metadata = {
          ...(template.metadata ?? {}),
          annotations: {
            ...(template.metadata?.annotations ?? {}),
            [ChangeCauseAnnotation]: h.cause,
          },
        };
      info = describePodTemplateRaw(template);
    } else {
      const revs = [...history.keys()].sort((a, b) => a - b);
      const lines = [
        'REVISION\tCHANGE-CAUSE',
        ...revs.map((v) => `${v}\t${history.get(v)!.cause || '<none>'}`),
      ];
      info = tabbedHistory(lines.join('\n') + '\n');
    }
    const withRevision = cmd.revision > 0 ? `with revision #${cmd.revision}` : '';
    r.out(namePrint(type, d.metadata.name, `${withRevision}\n${info}`));
  }
}

function tabbedHistory(text: string): string {
  return tabwrite(text, DESCRIBE_TABWRITER);
}

function runRolloutUndo(r: Run, cmd: Extract<KubectlCommand, { verb: 'rollout undo' }>): void {
  const ns = r.ns(cmd);
  for (const d of deploymentsOf(r, cmd.targets, ns, 'rollbacker')) {
    try {
      // Mirrors polymorphichelpers.DeploymentRollbacker.Rollback.
      if (cmd.toRevision < 0)
        throw new KubectlError(`unable to find specified revision ${cmd.toRevision} in history`);
      if (d.spec.paused)
        throw new KubectlError(
          "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again",
        );
      const { allOldRSs: oldRSs, newRS } = replicaSetsOf(r, d);
      const all = newRS ? [...oldRSs, newRS] : oldRSs;
      let target: ReplicaSet | undefined;
      let latest: ReplicaSet | undefined;
      let latestRev = -1;
      let prevRev = -1;
      for (const rs of all) {
        const v = revisionOf(rs);
        if (v === undefined) continue;
        if (cmd.toRevision === 0) {
          if (latestRev < v) {
            prevRev = latestRev;
            target = latest;
            latestRev = v;
            latest = rs;
          } else if (prevRev < v) {
            prevRev = v;
            target = rs;
          }
        } else if (cmd.toRevision === v) {
          target = rs;
          break;
        }
      }
      if (cmd.toRevision > 0 && !target)
        throw new KubectlError(`unable to find specified revision ${cmd.toRevision} in history`);
      if (!target)
        throw new KubectlError(`no rollout history found for deployment "${d.metadata.name}"`);
      const type = typeOf('deployments');
      if (equalIgnoreHash(target.spec.template, d.spec.template)) {
        r.out(
          namePrint(
            type,
            d.metadata.name,
            `skipped rollback (current template already matches revision ${cmd.toRevision})`,
          ),
        );
        continue;
      }
      const template = clone(target.spec.template);
      if (template.metadata?.labels) delete template.metadata.labels['pod-template-hash'];
      const annotations: Record<string, string> = {};
      for (const k of ANNOTATIONS_TO_SKIP)
        if (d.metadata.annotations?.[k] !== undefined) annotations[k] = d.metadata.annotations[k];
      for (const [k, v] of Object.entries(target.metadata.annotations ?? {}))
        if (!ANNOTATIONS_TO_SKIP.has(k)) annotations[k] = v;
      // Simplification: kubectl sends a JSON patch replacing /spec/template and
      // /metadata/annotations; the simulator writes the same result with an update.
      const next = clone(d);
      next.spec.template = template;
      next.metadata.annotations = annotations;
      try {
        r.client.update('deployments', next);
      } catch (e) {
        if (isStatusError(e))
          throw new KubectlError(
            `failed restoring revision ${cmd.toRevision}: ${e.status.message}`,
          );
        throw e;
      }
      r.out(namePrint(type, d.metadata.name, 'rolled back'));
    } catch (e) {
      r.fail(e);
    }
  }
}

function runRolloutRestart(
  r: Run,
  cmd: Extract<KubectlCommand, { verb: 'rollout restart' }>,
): void {
  const ns = r.ns(cmd);
  for (const d of deploymentsOf(r, cmd.targets, ns, 'restarter')) {
    try {
      if (d.spec.paused)
        throw new KubectlError(
          `deployments.apps "${d.metadata.name}" can't restart paused deployment (run rollout resume first)`,
        );
      const patch = {
        spec: {
          template: {
            metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': formatTime(r.now()) } },
          },
        },
      };
      r.client.patch('deployments', d.metadata.namespace, d.metadata.name, patch);
      r.out(namePrint(typeOf('deployments'), d.metadata.name, 'restarted'));
    } catch (e) {
      r.fail(e);
    }
  }
}

// ---- delete ----

function runDelete(r: Run, cmd: Extract<KubectlCommand, { verb: 'delete' }>): void {
  const ns = r.ns(cmd);
  if (cmd.gracePeriod === 0 && cmd.force)
    r.warn(
      'Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.',
    );
  const targets: { type: ResourceType; name: string; namespace: string }[] = [];
  if (cmd.targets.form === 'types' && cmd.targets.names.length === 0) {
    const sel = r.selector(cmd.selector);
    for (const type of cmd.targets.types)
      for (const o of r.list(type, ns, sel, undefined, cmd.fieldSelector))
        targets.push({ type, name: o.metadata.name, namespace: o.metadata.namespace ?? '' });
    if (targets.length === 0) {
      r.out('No resources found\n');
      return;
    }
  } else {
    for (const { type, name } of r.resolveNamed(cmd.targets))
      targets.push({ type, name, namespace: type.namespaced ? ns : '' });
  }
  const opts: DeleteOptions = cmd.gracePeriod >= 0 ? { gracePeriodSeconds: cmd.gracePeriod } : {};
  for (const t of targets) {
    try {
      if (t.type.resource === 'componentstatuses')
        throw new LocalStatusError(
          405,
          'MethodNotAllowed',
          'the server does not allow this method on the requested resource',
        );
      r.client.delete(
        t.type.resource as ResourceName,
        t.type.namespaced ? t.namespace : undefined,
        t.name,
        opts,
      );
      // Mirrors DeleteOptions.PrintObj; kubectl 1.33+ names the namespace of namespaced objects.
      // Simplification: kubectl then waits for the object to disappear (--wait); we do not.
      const op = cmd.gracePeriod === 0 ? 'force deleted' : 'deleted';
      const where = t.type.namespaced ? ` from ${t.namespace} namespace` : '';
      r.out(`${groupKindString(t.type)} "${t.name}" ${op}${where}\n`);
    } catch (e) {
      if (cmd.ignoreNotFound && isNotFound(e)) continue;
      r.fail(e);
    }
  }
}

// ---- cordon / uncordon / drain ----

function nodesFor(r: Run, names: string[], selector: string | undefined): Node[] {
  const t = typeOf('nodes');
  if (selector !== undefined) return r.list<Node>(t, undefined, r.selector(selector));
  return names.map((n) => r.get<Node>(t, '', n));
}

function cordon(r: Run, nodes: Node[], desired: boolean): void {
  const t = typeOf('nodes');
  for (const node of nodes) {
    if (!!node.spec?.unschedulable === desired) {
      r.out(namePrint(t, node.metadata.name, desired ? 'already cordoned' : 'already uncordoned'));
      continue;
    }
    try {
      r.client.patch('nodes', undefined, node.metadata.name, {
        spec: { unschedulable: desired ? true : null },
      });
      r.out(namePrint(t, node.metadata.name, desired ? 'cordoned' : 'uncordoned'));
    } catch (e) {
      r.stderr += `error: unable to ${desired ? 'cordon' : 'uncordon'} node "${node.metadata.name}": ${isStatusError(e) ? e.status.message : (e as Error).message}\n`;
    }
  }
}

interface PodDelete {
  pod: Pod;
  delete: boolean;
  reason: 'Okay' | 'Skip' | 'Warning' | 'Error';
  message?: string;
}

/** podsForDeletion mirrors drain.Helper.GetPodsForDeletion and its filters. */
function podsForDeletion(
  r: Run,
  node: string,
  cmd: Extract<KubectlCommand, { verb: 'drain' }>,
): PodDelete[] {
  const pods = r.list<Pod>(typeOf('pods'), undefined, undefined, node);
  const out: PodDelete[] = [];
  for (const pod of pods) {
    const finished = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
    const ref = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
    let status: Omit<PodDelete, 'pod'> = { delete: true, reason: 'Okay' };
    const filters: (() => Omit<PodDelete, 'pod'>)[] = [
      // daemonSetFilter
      () => {
        if (!ref || ref.kind !== 'DaemonSet' || finished) return { delete: true, reason: 'Okay' };
        try {
          r.get<DaemonSet>(typeOf('daemonsets'), pod.metadata.namespace ?? '', ref.name);
        } catch (e) {
          if (isNotFound(e) && cmd.force)
            return {
              delete: true,
              reason: 'Warning',
              message: isStatusError(e) ? e.status.message : String(e),
            };
          return {
            delete: false,
            reason: 'Error',
            message: isStatusError(e) ? e.status.message : String(e),
          };
        }
        if (!cmd.ignoreDaemonsets)
          return {
            delete: false,
            reason: 'Error',
            message: 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)',
          };
        return { delete: false, reason: 'Warning', message: 'ignoring DaemonSet-managed Pods' };
      },
      // mirrorPodFilter
      () =>
        pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined
          ? { delete: false, reason: 'Skip' }
          : { delete: true, reason: 'Okay' },
      // Simplification: localStorageFilter never fires (no emptyDir volumes are modelled).
      // unreplicatedFilter
      () => {
        if (finished || ref) return { delete: true, reason: 'Okay' };
        if (cmd.force)
          return {
            delete: true,
            reason: 'Warning',
            message: 'deleting Pods that declare no controller',
          };
        return {
          delete: false,
          reason: 'Error',
          message: 'Pods declare no controller (use --force to override)',
        };
      },
    ];
    for (const fn of filters) {
      status = fn();
      if (!status.delete) break;
    }
    out.push({ pod, ...status });
  }
  return out;
}

function groupMessages(
  list: PodDelete[],
  reason: 'Warning' | 'Error',
): { message: string; pods: string[] }[] {
  const groups: { message: string; pods: string[] }[] = [];
  for (const p of list) {
    if (p.reason !== reason) continue;
    const message = p.message || 'unexpected error';
    let g = groups.find((x) => x.message === message);
    if (!g) groups.push((g = { message, pods: [] }));
    g.pods.push(`${p.pod.metadata.namespace}/${p.pod.metadata.name}`);
  }
  return groups;
}

function runDrain(r: Run, cmd: Extract<KubectlCommand, { verb: 'drain' }>): void {
  const nodes = nodesFor(r, cmd.nodes, cmd.selector);
  cordon(r, nodes, true);
  const t = typeOf('nodes');
  const fatal: string[] = [];
  const remaining: string[] = [];
  for (const node of nodes) {
    const name = node.metadata.name;
    const list = podsForDeletion(r, name, cmd);
    const errs = groupMessages(list, 'Error').map(
      (g) => `cannot delete ${g.message}: ${g.pods.join(', ')}`,
    );
    if (errs.length) {
      r.stderr += `error: unable to drain node "${name}" due to error: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}, continuing command...\n`;
      fatal.push(...errs);
      remaining.push(name);
      continue;
    }
    const warnings = groupMessages(list, 'Warning')
      .map((g) => `${g.message}: ${g.pods.join(', ')}`)
      .join('; ');
    if (warnings) r.warn(warnings);
    const toDelete = list.filter((p) => p.delete).map((p) => p.pod);
    const opts: DeleteOptions = cmd.gracePeriod >= 0 ? { gracePeriodSeconds: cmd.gracePeriod } : {};
    // Simplification: kubectl evicts in parallel and prints "evicted" once each Pod is gone;
    // the simulator evicts in order and does not wait for the Pods to terminate.
    for (const pod of toDelete)
      r.out(`evicting pod ${pod.metadata.namespace}/${pod.metadata.name}\n`);
    let failed = false;
    for (const pod of toDelete) {
      try {
        if (r.client.evict)
          r.client.evict({
            apiVersion: 'policy/v1',
            kind: 'Eviction',
            metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace ?? '' },
            deleteOptions: opts,
          });
        else r.client.delete('pods', pod.metadata.namespace, pod.metadata.name, opts);
        r.out(namePrint(typeOf('pods'), pod.metadata.name, 'evicted'));
      } catch (e) {
        if (isNotFound(e)) {
          r.out(namePrint(typeOf('pods'), pod.metadata.name, 'evicted'));
          continue;
        }
        failed = true;
        r.stderr += `error when evicting pods/"${pod.metadata.name}" -n "${pod.metadata.namespace}": ${isStatusError(e) ? e.status.message : (e as Error).message}\n`;
      }
    }
    if (failed) {
      remaining.push(name);
      fatal.push(`error when draining node "${name}"`);
      continue;
    }
    r.out(namePrint(t, name, 'drained'));
  }
  if (remaining.length) {
    r.stderr += `There are pending nodes to be drained:\n${remaining.map((n) => ` ${n}\n`).join('')}`;
    r.stderr += fatal.map((f) => `${f}\n`).join('');
    r.failed = true;
  }
}

// ---- label / taint ----

function runLabel(r: Run, cmd: Extract<KubectlCommand, { verb: 'label' }>): void {
  const ns = r.ns(cmd);
  for (const { type, obj } of objectsFor(
    r,
    cmd.targets,
    ns,
    cmd.selector,
    cmd.all,
    cmd.fieldSelector,
  )) {
    try {
      const current = obj.metadata.labels ?? {};
      if (!cmd.overwrite) {
        for (const [k, v] of Object.entries(cmd.set)) {
          if (k in current && current[k] !== v)
            throw new KubectlError(
              `'${k}' already has a value (${current[k]}), and --overwrite is false`,
            );
        }
      }
      const next = { ...current, ...cmd.set };
      for (const k of cmd.remove) {
        if (!(k in next)) r.out(`label "${k}" not found.\n`);
        delete next[k];
      }
      const before = toCompactJSON(obj);
      const after = toCompactJSON({
        ...obj,
        metadata: { ...obj.metadata, labels: Object.keys(next).length ? next : undefined },
      });
      // updateDataChangeMsg: labeled, unlabeled (shorter without --overwrite), or not labeled.
      let op = 'not labeled';
      if (before !== after)
        op = !cmd.overwrite && after.length < before.length ? 'unlabeled' : 'labeled';
      if (op !== 'not labeled') {
        const patch: Record<string, string | null> = {};
        for (const [k, v] of Object.entries(cmd.set)) if (current[k] !== v) patch[k] = v;
        for (const k of cmd.remove) if (k in current) patch[k] = null;
        r.client.patch(type.resource as ResourceName, obj.metadata.namespace, obj.metadata.name, {
          metadata: { labels: patch },
        });
      }
      r.out(namePrint(type, obj.metadata.name, op));
    } catch (e) {
      r.fail(e);
    }
  }
}

function taintMatches(
  a: { key: string; effect: string },
  b: { key: string; effect: string },
): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** reorganizeTaints mirrors taint.go#reorganizeTaints: new taints first, then kept old ones. */
function reorganizeTaints(
  node: Node,
  overwrite: boolean,
  add: ParsedTaint[],
  remove: ParsedTaint[],
): { op: string; taints: Taint[]; errors: string[] } {
  const newTaints: Taint[] = add.map((t) =>
    t.value !== undefined
      ? { key: t.key, value: t.value, effect: t.effect as Taint['effect'] }
      : { key: t.key, effect: t.effect as Taint['effect'] },
  );
  const old = node.spec?.taints ?? [];
  for (const o of old) if (!newTaints.some((n) => taintMatches(n, o))) newTaints.push(o);
  const added = old.length !== newTaints.length;
  const errors: string[] = [];
  let removed = false;
  let taints = newTaints;
  for (const rm of remove) {
    const before = taints.length;
    taints = taints.filter(
      (t) => !(t.key === rm.key && (rm.effect === '' || t.effect === rm.effect)),
    );
    removed = taints.length !== before;
    if (!removed)
      errors.push(
        `taint "${taintString({ key: rm.key, effect: rm.effect as Taint['effect'] })}" not found`,
      );
  }
  const op = (added && removed) || overwrite ? 'modified' : added ? 'tainted' : 'untainted';
  return { op, taints, errors };
}

function runTaint(r: Run, cmd: Extract<KubectlCommand, { verb: 'taint' }>): void {
  const nodes = objectsFor(r, cmd.targets, '', cmd.selector, cmd.all);
  for (const { type, obj } of nodes) {
    const node = obj as Node;
    try {
      if (!cmd.overwrite) {
        const exists = cmd.add
          .filter((a) => (node.spec?.taints ?? []).some((t) => taintMatches(t, a)))
          .map((a) => a.key);
        if (exists.length)
          throw new KubectlError(
            `node ${node.metadata.name} already has ${exists.join(',')} taint(s) with same effect(s) and --overwrite is false`,
          );
      }
      const { op, taints, errors } = reorganizeTaints(node, cmd.overwrite, cmd.add, cmd.remove);
      if (errors.length)
        throw new KubectlError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
      r.client.patch('nodes', undefined, node.metadata.name, {
        spec: { taints: taints.length ? taints : null },
      });
      r.out(namePrint(type, node.metadata.name, op));
    } catch (e) {
      r.fail(e);
    }
  }
}

// ---- logs and exec ----

/**
 * containerFor mirrors podcmd.FindOrDefaultContainerByName: the named container, else the
 * default (the kubectl.kubernetes.io/default-container annotation, else the first), telling the
 * user which one it took when there are several.
 */
function containerFor(r: Run, pod: Pod, name: string | undefined, notFound: string, quiet = false): Container {
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
  if (name !== undefined) {
    const c = all.find((x) => x.name === name);
    if (!c) throw new KubectlError(notFound);
    return c;
  }
  const annotated = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
  const c = pod.spec.containers.find((x) => x.name === annotated) ?? pod.spec.containers[0];
  if (annotated === undefined && all.length > 1 && !quiet)
    r.stderr += `Defaulted container ${goQuote(c.name)} out of: ${all.map((x) => x.name).join(', ')}\n`;
  return c;
}

/** kubeletUnreachable is kube-apiserver's error when it cannot dial a node's kubelet. */
function kubeletError(r: Run, pod: Pod, path: string): void {
  const node = pod.spec.nodeName!;
  const k = r.ctx.kubelet?.(node);
  if (!k?.dialError) return;
  throw new LocalStatusError(
    500,
    '',
    `Get "https://${k.ip}:10250/${path}": dial tcp ${k.ip}:10250: ${k.dialError}`,
  );
}

/**
 * runLogs mirrors `kubectl logs POD [-c C]`: kube-apiserver's pods/log (registry/core/pod/
 * strategy.go#LogLocation) proxied to the kubelet, which refuses a container that has not started
 * (kubelet_pods.go#validateContainerLogStatus).
 * Simplification: the simulated containers write no log lines, so a started container's log is
 * empty; -f (follow) is not supported.
 */
function runLogs(r: Run, cmd: Extract<KubectlCommand, { verb: 'logs' }>): void {
  if (cmd.follow) throw new KubectlError('logs -f (follow) is not supported in this simulator');
  const ns = r.ns(cmd);
  const pod = r.get<Pod>(typeOf('pods'), ns, cmd.pod);
  const containers = cmd.allContainers
    ? [...(pod.spec.initContainers ?? []), ...pod.spec.containers]
    : [containerFor(r, pod, cmd.container, `container ${cmd.container} is not valid for pod ${pod.metadata.name}`)];
  // A Pod with no node has no log location: kube-apiserver answers with an empty stream.
  if (!pod.spec.nodeName) return;
  for (const c of containers) {
    kubeletError(r, pod, `containerLogs/${ns}/${pod.metadata.name}/${c.name}`);
    const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
    const st = statuses.find((x) => x.name === c.name);
    const quoted = `container ${goQuote(c.name)} in pod ${goQuote(pod.metadata.name)}`;
    if (!st) throw new LocalStatusError(400, 'BadRequest', `${quoted} is not available`);
    if (cmd.previous) {
      if (!st.lastState?.terminated)
        throw new LocalStatusError(400, 'BadRequest', `previous terminated ${quoted} not found`);
      continue;
    }
    const waiting = st.state?.waiting;
    if (waiting && !st.lastState?.terminated) {
      const why =
        waiting.reason === 'ErrImagePull'
          ? "image can't be pulled"
          : waiting.reason === 'ImagePullBackOff'
            ? 'trying and failing to pull image'
            : (waiting.reason ?? '');
      throw new LocalStatusError(400, 'BadRequest', `${quoted} is waiting to start: ${why}`);
    }
  }
}

/** EXEC_COMMANDS are what `kubectl exec` can run in a simulated container. */
const EXEC_COMMANDS = ['hostname', 'cat /etc/hostname', 'cat /etc/resolv.conf', 'echo ...', 'true', 'false'];

/**
 * runExec mirrors `kubectl exec POD [-c C] -- CMD` (exec.go): a completed Pod is refused by
 * kubectl, a container that is not running by the kubelet ("unable to upgrade connection").
 * Simplification: a container has no processes or files of its own; only EXEC_COMMANDS run, each
 * answering as in a real container (hostname is the Pod's name; resolv.conf is the one the kubelet
 * writes for dnsPolicy ClusterFirst).
 */
function runExec(r: Run, cmd: Extract<KubectlCommand, { verb: 'exec' }>): void {
  const ns = r.ns(cmd);
  const pod = r.get<Pod>(typeOf('pods'), ns, cmd.pod);
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed')
    throw new KubectlError(`cannot exec into a container in a completed pod; current phase is ${phase}`);
  const c = containerFor(r, pod, cmd.container, `container ${cmd.container} not found in pod ${pod.metadata.name}`, cmd.quiet);
  if (!pod.spec.nodeName) throw new KubectlError('unable to upgrade connection: pod does not exist');
  kubeletError(r, pod, `exec/${ns}/${pod.metadata.name}/${c.name}`);
  const st = pod.status?.containerStatuses?.find((x) => x.name === c.name);
  if (!st?.state?.running) throw new KubectlError(`unable to upgrade connection: container not found (${goQuote(c.name)})`);
  const [prog, ...args] = cmd.command;
  const line = cmd.command.join(' ');
  if (prog === 'hostname' && args.length === 0) return r.out(`${pod.metadata.name}\n`);
  if (line === 'cat /etc/hostname') return r.out(`${pod.metadata.name}\n`);
  if (line === 'cat /etc/resolv.conf') {
    let dns: string;
    try {
      dns = r.client.get<Service>('services', 'kube-system', 'kube-dns').spec?.clusterIP ?? '';
    } catch {
      dns = '';
    }
    return r.out(
      `search ${ns}.svc.cluster.local svc.cluster.local cluster.local\nnameserver ${dns}\noptions ndots:5\n`,
    );
  }
  if (prog === 'echo') return r.out(`${args.join(' ')}\n`);
  if (prog === 'true' && args.length === 0) return;
  if (prog === 'false' && args.length === 0) {
    r.stderr += 'command terminated with exit code 1\n';
    r.failed = true;
    return;
  }
  throw new KubectlError(
    `kubectl exec runs only ${EXEC_COMMANDS.join(', ')} in this simulator (a simulated container has no processes or files of its own)`,
  );
}

// ---- entry point ----

function execute(r: Run, cmd: KubectlCommand, stdin: string | undefined): void {
  switch (cmd.verb) {
    case 'get':
      return runGet(r, cmd);
    case 'describe':
      return runDescribe(r, cmd);
    case 'apply':
    case 'create':
      return runApply(r, cmd, stdin);
    case 'create deployment':
      return runCreateDeployment(r, cmd);
    case 'scale':
      return runScale(r, cmd);
    case 'set image':
      return runSetImage(r, cmd);
    case 'rollout status':
      return runRolloutStatus(r, cmd);
    case 'rollout history':
      return runRolloutHistory(r, cmd);
    case 'rollout undo':
      return runRolloutUndo(r, cmd);
    case 'rollout restart':
      return runRolloutRestart(r, cmd);
    case 'delete':
      return runDelete(r, cmd);
    case 'cordon':
    case 'uncordon':
      return cordon(r, nodesFor(r, cmd.nodes, cmd.selector), cmd.verb === 'cordon');
    case 'drain':
      return runDrain(r, cmd);
    case 'label':
      return runLabel(r, cmd);
    case 'taint':
      return runTaint(r, cmd);
    case 'logs':
      return runLogs(r, cmd);
    case 'exec':
      return runExec(r, cmd);
    case 'version':
      r.out(`Client Version: ${CLIENT_VERSION}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`);
      if (!cmd.client) r.out(`Server Version: ${r.ctx.serverVersion ?? CLIENT_VERSION}\n`);
      return;
  }
}

/**
 * runKubectl runs one kubectl command line ("kubectl" prefix optional) and returns what the
 * terminal would show. stdin is the manifest for `apply -f -` / `create -f -`. Never throws for
 * command or server errors: they become stderr and exit code 1, as kubectl prints them.
 */
export function runKubectl(
  ctx: KubectlContext,
  commandLine: string,
  stdin?: string,
): KubectlResult {
  const parsed = parseCommandLine(commandLine);
  if (!parsed.ok)
    return { stdout: parsed.stdout ?? '', stderr: parsed.stderr, exitCode: parsed.exitCode };
  const r = new Run(ctx);
  try {
    execute(r, parsed.command, stdin);
  } catch (e) {
    if (
      e instanceof Error &&
      !(e instanceof KubectlError) &&
      !(e instanceof RawError) &&
      !isStatusError(e)
    )
      throw e;
    r.fail(e);
  }
  return r.result();
}

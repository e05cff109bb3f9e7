// Run is one kubectl invocation: its context (the API client, the clock, the kubeconfig
// namespace), its output streams, and the calls every command makes through cli-runtime's
// resource helpers (list with selectors, get by name) and kubectl's shared helpers
// (podcmd.FindOrDefaultContainerByName, util/deployment.GetAllReplicaSets).

import { parseSelector, type Selector } from '../api/labels.ts';
import type {
  AnyObject,
  Container,
  Eviction,
  LabelSelector,
  Pod,
  ResourceName,
  Scale,
} from '../api/types.ts';
import type { PatchType } from '../apiserver/patch.ts';
import type { ExecOutcome } from '../runtime/container-exec.ts';
import type { DeleteOptions, ListOptions, ListResult } from '../apiserver/apiserver.ts';
import { apiResource, groupKindString, type APIResource } from '../apiserver/discovery.ts';
import { goQuote } from '../apiserver/errors.ts';
import { listFieldSelector, type FieldSelector } from '../apiserver/fields.ts';
import type { ObjectLister } from '../registry/rules.ts';
import type { Targets } from './cmdutil.ts';
import {
  enhanceListError,
  errorMessage,
  KubectlError,
  LocalStatusError,
  type ListSelector,
} from './errors.ts';
import type { ComponentStatus } from '../registry/core/componentstatuses/printer.ts';

/**
 * KubectlClient is what kubectl needs from the API client. sim/client/client.ts's Client
 * satisfies it; every method throws a StatusError ({ status: { code, reason, message } }).
 */
export interface KubectlClient {
  create<T extends AnyObject>(resource: ResourceName, obj: T): T;
  get<T extends AnyObject>(resource: ResourceName, namespace: string | undefined, name: string): T;
  list<T extends AnyObject>(resource: ResourceName, opts?: ListOptions): ListResult<T>;
  update<T extends AnyObject>(resource: ResourceName, obj: T): T;
  /**
   * patch sends a patch of patchType (kubectl always names it: the trace records it); subresource
   * is undefined for the object itself.
   */
  patch<T extends AnyObject>(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    subresource: undefined,
    patchType: PatchType,
  ): T;
  /** getScale GETs the scale subresource (client-go's scale client). */
  getScale(resource: ResourceName, namespace: string, name: string): Scale;
  /** updateScale PUTs the scale subresource. */
  updateScale(resource: ResourceName, scale: Scale): Scale;
  /** patchScale PATCHes the scale subresource. */
  patchScale(
    resource: ResourceName,
    namespace: string,
    name: string,
    patch: unknown,
    patchType: PatchType,
  ): Scale;
  delete(
    resource: ResourceName,
    namespace: string | undefined,
    name: string,
    opts?: DeleteOptions,
  ): AnyObject;
  /** evict POSTs a policy/v1 Eviction to pods/eviction (client-go's Evictions(ns).Evict). */
  evict(eviction: Eviction): void;
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
  /**
   * exec runs a command in a Pod's container through its node's kubelet (pods/exec); absent (a
   * bare kube-apiserver in unit tests), the command runs with no Services in its environment.
   */
  exec?(pod: Pod, container: string, argv: readonly string[]): ExecOutcome;
  /**
   * sleep lets ms of virtual time pass while kubectl waits (drain's retries and polls); the
   * cluster runs meanwhile. Absent (a bare kube-apiserver in unit tests), kubectl does not wait.
   */
  sleep?(ms: number): void;
}

/** KubectlResult is what the terminal shows: both streams and the exit code. */
export interface KubectlResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /**
   * terminal is both streams in the order kubectl wrote them, as a terminal shows them (drain
   * writes a warning to stderr between lines of stdout); absent when all of stdout came first.
   */
  terminal?: string;
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

// ---- helpers ----

/** typeOf returns the discovery row of a served resource. */
export function typeOf(resource: string): APIResource {
  return apiResource(resource)!;
}

/** namePrint mirrors printers.NamePrinter: "deployment.apps/web created". */
export function namePrint(t: APIResource, name: string, operation = ''): string {
  return `${groupKindString(t)}/${name}${operation ? ` ${operation}` : ''}\n`;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

export function deepEqual(a: unknown, b: unknown): boolean {
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

export function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export class Run {
  readonly ctx: KubectlContext;
  failed = false;
  /** exitCode is kubectl's exit code when it failed and it is not 1 (exec's remote status). */
  exitCode: number | undefined;
  private out_ = '';
  private err_ = '';
  /** written is both streams in write order (commands only ever append to either). */
  private written = '';

  get stdout(): string {
    return this.out_;
  }
  set stdout(s: string) {
    this.written += s.slice(this.out_.length);
    this.out_ = s;
  }
  get stderr(): string {
    return this.err_;
  }
  set stderr(s: string) {
    this.written += s.slice(this.err_.length);
    this.err_ = s;
  }

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
    t: APIResource,
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

  get<T extends AnyObject>(t: APIResource, namespace: string, name: string): T {
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
    const list = this.ctx.componentStatuses
      ? this.ctx.componentStatuses()
      : healthyComponentStatuses();
    // The deprecation warning arrives in the response's Warning header, so only a request that
    // kube-apiserver answered prints it (client-go rest.WarningHandler).
    if (!this.warnedComponentStatus) this.warn('v1 ComponentStatus is deprecated in v1.19+');
    this.warnedComponentStatus = true;
    return list;
  }

  private warnedComponentStatus = false;

  /** resolveNamed lists the (type, name) pairs of named targets, in the order the builder visits them. */
  resolveNamed(targets: Targets): { type: APIResource; name: string }[] {
    if (targets.form === 'pairs') return targets.pairs;
    if (targets.form === 'types') {
      const out: { type: APIResource; name: string }[] = [];
      for (const type of targets.types) for (const name of targets.names) out.push({ type, name });
      return out;
    }
    return [];
  }

  /** lister reads objects by resource name, for describers and kubectl's util packages. */
  lister(): ObjectLister {
    return new RunLister(this);
  }

  watch: KubectlWatch | undefined;

  result(): KubectlResult {
    const res: KubectlResult = {
      stdout: this.stdout,
      stderr: this.stderr,
      exitCode: this.failed ? (this.exitCode ?? 1) : 0,
    };
    if (this.written !== this.stdout + this.stderr) res.terminal = this.written;
    if (this.watch && !this.failed) res.watch = this.watch;
    return res;
  }
}

// RunLister is a Run's ObjectLister: label selectors as kube-apiserver parses them.
class RunLister implements ObjectLister {
  private readonly r: Run;
  constructor(r: Run) {
    this.r = r;
  }
  list<T extends AnyObject>(
    resource: string,
    namespace: string | undefined,
    selector?: LabelSelector,
    nodeName?: string,
  ): T[] {
    const sel = selector ? labelSelectorOf(selector) : undefined;
    return this.r.list<T>(typeOf(resource), namespace, sel, nodeName);
  }
  get<T extends AnyObject>(resource: string, namespace: string, name: string): T {
    return this.r.get<T>(typeOf(resource), namespace, name);
  }
}

// ---- shared by several commands ----

export function labelSelectorOf(ls: LabelSelector | undefined): Selector {
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
 * containerFor mirrors podcmd.FindOrDefaultContainerByName: the named container, else the
 * default (the kubectl.kubernetes.io/default-container annotation, else the first), telling the
 * user which one it took when there are several.
 */
export function containerFor(
  r: Run,
  pod: Pod,
  name: string | undefined,
  notFound: string,
  quiet = false,
): Container {
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
export function kubeletError(r: Run, pod: Pod, path: string): void {
  const node = pod.spec.nodeName!;
  const k = r.ctx.kubelet?.(node);
  if (!k?.dialError) return;
  throw new LocalStatusError(
    500,
    '',
    `Get "https://${k.ip}:10250/${path}": dial tcp ${k.ip}:10250: ${k.dialError}`,
  );
}

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go: client-side `kubectl apply -f`
// (create when absent, else a patch computed from the last-applied-configuration annotation).
// The patch is a strategic merge patch (patcher.go: StrategicMergePatchType for built-in kinds).
// Simplification: kubectl computes it with CreateThreeWayMergePatch(original, modified, current);
// the simulator merges the three itself (threeWayMerge, list merge keys for the common lists) and
// sends the two-way strategic merge patch from current to that result, which kube-apiserver
// turns into the same object.

import type { AnyObject, ResourceName } from '../../api/types.ts';
import type { APIResource } from '../../apiserver/discovery.ts';
import { createTwoWayMergePatch, StrategicMergePatchType } from '../../apiserver/patch.ts';
import { MANIFEST_SOURCE, visitManifests, type ManifestInfo } from '../builder.ts';
import {
  CmdError,
  FILENAME,
  filenames,
  OUTPUT,
  requireStdinOnly,
  str,
  usageError,
  type Command,
  type Common,
  type FlagParse,
} from '../cmdutil.ts';
import { LAST_APPLIED } from '../describe.ts';
import {
  isNotFound,
  isStatusError,
  KubectlError,
  LocalStatusError,
  withSource,
} from '../errors.ts';
import { clone, isMap, namePrint, type Run } from '../run.ts';
import { toCompactJSON } from '../yaml-json.ts';

export interface ApplyOptions {
  verb: 'apply';
  filenames: string[];
  output?: string;
}

export const apply: Command<ApplyOptions> = {
  path: 'apply',
  short: 'Apply a configuration to a resource by file name or stdin',
  flags: [FILENAME, OUTPUT],
  complete(fp) {
    return { verb: 'apply', ...manifestFlags('apply', fp) };
  },
  run: runApply,
};

/**
 * manifestFlags reads -f for apply and create (Complete and the builder's FilenameParam): one
 * or more files are required (stdin only, in the simulator) and no arguments are taken.
 */
export function manifestFlags(
  path: 'apply' | 'create',
  fp: FlagParse,
): { filenames: string[]; output?: string } {
  const fns = filenames(fp);
  if (fns.length === 0) {
    if (path === 'apply') throw new CmdError('must specify one of -f and -k');
    throw new CmdError('Error: must specify one of -f and -k', true);
  }
  requireStdinOnly(fp);
  if (fp.args.length)
    throw new CmdError(usageError(path, `Unexpected args: [${fp.args.join(' ')}]`));
  return { filenames: fns, output: str(fp.flags.output) };
}

function runApply(r: Run, cmd: ApplyOptions & Common, stdin: string | undefined): void {
  visitManifests(r, cmd.verb, cmd.namespace, stdin, (info) => {
    const res = info.type.resource as ResourceName;
    const ns = info.type.namespaced ? info.namespace : undefined;
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
          `error when retrieving current configuration of:\nResource: "${g.resource}", GroupVersionKind: "${g.gvk}"\nName: "${info.name}", Namespace: "${info.namespace}"\nfrom server for: "${MANIFEST_SOURCE}": ${msg}`,
        );
      }
    }
    if (!current) {
      try {
        r.client.create(res, annotated as unknown as AnyObject);
      } catch (e) {
        throw withSource('creating', MANIFEST_SOURCE, e);
      }
      r.out(namePrint(info.type, info.name, 'created'));
      return;
    }
    // The patched object is decoded strictly on the server; the manifest carries every field
    // the patch can add, so decoding it finds the same errors before a merge is attempted.
    try {
      r.client.checkPatchSource(res, ns, info.name, annotated);
    } catch (e) {
      throw withSource('patching', MANIFEST_SOURCE, e);
    }
    const originalText = current.metadata.annotations?.[LAST_APPLIED];
    let original: unknown;
    try {
      original = originalText ? JSON.parse(originalText) : undefined;
    } catch {
      original = undefined;
    }
    const merged = threeWayMerge(current, original, annotated);
    const patch = createTwoWayMergePatch(current, merged);
    if (Object.keys(patch).length === 0) {
      r.out(namePrint(info.type, info.name, 'unchanged'));
      return;
    }
    try {
      r.client.patch(res, ns, info.name, patch, undefined, StrategicMergePatchType);
    } catch (e) {
      throw withSource('patching', MANIFEST_SOURCE, e);
    }
    r.out(namePrint(info.type, info.name, 'configured'));
  });
}

function gvkString(t: APIResource): { resource: string; gvk: string } {
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

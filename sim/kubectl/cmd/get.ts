// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/get/get.go: `kubectl get` (lists or gets, the
// human-readable tables, -o yaml|json|name, --sort-by, -w) (see "Simplification:" notes).

import { parseSelector, type Selector } from '../../api/labels.ts';
import type { AnyObject } from '../../api/types.ts';
import { groupKindString, type APIResource } from '../../apiserver/discovery.ts';
import {
  ALL_NS,
  bool,
  CmdError,
  f,
  FIELD_SELECTOR,
  fieldSelectorOf,
  FILENAME,
  OUTPUT,
  outputFormat,
  parseTargets,
  requireStdinOnly,
  SELECTOR,
  str,
  usageError,
  type Command,
  type Common,
  type OutputFormat,
  type Targets,
} from '../cmdutil.ts';
import { isNotFound, KubectlError, RawError } from '../errors.ts';
import { buildTable, printTables, type PrintOptions, type Table } from '../printers.ts';
import { namePrint, type KubectlWatch, type Run, type WatchChange } from '../run.ts';
import { sortObjects, sortTableRows, UnsortableError } from '../sorter.ts';
import { toJSON, toYAML } from '../yaml-json.ts';

export interface GetOptions {
  verb: 'get';
  targets: Targets;
  output: OutputFormat;
  allNamespaces: boolean;
  selector?: string;
  /** fieldSelector is --field-selector, trimmed; absent when empty (FieldSelectorParam). */
  fieldSelector?: string;
  /** sortBy is --sort-by as typed; absent when empty. */
  sortBy?: string;
  showLabels: boolean;
  noHeaders: boolean;
  ignoreNotFound: boolean;
  /** watch is -w/--watch: after the list, print a row for each change (see watchRows). */
  watch: boolean;
}

export const get: Command<GetOptions> = {
  path: 'get',
  short: 'Display one or many resources',
  flags: [
    OUTPUT,
    SELECTOR,
    FIELD_SELECTOR,
    f('sort-by', 'string'),
    ALL_NS,
    f('show-labels', 'bool'),
    f('watch', 'bool', 'w'),
    f('no-headers', 'bool'),
    f('ignore-not-found', 'bool'),
    FILENAME,
  ],
  complete(fp) {
    const args = fp.args;
    requireStdinOnly(fp);
    const output = outputFormat(str(fp.flags.output));
    // Simplification: -w streams table rows only (kubectl also watches in yaml, json, name).
    if (fp.flags.watch && output !== 'table' && output !== 'wide')
      throw new CmdError(
        `watch (-w) with -o ${str(fp.flags.output)} is not supported in this simulator`,
      );
    if (fp.flags['show-labels'] && output !== 'table' && output !== 'wide')
      throw new CmdError(
        `--show-labels option cannot be used with ${str(fp.flags.output)} printer`,
      );
    if (args.length === 0)
      throw new CmdError(
        `You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: ${usageError('get', 'Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).')}`,
        true,
      );
    return {
      verb: 'get',
      targets: parseTargets(args),
      output,
      allNamespaces: bool(fp.flags['all-namespaces']),
      selector: str(fp.flags.selector),
      fieldSelector: fieldSelectorOf(fp.flags['field-selector']),
      sortBy: str(fp.flags['sort-by']) || undefined,
      showLabels: bool(fp.flags['show-labels']),
      noHeaders: bool(fp.flags['no-headers']),
      ignoreNotFound: bool(fp.flags['ignore-not-found']),
      watch: bool(fp.flags.watch),
    };
  },
  run: runGet,
};

interface Info {
  type: APIResource;
  /** objects are the items (a list request) or the single object (a get by name). */
  objects: AnyObject[];
  byName: boolean;
}

function runGet(r: Run, cmd: GetOptions & Common): void {
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

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go (see "Simplification:" notes):
// no --cascade (background propagation only, as the garbage collector models), no waiting.

import type { ResourceName } from '../../api/types.ts';
import type { DeleteOptions } from '../../apiserver/apiserver.ts';
import { groupKindString, type APIResource } from '../../apiserver/discovery.ts';
import {
  bool,
  CmdError,
  f,
  FIELD_SELECTOR,
  fieldSelectorOf,
  FILENAME,
  filenames,
  NO_RESOURCE,
  num,
  parseTargets,
  requireStdinOnly,
  SELECTOR,
  str,
  type Command,
  type Common,
  type Targets,
} from '../cmdutil.ts';
import { isNotFound, LocalStatusError } from '../errors.ts';
import type { Run } from '../run.ts';

export interface DeleteCmdOptions {
  verb: 'delete';
  targets: Targets;
  gracePeriod: number;
  force: boolean;
  now: boolean;
  selector?: string;
  fieldSelector?: string;
  all: boolean;
  ignoreNotFound: boolean;
}

export const deleteCmd: Command<DeleteCmdOptions> = {
  path: 'delete',
  short:
    'Delete resources by file names, stdin, resources and names, or by resources and label selector',
  flags: [
    f('grace-period', 'int'),
    f('force', 'bool'),
    f('now', 'bool'),
    SELECTOR,
    FIELD_SELECTOR,
    f('all', 'bool'),
    f('ignore-not-found', 'bool'),
    f('wait', 'bool'),
    FILENAME,
  ],
  complete(fp) {
    const args = fp.args;
    if (args.length === 0 && filenames(fp).length === 0) throw new CmdError(NO_RESOURCE);
    requireStdinOnly(fp);
    const targets = parseTargets(args, true);
    const all = bool(fp.flags.all);
    const selector = str(fp.flags.selector);
    const fieldSelector = fieldSelectorOf(fp.flags['field-selector']);
    // Complete's builder refuses --all with a selector (SelectAllParam) before
    // DeleteOptions.Validate could.
    if (all && (selector || fieldSelector))
      throw new CmdError("setting 'all' parameter but found a non empty selector. ");
    if (
      targets.form === 'types' &&
      targets.names.length === 0 &&
      !all &&
      selector === undefined &&
      fieldSelector === undefined
    )
      throw new CmdError('resource(s) were provided, but no name was specified');
    let gracePeriod = num(fp.flags['grace-period'], -1);
    const force = bool(fp.flags.force);
    const now = bool(fp.flags.now);
    if (now) {
      if (gracePeriod !== -1)
        throw new CmdError('--now and --grace-period cannot be specified together');
      gracePeriod = 1;
    }
    if (gracePeriod === 0 && !force) gracePeriod = 1;
    if (force && gracePeriod < 0) gracePeriod = 0;
    return {
      verb: 'delete',
      targets,
      gracePeriod,
      force,
      now,
      selector,
      fieldSelector,
      all,
      // Complete: with --all, -l or --field-selector, NotFound is ignored unless the flag is set.
      ignoreNotFound: fp.set.has('ignore-not-found')
        ? bool(fp.flags['ignore-not-found'])
        : all || !!selector || fieldSelector !== undefined,
    };
  },
  run: runDelete,
};

function runDelete(r: Run, cmd: DeleteCmdOptions & Common): void {
  const ns = r.ns(cmd);
  if (cmd.gracePeriod === 0 && cmd.force)
    r.warn(
      'Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.',
    );
  const targets: { type: APIResource; name: string; namespace: string }[] = [];
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

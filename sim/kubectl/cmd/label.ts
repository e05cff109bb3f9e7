// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/label/label.go: `kubectl label` patches
// metadata.labels.

import { MergePatchType } from '../../apiserver/patch.ts';
import type { ResourceName } from '../../api/types.ts';
import { objectsFor } from '../builder.ts';
import {
  bool,
  CmdError,
  f,
  FIELD_SELECTOR,
  fieldSelectorOf,
  parseTargets,
  SELECTOR,
  splitPairs,
  str,
  type Command,
  type Common,
  type Targets,
} from '../cmdutil.ts';
import { KubectlError } from '../errors.ts';
import { namePrint, type Run } from '../run.ts';
import { toCompactJSON } from '../yaml-json.ts';

export interface LabelOptions {
  verb: 'label';
  targets: Targets;
  set: Record<string, string>;
  remove: string[];
  overwrite: boolean;
  selector?: string;
  fieldSelector?: string;
  all: boolean;
}

export const label: Command<LabelOptions> = {
  path: 'label',
  short: 'Update the labels on a resource',
  flags: [f('overwrite', 'bool'), SELECTOR, FIELD_SELECTOR, f('all', 'bool')],
  complete(fp) {
    const args = fp.args;
    const { resources, pairs } = splitPairs(
      args,
      'label',
      (s) => s.includes('=') || s.endsWith('-'),
    );
    const all = bool(fp.flags.all);
    const selector = str(fp.flags.selector);
    const fieldSelector = fieldSelectorOf(fp.flags['field-selector']);
    // LabelOptions.Validate.
    if (all && selector) throw new CmdError('cannot set --all and --selector at the same time');
    if (all && fieldSelector)
      throw new CmdError('cannot set --all and --field-selector at the same time');
    if (resources.length < 1)
      throw new CmdError(
        'one or more resources must be specified as <resource> <name> or <resource>/<name>',
      );
    const set: Record<string, string> = {};
    const remove: string[] = [];
    for (const p of pairs) {
      if (p.includes('=')) {
        const parts = p.split('=');
        if (parts.length !== 2 || parts[0] === '') throw new CmdError(`invalid label spec: ${p}`);
        set[parts[0]] = parts[1];
      } else remove.push(p.slice(0, -1));
    }
    if (Object.keys(set).length === 0 && remove.length === 0)
      throw new CmdError('at least one label update is required');
    return {
      verb: 'label',
      targets: parseTargets(resources, false),
      set,
      remove,
      overwrite: bool(fp.flags.overwrite),
      selector,
      fieldSelector,
      all,
    };
  },
  run: runLabel,
};

function runLabel(r: Run, cmd: LabelOptions & Common): void {
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
        // label.go: jsonpatch.CreateMergePatch, sent as a JSON merge patch.
        r.client.patch(
          type.resource as ResourceName,
          obj.metadata.namespace,
          obj.metadata.name,
          { metadata: { labels: patch } },
          undefined,
          MergePatchType,
        );
      }
      r.out(namePrint(type, obj.metadata.name, op));
    } catch (e) {
      r.fail(e);
    }
  }
}

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/taint/taint.go and pkg/util/taints: `kubectl
// taint nodes NAME KEY[=VALUE]:EFFECT ...` patches spec.taints.

import { StrategicMergePatchType } from '../../apiserver/patch.ts';
import type { Node, Taint } from '../../api/types.ts';
import { objectsFor } from '../builder.ts';
import {
  bool,
  CmdError,
  f,
  parseTargets,
  SELECTOR,
  str,
  usageError,
  type Command,
  type Common,
  type Targets,
} from '../cmdutil.ts';
import { taintString } from '../describe.ts';
import { KubectlError } from '../errors.ts';
import { namePrint, type Run } from '../run.ts';

/** ParsedTaint is a taint spec from the command line (effect may be empty for "key-"). */
export interface ParsedTaint {
  key: string;
  value?: string;
  effect: '' | 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface TaintOptions {
  verb: 'taint';
  targets: Targets;
  add: ParsedTaint[];
  remove: ParsedTaint[];
  overwrite: boolean;
  selector?: string;
  all: boolean;
}

export const taint: Command<TaintOptions> = {
  path: 'taint',
  short: 'Update the taints on one or more nodes',
  flags: [f('overwrite', 'bool'), SELECTOR, f('all', 'bool')],
  complete(fp) {
    const args = fp.args;
    const resources: string[] = [];
    const taintArgs: string[] = [];
    let met = false;
    for (const s of args) {
      const isTaint = s.includes('=') || s.includes(':') || s.endsWith('-');
      if (isTaint) {
        met = true;
        taintArgs.push(s);
      } else if (!met) resources.push(s);
      else throw new CmdError(`all resources must be specified before taint changes: ${s}`);
    }
    if (resources.length < 1)
      throw new CmdError('one or more resources must be specified as <resource> <name>');
    if (taintArgs.length < 1) throw new CmdError('at least one taint update is required');
    const add: ParsedTaint[] = [];
    const remove: ParsedTaint[] = [];
    // Complete returns parseTaints' errors through cmdutil.UsageErrorf.
    try {
      for (const spec of taintArgs) {
        if (spec.endsWith('-')) {
          const t = parseTaintSpec(spec.slice(0, -1));
          remove.push({ key: t.key, effect: t.effect });
        } else {
          const t = parseTaintSpec(spec);
          if (!t.effect) throw new CmdError(`invalid taint spec: ${spec}`);
          if (add.some((x) => x.key === t.key && x.effect === t.effect))
            throw new CmdError(
              `duplicated taints with the same key and effect: {${t.key} ${t.value ?? ''} ${t.effect} <nil>}`,
            );
          add.push(t);
        }
      }
    } catch (e) {
      throw new CmdError(usageError('taint', (e as Error).message));
    }
    const targets = parseTargets(resources, false);
    const types =
      targets.form === 'types'
        ? targets.types
        : targets.form === 'pairs'
          ? targets.pairs.map((p) => p.type)
          : [];
    for (const t of types)
      if (t.resource !== 'nodes')
        throw new CmdError(`invalid resource type ${t.resource}, only node types are supported`);
    return {
      verb: 'taint',
      targets,
      add,
      remove,
      overwrite: bool(fp.flags.overwrite),
      selector: str(fp.flags.selector),
      all: bool(fp.flags.all),
    };
  },
  run: runTaint,
};

/** parseTaintSpec mirrors pkg/util/taints#parseTaint. */
export function parseTaintSpec(st: string): ParsedTaint {
  const parts = st.split(':');
  let key: string;
  let value: string | undefined;
  let effect: ParsedTaint['effect'] = '';
  if (parts.length === 1) key = parts[0];
  else if (parts.length === 2) {
    const e = parts[1];
    if (e !== 'NoSchedule' && e !== 'PreferNoSchedule' && e !== 'NoExecute')
      throw new CmdError(`invalid taint effect: ${e}, unsupported taint effect`);
    effect = e;
    const kv = parts[0].split('=');
    if (kv.length > 2) throw new CmdError(`invalid taint spec: ${st}`);
    key = kv[0];
    if (kv.length === 2) value = kv[1];
  } else throw new CmdError(`invalid taint spec: ${st}`);
  if (!isQualifiedName(key))
    throw new CmdError(
      `invalid taint spec: ${st}, name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  return value === undefined ? { key, effect } : { key, value, effect };
}

function isQualifiedName(s: string): boolean {
  const parts = s.split('/');
  const name = parts[parts.length - 1];
  if (parts.length > 2) return false;
  return /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/.test(name) && name.length <= 63;
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

function runTaint(r: Run, cmd: TaintOptions & Common): void {
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
      // taint.go: CreateTwoWayMergePatch, sent as a strategic merge patch (taints have no
      // merge key, so the list is replaced whole).
      r.client.patch(
        'nodes',
        undefined,
        node.metadata.name,
        { spec: { taints: taints.length ? taints : null } },
        undefined,
        StrategicMergePatchType,
      );
      r.out(namePrint(type, node.metadata.name, op));
    } catch (e) {
      r.fail(e);
    }
  }
}

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go and pkg/drain (cordon.go, drain.go,
// filters.go): `kubectl cordon`, `uncordon` and `drain` (see "Simplification:" notes).

import type { Node } from '../../api/types.ts';
import { goQuote } from '../../apiserver/errors.ts';
import { StrategicMergePatchType } from '../../apiserver/patch.ts';
import { parseDuration } from '../../engine/clock.ts';
import {
  aggregate,
  drainNode,
  type DrainIO,
  type DrainOptions as HelperOptions,
} from '../drain.ts';
import {
  bool,
  CmdError,
  f,
  num,
  SELECTOR,
  str,
  usageError,
  type Command,
  type Common,
  type FlagParse,
} from '../cmdutil.ts';
import { isStatusError } from '../errors.ts';
import { namePrint, typeOf, type Run } from '../run.ts';

export interface CordonOptions {
  verb: 'cordon' | 'uncordon';
  nodes: string[];
  selector?: string;
}

export interface DrainOptions {
  verb: 'drain';
  nodes: string[];
  ignoreDaemonsets: boolean;
  deleteEmptyDirData: boolean;
  force: boolean;
  gracePeriod: number;
  /** timeoutMs is --timeout: 0 (the default) waits without end. */
  timeoutMs: number;
  /** disableEviction is --disable-eviction: delete the Pods instead of evicting them. */
  disableEviction: boolean;
  selector?: string;
}

// timeoutFlag parses --timeout as pflag's DurationVar does (time.ParseDuration).
function timeoutFlag(v: string | undefined): number {
  if (v === undefined) return 0;
  const ms = parseDuration(v);
  if (ms === undefined)
    throw new CmdError(
      `invalid argument "${v}" for "--timeout" flag: time: invalid duration ${goQuote(v)}`,
    );
  return ms;
}

export const cordonCmd: Command<CordonOptions> = {
  path: 'cordon',
  short: 'Mark node as unschedulable',
  flags: [SELECTOR],
  complete(fp) {
    return { verb: 'cordon', ...nodeArgs('cordon', fp) };
  },
  run: runCordon,
};

export const uncordonCmd: Command<CordonOptions> = {
  path: 'uncordon',
  short: 'Mark node as schedulable',
  flags: [SELECTOR],
  complete(fp) {
    return { verb: 'uncordon', ...nodeArgs('uncordon', fp) };
  },
  run: runCordon,
};

export const drain: Command<DrainOptions> = {
  path: 'drain',
  short: 'Drain node in preparation for maintenance',
  flags: [
    f('ignore-daemonsets', 'bool'),
    f('delete-emptydir-data', 'bool'),
    f('force', 'bool'),
    f('grace-period', 'int'),
    f('timeout', 'string'),
    f('disable-eviction', 'bool'),
    SELECTOR,
  ],
  complete(fp) {
    return {
      verb: 'drain',
      ...nodeArgs('drain', fp),
      ignoreDaemonsets: bool(fp.flags['ignore-daemonsets']),
      deleteEmptyDirData: bool(fp.flags['delete-emptydir-data']),
      force: bool(fp.flags.force),
      gracePeriod: num(fp.flags['grace-period'], -1),
      timeoutMs: timeoutFlag(str(fp.flags.timeout)),
      disableEviction: bool(fp.flags['disable-eviction']),
    };
  },
  run: runDrain,
};

/** nodeArgs reads the NODE arguments or --selector (one of them, as Complete requires). */
function nodeArgs(path: string, fp: FlagParse): { nodes: string[]; selector?: string } {
  const args = fp.args;
  const selector = str(fp.flags.selector);
  if (args.length === 0 && selector === undefined)
    throw new CmdError(usageError(path, `USAGE: ${path} NODE [flags]`));
  if (args.length > 0 && selector !== undefined)
    throw new CmdError(
      usageError(path, 'error: cannot specify both a node name and a --selector option'),
    );
  return { nodes: args, selector };
}

function runCordon(r: Run, cmd: CordonOptions & Common): void {
  cordon(r, nodesFor(r, cmd.nodes, cmd.selector), cmd.verb === 'cordon');
}

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
      // CordonHelper.PatchOrReplace: CreateTwoWayMergePatch of spec.unschedulable, sent as a
      // strategic merge patch (false is omitted, so uncordon sends null).
      r.client.patch(
        'nodes',
        undefined,
        node.metadata.name,
        { spec: { unschedulable: desired ? true : null } },
        undefined,
        StrategicMergePatchType,
      );
      r.out(namePrint(t, node.metadata.name, desired ? 'cordoned' : 'uncordoned'));
    } catch (e) {
      r.stderr += `error: unable to ${desired ? 'cordon' : 'uncordon'} node "${node.metadata.name}": ${isStatusError(e) ? e.status.message : (e as Error).message}\n`;
    }
  }
}

function runDrain(r: Run, cmd: DrainOptions & Common): void {
  const nodes = nodesFor(r, cmd.nodes, cmd.selector);
  cordon(r, nodes, true);
  const t = typeOf('nodes');
  const io: DrainIO = {
    client: r.client,
    out: (s) => r.out(s),
    err: (s) => {
      r.stderr += s;
    },
    warn: (s) => r.warn(s),
    now: () => r.now(),
    sleep: r.ctx.sleep,
  };
  const opts: HelperOptions = {
    force: cmd.force,
    ignoreAllDaemonSets: cmd.ignoreDaemonsets,
    deleteEmptyDirData: cmd.deleteEmptyDirData,
    gracePeriodSeconds: cmd.gracePeriod,
    timeoutMs: cmd.timeoutMs,
    disableEviction: cmd.disableEviction,
  };
  const fatal: string[][] = [];
  const remaining: string[] = [];
  for (const node of nodes) {
    const name = node.metadata.name;
    const { error, errors } = drainNode(io, opts, name);
    if (error === undefined) {
      r.out(namePrint(t, name, 'drained'));
      continue;
    }
    r.stderr += `error: unable to drain node "${name}" due to error: ${error}, continuing command...\n`;
    fatal.push(errors ?? [error]);
    remaining.push(name);
  }
  if (remaining.length) {
    r.stderr += `There are pending nodes to be drained:\n${remaining.map((n) => ` ${n}\n`).join('')}`;
    // CheckErr: an aggregate of one node's aggregate prints its errors a line each; of several
    // nodes, a line per node.
    const lines = fatal.length === 1 ? fatal[0] : fatal.map(aggregate);
    r.stderr += lines.map((f) => `${f}\n`).join('');
    r.failed = true;
  }
}

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go and pkg/drain (cordon.go, drain.go,
// filters.go): `kubectl cordon`, `uncordon` and `drain` (see "Simplification:" notes).

import type { DaemonSet, Node, Pod } from '../../api/types.ts';
import type { DeleteOptions } from '../../apiserver/apiserver.ts';
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
import { isNotFound, isStatusError } from '../errors.ts';
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
  selector?: string;
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
function podsForDeletion(r: Run, node: string, cmd: DrainOptions): PodDelete[] {
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

function runDrain(r: Run, cmd: DrainOptions & Common): void {
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
        if (r.client.evict) r.client.evict(pod.metadata.namespace ?? '', pod.metadata.name, opts);
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

// The one registry of the kubectl commands the simulator runs, as cmd.go's NewKubectlCommand adds
// each pkg/cmd/<verb> command to the root: a command is one module under cmd/ and one entry here.
// The parser (../parse.ts) finds a command line's command here; runKubectl (../kubectl.ts) runs
// it; the console (src/lib/console.ts) completes these names.

import type { Command, CommandGroup, Common } from '../cmdutil.ts';
import { apiResources } from './apiresources.ts';
import { apply } from './apply.ts';
import { create, createGroup } from './create/create.ts';
import { createDeployment } from './create/deployment.ts';
import { createPodDisruptionBudget } from './create/poddisruptionbudget.ts';
import {
  createServiceClusterIP,
  createServiceExternalName,
  createServiceGroup,
  createServiceLoadBalancer,
  createServiceNodePort,
} from './create/service.ts';
import { deleteCmd } from './delete.ts';
import { describe } from './describe.ts';
import { cordonCmd, drain, uncordonCmd } from './drain.ts';
import { events } from './events.ts';
import { exec } from './exec.ts';
import { expose } from './expose.ts';
import { get } from './get.ts';
import { label } from './label.ts';
import { logs } from './logs.ts';
import { rolloutHistory } from './rollout/history.ts';
import { rolloutRestart } from './rollout/restart.ts';
import { rolloutGroup } from './rollout/rollout.ts';
import { rolloutStatus } from './rollout/status.ts';
import { rolloutUndo } from './rollout/undo.ts';
import { scale } from './scale.ts';
import { setImage } from './set/image.ts';
import { setGroup } from './set/set.ts';
import { taint } from './taint.ts';
import { version } from './version.ts';

/** COMMANDS are the commands the simulator runs, in the order help and completion list them. */
export const COMMANDS = [
  get,
  describe,
  apply,
  create,
  createDeployment,
  createPodDisruptionBudget,
  createServiceClusterIP,
  createServiceNodePort,
  createServiceLoadBalancer,
  createServiceExternalName,
  expose,
  scale,
  setImage,
  rolloutHistory,
  rolloutRestart,
  rolloutStatus,
  rolloutUndo,
  deleteCmd,
  cordonCmd,
  uncordonCmd,
  drain,
  label,
  taint,
  logs,
  exec,
  events,
  apiResources,
  version,
] as const;

/** GROUPS are the parent commands that hold subcommands. */
export const GROUPS: readonly CommandGroup[] = [
  createGroup,
  createServiceGroup,
  setGroup,
  rolloutGroup,
];

type OptionsOf<C> = C extends Command<infer O> ? O : never;

/** KubectlCommand is a parsed command line: one command's options, with the global flags. */
export type KubectlCommand = Common & OptionsOf<(typeof COMMANDS)[number]>;

/** AnyCommand is a registered command, whatever its options. */
export type AnyCommand = Command<KubectlCommand>;

const byPath = new Map<string, AnyCommand>();
for (const c of COMMANDS as readonly unknown[] as AnyCommand[]) {
  byPath.set(c.path, c);
  const parent = c.path.includes(' ') ? c.path.slice(0, c.path.lastIndexOf(' ') + 1) : '';
  for (const a of c.aliases ?? []) byPath.set(parent + a, c);
}

/** commandFor finds a command by its path or an alias ("create deploy"). */
export function commandFor(path: string): AnyCommand | undefined {
  return byPath.get(path);
}

/** topLevelNames are the first words of the registered commands, in registry order. */
export function topLevelNames(): string[] {
  return [...new Set(COMMANDS.map((c) => c.path.split(' ')[0]))];
}

/**
 * subcommandsOf lists the next words of the registered subcommands of a parent ("service" once
 * for create's service group), in registry order.
 */
export function subcommandsOf(parent: string): string[] {
  const words = COMMANDS.filter((c) => c.path.startsWith(`${parent} `)).map(
    (c) => c.path.slice(parent.length + 1).split(' ')[0],
  );
  return [...new Set(words)];
}

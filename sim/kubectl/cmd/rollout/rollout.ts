// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout.go: the `kubectl rollout` command
// group, and what its subcommands share (the objects they act on, the flags they all take).

import type { Deployment } from '../../../api/types.ts';
import { objectsFor } from '../../builder.ts';
import {
  CmdError,
  parseTargets,
  type CommandGroup,
  type FlagParse,
  type Targets,
} from '../../cmdutil.ts';
import { LAST_APPLIED } from '../../describe.ts';
import { KubectlError } from '../../errors.ts';
import type { Run } from '../../run.ts';

/**
 * rolloutGroup is `kubectl rollout`: its subcommands, and the help the bare command writes to
 * streams.Out (pkg/util/templates/templater.go renders it).
 */
export const rolloutGroup: CommandGroup = {
  name: 'rollout',
  subcommands: ['history', 'pause', 'restart', 'resume', 'status', 'undo'],
  help: {
    stream: 'stdout',
    text: `Manage the rollout of one or many resources.
        
 Valid resource types include:

  *  deployments
  *  daemonsets
  *  statefulsets

Examples:
  # Rollback to the previous deployment
  kubectl rollout undo deployment/abc
  
  # Check the rollout status of a daemonset
  kubectl rollout status daemonset/foo
  
  # Restart a deployment
  kubectl rollout restart deployment/abc
  
  # Restart deployments with the 'app=nginx' label
  kubectl rollout restart deployment --selector=app=nginx

Available Commands:
  history       View rollout history
  pause         Mark the provided resource as paused
  restart       Restart a resource
  resume        Resume a paused resource
  status        Show the status of the rollout
  undo          Undo a previous rollout

Usage:
  kubectl rollout SUBCOMMAND [options]

Use "kubectl rollout <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`,
  },
};

/** rolloutTargets reads the resource arguments every rollout subcommand requires. */
export function rolloutTargets(fp: FlagParse): Targets {
  if (fp.args.length === 0) throw new CmdError('required resource not specified');
  return parseTargets(fp.args, false);
}

export const RevisionAnnotation = 'deployment.kubernetes.io/revision';
export const ChangeCauseAnnotation = 'kubernetes.io/change-cause';
export const ANNOTATIONS_TO_SKIP = new Set([
  LAST_APPLIED,
  RevisionAnnotation,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

export function deploymentsOf(r: Run, targets: Targets, ns: string, what: string): Deployment[] {
  const out: Deployment[] = [];
  for (const { type, obj } of objectsFor(r, targets, ns)) {
    if (type.resource !== 'deployments')
      throw new KubectlError(`no ${what} has been implemented for "${type.kind}"`);
    out.push(obj as Deployment);
  }
  return out;
}

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/set/set.go: the `kubectl set` command group.

import type { CommandGroup } from '../../cmdutil.ts';

/**
 * setGroup is `kubectl set`: its subcommands, and the help the bare command writes to
 * streams.ErrOut (pkg/util/templates/templater.go renders it).
 */
export const setGroup: CommandGroup = {
  name: 'set',
  subcommands: ['env', 'image', 'resources', 'selector', 'serviceaccount', 'subject'],
  help: {
    stream: 'stderr',
    text: `Configure application resources.

 These commands help you make changes to existing application resources.

Available Commands:
  env              Update environment variables on a pod template
  image            Update the image of a pod template
  resources        Update resource requests/limits on objects with pod templates
  selector         Set the selector on a resource
  serviceaccount   Update the service account of a resource
  subject          Update the user, group, or service account in a role binding or cluster role binding

Usage:
  kubectl set SUBCOMMAND [options]

Use "kubectl set <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`,
  },
};

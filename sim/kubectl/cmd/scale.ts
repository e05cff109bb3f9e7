// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go: `kubectl scale --replicas=N`
// (see "Simplification:" notes).

import type { Deployment, ReplicaSet, ResourceName } from '../../api/types.ts';
import { objectsFor } from '../builder.ts';
import {
  CmdError,
  f,
  FILENAME,
  NO_RESOURCE,
  num,
  parseTargets,
  SELECTOR,
  str,
  type Command,
  type Common,
  type Targets,
} from '../cmdutil.ts';
import { KubectlError, LocalStatusError } from '../errors.ts';
import { namePrint, type Run } from '../run.ts';

export interface ScaleOptions {
  verb: 'scale';
  targets: Targets;
  replicas: number;
  /** currentReplicas is --current-replicas: -1 when not given (no precondition). */
  currentReplicas: number;
  selector?: string;
}

export const scale: Command<ScaleOptions> = {
  path: 'scale',
  short: 'Set a new size for a deployment, replica set, replication controller, or stateful set',
  flags: [
    f('replicas', 'int', undefined, true),
    f('current-replicas', 'int'),
    SELECTOR,
    f('all', 'bool'),
    FILENAME,
  ],
  complete(fp) {
    const args = fp.args;
    const replicas = num(fp.flags.replicas, -1);
    if (replicas < 0)
      throw new CmdError(
        'The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0',
      );
    if (num(fp.flags['current-replicas'], -1) < -1)
      throw new CmdError('The --current-replicas must specify an integer of -1 or greater');
    if (args.length === 0 && !str(fp.flags.selector) && !fp.flags.all)
      throw new CmdError(NO_RESOURCE);
    return {
      verb: 'scale',
      targets: parseTargets(args, false),
      replicas,
      currentReplicas: num(fp.flags['current-replicas'], -1),
      selector: str(fp.flags.selector),
    };
  },
  run: runScale,
};

function runScale(r: Run, cmd: ScaleOptions & Common): void {
  const ns = r.ns(cmd);
  if (cmd.targets.form === 'types' && cmd.targets.names.length === 0 && cmd.selector === undefined)
    throw new KubectlError('resource(s) were provided, but no name was specified');
  for (const { type, obj } of objectsFor(r, cmd.targets, ns, cmd.selector)) {
    const scalable = type.resource === 'deployments' || type.resource === 'replicasets';
    // --current-replicas: ScalePrecondition.validate against the scale subresource's
    // spec.replicas (PreconditionError); RunScale returns it, leaving the other objects alone.
    if (scalable && cmd.currentReplicas >= 0) {
      const current = (obj as Deployment | ReplicaSet).spec?.replicas ?? 1;
      if (current !== cmd.currentReplicas)
        throw new KubectlError(`Expected replicas to be ${cmd.currentReplicas}, was ${current}`);
    }
    try {
      if (!scalable)
        throw new LocalStatusError(
          404,
          'NotFound',
          'the server could not find the requested resource',
        );
      // Simplification: the scale subresource is a merge patch of spec.replicas.
      r.client.patch(type.resource as ResourceName, obj.metadata.namespace, obj.metadata.name, {
        spec: { replicas: cmd.replicas },
      });
      r.out(namePrint(type, obj.metadata.name, 'scaled'));
    } catch (e) {
      r.fail(e);
    }
  }
}

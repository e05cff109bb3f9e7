// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go: `kubectl scale --replicas=N`
// (see "Simplification:" notes).

import type { ResourceName } from '../../api/types.ts';
import { MergePatchType } from '../../apiserver/patch.ts';
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
import { KubectlError } from '../errors.ts';
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

// runScale mirrors RunScale: the builder GETs each object, then the scaler (pkg/scale
// ScaleSimple) PATCHes its scale subresource with the merge patch {"spec":{"replicas":N}}, or,
// given --current-replicas, GETs the scale, checks the precondition and PUTs it back. The first
// error ends the command.
function runScale(r: Run, cmd: ScaleOptions & Common): void {
  const ns = r.ns(cmd);
  if (cmd.targets.form === 'types' && cmd.targets.names.length === 0 && cmd.selector === undefined)
    throw new KubectlError('resource(s) were provided, but no name was specified');
  for (const { type, obj } of objectsFor(r, cmd.targets, ns, cmd.selector)) {
    const resource = type.resource as ResourceName;
    const name = obj.metadata.name;
    const namespace = obj.metadata.namespace ?? '';
    if (cmd.currentReplicas !== -1) {
      const current = r.client.getScale(resource, namespace, name);
      // ScalePrecondition.validate: PreconditionError "Expected replicas to be N, was M".
      if ((current.spec.replicas ?? 0) !== cmd.currentReplicas)
        throw new KubectlError(
          `Expected replicas to be ${cmd.currentReplicas}, was ${current.spec.replicas ?? 0}`,
        );
      r.client.updateScale(resource, {
        ...current,
        spec: { ...current.spec, replicas: cmd.replicas },
      });
    } else
      r.client.patchScale(
        resource,
        namespace,
        name,
        { spec: { replicas: cmd.replicas } },
        MergePatchType,
      );
    r.out(namePrint(type, name, 'scaled'));
  }
}

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create.go: `kubectl create -f` (one POST per
// object) and the create command group (its generator subcommands, of which the simulator runs
// `create deployment`).

import type { AnyObject, ResourceName } from '../../../api/types.ts';
import { MANIFEST_SOURCE, visitManifests } from '../../builder.ts';
import { FILENAME, OUTPUT, type Command, type CommandGroup, type Common } from '../../cmdutil.ts';
import { withSource } from '../../errors.ts';
import { namePrint, type Run } from '../../run.ts';
import { manifestFlags } from '../apply.ts';

export interface CreateOptions {
  verb: 'create';
  filenames: string[];
  output?: string;
}

export const create: Command<CreateOptions> = {
  path: 'create',
  short: 'Create a resource from a file or from stdin',
  flags: [FILENAME, OUTPUT],
  complete(fp) {
    return { verb: 'create', ...manifestFlags('create', fp) };
  },
  run: runCreate,
};

/** createGroup lists create's subcommands (NewCmdCreate's AddCommand calls). */
export const createGroup: CommandGroup = {
  name: 'create',
  subcommands: [
    'clusterrole',
    'clusterrolebinding',
    'configmap',
    'cronjob',
    'deployment',
    'ingress',
    'job',
    'namespace',
    'poddisruptionbudget',
    'priorityclass',
    'quota',
    'role',
    'rolebinding',
    'secret',
    'service',
    'serviceaccount',
    'token',
  ],
};

function runCreate(r: Run, cmd: CreateOptions & Common, stdin: string | undefined): void {
  visitManifests(r, cmd.verb, cmd.namespace, stdin, (info) => {
    try {
      r.client.create(info.type.resource as ResourceName, info.obj as unknown as AnyObject);
    } catch (e) {
      throw withSource('creating', MANIFEST_SOURCE, e);
    }
    r.out(namePrint(info.type, info.name, 'created'));
  });
}

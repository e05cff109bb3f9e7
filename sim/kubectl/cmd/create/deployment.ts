// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_deployment.go: `kubectl create
// deployment NAME --image=IMAGE` builds a Deployment and POSTs it.

import type { Deployment, Pod } from '../../../api/types.ts';
import { CmdError, f, num, OUTPUT, usageError, type Command, type Common } from '../../cmdutil.ts';
import { isStatusError, KubectlError } from '../../errors.ts';
import { namePrint, typeOf, type Run } from '../../run.ts';

export interface CreateDeploymentOptions {
  verb: 'create deployment';
  name: string;
  images: string[];
  replicas: number;
  port: number;
}

export const createDeployment: Command<CreateDeploymentOptions> = {
  path: 'create deployment',
  aliases: ['deploy'],
  short: 'Create a deployment with the specified name',
  flags: [
    f('image', 'stringArray', undefined, true),
    f('replicas', 'int', 'r'),
    f('port', 'int'),
    OUTPUT,
  ],
  complete(fp) {
    const args = fp.args;
    if (args.length !== 1)
      throw new CmdError(
        usageError('create deployment', `exactly one NAME is required, got ${args.length}`),
      );
    const images = fp.flags.image as string[];
    return {
      verb: 'create deployment',
      name: args[0],
      images,
      replicas: num(fp.flags.replicas, 1),
      port: num(fp.flags.port, -1),
    };
  },
  run: runCreateDeployment,
};

function runCreateDeployment(r: Run, cmd: CreateDeploymentOptions & Common): void {
  const labels = { app: cmd.name };
  const seen = new Set<string>();
  const containers = cmd.images.map((image, i) => {
    // Retain just the image name, without registry, tag or digest (buildPodSpec).
    let name = image.split('/').pop()!;
    if (name.includes(':')) name = name.split(':')[0];
    if (name.includes('@')) name = name.split('@')[0];
    name = name.replace(/_/g, '-');
    // Simplification: sanitizeAndUniquify appends a random suffix to duplicates; we use the index.
    if (seen.has(name)) name = `${name}-${i}`;
    seen.add(name);
    return { name, image } as Pod['spec']['containers'][number];
  });
  if (cmd.port >= 0 && containers.length > 0) containers[0].ports = [{ containerPort: cmd.port }];
  const meta: Record<string, unknown> = {
    name: cmd.name,
    labels: { ...labels },
    namespace: r.ns(cmd),
  };
  const deploy = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta,
    spec: {
      replicas: cmd.replicas,
      selector: { matchLabels: { ...labels } },
      template: { metadata: { labels: { ...labels } }, spec: { containers } },
    },
    status: {},
  } as unknown as Deployment;
  try {
    r.client.create('deployments', deploy);
  } catch (e) {
    throw new KubectlError(
      `failed to create deployment: ${isStatusError(e) ? e.status.message : (e as Error).message}`,
    );
  }
  r.out(namePrint(typeOf('deployments'), cmd.name, 'created'));
}

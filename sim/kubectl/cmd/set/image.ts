// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/set/set_image.go: `kubectl set image TYPE NAME
// CONTAINER=IMAGE ...` patches the Pod template (or the Pod).

import { createTwoWayMergePatch, StrategicMergePatchType } from '../../../apiserver/patch.ts';
import type { Deployment, Pod, ResourceName } from '../../../api/types.ts';
import type { APIResource } from '../../../apiserver/discovery.ts';
import { objectsFor } from '../../builder.ts';
import {
  CmdError,
  f,
  FILENAME,
  NO_RESOURCE,
  parseTargets,
  SELECTOR,
  splitPairs,
  type Command,
  type Common,
  type Targets,
} from '../../cmdutil.ts';
import { KubectlError, RawError } from '../../errors.ts';
import { clone, deepEqual, namePrint, type Run } from '../../run.ts';

export interface SetImageOptions {
  verb: 'set image';
  targets: Targets;
  images: { container: string; image: string }[];
}

export const setImage: Command<SetImageOptions> = {
  path: 'set image',
  short: 'Update the image of a pod template',
  flags: [SELECTOR, f('all', 'bool'), FILENAME],
  complete(fp) {
    const args = fp.args;
    const { resources, pairs } = splitPairs(args, 'image', (s) => s.includes('='));
    // Complete's builder needs a resource (missingResourceError); Validate's checks run after
    // the objects are fetched, so they are made by the command (runSetImage).
    if (resources.length === 0) throw new CmdError(NO_RESOURCE);
    const images = pairs.map((p) => {
      const i = p.indexOf('=');
      return { container: p.slice(0, i), image: p.slice(i + 1) };
    });
    return { verb: 'set image', targets: parseTargets(resources, false), images };
  },
  run: runSetImage,
};

function podSpecPath(type: APIResource): 'pod' | 'template' | undefined {
  if (type.resource === 'pods') return 'pod';
  if (
    type.resource === 'deployments' ||
    type.resource === 'replicasets' ||
    type.resource === 'daemonsets'
  )
    return 'template';
  return undefined;
}

function runSetImage(r: Run, cmd: SetImageOptions & Common): void {
  const ns = r.ns(cmd);
  // Complete fetches the objects; Validate then needs at least one name=image pair.
  const objects = objectsFor(r, cmd.targets, ns);
  if (cmd.images.length === 0) throw new KubectlError('at least one image update is required');
  for (const { type, obj } of objects) {
    const where = podSpecPath(type);
    try {
      if (!where)
        throw new KubectlError(
          `${type.resource}/${obj.metadata.name} the object is not a pod or does not have a pod template: ${type.kind}`,
        );
      const spec = where === 'pod' ? (obj as Pod).spec : (obj as Deployment).spec.template.spec;
      const containers = clone(spec.containers);
      const initContainers = clone(spec.initContainers);
      const errs: string[] = [];
      for (const { container, image } of cmd.images) {
        let found = false;
        for (const c of [...(initContainers ?? []), ...containers]) {
          if (c.name === container || container === '*') {
            found = true;
            c.image = image;
          }
        }
        if (!found) errs.push(`unable to find container named "${container}"`);
      }
      if (errs.length)
        throw new RawError(
          `error: ${type.resource}/${obj.metadata.name} ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}\n`,
        );
      const changed =
        !deepEqual(containers, spec.containers) || !deepEqual(initContainers, spec.initContainers);
      if (!changed) continue;
      // set_image.go: CalculatePatches' two-way strategic merge patch of the object.
      const newSpec = { ...spec, containers, ...(initContainers ? { initContainers } : {}) };
      const modified =
        where === 'pod'
          ? { ...obj, spec: newSpec }
          : {
              ...obj,
              spec: {
                ...(obj as Deployment).spec,
                template: { ...(obj as Deployment).spec.template, spec: newSpec },
              },
            };
      r.client.patch(
        type.resource as ResourceName,
        obj.metadata.namespace,
        obj.metadata.name,
        createTwoWayMergePatch(obj, modified),
        undefined,
        StrategicMergePatchType,
      );
      r.out(namePrint(type, obj.metadata.name, 'image updated'));
    } catch (e) {
      r.fail(e);
    }
  }
}

// Mirrors pkg/kubelet/container/ref.go (GenerateContainerRef, fieldPath): the kubelet records a
// container's events (Pulling, Pulled, Created, Started, Killing, BackOff, Failed) against a
// reference to its Pod whose fieldPath names the container, found by name among the Pod's
// containers first, then its init containers.

import type { Pod } from '../api/types.ts';

// One string per container name and list serves every event about it (each Event keeps it).
const containersByName = new Map<string, string>();
const initContainersByName = new Map<string, string>();

function memo(cache: Map<string, string>, prefix: string, name: string): string {
  let p = cache.get(name);
  if (p === undefined) {
    p = `${prefix}{${name}}`;
    if (cache.size > 10_000) cache.clear();
    cache.set(name, p);
  }
  return p;
}

/**
 * containerFieldPath is fieldPath(pod, container): `spec.containers{name}`, or
 * `spec.initContainers{name}`, or undefined when the Pod has no container of that name (upstream
 * then logs the error and records the event without a reference).
 */
export function containerFieldPath(pod: Pod, name: string): string | undefined {
  const containers = pod.spec.containers ?? [];
  for (let i = 0; i < containers.length; i++) {
    if (containers[i].name === name)
      return name === ''
        ? `spec.containers[${i}]`
        : memo(containersByName, 'spec.containers', name);
  }
  const inits = pod.spec.initContainers ?? [];
  for (let i = 0; i < inits.length; i++) {
    if (inits[i].name === name)
      return name === ''
        ? `spec.initContainers[${i}]`
        : memo(initContainersByName, 'spec.initContainers', name);
  }
  return undefined;
}

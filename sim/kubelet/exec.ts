// Mirrors the kubelet's exec path (pkg/kubelet/server/server.go getExec, then the CRI's Exec in
// containerd): kube-apiserver proxies `pods/exec` to the node's kubelet, which has the runtime
// start the command in the container, with the container's environment and the files the
// kubelet wrote for it (see "Simplification:" notes).

import type { Pod, Service } from '../api/types.ts';
import { execInContainer, type ExecOutcome } from '../runtime/container-exec.ts';
import { imageEnv, imageUserland } from '../runtime/images.ts';
import { hostsFile, resolvConf } from './container-files.ts';
import { containerEnvironment } from './envvars.ts';

/**
 * execSync runs argv in a Pod's container. services are the Services the kubelet's lister
 * holds; those created after the container started are left out, as the container's
 * environment was made when it started.
 * Simplification: the command runs to its end at once, but for sleep, which lets virtual time
 * pass (the cluster runs meanwhile); a container stopped meanwhile does not end the command.
 */
export function execSync(
  pod: Pod,
  containerName: string,
  argv: readonly string[],
  services: readonly Service[],
  sleep?: (ms: number) => void,
): ExecOutcome {
  const container = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find(
    (c) => c.name === containerName,
  )!;
  const started = pod.status?.containerStatuses?.find((s) => s.name === containerName)?.state
    ?.running?.startedAt;
  // RFC 3339 times in UTC, to the second: as strings they sort as the times do.
  const existed = services.filter((s) => {
    const created = s.metadata.creationTimestamp;
    return !created || !started || created <= started;
  });
  const hostname = pod.spec.hostname ?? pod.metadata.name;
  return execInContainer(
    {
      userland: imageUserland(container.image),
      hostname,
      env: containerEnvironment(pod, container, imageEnv(container.image), existed),
      files: new Map([
        ['/etc/hostname', `${hostname}\n`],
        ['/etc/hosts', hostsFile(pod)],
        ['/etc/resolv.conf', resolvConf(pod)],
      ]),
      ...(sleep ? { sleep } : {}),
    },
    argv,
  );
}

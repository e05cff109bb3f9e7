// Mirrors the kubelet's exec path (pkg/kubelet/server/server.go getExec, then the CRI's Exec in
// containerd): kube-apiserver proxies `pods/exec` to the node's kubelet, which has the runtime
// start the command in the container, with the container's environment and the files the
// kubelet wrote for it (see "Simplification:" notes).

import type { Pod, Service } from '../api/types.ts';
import type { DnsReply, QType } from '../dns/coredns.ts';
import {
  execInContainer,
  type ContainerView,
  type ExecOutcome,
} from '../runtime/container-exec.ts';
import { imageEnv, imageUserland, normalizeImage } from '../runtime/images.ts';
import { hostsFile, resolvConf } from './container-files.ts';
import { containerEnvironment } from './envvars.ts';

/** ExecEnvironment is what the node gives a command: Services, time and the network. */
export interface ExecEnvironment {
  /** services are the Services the kubelet's lister holds. */
  services?: readonly Service[];
  sleep?: (ms: number) => void;
  /** dns sends a DNS question from the Pod (sim/cluster/dataplane.ts). */
  dns?: (server: string, name: string, qtype: QType) => DnsReply | undefined;
  /** connect opens a TCP connection from the Pod (sim/cluster/dataplane.ts). */
  connect?: ContainerView['connect'];
}

/**
 * execSync runs argv in a Pod's container. Of the Services, those created after the container
 * started are left out of its environment, which was made when it started.
 * Simplification: the command runs to its end at once, but for sleep, which lets virtual time
 * pass (the cluster runs meanwhile); a container stopped meanwhile does not end the command.
 */
export function execSync(
  pod: Pod,
  containerName: string,
  argv: readonly string[],
  given: ExecEnvironment = {},
): ExecOutcome {
  const { services = [], sleep, dns, connect } = given;
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
  let env: Map<string, string> | undefined;
  return execInContainer(
    {
      userland: imageUserland(container.image),
      repo: normalizeImage(container.image).repo,
      hostname,
      // Built on first use: most commands (curl, cat, hostname) never read the environment.
      get env() {
        env ??= containerEnvironment(pod, container, imageEnv(container.image), existed);
        return env;
      },
      files: new Map([
        ['/etc/hostname', `${hostname}\n`],
        ['/etc/hosts', hostsFile(pod)],
        ['/etc/resolv.conf', resolvConf(pod)],
      ]),
      ...(sleep ? { sleep } : {}),
      ...(dns ? { dns } : {}),
      ...(connect ? { connect } : {}),
    },
    argv,
  );
}

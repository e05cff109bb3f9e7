// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go: `kubectl logs POD [-c CONTAINER]`
// (see "Simplification:" notes).

import type { Pod } from '../../api/types.ts';
import { goQuote } from '../../apiserver/errors.ts';
import {
  bool,
  CmdError,
  f,
  podArg,
  str,
  usageError,
  type Command,
  type Common,
} from '../cmdutil.ts';
import { KubectlError, LocalStatusError } from '../errors.ts';
import { containerFor, kubeletError, typeOf, type Run } from '../run.ts';

export interface LogsOptions {
  verb: 'logs';
  pod: string;
  container?: string;
  allContainers: boolean;
  previous: boolean;
  follow: boolean;
}

export const logs: Command<LogsOptions> = {
  path: 'logs',
  short: 'Print the logs for a container in a pod',
  flags: [
    f('container', 'string', 'c'),
    f('all-containers', 'bool'),
    f('previous', 'bool', 'p'),
    f('follow', 'bool', 'f'),
    f('tail', 'int'),
    f('timestamps', 'bool'),
  ],
  complete(fp) {
    const args = fp.args;
    // logs.go#Complete: POD or TYPE/NAME, and an optional CONTAINER as a second argument.
    if (args.length === 0 || args.length > 2)
      throw new CmdError(
        usageError(
          'logs',
          "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command",
        ),
      );
    const container = str(fp.flags.container) || args[1];
    return {
      verb: 'logs',
      pod: podArg(args[0]),
      ...(container ? { container } : {}),
      allContainers: bool(fp.flags['all-containers']),
      previous: bool(fp.flags.previous),
      follow: bool(fp.flags.follow),
    };
  },
  run: runLogs,
};

/**
 * runLogs mirrors `kubectl logs POD [-c C]`: kube-apiserver's pods/log (registry/core/pod/
 * strategy.go#LogLocation) proxied to the kubelet, which refuses a container that has not started
 * (kubelet_pods.go#validateContainerLogStatus).
 * Simplification: the simulated containers write no log lines, so a started container's log is
 * empty; -f (follow) is not supported.
 */
function runLogs(r: Run, cmd: LogsOptions & Common): void {
  if (cmd.follow) throw new KubectlError('logs -f (follow) is not supported in this simulator');
  const ns = r.ns(cmd);
  const pod = r.get<Pod>(typeOf('pods'), ns, cmd.pod);
  const containers = cmd.allContainers
    ? [...(pod.spec.initContainers ?? []), ...pod.spec.containers]
    : [
        containerFor(
          r,
          pod,
          cmd.container,
          `container ${cmd.container} is not valid for pod ${pod.metadata.name}`,
        ),
      ];
  // A Pod with no node has no log location: kube-apiserver answers with an empty stream.
  if (!pod.spec.nodeName) return;
  for (const c of containers) {
    kubeletError(r, pod, `containerLogs/${ns}/${pod.metadata.name}/${c.name}`);
    const statuses = [
      ...(pod.status?.initContainerStatuses ?? []),
      ...(pod.status?.containerStatuses ?? []),
    ];
    const st = statuses.find((x) => x.name === c.name);
    const quoted = `container ${goQuote(c.name)} in pod ${goQuote(pod.metadata.name)}`;
    if (!st) throw new LocalStatusError(400, 'BadRequest', `${quoted} is not available`);
    if (cmd.previous) {
      if (!st.lastState?.terminated)
        throw new LocalStatusError(400, 'BadRequest', `previous terminated ${quoted} not found`);
      continue;
    }
    const waiting = st.state?.waiting;
    if (waiting && !st.lastState?.terminated) {
      const why =
        waiting.reason === 'ErrImagePull'
          ? "image can't be pulled"
          : waiting.reason === 'ImagePullBackOff'
            ? 'trying and failing to pull image'
            : (waiting.reason ?? '');
      throw new LocalStatusError(400, 'BadRequest', `${quoted} is waiting to start: ${why}`);
    }
  }
}

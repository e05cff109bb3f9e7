// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go: `kubectl exec POD [-c CONTAINER] --
// COMMAND` (see "Simplification:" notes).

import type { Pod, Service } from '../../api/types.ts';
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
import { KubectlError } from '../errors.ts';
import { containerFor, kubeletError, typeOf, type Run } from '../run.ts';

export interface ExecOptions {
  verb: 'exec';
  pod: string;
  container?: string;
  command: string[];
  quiet: boolean;
}

export const exec: Command<ExecOptions> = {
  path: 'exec',
  short: 'Execute a command in a container',
  flags: [
    f('container', 'string', 'c'),
    f('stdin', 'bool', 'i'),
    f('tty', 'bool', 't'),
    f('quiet', 'bool', 'q'),
  ],
  complete(fp) {
    const args = fp.args;
    // exec.go#Complete: the command follows a bare "--".
    if (args.length === 0 || fp.dashAt === 0)
      throw new CmdError(
        usageError(
          'exec',
          "expected 'exec (POD | TYPE/NAME) COMMAND [ARG1] [ARG2] ... [ARGN]'.\nPOD or TYPE/NAME and COMMAND are required arguments for the exec command",
        ),
      );
    if (fp.dashAt < 0 && args.length > 1)
      throw new CmdError(
        usageError(
          'exec',
          'exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead',
        ),
      );
    const command = fp.dashAt < 0 ? [] : args.slice(fp.dashAt);
    if (command.length === 0)
      throw new CmdError('you must specify at least one command for the container');
    const container = str(fp.flags.container);
    return {
      verb: 'exec',
      pod: podArg(args[0]),
      ...(container ? { container } : {}),
      command,
      quiet: bool(fp.flags.quiet),
    };
  },
  run: runExec,
};

/** EXEC_COMMANDS are what `kubectl exec` can run in a simulated container. */
const EXEC_COMMANDS = [
  'hostname',
  'cat /etc/hostname',
  'cat /etc/resolv.conf',
  'echo ...',
  'true',
  'false',
];

/**
 * runExec mirrors `kubectl exec POD [-c C] -- CMD` (exec.go): a completed Pod is refused by
 * kubectl, a container that is not running by the kubelet ("unable to upgrade connection").
 * Simplification: a container has no processes or files of its own; only EXEC_COMMANDS run, each
 * answering as in a real container (hostname is the Pod's name; resolv.conf is the one the kubelet
 * writes for dnsPolicy ClusterFirst).
 */
function runExec(r: Run, cmd: ExecOptions & Common): void {
  const ns = r.ns(cmd);
  const pod = r.get<Pod>(typeOf('pods'), ns, cmd.pod);
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed')
    throw new KubectlError(
      `cannot exec into a container in a completed pod; current phase is ${phase}`,
    );
  const c = containerFor(
    r,
    pod,
    cmd.container,
    `container ${cmd.container} not found in pod ${pod.metadata.name}`,
    cmd.quiet,
  );
  if (!pod.spec.nodeName)
    throw new KubectlError('unable to upgrade connection: pod does not exist');
  kubeletError(r, pod, `exec/${ns}/${pod.metadata.name}/${c.name}`);
  const st = pod.status?.containerStatuses?.find((x) => x.name === c.name);
  if (!st?.state?.running)
    throw new KubectlError(
      `unable to upgrade connection: container not found (${goQuote(c.name)})`,
    );
  const [prog, ...args] = cmd.command;
  const line = cmd.command.join(' ');
  if (prog === 'hostname' && args.length === 0) return r.out(`${pod.metadata.name}\n`);
  if (line === 'cat /etc/hostname') return r.out(`${pod.metadata.name}\n`);
  if (line === 'cat /etc/resolv.conf') {
    let dns: string;
    try {
      dns = r.client.get<Service>('services', 'kube-system', 'kube-dns').spec?.clusterIP ?? '';
    } catch {
      dns = '';
    }
    return r.out(
      `search ${ns}.svc.cluster.local svc.cluster.local cluster.local\nnameserver ${dns}\noptions ndots:5\n`,
    );
  }
  if (prog === 'echo') return r.out(`${args.join(' ')}\n`);
  if (prog === 'true' && args.length === 0) return;
  if (prog === 'false' && args.length === 0) {
    r.stderr += 'command terminated with exit code 1\n';
    r.failed = true;
    return;
  }
  throw new KubectlError(
    `kubectl exec runs only ${EXEC_COMMANDS.join(', ')} in this simulator (a simulated container has no processes or files of its own)`,
  );
}

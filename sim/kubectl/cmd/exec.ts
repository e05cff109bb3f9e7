// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go: `kubectl exec POD [-c CONTAINER] --
// COMMAND` (see "Simplification:" notes).

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
import { KubectlError } from '../errors.ts';
import { execSync } from '../../kubelet/exec.ts';
import { sha256, toHex } from '../../proxy/sha256.ts';
import { PROGRAMS } from '../../runtime/container-exec.ts';
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

/**
 * runExec mirrors `kubectl exec POD [-c C] -- CMD` (exec.go): a completed Pod is refused by
 * kubectl, a container that is not running by the kubelet ("unable to upgrade connection"); the
 * command runs in the container as its image provides it (sim/kubelet/exec.ts), and a non-zero
 * exit status is kubectl's "command terminated with exit code N" and its own exit code.
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
  const outcome = r.ctx.exec
    ? r.ctx.exec(pod, c.name, cmd.command)
    : execSync(pod, c.name, cmd.command);
  if (!outcome.started) {
    if ('unmodelled' in outcome)
      throw new KubectlError(
        `kubectl exec runs only ${PROGRAMS.join(', ')} in this simulator (a simulated container has no other programs or files of its own); sh -c '…' runs a script of them`,
      );
    // The runtime's error, as kube-apiserver relays the kubelet's (the exec ID is containerd's).
    const id = toHex(sha256(`${pod.metadata.uid}/${c.name}/${r.ctx.now()}`));
    throw new KubectlError(
      `Internal error occurred: error executing command in container: failed to exec in container: failed to start exec ${goQuote(id)}: ${outcome.error}`,
    );
  }
  const { stdout, stderr, exitCode } = outcome.result;
  r.out(stdout);
  r.stderr += stderr;
  if (exitCode !== 0) {
    r.stderr += `command terminated with exit code ${exitCode}\n`;
    r.failed = true;
    r.exitCode = exitCode;
  }
}

// runKubectl executes one kubectl command line against the simulated kube-apiserver, as kubectl's
// main does: cobra finds the command (parse.ts, over the registry in cmd/index.ts), the command's
// module runs it (cmd/<verb>.ts), and cmdutil.CheckErr prints what failed (errors.ts). The
// command line is parsed, never executed by a shell.
// Simplification: kubectl never blocks (no --watch, no waiting for deletion or rollout).

import { commandFor } from './cmd/index.ts';
import { errorMessage, isStatusError, KubectlError, RawError } from './errors.ts';
import { parseCommandLine } from './parse.ts';
import { Run, type KubectlContext, type KubectlResult } from './run.ts';

export { watchRows } from './cmd/get.ts';
export { CLIENT_VERSION, KUSTOMIZE_VERSION } from './cmd/version.ts';
export { errorMessage };
export {
  healthyComponentStatuses,
  type KubectlClient,
  type KubectlContext,
  type KubectlResult,
  type KubectlWatch,
  type WatchChange,
} from './run.ts';

/**
 * runKubectl runs one kubectl command line ("kubectl" prefix optional) and returns what the
 * terminal would show. stdin is the manifest for `apply -f -` / `create -f -`. Never throws for
 * command or server errors: they become stderr and exit code 1, as kubectl prints them.
 */
export function runKubectl(
  ctx: KubectlContext,
  commandLine: string,
  stdin?: string,
): KubectlResult {
  const parsed = parseCommandLine(commandLine);
  if (!parsed.ok)
    return { stdout: parsed.stdout ?? '', stderr: parsed.stderr, exitCode: parsed.exitCode };
  const r = new Run(ctx);
  try {
    commandFor(parsed.command.verb)!.run(r, parsed.command, stdin);
  } catch (e) {
    if (
      e instanceof Error &&
      !(e instanceof KubectlError) &&
      !(e instanceof RawError) &&
      !isStatusError(e)
    )
      throw e;
    r.fail(e);
  }
  return r.result();
}

// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/version/version.go: `kubectl version [--client]`.

import { bool, f, OUTPUT, type Command } from '../cmdutil.ts';
import type { Run } from '../run.ts';

export const CLIENT_VERSION = 'v1.34.1';
export const KUSTOMIZE_VERSION = 'v5.7.1';

export interface VersionOptions {
  verb: 'version';
  client: boolean;
}

export const version: Command<VersionOptions> = {
  path: 'version',
  short: 'Print the client and server version information',
  flags: [f('client', 'bool'), OUTPUT],
  complete(fp) {
    return { verb: 'version', client: bool(fp.flags.client) };
  },
  run: runVersion,
};

function runVersion(r: Run, cmd: VersionOptions): void {
  r.out(`Client Version: ${CLIENT_VERSION}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`);
  if (!cmd.client) r.out(`Server Version: ${r.ctx.serverVersion ?? CLIENT_VERSION}\n`);
}

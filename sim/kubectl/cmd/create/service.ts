// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_service.go: the `kubectl create
// service` group (alias svc) and its four subcommands, `clusterip`, `nodeport`, `loadbalancer`
// and `externalname`. Each builds one core/v1 Service (label and selector app=NAME, one TCP port
// per --tcp) and POSTs it.

import type { Service, ServicePort } from '../../../api/types.ts';
import { isValidPortName } from '../../../registry/core/services/strategy.ts';
import {
  CmdError,
  f,
  num,
  OUTPUT,
  usageError,
  type Command,
  type CommandGroup,
  type Common,
  type FlagParse,
} from '../../cmdutil.ts';
import { isStatusError, KubectlError } from '../../errors.ts';
import { namePrint, typeOf, type Run } from '../../run.ts';

type ServiceType = NonNullable<Service['spec']['type']>;

export interface CreateServiceOptions {
  verb:
    | 'create service clusterip'
    | 'create service nodeport'
    | 'create service loadbalancer'
    | 'create service externalname';
  name: string;
  type: ServiceType;
  tcp: string[];
  clusterIP: string;
  nodePort: number;
  externalName: string;
}

/**
 * createServiceGroup is `kubectl create service`: its subcommands, and the help the bare command
 * writes to streams.ErrOut (cmdutil.DefaultSubCommandRun, pkg/util/templates/templater.go).
 */
export const createServiceGroup: CommandGroup = {
  name: 'create service',
  aliases: ['svc'],
  subcommands: ['clusterip', 'externalname', 'loadbalancer', 'nodeport'],
  help: {
    stream: 'stderr',
    text: `Create a service using a specified subcommand.

Aliases:
service, svc

Available Commands:
  clusterip      Create a ClusterIP service
  externalname   Create an ExternalName service
  loadbalancer   Create a LoadBalancer service
  nodeport       Create a NodePort service

Usage:
  kubectl create service [flags] [options]

Use "kubectl create service <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`,
  },
};

const TCP = f('tcp', 'stringSlice');

// complete is ServiceOptions.Complete (NameFromCommandArgs) and Validate, with their messages.
function complete(
  verb: CreateServiceOptions['verb'],
  type: ServiceType,
  fp: FlagParse,
): CreateServiceOptions {
  if (fp.args.length !== 1)
    throw new CmdError(usageError(verb, `exactly one NAME is required, got ${fp.args.length}`));
  const o: CreateServiceOptions = {
    verb,
    name: fp.args[0],
    type,
    tcp: (fp.flags.tcp as string[] | undefined) ?? [],
    clusterIP: (fp.flags.clusterip as string | undefined) ?? '',
    nodePort: num(fp.flags['node-port'], 0),
    externalName: (fp.flags['external-name'] as string | undefined) ?? '',
  };
  if (o.clusterIP === 'None' && o.type !== 'ClusterIP')
    throw new CmdError('ClusterIP=None can only be used with ClusterIP service type');
  if (o.clusterIP !== 'None' && o.tcp.length === 0 && o.type !== 'ExternalName')
    throw new CmdError('at least one tcp port specifier must be provided');
  if (o.type === 'ExternalName' && !isDNS1123Subdomain(o.externalName))
    throw new CmdError(`invalid service external name ${o.externalName}`);
  return o;
}

function isDNS1123Subdomain(s: string): boolean {
  return (
    s.length > 0 &&
    s.length <= 253 &&
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(s)
  );
}

/**
 * parsePort mirrors k8s.io/utils/net.ParsePort(s, true): strconv.ParseUint(s, 10, 16) and its
 * errors.
 */
function parsePort(s: string): number {
  if (!/^[0-9]+$/.test(s))
    throw new KubectlError(`strconv.ParseUint: parsing "${s}": invalid syntax`);
  const n = Number(s);
  if (n > 65535) throw new KubectlError(`strconv.ParseUint: parsing "${s}": value out of range`);
  return n;
}

/** parsePorts mirrors parsePorts: `port` or `port:targetPort`, the target a number or a name. */
function parsePorts(spec: string): { port: number; targetPort: number | string } {
  const parts = spec.split(':');
  const port = parsePort(parts[0]);
  if (parts.length === 1) return { port, targetPort: port };
  const target = parts[1];
  // strconv.Atoi: an optional sign and decimal digits.
  if (/^[+-]?[0-9]+$/.test(target)) {
    const n = Number(target);
    if (!(n >= 1 && n <= 65535)) throw new KubectlError('must be between 1 and 65535, inclusive');
    return { port, targetPort: n };
  }
  const errs = isValidPortName(target);
  if (errs.length) throw new KubectlError(errs.join(','));
  return { port, targetPort: target };
}

function runCreateService(r: Run, cmd: CreateServiceOptions & Common): void {
  const ports: ServicePort[] = cmd.tcp.map((spec) => {
    const { port, targetPort } = parsePorts(spec);
    const p: ServicePort = { name: spec.replace(/:/g, '-'), port, targetPort, protocol: 'TCP' };
    if (cmd.nodePort) p.nodePort = cmd.nodePort;
    return p;
  });
  const spec: Service['spec'] = { type: cmd.type, selector: { app: cmd.name }, ports };
  if (cmd.externalName) spec.externalName = cmd.externalName;
  if (cmd.clusterIP) spec.clusterIP = cmd.clusterIP;
  const svc: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: cmd.name,
      labels: { app: cmd.name },
      namespace: r.ns(cmd),
    } as unknown as Service['metadata'],
    spec,
    status: {},
  };
  try {
    r.client.create('services', svc);
  } catch (e) {
    throw new KubectlError(
      `failed to create ${cmd.type} service: ${isStatusError(e) ? e.status.message : (e as Error).message}`,
    );
  }
  r.out(namePrint(typeOf('services'), cmd.name, 'created'));
}

export const createServiceClusterIP: Command<CreateServiceOptions> = {
  path: 'create service clusterip',
  short: 'Create a ClusterIP service',
  flags: [TCP, f('clusterip', 'string'), OUTPUT],
  complete: (fp) => complete('create service clusterip', 'ClusterIP', fp),
  run: runCreateService,
};

export const createServiceNodePort: Command<CreateServiceOptions> = {
  path: 'create service nodeport',
  short: 'Create a NodePort service',
  flags: [TCP, f('node-port', 'int'), OUTPUT],
  complete: (fp) => complete('create service nodeport', 'NodePort', fp),
  run: runCreateService,
};

export const createServiceLoadBalancer: Command<CreateServiceOptions> = {
  path: 'create service loadbalancer',
  short: 'Create a LoadBalancer service',
  flags: [TCP, OUTPUT],
  complete: (fp) => complete('create service loadbalancer', 'LoadBalancer', fp),
  run: runCreateService,
};

export const createServiceExternalName: Command<CreateServiceOptions> = {
  path: 'create service externalname',
  short: 'Create an ExternalName service',
  flags: [TCP, f('external-name', 'string', undefined, true), OUTPUT],
  complete: (fp) => complete('create service externalname', 'ExternalName', fp),
  run: runCreateService,
};

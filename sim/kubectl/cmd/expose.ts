// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/expose/expose.go (RunExpose, createService) and the
// polymorphic helpers it calls (pkg/polymorphichelpers: canbeexposed.go,
// mapbasedselectorforobject.go, portsforobject.go, multiprotocolsforobject.go): `kubectl expose
// TYPE NAME` GETs the object, takes its selector, ports and protocols, and POSTs a Service.
// Simplification: no -f, --overrides, --dry-run or --record; -o is accepted and ignored.

import type {
  AnyObject,
  Deployment,
  Pod,
  PodSpec,
  ReplicaSet,
  ResourceName,
  Service,
  ServicePort,
} from '../../api/types.ts';
import { objectsFor } from '../builder.ts';
import {
  CmdError,
  f,
  NO_RESOURCE,
  OUTPUT,
  parseTargets,
  str,
  type Command,
  type Common,
  type Targets,
} from '../cmdutil.ts';
import { KubectlError } from '../errors.ts';
import { namePrint, typeOf, type Run } from '../run.ts';

export interface ExposeOptions {
  verb: 'expose';
  targets: Targets;
  protocol: string;
  port: string;
  type: string;
  loadBalancerIP: string;
  selector: string;
  labels: string;
  targetPort: string;
  externalIP: string;
  name: string;
  sessionAffinity: string;
  clusterIP: string;
}

export const expose: Command<ExposeOptions> = {
  path: 'expose',
  short:
    'Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service',
  flags: [
    f('protocol', 'string'),
    f('port', 'string'),
    f('type', 'string'),
    f('load-balancer-ip', 'string'),
    f('selector', 'string'),
    f('labels', 'string', 'l'),
    f('target-port', 'string'),
    f('external-ip', 'string'),
    f('name', 'string'),
    f('session-affinity', 'string'),
    f('cluster-ip', 'string'),
    OUTPUT,
  ],
  complete(fp) {
    if (fp.args.length === 0) throw new CmdError(NO_RESOURCE);
    const s = (name: string) => str(fp.flags[name]) ?? '';
    return {
      verb: 'expose',
      targets: parseTargets(fp.args, false),
      protocol: s('protocol'),
      port: s('port'),
      type: s('type'),
      loadBalancerIP: s('load-balancer-ip'),
      selector: s('selector'),
      labels: s('labels'),
      targetPort: s('target-port'),
      externalIP: s('external-ip'),
      name: s('name'),
      sessionAffinity: s('session-affinity'),
      clusterIP: s('cluster-ip'),
    };
  },
  run: runExpose,
};

// canBeExposed mirrors polymorphichelpers.canBeExposed; the error names the GroupKind.
function canBeExposed(obj: AnyObject): void {
  const group = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0] : '';
  const ok =
    (group === '' && ['ReplicationController', 'Service', 'Pod'].includes(obj.kind)) ||
    (group === 'apps' && ['Deployment', 'ReplicaSet'].includes(obj.kind));
  if (!ok) throw new KubectlError(`cannot expose a ${group ? `${obj.kind}.${group}` : obj.kind}`);
}

/** makeLabels mirrors polymorphichelpers.MakeLabels: `k=v` pairs joined with commas. */
function makeLabels(labels: Record<string, string> | undefined): string {
  return Object.entries(labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

// mapBasedSelectorForObject mirrors polymorphichelpers.mapBasedSelectorForObject.
function mapBasedSelectorForObject(obj: AnyObject): string {
  switch (obj.kind) {
    case 'Pod': {
      const labels = obj.metadata.labels;
      if (!labels || Object.keys(labels).length === 0)
        throw new Error('the pod has no labels and cannot be exposed');
      return makeLabels(labels);
    }
    case 'Service': {
      const sel = (obj as Service).spec.selector;
      if (!sel) throw new Error('the service has no pod selector set');
      return makeLabels(sel);
    }
    case 'Deployment':
    case 'ReplicaSet': {
      const sel = (obj as Deployment | ReplicaSet).spec.selector;
      const what = obj.kind === 'Deployment' ? 'deployment' : 'replicaset';
      if (!sel?.matchLabels || Object.keys(sel.matchLabels).length === 0)
        throw new Error(`invalid ${what}: no selectors, therefore cannot be exposed`);
      if (sel.matchExpressions?.length)
        throw new Error(
          `couldn't convert expressions - "${goExpressions(sel.matchExpressions)}" to map-based selector format`,
        );
      return makeLabels(sel.matchLabels);
    }
    default:
      throw new Error(`cannot extract pod selector from *v1.${obj.kind}`);
  }
}

// goExpressions renders match expressions as Go's %+v prints []metav1.LabelSelectorRequirement.
function goExpressions(exprs: { key: string; operator: string; values?: string[] }[]): string {
  return `[${exprs.map((e) => `{Key:${e.key} Operator:${e.operator} Values:[${(e.values ?? []).join(' ')}]}`).join(' ')}]`;
}

function podSpecOf(obj: AnyObject): PodSpec | undefined {
  if (obj.kind === 'Pod') return (obj as Pod).spec;
  if (obj.kind === 'Deployment' || obj.kind === 'ReplicaSet')
    return (obj as Deployment | ReplicaSet).spec.template.spec;
  return undefined;
}

// portsForObject mirrors polymorphichelpers.portsForObject: container ports (or Service ports),
// duplicates removed, in order.
function portsForObject(obj: AnyObject): string[] {
  const out: string[] = [];
  const add = (n: number) => {
    if (!out.includes(String(n))) out.push(String(n));
  };
  if (obj.kind === 'Service') for (const p of (obj as Service).spec.ports ?? []) add(p.port);
  else
    for (const c of podSpecOf(obj)?.containers ?? [])
      for (const p of c.ports ?? []) add(p.containerPort);
  return out;
}

// protocolsForObject mirrors polymorphichelpers.multiProtocolsForObject: each port's protocols.
function protocolsForObject(obj: AnyObject): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (port: number, protocol: string | undefined) => {
    const k = String(port);
    const list = out.get(k) ?? [];
    if (!list.includes(protocol || 'TCP')) list.push(protocol || 'TCP');
    out.set(k, list);
  };
  if (obj.kind === 'Service')
    for (const p of (obj as Service).spec.ports ?? []) add(p.port, p.protocol);
  else
    for (const c of podSpecOf(obj)?.containers ?? [])
      for (const p of c.ports ?? []) add(p.containerPort, p.protocol);
  return out;
}

// parseLabels mirrors expose's parseLabels: `k=v` pairs, with its errors.
function parseLabels(spec: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of spec.split(',')) {
    const kv = pair.split('=');
    if (kv.length !== 2) throw new KubectlError(`unexpected label spec: ${pair}`);
    if (kv[0] === '') throw new KubectlError('unexpected empty label key');
    out[kv[0]] = kv[1];
  }
  return out;
}

/** atoi mirrors strconv.Atoi, with its error. */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s))
    throw new KubectlError(`strconv.Atoi: parsing "${s}": invalid syntax`);
  return Number(s);
}

interface Derived {
  defaultName: string;
  selector: string;
  port: string;
  ports: string;
  protocols: Map<string, string[]>;
  labels: string;
}

// createService mirrors ExposeServiceOptions.createService.
function createService(o: ExposeOptions, d: Derived): Service {
  if (d.selector === '') throw new KubectlError('selector must be specified');
  const selector = parseLabels(d.selector);
  const labels = d.labels ? parseLabels(d.labels) : undefined;
  const name = o.name || d.defaultName;
  if (!name) throw new KubectlError('name must be specified');
  const portString = d.ports || d.port;
  const ports: ServicePort[] = [];
  if (portString) {
    const list = portString.split(',');
    list.forEach((s, i) => {
      const port = atoi(s);
      const portName = list.length > 1 ? `port-${i + 1}` : '';
      let protocol = o.protocol;
      if (!protocol && d.protocols.size === 0) protocol = 'TCP';
      else if (!protocol) {
        protocol = 'TCP';
        const found = d.protocols.get(s);
        if (found?.length === 1) protocol = found[0];
        else if (found) {
          for (const p of found)
            ports.push({
              name: `port-${i + 1}-${p.toLowerCase()}`,
              port,
              protocol: p as ServicePort['protocol'],
            });
          return;
        }
      }
      ports.push({
        ...(portName ? { name: portName } : {}),
        port,
        protocol: protocol as ServicePort['protocol'],
      });
    });
  }
  // --target-port (intstr.Parse) for every port, else each port's own number.
  for (const p of ports)
    p.targetPort = o.targetPort
      ? /^[+-]?[0-9]+$/.test(o.targetPort)
        ? Number(o.targetPort)
        : o.targetPort
      : p.port;
  const spec: Service['spec'] = { selector, ports };
  if (o.externalIP) spec.externalIPs = [o.externalIP];
  if (o.type) spec.type = o.type as Service['spec']['type'];
  if (spec.type === 'LoadBalancer' && o.loadBalancerIP) spec.loadBalancerIP = o.loadBalancerIP;
  if (o.sessionAffinity) {
    if (o.sessionAffinity !== 'None' && o.sessionAffinity !== 'ClientIP')
      throw new KubectlError(`unknown session affinity: ${o.sessionAffinity}`);
    spec.sessionAffinity = o.sessionAffinity;
  }
  if (o.clusterIP) spec.clusterIP = o.clusterIP;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, ...(labels ? { labels } : {}) } as Service['metadata'],
    spec,
    status: {},
  };
}

// runExpose mirrors RunExpose: the builder GETs each object (ResourceTypeOrNameArgs), then for
// each a Service is derived and POSTed; the first error ends the command.
function runExpose(r: Run, cmd: ExposeOptions & Common): void {
  const ns = r.ns(cmd);
  if (cmd.targets.form === 'types' && cmd.targets.names.length === 0)
    throw new KubectlError('resource(s) were provided, but no name was specified');
  for (const { obj } of objectsFor(r, cmd.targets, ns)) {
    canBeExposed(obj);
    const d: Derived = {
      defaultName: obj.metadata.name.slice(0, 63),
      selector: cmd.selector,
      port: cmd.port,
      ports: '',
      protocols: new Map(),
      labels: cmd.labels,
    };
    if (!d.selector) {
      try {
        d.selector = mapBasedSelectorForObject(obj);
      } catch (e) {
        throw new KubectlError(
          `couldn't retrieve selectors via --selector flag or introspection: ${(e as Error).message}`,
        );
      }
    }
    if (!d.port) {
      const ports = portsForObject(obj);
      if (ports.length === 0 && cmd.clusterIP !== 'None')
        throw new KubectlError("couldn't find port via --port flag or introspection");
      if (ports.length === 1) d.port = ports[0];
      else if (ports.length > 1) d.ports = ports.join(',');
    }
    d.protocols = protocolsForObject(obj);
    if (!d.labels) d.labels = makeLabels(obj.metadata.labels);
    const svc = createService(cmd, d);
    svc.metadata.namespace = ns;
    const created = r.client.create('services' as ResourceName, svc);
    r.out(namePrint(typeOf('services'), created.metadata.name, 'exposed'));
  }
}

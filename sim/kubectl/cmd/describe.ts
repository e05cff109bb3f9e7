// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go: `kubectl describe` finds the
// objects and hands each to its describer (pkg/describe/describe.go, in ../describe.ts).

import type { PodDisruptionBudget } from '../../api/types.ts';
import { describePodDisruptionBudget } from '../../registry/policy/poddisruptionbudgets/printers.ts';
import type {
  AnyObject,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Event,
  Lease,
  Namespace,
  Node,
  Pod,
  ReplicaSet,
  Service,
  ServiceAccount,
  ConfigMap,
} from '../../api/types.ts';
import { qualifiedResource, type APIResource } from '../../apiserver/discovery.ts';
import {
  ALL_NS,
  bool,
  CmdError,
  f,
  FILENAME,
  parseTargets,
  SELECTOR,
  str,
  type Command,
  type Common,
  type Targets,
} from '../cmdutil.ts';
import {
  describeDaemonSet,
  describeDeployment,
  describeEndpointSlice,
  describeNamespace,
  describeNode,
  describePod,
  describeReplicaSet,
  describeService,
  podStatusCounts,
  type NodeLeaseInput,
} from '../describe.ts';
import { isNotFound, isStatusError, KubectlError } from '../errors.ts';
import { describeServiceAccount } from '../../registry/core/serviceaccounts/printers.ts';
import { describeConfigMap } from '../../registry/core/configmaps/printers.ts';
import { labelSelectorOf, replicaSetsOf, typeOf, type Run } from '../run.ts';

export interface DescribeOptions {
  verb: 'describe';
  targets: Targets;
  allNamespaces: boolean;
  selector?: string;
  showEvents: boolean;
}

export const describe: Command<DescribeOptions> = {
  path: 'describe',
  short: 'Show details of a specific resource or group of resources',
  flags: [SELECTOR, ALL_NS, FILENAME, f('show-events', 'bool')],
  complete(fp) {
    const args = fp.args;
    if (args.length === 0)
      throw new CmdError(
        'You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n',
      );
    return {
      verb: 'describe',
      targets: parseTargets(args),
      allNamespaces: bool(fp.flags['all-namespaces']),
      selector: str(fp.flags.selector),
      showEvents: fp.flags['show-events'] !== false,
    };
  },
  run: runDescribe,
};

function eventsFor(r: Run, obj: AnyObject, kindFilter: boolean): Event[] {
  const ns = obj.metadata.namespace;
  const t = typeOf('events');
  const all = r.list<Event>(t, ns);
  return all.filter((e) => {
    const io = e.involvedObject ?? {};
    if (io.name !== obj.metadata.name) return false;
    if (ns && (io.namespace ?? e.metadata.namespace) !== ns) return false;
    if (kindFilter && io.kind && io.kind !== obj.kind) return false;
    if (
      io.uid &&
      io.uid !== obj.metadata.uid &&
      !(obj.kind === 'Node' && io.uid === obj.metadata.name)
    )
      return false;
    return true;
  });
}

function describeObject(r: Run, type: APIResource, obj: AnyObject, showEvents: boolean): string {
  const now = r.now();
  const events = (kindFilter: boolean) => (showEvents ? eventsFor(r, obj, kindFilter) : []);
  switch (type.resource) {
    case 'pods':
      return describePod(obj as Pod, events(false), now);
    case 'nodes': {
      const node = obj as Node;
      const pods = r
        .list<Pod>(typeOf('pods'), undefined, undefined, node.metadata.name)
        .filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
      let lease: NodeLeaseInput;
      try {
        lease = { lease: r.get<Lease>(typeOf('leases'), 'kube-node-lease', node.metadata.name) };
      } catch (e) {
        lease = { error: isStatusError(e) ? e.status.message : (e as Error).message };
      }
      return describeNode(node, pods, events(true), lease, now);
    }
    case 'deployments': {
      const d = obj as Deployment;
      const { oldRSs, newRS } = replicaSetsOf(r, d);
      return describeDeployment(d, oldRSs, newRS, events(true), now);
    }
    case 'replicasets': {
      const rs = obj as ReplicaSet;
      const pods = r.list<Pod>(
        typeOf('pods'),
        rs.metadata.namespace,
        labelSelectorOf(rs.spec.selector),
      );
      return describeReplicaSet(rs, podStatusCounts(pods, rs.metadata.uid), events(true), now);
    }
    case 'services': {
      const svc = obj as Service;
      const slices = r
        .list<EndpointSlice>(typeOf('endpointslices'), svc.metadata.namespace)
        .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name);
      return describeService(svc, slices, events(true), now);
    }
    case 'daemonsets': {
      const ds = obj as DaemonSet;
      const pods = r.list<Pod>(
        typeOf('pods'),
        ds.metadata.namespace,
        labelSelectorOf(ds.spec.selector),
      );
      return describeDaemonSet(ds, podStatusCounts(pods, ds.metadata.uid), events(true), now);
    }
    case 'namespaces':
      return describeNamespace(obj as Namespace);
    case 'endpointslices':
      return describeEndpointSlice(obj as EndpointSlice, events(true), now);
    case 'serviceaccounts':
      return describeServiceAccount(
        obj as ServiceAccount,
        showEvents ? events(true) : undefined,
        now,
      );
    case 'configmaps':
      return describeConfigMap(obj as ConfigMap, showEvents ? events(true) : undefined, now);
    case 'poddisruptionbudgets':
      return describePodDisruptionBudget(obj as PodDisruptionBudget, events(true), now);
    default:
      // Simplification: the generic describer (events, leases, componentstatuses) is not modelled.
      throw new KubectlError(
        `describe is not supported for ${qualifiedResource(type)} in this simulator; use kubectl get ${type.resource} -o yaml`,
      );
  }
}

function runDescribe(r: Run, cmd: DescribeOptions & Common): void {
  const ns = r.ns(cmd);
  const selector = r.selector(cmd.selector);
  const found: { type: APIResource; obj: AnyObject }[] = [];
  const errors: unknown[] = [];
  const targets = cmd.targets;
  if (targets.form === 'types' && targets.names.length === 0) {
    for (const type of targets.types) {
      try {
        for (const obj of r.list(type, cmd.allNamespaces ? undefined : ns, selector))
          found.push({ type, obj });
      } catch (e) {
        errors.push(e);
      }
    }
  } else {
    for (const { type, name } of r.resolveNamed(targets)) {
      try {
        found.push({ type, obj: r.get(type, ns, name) });
      } catch (e) {
        // DescribeMatchingResources: `describe TYPE NAME` falls back to a name prefix match.
        if (
          isNotFound(e) &&
          targets.form === 'types' &&
          targets.types.length === 1 &&
          targets.names.length === 1
        ) {
          const matches = r.list(type, ns).filter((o) => o.metadata.name.startsWith(name));
          if (matches.length > 0) {
            for (const obj of matches) found.push({ type, obj });
            continue;
          }
        }
        errors.push(e);
      }
    }
  }
  let first = true;
  for (const { type, obj } of found) {
    try {
      const s = describeObject(r, type, obj, cmd.showEvents);
      r.out(first ? s : `\n\n${s}`);
      first = false;
    } catch (e) {
      errors.push(e);
    }
  }
  if (found.length === 0 && errors.length === 0)
    r.stderr += cmd.allNamespaces
      ? 'No resources found\n'
      : `No resources found in ${ns} namespace.\n`;
  for (const e of errors) r.fail(e);
}

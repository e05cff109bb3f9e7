// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go: `kubectl describe` finds the
// objects and hands each to its describer (pkg/describe/describe.go, in ../describe.ts).

import type { AnyObject, Event, LabelSelector } from '../../api/types.ts';
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
import { isNotFound, KubectlError } from '../errors.ts';
import type { DescribeContext, ObjectLister } from '../../registry/rules.ts';
import { typeOf, type Run } from '../run.ts';

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

// describeObject runs the kind's describer (its discovery row points at it) with what it reads.
function describeObject(r: Run, type: APIResource, obj: AnyObject, showEvents: boolean): string {
  const describer = type.rules.describe;
  if (!describer)
    // Simplification: the generic describer (events, leases, componentstatuses) is not modelled.
    throw new KubectlError(
      `describe is not supported for ${qualifiedResource(type)} in this simulator; use kubectl get ${type.resource} -o yaml`,
    );
  return describer(new RunDescribeContext(r, obj, showEvents), obj);
}

// RunDescribeContext is a describer's view of the run: the clock, the object's events, lists.
class RunDescribeContext implements DescribeContext {
  readonly now: number;
  private readonly r: Run;
  private readonly obj: AnyObject;
  private readonly showEvents: boolean;
  private readonly lister: ObjectLister;
  constructor(r: Run, obj: AnyObject, showEvents: boolean) {
    this.r = r;
    this.obj = obj;
    this.showEvents = showEvents;
    this.now = r.now();
    this.lister = r.lister();
  }
  events(kindFilter: boolean): Event[] {
    return this.showEvents ? eventsFor(this.r, this.obj, kindFilter) : [];
  }
  list<T extends AnyObject>(
    resource: string,
    namespace: string | undefined,
    selector?: LabelSelector,
    nodeName?: string,
  ): T[] {
    return this.lister.list<T>(resource, namespace, selector, nodeName);
  }
  get<T extends AnyObject>(resource: string, namespace: string, name: string): T {
    return this.lister.get<T>(resource, namespace, name);
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

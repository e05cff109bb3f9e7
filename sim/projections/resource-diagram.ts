// The resource diagram: the kinds of object a run produced, a few key fields each with the values
// the objects actually hold, and the references between them (ownerReferences, labels, targetRef,
// spec.nodeName). A relation is drawn only if at least one object in the input makes it.

import type {
  AnyObject,
  Deployment,
  EndpointSlice,
  KubeObject,
  Lease,
  Node,
  Pod,
  ReplicaSet,
  ResourceName,
  Service,
} from '../api/types.ts';
import { accLines, naturalCompare, plural } from './util.ts';

export interface ResourceDiagramOptions {
  /**
   * namespace keeps only namespaced objects in this namespace; Nodes are kept, and node Leases
   * (kube-node-lease) are kept for the Nodes shown. Default: every namespace.
   */
  namespace?: string;
  /** kinds lists the classes to draw; default all of CLASS_KINDS. */
  kinds?: string[];
  /**
   * multiplicity: "api" (default) writes what the API allows ("1" to "*"); "observed" writes the
   * range found in the objects ("1" to "3").
   */
  multiplicity?: 'api' | 'observed';
  /** maxValues caps the distinct values listed per field; default 3. */
  maxValues?: number;
  title?: string;
  description?: string;
}

export interface ResourceField {
  name: string;
  /**
   * values are the distinct values the objects hold, in object order, capped at maxValues. A value
   * that is itself a list (taints, ports) joins its items with " + ".
   */
  values: string[];
  /** more counts the distinct values left out. */
  more: number;
}

export interface ResourceClass {
  name: string;
  count: number;
  objects: string[];
  fields: ResourceField[];
}

export interface ResourceRelation {
  from: string;
  to: string;
  fromMultiplicity: string;
  toMultiplicity: string;
  /** label names the reference: "ownerReferences", "targetRef", "spec.nodeName", ... */
  label: string;
  /** links counts the object pairs that make the relation. */
  links: number;
}

export interface ResourceDiagram {
  title: string;
  description: string;
  classes: ResourceClass[];
  relations: ResourceRelation[];
  mermaid: string;
}

/** CLASS_KINDS are the kinds drawn, in order. */
export const CLASS_KINDS = [
  'Deployment',
  'ReplicaSet',
  'Pod',
  'Service',
  'EndpointSlice',
  'Node',
  'Lease',
];

type Objects = Partial<Record<ResourceName, AnyObject[]>> | AnyObject[];

interface RelationDef {
  from: string;
  to: string;
  api: [string, string];
  label: string;
  /** targets lists, for one object of `from`, the objects of `to` it refers to (or is referred by). */
  targets: (o: KubeObject, all: Map<string, KubeObject[]>) => KubeObject[];
}

const sameNs = (a: KubeObject, b: KubeObject) =>
  (a.metadata.namespace ?? '') === (b.metadata.namespace ?? '');
const owns = (owner: KubeObject, o: KubeObject) =>
  (o.metadata.ownerReferences ?? []).some(
    (r) =>
      r.kind === owner.kind &&
      (r.uid === owner.metadata.uid || (r.name === owner.metadata.name && sameNs(owner, o))),
  );

const RELATIONS: RelationDef[] = [
  {
    from: 'Deployment',
    to: 'ReplicaSet',
    api: ['1', '*'],
    label: 'ownerReferences',
    targets: (d, all) => (all.get('ReplicaSet') ?? []).filter((rs) => owns(d, rs)),
  },
  {
    from: 'ReplicaSet',
    to: 'Pod',
    api: ['1', '*'],
    label: 'ownerReferences',
    targets: (rs, all) => (all.get('Pod') ?? []).filter((p) => owns(rs, p)),
  },
  {
    from: 'Service',
    to: 'EndpointSlice',
    api: ['1', '*'],
    label: 'kubernetes.io/service-name',
    targets: (svc, all) =>
      (all.get('EndpointSlice') ?? []).filter(
        (s) =>
          sameNs(svc, s) &&
          (s.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name || owns(svc, s)),
      ),
  },
  {
    from: 'EndpointSlice',
    to: 'Pod',
    api: ['*', '*'],
    label: 'targetRef',
    targets: (s, all) => {
      const refs = (s as EndpointSlice).endpoints
        .map((e) => e.targetRef)
        .filter((r) => r?.kind === 'Pod');
      return (all.get('Pod') ?? []).filter((p) =>
        refs.some(
          (r) =>
            r!.name === p.metadata.name &&
            (r!.namespace ?? s.metadata.namespace) === p.metadata.namespace,
        ),
      );
    },
  },
  {
    from: 'Pod',
    to: 'Node',
    api: ['*', '1'],
    label: 'spec.nodeName',
    targets: (p, all) =>
      (all.get('Node') ?? []).filter((n) => (p as Pod).spec.nodeName === n.metadata.name),
  },
  {
    from: 'Lease',
    to: 'Node',
    api: ['1', '1'],
    label: 'ownerReferences',
    targets: (l, all) =>
      (all.get('Node') ?? []).filter(
        (n) =>
          l.metadata.namespace === 'kube-node-lease' &&
          (l.metadata.name === n.metadata.name || owns(n, l)),
      ),
  },
];

function flatten(objects: Objects): KubeObject[] {
  if (Array.isArray(objects)) return objects;
  return Object.values(objects).flatMap((v) => v ?? []);
}

function fieldsOf(kind: string, o: KubeObject): [string, string][] {
  switch (kind) {
    case 'Deployment': {
      const d = o as Deployment;
      const st = d.spec.strategy;
      const ru = st?.rollingUpdate;
      const type = st?.type ?? 'RollingUpdate';
      const strategy =
        type === 'RollingUpdate'
          ? `RollingUpdate maxSurge=${ru?.maxSurge ?? '25%'} maxUnavailable=${ru?.maxUnavailable ?? '25%'}`
          : type;
      return [
        ['replicas', String(d.spec.replicas ?? 1)],
        ['strategy', strategy],
        ['readyReplicas', String(d.status?.readyReplicas ?? 0)],
      ];
    }
    case 'ReplicaSet': {
      const rs = o as ReplicaSet;
      return [
        ['replicas', String(rs.spec.replicas ?? 1)],
        ['readyReplicas', String(rs.status?.readyReplicas ?? 0)],
        ['pod-template-hash', rs.metadata.labels?.['pod-template-hash'] ?? 'none'],
      ];
    }
    case 'Pod': {
      const p = o as Pod;
      return [
        ['nodeName', p.spec.nodeName ?? 'none'],
        ['phase', p.status?.phase ?? 'none'],
        ['podIP', p.status?.podIP ?? 'none'],
      ];
    }
    case 'Service': {
      const s = o as Service;
      const sel = Object.entries(s.spec.selector ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(' + ');
      return [
        ['type', s.spec.type ?? 'ClusterIP'],
        ['clusterIP', s.spec.clusterIP ?? 'none'],
        ['selector', sel || 'none'],
        [
          'ports',
          (s.spec.ports ?? []).map((p) => `${p.port}/${p.protocol ?? 'TCP'}`).join(' + ') || 'none',
        ],
      ];
    }
    case 'EndpointSlice': {
      const s = o as EndpointSlice;
      return [
        ['addressType', s.addressType],
        ['endpoints', String(s.endpoints.length)],
        ['ready', String(s.endpoints.filter((e) => e.conditions.ready).length)],
      ];
    }
    case 'Node': {
      const n = o as Node;
      const ready = n.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
      const taints = (n.spec.taints ?? []).map((t) => `${t.key}:${t.effect}`).join(' + ');
      return [
        ['Ready', ready],
        ['podCIDR', n.spec.podCIDR ?? 'none'],
        ['taints', taints || 'none'],
      ];
    }
    case 'Lease': {
      const l = o as Lease;
      return [
        ['holderIdentity', l.spec.holderIdentity ?? 'none'],
        ['leaseDurationSeconds', String(l.spec.leaseDurationSeconds ?? 'none')],
      ];
    }
    default:
      return [];
  }
}

function multiplicity(counts: number[]): string {
  if (counts.length === 0) return '0';
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  return lo === hi ? String(lo) : `${lo}..${hi}`;
}

/** resourceDiagram projects objects (e.g. `RunResult.objects`) onto a class diagram. */
export function resourceDiagram(
  objects: Objects,
  opts: ResourceDiagramOptions = {},
): ResourceDiagram {
  const kinds = (opts.kinds ?? CLASS_KINDS).filter((k) => CLASS_KINDS.includes(k));
  const maxValues = opts.maxValues ?? 3;
  let all = flatten(objects).filter((o) => kinds.includes(o.kind));
  if (opts.namespace !== undefined) {
    const ns = opts.namespace;
    const nodes = new Set(all.filter((o) => o.kind === 'Node').map((o) => o.metadata.name));
    all = all.filter((o) => {
      if (o.metadata.namespace === undefined) return true;
      if (o.kind === 'Lease' && o.metadata.namespace === 'kube-node-lease')
        return nodes.has(o.metadata.name);
      return o.metadata.namespace === ns;
    });
  }
  const byKind = new Map<string, KubeObject[]>();
  for (const k of kinds) byKind.set(k, []);
  for (const o of all) byKind.get(o.kind)!.push(o);
  for (const list of byKind.values())
    list.sort((a, b) =>
      naturalCompare(
        `${a.metadata.namespace ?? ''}/${a.metadata.name}`,
        `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
      ),
    );

  const classes: ResourceClass[] = [];
  for (const k of kinds) {
    const list = byKind.get(k)!;
    if (list.length === 0) continue;
    const fieldNames: string[] = [];
    const values = new Map<string, string[]>();
    const add = (name: string, v: string) => {
      if (!values.has(name)) {
        values.set(name, []);
        fieldNames.push(name);
      }
      const vs = values.get(name)!;
      if (!vs.includes(v)) vs.push(v);
    };
    for (const o of list)
      add(
        'name',
        o.metadata.namespace && opts.namespace === undefined
          ? `${o.metadata.namespace}/${o.metadata.name}`
          : o.metadata.name,
      );
    for (const o of list) for (const [n, v] of fieldsOf(k, o)) add(n, v);
    classes.push({
      name: k,
      count: list.length,
      objects: list.map((o) =>
        o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name,
      ),
      fields: fieldNames.map((n) => {
        const vs = values.get(n)!;
        return {
          name: n,
          values: vs.slice(0, maxValues),
          more: Math.max(0, vs.length - maxValues),
        };
      }),
    });
  }

  const relations: ResourceRelation[] = [];
  for (const r of RELATIONS) {
    const froms = byKind.get(r.from) ?? [];
    const tos = byKind.get(r.to) ?? [];
    if (!froms.length || !tos.length) continue;
    const perFrom = froms.map((f) => r.targets(f, byKind));
    const links = perFrom.reduce((n, ts) => n + ts.length, 0);
    if (links === 0) continue;
    const perTo = tos.map((t) => perFrom.filter((ts) => ts.includes(t)).length);
    const observed: [string, string] = [
      multiplicity(perTo),
      multiplicity(perFrom.map((ts) => ts.length)),
    ];
    const [fm, tm] = opts.multiplicity === 'observed' ? observed : r.api;
    relations.push({
      from: r.from,
      to: r.to,
      fromMultiplicity: fm,
      toMultiplicity: tm,
      label: r.label,
      links,
    });
  }

  const title =
    opts.title ??
    `Objects and the references between them${opts.namespace !== undefined ? ` (namespace ${opts.namespace})` : ''}`;
  const description =
    opts.description ??
    `${classes.map((c) => plural(c.count, c.name)).join(', ')}. ` +
      relations
        .map((r) => `${r.from} to ${r.to} through ${r.label} (${plural(r.links, 'link')})`)
        .join('; ') +
      '.';
  const lines = ['classDiagram', ...accLines(title, description)];
  for (const c of classes) {
    lines.push(`  class ${c.name} {`);
    for (const f of c.fields)
      lines.push(
        `    ${memberText(`${f.name}: ${f.values.join(', ')}${f.more ? `, +${f.more} more` : ''}`)}`,
      );
    lines.push('  }');
  }
  for (const r of relations)
    lines.push(
      `  ${r.from} "${r.fromMultiplicity}" --> "${r.toMultiplicity}" ${r.to} : ${memberText(r.label)}`,
    );
  return { title, description, classes, relations, mermaid: `${lines.join('\n')}\n` };
}

/**
 * memberText keeps a class member literal: Mermaid reads "(" as a method, "~" as a generic, and
 * braces as the end of the class body, so those are replaced.
 */
function memberText(s: string): string {
  return s
    .replace(/[(){}~]/g, ' ')
    .replace(/[\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

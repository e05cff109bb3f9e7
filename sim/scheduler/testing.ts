// Mirrors pkg/scheduler/testing/wrappers.go (MakePod, MakeNode): builders for the scheduler's tests.

import type { Container, Node, Pod, Taint, Toleration } from '../api/types.ts';

let uidSeq = 0;

/** PodOptions are the fields the scheduler's tests vary. */
export interface PodOptions {
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  /** requests per container, e.g. [{ cpu: '500m', memory: '1Gi' }]; {} means none. */
  requests?: Record<string, string>[];
  image?: string;
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  priority?: number;
  hostPorts?: number[];
  spec?: Partial<Pod['spec']>;
  ownerReplicaSet?: string;
}

/** makePod builds a Pod as kube-apiserver would store it (uid set, defaults omitted). */
export function makePod(name: string, o: PodOptions = {}): Pod {
  const requests = o.requests ?? [{}];
  const containers: Container[] = requests.map((r, i) => ({
    name: `c${i}`,
    image: o.image ?? 'nginx:1.27',
    resources: Object.keys(r).length ? { requests: r } : {},
    ports:
      i === 0 && o.hostPorts
        ? o.hostPorts.map((p) => ({ containerPort: p, hostPort: p, protocol: 'TCP' as const }))
        : undefined,
  }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: o.uid ?? `uid-${name}-${++uidSeq}`,
      resourceVersion: '1',
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: o.labels,
      ownerReferences: o.ownerReplicaSet
        ? [
            {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              name: o.ownerReplicaSet,
              uid: `rs-${o.ownerReplicaSet}`,
              controller: true,
            },
          ]
        : undefined,
    },
    spec: {
      containers,
      nodeName: o.nodeName,
      nodeSelector: o.nodeSelector,
      tolerations: o.tolerations,
      priority: o.priority ?? 0,
      schedulerName: 'default-scheduler',
      ...o.spec,
    },
    status: { phase: 'Pending' },
  };
}

/** NodeOptions are the fields the scheduler's tests vary. */
export interface NodeOptions {
  cpu?: string;
  memory?: string;
  pods?: string;
  ephemeralStorage?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
  zone?: string;
}

/** makeNode builds a Node with allocatable resources and the hostname label. */
export function makeNode(name: string, o: NodeOptions = {}): Node {
  const allocatable: Record<string, string> = {
    cpu: o.cpu ?? '4',
    memory: o.memory ?? '8Gi',
    pods: o.pods ?? '110',
  };
  if (o.ephemeralStorage) allocatable['ephemeral-storage'] = o.ephemeralStorage;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `uid-node-${name}`,
      resourceVersion: '1',
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: {
        'kubernetes.io/hostname': name,
        ...(o.zone ? { 'topology.kubernetes.io/zone': o.zone } : {}),
        ...o.labels,
      },
    },
    spec: { taints: o.taints, unschedulable: o.unschedulable },
    status: { capacity: allocatable, allocatable, images: o.images },
  };
}

// Builders for kubectl's tests: API objects as kube-apiserver would return them, with fixed
// timestamps (virtual milliseconds rendered by formatTime) so that golden output is stable.

import type {
  ContainerStatus,
  Deployment,
  EndpointSlice,
  Event,
  Lease,
  Node,
  Pod,
  ReplicaSet,
  Service,
} from '../api/types.ts';
import { formatMicroTime, formatTime } from '../engine/clock.ts';
import { Rng } from '../engine/rng.ts';
import { mountServiceAccountToken } from '../apiserver/serviceaccount-admission.ts';

/** at renders virtual seconds as a metav1.Time string. */
export function at(seconds: number): string {
  return formatTime(seconds * 1000);
}

export interface PodOptions {
  namespace?: string;
  node?: string;
  ip?: string;
  created?: number;
  phase?: Pod['status']['phase'];
  labels?: Record<string, string>;
  containers?: {
    name: string;
    image: string;
    requests?: Record<string, string>;
    limits?: Record<string, string>;
    ports?: number[];
  }[];
  statuses?: Partial<ContainerStatus>[];
  initContainers?: { name: string; image: string; restartPolicy?: 'Always' }[];
  initStatuses?: Partial<ContainerStatus>[];
  conditions?: [string, 'True' | 'False' | 'Unknown', string?][];
  deleted?: number;
  reason?: string;
  owner?: { kind: string; name: string; uid: string };
  tolerations?: Pod['spec']['tolerations'];
  nominatedNodeName?: string;
  /**
   * tokenVolume names the kube-api-access-* volume the ServiceAccount admission plugin adds, with
   * its mount in every container, as on every Pod of a real cluster (absent: no volume).
   */
  tokenVolume?: string;
}

// mountTokenVolume adds the volume and mounts serviceaccount-admission.ts adds, with a fixed name.
function mountTokenVolume(pod: Pod, name: string): void {
  mountServiceAccountToken(pod, new Rng(1));
  const generated = pod.spec.volumes!.at(-1)!.name;
  pod.spec.volumes = pod.spec.volumes!.map((v) => (v.name === generated ? { ...v, name } : v));
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers])
    c.volumeMounts = c.volumeMounts?.map((m) => (m.name === generated ? { ...m, name } : m));
}

/** newPod builds a Pod; by default a Running nginx Pod with one ready container. */
export function newPod(name: string, o: PodOptions = {}): Pod {
  const containers = (o.containers ?? [{ name: 'nginx', image: 'nginx:1.25' }]).map((c) => ({
    name: c.name,
    image: c.image,
    imagePullPolicy: 'IfNotPresent' as const,
    ports: c.ports?.map((p) => ({ containerPort: p, protocol: 'TCP' as const })),
    resources: {
      ...(c.requests ? { requests: c.requests } : {}),
      ...(c.limits ? { limits: c.limits } : {}),
    },
  }));
  const created = o.created ?? 0;
  const statuses: ContainerStatus[] = (o.statuses ?? containers.map(() => ({}))).map((s, i) => ({
    name: containers[i]?.name ?? `c${i}`,
    state: { running: { startedAt: at(created + 5) } },
    lastState: {},
    ready: true,
    restartCount: 0,
    image: containers[i]?.image ?? '',
    imageID: `docker.io/library/${containers[i]?.image ?? ''}@sha256:0123456789abcdef`,
    containerID: `containerd://${'a'.repeat(16)}${i}`,
    started: true,
    ...s,
  }));
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: `uid-${name}`,
      resourceVersion: '100',
      creationTimestamp: at(created),
      labels: o.labels ?? { app: 'web' },
    },
    spec: {
      containers,
      nodeName: o.node,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      schedulerName: 'default-scheduler',
      priority: 0,
      tolerations: o.tolerations ?? [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    },
    status: {
      phase: o.phase ?? 'Running',
      conditions: (
        o.conditions ?? [
          ['PodReadyToStartContainers', 'True'],
          ['Initialized', 'True'],
          ['Ready', 'True'],
          ['ContainersReady', 'True'],
          ['PodScheduled', 'True'],
        ]
      ).map(([type, status, reason]) => ({
        type,
        status,
        lastProbeTime: null,
        lastTransitionTime: at(created + 5),
        ...(reason ? { reason } : {}),
      })),
      qosClass: 'BestEffort',
    },
  };
  if (o.node) {
    pod.status.hostIP = '10.0.0.11';
    pod.status.hostIPs = [{ ip: '10.0.0.11' }];
    pod.status.startTime = at(created + 1);
  }
  if (o.ip) {
    pod.status.podIP = o.ip;
    pod.status.podIPs = [{ ip: o.ip }];
  }
  if (o.statuses !== undefined || o.phase === undefined || o.phase === 'Running')
    pod.status.containerStatuses = statuses;
  if (o.initContainers) {
    pod.spec.initContainers = o.initContainers.map((c) => ({
      name: c.name,
      image: c.image,
      restartPolicy: c.restartPolicy,
    }));
    pod.status.initContainerStatuses = (o.initStatuses ?? []).map((s, i) => ({
      name: o.initContainers![i].name,
      state: {},
      lastState: {},
      ready: false,
      restartCount: 0,
      image: o.initContainers![i].image,
      imageID: '',
      ...s,
    }));
  }
  if (o.deleted !== undefined) {
    pod.metadata.deletionTimestamp = at(o.deleted);
    pod.metadata.deletionGracePeriodSeconds = 30;
  }
  if (o.reason) pod.status.reason = o.reason;
  if (o.nominatedNodeName) pod.status.nominatedNodeName = o.nominatedNodeName;
  if (o.tokenVolume) mountTokenVolume(pod, o.tokenVolume);
  if (o.owner)
    pod.metadata.ownerReferences = [
      { apiVersion: 'apps/v1', ...o.owner, controller: true, blockOwnerDeletion: true },
    ];
  return pod;
}

export interface NodeOptions {
  ready?: 'True' | 'False' | 'Unknown' | 'none';
  unschedulable?: boolean;
  roles?: string[];
  created?: number;
  ip?: string;
  taints?: Node['spec']['taints'];
  cpu?: string;
  memory?: string;
  heartbeat?: number;
}

/** newNode builds a Node as a kubelet registers it: v1.34.1, containerd, Ubuntu. */
export function newNode(name: string, o: NodeOptions = {}): Node {
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
  };
  for (const r of o.roles ?? []) labels[`node-role.kubernetes.io/${r}`] = '';
  const hb = at(o.heartbeat ?? 0);
  const cond = (
    type: string,
    status: 'True' | 'False' | 'Unknown',
    reason: string,
    message: string,
  ) => ({
    type,
    status,
    lastHeartbeatTime: hb,
    lastTransitionTime: at(-60),
    reason,
    message,
  });
  const conditions = [
    cond(
      'MemoryPressure',
      'False',
      'KubeletHasSufficientMemory',
      'kubelet has sufficient memory available',
    ),
    cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
  ];
  const ready = o.ready ?? 'True';
  if (ready === 'True')
    conditions.push(cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'));
  else if (ready === 'False')
    conditions.push(
      cond('Ready', 'False', 'KubeletNotReady', 'container runtime network not ready'),
    );
  else if (ready === 'Unknown')
    conditions.push(
      cond('Ready', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'),
    );
  const ip = o.ip ?? '10.0.0.11';
  const capacity = {
    cpu: o.cpu ?? '4',
    'ephemeral-storage': '61202244Ki',
    memory: o.memory ?? '8Gi',
    pods: '110',
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `uid-${name}`,
      resourceVersion: '50',
      creationTimestamp: at(o.created ?? -60),
      labels,
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      podCIDR: '10.244.1.0/24',
      podCIDRs: ['10.244.1.0/24'],
      unschedulable: o.unschedulable,
      taints: o.taints,
    },
    status: {
      capacity,
      allocatable: { ...capacity },
      conditions,
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        machineID: 'f0c1d2e3a4b5c6d7e8f9a0b1c2d3e4f5',
        systemUUID: 'f0c1d2e3-a4b5-c6d7-e8f9-a0b1c2d3e4f5',
        bootID: '0e1d2c3b-4a59-6877-8695-a4b3c2d1e0f9',
        kernelVersion: '6.8.0-51-generic',
        osImage: 'Ubuntu 24.04.1 LTS',
        containerRuntimeVersion: 'containerd://2.1.4',
        kubeletVersion: 'v1.34.1',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

/** newDeployment builds a Deployment with status as the controller writes it. */
export function newDeployment(
  name: string,
  replicas: number,
  o: {
    ready?: number;
    updated?: number;
    available?: number;
    image?: string;
    created?: number;
  } = {},
): Deployment {
  const ready = o.ready ?? replicas;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '200',
      generation: 1,
      creationTimestamp: at(o.created ?? 0),
      labels: { app: name },
      annotations: { 'deployment.kubernetes.io/revision': '1' },
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: o.image ?? 'nginx:1.25',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              resources: {},
            },
          ],
        },
      },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
      },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 1,
      replicas,
      updatedReplicas: o.updated ?? replicas,
      readyReplicas: ready,
      availableReplicas: o.available ?? ready,
      unavailableReplicas: replicas - (o.available ?? ready),
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
          lastUpdateTime: at(10),
          lastTransitionTime: at(10),
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${name}-5d78c9b8f7" has successfully progressed.`,
          lastUpdateTime: at(10),
          lastTransitionTime: at(1),
        },
      ],
    },
  };
}

/** newReplicaSet builds a Deployment's ReplicaSet with the given hash and revision. */
export function newReplicaSet(
  deploy: Deployment,
  hash: string,
  replicas: number,
  revision: number,
  image?: string,
): ReplicaSet {
  const labels = { ...(deploy.spec.template.metadata?.labels ?? {}), 'pod-template-hash': hash };
  const template = JSON.parse(
    JSON.stringify(deploy.spec.template),
  ) as Deployment['spec']['template'];
  template.metadata = { ...(template.metadata ?? {}), labels };
  if (image) template.spec.containers[0].image = image;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${deploy.metadata.name}-${hash}`,
      namespace: deploy.metadata.namespace,
      uid: `uid-rs-${hash}`,
      resourceVersion: '210',
      generation: 1,
      creationTimestamp: at(revision),
      labels,
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(deploy.spec.replicas),
        'deployment.kubernetes.io/max-replicas': String((deploy.spec.replicas ?? 0) + 1),
        'deployment.kubernetes.io/revision': String(revision),
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: deploy.metadata.name,
          uid: deploy.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      replicas,
      selector: {
        matchLabels: { ...(deploy.spec.selector.matchLabels ?? {}), 'pod-template-hash': hash },
      },
      template,
    },
    status: {
      replicas,
      fullyLabeledReplicas: replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
      observedGeneration: 1,
    },
  };
}

/** newService builds a ClusterIP Service selecting app=name. */
export function newService(
  name: string,
  port: number,
  o: { type?: Service['spec']['type']; nodePort?: number; clusterIP?: string } = {},
): Service {
  const ip = o.clusterIP ?? '10.96.120.15';
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-svc-${name}`,
      resourceVersion: '300',
      creationTimestamp: at(0),
      labels: { app: name },
    },
    spec: {
      type: o.type ?? 'ClusterIP',
      selector: { app: name },
      ports: [
        {
          protocol: 'TCP',
          port,
          targetPort: port,
          ...(o.nodePort ? { nodePort: o.nodePort } : {}),
        },
      ],
      clusterIP: ip,
      clusterIPs: [ip],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ...(o.type === 'NodePort' || o.type === 'LoadBalancer'
        ? { externalTrafficPolicy: 'Cluster' as const }
        : {}),
    },
    status: { loadBalancer: {} },
  };
}

/** newEndpointSlice builds the EndpointSlice of a Service with one address per endpoint. */
export function newEndpointSlice(
  service: string,
  port: number,
  addresses: string[],
  notReady: string[] = [],
): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${service}-abcde`,
      namespace: 'default',
      uid: `uid-eps-${service}`,
      resourceVersion: '310',
      creationTimestamp: at(0),
      labels: {
        'kubernetes.io/service-name': service,
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
    },
    addressType: 'IPv4',
    endpoints: [...addresses, ...notReady].map((a) => ({
      addresses: [a],
      conditions: { ready: !notReady.includes(a), serving: true, terminating: false },
      nodeName: 'node-1',
    })),
    ports: [{ name: '', protocol: 'TCP', port }],
  };
}

/** newEvent builds a core/v1 Event about an object. */
export function newEvent(
  involved: { kind: string; name: string; namespace?: string; uid?: string; fieldPath?: string },
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  component: string,
  first: number,
  last = first,
  count = 1,
): Event {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${involved.name}.${(first * 1000).toString(16)}`,
      namespace: involved.namespace ?? 'default',
      uid: `uid-ev-${involved.name}-${first}`,
      resourceVersion: '400',
      creationTimestamp: at(first),
    },
    involvedObject: { apiVersion: 'v1', ...involved },
    reason,
    message,
    source: { component },
    firstTimestamp: at(first),
    lastTimestamp: at(last),
    count,
    type,
    eventTime: null,
    reportingComponent: component,
    reportingInstance: '',
  };
}

/**
 * newEventV1 builds an Event written through events.k8s.io/v1 (as kube-scheduler writes them), in
 * its stored form: eventTime and action, no source, firstTimestamp, lastTimestamp or count; with
 * series when repeated (count and last observed second).
 */
export function newEventV1(
  involved: Event['involvedObject'] & { name: string },
  type: 'Normal' | 'Warning',
  reason: string,
  action: string,
  note: string,
  controller: string,
  instance: string,
  first: number,
  series?: { count: number; last: number },
): Event {
  const e: Event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${involved.name}.${(first * 1000).toString(16)}`,
      namespace: involved.namespace ?? 'default',
      uid: `uid-ev-${involved.name}-${first}`,
      resourceVersion: '400',
      creationTimestamp: at(first),
    },
    involvedObject: { apiVersion: 'v1', ...involved },
    reason,
    message: note,
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    type,
    eventTime: at(first).replace('Z', '.000000Z'),
    action,
    reportingComponent: controller,
    reportingInstance: instance,
  };
  if (series)
    e.series = { count: series.count, lastObservedTime: at(series.last).replace('Z', '.000000Z') };
  return e;
}

/** newLease builds a node's Lease in kube-node-lease. */
export function newLease(node: string, renew: number): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: node,
      namespace: 'kube-node-lease',
      uid: `uid-lease-${node}`,
      resourceVersion: '500',
      creationTimestamp: at(-60),
    },
    spec: {
      holderIdentity: node,
      leaseDurationSeconds: 40,
      renewTime: formatMicroTime(renew * 1000),
    },
  };
}

/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { golden as goldenFile } from '../testing.ts';
import type { DaemonSet } from '../api/types.ts';
import { describeDaemonSet } from '../registry/apps/daemonsets/describe.ts';
import { describeDeployment } from '../registry/apps/deployments/describe.ts';
import { describeReplicaSet } from '../registry/apps/replicasets/describe.ts';
import { describeNamespace } from '../registry/core/namespaces/describe.ts';
import { describeNode } from '../registry/core/nodes/describe.ts';
import { describePod } from '../registry/core/pods/describe.ts';
import { describeService, formatEndpointSlices } from '../registry/core/services/describe.ts';
import { describeEndpointSlice } from '../registry/discovery/endpointslices/describe.ts';
import { podStatusCounts } from './describe.ts';
import {
  at,
  newDeployment,
  newEndpointSlice,
  newEvent,
  newEventV1,
  newLease,
  newNode,
  newPod,
  newReplicaSet,
  newService,
} from './testing.ts';

// golden compares output with testdata/<name>.txt (see sim/testing.ts).
function golden(name: string, got: string): void {
  goldenFile(new URL(`./testdata/${name}.txt`, import.meta.url), got);
}

const NOW = 600_000;
const rsRef = { kind: 'ReplicaSet', name: 'web-5d78c9b8f7', uid: 'uid-rs-5d78c9b8f7' };

describe('kubectl describe pod', () => {
  it('a running Pod with events', () => {
    const pod = newPod('web-5d78c9b8f7-2xkqp', {
      tokenVolume: 'kube-api-access-x7k2m',
      node: 'node-1',
      ip: '10.244.1.5',
      owner: rsRef,
      labels: { app: 'web', 'pod-template-hash': '5d78c9b8f7' },
      containers: [
        {
          name: 'nginx',
          image: 'nginx:1.25',
          ports: [80],
          requests: { cpu: '100m', memory: '128Mi' },
          limits: { memory: '256Mi' },
        },
      ],
    });
    pod.status.qosClass = 'Burstable';
    const ref = { kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid };
    const events = [
      newEventV1(
        ref,
        'Normal',
        'Scheduled',
        'Binding',
        'Successfully assigned default/web-5d78c9b8f7-2xkqp to node-1',
        'default-scheduler',
        'default-scheduler-control-plane',
        1,
      ),
      newEvent(
        { ...ref, fieldPath: 'spec.containers{nginx}' },
        'Normal',
        'Pulled',
        'Container image "nginx:1.25" already present on machine',
        'kubelet',
        3,
      ),
      newEvent(
        { ...ref, fieldPath: 'spec.containers{nginx}' },
        'Normal',
        'Created',
        'Created container: nginx',
        'kubelet',
        3,
      ),
      newEvent(
        { ...ref, fieldPath: 'spec.containers{nginx}' },
        'Normal',
        'Started',
        'Started container nginx',
        'kubelet',
        4,
      ),
    ];
    golden('describe-pod', describePod(pod, events, NOW));
  });

  it('a crash-looping Pod shows Last State and Restart Count, and repeated events', () => {
    const pod = newPod('crashy', {
      tokenVolume: 'kube-api-access-q9w4n',
      node: 'node-1',
      ip: '10.244.1.9',
      statuses: [
        {
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: {
            terminated: { exitCode: 1, reason: 'Error', startedAt: at(565), finishedAt: at(570) },
          },
          ready: false,
          restartCount: 5,
        },
      ],
      conditions: [
        ['PodReadyToStartContainers', 'True'],
        ['Initialized', 'True'],
        ['Ready', 'False'],
        ['ContainersReady', 'False'],
        ['PodScheduled', 'True'],
      ],
    });
    const ref = {
      kind: 'Pod',
      name: 'crashy',
      uid: pod.metadata.uid,
      fieldPath: 'spec.containers{nginx}',
    };
    const events = [
      newEvent(
        ref,
        'Warning',
        'BackOff',
        'Back-off restarting failed container nginx in pod crashy_default(uid-crashy)',
        'kubelet',
        100,
        590,
        25,
      ),
    ];
    golden('describe-pod-crashloop', describePod(pod, events, NOW));
  });

  it('an initializing Pod lists Init Containers before Containers', () => {
    const pod = newPod('withinit', {
      tokenVolume: 'kube-api-access-m2b8c',
      node: 'node-1',
      ip: '10.244.1.7',
      phase: 'Pending',
      initContainers: [
        { name: 'migrate', image: 'busybox:1.36' },
        { name: 'warm', image: 'busybox:1.36' },
      ],
      initStatuses: [
        {
          state: {
            terminated: {
              exitCode: 0,
              reason: 'Completed',
              startedAt: at(3),
              finishedAt: at(8),
              containerID: 'containerd://init0',
            },
          },
          ready: true,
          containerID: 'containerd://init0',
          imageID: 'docker.io/library/busybox@sha256:0123456789abcdef',
          started: false,
        },
        {
          state: { running: { startedAt: at(9) } },
          lastState: {
            terminated: {
              exitCode: 1,
              reason: 'Error',
              startedAt: at(8),
              finishedAt: at(9),
              containerID: 'containerd://init1a',
            },
          },
          restartCount: 1,
          containerID: 'containerd://init1',
          imageID: 'docker.io/library/busybox@sha256:0123456789abcdef',
          started: true,
        },
      ],
      statuses: [
        {
          state: { waiting: { reason: 'PodInitializing' } },
          ready: false,
          started: false,
          containerID: undefined,
          imageID: '',
        },
      ],
      conditions: [
        ['PodReadyToStartContainers', 'True'],
        ['Initialized', 'False'],
        ['Ready', 'False'],
        ['ContainersReady', 'False'],
        ['PodScheduled', 'True'],
      ],
    });
    pod.spec.initContainers![0].command = ['sh', '-c', 'sleep 5'];
    golden('describe-pod-init', describePod(pod, [], NOW));
  });

  it('a pending, unscheduled Pod and a terminating Pod', () => {
    const pending = newPod('pending', {
      phase: 'Pending',
      conditions: [['PodScheduled', 'False', 'Unschedulable']],
    });
    pending.spec.tolerations = [];
    // kube-scheduler's events.k8s.io/v1 series: Age is "<last observed> (xN over <eventTime>)".
    const ev = newEventV1(
      { kind: 'Pod', name: 'pending', uid: pending.metadata.uid },
      'Warning',
      'FailedScheduling',
      'Scheduling',
      '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.',
      'default-scheduler',
      'default-scheduler-control-plane',
      5,
      { count: 8, last: 305 },
    );
    const terminating = newPod('going', { node: 'node-2', ip: '10.244.2.3', deleted: 620 });
    golden(
      'describe-pod-pending-terminating',
      describePod(pending, [ev], NOW) + '\n\n' + describePod(terminating, [], NOW),
    );
  });
});

describe('kubectl describe node', () => {
  it('a Ready worker with pods, lease and events', () => {
    const node = newNode('node-1', { heartbeat: 590 });
    const pods = [
      newPod('kube-proxy-7xk2p', {
        namespace: 'kube-system',
        node: 'node-1',
        created: -60,
        containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.34.1' }],
      }),
      newPod('web-5d78c9b8f7-2xkqp', {
        node: 'node-1',
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.25',
            requests: { cpu: '250m', memory: '128Mi' },
            limits: { cpu: '500m', memory: '256Mi' },
          },
        ],
      }),
      newPod('api-7f9c6d8b4-qwert', {
        node: 'node-1',
        containers: [{ name: 'api', image: 'api:1', requests: { cpu: '1', memory: '1Gi' } }],
      }),
    ];
    const events = [
      newEvent(
        { kind: 'Node', name: 'node-1', uid: 'node-1' },
        'Normal',
        'Starting',
        'Starting kubelet.',
        'kubelet',
        -60,
      ),
    ];
    golden(
      'describe-node',
      describeNode(node, pods, events, { lease: newLease('node-1', 595) }, NOW),
    );
  });

  it('a NotReady, cordoned node with taints and no lease', () => {
    const node = newNode('node-2', {
      ready: 'Unknown',
      unschedulable: true,
      heartbeat: 300,
      taints: [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(350) },
        { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: at(400) },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: at(350) },
      ],
    });
    golden(
      'describe-node-notready',
      describeNode(node, [], [], { error: 'leases.coordination.k8s.io "node-2" not found' }, NOW),
    );
  });
});

describe('kubectl describe deployment and replicaset', () => {
  it('a Deployment mid-rollout with old and new ReplicaSets', () => {
    const d = newDeployment('web', 3, { updated: 2, ready: 3, available: 3, image: 'nginx:1.26' });
    d.metadata.annotations!['deployment.kubernetes.io/revision'] = '2';
    d.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration'] =
      '{"apiVersion":"apps/v1"}\n';
    d.status.replicas = 4;
    d.status.unavailableReplicas = 1;
    const oldRS = newReplicaSet(d, '5d78c9b8f7', 2, 1, 'nginx:1.25');
    const newRS = newReplicaSet(d, '6b8f4c7d9e', 2, 2);
    newRS.status.replicas = 2;
    const events = [
      newEvent(
        { kind: 'Deployment', name: 'web', uid: 'uid-web' },
        'Normal',
        'ScalingReplicaSet',
        'Scaled up replica set web-5d78c9b8f7 from 0 to 3',
        'deployment-controller',
        1,
      ),
      newEvent(
        { kind: 'Deployment', name: 'web', uid: 'uid-web' },
        'Normal',
        'ScalingReplicaSet',
        'Scaled up replica set web-6b8f4c7d9e from 0 to 1',
        'deployment-controller',
        580,
      ),
      newEvent(
        { kind: 'Deployment', name: 'web', uid: 'uid-web' },
        'Normal',
        'ScalingReplicaSet',
        'Scaled down replica set web-5d78c9b8f7 from 3 to 2',
        'deployment-controller',
        590,
      ),
    ];
    golden('describe-deployment', describeDeployment(d, [oldRS], newRS, events, NOW));
  });

  it('a ReplicaSet counts its Pods by phase', () => {
    const d = newDeployment('web', 3);
    const rs = newReplicaSet(d, '5d78c9b8f7', 3, 1);
    const ref = { kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid };
    const pods = [
      newPod('a', { owner: ref }),
      newPod('b', { owner: ref }),
      newPod('c', { owner: ref, phase: 'Pending' }),
      newPod('orphan', {}),
    ];
    const counts = podStatusCounts(pods, rs.metadata.uid);
    expect(counts).toEqual({ running: 2, waiting: 1, succeeded: 0, failed: 0 });
    const events = [
      newEvent(
        ref,
        'Normal',
        'SuccessfulCreate',
        'Created pod: web-5d78c9b8f7-2xkqp',
        'replicaset-controller',
        1,
      ),
    ];
    golden('describe-replicaset', describeReplicaSet(rs, counts, events, NOW));
  });
});

describe('kubectl describe service', () => {
  it('lists ready endpoints (up to three) per port', () => {
    const svc = newService('web', 80);
    const slices = [newEndpointSlice('web', 80, ['10.244.1.5', '10.244.2.7'], ['10.244.3.2'])];
    golden('describe-service', describeService(svc, slices, [], NOW));
  });
  it('formatEndpointSlices truncates after three addresses', () => {
    const slices = [
      newEndpointSlice('web', 80, ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5']),
    ];
    expect(formatEndpointSlices(slices, '')).toBe(
      '10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 2 more...',
    );
    expect(formatEndpointSlices([], '')).toBe('<none>');
  });
});

describe('kubectl describe daemonset, namespace, endpointslice', () => {
  it('a namespace has no quotas or limit ranges', () => {
    const ns = {
      apiVersion: 'v1' as const,
      kind: 'Namespace' as const,
      metadata: {
        name: 'default',
        uid: 'u',
        resourceVersion: '1',
        creationTimestamp: at(-60),
        labels: { 'kubernetes.io/metadata.name': 'default' },
      },
      spec: {},
      status: { phase: 'Active' as const },
    };
    expect(describeNamespace(ns)).toBe(
      'Name:         default\nLabels:       kubernetes.io/metadata.name=default\nAnnotations:  <none>\nStatus:       Active\n\nNo resource quota.\n\nNo LimitRange resource.\n',
    );
  });
  it('a daemonset and an endpointslice', () => {
    const ds: DaemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name: 'kube-proxy',
        namespace: 'kube-system',
        uid: 'uid-ds',
        resourceVersion: '1',
        creationTimestamp: at(-60),
        labels: { 'k8s-app': 'kube-proxy' },
      },
      spec: {
        selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
        template: {
          metadata: { labels: { 'k8s-app': 'kube-proxy' } },
          spec: {
            containers: [
              {
                name: 'kube-proxy',
                image: 'registry.k8s.io/kube-proxy:v1.34.1',
                command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf'],
              },
            ],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            tolerations: [{ operator: 'Exists' }],
          },
        },
      },
      status: {
        currentNumberScheduled: 4,
        desiredNumberScheduled: 4,
        numberReady: 4,
        numberMisscheduled: 0,
        updatedNumberScheduled: 4,
        numberAvailable: 4,
      },
    };
    const eps = newEndpointSlice('web', 80, ['10.244.1.5'], ['10.244.2.7']);
    eps.endpoints[0].targetRef = {
      kind: 'Pod',
      name: 'web-5d78c9b8f7-2xkqp',
      namespace: 'default',
    };
    golden(
      'describe-daemonset-endpointslice',
      describeDaemonSet(ds, { running: 4, waiting: 0, succeeded: 0, failed: 0 }, [], NOW) +
        '\n\n' +
        describeEndpointSlice(eps, [], NOW),
    );
  });
});

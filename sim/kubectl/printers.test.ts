/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { golden as goldenFile } from '../testing.ts';
import type { DaemonSet, Namespace, Node } from '../api/types.ts';
import { buildTable, printPod, printTable, printTables, type PrintOptions } from './printers.ts';
import { GET_TABWRITER, tabwrite } from './tabwriter.ts';
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

const NOW = 600_000; // ten minutes after time 0

function table(resource: string, objects: unknown[], opts: PrintOptions = {}): string {
  return printTable(buildTable(resource, objects, NOW), opts);
}

const rs = { kind: 'ReplicaSet', name: 'web-5d78c9b8f7', uid: 'uid-rs' };

function statusPods() {
  return [
    newPod('web-5d78c9b8f7-2xkqp', { node: 'node-1', ip: '10.244.1.5', owner: rs }),
    newPod('web-5d78c9b8f7-8fjzt', { node: 'node-2', ip: '10.244.2.7', owner: rs, deleted: 590 }),
    newPod('web-5d78c9b8f7-pending', {
      phase: 'Pending',
      conditions: [['PodScheduled', 'False', 'Unschedulable']],
      owner: rs,
    }),
    newPod('web-5d78c9b8f7-creating', {
      phase: 'Pending',
      node: 'node-3',
      created: 595,
      statuses: [
        {
          state: { waiting: { reason: 'ContainerCreating' } },
          ready: false,
          containerID: undefined,
          started: false,
        },
      ],
      conditions: [
        ['PodReadyToStartContainers', 'False'],
        ['Initialized', 'True'],
        ['Ready', 'False', 'ContainersNotReady'],
        ['ContainersReady', 'False', 'ContainersNotReady'],
        ['PodScheduled', 'True'],
      ],
    }),
    newPod('crashy', {
      node: 'node-1',
      ip: '10.244.1.9',
      statuses: [
        {
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: 'back-off 2m40s restarting failed container',
            },
          },
          lastState: {
            terminated: { exitCode: 1, reason: 'Error', startedAt: at(560), finishedAt: at(570) },
          },
          ready: false,
          restartCount: 5,
        },
      ],
    }),
    newPod('pull-fails', {
      phase: 'Pending',
      node: 'node-2',
      ip: '10.244.2.9',
      statuses: [{ state: { waiting: { reason: 'ImagePullBackOff' } }, ready: false }],
    }),
    newPod('job-done', {
      phase: 'Succeeded',
      node: 'node-2',
      statuses: [
        {
          state: { terminated: { exitCode: 0, reason: 'Completed', finishedAt: at(30) } },
          ready: false,
        },
      ],
    }),
    newPod('failed-exit', {
      phase: 'Failed',
      node: 'node-2',
      statuses: [{ state: { terminated: { exitCode: 137 } }, ready: false }],
    }),
    newPod('with-init', {
      phase: 'Pending',
      node: 'node-1',
      initContainers: [{ name: 'migrate', image: 'busybox' }],
      initStatuses: [{ state: { running: { startedAt: at(590) } } }],
      statuses: [{ state: { waiting: { reason: 'PodInitializing' } }, ready: false }],
      conditions: [['Initialized', 'False', 'ContainersNotInitialized']],
    }),
    newPod('lost', { node: 'node-3', ip: '10.244.3.4', deleted: 500, reason: 'NodeLost' }),
    newPod('gated', {
      phase: 'Pending',
      conditions: [['PodScheduled', 'False', 'SchedulingGated']],
    }),
    newPod('two-of-three', {
      node: 'node-1',
      ip: '10.244.1.20',
      containers: [
        { name: 'app', image: 'app:1' },
        { name: 'sidecar', image: 'envoy:1' },
        { name: 'log', image: 'fluent:1' },
      ],
      statuses: [
        {},
        { ready: false },
        { restartCount: 2, lastState: { terminated: { exitCode: 2, finishedAt: at(-7200) } } },
      ],
    }),
  ];
}

describe('kubectl get pods', () => {
  it('prints the STATUS column as printPod computes it', () => {
    golden('get-pods', table('pods', statusPods()));
  });
  it('-o wide adds IP, NODE, NOMINATED NODE, READINESS GATES', () => {
    const pods = statusPods();
    pods[2].status.nominatedNodeName = 'node-3';
    golden('get-pods-wide', table('pods', pods, { wide: true }));
  });
  it('-A prepends NAMESPACE', () => {
    const pods = [
      newPod('coredns-66bc5c9577-4lh7x', {
        namespace: 'kube-system',
        node: 'control-plane',
        ip: '10.244.0.2',
        created: -60,
        labels: { 'k8s-app': 'kube-dns' },
      }),
      newPod('etcd-control-plane', {
        namespace: 'kube-system',
        node: 'control-plane',
        ip: '10.0.0.10',
        created: -60,
      }),
      newPod('web-5d78c9b8f7-2xkqp', { node: 'node-1', ip: '10.244.1.5', owner: rs }),
    ];
    golden('get-pods-all-namespaces', table('pods', pods, { withNamespace: true }));
  });
  it('--show-labels appends LABELS', () => {
    const pods = [
      newPod('a', { labels: { app: 'web', 'pod-template-hash': '5d78c9b8f7' } }),
      newPod('b', { labels: {} }),
    ];
    golden('get-pods-show-labels', table('pods', pods, { showLabels: true }));
  });
  it('RESTARTS shows when the last container terminated', () => {
    const p = newPod('x', {
      statuses: [
        { restartCount: 3, lastState: { terminated: { exitCode: 1, finishedAt: at(590) } } },
      ],
    });
    expect(printPod(p, NOW).cells[3]).toBe('3 (10s ago)');
    const q = newPod('y', { statuses: [{ restartCount: 3 }] });
    expect(printPod(q, NOW).cells[3]).toBe('3');
  });
  it('a Completed container with another running is Running when the Pod is Ready, else NotReady', () => {
    const statuses = [
      { state: { terminated: { exitCode: 0, reason: 'Completed' } }, ready: false },
      {},
    ];
    const containers = [
      { name: 'init-like', image: 'busybox' },
      { name: 'app', image: 'app:1' },
    ];
    // Containers are walked last to first, so the first container's reason wins.
    expect(printPod(newPod('r', { containers, statuses }), NOW).cells[2]).toBe('Running');
    const notReady = newPod('n', { containers, statuses, conditions: [['Ready', 'False']] });
    expect(printPod(notReady, NOW).cells[2]).toBe('NotReady');
  });
  it('init containers: Init:N/M, Init:reason, Init:ExitCode', () => {
    const init = (s: object) =>
      printPod(
        newPod('i', {
          phase: 'Pending',
          initContainers: [
            { name: 'a', image: 'x' },
            { name: 'b', image: 'y' },
          ],
          initStatuses: [{ state: { terminated: { exitCode: 0 } } }, s],
          statuses: [],
        }),
        NOW,
      ).cells[2];
    expect(init({ state: { running: {} } })).toBe('Init:1/2');
    expect(init({ state: { waiting: { reason: 'ImagePullBackOff' } } })).toBe(
      'Init:ImagePullBackOff',
    );
    expect(init({ state: { terminated: { exitCode: 3 } } })).toBe('Init:ExitCode:3');
    expect(init({ state: { terminated: { exitCode: 1, signal: 9 } } })).toBe('Init:Signal:9');
    expect(init({ state: { terminated: { exitCode: 1, reason: 'Error' } } })).toBe('Init:Error');
  });
  it('a restartable init container (sidecar) counts toward READY', () => {
    const p = newPod('s', {
      initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }],
      initStatuses: [{ state: { running: {} }, started: true, ready: true }],
    });
    expect(printPod(p, NOW).cells.slice(1, 3)).toEqual(['2/2', 'Running']);
  });
});

describe('kubectl get nodes', () => {
  const nodes = (): Node[] => [
    newNode('control-plane', {
      roles: ['control-plane'],
      ip: '10.0.0.10',
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    }),
    newNode('node-1', { ip: '10.0.0.11' }),
    newNode('node-2', { ip: '10.0.0.12', ready: 'Unknown' }),
    newNode('node-3', { ip: '10.0.0.13', unschedulable: true }),
    newNode('node-4', { ip: '10.0.0.14', ready: 'False', unschedulable: true }),
    newNode('node-5', { ip: '10.0.0.15', ready: 'none', created: 590 }),
  ];
  it('STATUS reads only Ready: Unknown prints NotReady; no condition prints Unknown', () => {
    golden('get-nodes', table('nodes', nodes()));
  });
  it('-o wide adds addresses and node info', () => {
    const ns = nodes();
    ns[1].metadata.labels!['kubernetes.io/role'] = 'worker';
    ns[1].status.addresses!.push({ type: 'ExternalIP', address: '203.0.113.7' });
    golden('get-nodes-wide', table('nodes', ns, { wide: true }));
  });
});

describe('kubectl get deployments, replicasets, daemonsets', () => {
  it('deployments and -o wide', () => {
    const ds = [
      newDeployment('web', 3),
      newDeployment('api', 4, {
        ready: 2,
        updated: 1,
        available: 2,
        image: 'api:2.0',
        created: -3600,
      }),
    ];
    golden(
      'get-deployments',
      table('deployments', ds) + '\n' + table('deployments', ds, { wide: true }),
    );
  });
  it('replicasets and -o wide', () => {
    const d = newDeployment('web', 3);
    const list = [
      newReplicaSet(d, '5d78c9b8f7', 3, 2),
      newReplicaSet(d, '7c9f8d6b5a', 0, 1, 'nginx:1.24'),
    ];
    golden(
      'get-replicasets',
      table('replicasets', list) + '\n' + table('replicasets', list, { wide: true }),
    );
  });
  it('daemonsets', () => {
    const ds: DaemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name: 'kube-proxy',
        namespace: 'kube-system',
        uid: 'u',
        resourceVersion: '1',
        creationTimestamp: at(-60),
      },
      spec: {
        selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
        template: {
          spec: {
            containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.34.1' }],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
          },
        },
      },
      status: {
        currentNumberScheduled: 4,
        desiredNumberScheduled: 4,
        numberReady: 3,
        numberMisscheduled: 0,
        updatedNumberScheduled: 4,
        numberAvailable: 3,
      },
    };
    golden(
      'get-daemonsets',
      table('daemonsets', [ds], { withNamespace: true }) +
        '\n' +
        table('daemonsets', [ds], { wide: true }),
    );
  });
});

describe('kubectl get services, endpointslices, events, leases, namespaces', () => {
  it('services', () => {
    const svcs = [
      newService('kubernetes', 443, { clusterIP: '10.96.0.1' }),
      newService('web', 80),
      newService('web-np', 80, { type: 'NodePort', nodePort: 30080, clusterIP: '10.96.7.200' }),
      newService('web-lb', 80, { type: 'LoadBalancer', nodePort: 31234, clusterIP: '10.96.9.9' }),
    ];
    golden(
      'get-services',
      table('services', svcs) + '\n' + table('services', svcs, { wide: true }),
    );
  });
  // The 16-column cut of load-balancer addresses never shows: kube-apiserver's TableConvertor
  // prints with Wide set, so `get svc` without -o wide has the whole list too.
  it('services: EXTERNAL-IP by type, load-balancer addresses sorted, not cut', () => {
    const lb = newService('web-lb', 80, {
      type: 'LoadBalancer',
      nodePort: 31234,
      clusterIP: '10.96.9.9',
    });
    lb.status = {
      loadBalancer: {
        ingress: [{ ip: '203.0.113.20' }, { hostname: 'lb.example.com' }, { ip: '198.51.100.7' }],
      },
    };
    const one = newService('one-lb', 80, {
      type: 'LoadBalancer',
      nodePort: 30100,
      clusterIP: '10.96.9.10',
    });
    one.status = { loadBalancer: { ingress: [{ ip: '203.0.113.21' }] } };
    const ext = newService('ext', 80, { clusterIP: '10.96.9.11' });
    ext.spec.externalIPs = ['192.0.2.10', '192.0.2.11'];
    const mixed = newService('mixed-lb', 80, {
      type: 'LoadBalancer',
      nodePort: 30101,
      clusterIP: '10.96.9.12',
    });
    mixed.spec.externalIPs = ['192.0.2.12'];
    const headless = newService('db', 5432, { clusterIP: 'None' });
    headless.spec.clusterIPs = ['None'];
    const name = newService('mail', 25);
    name.spec = { type: 'ExternalName', externalName: 'smtp.example.com', sessionAffinity: 'None' };
    const svcs = [lb, one, ext, mixed, headless, name];
    golden(
      'get-services-types',
      table('services', svcs) + '\n' + table('services', svcs, { wide: true }),
    );
  });
  it('endpointslices list up to three addresses, then "+ N more..."', () => {
    const slices = [
      newEndpointSlice('web', 80, [
        '10.244.1.5',
        '10.244.2.7',
        '10.244.3.2',
        '10.244.1.6',
        '10.244.2.8',
      ]),
      newEndpointSlice('api', 8080, ['10.244.1.9']),
      { ...newEndpointSlice('empty', 80, []), ports: null },
    ];
    slices[2].metadata.name = 'empty-xyz12';
    golden('get-endpointslices', table('endpointslices', slices));
  });
  it('events', () => {
    const pod = { kind: 'Pod', name: 'web-5d78c9b8f7-2xkqp', uid: 'uid-web-5d78c9b8f7-2xkqp' };
    const evs = [
      newEvent(
        { kind: 'Deployment', name: 'web', uid: 'uid-web' },
        'Normal',
        'ScalingReplicaSet',
        'Scaled up replica set web-5d78c9b8f7 from 0 to 3',
        'deployment-controller',
        1,
      ),
      newEventV1(
        pod,
        'Normal',
        'Scheduled',
        'Binding',
        'Successfully assigned default/web-5d78c9b8f7-2xkqp to node-1',
        'default-scheduler',
        'default-scheduler-control-plane',
        2,
      ),
      newEvent(
        { ...pod, fieldPath: 'spec.containers{nginx}' },
        'Normal',
        'Pulled',
        'Container image "nginx:1.25" already present on machine',
        'kubelet',
        3,
      ),
      newEvent(
        { kind: 'Node', name: 'node-2', namespace: 'default' },
        'Warning',
        'NodeNotReady',
        'Node node-2 status is now: NodeNotReady',
        'node-controller',
        400,
        560,
        3,
      ),
    ];
    evs[2].source.host = 'node-1';
    // A FailedScheduling series: LAST SEEN and COUNT come from it (printers.go printEvent).
    evs.push(
      newEventV1(
        { kind: 'Pod', name: 'big', uid: 'uid-big' },
        'Warning',
        'FailedScheduling',
        'Scheduling',
        '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
        'default-scheduler',
        'default-scheduler-control-plane',
        300,
        { count: 4, last: 480 },
      ),
    );
    golden('get-events', table('events', evs) + '\n' + table('events', evs, { wide: true }));
  });
  it('leases and namespaces', () => {
    const ns = (name: string): Namespace => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, uid: name, resourceVersion: '1', creationTimestamp: at(-60) },
      spec: {},
      status: { phase: 'Active' },
    });
    golden(
      'get-leases-namespaces',
      table('leases', [newLease('node-1', 590), newLease('node-2', 560)], { withNamespace: true }) +
        '\n' +
        table('namespaces', ['default', 'kube-node-lease', 'kube-system'].map(ns)),
    );
  });
});

describe('kubectl get all', () => {
  it('groups resources with kind prefixes and blank lines, skipping empty groups', () => {
    const d = newDeployment('web', 2);
    const groups = [
      {
        resource: 'pods',
        objects: [
          newPod('web-5d78c9b8f7-2xkqp', { node: 'node-1', owner: rs }),
          newPod('web-5d78c9b8f7-x8zlp', { node: 'node-2', owner: rs }),
        ],
      },
      {
        resource: 'services',
        objects: [newService('kubernetes', 443, { clusterIP: '10.96.0.1' }), newService('web', 80)],
      },
      { resource: 'daemonsets', objects: [] },
      { resource: 'deployments', objects: [d] },
      { resource: 'replicasets', objects: [newReplicaSet(d, '5d78c9b8f7', 2, 1)] },
    ];
    const kinds: Record<string, string> = {
      pods: 'pod',
      services: 'service',
      daemonsets: 'daemonset.apps',
      deployments: 'deployment.apps',
      replicasets: 'replicaset.apps',
    };
    const out = printTables(
      groups.map((g) => ({
        table: buildTable(g.resource, g.objects, NOW),
        opts: { withKind: kinds[g.resource] },
      })),
    );
    golden('get-all', out);
  });
  it('prints nothing for an empty table (no header)', () => {
    expect(table('pods', [])).toBe('');
  });
});

describe('tabwriter', () => {
  it('pads every column to its widest cell plus 3, at least 6, and never pads the last', () => {
    expect(tabwrite('A\tBB\tC\nxxxxxxxx\ty\tzz\n', GET_TABWRITER)).toBe(
      'A          BB    C\nxxxxxxxx   y     zz\n',
    );
  });
  it('ends a column block at a line without that column', () => {
    expect(tabwrite('a\tb\nlong-cell\tc\nno tabs\nx\ty\n', GET_TABWRITER)).toBe(
      'a           b\nlong-cell   c\nno tabs\nx     y\n',
    );
  });
  it('pads trailing empty cells (kubectl get cs prints trailing spaces)', () => {
    expect(tabwrite('NAME\tERROR\nx\t\n', GET_TABWRITER)).toBe('NAME   ERROR\nx      \n');
  });
});

// The objects a kubeadm-built cluster has before anyone deploys anything: namespaces, the
// control-plane static Pods (as mirror Pods), kube-proxy Pods on every node, CoreDNS, and the
// `kubernetes` and `kube-dns` Services. Names, labels and images follow kubeadm's manifests
// (cmd/kubeadm/app/phases/controlplane/manifests.go, addons/dns, addons/proxy).
// Simplification: the kube-proxy DaemonSet's Pods are created bound to their node at bootstrap
// (there is no DaemonSet controller); static Pods are created as their mirror Pods directly (the
// kubelet, which owns them, runs them only while their manifest is in /etc/kubernetes/manifests).

import type {
  Container,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Namespace,
  ObjectMeta,
  ObjectMetaInput,
  Pod,
  Service,
  ServiceAccount,
} from '../api/types.ts';

// meta types the metadata a client sends; kube-apiserver fills in uid, resourceVersion and the rest.
function meta(m: ObjectMetaInput): ObjectMeta {
  return m as unknown as ObjectMeta;
}

export const KUBERNETES_VERSION = 'v1.34.1';
export const SERVICE_CIDR = '10.96.0.0/12';

export function namespaces(): Namespace[] {
  return ['default', 'kube-node-lease', 'kube-public', 'kube-system'].map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: meta({ name, labels: { 'kubernetes.io/metadata.name': name } }),
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }));
}

/**
 * addonServiceAccounts are the ServiceAccounts kubeadm's addons create in kube-system for the Pods
 * they run (cmd/kubeadm/app/phases/addons/proxy and dns). The `default` ServiceAccount of every
 * namespace comes from kube-controller-manager's serviceaccount-controller.
 * Simplification: kube-controller-manager runs without --use-service-account-credentials, so
 * kube-system lacks the ServiceAccount per controller (deployment-controller, ...) kubeadm's has.
 * Simplification: kubeadm's ConfigMaps (kube-system's coredns, kube-proxy, kubeadm-config,
 * kubelet-config, kube-public's cluster-info) are not created; every namespace has only the root
 * CA publisher's kube-root-ca.crt.
 */
export function addonServiceAccounts(): ServiceAccount[] {
  return ['kube-proxy', 'coredns'].map((name) => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: meta({ name, namespace: 'kube-system' }),
  }));
}

function staticPod(
  component: string,
  node: string,
  image: string,
  cpu: string,
  command: string[],
): Pod {
  const c: Container = { name: component, image, command, resources: { requests: { cpu } } };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta({
      name: `${component}-${node}`,
      namespace: 'kube-system',
      labels: { component, tier: 'control-plane' },
      annotations: {
        'kubernetes.io/config.source': 'file',
        'kubernetes.io/config.mirror': 'mirror',
      },
    }),
    spec: {
      containers: [c],
      nodeName: node,
      hostNetwork: true,
      priorityClassName: 'system-node-critical',
      tolerations: [{ operator: 'Exists', effect: 'NoExecute' }],
    },
    status: {},
  };
}

/**
 * CLOUD_CONTROLLER_MANAGER_IMAGE is the fake cloud's cloud-controller-manager. Simplification: a
 * made-up image (each real provider publishes its own, such as
 * registry.k8s.io/cloud-provider-gcp/cloud-controller-manager).
 */
export const CLOUD_CONTROLLER_MANAGER_IMAGE =
  'registry.k8s.io/cloud-provider-fake/cloud-controller-manager:' + KUBERNETES_VERSION;

/**
 * controlPlanePods are the four static Pods kubeadm writes to /etc/kubernetes/manifests, and with
 * a cloud (`cluster.cloud: fake`) a fifth, cloud-controller-manager, in kube-system as the
 * provider's installation puts it. kube-controller-manager then runs with --cloud-provider=external
 * and leaves the cloud's controllers to it.
 * Simplification: cloud-controller-manager runs as a static Pod on the control-plane node, one of
 * the ways https://kubernetes.io/docs/tasks/administer-cluster/running-cloud-controller/ allows
 * (most providers ship a DaemonSet or Deployment on the control-plane nodes).
 */
export function controlPlanePods(
  node: string,
  cloud: 'none' | 'fake' = 'none',
  ip = '10.0.0.10',
): Pod[] {
  const v = KUBERNETES_VERSION;
  const cloudPods =
    cloud === 'fake'
      ? [
          staticPod('cloud-controller-manager', node, CLOUD_CONTROLLER_MANAGER_IMAGE, '100m', [
            'cloud-controller-manager',
            '--cloud-provider=fake',
          ]),
        ]
      : [];
  return [
    staticPod('etcd', node, 'registry.k8s.io/etcd:3.6.4-0', '100m', [
      'etcd',
      `--advertise-client-urls=https://${ip}:2379`,
    ]),
    staticPod('kube-apiserver', node, `registry.k8s.io/kube-apiserver:${v}`, '250m', [
      'kube-apiserver',
      '--etcd-servers=https://127.0.0.1:2379',
    ]),
    staticPod(
      'kube-controller-manager',
      node,
      `registry.k8s.io/kube-controller-manager:${v}`,
      '200m',
      cloud === 'fake'
        ? ['kube-controller-manager', '--cloud-provider=external']
        : ['kube-controller-manager'],
    ),
    staticPod('kube-scheduler', node, `registry.k8s.io/kube-scheduler:${v}`, '100m', [
      'kube-scheduler',
    ]),
    ...cloudPods,
  ];
}

/** MANIFESTS_DIR is kubeadm's static Pod directory (the kubelet's staticPodPath). */
export const MANIFESTS_DIR = '/etc/kubernetes/manifests';

/**
 * staticPodManifests are the files kubeadm writes to /etc/kubernetes/manifests on the
 * control-plane node: <component>.yaml holding the Pod of controlPlanePods, as kubeadm declares it
 * (named after the component; the kubelet adds "-<node>"; no mirror annotations, no status).
 * Simplification: only the fields the simulator models; no probes, volumes or securityContext.
 */
export function staticPodManifests(
  node: string,
  cloud: 'none' | 'fake' = 'none',
  ip = '10.0.0.10',
): { file: string; pod: unknown }[] {
  return controlPlanePods(node, cloud, ip).map((p) => {
    const component = p.metadata.labels!.component;
    return {
      file: `${component}.yaml`,
      pod: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          labels: { component, tier: 'control-plane' },
          name: component,
          namespace: 'kube-system',
        },
        // The kubelet adds spec.nodeName and the NoExecute toleration when it reads the file
        // (pkg/kubelet/config/common.go applyDefaults).
        spec: { ...p.spec, nodeName: undefined, tolerations: undefined },
        status: {},
      },
    };
  });
}

export function kubeProxyDaemonSet(): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: meta({
      name: 'kube-proxy',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'kube-proxy' },
    }),
    spec: {
      selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
      template: {
        metadata: { labels: { 'k8s-app': 'kube-proxy' } },
        spec: {
          containers: [
            {
              name: 'kube-proxy',
              image: `registry.k8s.io/kube-proxy:${KUBERNETES_VERSION}`,
              command: ['/usr/local/bin/kube-proxy'],
            },
          ],
          hostNetwork: true,
          priorityClassName: 'system-node-critical',
          serviceAccountName: 'kube-proxy',
          tolerations: [{ operator: 'Exists' }],
          // kubeadm's DaemonSet (cmd/kubeadm/app/phases/addons/proxy/manifests.go); every node
          // carries the kubelet's kubernetes.io/os label, so every node runs its Pod.
          nodeSelector: { 'kubernetes.io/os': 'linux' },
        },
      },
    },
    status: {
      currentNumberScheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
      numberMisscheduled: 0,
    },
  };
}

/** kubeProxyPod is the DaemonSet's Pod for one node. */
export function kubeProxyPod(ds: DaemonSet, node: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta({
      generateName: 'kube-proxy-',
      namespace: 'kube-system',
      labels: {
        'k8s-app': 'kube-proxy',
        'controller-revision-hash': '6d4d7f9c5b',
        'pod-template-generation': '1',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: ds.metadata.name,
          uid: ds.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    }),
    spec: {
      ...ds.spec.template.spec,
      nodeName: node,
      tolerations: [
        { operator: 'Exists' },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' },
      ],
    },
    status: {},
  };
}

/** coreDNS is kubeadm's CoreDNS Deployment: two replicas that tolerate the control-plane taint. */
export function coreDNS(): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta({
      name: 'coredns',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'kube-dns' },
    }),
    spec: {
      replicas: 2,
      selector: { matchLabels: { 'k8s-app': 'kube-dns' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } },
      template: {
        metadata: { labels: { 'k8s-app': 'kube-dns' } },
        spec: {
          priorityClassName: 'system-cluster-critical',
          serviceAccountName: 'coredns',
          containers: [
            {
              name: 'coredns',
              image: 'registry.k8s.io/coredns/coredns:v1.12.1',
              args: ['-conf', '/etc/coredns/Corefile'],
              resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
              ports: [
                { name: 'dns', containerPort: 53, protocol: 'UDP' },
                { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
                { name: 'metrics', containerPort: 9153, protocol: 'TCP' },
              ],
            },
          ],
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
          ],
          nodeSelector: { 'kubernetes.io/os': 'linux' },
        },
      },
    },
    status: {},
  };
}

export function kubeDNSService(): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta({
      name: 'kube-dns',
      namespace: 'kube-system',
      labels: {
        'k8s-app': 'kube-dns',
        'kubernetes.io/cluster-service': 'true',
        'kubernetes.io/name': 'CoreDNS',
      },
    }),
    spec: {
      selector: { 'k8s-app': 'kube-dns' },
      clusterIP: '10.96.0.10',
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
    },
    status: {},
  };
}

/** kubernetesService is the `default/kubernetes` Service kube-apiserver maintains for itself. */
export function kubernetesService(): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta({
      name: 'kubernetes',
      namespace: 'default',
      labels: { component: 'apiserver', provider: 'kubernetes' },
    }),
    spec: {
      clusterIP: '10.96.0.1',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
    },
    status: {},
  };
}

/** kubernetesEndpointSlice is the slice kube-apiserver's endpoint reconciler keeps for itself. */
export function kubernetesEndpointSlice(...apiserverIPs: string[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: meta({
      name: 'kubernetes',
      namespace: 'default',
      labels: {
        'kubernetes.io/service-name': 'kubernetes',
        'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io',
      },
    }),
    addressType: 'IPv4',
    // Each kube-apiserver's lease endpoint reconciler lists its own address (sorted by IP); with
    // several, each keeps the list current (cluster/control-plane.ts).
    endpoints: apiserverIPs.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
  };
}

/** nodeIP returns the InternalIP of the i-th node (0 is the control plane): 10.0.0.10, .11, ... */
export function nodeIP(i: number): string {
  const n = i + 10;
  return `10.0.${Math.floor(n / 256)}.${n % 256}`;
}

/**
 * podCIDR returns the i-th node's pod range, as kube-controller-manager's node IPAM allocates
 * /24s from --cluster-cidr. Clusters of up to 256 nodes use 10.244.0.0/16 (the common default);
 * larger ones use 10.64.0.0/10 so that 5,000 nodes fit.
 */
export function podCIDR(i: number, total: number): string {
  return total <= 256 ? `10.244.${i}.0/24` : `10.${64 + Math.floor(i / 256)}.${i % 256}.0/24`;
}

export function clusterCIDR(total: number): string {
  return total <= 256 ? '10.244.0.0/16' : '10.64.0.0/10';
}

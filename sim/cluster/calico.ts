// Mirrors Calico's manifest install (projectcalico/calico manifests/calico.yaml, v3.30) for a
// cluster whose `cni` is calico: in kube-system, the calico-node DaemonSet (one hostNetwork Pod
// per node: its install-cni init container writes the CNI binaries and config, then calico-node
// runs Felix, which programs the node's policy rules, and BIRD), the calico-kube-controllers
// Deployment with its PodDisruptionBudget, their ServiceAccounts and the calico-config ConfigMap.
// Simplification: the CNI config is Calico's host-local IPAM variant ("usePodCidr": addresses
// from the node's podCIDR, which runtime/cni.ts hands out), so the manifest's upgrade-ipam init
// container is left out; so are the ebpf-bootstrap init container, the containers' environment,
// volumes, probes and security contexts, the CRDs and RBAC objects, and the calico-node Pods
// are created bound to their nodes at bootstrap, as kube-proxy's are (no DaemonSet controller).
// Felix's work is what cluster/dataplane.ts's policyDrop does; nothing in these Pods runs it.

import type {
  ConfigMap,
  DaemonSet,
  Deployment,
  ObjectMeta,
  ObjectMetaInput,
  Pod,
  PodDisruptionBudget,
  ServiceAccount,
} from '../api/types.ts';

/** CALICO_VERSION is the Calico release the images are tagged with. */
export const CALICO_VERSION = 'v3.30.3';

const image = (name: string) => `docker.io/calico/${name}:${CALICO_VERSION}`;

/** CALICO_CNI_IMAGE is the install-cni init container's image (it finishes once it has copied). */
export const CALICO_CNI_IMAGE = image('cni');

function meta(m: ObjectMetaInput): ObjectMeta {
  return m as unknown as ObjectMeta;
}

/** calicoServiceAccounts are the manifest's three ServiceAccounts. */
export function calicoServiceAccounts(): ServiceAccount[] {
  return ['calico-kube-controllers', 'calico-node', 'calico-cni-plugin'].map((name) => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: meta({ name, namespace: 'kube-system' }),
  }));
}

/** calicoConfig is the calico-config ConfigMap, with the host-local IPAM CNI config. */
export function calicoConfig(): ConfigMap {
  const cni = {
    name: 'k8s-pod-network',
    cniVersion: '0.3.1',
    plugins: [
      {
        type: 'calico',
        log_level: 'info',
        log_file_path: '/var/log/calico/cni/cni.log',
        datastore_type: 'kubernetes',
        nodename: '__KUBERNETES_NODE_NAME__',
        mtu: '__CNI_MTU__',
        ipam: { type: 'host-local', subnet: 'usePodCidr' },
        policy: { type: 'k8s' },
        kubernetes: { kubeconfig: '__KUBECONFIG_FILEPATH__' },
      },
      { type: 'portmap', snat: true, capabilities: { portMappings: true } },
    ],
  };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta({ name: 'calico-config', namespace: 'kube-system' }),
    data: {
      typha_service_name: 'none',
      calico_backend: 'bird',
      veth_mtu: '0',
      // The manifest's placeholder is unquoted (__CNI_MTU__); install-cni substitutes it.
      cni_network_config: JSON.stringify(cni, null, 2).replace('"__CNI_MTU__"', '__CNI_MTU__'),
    },
  };
}

/** calicoNodeDaemonSet is the calico-node DaemonSet: on every node, tolerating every taint. */
export function calicoNodeDaemonSet(): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: meta({
      name: 'calico-node',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'calico-node' },
    }),
    spec: {
      selector: { matchLabels: { 'k8s-app': 'calico-node' } },
      template: {
        metadata: { labels: { 'k8s-app': 'calico-node' } },
        spec: {
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          hostNetwork: true,
          tolerations: [
            { effect: 'NoSchedule', operator: 'Exists' },
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { effect: 'NoExecute', operator: 'Exists' },
          ],
          serviceAccountName: 'calico-node',
          terminationGracePeriodSeconds: 0,
          priorityClassName: 'system-node-critical',
          initContainers: [
            { name: 'install-cni', image: CALICO_CNI_IMAGE, command: ['/opt/cni/bin/install'] },
          ],
          containers: [
            { name: 'calico-node', image: image('node'), resources: { requests: { cpu: '250m' } } },
          ],
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

/** calicoKubeControllers is the calico-kube-controllers Deployment: one replica, Recreate. */
export function calicoKubeControllers(): Deployment {
  const labels = { 'k8s-app': 'calico-kube-controllers' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta({ name: 'calico-kube-controllers', namespace: 'kube-system', labels }),
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      strategy: { type: 'Recreate' },
      template: {
        metadata: { labels },
        spec: {
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' },
            { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
          ],
          serviceAccountName: 'calico-kube-controllers',
          priorityClassName: 'system-cluster-critical',
          containers: [{ name: 'calico-kube-controllers', image: image('kube-controllers') }],
        },
      },
    },
    status: {},
  };
}

/** calicoKubeControllersBudget is the manifest's PodDisruptionBudget for the controllers. */
export function calicoKubeControllersBudget(): PodDisruptionBudget {
  const labels = { 'k8s-app': 'calico-kube-controllers' };
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: meta({ name: 'calico-kube-controllers', namespace: 'kube-system', labels }),
    spec: { maxUnavailable: 1, selector: { matchLabels: labels } },
    status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
  };
}

/**
 * calicoNodePod is the DaemonSet's Pod for one node, with the tolerations the DaemonSet
 * controller adds (pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations; a hostNetwork Pod
 * also tolerates network-unavailable).
 */
export function calicoNodePod(ds: DaemonSet, node: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta({
      generateName: 'calico-node-',
      namespace: 'kube-system',
      labels: {
        'k8s-app': 'calico-node',
        'controller-revision-hash': '7c4f8b6d9d',
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
        ...(ds.spec.template.spec.tolerations ?? []),
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

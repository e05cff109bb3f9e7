// Upstream defaults the simulator reproduces, and the latencies it models. Every default names
// its upstream source; every latency is a Simplification (real latencies vary with hardware).

import { parseDuration } from './clock.ts';

export interface Settings {
  /** kubelet nodeStatusUpdateFrequency (KubeletConfiguration, default 10s). */
  nodeStatusUpdateFrequency: number;
  /** kubelet nodeStatusReportFrequency (default 5m; status is posted at least this often). */
  nodeStatusReportFrequency: number;
  /** kubelet nodeLeaseDurationSeconds (default 40). */
  nodeLeaseDurationSeconds: number;
  /** Lease renew interval: leaseDuration * nodeLeaseRenewIntervalFraction (0.25) = 10s. */
  nodeLeaseRenewInterval: number;
  /** kube-controller-manager --node-monitor-period (default 5s). */
  nodeMonitorPeriod: number;
  /** --node-monitor-grace-period: 50s since v1.32 (40s before). */
  nodeMonitorGracePeriod: number;
  /** --node-startup-grace-period (default 60s). */
  nodeStartupGracePeriod: number;
  /** DefaultTolerationSeconds admission: --default-not-ready-toleration-seconds (300). */
  defaultNotReadyTolerationSeconds: number;
  /** --default-unreachable-toleration-seconds (300). */
  defaultUnreachableTolerationSeconds: number;
  /** kube-scheduler podInitialBackoffSeconds (1s) and podMaxBackoffSeconds (10s). */
  podInitialBackoff: number;
  podMaxBackoff: number;
  /** Unschedulable Pods are flushed back to activeQ after this (podMaxInUnschedulablePodsDuration, 5m). */
  podMaxInUnschedulablePodsDuration: number;
  /** percentageOfNodesToScore (0 means adaptive, the default). */
  percentageOfNodesToScore: number;
  /** ReplicaSet BurstReplicas (500). */
  burstReplicas: number;
  /** EndpointSlice --max-endpoints-per-slice (100). */
  maxEndpointsPerSlice: number;
  /** kube-proxy --iptables-min-sync-period (1s). */
  iptablesMinSyncPeriod: number;
  /** kube-proxy --iptables-sync-period (30s). */
  iptablesSyncPeriod: number;
  /**
   * kube-proxy --proxy-mode (KubeProxyConfiguration mode): iptables (the default on Linux),
   * nftables (GA since v1.33) or ipvs (deprecated since v1.35).
   */
  proxyMode: 'iptables' | 'nftables' | 'ipvs';
  /** kubelet image pull and crash-loop back-off: 10s doubling to 300s (MaxContainerBackOff). */
  backOffInitial: number;
  backOffMax: number;
  /**
   * Client rate limits (rest.Config QPS and Burst, client-go util/flowcontrol/throttle.go), one
   * bucket per client. kube-controller-manager --kube-api-qps 20 and --kube-api-burst 30
   * (cmd/kube-controller-manager/app/options, GenericControllerManagerConfiguration defaults);
   * each of its controllers has its own client and so its own bucket (ClientBuilder.ClientOrDie).
   */
  kubeControllerManagerAPIQPS: number;
  kubeControllerManagerAPIBurst: number;
  /** kube-scheduler clientConnection qps 50 and burst 100 (KubeSchedulerConfiguration defaults). */
  kubeSchedulerAPIQPS: number;
  kubeSchedulerAPIBurst: number;
  /** kubelet kubeAPIQPS 50 and kubeAPIBurst 100 (KubeletConfiguration defaults since v1.27). */
  kubeletAPIQPS: number;
  kubeletAPIBurst: number;
  /** Simplification: watch delivery latency from kube-apiserver to a watcher. */
  watchLatency: number;
  /** Simplification: CRI RunPodSandbox duration (including the CNI ADD). */
  sandboxStartLatency: number;
  /** Simplification: CRI CreateContainer + StartContainer duration. */
  containerStartLatency: number;
  /** Simplification: image pull: fixed cost plus size / throughput (bytes per second). */
  imagePullBaseLatency: number;
  imagePullBytesPerSecond: number;
  /** Simplification: time for a container to stop after SIGTERM when it exits promptly. */
  containerStopLatency: number;
  /**
   * cni is the cluster's CNI plugin: `bridge` (the reference bridge plugin with host-local IPAM,
   * which ignores NetworkPolicy, as plain bridge or flannel do) or `calico` (whose per-node agent,
   * Felix, enforces NetworkPolicy). Both route the flat Pod network the same way.
   */
  cni: CNIName;
}

/** CNIName is a CNI plugin a cluster can run. */
export type CNIName = 'bridge' | 'calico';

/** defaultSettings are the defaults of current Kubernetes (v1.32 and later). */
export const defaultSettings: Settings = {
  nodeStatusUpdateFrequency: 10_000,
  nodeStatusReportFrequency: 300_000,
  nodeLeaseDurationSeconds: 40,
  nodeLeaseRenewInterval: 10_000,
  nodeMonitorPeriod: 5_000,
  nodeMonitorGracePeriod: 50_000,
  nodeStartupGracePeriod: 60_000,
  defaultNotReadyTolerationSeconds: 300,
  defaultUnreachableTolerationSeconds: 300,
  podInitialBackoff: 1_000,
  podMaxBackoff: 10_000,
  podMaxInUnschedulablePodsDuration: 300_000,
  percentageOfNodesToScore: 0,
  burstReplicas: 500,
  maxEndpointsPerSlice: 100,
  kubeControllerManagerAPIQPS: 20,
  kubeControllerManagerAPIBurst: 30,
  kubeSchedulerAPIQPS: 50,
  kubeSchedulerAPIBurst: 100,
  kubeletAPIQPS: 50,
  kubeletAPIBurst: 100,
  iptablesMinSyncPeriod: 1_000,
  iptablesSyncPeriod: 30_000,
  proxyMode: 'iptables',
  backOffInitial: 10_000,
  backOffMax: 300_000,
  watchLatency: 2,
  sandboxStartLatency: 600,
  containerStartLatency: 300,
  imagePullBaseLatency: 500,
  imagePullBytesPerSecond: 40 * 1024 * 1024,
  containerStopLatency: 500,
  cni: 'bridge',
};

/** durationSettings lists the settings given as durations (in ms internally). */
export const durationSettings = new Set<keyof Settings>([
  'nodeStatusUpdateFrequency',
  'nodeStatusReportFrequency',
  'nodeLeaseRenewInterval',
  'nodeMonitorPeriod',
  'nodeMonitorGracePeriod',
  'nodeStartupGracePeriod',
  'podInitialBackoff',
  'podMaxBackoff',
  'podMaxInUnschedulablePodsDuration',
  'iptablesMinSyncPeriod',
  'iptablesSyncPeriod',
  'backOffInitial',
  'backOffMax',
  'watchLatency',
  'sandboxStartLatency',
  'containerStartLatency',
  'imagePullBaseLatency',
  'containerStopLatency',
]);

/** qpsSettings are the client QPS settings: a number of requests per second above 0. */
export const qpsSettings = new Set<keyof Settings>([
  'kubeControllerManagerAPIQPS',
  'kubeSchedulerAPIQPS',
  'kubeletAPIQPS',
]);

/** burstSettings are the client Burst settings: a whole number of requests, at least 1. */
export const burstSettings = new Set<keyof Settings>([
  'kubeControllerManagerAPIBurst',
  'kubeSchedulerAPIBurst',
  'kubeletAPIBurst',
]);

/** enumSettings are the settings given as one of a few words. */
export const enumSettings: Partial<Record<keyof Settings, readonly string[]>> = {
  proxyMode: ['iptables', 'nftables', 'ipvs'],
  cni: ['bridge', 'calico'],
};

/**
 * settingExpectation says what a setting's value must be when v is not that, else undefined:
 * one of its choices, a duration, a number, a QPS above 0 or a burst of at least 1.
 */
export function settingExpectation(key: keyof Settings, v: string | number): string | undefined {
  if (durationSettings.has(key))
    return parseDuration(v) === undefined ? 'a duration such as 40s' : undefined;
  const words = enumSettings[key];
  if (words) return words.includes(String(v)) ? undefined : `one of ${words.join(', ')}`;
  if (typeof v !== 'number') return 'a number';
  if (qpsSettings.has(key) && !(v > 0))
    return 'a number of requests per second above 0, such as 20';
  if (burstSettings.has(key) && !(Number.isInteger(v) && v >= 1))
    return 'a whole number of requests of at least 1, such as 30';
  return undefined;
}

// Upstream defaults the simulator reproduces, and the latencies it models. Every default names
// its upstream source; every latency is a Simplification (real latencies vary with hardware).

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
  /** kubelet image pull and crash-loop back-off: 10s doubling to 300s (MaxContainerBackOff). */
  backOffInitial: number;
  backOffMax: number;
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
}

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
  iptablesMinSyncPeriod: 1_000,
  iptablesSyncPeriod: 30_000,
  backOffInitial: 10_000,
  backOffMax: 300_000,
  watchLatency: 2,
  sandboxStartLatency: 600,
  containerStartLatency: 300,
  imagePullBaseLatency: 500,
  imagePullBytesPerSecond: 40 * 1024 * 1024,
  containerStopLatency: 500,
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

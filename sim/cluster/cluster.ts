// A whole cluster wired together: etcd, kube-apiserver, kube-scheduler, the controllers of
// kube-controller-manager, and on every node a kubelet, a container runtime with its CNI plugin,
// and kube-proxy. Everything but etcd reaches the cluster through kube-apiserver.
//
// The cluster is born at virtual time -60s: nodes register, the control-plane and kube-proxy
// Pods start and CoreDNS is scheduled, with tracing off, so that a scenario starts at 0 with a
// settled cluster whose objects are a minute old, as on a freshly built kubeadm cluster.
//
// Simplification: a birth depends only on the cluster's shape (nodes, control plane, settings, cloud, images), so
// it is simulated once per shape, with a fixed seed on its own random stream, up to IMAGE_MS
// (-5 s), and kept as an image: etcd's contents, from which each node's running containers are known
// (their Pods' statuses). A run loads the image and starts every component against it at IMAGE_MS,
// as after a restart of every process on machines whose containers kept running: controllers,
// kube-scheduler and kube-proxy list and watch, the kubelets adopt their running containers and
// keep their machine's IDs. So the kube-system objects are the same for every seed, and timer
// phases (Lease renewals, status reports, the node monitor) start at -5 s. The run's seed drives
// everything from then on. It saves a third of a small run (BENCHMARKS.md). Clusters of more than
// MAX_IMAGED_NODES are born in their own run with its seed (their birth runs once anyway).

import { deepFreeze } from '../api/clone.ts';
import type { DaemonSet, Node, Pod, Service } from '../api/types.ts';
import { KubeAPIServer } from '../apiserver/apiserver.ts';
import { Client } from '../client/client.ts';
import { SharedInformerFactory } from '../client/informer.ts';
import { DeploymentController } from '../controllers/deployment/deployment-controller.ts';
import { EndpointSliceController } from '../controllers/endpointslice/endpointslice-controller.ts';
import { GarbageCollector } from '../controllers/garbagecollector/garbage-collector.ts';
import { NodeLifecycleController } from '../controllers/nodelifecycle/node-lifecycle-controller.ts';
import { ReplicaSetController } from '../controllers/replicaset/replica-set.ts';
import { Publisher as RootCACertPublisher } from '../controllers/rootcacertpublisher/publisher.ts';
import { ServiceAccountsController } from '../controllers/serviceaccount/serviceaccounts-controller.ts';
import { TaintEvictionController } from '../controllers/tainteviction/taint-eviction-controller.ts';
import { DisruptionController } from '../controllers/disruption/disruption-controller.ts';
import {
  CloudNodeController,
  TaintExternalCloudProvider,
} from '../controllers/cloudnode/node-controller.ts';
import { ServiceController } from '../controllers/service/service-controller.ts';
import { FakeCloud } from '../cloudprovider/fake.ts';
import { Simulation } from '../engine/simulation.ts';
import { drive, untilInSlices } from '../engine/steps.ts';
import type { TraceLevel } from '../engine/trace.ts';
import { EtcdStore, type EtcdImage } from '../etcd/store.ts';
import { execSync } from '../kubelet/exec.ts';
import { dnsClient, externalClient, tcpClient, type DataplaneCluster } from './dataplane.ts';
import { curl } from '../runtime/curl.ts';
import { RESOLVER_TIMEOUT_MS } from '../dns/resolver.ts';
import type { Rng } from '../engine/rng.ts';
import { Kubelet } from '../kubelet/kubelet.ts';
import { healthyComponentStatuses, runKubectl, type KubectlResult } from '../kubectl/kubectl.ts';
import { NodeFilesystem } from '../node/filesystem.ts';
import { runShell, splitWords } from '../node/shell.ts';
import { iptablesSaveCommand, ipvsadmCommand, nftCommand } from '../proxy/commands.ts';
import { NodeIptables } from '../proxy/iptables.ts';
import { KubeProxy } from '../proxy/proxier.ts';
import { CNIPlugin } from '../runtime/cni.ts';
import { ContainerRuntime } from '../runtime/container-runtime.ts';
import { crictl } from '../runtime/crictl.ts';
import { ImageCatalog } from '../runtime/images.ts';
import { toYAML } from '../kubectl/yaml-json.ts';
import { MEMBER_FAULTS, type ClusterConfig, type Fault } from '../scenario/schema.ts';
import { HAControlPlane } from './control-plane.ts';
import { etcdctl } from '../etcd/etcdctl.ts';
import { Scheduler } from '../scheduler/scheduler.ts';
import * as boot from './bootstrap.ts';
import { ingressNginxObjects, nginxGatewayObjects } from '../ingress/addons.ts';
import { ProxyController } from '../ingress/controller.ts';
import * as calico from './calico.ts';

export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** terminal is both streams in write order, when they interleave (kubectl's KubectlResult). */
  terminal?: string;
}

export interface ClusterOptions {
  seed: number;
  config: ClusterConfig;
  traceLevel?: TraceLevel;
  recordChanges?: boolean;
  freeze?: boolean;
  /** imageOnly builds a cluster to be born for an image: bornImageSteps plays its birth. */
  imageOnly?: boolean;
}

/** NodeAgents are the per-node processes. */
export interface NodeAgents {
  name: string;
  index: number;
  ip: string;
  kubelet: Kubelet;
  runtime: ContainerRuntime;
  cni: CNIPlugin;
  /** proxy is replaced on boot: a reboot loses the kernel's rules. */
  proxy: KubeProxy;
  clusterCIDR: string;
  /** power is false after node-down. */
  power: boolean;
  partitioned: boolean;
  /** fs is the node's files (the static Pod manifests on the control plane, /tmp). */
  fs: NodeFilesystem;
  /** bootedAt is when the machine last booted (containerd.service started). */
  bootedAt: number;
  /** kubeletChangedAt is when kubelet.service last started or stopped. */
  kubeletChangedAt: number;
  /** kernel draws the node's packet-path choices (kube-proxy's statistic rules). */
  kernel: Rng;
  /** recent is the kernel's `recent` match lists (sessionAffinity ClientIP). */
  recent: Map<string, number>;
}

/**
 * WORKSTATION is the machine outside the cluster that a console's `curl`, or an exec step with
 * this node, runs on (Cluster.workstation).
 */
export const WORKSTATION = 'workstation';

/** BIRTH is when the cluster is built, before the scenario's time 0. */
export const BIRTH_MS = -60_000;
/** IMAGE_MS is when the born image is taken, and when a run's components start from it. */
export const IMAGE_MS = -5_000;
/** BIRTH_SEED seeds every born image: a cluster shape is born the same way for every run. */
const BIRTH_SEED = 1;
/** MAX_IMAGED_NODES: larger clusters are born in their own run (see the top of this file). */
const MAX_IMAGED_NODES = 64;

/** BornImage is a born cluster as a run starts from it. */
interface BornImage {
  etcd: EtcdImage;
  nodes: Map<string, Node>;
  /** running are the Pods each node's runtime runs (phase Running, not being deleted). */
  running: Map<string, Pod[]>;
}

const bornImages = new Map<string, BornImage>();

/** imageKey names a cluster shape's image (runs in freeze mode have their own). */
function imageKey(config: ClusterConfig, freeze: boolean): string {
  return `${freeze ? 'frozen ' : ''}${JSON.stringify(config)}`;
}

/**
 * bornImage returns the image of a cluster shape, simulating its birth the first time. Runs share
 * its objects, which no component changes in place (stored objects are replaced, never written
 * to); runs in freeze mode (tests) get an image of their own whose objects are deep-frozen, so a
 * write to one fails loudly there. Frozen objects are not used otherwise: mixing them with
 * unfrozen ones of the same shape slows every property read that sees both.
 */
function bornImage(config: ClusterConfig, freeze: boolean): BornImage {
  drive(bornImageSteps(config, freeze));
  return bornImages.get(imageKey(config, freeze))!;
}

/**
 * bornImageSteps makes sure a cluster shape's image exists, simulating its birth in slices
 * (engine/steps.ts) and pausing after each: the quiz worker answers requests in between.
 */
export function* bornImageSteps(config: ClusterConfig, freeze = false): Generator<void, void> {
  const key = imageKey(config, freeze);
  if (bornImages.has(key) || planNodes(config).length > MAX_IMAGED_NODES) return;
  const born = new Cluster({
    seed: BIRTH_SEED,
    config,
    traceLevel: 'none',
    recordChanges: false,
    imageOnly: true,
  });
  yield* untilInSlices(BIRTH_MS, IMAGE_MS, (t) => born.sim.runUntil(t));
  if (bornImages.has(key)) return;
  const etcd = born.etcd.image();
  const nodes = new Map<string, Node>();
  const running = new Map<string, Pod[]>();
  for (const b of etcd.buckets)
    for (const kv of b.kvs) {
      if (freeze) deepFreeze(kv);
      const o = kv.value as Node | Pod;
      if (o.kind === 'Node') nodes.set(o.metadata.name, o);
      else if (
        o.kind === 'Pod' &&
        o.spec.nodeName &&
        o.status?.phase === 'Running' &&
        !o.metadata.deletionTimestamp
      ) {
        const list = running.get(o.spec.nodeName) ?? [];
        list.push(o);
        running.set(o.spec.nodeName, list);
      }
    }
  if (bornImages.size >= 8) bornImages.clear();
  bornImages.set(key, { etcd, nodes, running });
}

interface NodePlan {
  name: string;
  cpu: string;
  memory: string;
  pods: number;
  labels: Record<string, string>;
  taints: {
    key: string;
    value?: string;
    effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  }[];
  images: string[];
}

function planNodes(config: ClusterConfig): NodePlan[] {
  const plan = planWithoutCloud(config);
  // A kubelet with --cloud-provider=external adds the cloud taint after --register-with-taints
  // (pkg/kubelet/kubelet_node_status.go initialNode).
  if (config.cloud === 'fake')
    for (const p of plan)
      p.taints = [
        ...p.taints,
        { key: TaintExternalCloudProvider, value: 'true', effect: 'NoSchedule' },
      ];
  return plan;
}

/**
 * controlPlaneNames are the control-plane nodes of a cluster shape: `control-plane` alone, or
 * control-plane-1 ... control-plane-N (`cluster.controlPlane.count` 3 or 5). They come first in
 * the plan, so their node IPs are 10.0.0.10 ... and the workers' follow.
 */
export function controlPlaneNames(config: ClusterConfig): string[] {
  const count = config.controlPlane?.count ?? 1;
  return count === 1
    ? ['control-plane']
    : Array.from({ length: count }, (_, i) => `control-plane-${i + 1}`);
}

function planWithoutCloud(config: ClusterConfig): NodePlan[] {
  const plan: NodePlan[] = controlPlaneNames(config).map((name) => ({
    name,
    cpu: '4',
    memory: '8Gi',
    pods: 110,
    labels: {
      'node-role.kubernetes.io/control-plane': '',
      'node.kubernetes.io/exclude-from-external-load-balancers': '',
    },
    taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    images: [],
  }));
  for (const n of config.nodes) {
    const names =
      'name' in n ? [n.name] : Array.from({ length: n.count }, (_, i) => `${n.namePrefix}${i + 1}`);
    for (const name of names)
      plan.push({
        name,
        cpu: n.cpu,
        memory: n.memory,
        pods: n.pods,
        labels: n.labels,
        taints: n.taints,
        images: n.images,
      });
  }
  return plan;
}

/**
 * manifestTexts are the static Pod manifests of a control-plane node as file texts. They depend
 * only on the node's name, so each cluster born with that name reuses the same texts (rendering
 * YAML was a tenth of a cluster's birth).
 */
const manifestCache = new Map<string, { file: string; text: string }[]>();
function manifestTexts(
  node: string,
  cloud: 'none' | 'fake',
  ip: string,
): { file: string; text: string }[] {
  const key = `${cloud} ${node} ${ip}`;
  let texts = manifestCache.get(key);
  if (!texts) {
    texts = boot
      .staticPodManifests(node, cloud, ip)
      .map((m) => ({ file: m.file, text: toYAML(m.pod) }));
    if (manifestCache.size > 16) manifestCache.clear();
    manifestCache.set(key, texts);
  }
  return texts;
}

/** Cluster is a running simulated cluster. */
export class Cluster {
  readonly sim: Simulation;
  readonly etcd = new EtcdStore();
  readonly apiserver: KubeAPIServer;
  /** controlPlanes are the control-plane nodes' names (controlPlaneNames). */
  readonly controlPlanes: readonly string[];
  /** ha is the highly available control plane of a cluster with several control-plane nodes. */
  readonly ha: HAControlPlane | undefined;
  readonly scheduler: Scheduler;
  readonly controllers: { start(): void; stop(): void }[];
  /**
   * proxies are the optional ingress controller (cluster.ingress: nginx) and Gateway API
   * implementation (cluster.gateway: true), each programming its proxy Pods.
   */
  readonly proxies: ProxyController[] = [];
  readonly nodes = new Map<string, NodeAgents>();
  readonly images: ImageCatalog;
  /** dnsCaches are the CoreDNS Pods' answer caches (dataplane.ts), by namespace/name. */
  private readonly dnsCaches = new Map<
    string,
    Map<string, { reply: import('../dns/coredns.ts').DnsReply; expires: number }>
  >();
  /** cloud is the fake cloud provider behind cloud-controller-manager (`cluster.cloud: fake`). */
  readonly cloud: FakeCloud | undefined;
  private readonly cloudMode: 'none' | 'fake';
  private readonly kubectlClient: Client;
  /** apiserverFault and etcdFault are the apiserver-down and etcd-down faults in force. */
  private apiserverFault = false;
  private etcdFault = false;

  constructor(opts: ClusterOptions) {
    const plan = planNodes(opts.config);
    const image =
      opts.imageOnly || plan.length > MAX_IMAGED_NODES
        ? undefined
        : bornImage(opts.config, opts.freeze ?? false);
    this.sim = new Simulation({
      seed: opts.seed,
      settings: opts.config.settings,
      traceLevel: 'none',
      stream: opts.imageOnly ? 'birth' : undefined,
    });
    this.sim.clock.nowMs = image ? IMAGE_MS : BIRTH_MS;
    this.apiserver = new KubeAPIServer(this.sim, this.etcd);
    this.apiserver.freeze = opts.freeze ?? false;
    this.apiserver.recordChanges = false;
    this.apiserver.address = `${boot.nodeIP(0)}:6443`;
    this.controlPlanes = controlPlaneNames(opts.config);
    // Calico's install-cni init container copies its files and finishes (a second, modelled).
    this.images = new ImageCatalog(
      opts.config.settings.cni === 'calico'
        ? { [calico.CALICO_CNI_IMAGE]: { runFor: 1000 }, ...opts.config.images }
        : opts.config.images,
    );
    this.cloudMode = opts.config.cloud ?? 'none';
    const st = this.sim.settings;
    const kcm = { qps: st.kubeControllerManagerAPIQPS, burst: st.kubeControllerManagerAPIBurst };
    const client = (user: string) => new Client(this.apiserver, user, kcm);
    // kubectl's clients keep rest.Config's defaults, QPS 5 and burst 10 (client-go rest
    // DefaultQPS/DefaultBurst; kubectl raises only its discovery client's, to 50 and 300:
    // staging/src/k8s.io/kubectl/pkg/cmd/cmd.go defaultConfigFlags).
    this.kubectlClient = new Client(this.apiserver, 'kubectl', { qps: 5, burst: 10 });

    if (image) {
      this.etcd.load(image.etcd);
      this.apiserver.restoreAllocations();
    } else this.bootstrapObjects(opts.config);
    // Simplification: with one control-plane node, kube-scheduler and kube-controller-manager run
    // without leader election, so kube-system has none of their Leases (upstream they are renewed
    // every 2 s even then: client-go tools/leaderelection); with several (control-plane.ts) they
    // elect a leader. kube-apiserver runs without its identity lease (pkg/controlplane/apiserver).
    // kube-scheduler builds a second clientset for its events (cmd/kube-scheduler/app/options
    // createClients), so Events do not take the bindings' tokens.
    const sched = { qps: st.kubeSchedulerAPIQPS, burst: st.kubeSchedulerAPIBurst };
    this.scheduler = new Scheduler(this.sim, new Client(this.apiserver, Scheduler.NAME, sched), {
      eventClient: new Client(this.apiserver, Scheduler.NAME, sched),
    });
    // kube-controller-manager's controllers share its informers (one list and watch per resource).
    // Each controller, and the shared informers, has its own client and so its own token bucket
    // (cmd/kube-controller-manager/app: ClientBuilder.ClientOrDie(name) per controller).
    // Simplification: only these nine of its controllers run; among those left out, the TTL
    // controller would annotate every Node with node.alpha.kubernetes.io/ttl ("0" below 100
    // nodes) and the DaemonSet controller would keep kube-proxy's DaemonSet status current.
    const informers = new SharedInformerFactory(client('kube-controller-manager'));
    this.controllers = [
      new DeploymentController(this.sim, client(DeploymentController.NAME), informers),
      new ReplicaSetController(this.sim, client(ReplicaSetController.NAME), informers),
      new NodeLifecycleController(
        this.sim,
        client(NodeLifecycleController.NAME),
        { quietRegistration: !!image },
        informers,
      ),
      new TaintEvictionController(this.sim, client(TaintEvictionController.NAME), informers),
      new EndpointSliceController(this.sim, client(EndpointSliceController.NAME), informers),
      new GarbageCollector(this.sim, client(GarbageCollector.NAME), informers),
      new ServiceAccountsController(this.sim, client(ServiceAccountsController.NAME), informers),
      new RootCACertPublisher(this.sim, client(RootCACertPublisher.NAME), informers),
      new DisruptionController(this.sim, client(DisruptionController.NAME), informers),
    ];
    // cloud-controller-manager, a process of its own with its own informers, runs the service and
    // cloud-node controllers against the fake cloud (cmd/cloud-controller-manager, the
    // k8s.io/cloud-provider app). Its clients keep --kube-api-qps and --kube-api-burst's defaults,
    // as kube-controller-manager's. Simplification: no route controller (the CNI plugin here
    // routes Pod traffic itself) and no cloud-node-lifecycle-controller; like
    // kube-controller-manager's, its controllers work whether or not its static Pod's container
    // runs.
    if (this.cloudMode === 'fake') {
      this.cloud = new FakeCloud(this.sim);
      const ccm = new SharedInformerFactory(client('cloud-controller-manager'));
      this.controllers.push(
        new ServiceController(this.sim, client(ServiceController.NAME), this.cloud, ccm),
        new CloudNodeController(this.sim, client(CloudNodeController.NAME), this.cloud, ccm),
      );
    }
    if (this.controlPlanes.length > 1) {
      this.ha = new HAControlPlane(
        this.sim,
        this.apiserver,
        this.etcd,
        (name) => this.nodes.get(name)!,
        this.controlPlanes,
        (user) => new Client(this.apiserver, user, kcm),
      );
      const controllers = this.controllers;
      this.ha.elect('kube-controller-manager', {
        start: () => {
          for (const c of controllers) c.start();
        },
        stop: () => {
          for (const c of controllers) c.stop();
        },
      });
    } else for (const c of this.controllers) c.start();
    // The add-ons' controllers run in their own Pods upstream, each with its own client
    // (client-go's default QPS 5, burst 10).
    const addonClient = (user: string) => new Client(this.apiserver, user, { qps: 5, burst: 10 });
    if (opts.config.ingress === 'nginx')
      this.proxies.push(
        new ProxyController(this.sim, addonClient('ingress-nginx-controller'), 'ingress-nginx'),
      );
    if (opts.config.gateway)
      this.proxies.push(new ProxyController(this.sim, addonClient('nginx-gateway'), 'gateway'));
    for (const p of this.proxies) p.start();
    if (this.ha) this.ha.elect('kube-scheduler', this.scheduler);
    else this.scheduler.start();

    plan.forEach((p, i) => this.addNode(p, i, plan.length, image));
    this.ha?.startEndpointReconcilers();
    this.ha?.startIdentityLeases();
    if (!image) this.bootstrapPods(plan);

    if (opts.imageOnly) return;
    // Let the cluster settle before the scenario's time 0, without tracing the warm-up.
    this.sim.runUntil(0);
    this.sim.traceLevel = opts.traceLevel ?? 'full';
    this.apiserver.recordChanges = opts.recordChanges ?? true;
    // From now on kube-apiserver and etcd answer only while their static Pods' containers run.
    // Simplification: during the warm-up they answer from the start (the mirror Pods come from
    // bootstrap, so the kubelet needs kube-apiserver to learn them); kube-scheduler and
    // kube-controller-manager keep working whether or not their static Pods' containers run.
    // (A function literal assigned to a property would be pretenured: see eslint.config.js.)
    const sync = () => this.syncControlPlane();
    for (const name of this.controlPlanes) this.nodes.get(name)!.runtime.onStateChange = sync;
    this.syncControlPlane();
  }

  /** bootstrapPods creates the control plane's mirror Pods and the kube-proxy Pods of a birth. */
  private bootstrapPods(plan: NodePlan[]): void {
    const ds = this.apiserver.get<DaemonSet>(
      'bootstrap',
      'daemonsets',
      'kube-system',
      'kube-proxy',
    );
    this.controlPlanes.forEach((name, i) => {
      for (const p of boot.controlPlanePods(name, this.cloudMode, boot.nodeIP(i)))
        this.apiserver.create('bootstrap', 'pods', p);
    });
    for (const p of plan) this.apiserver.create('bootstrap', 'pods', boot.kubeProxyPod(ds, p.name));
    const daemonSets = [ds.metadata.name];
    if (this.sim.settings.cni === 'calico') {
      const cds = this.apiserver.get<DaemonSet>(
        'bootstrap',
        'daemonsets',
        'kube-system',
        'calico-node',
      );
      for (const p of plan)
        this.apiserver.create('bootstrap', 'pods', calico.calicoNodePod(cds, p.name));
      daemonSets.push(cds.metadata.name);
    }

    // Simplification: there is no DaemonSet controller, so kube-proxy's (and calico-node's) status is
    // written once at birth (one Pod per node, all ready by time 0), and not kept up
    // to date when nodes fail. Upstream: pkg/controller/daemon/daemon_controller.go updateDaemonSetStatus.
    const n = plan.length;
    for (const name of daemonSets) {
      const settled = this.apiserver.get<DaemonSet>('bootstrap', 'daemonsets', 'kube-system', name);
      this.apiserver.update<DaemonSet>(
        'bootstrap',
        'daemonsets',
        {
          ...settled,
          status: {
            currentNumberScheduled: n,
            desiredNumberScheduled: n,
            numberReady: n,
            numberMisscheduled: 0,
            numberAvailable: n,
            updatedNumberScheduled: n,
          },
        },
        'status',
      );
    }
  }

  /**
   * syncControlPlane makes kube-apiserver and etcd answer exactly while their static Pods'
   * containers run on the control-plane node (and no apiserver-down or etcd-down fault holds).
   * kube-apiserver fails every request while etcd is down (see KubeAPIServer.connect).
   */
  private syncControlPlane(): void {
    if (this.ha) return this.ha.sync();
    const cp = this.nodes.get('control-plane')!;
    const running = (component: string): boolean =>
      cp.runtime.running &&
      cp.runtime
        .listContainers()
        .some(
          (c) =>
            c.podNamespace === 'kube-system' &&
            c.podName === `${component}-${cp.name}` &&
            c.metadata.name === component &&
            c.state === 'CONTAINER_RUNNING',
        );
    const apiDown = this.apiserverFault || !running('kube-apiserver');
    const etcdDown = this.etcdFault || !running('etcd');
    if (apiDown === this.apiserver.down && etcdDown === this.etcd.down) return;
    this.apiserver.down = apiDown;
    this.etcd.down = etcdDown;
    this.apiserver.breakWatches();
  }

  private bootstrapObjects(config: ClusterConfig): void {
    const api = this.apiserver;
    for (const ns of boot.namespaces()) api.create('bootstrap', 'namespaces', ns);
    for (const sa of boot.addonServiceAccounts()) api.create('bootstrap', 'serviceaccounts', sa);
    api.createDefaultServiceCIDR();
    api.create('bootstrap', 'services', boot.kubernetesService());
    api.create(
      'bootstrap',
      'endpointslices',
      boot.kubernetesEndpointSlice(...this.controlPlanes.map((_, i) => boot.nodeIP(i))),
    );
    api.create('bootstrap', 'services', boot.kubeDNSService());
    api.create('bootstrap', 'daemonsets', boot.kubeProxyDaemonSet());
    api.create('bootstrap', 'deployments', boot.coreDNS());
    if (this.sim.settings.cni === 'calico') {
      for (const sa of calico.calicoServiceAccounts())
        api.create('bootstrap', 'serviceaccounts', sa);
      api.create('bootstrap', 'configmaps', calico.calicoConfig());
      api.create('bootstrap', 'daemonsets', calico.calicoNodeDaemonSet());
      api.create('bootstrap', 'deployments', calico.calicoKubeControllers());
      api.create('bootstrap', 'poddisruptionbudgets', calico.calicoKubeControllersBudget());
    }
    // The add-ons a scenario asks for, installed as their manifests would be.
    const addons = [
      ...(config.ingress === 'nginx' ? [ingressNginxObjects()] : []),
      ...(config.gateway ? [nginxGatewayObjects()] : []),
    ];
    for (const a of addons) {
      for (const ns of a.namespaces) api.create('bootstrap', 'namespaces', ns);
      for (const sa of a.serviceAccounts) api.create('bootstrap', 'serviceaccounts', sa);
      for (const ic of 'ingressClasses' in a ? a.ingressClasses : [])
        api.create('bootstrap', 'ingressclasses', ic);
      for (const gc of 'gatewayClasses' in a ? a.gatewayClasses : [])
        api.create('bootstrap', 'gatewayclasses', gc);
      for (const svc of a.services) api.create('bootstrap', 'services', svc);
      for (const d of a.deployments) api.create('bootstrap', 'deployments', d);
    }
  }

  private addNode(p: NodePlan, index: number, total: number, image: BornImage | undefined): void {
    const ip = boot.nodeIP(index);
    const cidr = boot.podCIDR(index, total);
    const cni = new CNIPlugin(this.sim, { nodeName: p.name, podCIDR: cidr });
    const runtime = new ContainerRuntime(this.sim, {
      nodeName: p.name,
      cni,
      images: this.images,
      preloaded: [
        ...p.images,
        'registry.k8s.io/pause:3.10',
        `registry.k8s.io/kube-proxy:${boot.KUBERNETES_VERSION}`,
        ...(index < this.controlPlanes.length
          ? boot
              .controlPlanePods(p.name, this.cloudMode, ip)
              .map((x) => x.spec.containers[0].image)
              .concat('registry.k8s.io/coredns/coredns:v1.12.1')
          : []),
      ],
    });
    // kubeadm creates /etc/kubernetes/manifests on every node; only the control plane's holds files.
    const fs = new NodeFilesystem();
    for (const dir of ['/root', '/tmp', boot.MANIFESTS_DIR])
      fs.mkdir(dir, dir === '/tmp' ? 0o1777 : dir === '/root' ? 0o700 : 0o755, BIRTH_MS);
    if (index < this.controlPlanes.length)
      for (const m of manifestTexts(p.name, this.cloudMode, ip))
        fs.writeFile(`${boot.MANIFESTS_DIR}/${m.file}`, m.text, 0o600, BIRTH_MS);
    const kubeletLimits = {
      qps: this.sim.settings.kubeletAPIQPS,
      burst: this.sim.settings.kubeletAPIBurst,
    };
    const kubelet = new Kubelet(
      this.sim,
      new Client(this.apiserver, `kubelet@${p.name}`, kubeletLimits),
      {
        nodeName: p.name,
        cpu: p.cpu,
        memory: p.memory,
        pods: p.pods,
        labels: p.labels,
        taints: p.taints,
        podCIDR: cidr,
        internalIP: ip,
        externalCloudProvider: this.cloudMode === 'fake',
        runtime,
        // Simplification: only the control plane's kubelet reads a static Pod directory; the
        // workers' is empty and stays so (node commands cannot copy files between machines).
        ...(index < this.controlPlanes.length
          ? { staticPodPath: boot.MANIFESTS_DIR, files: fs }
          : {}),
      },
    );
    const clusterCIDR = boot.clusterCIDR(total);
    const proxy = this.newProxy(p.name, ip, clusterCIDR);
    this.nodes.set(p.name, {
      name: p.name,
      index,
      ip,
      kubelet,
      runtime,
      cni,
      proxy,
      clusterCIDR,
      power: true,
      partitioned: false,
      fs,
      bootedAt: BIRTH_MS,
      kubeletChangedAt: BIRTH_MS,
      kernel: this.sim.rng.fork(`kernel/${p.name}`),
      recent: new Map(),
    });
    const stored = image?.nodes.get(p.name);
    if (stored) {
      // The machine has been up since birth: its IDs are the Node's, its containers run.
      kubelet.restoreMachine(stored);
      for (const pod of image!.running.get(p.name) ?? []) kubelet.adoptRunning(pod);
      kubelet.start({ preRunning: true });
    } else kubelet.start();
    proxy.start();
  }

  private newProxy(node: string, ip: string, clusterCIDR: string): KubeProxy {
    // KubeProxyConfiguration clientConnection: qps 5, burst 10 (pkg/proxy/apis/config/v1alpha1).
    return new KubeProxy(
      this.sim,
      new Client(this.apiserver, `kube-proxy@${node}`, { qps: 5, burst: 10 }),
      {
        nodeName: node,
        nodeIP: ip,
        clusterCIDR,
        iptables: new NodeIptables(node),
        mode: this.sim.settings.proxyMode,
        serviceCIDR: boot.SERVICE_CIDR,
      },
    );
  }

  /** runUntil advances virtual time to t (ms). */
  runUntil(t: number): void {
    this.sim.runUntil(t);
  }

  /** dataplane is the view of the nodes and objects packets are carried through. */
  private get dataplane(): DataplaneCluster {
    return {
      sim: this.sim,
      node: (name) => {
        const n = this.nodes.get(name);
        if (!n) return undefined;
        return {
          name,
          power: n.power,
          partitioned: n.partitioned,
          kernel: n.kernel,
          recent: n.recent,
          rejects: n.proxy.rejectChains(),
          routes: (ip, port, protocol) => n.proxy.routes(ip, port, protocol),
        };
      },
      peekAll: <T>(
        resource:
          'pods' | 'services' | 'endpointslices' | 'namespaces' | 'networkpolicies' | 'nodes',
      ) => this.apiserver.peekAll(resource) as T[],
      // A proxy Pod answers as its controller last programmed it, forwarding from that Pod.
      podListeners: (pod) => {
        const p = this.proxies.find((x) => x.owns(pod));
        return p?.listeners(tcpClient(this.dataplane, pod));
      },
      imageServes: (image) => this.images.lookup(image).serves,
      dnsCache: (pod) => {
        let m = this.dnsCaches.get(pod);
        if (!m) this.dnsCaches.set(pod, (m = new Map()));
        return m;
      },
    };
  }

  /** kubectl runs a kubectl command line (without the leading "kubectl"). */
  kubectl(line: string, stdin?: string): KubectlResult {
    const out = runKubectl(
      {
        client: this.kubectlClient,
        now: () => this.sim.now(),
        // kubectl waits in virtual time (drain): the cluster runs meanwhile.
        sleep: (ms) => this.sim.runUntil(this.sim.now() + ms),
        // Simplification: the three statuses are always Healthy once kube-apiserver answers; it
        // does not probe the scheduler, controller-manager and etcd as the real handler does
        // (pkg/registry/core/componentstatus/rest.go).
        componentStatuses: () => {
          this.apiserver.checkConnection('kubectl');
          return healthyComponentStatuses();
        },
        // kube-apiserver dials the kubelet for logs and exec: a stopped or cut-off node does not
        // answer, a node whose kubelet is stopped refuses the connection.
        kubelet: (name) => {
          const n = this.nodes.get(name);
          if (!n) return { ip: '', dialError: 'connect: no route to host' };
          if (!n.power || n.partitioned)
            return { ip: n.ip, dialError: 'connect: no route to host' };
          if (!n.kubelet.isRunning) return { ip: n.ip, dialError: 'connect: connection refused' };
          return { ip: n.ip };
        },
        // The kubelet runs the command in the container (sim/kubelet/exec.ts). Simplification:
        // the Services for its environment are read from kube-apiserver's store, not from a
        // Service informer of the kubelet's own, which upstream's kubelet has.
        exec: (pod, container, argv) =>
          execSync(pod, container, argv, {
            services: this.apiserver.peekAll<Service>('services'),
            sleep: (ms) => this.sim.runUntil(this.sim.now() + ms),
            dns: dnsClient(this.dataplane, pod),
            connect: tcpClient(this.dataplane, pod),
          }),
      },
      line,
      stdin,
    );
    this.sim.record({
      kind: 'command',
      from: 'kubectl',
      to: 'kube-apiserver',
      command: `kubectl ${line}`,
      exitCode: out.exitCode,
    });
    return out;
  }

  /**
   * workstation runs a command on a machine outside the cluster, on the nodes' network
   * (WORKSTATION_IP): `curl` to a LoadBalancer Service's address or to a node's address and a
   * NodePort, as a browser or a client on the Internet would reach the cluster.
   * Simplification: the workstation resolves no names (no public DNS here): use addresses, and a
   * Host header for a name-based route; curl is its only program.
   */
  private workstation(line: string): CommandOutput {
    const argv = splitWords(line.trim());
    let out: CommandOutput;
    if (argv[0] !== 'curl')
      out = {
        stdout: '',
        stderr: `${argv[0] ?? ''}: the workstation outside the cluster runs only curl in this simulator\n`,
        exitCode: 127,
      };
    else
      out = curl(
        {
          resolve: (name) =>
            /^\d{1,3}(\.\d{1,3}){3}$/.test(name) ? { addresses: [name] } : { error: 'noname' },
          connect: externalClient(this.dataplane),
          resolverTimeoutMs: RESOLVER_TIMEOUT_MS,
          sleep: (ms) => this.sim.runUntil(this.sim.now() + ms),
        },
        argv.slice(1),
      );
    this.sim.record({
      kind: 'command',
      from: `shell@${WORKSTATION}`,
      to: `shell@${WORKSTATION}`,
      command: line,
      exitCode: out.exitCode,
    });
    return out;
  }

  /**
   * exec runs a node command line (sim/node/shell.ts): ls, cat, mv, systemctl, crictl,
   * iptables-save, with or without sudo.
   */
  exec(node: string, line: string): CommandOutput {
    if (node === WORKSTATION) return this.workstation(line);
    const n = this.nodes.get(node);
    if (!n)
      return {
        stdout: '',
        stderr: `ssh: Could not resolve hostname ${node}: Name or service not known\n`,
        exitCode: 255,
      };
    if (!n.power)
      return {
        stdout: '',
        stderr: `ssh: connect to host ${n.ip} port 22: No route to host\n`,
        exitCode: 255,
      };
    const now = () => this.sim.now();
    const out = runShell(
      {
        fs: n.fs,
        now,
        kubelet: {
          active: () => n.kubelet.isRunning,
          since: () => n.kubeletChangedAt,
          start: () => {
            if (n.kubelet.isRunning) return;
            n.kubelet.start();
            n.kubeletChangedAt = now();
          },
          stop: () => {
            if (!n.kubelet.isRunning) return;
            n.kubelet.stop();
            n.kubeletChangedAt = now();
          },
        },
        containerdSince: () => n.bootedAt,
        crictl: (args) => crictl(n.runtime, args, now()),
        iptablesSave: (args) => iptablesSaveCommand(args, n.proxy.iptables, now()),
        nft: (args) => nftCommand(args, n.proxy.nftables),
        ipvsadm: (args) => ipvsadmCommand(args, n.proxy.ipvs),
        ...(this.ha && this.controlPlanes.includes(node)
          ? {
              etcdctl: (args: string[]) =>
                etcdctl(
                  {
                    member: node,
                    raft: this.ha!.raft,
                    store: this.etcd,
                    members: this.controlPlanes,
                    ipOf: (m) => this.nodes.get(m)!.ip,
                  },
                  args,
                ),
            }
          : {}),
      },
      line.trim(),
    );
    this.sim.record({
      kind: 'command',
      from: `shell@${node}`,
      to: `shell@${node}`,
      command: line,
      exitCode: out.exitCode,
    });
    return out;
  }

  /** fault injects a failure or its repair. */
  fault(kind: Fault, node?: string): void {
    const n = node ? this.nodes.get(node) : undefined;
    if (node && !n) throw new Error(`fault ${kind}: node "${node}" not found`);
    this.sim.record({ kind: 'fault', from: 'scenario', to: node ?? 'cluster', fault: kind, node });
    const api = this.apiserver;
    if (this.ha && MEMBER_FAULTS.has(kind)) {
      this.ha.fault(kind, node);
      api.breakWatches();
      return;
    }
    switch (kind) {
      case 'node-down':
        if (!n!.power) return;
        n!.power = false;
        api.unreachable.add(n!.name);
        n!.kubelet.nodeDown();
        n!.kubeletChangedAt = this.sim.now();
        n!.proxy.stop();
        break;
      case 'node-up':
        if (n!.power) return;
        n!.power = true;
        if (!n!.partitioned) api.unreachable.delete(n!.name);
        n!.kubelet.nodeUp();
        n!.bootedAt = n!.kubeletChangedAt = this.sim.now();
        n!.proxy = this.newProxy(n!.name, n!.ip, n!.clusterCIDR);
        n!.proxy.start();
        break;
      case 'partition':
        n!.partitioned = true;
        api.unreachable.add(n!.name);
        break;
      case 'heal':
        n!.partitioned = false;
        if (n!.power) api.unreachable.delete(n!.name);
        break;
      case 'kubelet-stop':
        if (n!.kubelet.isRunning) n!.kubeletChangedAt = this.sim.now();
        n!.kubelet.stop();
        break;
      case 'kubelet-start':
        if (n!.power && !n!.kubelet.isRunning) {
          n!.kubelet.start();
          n!.kubeletChangedAt = this.sim.now();
        }
        break;
      // Simplification: apiserver-down and etcd-down make the process stop answering while its
      // container keeps running (crictl still lists it Running), as a hung process would.
      case 'apiserver-down':
        this.apiserverFault = true;
        api.down = true;
        break;
      case 'apiserver-up':
        this.apiserverFault = false;
        api.down = false;
        break;
      case 'etcd-down':
      case 'etcd-member-down':
        this.etcdFault = true;
        this.etcd.down = true;
        break;
      case 'etcd-up':
      case 'etcd-member-up':
        this.etcdFault = false;
        this.etcd.down = false;
        break;
    }
    if (kind.startsWith('apiserver') || kind.startsWith('etcd')) this.syncControlPlane();
    else if (this.ha && this.controlPlanes.includes(n!.name)) this.ha.sync();
    api.breakWatches();
  }

  /** node returns the API's view of a node. */
  node(name: string): Node | undefined {
    return this.apiserver.peekAll<Node>('nodes').find((n) => n.metadata.name === name);
  }
}

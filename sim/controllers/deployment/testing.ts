// Test fixtures for the Deployment and ReplicaSet controllers: a tiny control plane (etcd,
// kube-apiserver with frozen objects, the default namespace) and a fake kubelet that binds Pods
// round-robin to nodes, makes them Running and Ready, and finishes graceful deletions. Used only
// by *.test.ts files.

import { deepClone } from '../../api/clone.ts';
import { isPodReady } from '../../api/podutil.ts';
import type {
  Deployment,
  IntOrString,
  Namespace,
  ObjectMeta,
  ObjectMetaInput,
  Pod,
} from '../../api/types.ts';
import { KubeAPIServer } from '../../apiserver/apiserver.ts';
import { StatusError } from '../../apiserver/errors.ts';
import { Client } from '../../client/client.ts';
import { Informer } from '../../client/informer.ts';
import { metaNamespaceKey } from '../../client/keys.ts';
import { formatTime } from '../../engine/clock.ts';
import type { Settings } from '../../engine/settings.ts';
import { Simulation } from '../../engine/simulation.ts';
import { EtcdStore } from '../../etcd/store.ts';

export interface TestCluster {
  sim: Simulation;
  apiserver: KubeAPIServer;
  /** kubectl is a client for the test's own requests. */
  kubectl: Client;
}

/** newTestCluster builds a control plane with no components but kube-apiserver. */
export function newTestCluster(seed = 1, settings?: Partial<Settings>): TestCluster {
  const sim = new Simulation({ seed, settings });
  const apiserver = new KubeAPIServer(sim, new EtcdStore());
  apiserver.freeze = true;
  apiserver.create<Namespace>('test', 'namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'default' } as Namespace['metadata'],
    spec: {},
    status: { phase: 'Active' },
  });
  return { sim, apiserver, kubectl: new Client(apiserver, 'kubectl') };
}

export interface DeploymentOptions {
  replicas?: number;
  image?: string;
  strategy?: Deployment['spec']['strategy'];
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  minReadySeconds?: number;
  progressDeadlineSeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
}

/** newDeployment builds a Deployment "name" selecting app=name, as `kubectl create deployment` does. */
export function newDeployment(name: string, o: DeploymentOptions = {}): Deployment {
  const strategy: Deployment['spec']['strategy'] =
    o.strategy ??
    (o.maxSurge !== undefined || o.maxUnavailable !== undefined
      ? {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: o.maxSurge, maxUnavailable: o.maxUnavailable },
        }
      : undefined);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'default',
      labels: { app: name },
    } as ObjectMetaInput as ObjectMeta,
    spec: {
      replicas: o.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name, image: o.image ?? 'nginx:1.27' }] },
      },
      strategy,
      minReadySeconds: o.minReadySeconds,
      progressDeadlineSeconds: o.progressDeadlineSeconds,
      revisionHistoryLimit: o.revisionHistoryLimit,
      paused: o.paused,
    },
    status: {},
  };
}

export interface FakeKubeletOptions {
  nodes?: string[];
  /** bindDelay is how long a Pod waits for the "scheduler" (ms). */
  bindDelay?: number;
  /** readyDelay is how long a bound Pod takes to become Running and Ready (ms). */
  readyDelay?: number;
  /** stopDelay is how long a deleted Pod takes to stop (ms). */
  stopDelay?: number;
  /** becomesReady decides whether a Pod ever becomes Ready (default: all do). */
  becomesReady?: (pod: Pod) => boolean;
}

/**
 * FakeKubelet stands in for kube-scheduler and the kubelets: it binds Pods round-robin, marks them
 * Running and Ready, and removes deleted Pods after stopDelay.
 */
export class FakeKubelet {
  readonly informer: Informer<Pod>;
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly nodes: string[];
  private readonly bindDelay: number;
  private readonly readyDelay: number;
  private readonly stopDelay: number;
  becomesReady: (pod: Pod) => boolean;
  private next = 0;
  private readonly scheduled = new Set<string>();

  constructor(c: TestCluster, o: FakeKubeletOptions = {}) {
    this.sim = c.sim;
    this.client = new Client(c.apiserver, 'fake-kubelet');
    this.nodes = o.nodes ?? ['node-1', 'node-2', 'node-3'];
    this.bindDelay = o.bindDelay ?? 100;
    this.readyDelay = o.readyDelay ?? 1000;
    this.stopDelay = o.stopDelay ?? 500;
    this.becomesReady = o.becomesReady ?? (() => true);
    this.informer = new Informer<Pod>(this.client, 'pods');
    this.informer.addEventHandler({
      onAdd: (p) => this.handle(p),
      onUpdate: (_o, p) => this.handle(p),
    });
  }

  start(): void {
    this.informer.start();
  }

  private later(pod: Pod, action: string, delay: number, fn: (cur: Pod) => void): void {
    const id = `${pod.metadata.uid}/${action}`;
    if (this.scheduled.has(id)) return;
    this.scheduled.add(id);
    const key = metaNamespaceKey(pod);
    this.sim.after(delay, `fake-kubelet: ${action} ${key}`, () => {
      this.scheduled.delete(id);
      const cur = this.informer.getByKey(key);
      if (!cur || cur.metadata.uid !== pod.metadata.uid) return;
      try {
        fn(cur);
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        this.handle(this.informer.getByKey(key) ?? cur);
      }
    });
  }

  private handle(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) {
      this.later(pod, 'stop', this.stopDelay, (cur) =>
        this.client.delete('pods', cur.metadata.namespace, cur.metadata.name, {
          gracePeriodSeconds: 0,
        }),
      );
      return;
    }
    if (!pod.spec.nodeName) {
      this.later(pod, 'bind', this.bindDelay, (cur) => {
        if (cur.spec.nodeName) return;
        const node = this.nodes[this.next++ % this.nodes.length];
        this.client.bind(cur.metadata.namespace!, cur.metadata.name, cur.metadata.uid, node);
      });
      return;
    }
    if (!isPodReady(pod) && this.becomesReady(pod)) {
      this.later(pod, 'ready', this.readyDelay, (cur) => {
        if (isPodReady(cur) || cur.metadata.deletionTimestamp) return;
        this.client.updateStatus('pods', runningAndReady(cur, this.sim.now()));
      });
    }
  }
}

/** runningAndReady returns a copy of pod that is Running with every container Ready. */
export function runningAndReady(pod: Pod, now: number): Pod {
  const p = deepClone(pod);
  const t = formatTime(now);
  p.status.phase = 'Running';
  p.status.startTime ??= t;
  p.status.conditions = [
    ...(p.status.conditions ?? []).filter(
      (c) => c.type !== 'Ready' && c.type !== 'ContainersReady',
    ),
    { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: t },
    { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: t },
  ];
  p.status.containerStatuses = p.spec.containers.map((c) => ({
    name: c.name,
    state: { running: { startedAt: t } },
    lastState: {},
    ready: true,
    restartCount: 0,
    image: c.image,
    imageID: '',
    started: true,
  }));
  return p;
}

/** runUntilChecking runs the agenda to time t, calling check after every event. */
export function runUntilChecking(sim: Simulation, t: number, check: () => void): void {
  while (sim.nextEventTime() <= t) {
    sim.step();
    check();
  }
  sim.runUntil(t);
}

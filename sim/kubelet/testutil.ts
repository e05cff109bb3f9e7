// Builders for kubelet and runtime tests: a one-node cluster assembled by hand (no scheduler or
// controllers), pods bound directly, and kubectl's STATUS column for asserting what a learner sees.

import type { Binding, Container, Lease, Namespace, Node, Pod } from '../api/types.ts';
import { KubeAPIServer } from '../apiserver/apiserver.ts';
import { Client } from '../client/client.ts';
import type { Settings } from '../engine/settings.ts';
import { Simulation } from '../engine/simulation.ts';
import { EtcdStore } from '../etcd/store.ts';
import { ContainerRuntime } from '../runtime/container-runtime.ts';
import { ImageCatalog, type ImageOverride } from '../runtime/images.ts';
import { Kubelet } from './kubelet.ts';

export interface TestNode {
  sim: Simulation;
  apiserver: KubeAPIServer;
  runtime: ContainerRuntime;
  kubelet: Kubelet;
}

export interface TestNodeOptions {
  seed?: number;
  settings?: Partial<Settings>;
  images?: Record<string, ImageOverride>;
  preloaded?: string[];
  nodeName?: string;
  start?: boolean;
  recordEvents?: boolean;
}

/** newTestNode builds kube-apiserver (frozen objects), the namespaces, and one node's kubelet. */
export function newTestNode(o: TestNodeOptions = {}): TestNode {
  const sim = new Simulation({ seed: o.seed ?? 1, settings: o.settings });
  const apiserver = new KubeAPIServer(sim, new EtcdStore());
  apiserver.freeze = true;
  for (const name of ['default', 'kube-node-lease', 'kube-system'])
    apiserver.create('test', 'namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    } as Namespace);
  const nodeName = o.nodeName ?? 'node-1';
  const runtime = new ContainerRuntime(sim, {
    nodeName,
    podCIDR: '10.244.1.0/24',
    images: new ImageCatalog(o.images ?? {}),
    preloaded: o.preloaded ?? [],
  });
  const kubelet = new Kubelet(sim, new Client(apiserver, `kubelet@${nodeName}`), {
    nodeName,
    cpu: '4',
    memory: '8Gi',
    pods: 110,
    podCIDR: '10.244.1.0/24',
    internalIP: '10.0.0.11',
    runtime,
    recordEvents: o.recordEvents,
  });
  if (o.start !== false) kubelet.start();
  return { sim, apiserver, runtime, kubelet };
}

/** newPod builds a Pod with one container per image (named after the image's repository). */
export function newPod(
  name: string,
  images: string | string[],
  extra: Partial<Pod['spec']> = {},
  containers?: Partial<Container>[],
): Pod {
  const list = Array.isArray(images) ? images : [images];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      containers: list.map((image, i) => ({
        name:
          image
            .split('/')
            .pop()!
            .split(':')[0]
            .replace(/[^a-z0-9-]/g, '') || `c${i}`,
        image,
        ...(containers?.[i] ?? {}),
      })),
      ...extra,
    },
    status: {},
  } as unknown as Pod;
}

/** createAndBind creates a pod and binds it to the node, as the scheduler would. */
export function createAndBind(t: TestNode, pod: Pod, node = t.kubelet.nodeName): Pod {
  const created = t.apiserver.create('kubectl', 'pods', pod);
  const b: Binding = {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: created.metadata.name, namespace: 'default' },
    target: { kind: 'Node', name: node },
  };
  t.apiserver.bind('kube-scheduler', b);
  return created;
}

export function getPod(t: TestNode, name: string): Pod | undefined {
  return t.apiserver.peekAll<Pod>('pods').find((p) => p.metadata.name === name);
}

export function getNode(t: TestNode, name = t.kubelet.nodeName): Node | undefined {
  return t.apiserver.peekAll<Node>('nodes').find((n) => n.metadata.name === name);
}

export function getLease(t: TestNode, name = t.kubelet.nodeName): Lease | undefined {
  return t.apiserver.peekAll<Lease>('leases').find((n) => n.metadata.name === name);
}

/** podStatusString is kubectl's STATUS column (printPod), enough for these tests. */
export function podStatusString(pod: Pod): string {
  let reason: string = pod.status.reason || pod.status.phase || 'Pending';
  const cs = pod.status.containerStatuses ?? [];
  for (let i = cs.length - 1; i >= 0; i--) {
    const c = cs[i];
    if (c.state.waiting?.reason) reason = c.state.waiting.reason;
    else if (c.state.terminated?.reason) reason = c.state.terminated.reason;
    else if (c.state.terminated)
      reason = c.state.terminated.signal
        ? `Signal:${c.state.terminated.signal}`
        : `ExitCode:${c.state.terminated.exitCode}`;
  }
  if (reason === 'Completed' && cs.some((c) => c.state.running)) reason = 'Running';
  if (
    pod.metadata.deletionTimestamp &&
    pod.status.phase !== 'Succeeded' &&
    pod.status.phase !== 'Failed'
  )
    reason = 'Terminating';
  return reason;
}

/** statusHistory lists the STATUS strings a watcher would have seen for a pod, with times (s). */
export function statusHistory(
  t: TestNode,
  name: string,
): { t: number; status: string; pod: Pod }[] {
  const out: { t: number; status: string; pod: Pod }[] = [];
  for (const ch of t.apiserver.changes) {
    if (ch.resource !== 'pods' || ch.object.metadata.name !== name) continue;
    const pod = ch.object as Pod;
    const status = ch.type === 'DELETED' ? 'DELETED' : podStatusString(pod);
    if (out.length && out[out.length - 1].status === status) continue;
    out.push({ t: ch.t, status, pod });
  }
  return out;
}

/** callMethods lists the CRI/CNI methods in the trace, optionally for one pod. */
export function callMethods(t: TestNode, pod?: string): string[] {
  return t.sim.trace
    .filter((e) => e.kind === 'call' && (!pod || e.pod === `default/${pod}`))
    .map((e) => (e.kind === 'call' ? e.method : ''));
}

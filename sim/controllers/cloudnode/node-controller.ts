// Mirrors k8s.io/cloud-provider controllers/node/node_controller.go (see "Simplification:"
// notes): cloud-controller-manager's cloud-node-controller. A kubelet started with
// --cloud-provider=external registers its Node with the taint
// node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule; this controller asks the cloud
// for the machine's metadata, sets spec.providerID and the instance-type and topology labels and
// removes the taint in one Update (syncNode), then patches status.addresses with the cloud's
// addresses (updateNodeAddress) and records Synced "Node synced successfully". Every
// nodeStatusUpdateFrequency (5 min) it checks the initialized nodes' addresses again
// (UpdateNodeStatus).
// Simplification: the labels are set only at initialization (no reconcileNodeLabels of the
// deprecated beta labels later), and there is no cloud-node-lifecycle-controller (which deletes
// the Node of a machine the cloud no longer has).

import { deepClone, deepEqual } from '../../api/clone.ts';
import type { Node } from '../../api/types.ts';
import { isNotFound, StatusError } from '../../apiserver/errors.ts';
import { StrategicMergePatchType } from '../../apiserver/patch.ts';
import type { Client } from '../../client/client.ts';
import { EventRecorder } from '../../client/events.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import type { RateLimitingQueue } from '../../client/workqueue.ts';
import type { Simulation, TimerHandle } from '../../engine/simulation.ts';
import type { FakeCloud, InstanceMetadata } from '../../cloudprovider/fake.ts';
import { nodeStatusPatch } from '../../kubelet/node-status.ts';
import { newSyncQueue } from '../controller-utils.ts';

/** TaintExternalCloudProvider is the taint a kubelet with --cloud-provider=external registers with. */
export const TaintExternalCloudProvider = 'node.cloudprovider.kubernetes.io/uninitialized';
/** nodeStatusUpdateFrequency is --node-status-update-frequency's default for this controller. */
const nodeStatusUpdateFrequency = 300_000;

/** CloudNodeController is cloud-controller-manager's cloud-node-controller. */
export class CloudNodeController {
  static readonly NAME = 'cloud-node-controller';
  readonly nodes: Informer<Node>;
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly cloud: FakeCloud;
  private readonly recorder: EventRecorder;
  private queue: RateLimitingQueue;
  private timer: TimerHandle | undefined;

  constructor(
    sim: Simulation,
    client: Client,
    cloud: FakeCloud,
    informers = new SharedInformerFactory(client),
  ) {
    this.sim = sim;
    this.client = client;
    this.cloud = cloud;
    this.recorder = new EventRecorder(client, 'cloud-node-controller');
    this.queue = this.newQueue();
    this.nodes = informers.informerFor<Node>('nodes', CloudNodeController.NAME);
    this.nodes.addEventHandler(
      {
        onAdd: (n) => this.queue.add(n.metadata.name),
        onUpdate: (_o, n) => this.queue.add(n.metadata.name),
      },
      CloudNodeController.NAME,
    );
  }

  private newQueue(): RateLimitingQueue {
    return newSyncQueue(this.sim, this.client, { name: 'Nodes' }, (key) => this.syncNode(key));
  }

  start(): void {
    if (this.queue.shuttingDown) this.queue = this.newQueue();
    this.nodes.start();
    this.timer = this.sim.after(
      nodeStatusUpdateFrequency,
      'cloud-node-controller: UpdateNodeStatus',
      () => this.updateNodeStatusTick(),
    );
  }

  stop(): void {
    this.nodes.stop();
    this.queue.shutDown();
    this.timer?.cancel();
  }

  private updateNodeStatusTick(): void {
    this.updateNodeStatus();
    this.timer = this.sim.after(
      nodeStatusUpdateFrequency,
      'cloud-node-controller: UpdateNodeStatus',
      () => this.updateNodeStatusTick(),
    );
  }

  /** updateNodeStatus brings every initialized node's addresses up to the cloud's. */
  updateNodeStatus(): void {
    for (const node of this.nodes.list()) {
      if (getCloudTaint(node)) continue;
      try {
        this.updateNodeAddress(node, this.cloud.instanceMetadata(CloudNodeController.NAME, node));
      } catch (e) {
        // Upstream logs the error and tries again at the next period.
        if (!(e instanceof StatusError)) throw e;
      }
    }
  }

  /**
   * syncNode initializes a node that still has the cloud taint: providerID, labels, the taint
   * removed, then its addresses. An initialized node needs nothing. Level-triggered.
   */
  syncNode(name: string): void {
    const cur = this.nodes.get(undefined, name);
    if (!cur || !getCloudTaint(cur)) return;
    const meta = this.cloud.instanceMetadata(CloudNodeController.NAME, cur);
    // Never mutate cached objects; clone first.
    const node = deepClone(cur);
    if (!node.spec.providerID) node.spec.providerID = meta.providerID;
    const labels = (node.metadata.labels ??= {});
    labels['beta.kubernetes.io/instance-type'] = meta.instanceType;
    labels['node.kubernetes.io/instance-type'] = meta.instanceType;
    labels['failure-domain.beta.kubernetes.io/zone'] = meta.zone;
    labels['topology.kubernetes.io/zone'] = meta.zone;
    labels['failure-domain.beta.kubernetes.io/region'] = meta.region;
    labels['topology.kubernetes.io/region'] = meta.region;
    node.spec.taints = (node.spec.taints ?? []).filter((t) => t.key !== TaintExternalCloudProvider);
    if (!node.spec.taints.length) delete node.spec.taints;
    // Simplification: one try, not clientretry.RetryOnConflict's five; a conflict requeues.
    const updated = this.client.update<Node>('nodes', node);
    this.updateNodeAddress(updated, meta);
    this.recorder.event(cur, 'Normal', 'Synced', 'Node synced successfully');
  }

  /**
   * updateNodeAddress patches nodes/status with the cloud's addresses (the kubelet's Hostname kept
   * when the cloud gives none), when they differ from the Node's.
   */
  private updateNodeAddress(node: Node, meta: InstanceMetadata): void {
    if (getCloudTaint(node) || !meta.nodeAddresses.length) return;
    const addresses = meta.nodeAddresses.map((a) => ({ ...a }));
    if (!addresses.some((a) => a.type === 'Hostname'))
      for (const a of node.status?.addresses ?? [])
        if (a.type === 'Hostname') addresses.push({ ...a });
    if (deepEqual(node.status?.addresses ?? [], addresses)) return;
    const patch = nodeStatusPatch(node.status, { ...node.status, addresses });
    if (!patch) return;
    try {
      this.client.patch<Node>(
        'nodes',
        undefined,
        node.metadata.name,
        { status: patch },
        'status',
        StrategicMergePatchType,
      );
    } catch (e) {
      // Upstream logs the failure; the next UpdateNodeStatus tries again.
      if (!(e instanceof StatusError) || isNotFound(e)) return;
    }
  }
}

// getCloudTaint is the node's uninitialized taint, if it has one.
function getCloudTaint(node: Node) {
  return node.spec.taints?.find((t) => t.key === TaintExternalCloudProvider);
}

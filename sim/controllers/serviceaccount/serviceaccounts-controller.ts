// Mirrors pkg/controller/serviceaccount/serviceaccounts_controller.go: every active namespace has
// the ServiceAccounts to ensure (DefaultServiceAccountsControllerOptions: `default`). A namespace
// added or updated is synced, and so is the namespace of a deleted ServiceAccount, which is how a
// deleted `default` comes back.

import type { Namespace, ServiceAccount } from '../../api/types.ts';
import { isAlreadyExists, StatusError } from '../../apiserver/errors.ts';
import type { Client } from '../../client/client.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import type { RateLimitingQueue } from '../../client/workqueue.ts';
import type { Simulation } from '../../engine/simulation.ts';
import { newSyncQueue } from '../controller-utils.ts';

/** serviceAccountsToEnsure are the ServiceAccounts every namespace gets. */
const serviceAccountsToEnsure = ['default'];

/** ServiceAccountsController is kube-controller-manager's serviceaccount-controller. */
export class ServiceAccountsController {
  static readonly NAME = 'serviceaccount-controller';
  readonly namespaces: Informer<Namespace>;
  readonly serviceAccounts: Informer<ServiceAccount>;
  private readonly sim: Simulation;
  private readonly client: Client;
  private queue: RateLimitingQueue;

  constructor(sim: Simulation, client: Client, informers = new SharedInformerFactory(client)) {
    this.sim = sim;
    this.client = client;
    this.queue = this.newQueue();
    this.serviceAccounts = informers.informerFor<ServiceAccount>(
      'serviceaccounts',
      ServiceAccountsController.NAME,
    );
    this.serviceAccounts.addEventHandler(
      { onDelete: (sa) => this.queue.add(sa.metadata.namespace ?? '') },
      ServiceAccountsController.NAME,
    );
    this.namespaces = informers.informerFor<Namespace>(
      'namespaces',
      ServiceAccountsController.NAME,
    );
    this.namespaces.addEventHandler(
      {
        onAdd: (ns) => this.queue.add(ns.metadata.name),
        onUpdate: (_old, ns) => this.queue.add(ns.metadata.name),
      },
      ServiceAccountsController.NAME,
    );
  }

  private newQueue(): RateLimitingQueue {
    return newSyncQueue(this.sim, this.client, { name: 'serviceaccount' }, (key) =>
      this.syncNamespace(key),
    );
  }

  start(): void {
    if (this.queue.shuttingDown) this.queue = this.newQueue();
    this.serviceAccounts.start();
    this.namespaces.start();
  }

  stop(): void {
    this.serviceAccounts.stop();
    this.namespaces.stop();
    this.queue.shutDown();
  }

  /** syncNamespace creates the missing ServiceAccounts of an active namespace. Level-triggered. */
  syncNamespace(key: string): void {
    const ns = this.namespaces.get(undefined, key);
    if (!ns || ns.status?.phase !== 'Active') return;
    const failures: StatusError[] = [];
    for (const name of serviceAccountsToEnsure) {
      if (this.serviceAccounts.get(key, name)) continue;
      const sa: ServiceAccount = {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name, namespace: key } as ServiceAccount['metadata'],
      };
      try {
        this.client.create('serviceaccounts', sa, true);
      } catch (e) {
        // Simplification: no namespace is ever Terminating (no namespace controller), so only
        // AlreadyExists is ignored (upstream also ignores NamespaceTerminatingCause).
        if (!(e instanceof StatusError)) throw e;
        if (!isAlreadyExists(e)) failures.push(e);
      }
    }
    if (failures.length) throw failures[0];
  }
}

// Mirrors pkg/controller/certificates/rootcacertpublisher/publisher.go: the root CA publisher
// keeps the `kube-root-ca.crt` ConfigMap, holding the cluster CA bundle under `ca.crt` and its
// kubernetes.io/description annotation, in every namespace; a namespace added or becoming active,
// and a change to or deletion of that ConfigMap, sync the namespace.
// Simplification: the CA bundle is an opaque placeholder, not a certificate (no PKI is modelled).

import { deepClone } from '../../api/clone.ts';
import type { ConfigMap, Namespace } from '../../api/types.ts';
import { isNotFound } from '../../apiserver/errors.ts';
import type { Client } from '../../client/client.ts';
import { SharedInformerFactory, type Informer } from '../../client/informer.ts';
import type { RateLimitingQueue } from '../../client/workqueue.ts';
import type { Simulation } from '../../engine/simulation.ts';
import { newSyncQueue } from '../controller-utils.ts';

export const RootCACertConfigMapName = 'kube-root-ca.crt';
export const DescriptionAnnotation = 'kubernetes.io/description';
export const Description =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/** rootCA stands for /etc/kubernetes/pki/ca.crt: PEM armour around placeholder text, not a key. */
export const rootCA =
  '-----BEGIN CERTIFICATE-----\n' +
  'U2ltdWxhdGVkIGNsdXN0ZXIgQ0E6IGEgcGxhY2Vob2xkZXIsIG5vdCBhIGNlcnRp\n' +
  'ZmljYXRlIChLdWJlcm5ldGVzIEFyY2hpdGVjdHVyZSBMYWIp\n' +
  '-----END CERTIFICATE-----\n';

/** Publisher is kube-controller-manager's root-ca-certificate-publisher-controller. */
export class Publisher {
  static readonly NAME = 'root-ca-certificate-publisher-controller';
  readonly configMaps: Informer<ConfigMap>;
  readonly namespaces: Informer<Namespace>;
  private readonly sim: Simulation;
  private readonly client: Client;
  private queue: RateLimitingQueue;

  constructor(sim: Simulation, client: Client, informers = new SharedInformerFactory(client)) {
    this.sim = sim;
    this.client = client;
    this.queue = this.newQueue();
    this.configMaps = informers.informerFor<ConfigMap>('configmaps', Publisher.NAME);
    this.configMaps.addEventHandler(
      {
        onUpdate: (_old, cm) => this.configMapChanged(cm),
        onDelete: (cm) => this.configMapChanged(cm),
      },
      Publisher.NAME,
    );
    this.namespaces = informers.informerFor<Namespace>('namespaces', Publisher.NAME);
    this.namespaces.addEventHandler(
      {
        onAdd: (ns) => this.queue.add(ns.metadata.name),
        onUpdate: (_old, ns) => {
          if (ns.status?.phase === 'Active') this.queue.add(ns.metadata.name);
        },
      },
      Publisher.NAME,
    );
  }

  private newQueue(): RateLimitingQueue {
    return newSyncQueue(this.sim, this.client, { name: 'root_ca_cert_publisher' }, (key) =>
      this.syncNamespace(key),
    );
  }

  start(): void {
    if (this.queue.shuttingDown) this.queue = this.newQueue();
    this.configMaps.start();
    this.namespaces.start();
  }

  stop(): void {
    this.configMaps.stop();
    this.namespaces.stop();
    this.queue.shutDown();
  }

  private configMapChanged(cm: ConfigMap): void {
    if (cm.metadata.name === RootCACertConfigMapName && cm.metadata.namespace)
      this.queue.add(cm.metadata.namespace);
  }

  /** syncNamespace creates or repairs the namespace's kube-root-ca.crt. Level-triggered. */
  syncNamespace(ns: string): void {
    const cm = this.configMaps.get(ns, RootCACertConfigMapName);
    if (!cm) {
      const fresh: ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: RootCACertConfigMapName,
          namespace: ns,
          annotations: { [DescriptionAnnotation]: Description },
        } as unknown as ConfigMap['metadata'],
        data: { 'ca.crt': rootCA },
      };
      try {
        this.client.create('configmaps', fresh, true);
      } catch (e) {
        // A namespace that is gone is not retried.
        if (!isNotFound(e)) throw e;
      }
      return;
    }
    const data = cm.data ?? {};
    const same = Object.keys(data).length === 1 && data['ca.crt'] === rootCA;
    if (same && cm.metadata.annotations?.[DescriptionAnnotation]) return;
    // Never change the cached object: clone first.
    const next = deepClone(cm);
    next.data = { 'ca.crt': rootCA };
    next.metadata.annotations = {
      ...next.metadata.annotations,
      [DescriptionAnnotation]: Description,
    };
    this.client.update('configmaps', next, true);
  }
}

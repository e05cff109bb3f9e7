// The highly available control plane (`cluster.controlPlane.count` 3 or 5), as kubeadm's stacked
// topology builds it: every control-plane node runs an etcd member, a kube-apiserver talking to
// its local member only (--etcd-servers=https://127.0.0.1:2379), and a kube-scheduler and a
// kube-controller-manager that elect a leader through Leases in kube-system. Clients reach the
// apiservers through one load-balanced address (kubeadm's controlPlaneEndpoint).
//
// etcd's consensus is sim/etcd/raft.ts; the key space every member applies is the one EtcdStore
// (see the simplification there). A kube-apiserver instance serves while its process runs on a
// powered, reachable node and its local member can complete a linearizable request (it is in a
// quorum with a leader). Leader election is sim/client/leaderelection.ts, with client-go's
// defaults (leaseDuration 15 s, renewDeadline 10 s, retryPeriod 2 s).
//
// Simplification: the instances behind the load balancer answer as one: a request succeeds when
// any instance can serve it (the load balancer's health check, GET /healthz, routes around the
// others), and the instances share one watch cache, fed by the store in revision order (upstream
// each has its own, fed by a watch on its own member; a member that is behind serves no
// linearizable read, so its apiserver's clients are moved to another instance when it fails
// /healthz). Watches break, and clients relist through the load balancer, when the set of
// serving instances changes as it does when an instance stops.
// Simplification: one kube-scheduler and one set of kube-controller-manager's controllers stand
// for whichever instance leads: they start when an instance acquires its Lease and stop when it
// loses it or its node stops (upstream the standbys keep their informers warm; here the new
// leader lists when it takes over, as a restarted process does). A leader that loses its Lease
// stops leading and campaigns again (upstream the process exits and the kubelet restarts its
// static Pod, which then campaigns).

import type { EndpointSlice, Lease } from '../api/types.ts';
import { isNotFound } from '../apiserver/errors.ts';
import { formatMicroTime } from '../engine/clock.ts';
import { base32Encode, sha256 } from '../proxy/sha256.ts';
import type { Client } from '../client/client.ts';
import type { EtcdStore } from '../etcd/store.ts';
import type { KubeAPIServer } from '../apiserver/apiserver.ts';
import type { Simulation } from '../engine/simulation.ts';
import { EtcdCluster } from '../etcd/raft.ts';
import { EventRecorder } from '../client/events.ts';
import { LeaderElector } from '../client/leaderelection.ts';
import type { ContainerRuntime } from '../runtime/container-runtime.ts';

/** A component that runs only while its instance leads. */
export interface Leadable {
  start(): void;
  stop(): void;
}

/** ControlPlaneHost is what the control plane needs of a node. */
export interface ControlPlaneHost {
  readonly name: string;
  readonly ip: string;
  readonly runtime: ContainerRuntime;
  readonly power: boolean;
  readonly partitioned: boolean;
}

/** LB_ADDRESS is the control plane's load-balanced endpoint (kubeadm's controlPlaneEndpoint). */
export const LB_ADDRESS = '10.0.0.5:6443';

/** Elected is a leader-elected component: its Lease and its electors, one per control-plane node. */
interface Elected {
  readonly lease: string;
  readonly component: Leadable;
  /** electors by node; undefined while the node's process is not running. */
  readonly electors: Map<string, LeaderElector | undefined>;
  /** leader is the node whose elector leads, if any. */
  leader: string | undefined;
  /** starts counts each node's process starts, for a new identity per start. */
  readonly starts: Map<string, number>;
}

export class HAControlPlane {
  readonly members: readonly string[];
  readonly raft: EtcdCluster;
  /** memberFault and apiserverFault are the etcd-member-down and apiserver-down faults in force. */
  private readonly memberFault = new Set<string>();
  private readonly apiserverFault = new Set<string>();
  private readonly elected: Elected[] = [];
  private serving = '';

  private readonly sim: Simulation;
  private readonly apiserver: KubeAPIServer;
  private readonly store: EtcdStore;
  private readonly host: (name: string) => ControlPlaneHost;
  private readonly newClient: (user: string) => Client;

  constructor(
    sim: Simulation,
    apiserver: KubeAPIServer,
    store: EtcdStore,
    host: (name: string) => ControlPlaneHost,
    members: readonly string[],
    newClient: (user: string) => Client,
  ) {
    this.sim = sim;
    this.apiserver = apiserver;
    this.store = store;
    this.host = host;
    this.newClient = newClient;
    this.members = members;
    this.raft = new EtcdCluster(sim, members);
    // A cluster born settled has a leader: the first member, at term 2 (Simplification: the
    // Raft state is not part of the born image; every run starts from this one).
    this.raft.bootstrapLeader(members[0]);
    const sync = () => this.sync();
    this.raft.onChange = sync;
    // Every committed write is one entry of the Raft log, proposed through the leader.
    store.watch('/registry/', (ev) => {
      const leader = this.raft.leader();
      if (leader) this.raft.propose(leader, `${ev.type.toLowerCase()} ${ev.kv.key}`);
    });
    apiserver.address = LB_ADDRESS;
  }

  /**
   * elect runs component under leader election on every control-plane node (Lease
   * kube-system/<lease>, identity <node>_<uuid> as kube-scheduler and kube-controller-manager
   * build it).
   */
  elect(lease: string, component: Leadable): void {
    const e: Elected = {
      lease,
      component,
      electors: new Map(),
      leader: undefined,
      starts: new Map(),
    };
    this.elected.push(e);
    for (const m of this.members) this.startElector(e, m);
  }

  private startElector(e: Elected, node: string): void {
    if (e.electors.get(node)) return;
    const n = (e.starts.get(node) ?? 0) + 1;
    e.starts.set(node, n);
    // The lock has a clientset of its own; its events are core/v1 ones from the component's
    // legacy recorder (cmd/kube-scheduler/app/options/options.go, cmd/kube-controller-manager).
    const client = this.newClient(`${e.lease}@${node}`);
    const recorder = new EventRecorder(
      client,
      e.lease === 'kube-scheduler' ? 'default-scheduler' : e.lease,
    );
    const elector = new LeaderElector(
      this.sim,
      client,
      recorder,
      {
        lockNamespace: 'kube-system',
        lockName: e.lease,
        identity: `${node}_${uuidFor(`${e.lease}/${node}/${n}`)}`,
        releaseOnCancel: e.lease === 'kube-scheduler',
      },
      {
        onStartedLeading: () => {
          e.leader = node;
          e.component.start();
        },
        onStoppedLeading: () => {
          if (e.leader !== node) return;
          e.leader = undefined;
          e.component.stop();
        },
      },
    );
    e.electors.set(node, elector);
    elector.run();
  }

  /** stopElectors is a control-plane node's processes dying: its electors stop at once. */
  private stopElectors(node: string): void {
    for (const e of this.elected) {
      const el = e.electors.get(node);
      if (!el) continue;
      el.stop();
      e.electors.set(node, undefined);
      if (e.leader === node) {
        e.leader = undefined;
        e.component.stop();
      }
    }
  }

  /**
   * startEndpointReconcilers starts each kube-apiserver's lease endpoint reconciler
   * (pkg/controlplane/reconcilers/lease.go, --endpoint-reconciler-type=lease): every 10 s
   * (DefaultEndpointReconcilerInterval) an instance that can reach etcd writes its master lease,
   * /registry/masterleases/<its IP> with a 15 s TTL (DefaultEndpointReconcilerTTL), and sets the
   * `kubernetes` EndpointSlice to the IPs whose leases are alive, sorted; a stopped instance's
   * address drops out when its lease expires. Each instance starts its loop when it starts.
   * Simplification: only the EndpointSlice is written (upstream the Endpoints object too, which
   * this simulator does not serve).
   */
  startEndpointReconcilers(): void {
    // wait.Until runs the loop at once, then every interval: the instances start together here.
    for (const m of this.members) {
      const tick = () => {
        this.sim.after(10_000, `kube-apiserver@${m}: reconcile endpoints`, tick, 0);
        this.reconcileEndpoints(m);
      };
      tick();
    }
  }

  /**
   * startIdentityLeases starts each kube-apiserver's identity Lease controller
   * (pkg/controlplane/apiserver/server.go, the APIServerIdentity feature, on since v1.26): a Lease
   * in kube-system named apiserver-<hash> (the first 16 bytes of the SHA-256 of the length-
   * prefixed hostname and "kube-apiserver", in lower-case base32 without padding), labelled
   * apiserver.kubernetes.io/identity=kube-apiserver and kubernetes.io/hostname, held by
   * <name>_<uuid> for 3600 s (IdentityLeaseDurationSeconds) and renewed every 10 s
   * (IdentityLeaseRenewIntervalPeriod) by the lease controller of component-helpers, jittered 4 %.
   * Simplification: only with several control-plane nodes (with one, kube-system has no identity
   * Lease, as before this model of the HA control plane); the garbage collector of leases idle
   * for an hour is not modelled.
   */
  startIdentityLeases(): void {
    for (const m of this.members) {
      const name = apiserverIdentity(m);
      const holder = `${name}_${uuidFor(`kube-apiserver/${m}`)}`;
      const rng = this.sim.rng.fork(`kube-apiserver/${m}/identity-lease`);
      const tick = () => {
        this.sim.after(
          Math.round(10_000 * (1 + 0.04 * rng.float())),
          `kube-apiserver@${m}: renew identity lease`,
          tick,
          0,
        );
        this.renewIdentity(m, name, holder);
      };
      tick();
    }
  }

  private renewIdentity(m: string, name: string, holder: string): void {
    const h = this.host(m);
    if (h.partitioned || this.apiserverFault.has(m) || !this.running(h, 'kube-apiserver')) return;
    if (this.raft.serve(m) !== 'ok') return;
    const user = `kube-apiserver@${m}`;
    const spec = {
      holderIdentity: holder,
      leaseDurationSeconds: 3600,
      renewTime: formatMicroTime(this.sim.now()),
    };
    try {
      let cur: Lease | undefined;
      try {
        cur = this.apiserver.get<Lease>(user, 'leases', 'kube-system', name);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      if (!cur) {
        this.apiserver.create<Lease>(user, 'leases', {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: {
            name,
            namespace: 'kube-system',
            labels: {
              'apiserver.kubernetes.io/identity': 'kube-apiserver',
              'kubernetes.io/hostname': m,
            },
          },
          spec,
        } as unknown as Lease);
        return;
      }
      this.apiserver.update<Lease>(user, 'leases', { ...cur, spec: { ...cur.spec, ...spec } });
    } catch {
      // The controller tries again at its next tick.
    }
  }

  private reconcileEndpoints(m: string): void {
    const h = this.host(m);
    if (h.partitioned || this.apiserverFault.has(m) || !this.running(h, 'kube-apiserver')) return;
    if (this.raft.serve(m) !== 'ok') return;
    const key = `/registry/masterleases/${h.ip}`;
    const lease = this.store.grant(15);
    const cur = this.store.get(key);
    const value = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: h.ip },
      subsets: [{ addresses: [{ ip: h.ip }] }],
    };
    if (cur) this.store.update(key, cur.modRevision, () => value, lease);
    else this.store.create(key, () => value, lease);
    const live = this.store
      .range('/registry/masterleases/')
      .map((kv) => kv.key.slice('/registry/masterleases/'.length))
      .sort(compareIPs);
    const user = `kube-apiserver@${m}`;
    try {
      const slice = this.apiserver.get<EndpointSlice>(
        user,
        'endpointslices',
        'default',
        'kubernetes',
      );
      const now = slice.endpoints?.map((e) => e.addresses[0]) ?? [];
      if (now.join() === live.join()) return;
      this.apiserver.update<EndpointSlice>(user, 'endpointslices', {
        ...slice,
        endpoints: live.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
      });
    } catch {
      // A failed write is retried at the next tick, as upstream's loop does.
    }
  }

  /** leaderOf is the node whose instance of a leader-elected component leads. */
  leaderOf(lease: string): string | undefined {
    return this.elected.find((e) => e.lease === lease)?.leader;
  }

  /** fault applies an apiserver-* or etcd-* fault to one member (node) or to all. */
  fault(kind: string, node: string | undefined): void {
    const targets = node ? [node] : this.members;
    for (const m of targets) {
      if (kind === 'apiserver-down') this.apiserverFault.add(m);
      else if (kind === 'apiserver-up') this.apiserverFault.delete(m);
      else if (kind === 'etcd-down' || kind === 'etcd-member-down') this.memberFault.add(m);
      else if (kind === 'etcd-up' || kind === 'etcd-member-up') this.memberFault.delete(m);
    }
    this.sync();
  }

  private running(h: ControlPlaneHost, component: string): boolean {
    return (
      h.power &&
      h.runtime.running &&
      h.runtime
        .listContainers()
        .some(
          (c) =>
            c.podNamespace === 'kube-system' &&
            c.podName === `${component}-${h.name}` &&
            c.metadata.name === component &&
            c.state === 'CONTAINER_RUNNING',
        )
    );
  }

  /**
   * sync brings the members, the apiserver instances and the electors in line with the nodes'
   * power, partitions and containers and the faults in force.
   */
  sync(): void {
    // The members' changes call back (EtcdCluster.onChange): the outermost sync sees them all.
    if (this.syncing) return;
    this.syncing = true;
    try {
      this.syncMembers();
    } finally {
      this.syncing = false;
    }
  }

  private syncing = false;
  /** cutKey names the partitioned members the Raft cluster was last told of. */
  private cutKey = '';

  private syncMembers(): void {
    const hosts = this.members.map((m) => this.host(m));
    for (const h of hosts) {
      this.raft.setMemberUp(h.name, !this.memberFault.has(h.name) && this.running(h, 'etcd'));
      if (!h.power) this.stopElectors(h.name);
      else for (const e of this.elected) this.startElector(e, h.name);
    }
    const cut = new Set(hosts.filter((h) => h.partitioned).map((h) => h.name));
    const cutKey = [...cut].join(',');
    if (cutKey !== this.cutKey) {
      this.cutKey = cutKey;
      this.raft.setConnected((a, b) => a === b || (!cut.has(a) && !cut.has(b)));
    }
    const up = hosts.filter(
      (h) =>
        !h.partitioned && !this.apiserverFault.has(h.name) && this.running(h, 'kube-apiserver'),
    );
    const serving = up.filter((h) => this.raft.serve(h.name) === 'ok').map((h) => h.name);
    const down = up.length === 0;
    const etcdError = down || serving.length ? undefined : this.raft.serve(up[0].name);
    const key = `${down} ${etcdError ?? ''} ${serving.join(',')}`;
    if (key === this.serving) return;
    this.serving = key;
    this.apiserver.down = down;
    this.store.down = etcdError !== undefined;
    if (etcdError !== undefined) this.apiserver.etcdError = etcdError;
    this.apiserver.breakWatches();
  }
}

/**
 * uuidFor is a version-4-shaped UUID derived from a name, so that a process's identity is the
 * same in a cluster's birth and in every run born from it (a restarted process gets a new one).
 * Simplification: upstream draws it at random (k8s.io/apimachinery/pkg/util/uuid).
 */
export function uuidFor(name: string): string {
  const b = sha256(name).slice(0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function compareIPs(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/**
 * apiserverIdentity is a kube-apiserver's identity Lease name for its hostname
 * (k8s.io/apiserver pkg/server/config.go NewConfig): "apiserver-" and the lower-case, unpadded
 * base32 of the first 16 bytes of SHA-256 over the uint16-length-prefixed hostname and
 * "kube-apiserver".
 */
export function apiserverIdentity(hostname: string): string {
  const enc = new TextEncoder();
  const parts = [enc.encode(hostname), enc.encode('kube-apiserver')];
  const data = new Uint8Array(parts.reduce((n, p) => n + 2 + p.length, 0));
  let i = 0;
  for (const p of parts) {
    data[i++] = p.length >> 8;
    data[i++] = p.length & 0xff;
    data.set(p, i);
    i += p.length;
  }
  return `apiserver-${base32Encode(sha256(data).slice(0, 16)).replace(/=+$/, '').toLowerCase()}`;
}

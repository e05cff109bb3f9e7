// Mirrors kubernetes/ingress-nginx internal/ingress/controller and internal/ingress/status, and
// NGINX Gateway Fabric 1.x: an ingress controller and a Gateway API implementation as one model
// of a controller that programs a proxy (see "Simplification:" notes). In mode 'ingress-nginx'
// it is modelled on ingress-nginx (internal/ingress/controller: the store's informers, syncIngress
// rendering one configuration, upstreams of Pod endpoints; internal/ingress/status: the
// publish-service address written into each Ingress's status.loadBalancer every 60 s). In mode
// 'gateway' it is modelled on NGINX Gateway Fabric 1.x, a Gateway API implementation (one nginx
// for every Gateway of its class; GatewayClass, Gateway and HTTPRoute status conditions as
// sigs.k8s.io/gateway-api apis/v1 defines them, with observedGeneration).
// ingress-nginx was retired in March 2026 (kubernetes.io blog 2025-11-11); existing
// installations keep working, and Gateway API is the path forward.
// Both watch their class's objects, Services and EndpointSlices, and resync everything on any
// change (one work key, as both implementations batch their events into one sync).
// Simplification: the controller process is a component of the cluster, not tied to its Pod's
// container (the proxy answers only while the Pod runs, as connect() requires); there is no
// leader election, no nginx reload delay, and no TLS.

import { deepClone } from '../api/clone.ts';
import { labelSelectorAsSelector } from '../api/labels.ts';
import type {
  EndpointSlice,
  Gateway,
  GatewayClass,
  HTTPRoute,
  Ingress,
  IngressBackend,
  IngressClass,
  MetaCondition,
  Pod,
  Service,
} from '../api/types.ts';
import { StatusError } from '../apiserver/errors.ts';
import type { Client } from '../client/client.ts';
import { EventRecorder } from '../client/events.ts';
import { Informer } from '../client/informer.ts';
import type { RateLimitingQueue } from '../client/workqueue.ts';
import { newSyncQueue } from '../controllers/controller-utils.ts';
import type { Rng } from '../engine/rng.ts';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';
import type {
  ListenerStatus,
  ParentReference,
  RouteParentStatus,
} from '../registry/gateway/types.ts';
import { GatewayGroup } from '../registry/gateway/types.ts';
import { setStatusCondition } from '../registry/policy/poddisruptionbudgets/helpers.ts';
import type { HttpRequest, HttpResponse, Listener } from '../runtime/servers.ts';
import { INGRESS_NGINX, NGINX_GATEWAY } from './addons.ts';
import { intersectHostnames, type AttachedRoute } from './httproute-match.ts';
import { buildServers } from './ingress-match.ts';
import {
  nginxError,
  proxied,
  routeRequest,
  upstreamName,
  type ProgrammedListener,
  type ProxyConfig,
  type Upstream,
} from './proxy.ts';

/** Dial opens a connection from the proxy Pod, as the dataplane carries it (cluster/dataplane.ts). */
export type Dial = (
  ip: string,
  port: number,
) =>
  | { outcome: 'established'; serve(req: HttpRequest): HttpResponse }
  | { outcome: 'refused' | 'rejected' | 'timeout' };

/** statusUpdateInterval is ingress-nginx's status sync period (internal/ingress/status updateInterval). */
const statusUpdateInterval = 60_000;

const SYNC_KEY = 'sync';

/** endpointsFor lists a Service port's ready endpoints ("ip:port"), from its EndpointSlices. */
export function endpointsFor(
  svc: Service,
  port: { number?: number; name?: string },
  slices: readonly EndpointSlice[],
): string[] | undefined {
  const sp = (svc.spec.ports ?? []).find((p) =>
    port.number ? p.port === port.number : p.name === port.name,
  );
  if (!sp) return undefined;
  const out: string[] = [];
  for (const s of slices) {
    if (s.metadata.labels?.['kubernetes.io/service-name'] !== svc.metadata.name) continue;
    for (const p of s.ports ?? []) {
      if ((p.name ?? '') !== (sp.name ?? '')) continue;
      for (const e of s.endpoints ?? [])
        if (e.conditions?.ready !== false) out.push(`${e.addresses[0]}:${p.port}`);
    }
  }
  return out.sort();
}

/** ProxyController is the model of ingress-nginx (mode 'ingress-nginx') or of the Gateway API implementation. */
export class ProxyController {
  readonly mode: 'ingress-nginx' | 'gateway';
  /** name is the component's name (its client's user). */
  readonly name: string;
  /** config is what the proxy was last programmed with. */
  config: ProxyConfig = { servers: [], listeners: [], upstreams: new Map(), ports: [] };
  private readonly sim: Simulation;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly services: Informer<Service>;
  private readonly slices: Informer<EndpointSlice>;
  private readonly ingresses?: Informer<Ingress>;
  private readonly ingressClasses?: Informer<IngressClass>;
  private readonly gatewayClasses?: Informer<GatewayClass>;
  private readonly gateways?: Informer<Gateway>;
  private readonly routes?: Informer<HTTPRoute>;
  private readonly informers: Informer<never>[] = [];
  private queue: RateLimitingQueue;
  private statusTimer: TimerHandle | undefined;
  /** next is each upstream's round-robin position (nginx's default balancing). */
  private readonly next = new Map<string, number>();
  /** rng draws the weighted choice among backendRefs. */
  private readonly rng: Rng;
  /** synced are the Ingresses already announced with a Sync event (namespace/name@generation). */
  private readonly announced = new Set<string>();

  constructor(sim: Simulation, client: Client, mode: 'ingress-nginx' | 'gateway') {
    this.sim = sim;
    this.client = client;
    this.mode = mode;
    this.name = client.user;
    this.rng = sim.rng.fork(this.name);
    this.recorder = new EventRecorder(client, 'nginx-ingress-controller');
    this.queue = this.newQueue();
    this.services = this.informer<Service>('services');
    this.slices = this.informer<EndpointSlice>('endpointslices');
    if (mode === 'ingress-nginx') {
      this.ingresses = this.informer<Ingress>('ingresses');
      this.ingressClasses = this.informer<IngressClass>('ingressclasses');
    } else {
      this.gatewayClasses = this.informer<GatewayClass>('gatewayclasses');
      this.gateways = this.informer<Gateway>('gateways');
      this.routes = this.informer<HTTPRoute>('httproutes');
    }
  }

  private informer<
    T extends Ingress | IngressClass | Service | EndpointSlice | GatewayClass | Gateway | HTTPRoute,
  >(
    resource:
      | 'services'
      | 'endpointslices'
      | 'ingresses'
      | 'ingressclasses'
      | 'gatewayclasses'
      | 'gateways'
      | 'httproutes',
  ): Informer<T> {
    const i = new Informer<T>(this.client, resource);
    const enqueue = () => this.queue.add(SYNC_KEY);
    i.addEventHandler({ onAdd: enqueue, onUpdate: enqueue, onDelete: enqueue });
    this.informers.push(i as unknown as Informer<never>);
    return i;
  }

  private newQueue(): RateLimitingQueue {
    return newSyncQueue(this.sim, this.client, { name: this.name }, () => this.sync());
  }

  start(): void {
    if (this.queue.shuttingDown) this.queue = this.newQueue();
    for (const i of this.informers) i.start();
    if (this.mode === 'ingress-nginx') this.scheduleStatusSync(0);
  }

  stop(): void {
    for (const i of this.informers) i.stop();
    this.queue.shutDown();
    this.statusTimer?.cancel();
    this.statusTimer = undefined;
  }

  /**
   * scheduleStatusSync runs ingress-nginx's status sync now and then every 60 s (statusSync.Run:
   * an initial sync, then wait.PollUntil(updateInterval)) [not re-read against the source].
   */
  private scheduleStatusSync(delay: number): void {
    const tick = () => {
      try {
        this.syncIngressStatus();
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
      }
      this.scheduleStatusSync(statusUpdateInterval);
    };
    this.statusTimer = this.sim.after(delay, `${this.name} status sync`, tick);
  }

  /** sync renders the proxy's configuration and (Gateway API) writes status. Level-triggered. */
  sync(): void {
    if (this.mode === 'ingress-nginx') this.syncIngress();
    else this.syncGateways();
  }

  // ---- ingress-nginx ----

  /** classIngresses are the Ingresses of the controller's class (spec or the deprecated annotation). */
  private classIngresses(): Ingress[] {
    const classes = new Set(
      this.ingressClasses!.list()
        .filter((c) => c.spec?.controller === INGRESS_NGINX.controller)
        .map((c) => c.metadata.name),
    );
    return this.ingresses!.list().filter((ing) => {
      const annotated = ing.metadata.annotations?.['kubernetes.io/ingress.class'];
      if (annotated !== undefined) return annotated === INGRESS_NGINX.className;
      return ing.spec?.ingressClassName !== undefined && classes.has(ing.spec.ingressClassName);
    });
  }

  /** upstreamOf resolves an Ingress backend to its upstream (undefined for a missing Service). */
  private upstreamOf(ns: string, b: IngressBackend): [string, Upstream | undefined] | undefined {
    if (!b.service) return undefined;
    const port = b.service.port?.name || String(b.service.port?.number ?? '');
    const name = upstreamName(ns, b.service.name, port);
    const svc = this.services.get(ns, b.service.name);
    const eps = svc
      ? endpointsFor(svc, b.service.port ?? {}, this.slices.list(undefined, ns))
      : undefined;
    return [name, eps && { namespace: ns, service: b.service.name, port, endpoints: eps }];
  }

  /** syncIngress mirrors syncIngress: the servers and upstreams of the class's Ingresses. */
  private syncIngress(): void {
    const ingresses = this.classIngresses();
    const servers = buildServers(ingresses);
    const upstreams = new Map<string, Upstream>();
    for (const s of servers) {
      const backends = s.locations.map((l) => [l.namespace, l.backend] as const);
      if (s.defaultBackend) backends.push([s.defaultBackend.namespace, s.defaultBackend.backend]);
      for (const [ns, b] of backends) {
        const u = this.upstreamOf(ns, b);
        if (u?.[1]) upstreams.set(u[0], u[1]);
      }
    }
    this.config = { servers, listeners: [], upstreams, ports: [80, 443] };
    // The store announces each new or changed Ingress it will sync (event Sync, "Scheduled for sync").
    for (const ing of ingresses) {
      const key = `${ing.metadata.uid}@${ing.metadata.generation ?? 1}`;
      if (this.announced.has(key)) continue;
      this.announced.add(key);
      this.recorder.event(ing, 'Normal', 'Sync', 'Scheduled for sync');
    }
  }

  /**
   * syncIngressStatus mirrors statusSync.sync with --publish-service: the Service's address
   * (its ClusterIP for a ClusterIP or NodePort Service without externalIPs, its load balancer's
   * for a LoadBalancer one) written into status.loadBalancer.ingress of each Ingress of the class.
   */
  private syncIngressStatus(): void {
    const svc = this.services.get(INGRESS_NGINX.namespace, INGRESS_NGINX.service);
    if (!svc) return;
    const addrs =
      svc.spec.type === 'LoadBalancer'
        ? (svc.status?.loadBalancer?.ingress ?? []).map((i) => ({ ip: i.ip }))
        : svc.spec.externalIPs?.length
          ? svc.spec.externalIPs.map((ip) => ({ ip }))
          : svc.spec.clusterIP
            ? [{ ip: svc.spec.clusterIP }]
            : [];
    addrs.sort((a, b) => ((a.ip ?? '') < (b.ip ?? '') ? -1 : 1));
    for (const ing of this.classIngresses()) {
      const cur = ing.status?.loadBalancer?.ingress ?? [];
      if (JSON.stringify(cur) === JSON.stringify(addrs)) continue;
      const next = deepClone(ing);
      next.status = { loadBalancer: addrs.length ? { ingress: addrs } : {} };
      this.client.updateStatus('ingresses', next, true);
    }
  }

  // ---- Gateway API ----

  /** syncGateways builds the listeners and their routes, and writes the three kinds' status. */
  private syncGateways(): void {
    const now = this.sim.now();
    const accepted = new Set<string>();
    for (const gc of this.gatewayClasses!.list()) {
      if (gc.spec?.controllerName !== NGINX_GATEWAY.controller) continue;
      accepted.add(gc.metadata.name);
      const conditions = setStatusCondition(
        gc.status?.conditions ?? [],
        {
          type: 'Accepted',
          status: 'True',
          reason: 'Accepted',
          message: 'GatewayClass is accepted',
          observedGeneration: gc.metadata.generation,
        },
        now,
      );
      this.writeStatus('gatewayclasses', gc, { ...gc.status, conditions });
    }
    const svc = this.services.get(NGINX_GATEWAY.namespace, NGINX_GATEWAY.service);
    const address = svc?.spec.clusterIP;
    const gateways = this.gateways!.list().filter((g) => accepted.has(g.spec?.gatewayClassName));
    const listeners: ProgrammedListener[] = [];
    const attached = new Map<string, number>();
    for (const gw of gateways)
      for (const l of gw.spec.listeners ?? [])
        if (l.protocol === 'HTTP')
          listeners.push({
            gateway: `${gw.metadata.namespace}/${gw.metadata.name}`,
            name: l.name,
            port: l.port,
            ...(l.hostname ? { hostname: l.hostname } : {}),
            routes: [],
          });
    const upstreams = new Map<string, Upstream>();
    for (const route of this.routes!.list())
      this.attachRoute(route, gateways, listeners, attached, upstreams, now);
    for (const gw of gateways) this.writeGatewayStatus(gw, address, attached, now);
    const ports = [...new Set(listeners.map((l) => l.port))].sort((a, b) => a - b);
    this.config = { servers: [], listeners, upstreams, ports };
  }

  /**
   * attachRoute attaches an HTTPRoute to the listeners its parentRefs select and allow, and
   * writes its status for each parentRef naming a Gateway of the class: Accepted (Accepted,
   * NoMatchingParent, NotAllowedByListeners, NoMatchingListenerHostname) and ResolvedRefs
   * (ResolvedRefs, BackendNotFound, InvalidKind, RefNotPermitted).
   * Simplification: allowedRoutes.namespaces from: Selector admits no namespace, and there are
   * no ReferenceGrants, so a backendRef in another namespace is never permitted.
   */
  private attachRoute(
    route: HTTPRoute,
    gateways: Gateway[],
    listeners: ProgrammedListener[],
    attached: Map<string, number>,
    upstreams: Map<string, Upstream>,
    now: number,
  ): void {
    const ns = route.metadata.namespace ?? 'default';
    const gen = route.metadata.generation;
    // ResolvedRefs, the same for every parent.
    let resolved: Omit<MetaCondition, 'lastTransitionTime'> = {
      type: 'ResolvedRefs',
      status: 'True',
      reason: 'ResolvedRefs',
      message: 'All references are resolved',
      observedGeneration: gen,
    };
    const routeUpstreams: [string, Upstream][] = [];
    for (const [i, rule] of (route.spec?.rules ?? []).entries())
      for (const [j, b] of (rule.backendRefs ?? []).entries()) {
        const at = `spec.rules[${i}].backendRefs[${j}]`;
        const fail = (reason: string, message: string) => {
          if (resolved.status === 'True')
            resolved = { ...resolved, status: 'False', reason, message };
        };
        if ((b.group ?? '') !== '' || (b.kind ?? 'Service') !== 'Service') {
          fail('InvalidKind', `${at}: Unsupported value: "${b.kind}": supported values: "Service"`);
          continue;
        }
        const bns = b.namespace ?? ns;
        if (bns !== ns) {
          fail(
            'RefNotPermitted',
            `${at}.namespace: Forbidden: Backend ref to Service ${bns}/${b.name} not permitted by any ReferenceGrant`,
          );
          continue;
        }
        const svc = this.services.get(bns, b.name);
        const eps = svc
          ? endpointsFor(svc, { number: b.port }, this.slices.list(undefined, bns))
          : undefined;
        if (!svc || !eps) {
          fail('BackendNotFound', `${at}.name: Not found: "${b.name}"`);
          continue;
        }
        routeUpstreams.push([
          upstreamName(bns, b.name, b.port ?? ''),
          { namespace: bns, service: b.name, port: String(b.port ?? ''), endpoints: eps },
        ]);
      }
    const parents: RouteParentStatus[] = (route.status?.parents ?? []).filter(
      (p) => p.controllerName !== NGINX_GATEWAY.controller,
    );
    for (const ref of route.spec?.parentRefs ?? []) {
      if ((ref.group ?? GatewayGroup) !== GatewayGroup || (ref.kind ?? 'Gateway') !== 'Gateway')
        continue;
      const gns = ref.namespace ?? ns;
      const gw = gateways.find((g) => g.metadata.namespace === gns && g.metadata.name === ref.name);
      if (!gw) continue;
      const key = `${gns}/${ref.name}`;
      const candidates = listeners.filter(
        (l) =>
          l.gateway === key &&
          (ref.sectionName === undefined || l.name === ref.sectionName) &&
          (ref.port === undefined || l.port === ref.port),
      );
      const allowed = candidates.filter((l) => {
        const spec = gw.spec.listeners.find((x) => x.name === l.name);
        const from = spec?.allowedRoutes?.namespaces?.from ?? 'Same';
        const kinds = spec?.allowedRoutes?.kinds;
        if (
          kinds?.length &&
          !kinds.some((k) => k.kind === 'HTTPRoute' && (k.group ?? GatewayGroup) === GatewayGroup)
        )
          return false;
        return from === 'All' || (from === 'Same' && gns === ns);
      });
      let reason = 'Accepted';
      let message = 'The route is accepted';
      if (candidates.length === 0) {
        reason = 'NoMatchingParent';
        message =
          ref.sectionName !== undefined
            ? `No listener named ${ref.sectionName}`
            : 'No listener matches the parentRef';
      } else if (allowed.length === 0) {
        reason = 'NotAllowedByListeners';
        message = 'No listener allows routes from this namespace';
      } else {
        let any = false;
        for (const l of allowed) {
          const hostnames = intersectHostnames(l.hostname, route.spec?.hostnames);
          if (!hostnames) continue;
          any = true;
          l.routes.push({ route, hostnames } satisfies AttachedRoute);
          const lk = `${key}/${l.name}`;
          attached.set(lk, (attached.get(lk) ?? 0) + 1);
        }
        if (!any) {
          reason = 'NoMatchingListenerHostname';
          message = 'No listener hostname matches the route hostnames';
        } else for (const [n, u] of routeUpstreams) upstreams.set(n, u);
      }
      const old = (route.status?.parents ?? []).find(
        (p) => p.controllerName === NGINX_GATEWAY.controller && sameParent(p.parentRef, ref),
      );
      let conditions = setStatusCondition(
        old?.conditions ?? [],
        {
          type: 'Accepted',
          status: reason === 'Accepted' ? 'True' : 'False',
          reason,
          message,
          observedGeneration: gen,
        },
        now,
      );
      conditions = setStatusCondition(conditions, resolved, now);
      parents.push({ parentRef: ref, controllerName: NGINX_GATEWAY.controller, conditions });
    }
    if (parents.length || route.status?.parents?.length)
      this.writeStatus('httproutes', route, { parents });
  }

  /**
   * writeGatewayStatus writes a Gateway's addresses, its Accepted and Programmed conditions, and
   * each listener's status (supported kinds, attached routes; Accepted, Programmed, ResolvedRefs
   * and Conflicted, or UnsupportedProtocol for a protocol other than HTTP).
   */
  private writeGatewayStatus(
    gw: Gateway,
    address: string | undefined,
    attached: Map<string, number>,
    now: number,
  ): void {
    const gen = gw.metadata.generation;
    const key = `${gw.metadata.namespace}/${gw.metadata.name}`;
    const listenerStatus: ListenerStatus[] = gw.spec.listeners.map((l) => {
      const old = gw.status?.listeners?.find((x) => x.name === l.name)?.conditions ?? [];
      const ok = l.protocol === 'HTTP';
      const set = (
        c: MetaCondition[],
        type: string,
        status: 'True' | 'False',
        reason: string,
        message: string,
      ) => setStatusCondition(c, { type, status, reason, message, observedGeneration: gen }, now);
      let c = ok
        ? set(old, 'Accepted', 'True', 'Accepted', 'Listener is accepted')
        : set(
            old,
            'Accepted',
            'False',
            'UnsupportedProtocol',
            `Protocol "${l.protocol}" is not supported, use "HTTP"`,
          );
      c = ok
        ? set(c, 'Programmed', 'True', 'Programmed', 'Listener is programmed')
        : set(c, 'Programmed', 'False', 'Invalid', 'Listener is invalid');
      c = set(c, 'ResolvedRefs', 'True', 'ResolvedRefs', 'All references are resolved');
      c = set(c, 'Conflicted', 'False', 'NoConflicts', 'No conflicts');
      return {
        name: l.name,
        supportedKinds: ok ? [{ group: GatewayGroup, kind: 'HTTPRoute' }] : [],
        attachedRoutes: attached.get(`${key}/${l.name}`) ?? 0,
        conditions: c,
      };
    });
    const valid = gw.spec.listeners.filter((l) => l.protocol === 'HTTP').length;
    const all = valid === gw.spec.listeners.length;
    let conditions = setStatusCondition(
      gw.status?.conditions ?? [],
      {
        type: 'Accepted',
        status: valid > 0 ? 'True' : 'False',
        reason: all ? 'Accepted' : 'ListenersNotValid',
        message: all ? 'Gateway is accepted' : 'Gateway has at least one listener that is invalid',
        observedGeneration: gen,
      },
      now,
    );
    conditions = setStatusCondition(
      conditions,
      address && valid > 0
        ? {
            type: 'Programmed',
            status: 'True',
            reason: 'Programmed',
            message: 'Gateway is programmed',
            observedGeneration: gen,
          }
        : {
            type: 'Programmed',
            status: 'False',
            reason: address ? 'Invalid' : 'AddressNotAssigned',
            message: address
              ? 'Gateway has no valid listeners'
              : 'No address is assigned to the Gateway',
            observedGeneration: gen,
          },
      now,
    );
    this.writeStatus('gateways', gw, {
      ...(address ? { addresses: [{ type: 'IPAddress', value: address }] } : {}),
      conditions,
      listeners: listenerStatus,
    });
  }

  /** writeStatus PUTs the status subresource when the status differs from the cached one. */
  private writeStatus<T extends GatewayClass | Gateway | HTTPRoute>(
    resource: 'gatewayclasses' | 'gateways' | 'httproutes',
    obj: T,
    status: NonNullable<T['status']>,
  ): void {
    if (JSON.stringify(obj.status ?? {}) === JSON.stringify(status)) return;
    const next = deepClone(obj);
    next.status = status as T['status'];
    this.client.updateStatus(resource, next, true);
  }

  // ---- the proxy ----

  /** owns reports whether a Pod is one of the controller's proxy Pods. */
  owns(pod: Pod): boolean {
    const { namespace, labels } = this.mode === 'ingress-nginx' ? INGRESS_NGINX : NGINX_GATEWAY;
    return (
      pod.metadata.namespace === namespace &&
      labelSelectorAsSelector({ matchLabels: { ...labels } }).matches(pod.metadata.labels ?? {})
    );
  }

  /**
   * listeners are the ports the proxy Pod answers on, each routing its requests as the last
   * configuration says and forwarding them to a backend endpoint (round-robin over the upstream's
   * Pod endpoints) through dial: 404 from the default backend when nothing matches, 503 when the
   * upstream has no endpoints, 502 when the endpoint refuses, 504 when it does not answer.
   * Simplification: HTTPS (443) answers as HTTP; nginx's proxy_connect_timeout (5 s) does not
   * pass on the virtual clock.
   */
  listeners(dial: Dial): Listener[] {
    const config = this.config;
    return config.ports.map((port) => ({
      port,
      serve: (req: HttpRequest, now: number): HttpResponse => {
        const r = routeRequest(config, port, req, this.rng.float());
        if (r.kind === 'not-found') return nginxError(404, req, now);
        if (r.kind === 'error') return nginxError(r.status, req, now);
        const eps = r.upstream?.endpoints ?? [];
        if (eps.length === 0) return nginxError(503, req, now);
        const i = this.next.get(r.name) ?? 0;
        this.next.set(r.name, (i + 1) % eps.length);
        const m = /^(.*):(\d+)$/.exec(eps[i % eps.length]!)!;
        const conn = dial(m[1]!, Number(m[2]));
        if (conn.outcome === 'established') return proxied(conn.serve(req), now);
        return nginxError(conn.outcome === 'timeout' ? 504 : 502, req, now);
      },
    }));
  }
}

/** sameParent compares two parentRefs with their defaults filled in. */
function sameParent(a: ParentReference, b: ParentReference): boolean {
  return (
    (a.group ?? GatewayGroup) === (b.group ?? GatewayGroup) &&
    (a.kind ?? 'Gateway') === (b.kind ?? 'Gateway') &&
    a.namespace === b.namespace &&
    a.name === b.name &&
    a.sectionName === b.sectionName &&
    a.port === b.port
  );
}

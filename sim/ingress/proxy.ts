// The proxy an ingress controller or Gateway API implementation programs: the configuration it
// renders from the API (servers and locations from Ingresses; listeners and their routes from
// Gateways and HTTPRoutes; each backend Service port's ready endpoints, as ingress-nginx's
// upstreams list Pod endpoints rather than the ClusterIP), routeRequest (where one request goes),
// and the answers nginx gives when it cannot forward (404 from the default backend, 500, 502, 503).

import type { HttpRequest, HttpResponse } from '../runtime/servers.ts';
import { httpDate } from '../runtime/servers.ts';
import type { HTTPBackendRef } from '../registry/gateway/types.ts';
import {
  pickBackendRef,
  routeHTTP,
  hostnameMatches,
  type AttachedRoute,
} from './httproute-match.ts';
import { routeIngress, type IngressServer } from './ingress-match.ts';

/** Upstream is one backend Service port and the endpoints the proxy sends its requests to. */
export interface Upstream {
  namespace: string;
  service: string;
  /** port is the Service port ("80" or its name, as the backend named it). */
  port: string;
  /** endpoints are the ready endpoints, "ip:port", sorted. */
  endpoints: string[];
}

/** ProgrammedListener is a Gateway listener as the proxy serves it, with its accepted routes. */
export interface ProgrammedListener {
  /** gateway is the Gateway's namespace/name. */
  gateway: string;
  name: string;
  port: number;
  hostname?: string;
  routes: AttachedRoute[];
}

/** ProxyConfig is what the controller last rendered for its proxy. */
export interface ProxyConfig {
  /** servers are the nginx server blocks of the Ingresses (ingress-nginx). */
  servers: IngressServer[];
  /** listeners are the HTTP listeners of the Gateways (the Gateway API implementation). */
  listeners: ProgrammedListener[];
  /** upstreams by upstreamName. */
  upstreams: Map<string, Upstream>;
  /** ports the proxy listens on. */
  ports: number[];
}

/** upstreamName names a backend as ingress-nginx does: namespace-service-port. */
export function upstreamName(namespace: string, service: string, port: string | number): string {
  return `${namespace}-${service}-${port}`;
}

/** ProxyRoute is where routeRequest sends a request. */
export type ProxyRoute =
  | {
      kind: 'upstream';
      /** via is the object whose rule matched: "ingress default/shop", "httproute default/web". */
      via: string;
      upstream: Upstream | undefined;
      /** name is the upstream's name (an unknown Service's too). */
      name: string;
    }
  | { kind: 'not-found' }
  | { kind: 'error'; status: 500; via: string };

/**
 * selectListener is the listener of a port a request's Host goes to: an exact hostname first,
 * then the longest wildcard that matches, then a listener without a hostname.
 */
export function selectListener(
  listeners: readonly ProgrammedListener[],
  port: number,
  host: string,
): ProgrammedListener | undefined {
  let best: ProgrammedListener | undefined;
  let score = -1;
  for (const l of listeners) {
    if (l.port !== port) continue;
    let s: number;
    if (!l.hostname) s = 0;
    else if (!hostnameMatches(l.hostname, host)) continue;
    else s = l.hostname.startsWith('*.') ? l.hostname.length : 1000 + l.hostname.length;
    if (s > score) {
      best = l;
      score = s;
    }
  }
  return best;
}

/**
 * routeRequest is where the proxy sends a request that arrived on port: by the Ingress servers
 * (ingress-nginx) or the Gateway listeners and their HTTPRoutes, to an upstream, or to the
 * default backend's 404; draw is a number in [0, 1) for a weighted choice of backendRef.
 */
export function routeRequest(
  config: ProxyConfig,
  port: number,
  req: Pick<HttpRequest, 'host' | 'path' | 'method' | 'headers'>,
  draw: number,
): ProxyRoute {
  if (config.servers.length) {
    const r = routeIngress(config.servers, req.host, req.path);
    if (r.kind === 'default-backend') return { kind: 'not-found' };
    const svc = r.backend.service;
    if (!svc) return { kind: 'not-found' };
    const port = svc.port?.name || String(svc.port?.number ?? '');
    const name = upstreamName(r.namespace, svc.name, port);
    return {
      kind: 'upstream',
      via: `ingress ${r.ingress}`,
      upstream: config.upstreams.get(name),
      name,
    };
  }
  const l = selectListener(config.listeners, port, req.host);
  if (!l) return { kind: 'not-found' };
  const hit = routeHTTP(l.routes, req.host, req.method, req.path, req.headers);
  if (!hit) return { kind: 'not-found' };
  const via = `httproute ${hit.route.metadata.namespace}/${hit.route.metadata.name}`;
  const ref: HTTPBackendRef | undefined = pickBackendRef(
    hit.route.spec.rules?.[hit.ruleIndex]?.backendRefs,
    draw,
  );
  if (!ref || (ref.kind ?? 'Service') !== 'Service' || (ref.group ?? '') !== '')
    return { kind: 'error', status: 500, via };
  const ns = ref.namespace ?? hit.route.metadata.namespace ?? 'default';
  const name = upstreamName(ns, ref.name, ref.port ?? '');
  const upstream = config.upstreams.get(name);
  // A backendRef that does not resolve gets its share of requests answered 500 (HTTPBackendRef).
  if (!upstream) return { kind: 'error', status: 500, via };
  return { kind: 'upstream', via, upstream, name };
}

const REASONS: Record<number, string> = {
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
};

/**
 * nginxError is nginx's own error page (server_tokens off, so no version), as ingress-nginx's
 * default server and the Gateway's nginx send it.
 */
export function nginxError(status: number, req: HttpRequest, now: number): HttpResponse {
  const title = `${status} ${REASONS[status] ?? ''}`;
  const body = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  return {
    status,
    reason: REASONS[status] ?? '',
    headers: [
      ['Date', httpDate(now)],
      ['Content-Type', 'text/html'],
      ['Content-Length', String(body.length)],
      ['Connection', 'keep-alive'],
    ],
    body: req.method === 'HEAD' ? '' : body,
  };
}

/**
 * proxied is the backend's answer as nginx relays it: its status and body; nginx's own Date,
 * then the backend's Content-Type and Content-Length, nginx's Connection, and the backend's
 * other headers (proxy_hide_header drops its Date and Server).
 */
export function proxied(res: HttpResponse, now: number): HttpResponse {
  const get = (name: string) => res.headers.filter(([k]) => k.toLowerCase() === name);
  const rest = res.headers.filter(
    ([k]) =>
      !['date', 'server', 'connection', 'content-type', 'content-length'].includes(k.toLowerCase()),
  );
  return {
    status: res.status,
    reason: res.reason,
    headers: [
      ['Date', httpDate(now)],
      ...get('content-type'),
      ...get('content-length'),
      ['Connection', 'keep-alive'],
      ...rest,
    ],
    body: res.body,
  };
}

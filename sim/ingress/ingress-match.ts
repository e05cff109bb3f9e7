// Mirrors the matching of staging/src/k8s.io/api/networking/v1/types.go (IngressRule.Host,
// HTTPIngressPath.PathType; the Ingress concept page's "Examples" table for Prefix) and
// ingress-nginx's internal/ingress/controller/controller.go createServers and createUpstreams:
// how a request is matched against Ingress rules and how ingress-nginx arranges them (one server
// per host, rules for the same host merged from every Ingress of the class, the oldest Ingress
// first; each server's root location is the Ingress's defaultBackend or the controller's own
// default backend, which answers 404). Pure functions: proxy.ts and the controller use them.
// ingress-nginx was retired in March 2026 (no releases or security fixes after it; kubernetes.io
// blog 2025-11-11 "ingress-nginx-retirement"); Gateway API (httproute-match.ts) is the path
// forward. The model keeps it as the best-known example of an Ingress controller.

import type { HTTPIngressPath, Ingress, IngressBackend, PathType } from '../api/types.ts';

/**
 * hostMatches reports whether a request's Host (its port already dropped) matches a rule's host:
 * an empty rule host matches every host; "*.foo.com" matches exactly one more label
 * ("bar.foo.com", not "foo.com" nor "baz.bar.foo.com"); otherwise the names are equal. DNS names
 * compare case-insensitively.
 * Simplification: nginx's own server_name wildcard also matches several labels; the model
 * follows the Ingress specification's one label.
 */
export function hostMatches(ruleHost: string | undefined, host: string): boolean {
  if (!ruleHost) return true;
  const h = host.toLowerCase();
  const r = ruleHost.toLowerCase();
  if (!r.startsWith('*.')) return h === r;
  const suffix = r.slice(1);
  if (!h.endsWith(suffix)) return false;
  const label = h.slice(0, h.length - suffix.length);
  return label.length > 0 && !label.includes('.');
}

/** pathElements splits a path into its elements, ignoring empty ones (so a trailing / is ignored). */
function pathElements(path: string): string[] {
  return path.split('/').filter((e) => e !== '');
}

/**
 * pathMatches reports whether a request path matches an Ingress path: Exact is the whole path,
 * case-sensitive; Prefix is element-wise by "/" ("/foo/bar" matches "/foo/bar" and "/foo/bar/baz",
 * not "/foo/barbaz"; "/foo" and "/foo/" both match "/foo" and "/foo/"; "/" matches every path).
 * ImplementationSpecific is what the IngressClass says; ingress-nginx treats it as a prefix.
 * Simplification: ingress-nginx's ImplementationSpecific is an nginx location prefix (a string
 * prefix, or a regular expression with use-regex); the model uses Prefix's element-wise rule.
 */
export function pathMatches(pathType: PathType, rulePath: string, reqPath: string): boolean {
  const path = reqPath.replace(/[?#].*$/, '') || '/';
  if (pathType === 'Exact') return path === rulePath;
  const want = pathElements(rulePath || '/');
  const got = pathElements(path);
  if (want.length > got.length) return false;
  return want.every((e, i) => got[i] === e);
}

/** IngressLocation is one path of one Ingress, merged into its host's server. */
export interface IngressLocation {
  /** ingress is the Ingress's namespace/name. */
  ingress: string;
  namespace: string;
  path: string;
  pathType: PathType;
  backend: IngressBackend;
}

/** IngressServer is one nginx server block: a host (or "_" for any host) and its locations. */
export interface IngressServer {
  /** host is the rule's host, or "_" for the catch-all server of rules without one. */
  host: string;
  locations: IngressLocation[];
  /** defaultBackend is the root location's backend when no path matches; absent, the 404 one. */
  defaultBackend?: { ingress: string; namespace: string; backend: IngressBackend };
}

/** creationOrder sorts Ingresses as ingress-nginx does: oldest first, then namespace/name. */
function creationOrder(a: Ingress, b: Ingress): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const ka = `${a.metadata.namespace}/${a.metadata.name}`;
  const kb = `${b.metadata.namespace}/${b.metadata.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * buildServers arranges the Ingresses of one class as ingress-nginx's createServers does: one
 * server per host, the paths of every Ingress naming that host merged into it (a host and path
 * already taken by an older Ingress is left out), each Ingress's defaultBackend the default of
 * the servers it creates, and the catch-all server "_" holding rules without a host and the
 * oldest defaultBackend.
 */
export function buildServers(ingresses: readonly Ingress[]): IngressServer[] {
  const servers = new Map<string, IngressServer>();
  const server = (host: string): IngressServer => {
    let s = servers.get(host);
    if (!s) servers.set(host, (s = { host, locations: [] }));
    return s;
  };
  const catchAll = server('_');
  for (const ing of [...ingresses].sort(creationOrder)) {
    const key = `${ing.metadata.namespace}/${ing.metadata.name}`;
    const ns = ing.metadata.namespace ?? 'default';
    const def = ing.spec?.defaultBackend;
    if (def && !catchAll.defaultBackend)
      catchAll.defaultBackend = { ingress: key, namespace: ns, backend: def };
    for (const rule of ing.spec?.rules ?? []) {
      const s = server(rule.host || '_');
      if (def && !s.defaultBackend)
        s.defaultBackend = { ingress: key, namespace: ns, backend: def };
      for (const p of rule.http?.paths ?? []) {
        const path = p.path || '/';
        const pathType = (p.pathType ?? 'ImplementationSpecific') as HTTPIngressPath['pathType'] &
          PathType;
        if (s.locations.some((l) => l.path === path && l.pathType === pathType)) continue;
        s.locations.push({ ingress: key, namespace: ns, path, pathType, backend: p.backend });
      }
    }
  }
  return [...servers.values()];
}

/**
 * selectServer is the server nginx picks for a Host: the exact name first, then a wildcard name
 * that matches, then the catch-all server "_".
 */
export function selectServer(
  servers: readonly IngressServer[],
  host: string,
): IngressServer | undefined {
  const h = host.toLowerCase();
  return (
    servers.find((s) => s.host !== '_' && !s.host.startsWith('*.') && s.host.toLowerCase() === h) ??
    servers.find((s) => s.host.startsWith('*.') && hostMatches(s.host, h)) ??
    servers.find((s) => s.host === '_')
  );
}

/**
 * selectLocation is the location a path goes to within a server: among the matching paths the
 * longest wins, and at equal length Exact beats Prefix (the Ingress concept page's "Multiple
 * matches"); undefined when none matches.
 */
export function selectLocation(
  server: IngressServer,
  reqPath: string,
): IngressLocation | undefined {
  let best: IngressLocation | undefined;
  for (const l of server.locations) {
    if (!pathMatches(l.pathType, l.path, reqPath)) continue;
    if (
      !best ||
      l.path.length > best.path.length ||
      (l.path.length === best.path.length && l.pathType === 'Exact' && best.pathType !== 'Exact')
    )
      best = l;
  }
  return best;
}

/** IngressRoute is where a request goes: an Ingress's backend, or the controller's 404. */
export type IngressRoute =
  | { kind: 'backend'; ingress: string; namespace: string; backend: IngressBackend }
  | { kind: 'default-backend' };

/** routeIngress routes one request through the servers: host, then path, then the fallbacks. */
export function routeIngress(
  servers: readonly IngressServer[],
  host: string,
  reqPath: string,
): IngressRoute {
  const s = selectServer(servers, host);
  if (!s) return { kind: 'default-backend' };
  const l = selectLocation(s, reqPath);
  if (l) return { kind: 'backend', ingress: l.ingress, namespace: l.namespace, backend: l.backend };
  if (s.defaultBackend) return { kind: 'backend', ...s.defaultBackend };
  return { kind: 'default-backend' };
}

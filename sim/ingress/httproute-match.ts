// Mirrors the matching sigs.k8s.io/gateway-api specifies in apis/v1/httproute_types.go
// (HTTPRouteSpec.Hostnames, HTTPRouteRule.
// Matches and its precedence list, PathMatchType, HTTPHeaderMatch, HTTPBackendRef.Weight; and
// gateway_types.go Listener.Hostname). Pure functions: proxy.ts and the controller use them.

import type { HTTPRoute, HTTPRouteMatch } from '../api/types.ts';
import type { HTTPBackendRef } from '../registry/gateway/types.ts';

/**
 * hostnameMatches reports whether a hostname pattern covers a name: a wildcard "*.example.com"
 * is a suffix match ("test.example.com" and "foo.test.example.com", not "example.com"), unlike
 * an Ingress host's one label; otherwise the names are equal, case-insensitively. The name may
 * itself be a wildcard, covered when its suffix is.
 */
export function hostnameMatches(pattern: string, name: string): boolean {
  const p = pattern.toLowerCase();
  const n = name.toLowerCase();
  if (!p.startsWith('*.')) return p === n;
  const suffix = p.slice(1);
  return n.length > suffix.length && n.endsWith(suffix);
}

/**
 * intersectHostnames is the set of hostnames a route serves through a listener (the HTTPRoute's
 * Hostnames doc): [''] for any host when neither names one; the other's when one side is empty;
 * otherwise each route hostname the listener's covers, and the listener's own when a route
 * wildcard covers it; null when both name hostnames and none intersect (the route is then not
 * accepted by that listener: NoMatchingListenerHostname).
 */
export function intersectHostnames(
  listenerHostname: string | undefined,
  routeHostnames: readonly string[] | undefined,
): string[] | null {
  const routes = routeHostnames ?? [];
  if (!listenerHostname) return routes.length ? [...routes] : [''];
  if (routes.length === 0) return [listenerHostname];
  const out: string[] = [];
  for (const h of routes) {
    let hit: string | undefined;
    if (h.toLowerCase() === listenerHostname.toLowerCase()) hit = h;
    else if (hostnameMatches(listenerHostname, h)) hit = h;
    else if (hostnameMatches(h, listenerHostname)) hit = listenerHostname;
    if (hit !== undefined && !out.includes(hit)) out.push(hit);
  }
  return out.length ? out : null;
}

/**
 * hostnameScore ranks the hostname of a route that matches a request, for the HTTPRoute's
 * hostname precedence: the characters of a matching non-wildcard hostname first, then of any
 * matching hostname; -1 when none of the hostnames matches ('' matches every request at 0).
 */
export function hostnameScore(hostnames: readonly string[], host: string): [number, number] {
  let best: [number, number] = [-1, -1];
  for (const h of hostnames) {
    if (h !== '' && !hostnameMatches(h, host)) continue;
    const s: [number, number] = [h.startsWith('*.') || h === '' ? 0 : h.length, h.length];
    if (s[0] > best[0] || (s[0] === best[0] && s[1] > best[1])) best = s;
  }
  return best;
}

/** pathElements splits a path by "/", a trailing "/" ignored. */
function pathElements(path: string): string[] {
  return path.split('/').filter((e) => e !== '');
}

/**
 * pathMatches mirrors PathMatchType: Exact is the whole path, case-sensitive; PathPrefix is
 * element by element, a trailing "/" ignored ("/abc" matches "/abc", "/abc/" and "/abc/def", not
 * "/abcd"); RegularExpression must match the whole path.
 * Simplification: the regular expression dialect is ECMAScript's (it is implementation-specific;
 * nginx-based implementations use PCRE).
 */
export function pathMatches(m: HTTPRouteMatch['path'], reqPath: string): boolean {
  const path = reqPath.replace(/[?#].*$/, '') || '/';
  const type = m?.type ?? 'PathPrefix';
  const value = m?.value ?? '/';
  if (type === 'Exact') return path === value;
  if (type === 'RegularExpression') {
    try {
      return new RegExp(`^(?:${value})$`).test(path);
    } catch {
      return false;
    }
  }
  const want = pathElements(value);
  const got = pathElements(path);
  return want.length <= got.length && want.every((e, i) => got[i] === e);
}

/**
 * headersMatch mirrors HTTPHeaderMatch: every header match must hold, names compared
 * case-insensitively, Exact values equal, RegularExpression values matched (unanchored, as RE2
 * partial matching in most implementations). A request header given twice is read from its
 * first occurrence.
 */
export function headersMatch(
  matches: HTTPRouteMatch['headers'],
  headers: readonly (readonly [string, string])[],
): boolean {
  for (const h of matches ?? []) {
    const got = headers.find(([k]) => k.toLowerCase() === h.name.toLowerCase())?.[1];
    if (got === undefined) return false;
    if ((h.type ?? 'Exact') === 'Exact') {
      if (got !== h.value) return false;
    } else {
      try {
        if (!new RegExp(h.value).test(got)) return false;
      } catch {
        return false;
      }
    }
  }
  return true;
}

/** matchApplies reports whether one HTTPRouteMatch holds for a request. */
export function matchApplies(
  m: HTTPRouteMatch,
  method: string,
  path: string,
  headers: readonly (readonly [string, string])[],
): boolean {
  if (m.method && m.method !== method) return false;
  return pathMatches(m.path, path) && headersMatch(m.headers, headers);
}

/** AttachedRoute is an HTTPRoute accepted by a listener, with the hostnames it serves there. */
export interface AttachedRoute {
  route: HTTPRoute;
  hostnames: string[];
}

/** RouteMatchResult is the rule a request goes to. */
export interface RouteMatchResult {
  route: HTTPRoute;
  ruleIndex: number;
  matchIndex: number;
}

/**
 * matchPrecedence orders two candidate matches as the HTTPRouteRule.Matches doc requires: an
 * Exact path, then the longest PathPrefix, a method match, the most header matches (query
 * parameter matches are not modelled), then the oldest route, its namespace/name, and the rule
 * and match order within it. RegularExpression paths come after the others (their precedence is
 * implementation-specific).
 */
function matchPrecedence(
  a: RouteMatchResult & { m: HTTPRouteMatch },
  b: RouteMatchResult & { m: HTTPRouteMatch },
): number {
  const rank = (m: HTTPRouteMatch) =>
    m.path?.type === 'Exact' ? 0 : m.path?.type === 'RegularExpression' ? 2 : 1;
  if (rank(a.m) !== rank(b.m)) return rank(a.m) - rank(b.m);
  const la = a.m.path?.value?.length ?? 1;
  const lb = b.m.path?.value?.length ?? 1;
  if (la !== lb) return lb - la;
  if (!!a.m.method !== !!b.m.method) return a.m.method ? -1 : 1;
  const ha = a.m.headers?.length ?? 0;
  const hb = b.m.headers?.length ?? 0;
  if (ha !== hb) return hb - ha;
  const ta = a.route.metadata.creationTimestamp ?? '';
  const tb = b.route.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const ka = `${a.route.metadata.namespace}/${a.route.metadata.name}`;
  const kb = `${b.route.metadata.namespace}/${b.route.metadata.name}`;
  if (ka !== kb) return ka < kb ? -1 : 1;
  if (a.ruleIndex !== b.ruleIndex) return a.ruleIndex - b.ruleIndex;
  return a.matchIndex - b.matchIndex;
}

/**
 * routeHTTP picks the rule a request goes to among the routes attached to a listener: the routes
 * whose matching hostname ranks highest (hostnameScore), then among their rules the match with
 * the highest precedence that holds; undefined (404) when none does.
 * Simplification: routes under a less specific hostname are not tried when the most specific
 * hostname's routes have no matching rule, as implementations that group routes into virtual
 * hosts (Envoy's, nginx's server blocks) behave.
 */
export function routeHTTP(
  routes: readonly AttachedRoute[],
  host: string,
  method: string,
  path: string,
  headers: readonly (readonly [string, string])[],
): RouteMatchResult | undefined {
  let best: [number, number] = [-1, -1];
  let group: AttachedRoute[] = [];
  for (const r of routes) {
    const s = hostnameScore(r.hostnames, host);
    if (s[0] < 0) continue;
    if (s[0] > best[0] || (s[0] === best[0] && s[1] > best[1])) {
      best = s;
      group = [r];
    } else if (s[0] === best[0] && s[1] === best[1]) group.push(r);
  }
  const candidates: (RouteMatchResult & { m: HTTPRouteMatch })[] = [];
  for (const { route } of group)
    for (const [ruleIndex, rule] of (route.spec?.rules ?? []).entries())
      for (const [matchIndex, m] of (rule.matches ?? [{}]).entries())
        candidates.push({ route, ruleIndex, matchIndex, m });
  candidates.sort(matchPrecedence);
  const hit = candidates.find((c) => matchApplies(c.m, method, path, headers));
  return hit
    ? { route: hit.route, ruleIndex: hit.ruleIndex, matchIndex: hit.matchIndex }
    : undefined;
}

/**
 * pickBackendRef chooses a rule's backendRef by weight, as HTTPBackendRef.Weight defines it: each
 * gets weight / sum of the weights of the requests (default weight 1; 0 gets none); draw is a
 * number in [0, 1). Undefined when no backendRef has weight (the request then gets a 500).
 */
export function pickBackendRef(
  refs: readonly HTTPBackendRef[] | undefined,
  draw: number,
): HTTPBackendRef | undefined {
  const list = refs ?? [];
  const total = list.reduce((n, r) => n + (r.weight ?? 1), 0);
  if (total <= 0) return undefined;
  let x = draw * total;
  for (const r of list) {
    const w = r.weight ?? 1;
    if (x < w) return r;
    x -= w;
  }
  return list.filter((r) => (r.weight ?? 1) > 0).at(-1);
}

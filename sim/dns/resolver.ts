// Mirrors the C libraries' getaddrinfo for a name (musl's src/network/lookup_name.c,
// name_from_dns_search, in Alpine-based images; glibc's resolv/res_query.c, res_search, in
// Debian-based ones): /etc/hosts first, then DNS with the resolv.conf search list and ndots,
// an A and an AAAA question per candidate name (see "Simplification:" notes).
// With fewer dots than ndots (5 in a Pod), the name is tried under each search domain in turn,
// then as written; with ndots or more (or a trailing dot), musl tries it only as written and
// glibc as written first, then under the search domains. A candidate that has an address ends
// the search; NXDOMAIN and an empty answer go on to the next.
// Simplification: a question with no reply ends the lookup (musl's EAI_AGAIN) after the
// resolver's timeout, 5 s, once: the retries of `attempts:2` are not modelled.

import type { DnsReply, QType } from './coredns.ts';

/** Libc is which C library resolves: musl (Alpine, BusyBox images) or glibc (Debian). */
export type Libc = 'musl' | 'glibc';

/** ResolverHost is what getaddrinfo reads and reaches. */
export interface ResolverHost {
  libc: Libc;
  resolvConf: string;
  hosts: string;
  query(server: string, name: string, qtype: QType): DnsReply | undefined;
}

/** Lookup is getaddrinfo's result: the IPv4 addresses, or why there are none. */
export type Lookup = { addresses: string[] } | { error: 'noname' | 'again' };

/** TIMEOUT_MS is the resolver's `timeout` (5 s by default). */
export const RESOLVER_TIMEOUT_MS = 5000;

/** getaddrinfo resolves name to its IPv4 addresses. */
export function getaddrinfo(host: ResolverHost, name: string): Lookup {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return { addresses: [name] };
  const lower = name.toLowerCase();
  for (const line of host.hosts.split('\n')) {
    const [ip, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (ip && /^\d/.test(ip) && !ip.includes(':') && names.some((n) => n.toLowerCase() === lower))
      return { addresses: [ip] };
  }
  const conf = parseConf(host.resolvConf);
  const server = conf.servers[0] ?? '127.0.0.1';
  const absolute = name.endsWith('.');
  const bare = name.replace(/\.$/, '');
  const dots = bare.split('.').length - 1;
  const searched = conf.search.map((d) => `${bare}.${d}`);
  const candidates =
    absolute || dots >= conf.ndots
      ? host.libc === 'musl'
        ? [bare]
        : [bare, ...(absolute ? [] : searched)]
      : [...searched, bare];
  for (const candidate of candidates) {
    const a = host.query(server, candidate, 'A');
    const aaaa = host.query(server, candidate, 'AAAA');
    if (!a || !aaaa) return { error: 'again' };
    const addresses = a.answers.flatMap((r) => (r.type === 'A' ? [r.address] : []));
    if (addresses.length) return { addresses };
  }
  return { error: 'noname' };
}

/** parseConf reads the nameservers, the search list and ndots (default 1) of resolv.conf. */
function parseConf(text: string): { servers: string[]; search: string[]; ndots: number } {
  const servers: string[] = [];
  let search: string[] = [];
  let ndots = 1;
  for (const line of text.split('\n')) {
    const [key, ...args] = line.trim().split(/\s+/);
    if (key === 'nameserver' && args[0]) servers.push(args[0]);
    else if (key === 'search' || key === 'domain') search = args;
    else if (key === 'options')
      for (const o of args) {
        const m = /^ndots:(\d+)$/.exec(o);
        if (m) ndots = Math.min(Number(m[1]), 15);
      }
  }
  return { servers, search, ndots };
}

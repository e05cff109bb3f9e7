// Mirrors BusyBox 1.36's nslookup (networking/nslookup.c, the FEATURE_NSLOOKUP_BIG resolver that
// busybox and Alpine images build): it reads /etc/resolv.conf itself, sends an A and an AAAA
// question (a PTR one for an address) to the first nameserver, and prints each reply as it
// comes (see "Simplification:" notes). Its search rule is its own, not the C library's: a name
// without a dot is asked under every search domain and never alone; a name with a dot is asked
// only as written, whatever ndots says. So `nslookup web.shop` fails in a Pod where
// `curl web.shop` resolves.
// Simplification: replies arrive in the order the questions were sent; the BusyBox banner of
// the usage message is left out.

import type { CommandResult } from '../runtime/sh.ts';
import type { DnsReply, QType, ResourceRecord } from './coredns.ts';

/** NslookupHost is what nslookup reaches: the resolver file, the network and the clock. */
export interface NslookupHost {
  resolvConf: string;
  /** hostname is the container's; its domain part is the search domain when the file has none. */
  hostname: string;
  /** query sends one question to server:53; undefined when no reply comes (the packet is lost). */
  query(server: string, name: string, qtype: QType): DnsReply | undefined;
  /** sleep lets virtual time pass (a server that does not answer is waited for). */
  sleep?(ms: number): void;
}

// nslookup.c's qtypes, in its order; the model's server answers the ones it knows.
const QTYPES = ['soa', 'ns', 'a', 'aaaa', 'cname', 'mx', 'txt', 'ptr', 'any'];

const USAGE =
  'Usage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n\nQuery DNS about HOST\n\nQUERY_TYPE: soa,ns,a,aaaa,cname,mx,txt,ptr,any\n';

/** default_timeout (5 s), over default_retry (2) sends. */
const TIMEOUT_MS = 5000;

/** nslookup runs `nslookup [-type=T] HOST [SERVER]`. */
export function nslookup(host: NslookupHost, args: readonly string[]): CommandResult {
  const types: string[] = [];
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    const [opt, val = ''] = args[i]!.slice(1).split(/=(.*)/s);
    if (opt === 'type' || opt === 'querytype') {
      const t = val.toLowerCase();
      if (!QTYPES.includes(t))
        return { stdout: '', stderr: `nslookup: invalid query type "${val}"\n`, exitCode: 1 };
      if (!types.includes(t)) types.push(t);
    } else if (!['port', 'retry', 'debug', 't', 'timeout'].includes(opt!)) {
      return { stdout: '', stderr: USAGE, exitCode: 1 };
    }
  }
  const name = args[i];
  if (name === undefined || args.length > i + 2) return { stdout: '', stderr: USAGE, exitCode: 1 };
  const conf = parseResolvConf(host.resolvConf, host.hostname);
  const servers =
    args[i + 1] !== undefined ? [args[i + 1]!] : conf.servers.length ? conf.servers : ['127.0.0.1'];

  const questions: { name: string; qtype: QType }[] = [];
  const withSearch = (qtype: QType): void => {
    if (qtype === 'PTR' || !conf.search || name.includes('.')) {
      questions.push({ name, qtype });
      return;
    }
    for (const d of conf.search.split(/[ \t]+/).filter(Boolean))
      questions.push({ name: `${name}.${d}`, qtype });
  };
  if (types.length === 0) {
    const ptr = makePtr(name);
    if (ptr) questions.push({ name: ptr, qtype: 'PTR' });
    else {
      withSearch('A');
      withSearch('AAAA');
    }
  } else {
    for (const t of QTYPES) if (types.includes(t)) withSearch(t.toUpperCase() as QType);
  }

  let stdout = '';
  let exitCode = 0;
  for (const server of servers) {
    const replies = questions.map((q) => host.query(server, q.name, q.qtype));
    if (replies.every((r) => r === undefined)) {
      host.sleep?.(TIMEOUT_MS);
      continue;
    }
    stdout += `Server:\t\t${server}\nAddress:\t${server}:53\n\n`;
    replies.forEach((r, k) => {
      if (!r) return;
      const q = questions[k]!;
      if (r.rcode !== 'NOERROR') {
        stdout += `** server can't find ${q.name}: ${r.rcode}\n`;
        exitCode = 1;
      } else {
        if (!r.authoritative) stdout += 'Non-authoritative answer:\n';
        for (const rr of r.answers) stdout += printRecord(rr);
      }
      stdout += '\n';
    });
    const unanswered = questions.filter((_, k) => !replies[k]);
    if (unanswered.length) {
      host.sleep?.(TIMEOUT_MS);
      for (const q of unanswered) stdout += `*** Can't find ${q.name}: No answer\n`;
      stdout += '\n';
    }
    return { stdout, stderr: '', exitCode };
  }
  return {
    stdout: ';; connection timed out; no servers could be reached\n\n',
    stderr: '',
    exitCode: 1,
  };
}

/** printRecord prints an answer as parse_reply does (SRV records it does not print). */
function printRecord(rr: ResourceRecord): string {
  switch (rr.type) {
    case 'A':
      return `Name:\t${rr.name}\nAddress: ${rr.address}\n`;
    case 'CNAME':
      return `${rr.name}\tcanonical name = ${rr.target}\n`;
    case 'PTR':
      return `${rr.name}\tname = ${rr.target}\n`;
    case 'TXT':
      return `${rr.name}\ttext = "${rr.text}"\n`;
    default:
      return '';
  }
}

/** parseResolvConf reads nameserver lines and the search line (else domain, else the hostname's). */
export function parseResolvConf(
  text: string,
  hostname: string,
): { servers: string[]; search: string | undefined } {
  const servers: string[] = [];
  let search: string | undefined;
  let haveSearch = false;
  for (const line of text.split('\n')) {
    const m = /^[ \t]*(\S+)[ \t]+(.+)$/.exec(line);
    if (!m) continue;
    const [, key, arg] = m as unknown as [string, string, string];
    if (key === 'domain') {
      if (!haveSearch) search = arg;
    } else if (key === 'search') {
      haveSearch = true;
      search = arg;
    } else if (key === 'nameserver') servers.push(arg.trim());
  }
  if (search === undefined) {
    const dot = hostname.indexOf('.');
    if (dot >= 0) search = hostname.slice(dot + 1);
  }
  if (search?.trim() === '.') search = undefined;
  return { servers, search };
}

/** makePtr is the in-addr.arpa name of an IPv4 address, or undefined for a name. */
function makePtr(s: string): string | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m || m.slice(1).some((o) => Number(o) > 255)) return undefined;
  return `${m[4]}.${m[3]}.${m[2]}.${m[1]}.in-addr.arpa`;
}

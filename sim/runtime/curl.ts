// Mirrors curl 8.17's command line tool (src/tool_getparam.c, src/tool_operate.c) and the library
// messages a learner sees (lib/hostip.c, lib/cf-ip-happy.c, lib/multi.c, lib/strerror.c) for
// `curl [-sSvIf] [-m SECS] [--connect-timeout SECS] [-H HEADER] [-o FILE] [-w FORMAT] URL` over
// plain HTTP: the name resolved by the container's C library, the connection carried by the
// cluster's nodes, the request answered by the process that listens there (see
// "Simplification:" notes).
// Simplification: the progress meter curl writes to stderr when its output is not a terminal
// (unless -s) is left out; a connection's time is 0 ms unless it times out; https:// and the
// other protocols are refused with a message saying so.

import type { Lookup } from '../dns/resolver.ts';
import type { HttpRequest, HttpResponse } from './servers.ts';
import type { CommandResult } from './sh.ts';

/** CURL_VERSION is the version curl images carry (curlimages/curl:8.17.0). */
export const CURL_VERSION = '8.17.0';

/** CurlHost is what curl reaches from the container. */
export interface CurlHost {
  resolve(name: string): Lookup;
  /** connect opens a TCP connection; the server's answer function once it is established. */
  connect(
    ip: string,
    port: number,
  ):
    | {
        outcome: 'established';
        localIP: string;
        localPort: number;
        serve(req: HttpRequest): HttpResponse;
      }
    | { outcome: 'refused' | 'rejected' | 'timeout' };
  sleep?(ms: number): void;
  /** resolverTimeoutMs is how long an unanswered DNS question is waited for. */
  resolverTimeoutMs: number;
}

interface Options {
  silent: boolean;
  showError: boolean;
  verbose: boolean;
  head: boolean;
  fail: boolean;
  maxTime?: number;
  connectTimeout?: number;
  headers: string[];
  output?: string;
  writeOut?: string;
  url?: string;
}

/** SYN_TIMEOUT_MS is how long Linux retries a SYN nobody answers (tcp_syn_retries 6: 127 s). */
const SYN_TIMEOUT_MS = 127_000;

const usage = (msg: string): CommandResult => ({
  stdout: '',
  stderr: `curl: ${msg}\ncurl: try 'curl --help' or 'curl --manual' for more information\n`,
  exitCode: 2,
});

/** parseArgs reads curl's options (short ones may be combined, as -sS or -sSv). */
function parseArgs(args: readonly string[]): Options | CommandResult {
  const o: Options = {
    silent: false,
    showError: false,
    verbose: false,
    head: false,
    fail: false,
    headers: [],
  };
  const value = (i: number, flag: string): string | CommandResult =>
    args[i + 1] ?? usage(`option ${flag}: requires parameter`);
  const seconds = (v: string, flag: string): number | CommandResult =>
    /^\d+(\.\d+)?$/.test(v)
      ? Number(v)
      : usage(`option ${flag}: expected a proper numerical parameter`);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const long = a.startsWith('--') ? a : undefined;
    const flags = long
      ? [long]
      : a.startsWith('-') && a.length > 1
        ? [...a.slice(1)].map((c) => `-${c}`)
        : [];
    if (!flags.length) {
      o.url = a;
      continue;
    }
    for (let k = 0; k < flags.length; k++) {
      const f = flags[k]!;
      const takesValue = [
        '-m',
        '--max-time',
        '--connect-timeout',
        '-H',
        '--header',
        '-o',
        '--output',
        '-w',
        '--write-out',
        '-X',
        '--request',
      ].includes(f);
      let v: string | CommandResult = '';
      if (takesValue) {
        // A short option's value may follow it in the same word (-m5) or be the next word.
        const rest = long ? '' : a.slice(k + 2);
        if (rest) {
          v = rest;
          k = flags.length;
        } else {
          v = value(i, f);
          i++;
        }
        if (typeof v !== 'string') return v;
      }
      switch (f) {
        case '-s':
        case '--silent':
          o.silent = true;
          break;
        case '-S':
        case '--show-error':
          o.showError = true;
          break;
        case '-v':
        case '--verbose':
          o.verbose = true;
          break;
        case '-I':
        case '--head':
          o.head = true;
          break;
        case '-f':
        case '--fail':
          o.fail = true;
          break;
        case '-L':
        case '--location':
        case '-k':
        case '--insecure':
          break;
        case '-m':
        case '--max-time': {
          const n = seconds(v, f);
          if (typeof n !== 'number') return n;
          o.maxTime = n;
          break;
        }
        case '--connect-timeout': {
          const n = seconds(v, f);
          if (typeof n !== 'number') return n;
          o.connectTimeout = n;
          break;
        }
        case '-H':
        case '--header':
          o.headers.push(v);
          break;
        case '-o':
        case '--output':
          o.output = v;
          break;
        case '-w':
        case '--write-out':
          o.writeOut = v;
          break;
        case '-X':
        case '--request':
          if (v !== 'GET' && v !== 'HEAD')
            return usage(`the simulator's curl sends GET and HEAD only, not ${v}`);
          if (v === 'HEAD') o.head = true;
          break;
        default:
          return usage(`option ${f}: is unknown`);
      }
    }
  }
  return o;
}

/** curl runs one request and prints as curl does. */
export function curl(host: CurlHost, args: readonly string[]): CommandResult {
  const parsed = parseArgs(args);
  if ('exitCode' in parsed) return parsed;
  const o = parsed;
  if (!o.url) return usage('no URL specified');
  let stdout = '';
  let stderr = '';
  const info = (line: string): void => {
    if (o.verbose) stderr += `* ${line}\n`;
  };
  const fail = (code: number, message: string): CommandResult => {
    if (!o.silent || o.showError) stderr += `curl: (${code}) ${message}\n`;
    if (o.writeOut) stdout += writeOut(o.writeOut, { code: 0, remoteIP: '' });
    return { stdout, stderr, exitCode: code };
  };
  const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?([^/:?#]+)(?::(\d+))?([^?#]*)?(\?[^#]*)?/.exec(
    o.url,
  );
  if (!m || !m[2]) return fail(3, 'URL rejected: Malformed input to a URL function');
  const scheme = (m[1] ?? 'http').toLowerCase();
  if (scheme !== 'http')
    return fail(
      1,
      `Protocol "${scheme}" is not modelled in this simulator's curl: it speaks plain http://`,
    );
  const name = m[2];
  const port = m[3] ? Number(m[3]) : 80;
  const path = `${m[4] || '/'}${m[5] ?? ''}`;
  const limitMs = (s: number | undefined): number | undefined =>
    s === undefined ? undefined : s * 1000;
  const maxMs = limitMs(o.maxTime);
  const connectMs = [maxMs, limitMs(o.connectTimeout)].filter((x): x is number => x !== undefined);
  const connectLimit = connectMs.length ? Math.min(...connectMs) : undefined;

  // Resolving: the C library's getaddrinfo (a resolver thread, in curl 8).
  const lookup = host.resolve(name);
  if ('error' in lookup) {
    if (lookup.error === 'again') {
      const waited = Math.min(host.resolverTimeoutMs, connectLimit ?? Infinity);
      host.sleep?.(waited);
      if (connectLimit !== undefined && connectLimit <= host.resolverTimeoutMs)
        return fail(28, `Resolving timed out after ${waited} milliseconds`);
    }
    return fail(6, `Could not resolve host: ${name}`);
  }
  const ip = lookup.addresses[0]!;
  info(`Host ${name}:${port} was resolved.`);
  info('IPv6: (none)');
  info(`IPv4: ${lookup.addresses.join(', ')}`);
  info(`  Trying ${ip}:${port}...`);
  const conn = host.connect(ip, port);
  if (conn.outcome !== 'established') {
    if (conn.outcome !== 'timeout')
      return fail(
        7,
        `Failed to connect to ${name} port ${port} after 0 ms: Could not connect to server`,
      );
    if (connectLimit !== undefined && connectLimit < SYN_TIMEOUT_MS) {
      host.sleep?.(connectLimit);
      return fail(28, `Connection timed out after ${connectLimit} milliseconds`);
    }
    host.sleep?.(SYN_TIMEOUT_MS);
    return fail(
      28,
      `Failed to connect to ${name} port ${port} after ${SYN_TIMEOUT_MS} ms: Could not connect to server`,
    );
  }
  info(
    `Established connection to ${name} (${ip} port ${port}) from ${conn.localIP} port ${conn.localPort} `,
  );
  info('using HTTP/1.x');
  const headers: [string, string][] = [
    ['Host', port === 80 ? name : `${name}:${port}`],
    ['User-Agent', `curl/${CURL_VERSION}`],
    ['Accept', '*/*'],
  ];
  for (const h of o.headers) {
    const i = h.indexOf(':');
    if (i <= 0) continue;
    const key = h.slice(0, i).trim();
    const val = h.slice(i + 1).trim();
    const at = headers.findIndex(([k]) => k.toLowerCase() === key.toLowerCase());
    if (at >= 0) {
      if (val) headers[at] = [headers[at]![0], val];
      else headers.splice(at, 1);
    } else if (val) headers.push([key, val]);
  }
  const method = o.head ? 'HEAD' : 'GET';
  if (o.verbose) {
    stderr += `> ${method} ${path} HTTP/1.1\n${headers.map(([k, v]) => `> ${k}: ${v}\n`).join('')}> \n`;
    info('Request completely sent off');
  }
  const hostHeader = headers.find(([k]) => k.toLowerCase() === 'host')?.[1] ?? name;
  const res = conn.serve({ method, path, host: hostHeader.replace(/:\d+$/, ''), headers });
  const head = `HTTP/1.1 ${res.status} ${res.reason}\r\n${res.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  if (o.verbose)
    stderr += head
      .split('\r\n')
      .slice(0, -1)
      .map((l) => `< ${l}\n`)
      .join('');
  if (o.fail && res.status >= 400) {
    info(`Connection #0 to host ${name}:${port} left intact`);
    return fail(22, `The requested URL returned error: ${res.status}`);
  }
  const printed = o.head ? head : res.body;
  if (o.output === undefined || o.output === '-') stdout += printed;
  info(`Connection #0 to host ${name}:${port} left intact`);
  if (o.writeOut) stdout += writeOut(o.writeOut, { code: res.status, remoteIP: ip });
  return { stdout, stderr, exitCode: 0 };
}

/** writeOut expands -w's variables (%{http_code}, %{remote_ip}) and \n, \t, \r escapes. */
function writeOut(format: string, v: { code: number; remoteIP: string }): string {
  return format
    .replace(/%\{http_code\}|%\{response_code\}/g, String(v.code).padStart(3, '0'))
    .replace(/%\{remote_ip\}/g, v.remoteIP)
    .replace(/\\n/g, '\n')
    .replace(/\\t/g, '\t')
    .replace(/\\r/g, '\r');
}

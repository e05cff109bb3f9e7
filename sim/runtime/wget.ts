// Mirrors BusyBox 1.36's wget applet (networking/wget.c) for `wget [-q] [-O FILE] [-T SECS]
// [--spider] URL` over plain HTTP, with its messages: "bad address" when the name does not
// resolve, "can't connect to remote host" when the connection fails, "server returned error"
// for an HTTP error (see "Simplification:" notes).
// Simplification: without -q only the "Connecting to" line is printed (the progress bar and
// "written to stdout" lines are left out); a file named by -O other than - is not written.

import type { CurlHost } from './curl.ts';
import type { CommandResult } from './sh.ts';

/** wget runs one download as BusyBox's wget does. */
export function wget(host: CurlHost, args: readonly string[]): CommandResult {
  let quiet = false;
  let output: string | undefined;
  let spider = false;
  let timeoutS = 900;
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--spider') spider = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (/^-q?O/.test(a)) {
      if (a.startsWith('-q')) quiet = true;
      const rest = a.slice(a.indexOf('O') + 1);
      output = rest || args[++i];
    } else if (a === '-T') timeoutS = Number(args[++i]);
    else if (a.startsWith('-'))
      return { stdout: '', stderr: `wget: unrecognized option '${a}'\n`, exitCode: 1 };
    else url = a;
  }
  if (!url) return { stdout: '', stderr: 'BusyBox wget: missing URL\n', exitCode: 1 };
  const m = /^(?:([a-zA-Z]+):\/\/)?([^/:?#]+)(?::(\d+))?(\/[^#]*)?/.exec(url);
  if (!m) return { stdout: '', stderr: `wget: bad address '${url}'\n`, exitCode: 1 };
  if ((m[1] ?? 'http').toLowerCase() !== 'http')
    return {
      stdout: '',
      stderr: `wget: this simulator's wget speaks plain http:// only\n`,
      exitCode: 1,
    };
  const name = m[2]!;
  const port = m[3] ? Number(m[3]) : 80;
  const path = m[4] ?? '/';
  const lookup = host.resolve(name);
  if ('error' in lookup) {
    if (lookup.error === 'again') host.sleep?.(host.resolverTimeoutMs);
    return { stdout: '', stderr: `wget: bad address '${name}'\n`, exitCode: 1 };
  }
  const ip = lookup.addresses[0]!;
  let stderr = quiet
    ? ''
    : `Connecting to ${name}${port === 80 ? '' : `:${port}`} (${ip}:${port})\n`;
  const conn = host.connect(ip, port);
  if (conn.outcome !== 'established') {
    if (conn.outcome !== 'timeout')
      return {
        stdout: '',
        stderr: `${stderr}wget: can't connect to remote host (${ip}): Connection refused\n`,
        exitCode: 1,
      };
    // The kernel gives up on the SYN first (127 s) unless -T is shorter.
    const ms = Math.min(timeoutS * 1000, 127_000);
    host.sleep?.(ms);
    return {
      stdout: '',
      stderr: `${stderr}wget: ${ms < 127_000 ? 'download timed out' : `can't connect to remote host (${ip}): Connection timed out`}\n`,
      exitCode: 1,
    };
  }
  const res = conn.serve({
    method: spider ? 'HEAD' : 'GET',
    path,
    host: name,
    headers: [
      ['Host', name],
      ['User-Agent', 'Wget'],
    ],
  });
  if (res.status >= 400) {
    stderr += `wget: server returned error: HTTP/1.1 ${res.status} ${res.reason}\n`;
    return { stdout: '', stderr, exitCode: 1 };
  }
  if (spider)
    return { stdout: '', stderr: quiet ? '' : `${stderr}remote file exists\n`, exitCode: 0 };
  return { stdout: output === '-' ? res.body : '', stderr, exitCode: 0 };
}

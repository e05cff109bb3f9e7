import { describe, expect, it } from 'vitest';
import { curl, type CurlHost } from './curl.ts';
import { listeners } from './servers.ts';
import { wget } from './wget.ts';

/** host serves nginx:1.27 at 10.96.0.20:80 for the name web; other names do not resolve. */
function host(over: Partial<CurlHost> = {}): CurlHost & { slept: number } {
  const nginx = listeners({ name: 'nginx', image: 'nginx:1.27' }, 'web-1')[0]!;
  const h = {
    slept: 0,
    resolverTimeoutMs: 5000,
    resolve: (name: string) =>
      name === 'web' ? { addresses: ['10.96.0.20'] } : { error: 'noname' as const },
    connect: (ip: string, port: number) =>
      ip === '10.96.0.20' && port === 80
        ? {
            outcome: 'established' as const,
            localIP: '10.244.1.9',
            localPort: 40000,
            serve: (req: Parameters<typeof nginx.serve>[0]) => nginx.serve(req, 5000),
          }
        : { outcome: 'refused' as const },
    sleep(ms: number) {
      h.slept += ms;
    },
    ...over,
  };
  return h;
}

describe('curl', () => {
  it('prints the body; -I prints the head; -o /dev/null -w prints the status', () => {
    expect(curl(host(), ['http://web/']).stdout).toMatch(
      /^<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!<\/title>/,
    );
    expect(curl(host(), ['-sI', 'web']).stdout).toMatch(
      /^HTTP\/1\.1 200 OK\r\nServer: nginx\/1\.27\.5\r\nDate: Thu, 01 Jan 2026 00:00:05 GMT\r\n/,
    );
    expect(
      curl(host(), ['-s', '-o', '/dev/null', '-w', '%{http_code}\\n', 'web/nope']).stdout,
    ).toBe('404\n');
  });

  it('-f turns an HTTP error into exit 22; -s hides the message unless -S', () => {
    expect(curl(host(), ['-f', 'web/nope'])).toEqual({
      stdout: '',
      stderr: 'curl: (22) The requested URL returned error: 404\n',
      exitCode: 22,
    });
    expect(curl(host(), ['-sf', 'web/nope']).stderr).toBe('');
    expect(curl(host(), ['-sSf', 'web/nope']).stderr).toBe(
      'curl: (22) The requested URL returned error: 404\n',
    );
  });

  it('a name that does not resolve is exit 6; a refused connection exit 7', () => {
    expect(curl(host(), ['nope'])).toEqual({
      stdout: '',
      stderr: 'curl: (6) Could not resolve host: nope\n',
      exitCode: 6,
    });
    expect(curl(host(), ['web:81']).stderr).toBe(
      'curl: (7) Failed to connect to web port 81 after 0 ms: Could not connect to server\n',
    );
  });

  it('a lost SYN waits for -m, else for the kernel’s 127 s, and is exit 28', () => {
    const lost = { connect: () => ({ outcome: 'timeout' as const }) };
    const h = host(lost);
    expect(curl(h, ['-m', '3', 'web']).stderr).toBe(
      'curl: (28) Connection timed out after 3000 milliseconds\n',
    );
    expect(h.slept).toBe(3000);
    const h2 = host(lost);
    expect(curl(h2, ['web']).stderr).toBe(
      'curl: (28) Failed to connect to web port 80 after 127000 ms: Could not connect to server\n',
    );
    expect(h2.slept).toBe(127_000);
  });

  it('refuses what it does not model, and bad options, as curl does', () => {
    expect(curl(host(), ['https://web']).exitCode).toBe(1);
    expect(curl(host(), ['-m', 'x', 'web'])).toEqual({
      stdout: '',
      stderr:
        "curl: option -m: expected a proper numerical parameter\ncurl: try 'curl --help' or 'curl --manual' for more information\n",
      exitCode: 2,
    });
    expect(curl(host(), []).stderr).toMatch(/^curl: no URL specified/);
  });

  it('-H Host: replaces the Host header the server sees', () => {
    let seen = '';
    const h = host({
      connect: () => ({
        outcome: 'established',
        localIP: '10.244.1.9',
        localPort: 40000,
        serve: (req) => {
          seen = req.host;
          return { status: 200, reason: 'OK', headers: [], body: '' };
        },
      }),
    });
    curl(h, ['-H', 'Host: shop.example', 'web']);
    expect(seen).toBe('shop.example');
  });
});

describe('BusyBox wget', () => {
  it('-qO- prints the body; errors are worded as BusyBox words them', () => {
    expect(wget(host(), ['-qO-', 'web']).stdout).toMatch(/Welcome to nginx!/);
    expect(wget(host(), ['-qO-', 'nope']).stderr).toBe("wget: bad address 'nope'\n");
    expect(wget(host(), ['-qO-', 'web:81']).stderr).toBe(
      "wget: can't connect to remote host (10.96.0.20): Connection refused\n",
    );
    expect(wget(host(), ['-qO-', 'web/x']).stderr).toBe(
      'wget: server returned error: HTTP/1.1 404 Not Found\n',
    );
  });
});

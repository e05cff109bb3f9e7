// What a container's image serves on the network: the port its process listens on and how it
// answers an HTTP request, for the images the course uses (see "Simplification:" notes):
// - nginx: port 80, its welcome page at / and its 404 page elsewhere;
// - httpd: port 80, "It works!";
// - registry.k8s.io/e2e-test-images/agnhost: `netexec` (HTTP on --http-port, default 8080:
//   /hostname answers the Pod's name, / the time) and `serve-hostname` (port 9376, the Pod's name),
//   as test/images/agnhost/netexec and serve-hostname do;
// - hashicorp/http-echo: port 5678 (or -listen=:PORT), the -text given, with a newline.
// Client images (busybox, curl, alpine) listen on nothing.
// Simplification: only HTTP/1.1 GET and HEAD over plain TCP are modelled; an image not named
// here listens on nothing, and a container's declared containerPort changes nothing (as in
// Kubernetes, where it is informational).

import type { Container } from '../api/types.ts';
import { EPOCH_UNIX_MS, formatTime } from '../engine/clock.ts';
import { normalizeImage, type ServedPort } from './images.ts';

/** HttpRequest is what a client sends. */
export interface HttpRequest {
  method: 'GET' | 'HEAD';
  path: string;
  host: string;
  headers: [string, string][];
}

/** HttpResponse is what a server answers. */
export interface HttpResponse {
  status: number;
  reason: string;
  headers: [string, string][];
  body: string;
}

/** Listener is one port a container's process listens on. */
export interface Listener {
  port: number;
  serve(req: HttpRequest, now: number): HttpResponse;
}

/** NGINX_VERSIONS are the versions the official image's tags carry (the Server header). */
const NGINX_VERSIONS: Record<string, string> = {
  '1.27': '1.27.5',
  '1.28': '1.28.0',
  latest: '1.29.3',
  alpine: '1.29.3',
};

const NGINX_WELCOME = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

function nginx(version: string): Listener {
  return {
    port: 80,
    serve(req, now) {
      const found = req.path === '/' || req.path === '/index.html';
      const body = found
        ? NGINX_WELCOME
        : `<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/${version}</center>\r\n</body>\r\n</html>\r\n`;
      return {
        status: found ? 200 : 404,
        reason: found ? 'OK' : 'Not Found',
        headers: [
          ['Server', `nginx/${version}`],
          ['Date', httpDate(now)],
          ['Content-Type', 'text/html'],
          ['Content-Length', String(body.length)],
          ['Connection', 'keep-alive'],
          ...(found ? ([['Accept-Ranges', 'bytes']] as [string, string][]) : []),
        ],
        body: req.method === 'HEAD' ? '' : body,
      };
    },
  };
}

/** text is a plain-text answer, as agnhost and http-echo give. */
function text(port: number, body: (req: HttpRequest, now: number) => string | undefined): Listener {
  return {
    port,
    serve(req, now) {
      const b = body(req, now);
      const status = b === undefined ? 404 : 200;
      const out = b ?? '404 page not found\n';
      return {
        status,
        reason: status === 200 ? 'OK' : 'Not Found',
        headers: [
          ['Date', httpDate(now)],
          ['Content-Length', String(out.length)],
          ['Content-Type', 'text/plain; charset=utf-8'],
        ],
        body: req.method === 'HEAD' ? '' : out,
      };
    },
  };
}

/** flagValue reads --name=value or --name value (and -name=value, as Go's flag package allows). */
function flagValue(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(a);
    if (!m || m[1] !== name) continue;
    return m[2] ?? argv[i + 1];
  }
  return undefined;
}

/**
 * declaredListeners are the ports a scenario says an image listens on (cluster.images.<image>.
 * serves): each answers every request with its status and body.
 */
export function declaredListeners(serves: readonly ServedPort[]): Listener[] {
  return serves.map((p) => {
    const status = p.status ?? 200;
    const body = p.body ?? '';
    return {
      port: p.port,
      serve(req, now) {
        return {
          status,
          reason: REASONS[status] ?? '',
          headers: [
            ['Date', httpDate(now)],
            ['Content-Length', String(body.length)],
            ['Content-Type', 'text/plain; charset=utf-8'],
          ],
          body: req.method === 'HEAD' ? '' : body,
        };
      },
    };
  });
}

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/**
 * listeners are the ports a container listens on, from its image and its command and args,
 * answering as the Pod named podName.
 */
export function listeners(container: Container, podName: string): Listener[] {
  const r = normalizeImage(container.image);
  const argv = [...(container.command ?? []), ...(container.args ?? [])];
  switch (r.repo) {
    case 'docker.io/library/nginx': {
      if (argv.length && !argv.some((a) => a.includes('nginx'))) return [];
      const version =
        /^\d+\.\d+\.\d+/.exec(r.tag)?.[0] ??
        NGINX_VERSIONS[r.tag.replace(/-alpine.*$/, '')] ??
        NGINX_VERSIONS.latest!;
      return [nginx(version)];
    }
    case 'docker.io/library/httpd':
      return argv.length ? [] : [text(80, () => '<html><body><h1>It works!</h1></body></html>\n')];
    case 'registry.k8s.io/e2e-test-images/agnhost': {
      const sub = argv.find((a) => !a.startsWith('-') && a !== '/agnhost' && a !== 'agnhost');
      if (sub === 'serve-hostname') return [text(9376, () => podName)];
      if (sub === 'netexec') {
        const port = Number(flagValue(argv, 'http-port') ?? 8080);
        return [
          text(port, (req, now) =>
            req.path === '/hostname'
              ? podName
              : req.path === '/' || req.path === '/echo'
                ? `NOW: ${formatTime(now)}`
                : undefined,
          ),
        ];
      }
      return [];
    }
    case 'docker.io/hashicorp/http-echo': {
      const listen = flagValue(argv, 'listen') ?? ':5678';
      const t = flagValue(argv, 'text') ?? '';
      return [text(Number(listen.replace(/^.*:/, '')), () => `${t}\n`)];
    }
    default:
      return [];
  }
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** httpDate is an HTTP Date header for virtual time ms (RFC 9110 IMF-fixdate). */
export function httpDate(now: number): string {
  // formatTime gives RFC 3339 in UTC: 2026-01-01T00:00:05Z; 1970-01-01 was a Thursday.
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})/.exec(formatTime(now))!;
  const days = Math.floor((EPOCH_UNIX_MS + now) / 86_400_000);
  return `${DAYS[(days + 4) % 7]}, ${m[3]} ${MONTHS[Number(m[2]) - 1]} ${m[1]} ${m[4]} GMT`;
}

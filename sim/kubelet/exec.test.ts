import { describe, expect, it } from 'vitest';
import type { Pod, Service } from '../api/types.ts';
import { execSync } from './exec.ts';

const T0 = '2026-01-01T00:00:10Z';

function pod(
  o: {
    image?: string;
    ns?: string;
    spec?: Partial<Pod['spec']>;
    env?: { name: string; value: string }[];
  } = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'client', namespace: o.ns ?? 'shop', uid: 'u1', creationTimestamp: T0 },
    spec: {
      containers: [{ name: 'c', image: o.image ?? 'busybox', ...(o.env ? { env: o.env } : {}) }],
      nodeName: 'node-1',
      ...o.spec,
    },
    status: {
      phase: 'Running',
      podIP: '10.244.1.7',
      containerStatuses: [{ name: 'c', state: { running: { startedAt: T0 } } }],
    },
  } as unknown as Pod;
}

function service(
  ns: string,
  name: string,
  clusterIP: string,
  ports: { port: number; name?: string; protocol?: string }[],
): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { clusterIP, ports },
  } as unknown as Service;
}

const SERVICES = [
  service('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443 }]),
  service('shop', 'cart-db', '10.96.40.2', [
    { name: 'sql', port: 5432 },
    { port: 9187, protocol: 'UDP' },
  ]),
  service('shop', 'headless', 'None', [{ port: 80 }]),
  service('other', 'web', '10.96.9.9', [{ port: 80 }]),
];

const out = (p: Pod, argv: string[], services: Service[] = SERVICES) => {
  const r = execSync(p, 'c', argv, { services });
  if (!r.started) throw new Error(JSON.stringify(r));
  return r.result;
};

describe('execSync', () => {
  it('writes resolv.conf for dnsPolicy ClusterFirst with the Pod’s namespace first', () => {
    expect(out(pod(), ['cat', '/etc/resolv.conf']).stdout).toBe(
      'search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
    // A hostNetwork Pod with ClusterFirst uses the node's resolver; ClusterFirstWithHostNet does not.
    expect(out(pod({ spec: { hostNetwork: true } }), ['cat', '/etc/resolv.conf']).stdout).toBe('');
    expect(
      out(pod({ spec: { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' } }), [
        'cat',
        '/etc/resolv.conf',
      ]).stdout,
    ).toMatch(/^search shop\.svc/);
  });

  it('names the Pod by hostname and subdomain in /etc/hosts', () => {
    expect(
      out(pod({ spec: { hostname: 'db-0', subdomain: 'db' } }), ['cat', '/etc/hosts']).stdout,
    ).toMatch(/\n10\.244\.1\.7\tdb-0\.db\.shop\.svc\.cluster\.local\tdb-0\n$/);
    expect(out(pod({ spec: { hostname: 'db-0' } }), ['hostname']).stdout).toBe('db-0\n');
  });

  it('makes the service variables of the namespace and of default/kubernetes, not of headless Services', () => {
    const env = out(pod(), ['env']).stdout;
    expect(env).toContain('CART_DB_SERVICE_HOST=10.96.40.2\n');
    expect(env).toContain('CART_DB_SERVICE_PORT=5432\n');
    expect(env).toContain('CART_DB_SERVICE_PORT_SQL=5432\n');
    expect(env).toContain('CART_DB_PORT=tcp://10.96.40.2:5432\n');
    expect(env).toContain('CART_DB_PORT_9187_UDP=udp://10.96.40.2:9187\n');
    expect(env).toContain('CART_DB_PORT_9187_UDP_PROTO=udp\n');
    expect(env).toContain('KUBERNETES_SERVICE_HOST=10.96.0.1\n');
    expect(env).not.toContain('HEADLESS');
    expect(env).not.toContain('WEB_SERVICE');
    expect(
      env.startsWith(
        'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nHOSTNAME=client\n',
      ),
    ).toBe(true);
    expect(env.endsWith('HOME=/root\n')).toBe(true);
  });

  it('with enableServiceLinks false keeps only the kubernetes Service', () => {
    const env = out(pod({ spec: { enableServiceLinks: false } }), ['env']).stdout;
    expect(env).toContain('KUBERNETES_SERVICE_HOST=');
    expect(env).not.toContain('CART_DB');
  });

  it('expands $(VAR) in env values from variables defined before, and keeps the container’s own over a Service’s', () => {
    const env = out(
      pod({
        env: [
          { name: 'A', value: 'x' },
          { name: 'B', value: '$(A)-$(Z)-$$' },
          { name: 'CART_DB_SERVICE_HOST', value: 'mine' },
        ],
      }),
      ['env'],
    ).stdout;
    expect(env).toContain('B=x-$(Z)-$\n');
    expect(env).toContain('CART_DB_SERVICE_HOST=mine\n');
  });

  it('words errors as the image’s tools do: BusyBox for busybox, coreutils for Debian images', () => {
    expect(out(pod(), ['cat', '/x']).stderr).toBe(
      "cat: can't open '/x': No such file or directory\n",
    );
    expect(out(pod({ image: 'nginx:1.27' }), ['cat', '/x']).stderr).toBe(
      'cat: /x: No such file or directory\n',
    );
    expect(out(pod({ image: 'nginx:1.27-alpine' }), ['sh', '-c', 'nope']).stderr).toMatch(
      /^sh: nope: not found\n/,
    );
    expect(out(pod({ image: 'nginx:1.27' }), ['sh', '-c', 'nope']).stderr).toMatch(
      /^sh: 1: nope: not found\n/,
    );
  });

  it('a distroless image has no shell: the runtime cannot start the program', () => {
    expect(
      execSync(pod({ image: 'registry.k8s.io/pause:3.10' }), 'c', ['sh', '-c', 'echo hi']),
    ).toEqual({
      started: false,
      error:
        'OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in $PATH: unknown',
    });
  });
});

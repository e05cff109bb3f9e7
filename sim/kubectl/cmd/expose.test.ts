import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Service } from '../../api/types.ts';
import { restore, snapshot } from '../../scenario/snapshot.ts';

const YAML = parse(
  readFileSync(new URL('../../../content/scenarios/node-failure.yaml', import.meta.url), 'utf8'),
);

function cluster() {
  const c = restore(snapshot(YAML, 7, 60_000, [])).cluster;
  // A Deployment whose container declares its ports, as expose reads them.
  c.kubectl('create deployment api --image=nginx --port=8080');
  return c;
}

function service(c: ReturnType<typeof cluster>, name: string): Service {
  return c.apiserver.peekAll<Service>('services').find((s) => s.metadata.name === name)!;
}

describe('kubectl expose', () => {
  it('exposes a Deployment with its selector, labels and container port', () => {
    const c = cluster();
    expect(c.kubectl('expose deployment api')).toEqual({
      stdout: 'service/api exposed\n',
      stderr: '',
      exitCode: 0,
    });
    const s = service(c, 'api');
    expect(s.spec.selector).toEqual({ app: 'api' });
    expect(s.metadata.labels).toEqual({ app: 'api' });
    expect(s.spec.type).toBe('ClusterIP');
    // One port: unnamed, TCP, the target the port itself.
    expect(s.spec.ports).toEqual([{ port: 8080, protocol: 'TCP', targetPort: 8080 }]);
    // The requests kubectl sends: GET the Deployment, POST the Service.
    const reqs = c.sim.trace
      .filter((e) => e.kind === 'request' && e.from === 'kubectl')
      .slice(-2)
      .map((e) => e.kind === 'request' && `${e.verb} ${e.resource}`);
    expect(reqs).toEqual(['get deployments', 'create services']);
  });

  it('takes --port, --target-port, --type, --name and --protocol, and exposes Pods and Services', () => {
    const c = cluster();
    expect(
      c.kubectl('expose deployment web --port=80 --target-port=8080 --type=NodePort --name=web-np')
        .stdout,
    ).toBe('service/web-np exposed\n');
    const np = service(c, 'web-np');
    expect(np.spec.type).toBe('NodePort');
    expect(np.spec.selector).toEqual({ app: 'web' });
    expect(np.spec.ports![0]).toMatchObject({ port: 80, targetPort: 8080, protocol: 'TCP' });
    expect(np.spec.ports![0].nodePort).toBeGreaterThanOrEqual(30000);
    c.kubectl('expose service web-np --name=web-udp --port=53 --protocol=UDP --target-port=dns');
    const udp = service(c, 'web-udp');
    expect(udp.spec.selector).toEqual({ app: 'web' });
    expect(udp.spec.ports).toEqual([{ port: 53, protocol: 'UDP', targetPort: 'dns' }]);
    const pod = c.apiserver.peekAll<{ metadata: { name: string } } & Service>('pods')[0];
    expect(c.kubectl(`expose pod ${pod.metadata.name} --port=80 --name=one`).stdout).toBe(
      'service/one exposed\n',
    );
    expect(service(c, 'one').spec.selector).toEqual(pod.metadata.labels);
    c.kubectl('expose deployment api --type=LoadBalancer --name=api-lb');
    expect(c.kubectl('get svc api-lb').stdout).toMatch(
      /^api-lb\s+LoadBalancer\s+10\.96\.\S+\s+<pending>\s+8080:3\d{4}\/TCP\s+0s\n$/m,
    );
  });

  it('refuses what RunExpose refuses, in its words', () => {
    const c = cluster();
    const err = (line: string) => c.kubectl(line).stderr;
    expect(err('expose')).toMatch(
      /^error: You must provide one or more resources by argument or filename\./,
    );
    expect(err('expose deployment')).toBe(
      'error: resource(s) were provided, but no name was specified\n',
    );
    expect(err('expose deployment web')).toBe(
      "error: couldn't find port via --port flag or introspection\n",
    );
    expect(err('expose node node-1 --port=80')).toBe('error: cannot expose a Node\n');
    expect(err('expose deployment nope --port=80')).toBe(
      'Error from server (NotFound): deployments.apps "nope" not found\n',
    );
    expect(err('expose deployment web --port=http')).toBe(
      'error: strconv.Atoi: parsing "http": invalid syntax\n',
    );
    expect(err('expose deployment web --port=80 --session-affinity=Sticky')).toBe(
      'error: unknown session affinity: Sticky\n',
    );
    expect(err('expose deployment web --port=80 --name=1web')).toBe(
      `The Service "1web" is invalid: metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\n`,
    );
    c.kubectl('expose deployment web --port=80');
    expect(err('expose deployment web --port=80')).toBe(
      'Error from server (AlreadyExists): services "web" already exists\n',
    );
    expect(err('expose deployment web --port=80 --name=bad --type=Ingress')).toBe(
      'The Service "bad" is invalid: spec.type: Unsupported value: "Ingress": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"\n',
    );
  });
});

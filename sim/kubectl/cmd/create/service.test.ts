import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Service } from '../../../api/types.ts';
import { restore, snapshot } from '../../../scenario/snapshot.ts';
import { golden } from '../../../testing.ts';

const YAML = parse(
  readFileSync(new URL('../../../../content/scenarios/node-failure.yaml', import.meta.url), 'utf8'),
);

function cluster() {
  return restore(snapshot(YAML, 7, 60_000, [])).cluster;
}

// transcript runs command lines and keeps what a terminal shows.
function transcript(c: ReturnType<typeof cluster>, lines: string[]): string {
  return lines
    .map((l) => {
      const o = c.kubectl(l);
      return `$ kubectl ${l}\n${o.stdout}${o.stderr}`;
    })
    .join('');
}

describe('kubectl create service', () => {
  it('POSTs the Service create_service.go builds for each type: app=NAME, one TCP port per --tcp', () => {
    const c = cluster();
    expect(c.kubectl('create service nodeport web --tcp=80:8080 --tcp=443:https')).toEqual({
      stdout: 'service/web created\n',
      stderr: '',
      exitCode: 0,
    });
    const web = c.apiserver.peekAll<Service>('services').find((s) => s.metadata.name === 'web')!;
    expect(web.metadata.labels).toEqual({ app: 'web' });
    expect(web.spec.selector).toEqual({ app: 'web' });
    expect(web.spec.type).toBe('NodePort');
    expect(web.spec.ports!.map((p) => [p.name, p.port, p.targetPort, p.protocol])).toEqual([
      ['80-8080', 80, 8080, 'TCP'],
      ['443-https', 443, 'https', 'TCP'],
    ]);
    expect(web.spec.ports!.every((p) => p.nodePort! >= 30000 && p.nodePort! <= 32767)).toBe(true);
    c.kubectl('create service nodeport fixed --tcp=80 --node-port=30080');
    const fixed = c.apiserver
      .peekAll<Service>('services')
      .find((s) => s.metadata.name === 'fixed')!;
    expect(fixed.spec.ports![0]).toMatchObject({
      name: '80',
      port: 80,
      targetPort: 80,
      nodePort: 30080,
    });
    expect(c.kubectl('create svc clusterip db --clusterip=None').stdout).toBe(
      'service/db created\n',
    );
    const db = c.apiserver.peekAll<Service>('services').find((s) => s.metadata.name === 'db')!;
    expect(db.spec.clusterIPs).toEqual(['None']);
  });

  it('takes -n before the command or between the group and its subcommand', () => {
    const c = cluster();
    expect(c.kubectl('-n kube-system create service clusterip a --tcp=80').stdout).toBe(
      'service/a created\n',
    );
    expect(c.kubectl('create -n kube-system svc clusterip b --tcp=80').stdout).toBe(
      'service/b created\n',
    );
    const ns = c.apiserver
      .peekAll<Service>('services')
      .filter((s) => ['a', 'b'].includes(s.metadata.name))
      .map((s) => s.metadata.namespace);
    expect(ns).toEqual(['kube-system', 'kube-system']);
    expect(c.kubectl('-n kube-system rollout status deployment/coredns').exitCode).toBe(0);
  });

  it('prints what kubectl v1.34 prints for every type (get, get -o wide, describe), and the allocator objects', () => {
    const c = cluster();
    golden(
      new URL('../../testdata/create-service.txt', import.meta.url),
      transcript(c, [
        'create service clusterip web --tcp=80:8080',
        'create service clusterip db --clusterip=None',
        'create service nodeport web-np --tcp=80:8080 --node-port=30080',
        'create service loadbalancer web-lb --tcp=443:8443',
        'create service externalname ext --external-name=db.example.com',
        'get svc',
        'get svc -o wide',
        'describe svc web-np',
        'describe svc web-lb',
        'describe svc db',
        'describe svc ext',
        'get servicecidrs',
        'get ipaddresses',
        'describe servicecidr kubernetes',
        'describe ipaddress 10.96.0.10',
      ]),
    );
  });

  it('refuses what ServiceOptions.Validate and parsePorts refuse, in their words', () => {
    const c = cluster();
    const err = (line: string) => c.kubectl(line).stderr;
    expect(err('create service clusterip')).toBe(
      "error: exactly one NAME is required, got 0\nSee 'kubectl create service clusterip -h' for help and examples\n",
    );
    expect(err('create service clusterip web')).toBe(
      'error: at least one tcp port specifier must be provided\n',
    );
    expect(err('create service nodeport web --tcp=http')).toBe(
      'error: strconv.ParseUint: parsing "http": invalid syntax\n',
    );
    expect(err('create service nodeport web --tcp=70000')).toBe(
      'error: strconv.ParseUint: parsing "70000": value out of range\n',
    );
    expect(err('create service nodeport web --tcp=80:0')).toBe(
      'error: must be between 1 and 65535, inclusive\n',
    );
    expect(err('create service nodeport web --tcp=80:Web_')).toBe(
      'error: must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)\n',
    );
    expect(err('create service externalname ext')).toBe(
      'error: required flag(s) "external-name" not set\n',
    );
    expect(err('create service externalname ext --external-name=Not_A_Name')).toBe(
      'error: invalid service external name Not_A_Name\n',
    );
    expect(err('create service nodeport web --tcp=80 --node-port=29999')).toBe(
      'error: failed to create NodePort service: Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767\n',
    );
    c.kubectl('create service nodeport a --tcp=80 --node-port=30080');
    expect(err('create service nodeport b --tcp=80 --node-port=30080')).toBe(
      'error: failed to create NodePort service: Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated\n',
    );
    expect(err('create service clusterip a --tcp=80')).toBe(
      'error: failed to create ClusterIP service: services "a" already exists\n',
    );
    // The bare group prints its help to stderr and exits 1; an unknown subcommand is refused.
    const bare = c.kubectl('create service');
    expect(bare.exitCode).toBe(1);
    expect(bare.stderr).toMatch(/^Create a service using a specified subcommand\.\n/);
    expect(err('create service headless web')).toBe(
      `error: unknown command "headless web"\nSee 'kubectl create service -h' for help and examples\n`,
    );
  });
});

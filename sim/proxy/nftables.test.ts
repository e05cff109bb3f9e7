import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../api/types.ts';
import { Client } from '../client/client.ts';
import type { ProgramEntry } from '../engine/trace.ts';
import { frozenAPIServer, golden } from '../testing.ts';
import { iptablesSaveCommand, nftCommand } from './commands.ts';
import { serviceEndpoints, servicePorts } from './endpoints.ts';
import { nftListTable, syncNFTablesRules, type NftTable } from './nftables.ts';
import { KubeProxy } from './proxier.ts';

// ---- builders, in the shapes of pkg/proxy/nftables/proxier_test.go ----

function newService(ns: string, name: string, spec: Partial<Service['spec']>): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns } as Service['metadata'],
    spec: { selector: { app: name }, ...spec },
    status: {},
  };
}

function newSlice(
  ns: string,
  service: string,
  ips: { ip: string; node?: string }[],
  port = 80,
  portName = 'p80',
): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${service}-abcde`,
      namespace: ns,
      labels: { 'kubernetes.io/service-name': service },
    } as unknown as EndpointSlice['metadata'],
    addressType: 'IPv4',
    ports: [{ name: portName, protocol: 'TCP', port }],
    endpoints: ips.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: true, serving: true, terminating: false },
      ...(e.node ? { nodeName: e.node } : {}),
    })),
  };
}

// The fake proxier's conventions: Pod IPs 10.0.0.0/8, Service IPs 172.30.0.0/16, node 192.168.0.2.
const cfg = {
  clusterCIDR: '10.0.0.0/8',
  serviceCIDR: '172.30.0.0/16',
  nodeIP: '192.168.0.2',
  nodeName: 'test-node',
  masqueradeAll: false,
  masqueradeMark: 0x4000,
};

function sync(services: Service[], slices: EndpointSlice[]): NftTable {
  const ports = services.flatMap((svc) => {
    const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
    const eps = serviceEndpoints(
      key,
      slices.filter(
        (s) =>
          s.metadata.namespace === svc.metadata.namespace &&
          s.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name,
      ),
    );
    return servicePorts(svc).map((p) => ({
      svc: p,
      endpoints: eps.byPort.get(`${p.portName}/${p.protocol}`) ?? [],
    }));
  });
  return syncNFTablesRules(ports, cfg).table;
}

const p80 = [{ name: 'p80', port: 80, protocol: 'TCP' as const }];

describe('syncNFTablesRules (TestOverallNFTablesRules shapes)', () => {
  const table = sync(
    [
      newService('ns1', 'svc1', { clusterIP: '172.30.0.41', ports: p80 }),
      newService('ns3', 'svc3', {
        type: 'NodePort',
        clusterIP: '172.30.0.43',
        ports: [{ ...p80[0]!, nodePort: 3003 }],
      }),
      newService('ns4', 'svc4', { clusterIP: '172.30.0.44', ports: p80 }),
      newService('ns6', 'svc6', { clusterIP: '172.30.0.46', ports: p80 }),
    ],
    [
      newSlice('ns1', 'svc1', [{ ip: '10.180.0.1' }]),
      newSlice('ns3', 'svc3', [{ ip: '10.180.0.3' }]),
      newSlice('ns4', 'svc4', [{ ip: '10.180.0.4' }, { ip: '10.180.0.5', node: 'test-node' }]),
    ],
  );

  it('names chains HASH-namespace/name/protocol/port as upstream does', () => {
    const names = [...table.chains.keys()].filter((c) => c.includes('/'));
    expect(names).toEqual([
      'endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80',
      'service-ULMVA6XW-ns1/svc1/tcp/p80',
      'endpoint-UEIP74TE-ns3/svc3/tcp/p80__10.180.0.3/80',
      'service-4AT6LBPK-ns3/svc3/tcp/p80',
      'external-4AT6LBPK-ns3/svc3/tcp/p80',
      'endpoint-UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80',
      'endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80',
      'service-LAUZTJTB-ns4/svc4/tcp/p80',
    ]);
  });

  it('a ClusterIP Service: masquerade off-cluster sources, one numgen vmap over the endpoints', () => {
    expect(table.chains.get('service-LAUZTJTB-ns4/svc4/tcp/p80')!.rules).toEqual([
      'ip daddr 172.30.0.44 tcp dport 80 ip saddr != 10.0.0.0/8 jump mark-for-masquerade',
      'numgen random mod 2 vmap { 0 : goto endpoint-UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80, 1 : goto endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80 }',
    ]);
    expect(table.chains.get('endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80')!.rules).toEqual([
      'ip saddr 10.180.0.1 jump mark-for-masquerade',
      'meta l4proto tcp dnat to 10.180.0.1:80',
    ]);
    expect(table.sets.get('service-ips')!.elements).toContainEqual({
      key: '172.30.0.41 . tcp . 80',
      value: 'goto service-ULMVA6XW-ns1/svc1/tcp/p80',
    });
  });

  it('a Service with no endpoints: its cluster IP goes to reject-chain, and no chain is written', () => {
    expect(table.sets.get('no-endpoint-services')!.elements).toEqual([
      { key: '172.30.0.46 . tcp . 80', comment: 'ns6/svc6:p80', value: 'goto reject-chain' },
    ]);
    expect([...table.chains.keys()].some((c) => c.includes('svc6'))).toBe(false);
    expect(table.sets.get('cluster-ips')!.elements.map((e) => e.key)).toContain('172.30.0.46');
  });

  it('a NodePort Service: service-nodeports sends the port to the external chain', () => {
    expect(table.sets.get('service-nodeports')!.elements).toEqual([
      { key: 'tcp . 3003', value: 'goto external-4AT6LBPK-ns3/svc3/tcp/p80' },
    ]);
    expect(table.chains.get('external-4AT6LBPK-ns3/svc3/tcp/p80')!.rules).toEqual([
      'jump mark-for-masquerade',
      'goto service-4AT6LBPK-ns3/svc3/tcp/p80',
    ]);
    expect(table.sets.get('nodeport-ips')!.elements).toEqual([{ key: '192.168.0.2' }]);
  });

  it('sessionAffinity ClientIP: an affinity set per endpoint, checked before the numgen draw', () => {
    const t = sync(
      [
        newService('ns5', 'svc5', {
          clusterIP: '172.30.0.45',
          ports: p80,
          sessionAffinity: 'ClientIP',
        } as Partial<Service['spec']>),
      ],
      [newSlice('ns5', 'svc5', [{ ip: '10.180.0.3' }])],
    );
    const set = 'affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80';
    expect(t.sets.get(set)).toMatchObject({ flags: 'dynamic,timeout', timeout: 10800 });
    expect(t.chains.get('service-HVFWP5L3-ns5/svc5/tcp/p80')!.rules[1]).toBe(
      `ip saddr @${set} goto endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80`,
    );
    expect(t.chains.get('endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80')!.rules[1]).toBe(
      `update @${set} { ip saddr }`,
    );
    expect(nftListTable(t)).toContain('\t\tflags dynamic,timeout\n\t\ttimeout 3h\n');
  });
});

// ---- KubeProxy in nftables mode ----

function newCluster() {
  const { sim, api } = frozenAPIServer();
  const kp = new KubeProxy(sim, new Client(api, 'kube-proxy@node-1'), {
    nodeName: 'node-1',
    nodeIP: '10.0.0.11',
    clusterCIDR: '10.244.0.0/16',
    mode: 'nftables',
  });
  const http = [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' as const }];
  api.create(
    'test',
    'services',
    newService('default', 'web', { clusterIP: '10.96.45.12', ports: http }),
  );
  api.create(
    'test',
    'endpointslices',
    newSlice(
      'default',
      'web',
      [
        { ip: '10.244.1.5', node: 'node-1' },
        { ip: '10.244.2.7', node: 'node-2' },
      ],
      8080,
      'http',
    ),
  );
  api.create(
    'test',
    'services',
    newService('default', 'nobody', { clusterIP: '10.96.45.13', ports: http }),
  );
  api.create(
    'test',
    'services',
    newService('default', 'np', {
      type: 'NodePort',
      clusterIP: '10.96.45.14',
      ports: [{ ...http[0]!, nodePort: 30080 }],
    }),
  );
  api.create(
    'test',
    'endpointslices',
    newSlice('default', 'np', [{ ip: '10.244.2.8', node: 'node-2' }], 8080, 'http'),
  );
  kp.start();
  sim.runUntil(10);
  return { sim, kp };
}

describe('KubeProxy in nftables mode', () => {
  it('nft list ruleset prints the kube-proxy table as nft does (golden)', () => {
    const { kp } = newCluster();
    const out = nftCommand(['list', 'ruleset'], kp.nftables);
    expect(out.exitCode).toBe(0);
    golden(new URL('./testdata/nft-list-ruleset.txt', import.meta.url), out.stdout);
    expect(nftCommand(['list', 'table', 'ip', 'kube-proxy'], kp.nftables).stdout).toBe(out.stdout);
  });

  it('writes no iptables rules: iptables-save shows only what the kubelet owns', () => {
    const { kp } = newCluster();
    const out = iptablesSaveCommand([], kp.iptables, 0).stdout;
    expect(out).not.toMatch(/KUBE-SERVICES|KUBE-SVC-|KUBE-PROXY-CANARY/);
    expect(out).toMatch(/KUBE-KUBELET-CANARY/);
    expect(out).toMatch(/-A KUBE-FIREWALL /);
  });

  it('routes give every endpoint an equal share, drawn once (numgen), through the nft chains', () => {
    const { kp } = newCluster();
    const routes = kp.routes('10.96.45.12', 80);
    expect(routes.map((r) => [r.endpoint, r.probability, r.pick, r.local])).toEqual([
      ['10.244.1.5:8080', 0.5, { numgen: 2 }, true],
      ['10.244.2.7:8080', 0.5, { numgen: 2 }, false],
    ]);
    expect(routes[0]!.chains).toEqual([
      'nat-prerouting',
      'services',
      'service-ips',
      'service-SUSTUHLJ-default/web/tcp/http',
      routes[0]!.chain,
    ]);
    expect(kp.routes('10.96.45.13', 80)).toEqual([]);
  });

  it('records one program entry per change, and none for a sync that changes nothing', () => {
    const { sim, kp } = newCluster();
    const programs = () => sim.trace.filter((e): e is ProgramEntry => e.kind === 'program');
    expect(programs().map((p) => [p.to, p.what, p.services])).toEqual([
      ['nftables@node-1', 'nft', 3],
    ]);
    kp.syncProxyRules();
    expect(programs()).toHaveLength(1);
  });

  it('nft reports a table it does not have as nft does', () => {
    const { kp } = newCluster();
    expect(nftCommand(['list', 'table', 'ip', 'filter'], kp.nftables)).toEqual({
      stdout: '',
      stderr: 'Error: No such file or directory\nlist table ip filter\n              ^^^^^^\n',
      exitCode: 1,
    });
    expect(nftCommand(['list', 'tables'], kp.nftables).stdout).toBe('table ip kube-proxy\n');
  });
});

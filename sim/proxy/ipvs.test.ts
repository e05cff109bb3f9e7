import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../api/types.ts';
import { Client } from '../client/client.ts';
import { frozenAPIServer, golden } from '../testing.ts';
import { iptablesSaveCommand, ipvsadmCommand } from './commands.ts';
import { KubeProxy } from './proxier.ts';

// ---- builders, in the shapes of pkg/proxy/ipvs/proxier_test.go ----

function newService(name: string, spec: Partial<Service['spec']>): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' } as Service['metadata'],
    spec: { selector: { app: name }, ...spec },
    status: {},
  };
}

function newSlice(service: string, ips: { ip: string; node: string }[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${service}-abcde`,
      namespace: 'default',
      labels: { 'kubernetes.io/service-name': service },
    } as unknown as EndpointSlice['metadata'],
    addressType: 'IPv4',
    ports: [{ name: 'http', protocol: 'TCP', port: 8080 }],
    endpoints: ips.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: e.node,
    })),
  };
}

const http = [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' as const }];

function newCluster() {
  const { sim, api } = frozenAPIServer();
  const kp = new KubeProxy(sim, new Client(api, 'kube-proxy@node-1'), {
    nodeName: 'node-1',
    nodeIP: '10.0.0.11',
    clusterCIDR: '10.244.0.0/16',
    mode: 'ipvs',
  });
  api.create('test', 'services', newService('web', { clusterIP: '10.96.45.12', ports: http }));
  api.create(
    'test',
    'endpointslices',
    newSlice('web', [
      { ip: '10.244.1.5', node: 'node-1' },
      { ip: '10.244.2.7', node: 'node-2' },
      { ip: '10.244.3.9', node: 'node-3' },
    ]),
  );
  api.create('test', 'services', newService('nobody', { clusterIP: '10.96.45.13', ports: http }));
  api.create(
    'test',
    'services',
    newService('np', {
      type: 'NodePort',
      clusterIP: '10.96.45.14',
      ports: [{ ...http[0]!, nodePort: 30080 }],
    }),
  );
  api.create('test', 'endpointslices', newSlice('np', [{ ip: '10.244.2.8', node: 'node-2' }]));
  kp.start();
  sim.runUntil(10);
  return { sim, kp };
}

describe('KubeProxy in IPVS mode', () => {
  it('one rr virtual server per service address and port, weight-1 Masq real servers (golden)', () => {
    const { kp } = newCluster();
    const out = ipvsadmCommand(['-Ln'], kp.ipvs);
    expect(out.exitCode).toBe(0);
    golden(new URL('./testdata/ipvsadm-Ln.txt', import.meta.url), out.stdout);
    // A Service with no endpoints still has its virtual server, with no real servers.
    expect(out.stdout).toContain('TCP  10.96.45.13:80 rr\nTCP  10.96.45.14:80 rr\n');
    // The NodePort is a virtual server on the node's address.
    expect(out.stdout).toContain('TCP  10.0.0.11:30080 rr\n  -> 10.244.2.8:8080');
    expect(kp.ipvs.dummyAddresses).toEqual(['10.96.45.13', '10.96.45.14', '10.96.45.12']);
  });

  it('ipvsadm -Ln -t VIP:PORT lists one virtual server; an unknown one is no such service', () => {
    const { kp } = newCluster();
    expect(ipvsadmCommand(['-Ln', '-t', '10.96.45.14:80'], kp.ipvs).stdout).toBe(
      'IP Virtual Server version 1.2.1 (size=4096)\n' +
        'Prot LocalAddress:Port Scheduler Flags\n' +
        '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n' +
        'TCP  10.96.45.14:80 rr\n' +
        '  -> 10.244.2.8:8080              Masq    1      0          0         \n',
    );
    expect(ipvsadmCommand(['-Ln', '-t', '10.96.45.14:81'], kp.ipvs)).toEqual({
      stdout: '',
      stderr: 'No such service\n',
      exitCode: 1,
    });
  });

  it('round-robin: successive new connections cycle through the real servers in order', () => {
    const { kp } = newCluster();
    const picks: string[] = [];
    for (let i = 0; i < 7; i++) {
      const routes = kp.routes('10.96.45.12', 80);
      const pick = routes[0]!.pick;
      if (!pick || !('rr' in pick)) throw new Error('expected an rr route');
      picks.push(routes[pick.rr.next()]!.endpoint);
    }
    expect(picks).toEqual([
      '10.244.1.5:8080',
      '10.244.2.7:8080',
      '10.244.3.9:8080',
      '10.244.1.5:8080',
      '10.244.2.7:8080',
      '10.244.3.9:8080',
      '10.244.1.5:8080',
    ]);
    expect(kp.routes('10.96.45.13', 80)).toEqual([]);
  });

  it('still writes the nat rules that match its ipsets, and nothing per Service', () => {
    const { kp } = newCluster();
    const out = iptablesSaveCommand(['-t', 'nat'], kp.iptables, 0).stdout;
    expect(out).toContain(
      '-A KUBE-SERVICES ! -s 10.244.0.0/16 -m comment --comment "Kubernetes service cluster ip + port for masquerade purpose" -m set --match-set KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ\n',
    );
    expect(out).toContain(
      '-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT\n',
    );
    expect(out).not.toMatch(/KUBE-SVC-|KUBE-SEP-/);
  });
});

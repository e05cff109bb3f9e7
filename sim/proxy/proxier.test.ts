import { describe, expect, it } from 'vitest';
import { frozenAPIServer, golden } from '../testing.ts';
import type { EndpointSlice, Service } from '../api/types.ts';
import { Client } from '../client/client.ts';
import type { ProgramEntry } from '../engine/trace.ts';
import { iptablesSaveCommand } from './commands.ts';
import { ruleSpec, type Table } from './iptables.ts';
import { servicePortEndpointChainName } from './chains.ts';
import { KubeProxy } from './proxier.ts';

// ---- builders ----

interface EP {
  ip: string;
  node?: string;
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

function newService(name: string, spec: Partial<Service['spec']> = {}): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' } as Service['metadata'],
    spec: {
      clusterIP: '10.96.45.12',
      selector: { app: name },
      ports: [{ name: 'http', port: 80, targetPort: 8080 }],
      ...spec,
    },
    status: {},
  };
}

function newSlice(service: string, eps: EP[], port = 8080, portName = 'http'): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${service}-x7k2p`,
      namespace: 'default',
      labels: {
        'kubernetes.io/service-name': service,
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
    } as unknown as EndpointSlice['metadata'],
    addressType: 'IPv4',
    ports: [{ name: portName, protocol: 'TCP', port }],
    endpoints: eps.map((e) => ({
      addresses: [e.ip],
      conditions: {
        ready: e.ready ?? true,
        serving: e.serving ?? e.ready ?? true,
        terminating: e.terminating ?? false,
      },
      nodeName: e.node ?? 'node-1',
    })),
  };
}

const threeEndpoints: EP[] = [
  { ip: '10.244.1.5', node: 'node-1' },
  { ip: '10.244.2.7', node: 'node-2' },
  { ip: '10.244.3.9', node: 'node-3' },
];

function newCluster(seed = 1) {
  const { sim, api: apiserver } = frozenAPIServer({ sim: { seed } });
  const proxy = (node = 'node-1', nodeIP = '10.0.0.11') =>
    new KubeProxy(sim, new Client(apiserver, `kube-proxy@${node}`), {
      nodeName: node,
      nodeIP,
      clusterCIDR: '10.244.0.0/16',
    });
  const updateSlice = (s: EndpointSlice) => {
    const cur = apiserver.get<EndpointSlice>('test', 'endpointslices', 'default', s.metadata.name);
    apiserver.update('test', 'endpointslices', {
      ...s,
      metadata: { ...s.metadata, resourceVersion: cur.metadata.resourceVersion },
    });
  };
  const programs = () => sim.trace.filter((e): e is ProgramEntry => e.kind === 'program');
  return { sim, apiserver, proxy, updateSlice, programs };
}

function rules(t: Table, chain: string): string[] {
  return (t.chain(chain)?.rules ?? []).map((r) => `-A ${chain} ${ruleSpec(r)}`);
}

// ---- syncProxyRules ----

describe('KubeProxy syncProxyRules', () => {
  it('spreads a service over 3 endpoints: 1/3, then 1/2, then the last rule without statistic', () => {
    const { sim, apiserver, proxy } = newCluster();
    apiserver.create('test', 'services', newService('web'));
    apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints));
    const kp = proxy();
    kp.start();
    sim.runUntil(10);
    const nat = kp.iptables.table('nat')!;
    const svc = nat.chain('KUBE-SVC-CDGGSHYLG3RE2FKL')!.rules;
    const stats = svc.map((r) => r.matches.find((m) => m.module === 'statistic'));
    expect(stats.map((m) => (m?.module === 'statistic' ? m.probability : null))).toEqual([
      null,
      '0.3333333333',
      '0.5000000000',
      null,
    ]);
    expect(svc.slice(1).map((r) => r.jump)).toEqual(
      kp.routes('10.96.45.12', 80).map((r) => r.chain),
    );
    expect(kp.routes('10.96.45.12', 80)).toEqual([
      {
        endpoint: '10.244.1.5:8080',
        chain: 'KUBE-SEP-AFGSLHOD2HFNCBX4',
        ruleProbability: '0.3333333333',
        probability: 1 / 3,
        local: true,
      },
      {
        endpoint: '10.244.2.7:8080',
        chain: expect.stringMatching(/^KUBE-SEP-/),
        ruleProbability: '0.5000000000',
        probability: 1 / 3,
        local: false,
      },
      {
        endpoint: '10.244.3.9:8080',
        chain: expect.stringMatching(/^KUBE-SEP-/),
        ruleProbability: null,
        probability: 1 / 3,
        local: false,
      },
    ]);
    expect(kp.routes('10.96.45.12', 81)).toEqual([]);
  });

  it('prints `iptables-save -t nat` exactly as the golden file', () => {
    const { sim, apiserver, proxy } = newCluster();
    apiserver.create('test', 'services', newService('web'));
    apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints));
    const kp = proxy();
    kp.start();
    sim.runUntil(2_000);
    const res = iptablesSaveCommand(['-t', 'nat'], kp.iptables, sim.now());
    expect(res.exitCode).toBe(0);
    expect(res.stderr).toBe('');
    golden(new URL('./testdata/iptables-save-nat.txt', import.meta.url), res.stdout);
  });

  it('syncs at startup, promptly on the first change, then at most once per min sync period', () => {
    const { sim, apiserver, proxy, updateSlice, programs } = newCluster();
    const kp = proxy();
    kp.start();
    // The initial sync installs the static chains, even with no Services.
    expect(programs()).toHaveLength(1);
    expect(programs()[0]).toMatchObject({
      t: 0,
      from: 'kube-proxy@node-1',
      to: 'iptables@node-1',
      what: 'iptables-restore',
      services: 0,
      endpoints: 0,
    });
    const nat = kp.iptables.table('nat')!;
    expect(rules(nat, 'PREROUTING')).toEqual([
      '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    ]);

    sim.runUntil(100);
    apiserver.create('test', 'services', newService('web'));
    apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints));
    sim.runUntil(110);
    // First change: synced as soon as the watch event arrived (watch latency 2ms).
    expect(programs()).toHaveLength(2);
    expect(programs()[1]).toMatchObject({ t: 0.102, services: 1, endpoints: 3 });
    expect(nat.chain('KUBE-SVC-CDGGSHYLG3RE2FKL')!.rules).toHaveLength(4);

    // Further changes wait for iptablesMinSyncPeriod (1s) after that sync, and are coalesced.
    sim.runUntil(300);
    updateSlice(newSlice('web', threeEndpoints.slice(0, 2)));
    sim.runUntil(500);
    updateSlice(
      newSlice('web', [...threeEndpoints.slice(0, 2), { ip: '10.244.4.2', node: 'node-4' }]),
    );
    sim.runUntil(1_101);
    expect(programs()).toHaveLength(2);
    expect(kp.routes('10.96.45.12', 80)).toHaveLength(3);
    expect(kp.routes('10.96.45.12', 80)[2].endpoint).toBe('10.244.3.9:8080');
    sim.runUntil(1_102);
    expect(programs()).toHaveLength(3);
    expect(programs()[2]).toMatchObject({ t: 1.102, endpoints: 3 });
    expect(kp.routes('10.96.45.12', 80).map((r) => r.endpoint)).toEqual([
      '10.244.1.5:8080',
      '10.244.2.7:8080',
      '10.244.4.2:8080',
    ]);
    // The old endpoint's chain is deleted, the new one created.
    const sep = [...nat.chains.keys()].filter((c) => c.startsWith('KUBE-SEP-'));
    expect(sep).toHaveLength(3);
    expect(sep).not.toContain(
      servicePortEndpointChainName('default/web:http', 'tcp', '10.244.3.9:8080'),
    );
    expect(kp.syncs).toBe(3);
  });

  it('rejects in the filter table and removes the nat chains when no endpoint is ready', () => {
    const { sim, apiserver, proxy, updateSlice, programs } = newCluster();
    apiserver.create('test', 'services', newService('web'));
    apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints));
    const kp = proxy();
    kp.start();
    updateSlice(
      newSlice(
        'web',
        threeEndpoints.map((e) => ({ ...e, ready: false })),
      ),
    );
    sim.runUntil(50);
    expect(programs()).toHaveLength(2);
    const nat = kp.iptables.table('nat')!;
    const filter = kp.iptables.table('filter')!;
    expect(
      [...nat.chains.keys()].filter((c) => c.startsWith('KUBE-SVC-') || c.startsWith('KUBE-SEP-')),
    ).toEqual([]);
    expect(rules(nat, 'KUBE-SERVICES')).toEqual([
      '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
    ]);
    expect(rules(filter, 'KUBE-SERVICES')).toEqual([
      '-A KUBE-SERVICES -d 10.96.45.12/32 -p tcp -m comment --comment "default/web:http has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable',
    ]);
    expect(kp.routes('10.96.45.12', 80)).toEqual([]);
    const out = iptablesSaveCommand(['-t', 'filter'], kp.iptables, sim.now()).stdout;
    expect(out).toContain('has no endpoints');
    expect(iptablesSaveCommand(['-t', 'nat'], kp.iptables, sim.now()).stdout).not.toContain(
      'has no endpoints',
    );
  });

  it('falls back to serving terminating endpoints when none is ready (ProxyTerminatingEndpoints)', () => {
    const { sim, apiserver, proxy } = newCluster();
    apiserver.create('test', 'services', newService('web'));
    apiserver.create(
      'test',
      'endpointslices',
      newSlice('web', [
        { ip: '10.244.1.5', ready: false, serving: true, terminating: true },
        { ip: '10.244.2.7', ready: false, serving: false, terminating: true },
      ]),
    );
    const kp = proxy();
    kp.start();
    expect(kp.routes('10.96.45.12', 80).map((r) => r.endpoint)).toEqual(['10.244.1.5:8080']);
    // The not-serving endpoint gets no chain at all.
    expect(
      [...kp.iptables.table('nat')!.chains.keys()].filter((c) => c.startsWith('KUBE-SEP-')),
    ).toHaveLength(1);
    sim.runUntil(10);
  });

  it('does not sync for changes kube-proxy does not read, and never twice for the same rules', () => {
    const { sim, apiserver, proxy, programs } = newCluster();
    apiserver.create('test', 'services', newService('web'));
    apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints));
    const kp = proxy();
    kp.start();
    apiserver.patch('test', 'services', 'default', 'web', { metadata: { labels: { team: 'a' } } });
    apiserver.patch('test', 'endpointslices', 'default', 'web-x7k2p', {
      metadata: { annotations: { note: 'x' } },
    });
    sim.runUntil(5_000);
    expect(kp.syncs).toBe(1);
    // A relevant change that is undone before the sync runs leaves the rules as they were.
    apiserver.patch('test', 'services', 'default', 'web', {
      spec: { sessionAffinity: 'ClientIP' },
    });
    sim.runUntil(5_001);
    apiserver.patch('test', 'services', 'default', 'web', { spec: { sessionAffinity: 'None' } });
    sim.runUntil(5_010);
    expect(kp.syncs).toBe(2);
    sim.runUntil(7_000);
    expect(kp.syncs).toBe(3);
    expect(programs()).toHaveLength(3);
    // Two objects kube-proxy ignores: a headless Service and a slice that names no Service.
    apiserver.create('test', 'services', newService('headless', { clusterIP: 'None' }));
    apiserver.create('test', 'endpointslices', {
      ...newSlice('orphan', threeEndpoints),
      metadata: { name: 'orphan', namespace: 'default' } as EndpointSlice['metadata'],
    });
    sim.runUntil(9_000);
    expect(kp.syncs).toBe(3);
  });

  it('leaves the rules in the kernel when stopped, and restores them after a flush', () => {
    const { sim, apiserver, proxy, programs } = newCluster();
    apiserver.create('test', 'services', newService('web'));
    apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints));
    const kp = proxy();
    kp.start();
    const before = iptablesSaveCommand([], kp.iptables, 0).stdout;
    kp.stop();
    apiserver.delete('test', 'services', 'default', 'web');
    sim.runUntil(3_000);
    expect(iptablesSaveCommand([], kp.iptables, 0).stdout).toBe(before);
    kp.start();
    expect(kp.iptables.table('nat')!.chain('KUBE-SVC-CDGGSHYLG3RE2FKL')).toBeUndefined();
    expect(programs()).toHaveLength(2);
    apiserver.create('test', 'services', newService('web'));
    sim.runUntil(4_000);
    expect(iptablesSaveCommand([], kp.iptables, 0).stdout).toBe(before);
    expect(programs()).toHaveLength(3);

    // iptables -F; iptables -X at 10s: kube-proxy's monitor notices at its next poll, 30s
    // after the restart at 3s, and writes everything back (kubelet's canary is kubelet's job).
    sim.runUntil(10_000);
    kp.iptables.flushAll();
    sim.runUntil(32_999);
    expect(iptablesSaveCommand(['-t', 'nat'], kp.iptables, 0).stdout).not.toContain(
      'KUBE-SERVICES',
    );
    sim.runUntil(33_000);
    expect(programs()).toHaveLength(4);
    expect(programs()[3].t).toBe(33);
    const withoutKubelet = (s: string) =>
      s
        .split('\n')
        .filter((l) => !l.includes('KUBE-KUBELET-CANARY') && !l.includes('KUBE-FIREWALL'))
        .join('\n');
    expect(withoutKubelet(iptablesSaveCommand([], kp.iptables, 0).stdout)).toBe(
      withoutKubelet(before),
    );
    expect(iptablesSaveCommand(['-t', 'filter'], kp.iptables, 0).stdout).toContain(
      '-A INPUT -j KUBE-FIREWALL\n',
    );
  });

  it('writes NodePort, session affinity and Local traffic policy rules', () => {
    const { sim, apiserver, proxy } = newCluster();
    apiserver.create(
      'test',
      'services',
      newService('web', {
        type: 'NodePort',
        sessionAffinity: 'ClientIP',
        externalTrafficPolicy: 'Local',
        ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080 }],
      }),
    );
    apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints.slice(0, 2)));
    const kp1 = proxy('node-1');
    const kp3 = proxy('node-3', '10.0.0.13');
    kp1.start();
    kp3.start();
    sim.runUntil(10);
    const nat = kp1.iptables.table('nat')!;
    const svl = 'KUBE-SVL-CDGGSHYLG3RE2FKL';
    const ext = 'KUBE-EXT-CDGGSHYLG3RE2FKL';
    const sep1 = 'KUBE-SEP-AFGSLHOD2HFNCBX4';
    expect(rules(nat, 'KUBE-NODEPORTS')).toEqual([
      `-A KUBE-NODEPORTS -p tcp -m comment --comment "default/web:http" -m tcp --dport 30080 -j ${ext}`,
    ]);
    expect(rules(nat, ext)).toEqual([
      `-A ${ext} -s 10.244.0.0/16 -m comment --comment "pod traffic for default/web:http external destinations" -j KUBE-SVC-CDGGSHYLG3RE2FKL`,
      `-A ${ext} -m comment --comment "masquerade LOCAL traffic for default/web:http external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ`,
      `-A ${ext} -m comment --comment "route LOCAL traffic for default/web:http external destinations" -m addrtype --src-type LOCAL -j KUBE-SVC-CDGGSHYLG3RE2FKL`,
      `-A ${ext} -j ${svl}`,
    ]);
    expect(rules(nat, svl)).toEqual([
      `-A ${svl} -m comment --comment "default/web:http -> 10.244.1.5:8080" -m recent --rcheck --seconds 10800 --reap --name ${sep1} --mask 255.255.255.255 --rsource -j ${sep1}`,
      `-A ${svl} -m comment --comment "default/web:http -> 10.244.1.5:8080" -j ${sep1}`,
    ]);
    expect(rules(nat, sep1)[1]).toBe(
      `-A ${sep1} -p tcp -m comment --comment "default/web:http" -m recent --set --name ${sep1} --mask 255.255.255.255 --rsource -m tcp -j DNAT --to-destination 10.244.1.5:8080`,
    );
    // node-3 has no local endpoint: external traffic is dropped, cluster-IP traffic still works.
    const filter3 = kp3.iptables.table('filter')!;
    expect(rules(filter3, 'KUBE-EXTERNAL-SERVICES')).toEqual([
      '-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "default/web:http has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 30080 -j DROP',
    ]);
    expect(kp3.iptables.table('nat')!.chain(svl)).toBeUndefined();
    expect(kp3.routes('10.96.45.12', 80).map((r) => r.local)).toEqual([false, false]);
  });

  it('sends cluster-IP traffic only to local endpoints with internalTrafficPolicy Local', () => {
    const { sim, apiserver, proxy } = newCluster();
    apiserver.create('test', 'services', newService('web', { internalTrafficPolicy: 'Local' }));
    apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints));
    const kp2 = proxy('node-2', '10.0.0.12');
    const kp9 = proxy('node-9', '10.0.0.19');
    kp2.start();
    kp9.start();
    sim.runUntil(10);
    expect(kp2.routes('10.96.45.12', 80)).toEqual([
      {
        endpoint: '10.244.2.7:8080',
        chain: expect.stringMatching(/^KUBE-SEP-/),
        ruleProbability: null,
        probability: 1,
        local: true,
      },
    ]);
    expect(rules(kp2.iptables.table('nat')!, 'KUBE-SERVICES')[0]).toContain(
      '-j KUBE-SVL-CDGGSHYLG3RE2FKL',
    );
    expect(kp9.routes('10.96.45.12', 80)).toEqual([]);
    expect(rules(kp9.iptables.table('filter')!, 'KUBE-SERVICES')).toEqual([
      '-A KUBE-SERVICES -d 10.96.45.12/32 -p tcp -m comment --comment "default/web:http has no local endpoints" -m tcp --dport 80 -j DROP',
    ]);
  });

  it('waits for the caches when kube-apiserver is unreachable at start', () => {
    const { sim, apiserver, proxy, programs } = newCluster();
    apiserver.create('test', 'services', newService('web'));
    apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints));
    apiserver.unreachable.add('node-1');
    const kp = proxy();
    kp.start();
    expect(kp.hasSynced).toBe(false);
    sim.runUntil(1_000);
    expect(programs()).toHaveLength(0);
    apiserver.unreachable.delete('node-1');
    sim.runUntil(10_000);
    expect(kp.hasSynced).toBe(true);
    expect(programs()).toHaveLength(1);
    expect(kp.routes('10.96.45.12', 80)).toHaveLength(3);
    kp.stop();
  });

  it('is deterministic: the same run gives the same trace', () => {
    const run = () => {
      const { sim, apiserver, proxy, updateSlice } = newCluster(7);
      apiserver.create('test', 'services', newService('web', { clusterIP: undefined }));
      apiserver.create('test', 'endpointslices', newSlice('web', threeEndpoints));
      const kps = ['node-1', 'node-2'].map((n) => proxy(n));
      for (const kp of kps) kp.start();
      sim.runUntil(200);
      updateSlice(newSlice('web', threeEndpoints.slice(1)));
      sim.runUntil(5_000);
      return JSON.stringify(sim.trace) + iptablesSaveCommand([], kps[1].iptables, sim.now()).stdout;
    };
    expect(run()).toBe(run());
  });
});

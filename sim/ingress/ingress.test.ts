import { describe, expect, it } from 'vitest';
import type { Gateway, GatewayClass, HTTPRoute, Ingress, Service } from '../api/types.ts';
import type { PacketEntry } from '../engine/trace.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';
import { golden } from '../testing.ts';

/** backend is an agnhost netexec Deployment and its Service, both named name. */
const backend = (name: string) => `      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: ${name}
      spec:
        replicas: 2
        selector:
          matchLabels: {app: ${name}}
        template:
          metadata:
            labels: {app: ${name}}
          spec:
            containers:
              - name: netexec
                image: registry.k8s.io/e2e-test-images/agnhost:2.53
                args: [netexec, --http-port=8080]
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: ${name}
      spec:
        selector: {app: ${name}}
        ports:
          - name: http
            port: 80
            targetPort: 8080
      ---
`;

/** SCENARIO: shop and blog behind an Ingress and behind a Gateway's HTTPRoutes, and a curl client. */
const SCENARIO = `name: ingress-and-gateway
seed: 5
cluster:
  ingress: nginx
  gateway: true
steps:
  - at: 0s
    apply: |
${backend('shop')}${backend('blog')}      apiVersion: v1
      kind: Pod
      metadata:
        name: client
      spec:
        containers:
          - name: curl
            image: curlimages/curl:8.17.0
            command: [sleep, "3600"]
  - at: 20s
    apply: |
      apiVersion: networking.k8s.io/v1
      kind: Ingress
      metadata:
        name: sites
      spec:
        ingressClassName: nginx
        rules:
          - host: shop.example
            http:
              paths:
                - path: /hostname
                  pathType: Prefix
                  backend:
                    service:
                      name: shop
                      port:
                        number: 80
          - host: blog.example
            http:
              paths:
                - path: /
                  pathType: Prefix
                  backend:
                    service:
                      name: blog
                      port:
                        name: http
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata:
        name: web
      spec:
        gatewayClassName: nginx
        listeners:
          - name: http
            protocol: HTTP
            port: 80
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata:
        name: shop
      spec:
        parentRefs:
          - name: web
        hostnames: [shop.example]
        rules:
          - matches:
              - path: {type: PathPrefix, value: /hostname}
            backendRefs:
              - name: shop
                port: 80
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata:
        name: blog
      spec:
        parentRefs:
          - name: web
        hostnames: [blog.example]
        rules:
          - matches:
              - path: {type: Exact, value: /hostname}
            backendRefs:
              - name: blog
                port: 80
                weight: 1
              - name: missing
                port: 80
                weight: 0
until: 3m
`;

function run(until = 90_000): ScenarioRun {
  const r = new ScenarioRun(parseScenario(SCENARIO, 'ingress-and-gateway.yaml'));
  r.runUntil(until);
  expect(r.stepProblems).toEqual([]);
  return r;
}

const ip = (r: ScenarioRun, ns: string, name: string) =>
  r.cluster.apiserver
    .peekAll<Service>('services')
    .find((s) => s.metadata.namespace === ns && s.metadata.name === name)!.spec.clusterIP!;

const curl = (r: ScenarioRun, host: string, url: string) =>
  r.cluster.kubectl(`exec client -- curl -s -H 'Host: ${host}' ${url}`);

describe('an Ingress served by ingress-nginx', () => {
  it('routes by host and path to the backends’ Pods, and answers 404 otherwise', () => {
    const r = run();
    const addr = ip(r, 'ingress-nginx', 'ingress-nginx-controller');
    const shop = curl(r, 'shop.example', `http://${addr}/hostname`);
    expect(shop.exitCode).toBe(0);
    expect(shop.stdout).toMatch(/^shop-[a-z0-9]+-[a-z0-9]{5}$/);
    expect(curl(r, 'blog.example', `http://${addr}/hostname`).stdout).toMatch(/^blog-/);
    // The shop host has no location for /cart, and no defaultBackend: the controller's 404.
    const miss = r.cluster.kubectl(
      `exec client -- curl -s -o /dev/null -w '%{http_code}' -H 'Host: shop.example' http://${addr}/cart`,
    );
    expect(miss.stdout).toBe('404');
    expect(curl(r, 'other.example', `http://${addr}/`).stdout).toContain(
      '<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>',
    );
  });

  it('forwards to a Pod endpoint, not the ClusterIP, from the controller Pod', () => {
    const r = run();
    const addr = ip(r, 'ingress-nginx', 'ingress-nginx-controller');
    const before = r.cluster.sim.trace.length;
    curl(r, 'shop.example', `http://${addr}/hostname`);
    const packets = r.cluster.sim.trace
      .slice(before)
      .filter((e): e is PacketEntry => e.kind === 'packet');
    expect(packets).toHaveLength(2);
    expect(packets[0]!.from).toBe('default/client');
    expect(packets[0]!.to).toMatch(/^ingress-nginx\/ingress-nginx-controller-/);
    expect(packets[1]!.from).toBe(packets[0]!.to);
    expect(packets[1]!.to).toMatch(/^default\/shop-/);
    expect(packets[1]!.dst).toMatch(/^10\.244\.\d+\.\d+:8080$/);
    expect(packets[1]!.chains).toEqual([]);
  });

  it('spreads requests round-robin over the upstream’s endpoints', () => {
    const r = run();
    const addr = ip(r, 'ingress-nginx', 'ingress-nginx-controller');
    const names = Array.from(
      { length: 4 },
      () => curl(r, 'shop.example', `http://${addr}/hostname`).stdout,
    );
    expect(new Set(names).size).toBe(2);
    expect(names[0]).toBe(names[2]);
    expect(names[1]).toBe(names[3]);
  });

  it('publishes its Service address in status.loadBalancer within the status sync period', () => {
    const r = run(25_000);
    const ing = () => r.cluster.apiserver.peekAll<Ingress>('ingresses')[0]!;
    expect(ing().status?.loadBalancer?.ingress).toBeUndefined();
    r.runUntil(90_000);
    const addr = ip(r, 'ingress-nginx', 'ingress-nginx-controller');
    expect(ing().status?.loadBalancer?.ingress).toEqual([{ ip: addr }]);
    const out = r.cluster.kubectl('get ingress').stdout.split('\n');
    expect(out[0]).toMatch(/^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE$/);
    expect(out[1]!.split(/\s+/)).toEqual([
      'sites',
      'nginx',
      'shop.example,blog.example',
      addr,
      '80',
      '70s',
    ]);
    expect(r.cluster.kubectl('get ingressclass').stdout).toBe(
      'NAME    CONTROLLER             PARAMETERS   AGE\nnginx   k8s.io/ingress-nginx   <none>       2m30s\n',
    );
    const d = r.cluster.kubectl('describe ingress sites').stdout;
    expect(d).toContain(`Address:          ${addr}\n`);
    expect(d).toMatch(
      /shop\.example\s*\n\s+\/hostname\s+shop:80 \(10\.244\.\d+\.\d+:8080,10\.244\.\d+\.\d+:8080\)/,
    );
    expect(d).toMatch(/Normal\s+Sync\s+\S+\s+nginx-ingress-controller\s+Scheduled for sync/);
  });
});

describe('Gateway and HTTPRoutes served by the Gateway API implementation', () => {
  it('routes by hostname and path, and 404s what no route matches', () => {
    const r = run();
    const addr = ip(r, 'nginx-gateway', 'nginx-gateway');
    expect(curl(r, 'shop.example', `http://${addr}/hostname`).stdout).toMatch(/^shop-/);
    // PathPrefix /hostname takes /hostname/x to shop, whose agnhost has no such page (Go's 404).
    expect(curl(r, 'shop.example', `http://${addr}/hostname/x`).stdout).toBe(
      '404 page not found\n',
    );
    expect(curl(r, 'blog.example', `http://${addr}/hostname`).stdout).toMatch(/^blog-/);
    const code = (host: string, path: string) =>
      r.cluster.kubectl(
        `exec client -- curl -s -o /dev/null -w '%{http_code}' -H 'Host: ${host}' http://${addr}${path}`,
      ).stdout;
    expect(code('blog.example', '/hostname/x')).toBe('404');
    expect(code('other.example', '/hostname')).toBe('404');
  });

  it('writes the conditions upstream defines, with observedGeneration', () => {
    const r = run();
    const gc = r.cluster.apiserver.peekAll<GatewayClass>('gatewayclasses')[0]!;
    expect(
      gc.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.observedGeneration]),
    ).toEqual([['Accepted', 'True', 'Accepted', 1]]);
    const gw = r.cluster.apiserver.peekAll<Gateway>('gateways')[0]!;
    const addr = ip(r, 'nginx-gateway', 'nginx-gateway');
    expect(gw.status?.addresses).toEqual([{ type: 'IPAddress', value: addr }]);
    expect(gw.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['Accepted', 'True', 'Accepted'],
      ['Programmed', 'True', 'Programmed'],
    ]);
    expect(gw.status?.listeners?.[0]?.attachedRoutes).toBe(2);
    const routes = r.cluster.apiserver.peekAll<HTTPRoute>('httproutes');
    for (const route of routes) {
      const p = route.status!.parents[0]!;
      expect(p.controllerName).toBe('gateway.nginx.org/nginx-gateway-controller');
      expect(p.conditions.map((c) => [c.type, c.reason, c.observedGeneration])).toEqual([
        ['Accepted', 'Accepted', 1],
        ['ResolvedRefs', route.metadata.name === 'blog' ? 'BackendNotFound' : 'ResolvedRefs', 1],
      ]);
    }
    expect(r.cluster.kubectl('get gateway').stdout).toBe(
      `NAME   CLASS   ADDRESS        PROGRAMMED   AGE\nweb    nginx   ${addr}   True         70s\n`.replace(
        /ADDRESS {8}/,
        'ADDRESS' + ' '.repeat(Math.max(addr.length - 7, 0) + 3),
      ),
    );
    expect(r.cluster.kubectl('get httproute').stdout).toBe(
      'NAME   HOSTNAMES          AGE\nblog   ["blog.example"]   70s\nshop   ["shop.example"]   70s\n',
    );
    expect(r.cluster.kubectl('get gatewayclass').stdout).toBe(
      'NAME    CONTROLLER                                   ACCEPTED   AGE\nnginx   gateway.nginx.org/nginx-gateway-controller   True       2m30s\n',
    );
  });

  it('marks a route whose hostnames no listener serves as not accepted', () => {
    const r = run();
    const out = r.cluster.kubectl(
      'apply -f -',
      `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: narrow
spec:
  gatewayClassName: nginx
  listeners:
    - name: http
      protocol: HTTP
      port: 8080
      hostname: api.example
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: elsewhere
spec:
  parentRefs:
    - name: narrow
  hostnames: [shop.example]
  rules:
    - backendRefs:
        - name: shop
          port: 80
`,
    );
    expect(out.exitCode).toBe(0);
    r.runUntil(95_000);
    const route = r.cluster.apiserver
      .peekAll<HTTPRoute>('httproutes')
      .find((x) => x.metadata.name === 'elsewhere')!;
    expect(route.status?.parents[0]?.conditions[0]).toMatchObject({
      type: 'Accepted',
      status: 'False',
      reason: 'NoMatchingListenerHostname',
    });
  });
});

describe('kubectl get and describe', () => {
  it('print the tables and describers kubectl v1.34 prints for the five kinds', () => {
    const r = run();
    const out = [
      'get ingress -o wide',
      'get ingressclass',
      'describe ingress sites',
      'describe ingressclass nginx',
      'get gatewayclass -o wide',
      'get gateway',
      'get httproute',
      'describe httproute blog',
    ]
      .map((c) => `$ kubectl ${c}\n${r.cluster.kubectl(c).stdout}`)
      .join('\n');
    golden(new URL('../kubectl/testdata/ingress-and-gateway.txt', import.meta.url), out);
  });
});

describe('determinism', () => {
  it('gives the same trace for the same scenario and seed', () => {
    const trace = () => {
      const r = run();
      const addr = ip(r, 'nginx-gateway', 'nginx-gateway');
      curl(r, 'shop.example', `http://${addr}/hostname`);
      return JSON.stringify(r.cluster.sim.trace);
    };
    expect(trace()).toBe(trace());
  });
});

describe('the default cluster', () => {
  it('has no ingress controller, no gateway and no IngressClass', () => {
    const r = new ScenarioRun(parseScenario('name: plain\nseed: 1\nuntil: 1s\n', 'plain.yaml'));
    r.runUntil(1_000);
    expect(r.cluster.proxies).toEqual([]);
    expect(r.cluster.apiserver.peekAll('ingressclasses')).toEqual([]);
    expect(r.cluster.apiserver.peekAll('gatewayclasses')).toEqual([]);
  });
});

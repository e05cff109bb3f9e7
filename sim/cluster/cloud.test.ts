// cloud-controller-manager with the fake cloud (`cluster.cloud: fake`) in a whole cluster: a
// LoadBalancer Service is <pending> until its load balancer is provisioned, then shows its
// address; without a cloud it stays <pending>, as on a kubeadm cluster on bare metal.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, Service } from '../api/types.ts';
import { parseScenario, ScenarioError } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';

const steps = `steps:
  - at: 1s
    apply: |
      apiVersion: v1
      kind: Service
      metadata:
        name: web
      spec:
        type: LoadBalancer
        selector:
          app: web
        ports:
          - port: 80
            nodePort: 30080
  - at: 2s
    kubectl: get svc web
  - at: 10s
    kubectl: get svc web
  - at: 10s
    kubectl: describe svc web
  - at: 10m
    kubectl: get svc web
until: 10m
`;

function run(cloud: string | undefined): ScenarioRun {
  const yaml = `name: cloud-test\nseed: 3\n${cloud ? `cluster:\n  cloud: ${cloud}\n` : ''}${steps}`;
  return new ScenarioRun(parseScenario(yaml, 'cloud-test.yaml'), { freeze: true }).run();
}

// kubectlOut are the outputs of the kubectl steps (the apply's is left out).
const kubectlOut = (r: ScenarioRun) =>
  r.outputs.filter((o) => o.command.startsWith('kubectl ') && o.command !== 'kubectl apply -f -');

describe('cluster.cloud: fake', () => {
  it('shows EXTERNAL-IP <pending>, then the load balancer address, in kubectl get svc', () => {
    const r = run('fake');
    const [at2, at10, describe, at600] = kubectlOut(r);
    expect(at2.stdout).toMatch(/^web +LoadBalancer +10\.96\.\S+ +<pending> +80:30080\/TCP +1s\n$/m);
    expect(at10.stdout).toMatch(
      /^web +LoadBalancer +10\.96\.\S+ +203\.0\.113\.10 +80:30080\/TCP +9s\n$/m,
    );
    expect(at600.stdout).toContain(' 203.0.113.10 ');
    expect(describe.stdout).toContain('LoadBalancer Ingress:     203.0.113.10 (VIP)\n');
    // kube-proxy programs the address once it is in the status (no endpoints: a REJECT).
    expect(r.cluster.exec('node-1', 'sudo iptables-save -t filter').stdout).toContain(
      '-A KUBE-EXTERNAL-SERVICES -d 203.0.113.10/32 -p tcp -m comment --comment "default/web has no endpoints"',
    );
    expect(describe.stdout).toMatch(
      /Normal {2}EnsuringLoadBalancer {2}9s {4}service-controller {2}Ensuring load balancer\n/,
    );
    expect(describe.stdout).toMatch(
      /Normal {2}EnsuredLoadBalancer {3}\ds {4}service-controller {2}Ensured load balancer\n/,
    );
  });

  it('runs cloud-controller-manager in kube-system, which initializes every node', () => {
    const r = run('fake');
    const api = r.cluster.apiserver;
    const ccm = api
      .peekAll<Pod>('pods')
      .find((p) => p.metadata.name === 'cloud-controller-manager-control-plane');
    expect(ccm?.metadata.namespace).toBe('kube-system');
    expect(ccm?.status.phase).toBe('Running');
    for (const n of api.peekAll<Node>('nodes')) {
      expect(n.spec.providerID).toBe(`fake://${n.metadata.name}`);
      expect(n.spec.taints?.some((t) => t.key.startsWith('node.cloudprovider'))).toBeFalsy();
      expect(n.status.addresses?.map((a) => a.type)).toEqual([
        'InternalIP',
        'ExternalIP',
        'Hostname',
      ]);
    }
    const wide = r.cluster.kubectl('get nodes -o wide').stdout;
    expect(wide).toMatch(/^node-1 .* 10\.0\.0\.11 +198\.51\.100\.11 /m);
    const described = r.cluster.kubectl('describe node node-1').stdout;
    expect(described).toMatch(/^PodCIDRs: +10\.244\.1\.0\/24\nProviderID: +fake:\/\/node-1\n/m);
    expect(described).toMatch(/^Taints: +<none>\n/m);
    expect(described).toMatch(
      /Normal +Synced +\S+ +cloud-node-controller +Node synced successfully/,
    );
  });
});

describe('determinism with a cloud', () => {
  it('gives byte-identical results for the same seed', () => {
    const a = JSON.stringify(run('fake').result());
    const b = JSON.stringify(run('fake').result());
    expect(a).toBe(b);
    expect(a).toContain('203.0.113.10');
  });
});

describe('no cloud (the default)', () => {
  it('leaves a LoadBalancer Service <pending> for the hour it runs, with no finalizer and no events', () => {
    const r = run(undefined);
    const [at2, at10, describe, at600] = kubectlOut(r);
    for (const o of [at2, at10, at600]) expect(o.stdout).toContain(' <pending> ');
    r.runUntil(3_600_000);
    expect(r.cluster.kubectl('get svc web').stdout).toMatch(/ <pending> +80:30080\/TCP +59m\n/);
    expect(describe.stdout).not.toContain('LoadBalancer Ingress');
    expect(describe.stdout).toContain('Events:                   <none>');
    const svc = r.cluster.apiserver
      .peekAll<Service>('services')
      .find((s) => s.metadata.name === 'web');
    expect(svc?.metadata.finalizers).toBeUndefined();
    expect(
      r.cluster.apiserver.peekAll<Pod>('pods').some((p) => p.metadata.name.startsWith('cloud-')),
    ).toBe(false);
  });

  it('rejects another cloud with the field and the values it takes', () => {
    expect(() =>
      parseScenario(
        `name: cloud-test\nseed: 1\ncluster:\n  cloud: aws\n${steps}`,
        'cloud-test.yaml',
      ),
    ).toThrow(ScenarioError);
    try {
      parseScenario(
        `name: cloud-test\nseed: 1\ncluster:\n  cloud: aws\n${steps}`,
        'cloud-test.yaml',
      );
    } catch (e) {
      expect((e as ScenarioError).issues).toEqual([
        'cluster.cloud (line 4, column 10): found "aws", expected one of none, fake',
      ]);
    }
  });
});

// ServiceAccounts across the whole cluster, through kubectl: the default ServiceAccount and
// kube-root-ca.crt in every namespace, the token volume on every Pod, a missing ServiceAccount
// refused, and a Service cluster IP outside the service CIDR refused, in kubectl's words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types.ts';
import { validateScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';

function newRun(): ScenarioRun {
  const run = new ScenarioRun(validateScenario({ name: 'serviceaccounts', seed: 3, until: '5m' }), {
    freeze: true,
  });
  run.runUntil(0);
  return run;
}

const POD =
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.27\n';

describe('ServiceAccounts in a cluster', () => {
  it('gives every namespace, a new one too, its default ServiceAccount and kube-root-ca.crt', () => {
    const run = newRun();
    const c = run.cluster;
    expect(c.kubectl('get sa -A').stdout).toBe(
      [
        'NAMESPACE         NAME         SECRETS   AGE',
        'default           default      0         60s',
        'kube-node-lease   default      0         60s',
        'kube-public       default      0         60s',
        'kube-system       coredns      0         60s',
        'kube-system       default      0         60s',
        'kube-system       kube-proxy   0         60s',
        '',
      ].join('\n'),
    );
    expect(c.kubectl('get cm').stdout).toBe(
      'NAME               DATA   AGE\nkube-root-ca.crt   1      60s\n',
    );
    expect(
      c.kubectl('apply -f -', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n')
        .stdout,
    ).toBe('namespace/team-a created\n');
    run.runUntil(1000);
    expect(c.kubectl('get sa,cm -n team-a --no-headers').stdout).toBe(
      'serviceaccount/default   0     1s\nconfigmap/kube-root-ca.crt   1     1s\n',
    );
    expect(c.kubectl('delete sa default -n team-a').stdout).toBe(
      'serviceaccount "default" deleted from team-a namespace\n',
    );
    run.runUntil(2000);
    expect(c.kubectl('get sa -n team-a -o name').stdout).toBe('serviceaccount/default\n');
  });

  it('adds the kube-api-access volume to a Pod, shown by describe and -o yaml', () => {
    const run = newRun();
    const c = run.cluster;
    expect(c.kubectl('apply -f -', POD).stdout).toBe('pod/web created\n');
    run.runUntil(5000);
    const pod = c.apiserver.peekAll<Pod>('pods').find((p) => p.metadata.name === 'web')!;
    const vol = pod.spec.volumes![0].name;
    expect(vol).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const out = c.kubectl('describe pod web').stdout;
    expect(out).toContain('Priority:         0\nService Account:  default\nNode:');
    expect(out).toContain(
      `    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount from ${vol} (ro)\n`,
    );
    expect(out).toContain(
      `Volumes:\n  ${vol}:\n    Type:                    Projected (a volume that contains injected data from multiple sources)\n    TokenExpirationSeconds:  3607\n    ConfigMapName:           kube-root-ca.crt\n    Optional:                false\n    DownwardAPI:             true\n`,
    );
    const yaml = c.kubectl('get pod web -o yaml').stdout;
    expect(yaml).toContain(
      `    volumeMounts:\n    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount\n      name: ${vol}\n      readOnly: true\n`,
    );
    expect(yaml).toContain('  serviceAccount: default\n  serviceAccountName: default\n');
    expect(yaml).toContain(
      `  volumes:\n  - name: ${vol}\n    projected:\n      defaultMode: 420\n      sources:\n      - serviceAccountToken:\n          expirationSeconds: 3607\n          path: token\n`,
    );
    // Static Pods' mirrors name no ServiceAccount and get no volume.
    expect(c.kubectl('describe pod etcd-control-plane -n kube-system').stdout).not.toContain(
      'Service Account:',
    );
  });

  it('refuses a Pod naming a ServiceAccount that does not exist, as kubectl prints it', () => {
    const run = newRun();
    const r = run.cluster.kubectl(
      'apply -f -',
      POD.replace('spec:\n', 'spec:\n  serviceAccountName: builder\n'),
    );
    expect(r.stderr).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "web" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found\n',
    );
    expect(r.exitCode).toBe(1);
  });

  it('refuses a Service whose clusterIP is outside the service CIDR, or taken', () => {
    const run = newRun();
    const svc = (ip: string) =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  clusterIP: ${ip}\n  ports:\n  - port: 80\n`;
    expect(run.cluster.kubectl('apply -f -', svc('10.200.0.1')).stderr).toBe(
      'The Service "web" is invalid: spec.clusterIPs: Invalid value: []string{"10.200.0.1"}: failed to allocate IP 10.200.0.1: the provided network does not match the current range\n',
    );
    expect(run.cluster.kubectl('apply -f -', svc('10.96.0.10')).stderr).toBe(
      'The Service "web" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated\n',
    );
  });
});

// Static Pods on the control-plane node: kube-apiserver and etcd answer only while the kubelet
// runs them from /etc/kubernetes/manifests, which it re-reads every fileCheckFrequency (20 s).
import { describe, expect, it } from 'vitest';
import { fileCheckFrequency, readStaticPods } from '../kubelet/config-file.ts';
import { NodeFilesystem } from '../node/filesystem.ts';
import { validateScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';

const REFUSED =
  'The connection to the server 10.0.0.10:6443 was refused - did you specify the right host or port?\n';

function newRun(): ScenarioRun {
  const run = new ScenarioRun(validateScenario({ name: 'static-pods', seed: 3, until: '5m' }), {
    freeze: true,
  });
  run.runUntil(0);
  return run;
}

// running lists the Running containers' names on a node (crictl ps).
function running(run: ScenarioRun, node = 'control-plane'): string[] {
  return run.cluster.nodes
    .get(node)!
    .runtime.listContainers()
    .filter((c) => c.state === 'CONTAINER_RUNNING')
    .map((c) => c.metadata.name)
    .sort();
}

describe('the static Pod file source', () => {
  it('reads Pods from every file not starting with a dot and names them after the node', () => {
    const fs = new NodeFilesystem();
    fs.mkdir('/m');
    fs.writeFile(
      '/m/a.yaml',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: kube-system\n',
    );
    fs.writeFile('/m/b.bak', 'kind: Pod\nmetadata:\n  name: b\n');
    fs.writeFile('/m/.c.yaml', 'kind: Pod\nmetadata:\n  name: c\n');
    fs.writeFile('/m/d.yaml', 'kind: Deployment\nmetadata:\n  name: d\n');
    fs.writeFile('/m/e.yaml', ': not yaml: [');
    expect([...readStaticPods(fs, '/m', 'cp')].sort()).toEqual([
      'default/b-cp',
      'kube-system/a-cp',
    ]);
    expect(fileCheckFrequency).toBe(20_000);
  });
});

describe('kube-apiserver as a static Pod', () => {
  it('stops answering within 20 s of its manifest leaving the directory, and answers within 20 s of its return', () => {
    const run = newRun();
    const c = run.cluster;
    expect(c.exec('control-plane', 'ls /etc/kubernetes/manifests').stdout).toBe(
      'etcd.yaml\nkube-apiserver.yaml\nkube-controller-manager.yaml\nkube-scheduler.yaml\n',
    );
    expect(running(run)).toContain('kube-apiserver');
    run.runUntil(25_000);
    expect(
      c.exec('control-plane', 'sudo mv /etc/kubernetes/manifests/kube-apiserver.yaml /tmp/')
        .exitCode,
    ).toBe(0);
    // The kubelet has not read the directory yet: kube-apiserver still answers.
    expect(c.kubectl('get nodes').exitCode).toBe(0);
    run.runUntil(25_000 + fileCheckFrequency + 3_000);
    expect(running(run)).not.toContain('kube-apiserver');
    expect(running(run)).toEqual(
      expect.arrayContaining(['etcd', 'kube-controller-manager', 'kube-scheduler']),
    );
    expect(c.kubectl('get pods')).toEqual({ stdout: '', stderr: REFUSED, exitCode: 1 });
    run.runUntil(60_000);
    expect(
      c.exec('control-plane', 'sudo mv /tmp/kube-apiserver.yaml /etc/kubernetes/manifests/')
        .exitCode,
    ).toBe(0);
    expect(c.kubectl('get pods').stderr).toBe(REFUSED);
    run.runUntil(60_000 + fileCheckFrequency + 3_000);
    expect(running(run)).toContain('kube-apiserver');
    expect(c.kubectl('get nodes').exitCode).toBe(0);
  });

  it('comes back at once when the kubelet restarts, since the kubelet reads the directory when it starts', () => {
    const run = newRun();
    const c = run.cluster;
    c.exec('control-plane', 'mv /etc/kubernetes/manifests/kube-apiserver.yaml /tmp');
    run.runUntil(30_000);
    expect(c.kubectl('get pods').stderr).toBe(REFUSED);
    c.exec('control-plane', 'mv /tmp/kube-apiserver.yaml /etc/kubernetes/manifests');
    expect(c.exec('control-plane', 'sudo systemctl restart kubelet')).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 0,
    });
    run.runUntil(33_000);
    expect(c.kubectl('get nodes').exitCode).toBe(0);
  });

  it('is not stopped by a kubelet stop, nor by deleting its mirror Pod through the API', () => {
    const run = newRun();
    const c = run.cluster;
    expect(c.exec('control-plane', 'systemctl stop kubelet').exitCode).toBe(0);
    expect(c.exec('control-plane', 'systemctl status kubelet').exitCode).toBe(3);
    run.runUntil(30_000);
    expect(c.kubectl('get nodes').exitCode).toBe(0);
    c.exec('control-plane', 'systemctl start kubelet');
    expect(c.kubectl('delete pod -n kube-system kube-apiserver-control-plane').exitCode).toBe(0);
    run.runUntil(90_000);
    expect(running(run)).toContain('kube-apiserver');
    expect(c.kubectl('get nodes').exitCode).toBe(0);
  });
});

describe('etcd as a static Pod', () => {
  it('makes kube-apiserver fail requests while its manifest is away', () => {
    const run = newRun();
    const c = run.cluster;
    c.exec('control-plane', 'mv /etc/kubernetes/manifests/etcd.yaml /root/');
    run.runUntil(fileCheckFrequency + 3_000);
    expect(running(run)).not.toContain('etcd');
    const out = c.kubectl('get pods');
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toMatch(/etcdserver: request timed out/);
    c.exec('control-plane', 'mv /root/etcd.yaml /etc/kubernetes/manifests/');
    run.runUntil(2 * fileCheckFrequency + 3_000);
    expect(c.kubectl('get pods').exitCode).toBe(0);
  });

  it('keeps the apiserver-down and etcd-down faults, which leave the containers running', () => {
    const run = newRun();
    const c = run.cluster;
    c.fault('apiserver-down');
    expect(c.kubectl('get pods').stderr).toBe(REFUSED);
    expect(running(run)).toContain('kube-apiserver');
    c.fault('apiserver-up');
    expect(c.kubectl('get pods').exitCode).toBe(0);
    c.fault('etcd-down');
    expect(c.kubectl('get pods').stderr).toMatch(/etcdserver: request timed out/);
    c.fault('etcd-up');
    expect(c.kubectl('get pods').exitCode).toBe(0);
  });
});

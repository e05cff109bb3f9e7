// The node shell's programs print what GNU coreutils and systemd print, errors included.
import { describe, expect, it } from 'vitest';
import { NodeFilesystem } from './filesystem.ts';
import { runShell, splitWords, systemdTime, timespan, type NodeShellHost } from './shell.ts';

function host(): NodeShellHost & { kubeletUp: boolean } {
  const fs = new NodeFilesystem();
  fs.mkdir('/etc/kubernetes/manifests', 0o755, -60_000);
  fs.mkdir('/tmp', 0o1777, -60_000);
  fs.mkdir('/root', 0o700, -60_000);
  fs.writeFile('/etc/kubernetes/manifests/etcd.yaml', 'kind: Pod\n', 0o600, -60_000);
  fs.writeFile('/etc/kubernetes/manifests/kube-apiserver.yaml', 'apiVersion: v1\nkind: Pod\n', 0o600, -60_000);
  const h = {
    fs,
    kubeletUp: true,
    now: () => 90_000,
    kubelet: {
      active: () => h.kubeletUp,
      since: () => -60_000,
      start: () => void (h.kubeletUp = true),
      stop: () => void (h.kubeletUp = false),
    },
    containerdSince: () => -60_000,
    crictl: (args: string[]) => ({ stdout: `crictl ${args.join(' ')}\n`, stderr: '', exitCode: 0 }),
    iptablesSave: () => ({ stdout: '', stderr: '', exitCode: 0 }),
    nft: (args: string[]) => ({ stdout: `nft ${args.join(' ')}\n`, stderr: '', exitCode: 0 }),
    ipvsadm: (args: string[]) => ({ stdout: `ipvsadm ${args.join(' ')}\n`, stderr: '', exitCode: 0 }),
  };
  return h;
}

describe('ls', () => {
  it('lists a directory one name per line, and a file by the name given', () => {
    const h = host();
    expect(runShell(h, 'ls /etc/kubernetes/manifests')).toEqual({ stdout: 'etcd.yaml\nkube-apiserver.yaml\n', stderr: '', exitCode: 0 });
    expect(runShell(h, 'ls /etc/kubernetes/manifests/etcd.yaml').stdout).toBe('/etc/kubernetes/manifests/etcd.yaml\n');
    expect(runShell(h, 'ls -l /etc/kubernetes/manifests').stdout).toBe(
      'total 8\n-rw------- 1 root root 10 Dec 31 23:59 etcd.yaml\n-rw------- 1 root root 25 Dec 31 23:59 kube-apiserver.yaml\n',
    );
    expect(runShell(h, 'ls -ld /tmp').stdout).toBe('drwxrwxrwt 2 root root 4096 Dec 31 23:59 /tmp\n');
  });
  it('reports a missing path as GNU ls does, after listing the others', () => {
    const h = host();
    expect(runShell(h, 'ls /nope')).toEqual({ stdout: '', stderr: "ls: cannot access '/nope': No such file or directory\n", exitCode: 2 });
    expect(runShell(h, 'ls /nope /tmp')).toEqual({ stdout: '/tmp:\n', stderr: "ls: cannot access '/nope': No such file or directory\n", exitCode: 2 });
    expect(runShell(h, 'ls -z').stderr).toBe("ls: invalid option -- 'z'\nTry 'ls --help' for more information.\n");
  });
});

describe('cat', () => {
  it('prints a file, and names a missing file or a directory', () => {
    const h = host();
    expect(runShell(h, 'cat /etc/kubernetes/manifests/etcd.yaml')).toEqual({ stdout: 'kind: Pod\n', stderr: '', exitCode: 0 });
    expect(runShell(h, 'cat /tmp/x.yaml')).toEqual({ stdout: '', stderr: 'cat: /tmp/x.yaml: No such file or directory\n', exitCode: 1 });
    expect(runShell(h, 'cat /tmp')).toEqual({ stdout: '', stderr: 'cat: /tmp: Is a directory\n', exitCode: 1 });
  });
});

describe('mv', () => {
  it('moves a file into a directory or to a new name', () => {
    const h = host();
    expect(runShell(h, 'sudo mv /etc/kubernetes/manifests/kube-apiserver.yaml /tmp/')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(h.fs.readDir('/etc/kubernetes/manifests')).toEqual(['etcd.yaml']);
    expect(h.fs.readFile('/tmp/kube-apiserver.yaml')).toBe('apiVersion: v1\nkind: Pod\n');
    expect(runShell(h, 'mv -v /tmp/kube-apiserver.yaml /etc/kubernetes/manifests/kube-apiserver.yaml').stdout).toBe(
      "renamed '/tmp/kube-apiserver.yaml' -> '/etc/kubernetes/manifests/kube-apiserver.yaml'\n",
    );
    expect(h.fs.readDir('/tmp')).toEqual([]);
    // Relative paths start in root's home.
    expect(runShell(h, 'mv ../etc/kubernetes/manifests/etcd.yaml .').exitCode).toBe(0);
    expect(h.fs.readDir('/root')).toEqual(['etcd.yaml']);
  });
  it('words its errors as GNU mv does', () => {
    const h = host();
    expect(runShell(h, 'mv /tmp/x.yaml /etc/kubernetes/manifests/')).toEqual({ stdout: '', stderr: "mv: cannot stat '/tmp/x.yaml': No such file or directory\n", exitCode: 1 });
    expect(runShell(h, 'mv')).toEqual({ stdout: '', stderr: "mv: missing file operand\nTry 'mv --help' for more information.\n", exitCode: 1 });
    expect(runShell(h, 'mv /tmp').stderr).toBe("mv: missing destination file operand after '/tmp'\nTry 'mv --help' for more information.\n");
    expect(runShell(h, 'mv /etc/kubernetes/manifests/etcd.yaml /nope/etcd.yaml').stderr).toBe(
      "mv: cannot move '/etc/kubernetes/manifests/etcd.yaml' to '/nope/etcd.yaml': No such file or directory\n",
    );
    expect(runShell(h, 'mv /etc/kubernetes/manifests/etcd.yaml /etc/kubernetes/manifests/').stderr).toBe(
      "mv: '/etc/kubernetes/manifests/etcd.yaml' and '/etc/kubernetes/manifests/etcd.yaml' are the same file\n",
    );
    expect(runShell(h, 'mv /tmp /tmp/sub').stderr).toBe("mv: cannot move '/tmp' to a subdirectory of itself, '/tmp/sub'\n");
    expect(h.fs.readDir('/etc/kubernetes/manifests')).toEqual(['etcd.yaml', 'kube-apiserver.yaml']);
  });
});

describe('systemctl, sudo and unknown programs', () => {
  it('shows, stops and starts the kubelet unit', () => {
    const h = host();
    const st = runShell(h, 'systemctl status kubelet');
    expect(st.exitCode).toBe(0);
    expect(st.stdout).toContain('● kubelet.service - kubelet: The Kubernetes Node Agent\n');
    expect(st.stdout).toContain('     Active: active (running) since Wed 2025-12-31 23:59:00 UTC; 2min 30s ago\n');
    expect(runShell(h, 'sudo systemctl stop kubelet')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(h.kubeletUp).toBe(false);
    const down = runShell(h, 'systemctl status kubelet.service');
    expect(down.exitCode).toBe(3);
    expect(down.stdout).toContain('○ kubelet.service');
    expect(down.stdout).toContain('Active: inactive (dead)');
    runShell(h, 'sudo systemctl restart kubelet');
    expect(h.kubeletUp).toBe(true);
    expect(runShell(h, 'systemctl status nope')).toEqual({ stdout: '', stderr: 'Unit nope.service could not be found.\n', exitCode: 4 });
    expect(runShell(h, 'systemctl start nope')).toEqual({ stdout: '', stderr: 'Failed to start nope.service: Unit nope.service not found.\n', exitCode: 5 });
  });
  it('passes crictl through sudo and keeps bash and sudo wording for unknown programs', () => {
    const h = host();
    expect(runShell(h, 'sudo crictl ps -a').stdout).toBe('crictl ps -a\n');
    expect(runShell(h, 'vim /tmp/x')).toEqual({ stdout: '', stderr: 'bash: vim: command not found\n', exitCode: 127 });
    expect(runShell(h, 'sudo vim /tmp/x')).toEqual({ stdout: '', stderr: 'sudo: vim: command not found\n', exitCode: 1 });
  });
  it('splits quoted words and formats systemd times', () => {
    expect(splitWords(`mv 'a b' "c" d`)).toEqual(['mv', 'a b', 'c', 'd']);
    expect(systemdTime(0)).toBe('Thu 2026-01-01 00:00:00 UTC');
    expect(systemdTime(-60_000)).toBe('Wed 2025-12-31 23:59:00 UTC');
    expect(timespan(150_000)).toBe('2min 30s');
    expect(timespan(3_725_000)).toBe('1h 2min 5s');
  });
});

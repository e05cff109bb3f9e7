// etcdctl on a control-plane node of a three-member cluster, in etcdctl v3.6's formats: member
// list, endpoint status as a table, endpoint health, get --prefix --keys-only, and the errors
// etcdctl prints when the local member cannot reach a quorum.
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';
import { humanizeBytes, table } from './etcdctl.ts';

function cluster(steps = ''): ScenarioRun {
  const yaml = `name: etcdctl-test\nseed: 5\ncluster:\n  controlPlane:\n    count: 3\nsteps:\n${steps || '  - at: 1s\n    kubectl: get nodes\n'}until: 30s\n`;
  return new ScenarioRun(parseScenario(yaml, 'etcdctl-test.yaml'), { freeze: true }).run();
}

describe('etcdctl', () => {
  it('lists the members sorted by ID, as etcdctl member list prints them', () => {
    const r = cluster();
    const out = r.cluster.exec('control-plane-2', 'sudo etcdctl member list');
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const l of lines)
      expect(l).toMatch(
        /^[0-9a-f]{1,16}, started, control-plane-\d, https:\/\/10\.0\.0\.1\d:2380, https:\/\/10\.0\.0\.1\d:2379, false$/,
      );
    // Sorted as numbers (the IDs are uint64s printed without leading zeros).
    const ids = lines.map((l) => l.split(',')[0]);
    expect([...ids].sort((a, b) => (BigInt(`0x${a}`) < BigInt(`0x${b}`) ? -1 : 1))).toEqual(ids);
    expect(ids.every((id) => !id.startsWith('0'))).toBe(true);
  });

  it('prints endpoint status --cluster -w table with v3.6 columns and exactly one leader', () => {
    const r = cluster();
    const out = r.cluster.exec('control-plane-1', 'etcdctl endpoint status --cluster -w table');
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(
      /^\| +ENDPOINT +\| +ID +\| VERSION \| STORAGE VERSION \| DB SIZE \| IN USE \| PERCENTAGE NOT IN USE \| +QUOTA +\| IS LEADER \| IS LEARNER \| RAFT TERM \| RAFT INDEX \| RAFT APPLIED INDEX \| ERRORS \| DOWNGRADE TARGET VERSION \| DOWNGRADE ENABLED \|$/,
    );
    const rows = lines.slice(3, -1);
    expect(rows).toHaveLength(3);
    expect(rows.filter((l) => / \| +true \| +false \| +2 \| /.test(l))).toHaveLength(1);
    expect(rows.every((l) => l.includes(' |   3.6.4 |           3.6.0 | '))).toBe(true);
  });

  it('reports an unhealthy cluster when a member is stopped, and fails without a quorum', () => {
    const r = cluster(
      '  - at: 5s\n    fault: etcd-member-down\n    node: control-plane-3\n  - at: 10s\n    exec: etcdctl endpoint health --cluster\n    node: control-plane-1\n  - at: 15s\n    fault: etcd-member-down\n    node: control-plane-2\n  - at: 20s\n    exec: etcdctl endpoint health --cluster\n    node: control-plane-1\n  - at: 20s\n    exec: etcdctl get /registry/leases --prefix --keys-only\n    node: control-plane-1\n',
    );
    const [health, noQuorum, get] = r.outputs.filter((o) => o.command.startsWith('etcdctl'));
    expect(health.exitCode).toBe(1);
    expect(health.stdout).toMatch(
      /^https:\/\/10\.0\.0\.1[01]:2379 is healthy: successfully committed proposal: took = [\d.]+ms\n/,
    );
    expect(health.stderr).toBe(
      'https://10.0.0.12:2379 is unhealthy: failed to commit proposal: context deadline exceeded\nError: unhealthy cluster\n',
    );
    expect(noQuorum.stderr).toBe(
      'Error: failed to fetch endpoints from etcd cluster member list: context deadline exceeded\n',
    );
    expect(get.stderr).toBe('Error: context deadline exceeded\n');
  });

  it('prints keys each followed by an empty line with --keys-only', () => {
    const r = cluster();
    const out = r.cluster.exec(
      'control-plane-1',
      'etcdctl get /registry/leases/kube-system/kube- --prefix --keys-only',
    );
    expect(out.stdout).toBe(
      '/registry/leases/kube-system/kube-controller-manager\n\n/registry/leases/kube-system/kube-scheduler\n\n',
    );
  });

  it('is not on the workers', () => {
    const r = cluster();
    expect(r.cluster.exec('node-1', 'etcdctl member list').stderr).toBe(
      'bash: etcdctl: command not found\n',
    );
  });

  it('renders tablewriter tables and go-humanize sizes', () => {
    expect(table(['a', 'bb'], [['xyz', '1']])).toBe(
      '+-----+----+\n|  A  | BB |\n+-----+----+\n| xyz |  1 |\n+-----+----+\n',
    );
    expect(humanizeBytes(5)).toBe('5 B');
    expect(humanizeBytes(2 * 1024 ** 3)).toBe('2.1 GB');
    expect(humanizeBytes(344_064)).toBe('344 kB');
  });
});

import { describe, expect, it } from 'vitest';
import { Simulation } from '../engine/simulation.ts';
import { ContainerRuntime } from './container-runtime.ts';
import { crictl, humanDuration, humanSize, tabwrite } from './crictl.ts';
import { imageID } from './images.ts';

describe('humanDuration (go-units)', () => {
  it('matches go-units HumanDuration', () => {
    const s = 1000;
    const m = 60 * s;
    const h = 60 * m;
    const d = 24 * h;
    const cases: [number, string][] = [
      [0, 'Less than a second'],
      [999, 'Less than a second'],
      [1 * s, '1 second'],
      [59 * s, '59 seconds'],
      [60 * s, 'About a minute'],
      [119 * s, 'About a minute'],
      [2 * m, '2 minutes'],
      [59 * m, '59 minutes'],
      [60 * m, 'About an hour'],
      [89 * m, 'About an hour'],
      [90 * m, '2 hours'],
      [47 * h, '47 hours'],
      [48 * h, '2 days'],
      [13 * d, '13 days'],
      [14 * d, '2 weeks'],
      [59 * d, '8 weeks'],
      [60 * d, '2 months'],
      [729 * d, '24 months'],
      [730 * d, '2 years'],
    ];
    for (const [ms, want] of cases) expect(humanDuration(ms), String(ms)).toBe(want);
  });

  it('humanSize prints three significant digits in decimal units', () => {
    expect(humanSize(320_368)).toBe('320kB');
    expect(humanSize(72_195_292)).toBe('72.2MB');
    expect(humanSize(2_156_518)).toBe('2.16MB');
    expect(humanSize(512)).toBe('512B');
  });

  it('tabwrite pads every cell but the last to max(len + 3, 20)', () => {
    expect(
      tabwrite([
        ['A', 'B', 'C'],
        ['a-very-long-cell-here', 'b', 'c'],
      ]),
    ).toBe(
      `${'A'.padEnd(24)}${'B'.padEnd(20)}C\n${'a-very-long-cell-here'.padEnd(24)}${'b'.padEnd(20)}c\n`,
    );
  });
});

describe('crictl', () => {
  function node() {
    const sim = new Simulation({ seed: 5 });
    const rt = new ContainerRuntime(sim, {
      nodeName: 'node-1',
      podCIDR: '10.244.1.0/24',
      preloaded: ['nginx:1.27', 'busybox:1.36'],
    });
    const K = 'kubelet@node-1';
    const ids: { sb: string[]; c: string[] } = { sb: [], c: [] };
    const run = (name: string, image: string, command?: string[]) =>
      rt.runPodSandbox(
        K,
        { name, namespace: 'default', uid: `uid-${name}`, attempt: 0 },
        (_e, sb) => {
          ids.sb.push(sb);
          rt.createContainer(
            K,
            sb,
            { name: name.split('-')[0], attempt: 0, image, command },
            (_e2, id) => {
              ids.c.push(id);
              rt.startContainer(K, id, () => {});
            },
          );
        },
      );
    run('web-1', 'nginx:1.27');
    sim.runUntil(10_000);
    run('job-1', 'busybox:1.36', ['sh', '-c', 'exit 0']);
    sim.runUntil(100_000);
    return { sim, rt, ids };
  }

  it('ps shows running containers, newest first, in crictl’s columns', () => {
    const { sim, rt, ids } = node();
    const out = crictl(rt, ['ps'], sim.now());
    const pad = (s: string) => s.padEnd(20);
    const header =
      ['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD']
        .map(pad)
        .join('') + 'NAMESPACE\n';
    const row =
      [
        ids.c[0].slice(0, 13),
        imageID('nginx:1.27').slice(7, 20),
        'About a minute ago',
        'Running',
        'web',
        '0',
        ids.sb[0].slice(0, 13),
        'web-1',
      ]
        .map((x, i) => (i === 2 ? x.padEnd(21) : pad(x)))
        .join('') + 'default\n';
    expect(out).toEqual({
      stdout: header.replace('CREATED             ', 'CREATED              ') + row,
      stderr: '',
      exitCode: 0,
    });
  });

  it('ps -a includes exited containers; -q prints full IDs', () => {
    const { sim, rt, ids } = node();
    const out = crictl(rt, ['ps', '-a'], sim.now()).stdout.split('\n');
    expect(out).toHaveLength(4);
    expect(out[1]).toContain('Exited');
    expect(out[1].startsWith(ids.c[1].slice(0, 13))).toBe(true);
    expect(crictl(rt, ['ps', '-aq'], sim.now()).stdout).toBe(`${ids.c[1]}\n${ids.c[0]}\n`);
  });

  it('pods shows every sandbox with crictl’s columns', () => {
    const { sim, rt, ids } = node();
    const out = crictl(rt, ['pods'], sim.now()).stdout;
    const pad = (s: string) => s.padEnd(20);
    expect(out).toBe(
      ['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT']
        .map((x, i) => (i === 1 ? x.padEnd(21) : pad(x)))
        .join('') +
        'RUNTIME\n' +
        [ids.sb[1].slice(0, 13), 'About a minute ago', 'Ready', 'job-1', 'default', '0']
          .map((x, i) => (i === 1 ? x.padEnd(21) : pad(x)))
          .join('') +
        '(default)\n' +
        [ids.sb[0].slice(0, 13), 'About a minute ago', 'Ready', 'web-1', 'default', '0']
          .map((x, i) => (i === 1 ? x.padEnd(21) : pad(x)))
          .join('') +
        '(default)\n',
    );
  });

  it('images lists repo, tag, truncated ID and size', () => {
    const { sim, rt } = node();
    const out = crictl(rt, ['images'], sim.now()).stdout.split('\n');
    // The widest repository is docker.io/library/busybox (25 characters + 3 of padding).
    expect(out[0]).toBe(`${'IMAGE'.padEnd(28)}${'TAG'.padEnd(20)}${'IMAGE ID'.padEnd(20)}SIZE`);
    expect(out).toContain(
      `${'docker.io/library/nginx'.padEnd(28)}${'1.27'.padEnd(20)}${imageID('nginx:1.27').slice(7, 20).padEnd(20)}72.2MB`,
    );
  });

  it('reports unknown flags and an unreachable runtime', () => {
    const { sim, rt } = node();
    expect(crictl(rt, ['ps', '--bogus'], sim.now())).toMatchObject({
      exitCode: 1,
      stderr: 'flag provided but not defined: --bogus\n',
    });
    rt.powerOff();
    expect(crictl(rt, ['ps'], sim.now()).exitCode).toBe(1);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Pod } from '../../api/types.ts';
import { restore, snapshot } from '../../scenario/snapshot.ts';
import { newEvent, newEventV1 } from '../testing.ts';
import { getInterval } from './events.ts';

const YAML = parse(
  readFileSync(new URL('../../../content/scenarios/broken-images.yaml', import.meta.url), 'utf8'),
);

describe('kubectl events', () => {
  const run = restore(snapshot(YAML, 2, 120_000, []));
  const api = run.cluster.apiserver
    .peekAll<Pod>('pods')
    .find((p) => p.metadata.name.startsWith('api-'))!;

  it('lists the namespace events oldest first with Kind/name and describe’s Age', () => {
    const out = run.cluster.kubectl('events').stdout;
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
    expect(out).toContain(`Pod/${api.metadata.name}`);
    expect(out).toMatch(/Normal\s+Scheduled\s+Pod\//);
    // A repeated kubelet event shows its count.
    expect(out).toMatch(/\(x\d+ over \d+s\)\s+Normal\s+BackOff\s+Pod\//);
  });

  it('--for TYPE/NAME and --types filter; -A adds NAMESPACE', () => {
    const out = run.cluster.kubectl(`events --for pod/${api.metadata.name} --types=Warning`).stdout;
    const rows = out.trimEnd().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows)
      expect(r).toMatch(new RegExp(`Warning\\s+\\S+\\s+Pod/${api.metadata.name}`));
    expect(run.cluster.kubectl('events -A --no-headers').stdout.split('\n')[0]).toMatch(
      /^(default|kube-system)\s/,
    );
  });

  it('says so when there are none, and refuses a bad --for or --types in kubectl’s words', () => {
    expect(run.cluster.kubectl('events -n kube-node-lease')).toMatchObject({
      stdout: '',
      stderr: 'No events found in kube-node-lease namespace.\n',
      exitCode: 0,
    });
    expect(run.cluster.kubectl('events --for web').stderr).toBe(
      'error: --for must be in resource/name form\n',
    );
    expect(run.cluster.kubectl('events --types=Info').stderr).toBe(
      'error: valid --types are Normal or Warning\n',
    );
  });

  it('getInterval reads a series or a count as describe does', () => {
    const ref = { kind: 'Pod', name: 'p', uid: 'u' };
    expect(
      getInterval(
        newEventV1(
          ref,
          'Warning',
          'FailedScheduling',
          'Scheduling',
          'm',
          'default-scheduler',
          'i',
          100,
          { count: 3, last: 500 },
        ),
        600_000,
      ),
    ).toBe('100s (x3 over 8m20s)');
    expect(
      getInterval(newEvent(ref, 'Warning', 'BackOff', 'm', 'kubelet', 100, 590, 7), 600_000),
    ).toBe('10s (x7 over 8m20s)');
    expect(getInterval(newEvent(ref, 'Normal', 'Pulled', 'm', 'kubelet', 100), 600_000)).toBe(
      '8m20s',
    );
  });
});

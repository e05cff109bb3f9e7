import { describe, expect, it } from 'vitest';
import { ScenarioError, parseScenario } from './loader.ts';

function issues(text: string): string[] {
  try {
    parseScenario(text, 'content/scenarios/x.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.issues;
    throw e;
  }
  throw new Error('expected the scenario to be rejected');
}

describe('parseScenario', () => {
  it('applies the default cluster and converts durations to ms', () => {
    const s = parseScenario('name: demo\nseed: 7\nuntil: 15m\nsteps:\n  - at: 30s\n    kubectl: get pods\n');
    expect(s.until).toBe(900_000);
    expect(s.steps[0].at).toBe(30_000);
    expect(s.cluster.nodes.map((n) => ('name' in n ? n.name : ''))).toEqual(['node-1', 'node-2', 'node-3']);
    expect(s.cluster.nodes[0]).toMatchObject({ cpu: '4', memory: '8Gi', pods: 110 });
  });
  it('accepts node templates and setting overrides', () => {
    const s = parseScenario(
      'name: big\nseed: 1\nuntil: 1m\ncluster:\n  nodes:\n    - namePrefix: worker-\n      count: 5\n      cpu: "8"\n      memory: 32Gi\n  settings:\n    nodeMonitorGracePeriod: 40s\n',
    );
    expect(s.cluster.settings.nodeMonitorGracePeriod).toBe(40_000);
  });
  it('names the step, the field, what was found and what was expected', () => {
    const msgs = issues('name: demo\nseed: 7\nuntil: 15m\nsteps:\n  - at: 60s\n    fault: node-dwn\n    node: node-1\n');
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatch(/^step 1 \(at 60s\): fault \(line 6\): found "node-dwn", expected one of node-down, node-up, partition/);
  });
  it('rejects a step with two actions, a missing node and bad durations', () => {
    const msgs = issues('name: demo\nseed: 7\nuntil: soon\nsteps:\n  - at: 1s\n    kubectl: get pods\n    exec: crictl ps\n  - at: 2s\n    fault: node-down\n');
    expect(msgs.join('\n')).toContain('until (line 3): found "soon", expected a duration such as 90s, 5m or 1h30m');
    expect(msgs.join('\n')).toContain('step 1 (at 1s): step (line 5): found kubectl and exec, expected exactly one of apply, kubectl, fault, exec');
    expect(msgs.join('\n')).toContain('step 1 (at 1s): node (line 5): found nothing, expected the node the command runs on');
    expect(msgs.join('\n')).toContain('step 2 (at 2s): node (line 8): found nothing, expected the node the fault applies to');
  });
  it('reports unknown fields, unknown nodes, missing required fields and YAML syntax errors', () => {
    expect(issues('name: demo\nseed: 7\nuntil: 1m\ncolour: blue\n')[0]).toMatch(/found unknown field colour/);
    expect(issues('name: demo\nseed: 7\nuntil: 1m\nsteps:\n  - at: 1s\n    fault: node-down\n    node: node-9\n')[0]).toBe(
      'step 1: node: found "node-9", expected one of node-1, node-2, node-3',
    );
    expect(issues('seed: 7\nuntil: 1m\n')[0]).toBe('name (line 1): found nothing, expected string');
    expect(issues('name: a\nseed: 7\nsteps: []\n')).toContain('until (line 1): found nothing, expected a duration such as 90s, 5m or 1h30m');
    expect(issues('name: a\nseed: 7\nsteps: []\nuntil: [1]\n')).toContain('until (line 4): found [1], expected a duration such as 90s, 5m or 1h30m');
    expect(issues('name: demo\nseed: [\n')[0]).toMatch(/^line \d+, column \d+: .*expected valid YAML$/);
    expect(issues('- just\n- a list\n')[0]).toBe('(top level): found ["just","a list"], expected a mapping with name, seed, steps and until');
  });
});

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
    const s = parseScenario(
      'name: demo\nseed: 7\nuntil: 15m\nsteps:\n  - at: 30s\n    kubectl: get pods\n',
    );
    expect(s.until).toBe(900_000);
    expect(s.steps[0].at).toBe(30_000);
    expect(s.cluster.nodes.map((n) => ('name' in n ? n.name : ''))).toEqual([
      'node-1',
      'node-2',
      'node-3',
    ]);
    expect(s.cluster.nodes[0]).toMatchObject({ cpu: '4', memory: '8Gi', pods: 110 });
  });
  it('accepts node templates and setting overrides', () => {
    const s = parseScenario(
      'name: big\nseed: 1\nuntil: 1m\ncluster:\n  nodes:\n    - namePrefix: worker-\n      count: 5\n      cpu: "8"\n      memory: 32Gi\n  settings:\n    nodeMonitorGracePeriod: 40s\n',
    );
    expect(s.cluster.settings.nodeMonitorGracePeriod).toBe(40_000);
  });
  it('accepts client rate limits and rejects a QPS of 0 or a fractional burst', () => {
    const head = 'name: a\nseed: 1\nuntil: 1m\ncluster:\n  settings:\n';
    const s = parseScenario(
      `${head}    kubeControllerManagerAPIQPS: 100\n    kubeControllerManagerAPIBurst: 100\n    kubeSchedulerAPIQPS: 2.5\n`,
    );
    expect(s.cluster.settings).toEqual({
      kubeControllerManagerAPIQPS: 100,
      kubeControllerManagerAPIBurst: 100,
      kubeSchedulerAPIQPS: 2.5,
    });
    const msgs = issues(
      `${head}    kubeletAPIQPS: 0\n    kubeletAPIBurst: 1.5\n    kubeSchedulerAPIBurst: "100"\n`,
    );
    expect(msgs).toHaveLength(3);
    expect(msgs[0]).toMatch(
      /kubeletAPIQPS.*found 0, expected a number of requests per second above 0, such as 20$/,
    );
    expect(msgs[1]).toMatch(
      /kubeletAPIBurst.*found 1\.5, expected a whole number of requests of at least 1, such as 30$/,
    );
    expect(msgs[2]).toMatch(/kubeSchedulerAPIBurst.*found "100", expected a number$/);
  });
  it('names the step, the field, what was found and what was expected', () => {
    const msgs = issues(
      'name: demo\nseed: 7\nuntil: 15m\nsteps:\n  - at: 60s\n    fault: node-dwn\n    node: node-1\n',
    );
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatch(
      /^step 1 \(at 60s\): fault \(line 6, column 12\): found "node-dwn", expected one of node-down, node-up, partition/,
    );
  });
  it('rejects a step with two actions, a missing node and bad durations', () => {
    const msgs = issues(
      'name: demo\nseed: 7\nuntil: soon\nsteps:\n  - at: 1s\n    kubectl: get pods\n    exec: crictl ps\n  - at: 2s\n    fault: node-down\n',
    );
    expect(msgs.join('\n')).toContain(
      'until (line 3, column 8): found "soon", expected a duration such as 90s, 5m or 1h30m',
    );
    expect(msgs.join('\n')).toContain(
      'step 1 (at 1s): step (line 5, column 5): found kubectl and exec, expected exactly one of apply, kubectl, fault, exec',
    );
    expect(msgs.join('\n')).toContain(
      'step 1 (at 1s): node (line 5, column 5): found nothing, expected the node the command runs on',
    );
    expect(msgs.join('\n')).toContain(
      'step 2 (at 2s): node (line 8, column 5): found nothing, expected the node the fault applies to',
    );
  });
  it('reports unknown fields, unknown nodes, missing required fields and YAML syntax errors', () => {
    expect(issues('name: demo\nseed: 7\nuntil: 1m\ncolour: blue\n')[0]).toMatch(
      /found unknown field colour/,
    );
    expect(
      issues(
        'name: demo\nseed: 7\nuntil: 1m\nsteps:\n  - at: 1s\n    fault: node-down\n    node: node-9\n',
      )[0],
    ).toBe(
      'step 1 (at 1s): node (line 7, column 11): found "node-9", expected one of node-1, node-2, node-3 or control-plane',
    );
    expect(issues('seed: 7\nuntil: 1m\n')[0]).toBe(
      'name (line 1, column 1): found nothing, expected a string',
    );
    expect(issues('name: a\nseed: 7\nsteps: []\n')).toContain(
      'until (line 1, column 1): found nothing, expected a duration such as 90s, 5m or 1h30m',
    );
    expect(issues('name: a\nseed: 7\nsteps: []\nuntil: [1]\n')).toContain(
      'until (line 4, column 8): found [1], expected a duration such as 90s, 5m or 1h30m',
    );
    expect(issues('name: demo\nseed: [\n')[0]).toMatch(
      /^line \d+, column \d+: .*expected valid YAML$/,
    );
    expect(issues('- just\n- a list\n')[0]).toBe(
      '(top level): found ["just","a list"], expected a mapping with name, seed, steps and until',
    );
  });

  it('rejects negative and zero node quantities, naming the field, the value and what is expected', () => {
    const msgs = issues(
      'name: a\nseed: 1\nuntil: 1m\ncluster:\n  nodes:\n    - name: node-1\n      cpu: "-4"\n      memory: -8Gi\n    - namePrefix: w-\n      count: 2\n      cpu: "0"\n      memory: 0\n',
    );
    expect(msgs).toEqual([
      'cluster.nodes[0].cpu (line 7, column 12): found "-4", expected a positive Kubernetes quantity such as "4" or "500m"',
      'cluster.nodes[0].memory (line 8, column 15): found "-8Gi", expected a positive Kubernetes quantity such as "8Gi" or "512Mi"',
      'cluster.nodes[1].cpu (line 11, column 12): found "0", expected a positive Kubernetes quantity such as "4" or "500m"',
      'cluster.nodes[1].memory (line 12, column 15): found 0, expected a positive Kubernetes quantity such as "8Gi" or "512Mi"',
    ]);
    expect(
      issues(
        'name: a\nseed: 1\nuntil: 1m\ncluster:\n  nodes:\n    - name: node-1\n      pods: -3\n',
      ),
    ).toEqual([
      'cluster.nodes[0].pods (line 7, column 13): found -3, expected a positive whole number of Pods such as 110',
    ]);
    expect(
      issues(
        'name: a\nseed: 1\nuntil: 1m\ncluster:\n  nodes:\n    - name: node-1\n      memory: "1e400"\n',
      )[0],
    ).toContain('found "1e400", expected a positive');
    expect(
      issues(
        'name: a\nseed: 1\nuntil: 1m\ncluster:\n  nodes:\n    - name: node-1\n      memory: 1e400\n',
      )[0],
    ).toContain('found Infinity, expected a positive');
    const ok = parseScenario(
      'name: a\nseed: 1\nuntil: 1m\ncluster:\n  nodes:\n    - name: node-1\n      cpu: 500m\n      memory: 512Mi\n',
    );
    expect(ok.cluster.nodes[0]).toMatchObject({ cpu: '500m', memory: '512Mi' });
  });
  it('reports errors inside a cluster.nodes entry at their own path, for the shape the entry has', () => {
    const node = (body: string) =>
      issues(`name: a\nseed: 1\nuntil: 1m\ncluster:\n  nodes:\n    - name: node-0\n${body}`);
    expect(
      node('    - name: node-1\n      taints:\n        - key: a\n          effect: Bogus\n'),
    ).toEqual([
      'cluster.nodes[1].taints[0].effect (line 10, column 19): found "Bogus", expected one of NoSchedule, PreferNoSchedule, NoExecute',
    ]);
    expect(node('    - name: node-1\n      taints:\n        - key: a\n')).toEqual([
      'cluster.nodes[1].taints[0].effect (line 9, column 11): found nothing, expected one of NoSchedule, PreferNoSchedule, NoExecute',
    ]);
    expect(node('    - name: node-1\n      labels: {zone: 3}\n')).toEqual([
      'cluster.nodes[1].labels.zone (line 8, column 22): found 3, expected a string',
    ]);
    expect(node('    - name: node-1\n      images: nginx\n')).toEqual([
      'cluster.nodes[1].images (line 8, column 15): found "nginx", expected a list',
    ]);
    expect(node('    - name: node-1\n      gpus: 1\n')).toEqual([
      'cluster.nodes[1] (line 8, column 7): found unknown field gpus, expected only the fields the scenario format defines here (name, cpu, memory, pods, labels, taints, images)',
    ]);
    // A template: namePrefix and count.
    expect(node('    - namePrefix: w-\n      count: 2\n      pods: lots\n')).toEqual([
      'cluster.nodes[1].pods (line 9, column 13): found "lots", expected a positive whole number of Pods such as 110',
    ]);
    expect(node('    - namePrefix: w-\n      count: 0\n')).toEqual([
      'cluster.nodes[1].count (line 8, column 14): found 0, expected a whole number of nodes from 1 to 10000',
    ]);
    expect(node('    - count: 2\n')).toEqual([
      'cluster.nodes[1].namePrefix (line 7, column 7): found nothing, expected a string',
    ]);
    // Both shapes at once, or neither.
    expect(node('    - name: node-1\n      namePrefix: w-\n      count: 2\n')).toEqual([
      'cluster.nodes[1] (line 7, column 7): found name and namePrefix and count, expected either name (one node) or namePrefix and count (a template), not both',
    ]);
    expect(node('    - cpu: "4"\n')).toEqual([
      'cluster.nodes[1] (line 7, column 7): found neither name nor namePrefix, expected a node ({name, cpu, memory, ...}) or a template ({namePrefix, count, ...})',
    ]);
    expect(node('    - node-1\n')).toEqual([
      'cluster.nodes[1] (line 7, column 7): found "node-1", expected a node ({name, cpu, memory, ...}) or a template ({namePrefix, count, ...})',
    ]);
  });
  it('states the times of out-of-order steps and of a step after until, with their lines', () => {
    expect(
      issues(
        'name: a\nseed: 1\nuntil: 1m\nsteps:\n  - at: 30s\n    kubectl: get pods\n  - at: 10s\n    kubectl: get nodes\n',
      ),
    ).toEqual([
      'step 2 (at 10s): at (line 7, column 9): found 10s, earlier than step 1 (at 30s); expected steps in time order',
    ]);
    // Compared with the latest step so far, not only the one before.
    expect(
      issues(
        'name: a\nseed: 1\nuntil: 1m\nsteps:\n  - at: 40s\n    kubectl: get pods\n  - at: 10s\n    kubectl: get pods\n  - at: 20s\n    kubectl: get nodes\n',
      )[1],
    ).toBe(
      'step 3 (at 20s): at (line 9, column 9): found 20s, earlier than step 1 (at 40s); expected steps in time order',
    );
    expect(
      issues('name: a\nseed: 1\nuntil: 1m\nsteps:\n  - at: 2m\n    kubectl: get pods\n'),
    ).toEqual([
      'step 1 (at 2m): at (line 5, column 9): found 2m, after until (1m); expected steps at or before until',
    ]);
    expect(
      issues('name: a\nseed: 1\nuntil: 60\nsteps:\n  - at: 90\n    kubectl: get pods\n'),
    ).toEqual([
      'step 1 (at 90): at (line 5, column 9): found 1m30s, after until (1m0s); expected steps at or before until',
    ]);
    expect(
      parseScenario(
        'name: a\nseed: 1\nuntil: 1m\nsteps:\n  - at: 1m\n    kubectl: get pods\n  - at: 1m\n    kubectl: get nodes\n',
      ).steps,
    ).toHaveLength(2);
  });
  it('rejects node on a step whose action takes no node, and accepts it where one is needed', () => {
    const base = 'name: a\nseed: 1\nuntil: 1m\nsteps:\n  - at: 5s\n';
    const msg =
      'which does not use a node; expected node only on exec steps, on the faults node-down, node-up, partition, heal, kubelet-stop, kubelet-start, etcd-member-down, etcd-member-up, and (naming a control-plane node) on apiserver-down, apiserver-up, etcd-down and etcd-up';
    expect(issues(`${base}    kubectl: get pods\n    node: node-1\n`)).toEqual([
      `step 1 (at 5s): node (line 7, column 11): found node "node-1" on a kubectl step, ${msg}`,
    ]);
    expect(issues(`${base}    apply: "kind: Namespace"\n    node: node-1\n`)).toEqual([
      `step 1 (at 5s): node (line 7, column 11): found node "node-1" on an apply step, ${msg}`,
    ]);
    // apiserver-down takes a node only to name one control-plane node of several.
    expect(issues(`${base}    fault: apiserver-down\n    node: node-2\n`)).toEqual([
      'step 1 (at 5s): node (line 7, column 11): found "node-2", expected a control-plane node for apiserver-down: control-plane',
    ]);
    expect(issues(`${base}    fault: etcd-member-down\n`)).toEqual([
      'step 1 (at 5s): node (line 5, column 5): found nothing, expected the node the fault applies to',
    ]);
    expect(
      parseScenario(
        `${base}    fault: partition\n    node: node-2\n  - at: 6s\n    exec: crictl ps\n    node: control-plane\n  - at: 7s\n    fault: etcd-down\n`,
      ).steps,
    ).toHaveLength(3);
  });
  it('says what a seed must be without zod wording, and accepts every safe integer', () => {
    const range = 'expected an integer such as 7, from -9007199254740991 to 9007199254740991';
    expect(issues('name: a\nuntil: 1m\n')).toEqual([
      `seed (line 1, column 1): found nothing, ${range}`,
    ]);
    expect(issues('name: a\nseed: 1.5\nuntil: 1m\n')).toEqual([
      `seed (line 2, column 7): found 1.5, ${range}`,
    ]);
    expect(issues('name: a\nseed: 99999999999999999999\nuntil: 1m\n')).toEqual([
      `seed (line 2, column 7): found 100000000000000000000, ${range}`,
    ]);
    expect(issues('name: a\nseed: seven\nuntil: 1m\n')).toEqual([
      `seed (line 2, column 7): found "seven", ${range}`,
    ]);
    for (const seed of [0, -3, 4294967297, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER])
      expect(parseScenario(`name: a\nseed: ${seed}\nuntil: 1m\n`).seed).toBe(seed);
  });
  it('words library limits and YAML errors in its own terms', () => {
    expect(issues('name: a\nseed: 1\nuntil: 1m\ncluster:\n  nodes: []\n')).toEqual([
      'cluster.nodes (line 5, column 10): found [], expected at least one node (leave nodes out for the default node-1, node-2, node-3)',
    ]);
    expect(
      issues('name: a\nseed: 1\nuntil: 1m\ncluster:\n  images:\n    x:\n      exitCode: 300\n'),
    ).toEqual([
      'cluster.images.x.exitCode (line 7, column 17): found 300, expected an exit code from 0 to 255',
    ]);
    expect(issues('name: a\nseed: 1\nuntil: 1m\n---\nname: b\nseed: 2\nuntil: 1m\n')).toEqual([
      'line 4, column 1: found a second YAML document (after ---), expected one document: a scenario file holds one scenario',
    ]);
    expect(issues('name: a\nname: b\nseed: 1\nuntil: 1m\n')).toEqual([
      'line 2, column 1: Map keys must be unique; expected valid YAML',
    ]);
    expect(issues('name: a\nseed: 1\nuntil: 1m\nsteps: {at: 0s}\n')).toEqual([
      'steps (line 4, column 8): found {"at":"0s"}, expected a list',
    ]);
    const all = issues(
      'name: a\nseed: -1.5\nuntil: 1m\ncluster:\n  nodes:\n    - name: node-1\n      pods: 0\n  images:\n    x:\n      exitCode: -1\n',
    );
    for (const m of all)
      expect(m).not.toMatch(
        /Too (small|big)|Invalid input|expected (int|number|string|object|array)\b|YAML\.parse/,
      );
  });
  it('gives each issue its line and column, and offers the field, value or node meant by a typo', () => {
    const err = (text: string): ScenarioError => {
      try {
        parseScenario(text, 'content/scenarios/x.yaml');
      } catch (e) {
        if (e instanceof ScenarioError) return e;
        throw e;
      }
      throw new Error('expected the scenario to be rejected');
    };
    expect(err('name: a\nseed: 1\nuntil: 1m\nstep:\n  - at: 1s\n').details).toEqual([
      {
        text: '(top level) (line 4, column 1): found unknown field step, expected only the fields the scenario format defines here (name, seed, description, cluster, steps, until); did you mean steps?',
        line: 4,
        column: 1,
      },
    ]);
    expect(
      err(
        'name: a\nseed: 1\nuntil: 1m\nsteps:\n  - at: 1s\n    fault: node-down\n    nod: node-1\n',
      ).issues[0],
    ).toBe(
      'step 1 (at 1s): step (line 7, column 5): found unknown field nod, expected only the fields the scenario format defines here (at, apply, kubectl, fault, exec, node, expectError); did you mean node?',
    );
    expect(
      err(
        'name: a\nseed: 1\nuntil: 1m\nsteps:\n  - at: 1s\n    fault: node-down\n    node: nod-1\n',
      ).issues[0],
    ).toBe(
      'step 1 (at 1s): node (line 7, column 11): found "nod-1", expected one of node-1, node-2, node-3 or control-plane; did you mean node-1?',
    );
    expect(
      err('name: a\nseed: 1\nuntil: 1m\ncluster:\n  settings: {}\n  image: {}\n').issues[0],
    ).toContain(
      'found unknown field image, expected only the fields the scenario format defines here (nodes, controlPlane, settings, cloud, images, ingress, gateway); did you mean images?',
    );
    expect(err('name: a\nname: b\nseed: 1\nuntil: 1m\n').details[0]).toMatchObject({
      line: 2,
      column: 1,
    });
    expect(
      err(
        'name: a\nseed: 1\nuntil: 1m\nsteps:\n  - at: 1s\n    fault: node-dwn\n    node: node-1\n',
      ).issues[0],
    ).toMatch(/; did you mean node-down\?$/);
  });
});

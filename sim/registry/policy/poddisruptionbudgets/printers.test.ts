import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../scenario/loader.ts';
import { ScenarioRun } from '../../../scenario/runner.ts';
import { webScenario } from '../../../testing.ts';

const SCENARIO = webScenario('pdb-print', {
  until: '40s',
  steps: `  - at: 20s
    apply: |
      apiVersion: policy/v1
      kind: PodDisruptionBudget
      metadata:
        name: web
      spec:
        minAvailable: 2
        selector:
          matchLabels:
            app: web
      ---
      apiVersion: policy/v1
      kind: PodDisruptionBudget
      metadata:
        name: half
      spec:
        maxUnavailable: 50%
        selector:
          matchLabels:
            app: web
`,
});

describe('kubectl get and describe poddisruptionbudgets', () => {
  it('prints the columns and the describe text kubectl v1.34 prints', () => {
    const run = new ScenarioRun(parseScenario(SCENARIO, 'pdb-print.yaml'));
    run.runUntil(40_000);
    expect(run.stepProblems).toEqual([]);
    expect(run.cluster.kubectl('get pdb').stdout).toBe(
      'NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\nhalf   N/A             50%               2                     20s\nweb    2               N/A               1                     20s\n',
    );
    expect(run.cluster.kubectl('describe pdb web').stdout).toBe(
      'Name:           web\nNamespace:      default\nMin available:  2\nSelector:       app=web\nStatus:\n    Allowed disruptions:  1\n    Current:              3\n    Desired:              2\n    Total:                3\nEvents:                   <none>\n',
    );
  });

  it('refuses both bounds and a bad percent with the validation messages', () => {
    const run = new ScenarioRun(parseScenario(SCENARIO, 'pdb-print.yaml'));
    run.runUntil(1_000);
    const out = run.cluster.kubectl(
      'apply -f -',
      'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: bad\nspec:\n  maxUnavailable: 150%\n  selector:\n    matchLabels:\n      app: web\n',
    );
    expect(out.stderr).toContain(
      'spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
    );
  });
});

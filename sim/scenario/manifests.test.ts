import { describe, expect, it } from 'vitest';
import { ScenarioError, parseScenario } from './loader.ts';
import { ScenarioRun } from './runner.ts';

const deployment = (spec: string, extra = '') => `name: demo
seed: 1
until: 1m
steps:
  - at: 1s
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
      spec:
${spec}
        selector:
          matchLabels: {app: web}
        template:
          metadata:
            labels: {app: web}
          spec:
            containers:
              - name: web
                image: nginx
${extra}`;

function details(text: string): ScenarioError['details'] {
  try {
    parseScenario(text, 'content/scenarios/demo.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.details;
    throw e;
  }
  return [];
}

describe('apply manifests', () => {
  it('reports an unknown field at its line and column, with what kube-apiserver knows there and answers', () => {
    expect(details(deployment('        replica: 2'))).toEqual([
      {
        line: 12,
        column: 9,
        text: 'step 1 (at 1s): apply (line 12, column 9): found unknown field "spec.replica" in Deployment "web", expected a field kube-apiserver knows there (replicas, selector, template, strategy, minReadySeconds, revisionHistoryLimit, paused, progressDeadlineSeconds); did you mean replicas? kube-apiserver answers 400 BadRequest: Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica". If the step is meant to fail, give it expectError: "unknown field \\"spec.replica\\"" (or a part of it).',
      },
    ]);
  });
  it('reports each unknown field once, nested fields at their own line', () => {
    const d = details(deployment('        replicas: 2').replace('image: nginx', 'image: nginx\n                imagePulPolicy: Always'));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ line: 22, column: 17 });
    expect(d[0].text).toContain('found unknown field "spec.template.spec.containers[0].imagePulPolicy" in Deployment "web"');
    expect(d[0].text).toContain('did you mean imagePullPolicy?');
  });
  it('reports a value of the wrong type with kube-apiserver\'s decoding error', () => {
    const [d] = details(deployment('        replicas: two'));
    expect(d).toMatchObject({ line: 12, column: 19 });
    expect(d.text).toContain('found a value kube-apiserver cannot decode in Deployment "web" at spec.replicas. kube-apiserver answers 400 BadRequest: Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32.');
  });
  it('accepts the error when the step declares it, and rejects expectError on other steps', () => {
    expect(parseScenario(deployment('        replica: 2', '    expectError: unknown field "spec.replica"')).steps[0].expectError).toBe('unknown field "spec.replica"');
    expect(details(deployment('        replica: 2', '    expectError: unknown field "spec.image"'))[0].text).toContain('found unknown field "spec.replica"');
    expect(details('name: a\nseed: 1\nuntil: 1m\nsteps:\n  - at: 1s\n    kubectl: get pods\n    expectError: NotFound\n')[0].text).toBe(
      'step 1 (at 1s): expectError (line 7, column 18): found expectError on a kubectl step, expected expectError only on apply steps',
    );
  });
  it('leaves manifests with placeholders to the run that fills them in', () => {
    expect(parseScenario(deployment('        replica: {{n}}')).steps).toHaveLength(1);
  });
});

describe('ScenarioRun.stepProblems', () => {
  const pod = (name: string, extra = '') => `name: a\nseed: 1\nuntil: 10s\nsteps:\n  - at: 1s\n    apply: |\n      apiVersion: v1\n      kind: Pod\n      metadata:\n        name: ${name}\n      spec:\n        containers:\n          - name: c\n            image: nginx\n${extra}`;
  it('lists an apply the cluster refuses with kubectl\'s own error', () => {
    const run = new ScenarioRun(parseScenario(pod('Bad_Name'))).run();
    expect(run.stepProblems).toHaveLength(1);
    expect(run.stepProblems[0].step).toBe(0);
    expect(run.stepProblems[0].message).toMatch(/^kubectl apply failed: The Pod "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    expect(run.stepProblems[0].message).toContain('expected the apply to succeed (if the step is meant to fail, give it expectError: "The Pod \\"Bad_Name\\" is invalid: metadata.name" or another part of the error)');
  });
  it('accepts the declared error, and reports an apply that succeeds or fails otherwise', () => {
    expect(new ScenarioRun(parseScenario(pod('Bad_Name', '    expectError: is invalid'))).run().stepProblems).toEqual([]);
    expect(new ScenarioRun(parseScenario(pod('web', '    expectError: is invalid'))).run().stepProblems).toEqual([
      { step: 0, message: 'kubectl apply succeeded, expected it to fail with "is invalid" (expectError)' },
    ]);
    expect(new ScenarioRun(parseScenario(pod('Bad_Name', '    expectError: NotFound'))).run().stepProblems[0].message).toMatch(/^kubectl apply failed with: The Pod "Bad_Name" is invalid.*; expected an error containing "NotFound" \(expectError\)$/);
    expect(new ScenarioRun(parseScenario(pod('web'))).run().stepProblems).toEqual([]);
  });
});

// The requests each kubectl command sends, as recorded in the trace: verb, resource (with
// subresource) and patch type, checked against what kubectl v1.34 sends
// (staging/src/k8s.io/kubectl/pkg/cmd/*, pkg/scale, pkg/polymorphichelpers, pkg/drain).
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types.ts';
import type { RequestEntry } from '../engine/trace.ts';
import { parseScenario } from '../scenario/loader.ts';
import { ScenarioRun } from '../scenario/runner.ts';
import { webScenario } from '../testing.ts';

const SCENARIO = webScenario('requests');

const PDB = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
spec:
  minAvailable: 3
  selector:
    matchLabels:
      app: web
`;

function cluster(): ScenarioRun {
  const run = new ScenarioRun(parseScenario(SCENARIO, 'requests.yaml'), { freeze: true });
  run.runUntil(30_000);
  return run;
}

type Req = Pick<RequestEntry, 'verb' | 'resource'> & { patchType?: string; code?: number };

// requests runs a kubectl command line and returns kubectl's requests, in order.
function requests(
  run: ScenarioRun,
  line: string,
  stdin?: string,
): { reqs: Req[]; out: { stdout: string; stderr: string; exitCode: number } } {
  const from = run.cluster.sim.trace.length;
  const out = run.cluster.kubectl(line, stdin);
  const reqs = run.cluster.sim.trace
    .slice(from)
    .filter((e): e is RequestEntry => e.kind === 'request' && e.from === 'kubectl')
    .map((e) => ({
      verb: e.verb,
      resource: e.resource,
      ...(e.patchType ? { patchType: e.patchType } : {}),
    }));
  return { reqs, out };
}

const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const JSONPATCH = 'application/json-patch+json';

describe('kubectl scale', () => {
  it('GETs the Deployment, then PATCHes deployments/scale with a merge patch', () => {
    const run = cluster();
    const { reqs, out } = requests(run, 'scale deployment web --replicas=5');
    expect(out.stdout).toBe('deployment.apps/web scaled\n');
    expect(reqs).toEqual([
      { verb: 'get', resource: 'deployments' },
      { verb: 'patch', resource: 'deployments/scale', patchType: MERGE },
    ]);
    expect(
      run.cluster.apiserver.get<{ spec: { replicas: number } } & Pod>(
        'test',
        'deployments',
        'default',
        'web',
      ).spec.replicas,
    ).toBe(5);
  });

  it('with --current-replicas GETs the scale subresource and PUTs it', () => {
    const run = cluster();
    const { reqs, out } = requests(run, 'scale deployment web --replicas=2 --current-replicas=3');
    expect(out.stdout).toBe('deployment.apps/web scaled\n');
    expect(reqs).toEqual([
      { verb: 'get', resource: 'deployments' },
      { verb: 'get', resource: 'deployments/scale' },
      { verb: 'update', resource: 'deployments/scale' },
    ]);
    const bad = requests(run, 'scale deployment web --replicas=4 --current-replicas=3');
    expect(bad.out.stderr).toBe('error: Expected replicas to be 3, was 2\n');
    expect(bad.reqs).toEqual([
      { verb: 'get', resource: 'deployments' },
      { verb: 'get', resource: 'deployments/scale' },
    ]);
  });
});

describe('kubectl rollout', () => {
  it('undo sends one JSON patch of the Deployment', () => {
    const run = cluster();
    requests(run, 'set image deployment/web nginx=nginx:1.28');
    run.runUntil(50_000);
    const { reqs, out } = requests(run, 'rollout undo deployment web');
    expect(out.stdout).toBe('deployment.apps/web rolled back\n');
    expect(reqs).toEqual([
      { verb: 'get', resource: 'deployments' },
      { verb: 'get', resource: 'deployments' },
      { verb: 'list', resource: 'replicasets' },
      { verb: 'patch', resource: 'deployments', patchType: JSONPATCH },
    ]);
    const d = run.cluster.apiserver.get<Pod>(
      'test',
      'deployments',
      'default',
      'web',
    ) as unknown as { spec: { template: { spec: { containers: { image: string }[] } } } };
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:1.27');
  });

  it('restart and set image send strategic merge patches', () => {
    const run = cluster();
    expect(requests(run, 'rollout restart deployment web').reqs).toEqual([
      { verb: 'get', resource: 'deployments' },
      { verb: 'patch', resource: 'deployments', patchType: SMP },
    ]);
    expect(requests(run, 'set image deployment/web nginx=nginx:1.28').reqs).toEqual([
      { verb: 'get', resource: 'deployments' },
      { verb: 'patch', resource: 'deployments', patchType: SMP },
    ]);
  });
});

describe('kubectl apply, label, taint, cordon', () => {
  it('apply GETs, then creates or sends a strategic merge patch', () => {
    const run = cluster();
    const first = requests(run, 'apply -f -', PDB);
    expect(first.out.stdout).toBe('poddisruptionbudget.policy/web created\n');
    expect(first.reqs).toEqual([
      { verb: 'get', resource: 'poddisruptionbudgets' },
      { verb: 'create', resource: 'poddisruptionbudgets' },
    ]);
    const second = requests(run, 'apply -f -', PDB.replace('minAvailable: 3', 'minAvailable: 2'));
    expect(second.out.stdout).toBe('poddisruptionbudget.policy/web configured\n');
    expect(second.reqs).toEqual([
      { verb: 'get', resource: 'poddisruptionbudgets' },
      { verb: 'patch', resource: 'poddisruptionbudgets', patchType: SMP },
    ]);
  });

  it('label sends a merge patch; taint and cordon strategic merge patches', () => {
    const run = cluster();
    expect(requests(run, 'label deployment web tier=frontend').reqs).toEqual([
      { verb: 'get', resource: 'deployments' },
      { verb: 'patch', resource: 'deployments', patchType: MERGE },
    ]);
    expect(requests(run, 'taint nodes node-1 dedicated=db:NoSchedule').reqs).toEqual([
      { verb: 'get', resource: 'nodes' },
      { verb: 'patch', resource: 'nodes', patchType: SMP },
    ]);
    expect(requests(run, 'cordon node-1').reqs).toEqual([
      { verb: 'get', resource: 'nodes' },
      { verb: 'patch', resource: 'nodes', patchType: SMP },
    ]);
  });
});

describe('kubectl create, delete, uncordon', () => {
  it('create deployment POSTs; delete by name DELETEs without a GET (RequireObject(false)); uncordon patches', () => {
    const run = cluster();
    expect(requests(run, 'create deployment api --image=nginx:1.27').reqs).toEqual([
      { verb: 'create', resource: 'deployments' },
    ]);
    expect(requests(run, 'delete deployment api').reqs).toEqual([
      { verb: 'delete', resource: 'deployments' },
    ]);
    requests(run, 'cordon node-2');
    expect(requests(run, 'uncordon node-2').reqs).toEqual([
      { verb: 'get', resource: 'nodes' },
      { verb: 'patch', resource: 'nodes', patchType: SMP },
    ]);
  });
});

describe('kubectl drain', () => {
  it('with --disable-eviction DELETEs the Pods instead and prints "deleted"', () => {
    const run = cluster();
    const node = run.cluster.apiserver
      .peekAll<Pod>('pods')
      .find((p) => p.metadata.labels?.app === 'web')!.spec.nodeName!;
    const { reqs, out } = requests(run, `drain ${node} --ignore-daemonsets --disable-eviction`);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).not.toContain('evicting pod');
    expect(out.stdout).toMatch(/^pod\/web-\S+ deleted$/m);
    expect(reqs.some((r) => r.verb === 'delete' && r.resource === 'pods')).toBe(true);
    expect(reqs.some((r) => r.resource === 'pods/eviction')).toBe(false);
  });

  it("cordons, lists the node's Pods, evicts each through pods/eviction and waits for them to go", () => {
    const run = cluster();
    const node = run.cluster.apiserver
      .peekAll<Pod>('pods')
      .find((p) => p.metadata.labels?.app === 'web')!.spec.nodeName!;
    // Every Pod on the node but DaemonSet-managed and mirror Pods (kube-proxy, static Pods).
    const pods = run.cluster.apiserver
      .peekAll<Pod>('pods')
      .filter(
        (p) =>
          p.spec.nodeName === node &&
          !p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet' || o.kind === 'Node'),
      );
    const t0 = run.cluster.sim.now();
    const { reqs, out } = requests(run, `drain ${node} --ignore-daemonsets`);
    expect(out.exitCode).toBe(0);
    expect(out.stdout.split('\n')[0]).toBe(`node/${node} cordoned`);
    for (const p of pods) {
      expect(out.stdout).toContain(`evicting pod ${p.metadata.namespace}/${p.metadata.name}\n`);
      expect(out.stdout).toContain(`pod/${p.metadata.name} evicted\n`);
    }
    expect(out.stdout.endsWith(`node/${node} drained\n`)).toBe(true);
    const kinds = reqs.map((r) => `${r.verb} ${r.resource}${r.patchType ? ` ${r.patchType}` : ''}`);
    expect(kinds.slice(0, 3)).toEqual(['get nodes', `patch nodes ${SMP}`, 'list pods']);
    expect(kinds.filter((k) => k === 'create pods/eviction').length).toBe(pods.length);
    expect(kinds).not.toContain('delete pods');
    // kubectl waited for the Pods to be deleted (polling GET every second).
    expect(run.cluster.sim.now()).toBeGreaterThan(t0);
    for (const p of pods)
      expect(
        run.cluster.apiserver.peekAll<Pod>('pods').some((x) => x.metadata.uid === p.metadata.uid),
      ).toBe(false);
  });

  it('retries every 5 s while a PodDisruptionBudget forbids the eviction, and completes when it allows', () => {
    const run = cluster();
    requests(run, 'apply -f -', PDB.replace('minAvailable: 3', 'minAvailable: 3'));
    run.runUntil(32_000);
    const node = run.cluster.apiserver
      .peekAll<Pod>('pods')
      .find((p) => p.metadata.labels?.app === 'web')!.spec.nodeName!;
    const pod = run.cluster.apiserver
      .peekAll<Pod>('pods')
      .find((p) => p.spec.nodeName === node && p.metadata.labels?.app === 'web')!;
    // Lower the budget 12 s from now: the evictions at +0, +5 and +10 s are refused, +15 s passes.
    run.cluster.sim.at(run.cluster.sim.now() + 12_000, 'test: lower the budget', () => {
      run.cluster.apiserver.patch('test', 'poddisruptionbudgets', 'default', 'web', {
        spec: { minAvailable: 2 },
      });
    });
    const { reqs, out } = requests(run, `drain ${node} --ignore-daemonsets`);
    const refused = `error when evicting pods/"${pod.metadata.name}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n`;
    expect(out.stderr.split(refused).length - 1).toBe(3);
    expect(out.stdout.split(`evicting pod default/${pod.metadata.name}\n`).length - 1).toBe(4);
    expect(out.stdout).toContain(`pod/${pod.metadata.name} evicted\n`);
    expect(out.stdout.endsWith(`node/${node} drained\n`)).toBe(true);
    const evictions = run.cluster.sim.trace.filter(
      (e): e is RequestEntry =>
        e.kind === 'request' && e.resource === 'pods/eviction' && e.name === pod.metadata.name,
    );
    expect(evictions.map((e) => e.code)).toEqual([429, 429, 429, 201]);
    expect(evictions.map((e) => e.t - evictions[0].t)).toEqual([0, 5, 10, 15]);
    expect(reqs.filter((r) => r.verb === 'delete')).toEqual([]);
  });
});

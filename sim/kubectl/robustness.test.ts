// Property: whatever a learner types at the kubectl console, kubectl answers with output or an
// error worded as kubectl words it, never with a JavaScript exception, and the cluster runs on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster.ts';
import { ClusterSchema, type ClusterConfig } from '../scenario/schema.ts';

const words = fc.constantFrom(
  'get', 'describe', 'apply', 'create', 'delete', 'scale', 'set', 'image', 'rollout', 'status', 'history', 'undo',
  'cordon', 'uncordon', 'drain', 'label', 'taint', 'deployment', 'deployments', 'deploy', 'pods', 'pod', 'po', 'nodes',
  'node', 'svc', 'services', 'endpointslices', 'events', 'leases', 'all', 'rs', 'componentstatuses', 'web', 'node-1',
  'web-abc', 'nginx=nginx:1.28', 'app=web', 'app-', 'key=value:NoSchedule', 'key:NoExecute-', '-o', 'wide', 'yaml',
  'json', 'name', '-n', 'kube-system', '-A', '-l', '--replicas=3', '--replicas=-1', '--replicas=abc', '--replicas',
  '--to-revision=1', '--ignore-daemonsets', '--force', '--grace-period=0', '--overwrite', '-f', '-', '--image=nginx',
  '--', '=', '""', "'", '\\', '--selector', '!', '--namespace=', '--all', 'deployment/web', 'node/node-1', 'pod/',
);

const line = fc.array(fc.oneof({ weight: 8, arbitrary: words }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }), { minLength: 0, maxLength: 7 }).map((ws) => ws.join(' '));

const good = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: nginx
          image: nginx:1.27
`;

describe('kubectl console (property)', () => {
  it('answers any command line with output or a kubectl-worded error, and the run goes on', () => {
    const config = ClusterSchema.parse({ nodes: [{ name: 'node-1' }, { name: 'node-2' }] }) as ClusterConfig;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 4 }), (lines) => {
        const cluster = new Cluster({ seed: 3, config, traceLevel: 'none', recordChanges: false });
        cluster.kubectl('apply -f -', good);
        cluster.runUntil(10_000);
        for (const l of lines) {
          const out = cluster.kubectl(l, good);
          expect(out.exitCode, l).toBeGreaterThanOrEqual(0);
          expect(out.stderr + out.stdout, l).not.toMatch(/TypeError|is not a function|Cannot read propert|\[object Object\]|NaN/);
          // A failure says something: an error on stderr, or (kubectl rollout) help on stdout.
          if (out.exitCode !== 0) expect(out.stderr + out.stdout, l).not.toBe('');
          cluster.runUntil(cluster.sim.now() + 5_000);
        }
        expect(cluster.kubectl('get pods -A').exitCode).toBe(0);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200), seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261129 },
    );
  });
});

// Strict decoding: the messages kube-apiserver answers for bodies that do not fit the Go types,
// and the promise that no manifest, however malformed, makes kubectl or the cluster throw.
import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster.ts';
import { ClusterSchema, type ClusterConfig } from '../scenario/schema.ts';
import { decodeError, quantityError, knownFields } from './decode.ts';

const deployment = (spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    ...spec,
  },
});

const podWith = (spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

describe('decodeError', () => {
  it('accepts well-formed objects, including fields the simulator does not model', () => {
    expect(decodeError(deployment({ replicas: 3, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } } }))).toBeUndefined();
    expect(
      decodeError(
        podWith({
          securityContext: { runAsNonRoot: true },
          affinity: { nodeAffinity: {} },
          containers: [{ name: 'c', image: 'nginx', livenessProbe: { httpGet: { path: '/', port: 80 } }, resources: { requests: { cpu: 1, memory: '128Mi' } } }],
        }),
      ),
    ).toBeUndefined();
    expect(decodeError({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: null }, spec: null })).toBeUndefined();
  });

  it('accepts every manifest the course applies', () => {
    const dir = new URL('../../content/scenarios/', import.meta.url);
    let checked = 0;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
      const scenario = readFileSync(new URL(f, dir), 'utf8');
      if (scenario.includes('{{')) continue; // parameterised: filled in by the questions
      const steps = (parseAllDocuments(scenario)[0]?.toJS() as { steps?: { apply?: string }[] }).steps ?? [];
      for (const s of steps.filter((x) => x.apply))
        for (const doc of parseAllDocuments(s.apply!)) {
          const obj = doc.toJS() as Record<string, unknown> | null;
          if (!obj) continue;
          expect(decodeError(obj), `${f}: ${String(obj.kind)}`).toBeUndefined();
          checked++;
        }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('words a type error as encoding/json does: innermost struct, json path without indices, Go type', () => {
    expect(decodeError(deployment({ replicas: 'three' }))).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    expect(decodeError(deployment({ replicas: 1.5 }))).toContain('cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32');
    expect(decodeError(podWith({ containers: [{ name: 'c', image: 'nginx', env: [{ name: 'A', value: 1 }] }] }))).toBe(
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string',
    );
    expect(decodeError(podWith({ nodeSelector: 'disk=ssd' }))).toContain('cannot unmarshal string into Go struct field PodSpec.spec.nodeSelector of type map[string]string');
    expect(decodeError(podWith({ containers: { name: 'c' } }))).toContain('of type []v1.Container');
    expect(decodeError({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', annotations: { a: true } } })).toContain(
      'cannot unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type string',
    );
    expect(decodeError({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: '80' }] } })).toContain(
      'cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32',
    );
  });

  it('reports the first type error only', () => {
    expect(decodeError(deployment({ replicas: 'x', minReadySeconds: 'y' }))).toMatch(/spec\.replicas of type int32$/);
  });

  it('stops at an IntOrString or Quantity that does not parse, as their UnmarshalJSON does', () => {
    expect(decodeError(deployment({ strategy: { rollingUpdate: { maxSurge: { a: 1 } } } }))).toContain(
      'cannot unmarshal object into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32',
    );
    const cpu = podWith({ containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: 'lots' } } }] });
    expect(decodeError(cpu)).toBe(
      "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    expect(quantityError('250m')).toBeUndefined();
    expect(quantityError(2)).toBeUndefined();
    expect(quantityError('1e3')).toBeUndefined();
    expect(quantityError('1.2.3')).toBe('unable to parse numeric part of quantity');
    expect(quantityError('5mm')).toBe("unable to parse quantity's suffix");
    expect(quantityError([1])).toMatch(/^quantities must match/);
  });

  it('reports unknown fields with their index path, all of them, only when the types decode', () => {
    expect(decodeError(podWith({ containers: [{ name: 'c', imagee: 'nginx' }] }))).toBe(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagee"',
    );
    expect(decodeError({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', lables: {} }, spec: { containers: [], image: 'x' } })).toBe(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "metadata.lables", unknown field "spec.image"',
    );
    expect(decodeError(podWith({ image: 'x', restartPolicy: 5 }))).toContain('json: cannot unmarshal number');
  });
});

describe('kubectl apply with a body kube-apiserver cannot decode', () => {
  const config = ClusterSchema.parse({ nodes: [{ name: 'node-1' }] }) as ClusterConfig;
  const pod = (extra: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n      image: nginx\n${extra}`;

  it('prints the server error for a new object and creates nothing', () => {
    const cluster = new Cluster({ seed: 1, config });
    const out = cluster.kubectl('apply -f -', pod('      imagePullPolicee: Always\n'));
    expect(out).toEqual({
      stdout: '',
      stderr: 'Error from server (BadRequest): error when creating "STDIN": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolicee"\n',
      exitCode: 1,
    });
    expect(cluster.kubectl('get pods').stderr).toBe('No resources found in default namespace.\n');
    const request = cluster.sim.trace.filter((e) => e.kind === 'request' && e.from === 'kubectl' && e.verb === 'create');
    expect(request.map((e) => (e as { code?: number }).code)).toEqual([400]);
  });

  it('prints the server error when patching an existing object and leaves it unchanged', () => {
    const cluster = new Cluster({ seed: 1, config });
    expect(cluster.kubectl('apply -f -', pod('')).exitCode).toBe(0);
    const before = cluster.kubectl('get pod p -o yaml').stdout;
    const out = cluster.kubectl('apply -f -', pod('      ports: 80\n'));
    expect(out.stderr).toBe(
      'Error from server (BadRequest): error when patching "STDIN": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.ports of type []v1.ContainerPort\n',
    );
    expect(cluster.kubectl('get pod p -o yaml').stdout).toBe(before);
  });

  it('decodes an absent or null spec as the empty struct, so validation answers', () => {
    const cluster = new Cluster({ seed: 1, config });
    const out = cluster.kubectl('apply -f -', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec: null\n');
    expect(out.stderr).toBe('The Service "s" is invalid: spec.ports: Required value\n');
  });
});

const base = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 2
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      nodeSelector:
        kubernetes.io/os: linux
      tolerations:
        - key: example
          operator: Exists
          effect: NoSchedule
      containers:
        - name: nginx
          image: nginx:1.27
          ports:
            - containerPort: 80
          env:
            - name: MODE
              value: prod
          resources:
            requests:
              cpu: 100m
              memory: 64Mi
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
    - port: 80
      targetPort: 80
`;

/** paths lists every value path of a JSON value. */
function paths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...prefix, i])));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, k]));
  return out;
}

function setPath(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = Array.isArray(root) ? [...root] : { ...(root as object) };
  (copy as Record<string | number, unknown>)[path[0]] = setPath((root as Record<string | number, unknown>)[path[0]], path.slice(1), value);
  return copy;
}

const odd = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 2 ** 31, 1e300, '', ' ', '-1', '0%', '101%', 'x'.repeat(300), '<script>alert(1)</script>', '{{p}}', [], {}, [1, 'a'], { a: { b: 1 } }),
  fc.string(),
  // Bounded: a valid replicas of two billion is accepted, as by real kube-apiserver, and the
  // simulator would then really create Pods for a very long time.
  fc.integer({ min: -1000, max: 1000 }),
);

describe('malformed manifests (property)', () => {
  it('never make kubectl or the cluster throw: kubectl prints an error or applies, and the run goes on', () => {
    const docs = parseAllDocuments(base).map((d) => d.toJS() as unknown);
    const config = ClusterSchema.parse({ nodes: [{ name: 'node-1' }, { name: 'node-2' }] }) as ClusterConfig;
    fc.assert(
      fc.property(fc.nat(1), fc.nat(10_000), odd, fc.boolean(), (which, pick, value, twice) => {
        const ps = paths(docs[which]);
        const path = ps[pick % ps.length];
        const mutated = docs.map((d, i) => (i === which ? setPath(d, path, value) : d));
        const text = mutated.map((d) => JSON.stringify(d)).join('\n---\n');
        const cluster = new Cluster({ seed: 1, config, traceLevel: 'none', recordChanges: false });
        // Applied over a good object (the patch path) or on an empty cluster (the create path).
        if (twice) expect(cluster.kubectl('apply -f -', base).exitCode).toBe(0);
        const out = cluster.kubectl('apply -f -', text);
        expect([0, 1]).toContain(out.exitCode);
        expect(out.stderr).not.toMatch(/TypeError|is not a function|Cannot read propert|undefined|\[object Object\]/);
        if (out.exitCode) expect(out.stderr).toMatch(/^(error|Error from server|The \w+ "(?:[^"\\]|\\.)*" is invalid)/);
        cluster.runUntil(20_000);
        expect(cluster.kubectl('get pods').exitCode).toBe(0);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150), seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261129 },
    );
  });
});

describe('knownFields', () => {
  it('lists the fields of the struct holding a strict-error path, through lists and maps', () => {
    expect(knownFields('Deployment', 'spec.replica')).toContain('replicas');
    expect(knownFields('Deployment', 'spec.template.spec.containers[0].imagee')).toContain('image');
    expect(knownFields('Pod', 'metadata.lables')).toContain('labels');
    expect(knownFields('Pod', 'spec')).toContain('metadata');
    expect(knownFields('Widget', 'spec.x')).toBeUndefined();
    expect(knownFields('Pod', 'status.phase')).toBeUndefined();
  });
});

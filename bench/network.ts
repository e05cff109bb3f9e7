/// <reference types="node" />
// Benchmarks for the packet path (issue 17). They print figures; nothing here asserts on time.
// Record results in BENCHMARKS.md with the command that produced them.
//   npx node bench/network.ts curls      the grading run of lesson7-services with 20 curls added
//   npx node bench/network.ts services   1,000 Services with 10,000 endpoints on 100 nodes: the
//                                        wall time from the apply until every node's kube-proxy
//                                        has programmed them all

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseScenario } from '../sim/scenario/loader.ts';
import { ScenarioRun } from '../sim/scenario/runner.ts';

const WARMUP = 150;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** curls: lesson7-services, as the grader runs it (requests trace), with 20 more curl steps. */
function curls(): void {
  const text = readFileSync(
    new URL('../content/scenarios/lesson7-services.yaml', import.meta.url),
    'utf8',
  );
  const extra = Array.from(
    { length: 20 },
    (_, i) =>
      `  - at: ${50 + i * 0.25}s\n    kubectl: exec -n shop client -- curl -s web/hostname\n`,
  ).join('');
  const sc = parseScenario(text.replace(/\nuntil: 60s\n/, `\n${extra}until: 60s\n`), 'l7-curls');
  const base = parseScenario(text, 'lesson7-services');
  for (let i = 0; i < WARMUP; i++) {
    new ScenarioRun(sc, { seed: i, traceLevel: 'requests' }).run();
    new ScenarioRun(base, { seed: i, traceLevel: 'requests' }).run();
  }
  // Alternated, so that both see the same load on a shared machine.
  const times: number[] = [];
  const baseTimes: number[] = [];
  let packets = 0;
  for (let i = 0; i < 60; i++) {
    let t0 = performance.now();
    const run = new ScenarioRun(sc, { seed: 100 + i, traceLevel: 'requests' }).run();
    times.push(performance.now() - t0);
    packets = run.cluster.sim.trace.filter((e) => e.kind === 'packet').length;
    t0 = performance.now();
    new ScenarioRun(base, { seed: 100 + i, traceLevel: 'requests' }).run();
    baseTimes.push(performance.now() - t0);
  }
  console.log(
    `grading lesson7-services + 20 curls (trace requests): median ${median(times).toFixed(2)} ms per run (${packets} connections); lesson7-services as it is: ${median(baseTimes).toFixed(2)} ms (60 runs each, alternated, after ${WARMUP} warm-up)`,
  );
}

/**
 * services: 100 nodes; at 1 s one apply of 1,000 selector-less Services and 1,000 hand-made
 * EndpointSlices of 10 endpoints each (so no Pods need to be created); timed from the apply to the
 * last node's iptables-restore that holds them all.
 */
function services(): void {
  const docs: string[] = [];
  for (let i = 0; i < 1000; i++) {
    docs.push(
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-${i}\nspec:\n  ports:\n    - name: http\n      port: 80\n      targetPort: 8080`,
    );
    const eps = Array.from(
      { length: 10 },
      (_, k) =>
        `  - addresses: ["10.250.${Math.floor((i * 10 + k) / 250)}.${((i * 10 + k) % 250) + 1}"]\n    conditions: {ready: true}`,
    ).join('\n');
    docs.push(
      `apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: svc-${i}-manual\n  labels:\n    kubernetes.io/service-name: svc-${i}\naddressType: IPv4\nports:\n  - name: http\n    port: 8080\n    protocol: TCP\nendpoints:\n${eps}`,
    );
  }
  const yaml = `name: services-1000
seed: 1
cluster:
  nodes:
    - namePrefix: node-
      count: 100
      cpu: "8"
      memory: 32Gi
steps:
  - at: 1s
    apply: |
${docs.join('\n---\n').replace(/^/gm, '      ')}
until: 20s
`;
  const sc = parseScenario(yaml, 'services-1000');
  for (let rep = 0; rep < 3; rep++) {
    const run = new ScenarioRun(sc, { seed: 1 + rep, traceLevel: 'full' });
    run.runUntil(999);
    const t0 = performance.now();
    run.runUntil(20_000);
    const wall = performance.now() - t0;
    const last = new Map<
      string,
      { t: number; services: number; endpoints: number; rules: number }
    >();
    for (const e of run.cluster.sim.trace)
      if (e.kind === 'program' && e.t >= 1) last.set(e.from, e);
    const full = [...last.values()].filter((e) => e.services >= 1000 && e.endpoints >= 10_000);
    const done = Math.max(...full.map((e) => e.t));
    console.log(
      `services 1000 x 10 endpoints, 100 nodes (seed ${1 + rep}): ${full.length} of ${last.size} kube-proxies programmed all (${full[0]?.rules ?? 0} rules each), the last at ${done.toFixed(3)} s virtual; wall ${(wall / 1000).toFixed(2)} s for virtual 1 s to 20 s (apply, controllers, every node's sync)`,
    );
  }
}

const which = process.argv[2] ?? 'curls';
if (which === 'curls') curls();
else if (which === 'services') services();
else throw new Error(`unknown benchmark ${which}: want curls or services`);

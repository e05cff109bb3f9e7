/// <reference types="node" />
// Shared test helpers: golden files, a frozen kube-apiserver, the `web` Deployment. Used by tests
// only (lint treats sim/**/testing.ts as tests).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Namespace } from './api/types.ts';
import { KubeAPIServer } from './apiserver/apiserver.ts';
import { Simulation, type SimulationOptions } from './engine/simulation.ts';
import { EtcdStore } from './etcd/store.ts';

/**
 * golden compares got with the file at url. UPDATE_GOLDEN=1 rewrites the file locally; CI (CI set)
 * always compares and never rewrites, so a mismatch fails.
 */
export function golden(url: URL, got: string): void {
  const path = fileURLToPath(url);
  if (process.env.UPDATE_GOLDEN === '1' && !process.env.CI) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, got);
    return;
  }
  if (!existsSync(path))
    throw new Error(
      `missing golden file ${path}; run with UPDATE_GOLDEN=1 (outside CI) to create it`,
    );
  expect(got).toBe(readFileSync(path, 'utf8'));
}

/**
 * frozenAPIServer starts a kube-apiserver on a fresh etcd with freeze on (stored objects are
 * deep-frozen, so a component mutating cached state fails) and the namespaces given (default
 * unless named), created by user "test". sim takes the Simulation options (seed 1 unless given).
 */
export function frozenAPIServer(
  o: { sim?: Partial<SimulationOptions>; namespaces?: readonly string[] } = {},
): { sim: Simulation; api: KubeAPIServer } {
  const sim = new Simulation({ seed: 1, ...o.sim });
  const api = new KubeAPIServer(sim, new EtcdStore());
  api.freeze = true;
  for (const name of o.namespaces ?? ['default'])
    api.create('test', 'namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    } as Namespace);
  return { sim, api };
}

/**
 * webDeploymentManifest is the `web` Deployment the kubectl, PodDisruptionBudget and disruption
 * tests apply: 3 replicas of nginx (image nginx:1.27 unless given) labelled app=web, with
 * containerPort 80 when port is set.
 */
export function webDeploymentManifest(o: { image?: string; port?: boolean } = {}): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
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
        image: ${o.image ?? 'nginx:1.27'}
${o.port ? '        ports:\n        - containerPort: 80\n' : ''}`;
}

/**
 * webScenario is a scenario (seed 1) that applies webDeploymentManifest() at 0 s, then its other
 * steps (scenario YAML, indented as a step), and runs until `until`.
 */
export function webScenario(name: string, o: { steps?: string; until?: string } = {}): string {
  const manifest = webDeploymentManifest()
    .trimEnd()
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
  return `name: ${name}
seed: 1
steps:
  - at: 0s
    apply: |
${manifest}
${o.steps ?? ''}until: ${o.until ?? '60s'}
`;
}

/**
 * netexecScenario is the packet path tests' scenario (seed 4, until 2m): three agnhost netexec
 * Pods (app=web, /hostname answers the Pod's name on 8080) behind Service web, Services with a
 * wrong targetPort (web-wrong-port), with sessionAffinity ClientIP (web-sticky) and with no
 * endpoints (nobody), and a curl client Pod; settings go under cluster.settings (proxyMode: ...).
 */
export function netexecScenario(name: string, settings: Record<string, string> = {}): string {
  const entries = Object.entries(settings);
  const cluster = entries.length
    ? `cluster:\n  settings:\n${entries.map(([k, v]) => `    ${k}: ${v}\n`).join('')}`
    : '';
  return `name: ${name}
seed: 4
${cluster}steps:
  - at: 0s
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
      spec:
        replicas: 3
        selector:
          matchLabels: {app: web}
        template:
          metadata:
            labels: {app: web}
          spec:
            containers:
              - name: netexec
                image: registry.k8s.io/e2e-test-images/agnhost:2.53
                args: [netexec, --http-port=8080]
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: web
      spec:
        selector: {app: web}
        ports:
          - port: 80
            targetPort: 8080
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: web-wrong-port
      spec:
        selector: {app: web}
        ports:
          - port: 80
            targetPort: 9090
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: web-sticky
      spec:
        selector: {app: web}
        sessionAffinity: ClientIP
        ports:
          - port: 80
            targetPort: 8080
      ---
      apiVersion: v1
      kind: Service
      metadata:
        name: nobody
      spec:
        selector: {app: nobody}
        ports:
          - port: 80
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: client
      spec:
        containers:
          - name: curl
            image: curlimages/curl:8.17.0
            command: [sleep, "3600"]
until: 2m
`;
}

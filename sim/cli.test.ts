// The command line as a user runs it: exit codes, stdout holding only the result, and errors
// that name the file, step, field, what was found and what was expected. The commands run
// in-process through main(argv, io) (STYLE.md §7); one smoke test spawns the real script.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './cli.ts';

const root = resolve(import.meta.dirname, '..');
const node = join(root, 'node_modules', '.bin', 'node');

// simIn runs the CLI as `npm run sim` would from the package root; env adds to (or, with
// undefined, removes from) the environment, which starts without npm's variables from an outer
// `npm test`.
function simIn(opts: { cwd?: string; env?: Record<string, string | undefined> }, ...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, INIT_CWD: undefined, npm_lifecycle_event: undefined, ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  let stdout = '';
  let stderr = '';
  const code = main(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd: opts.cwd ?? root,
    env,
    isTTY: false,
  });
  return { code, stdout, stderr };
}

function sim(...args: string[]) {
  return simIn({}, ...args);
}

function scenarioFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kal-cli-'));
  const f = join(dir, 'broken.yaml');
  writeFileSync(f, text);
  return f;
}

describe('sim CLI', () => {
  it('runs as a script: `node sim/cli.ts` prints the report on stdout and exits 0, or 2 with the error on stderr', () => {
    const env = { ...process.env, INIT_CWD: undefined, npm_lifecycle_event: undefined };
    const spawn = (...args: string[]) => spawnSync(node, [join(root, 'sim', 'cli.ts'), ...args], { cwd: root, encoding: 'utf8', env });
    const ok = spawn('run', 'content/scenarios/pending-pod.yaml', '--until', '1s');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('# scenario pending-pod (seed 5, until 1s)');
    expect(ok.stderr).toBe('');
    const bad = spawn('run', 'nope.yaml');
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('cannot read scenario file "nope.yaml": no such file');
  });
  it('prints one JSON object with the documented keys for --json', () => {
    const r = sim('run', 'content/scenarios/pending-pod.yaml', '--json', '--until', '15s');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['name', 'seed', 'until', 'objects', 'changes', 'trace', 'outputs']);
    expect(out.until).toBe(15);
    expect(Object.keys(out.objects).sort()).toEqual(['deployments', 'endpointslices', 'events', 'leases', 'nodes', 'pods', 'replicasets', 'services']);
    const pod = out.objects.pods.find((p: { metadata: { name: string } }) => p.metadata.name === 'big');
    expect(pod).toMatchObject({ apiVersion: 'v1', kind: 'Pod', status: { phase: 'Pending' } });
    expect(pod.metadata.uid).toBeTruthy();
    expect(out.changes[0]).toMatchObject({ t: 0, type: 'ADDED', resource: 'pods' });
    expect(out.outputs.map((o: { command: string }) => o.command)).toEqual(['kubectl apply -f -', 'kubectl get pods', 'kubectl describe pod big']);
    for (const e of out.trace) expect(e).toEqual(expect.objectContaining({ t: expect.any(Number), seq: expect.any(Number), kind: expect.any(String), from: expect.any(String), to: expect.any(String) }));
  });
  it('honours --seed and gives the same output for the same seed', () => {
    const a = sim('run', 'content/scenarios/apply-to-running.yaml', '--seed', '11', '--until', '5s');
    const b = sim('run', 'content/scenarios/apply-to-running.yaml', '--seed', '11', '--until', '5s');
    const c = sim('run', 'content/scenarios/apply-to-running.yaml', '--seed', '12', '--until', '5s');
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(c.stdout);
    expect(a.stdout).toContain('# scenario apply-to-running (seed 11, until 5s)');
  });
  it('prints a summary for --summary', () => {
    const r = sim('run', 'content/scenarios/apply-to-running.yaml', '--summary');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ name: 'apply-to-running', virtualEnd: 60, nodesByReady: { True: 4 } });
    expect(s.podsByPhase.Running).toBe(13);
    expect(s.podsTerminating).toBe(0);
    expect(typeof s.wallMs).toBe('number');
  });
  it('counts only real phases in podsByPhase, and Pods being deleted apart in podsTerminating', () => {
    const r = sim('run', 'content/scenarios/node-failure.yaml', '--summary');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    for (const k of Object.keys(s.podsByPhase)) expect(['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown']).toContain(k);
    // The evicted Pod on node-1 is Terminating but its phase stays Running, as in the API.
    expect(s.podsTerminating).toBe(1);
    expect(Object.values(s.podsByPhase as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(s.objects.pods);
  });
  it('exits 2 with a message naming the file, step, field, found and expected', () => {
    const f = scenarioFile('name: demo\nseed: 1\nuntil: 5m\nsteps:\n  - at: 30s\n    fault: explode\n    node: node-1\n');
    const r = sim('run', f);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${f}: invalid scenario`);
    expect(r.stderr).toContain('step 1 (at 30s): fault (line 6, column 12): found "explode", expected one of node-down, node-up');
  });
  it('exits 2 for a missing file and for bad flags', () => {
    expect(sim('run', 'nope.yaml').stderr).toContain('cannot read scenario file "nope.yaml": no such file');
    const r = sim('run', 'content/scenarios/pending-pod.yaml', '--until', 'soon');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--until: found "soon", expected a duration such as 90s, 5m or 1h30m');
    expect(sim('walk').code).toBe(2);
  });
  it('prints the usage on stderr with exit 2 when given no arguments, and on stdout for --help', () => {
    const none = sim();
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('Usage:');
    const help = sim('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage:');
    expect(help.stderr).toBe('');
  });
  it('rejects --json together with --summary', () => {
    for (const args of [['--json', '--summary'], ['--summary', '--json']]) {
      const r = sim('run', 'content/scenarios/pending-pod.yaml', ...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: --(json|summary) and --(json|summary) were both given; expected at most one of them/);
    }
    expect(sim('run', 'content/scenarios/pending-pod.yaml', '--json', '--json', '--until', '1s').code).toBe(0);
  });
  it('takes --until 90 as 90 seconds, as until: 90 in a file', () => {
    const r = sim('run', 'content/scenarios/pending-pod.yaml', '--json', '--until', '9');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).until).toBe(9);
    for (const bad of ['9x', '-9', '1m30']) expect(sim('run', 'content/scenarios/pending-pod.yaml', '--until', bad).stderr).toContain(`--until: found "${bad}", expected a duration such as 90s, 5m or 1h30m`);
  });
  it('accepts the seeds the scenario file accepts, and gives seeds equal modulo 2^32 different runs', () => {
    const run = (seed: string) => sim('run', 'content/scenarios/apply-to-running.yaml', '--json', '--until', '5s', '--seed', seed);
    const outs = ['1', '4294967297', '-4294967295'].map((seed) => {
      const r = run(seed);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(String(out.seed)).toBe(seed);
      return JSON.stringify(out.objects.pods.map((p: { metadata: { name: string } }) => p.metadata.name));
    });
    expect(new Set(outs).size).toBe(3);
    for (const seed of ['9007199254740993', '9007199254740992', '-9007199254740992', '1.5', '1e3']) {
      const r = run(seed);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--seed: found "${seed}", expected an integer such as 7, from -9007199254740991 to 9007199254740991`);
    }
    expect(run('9007199254740991').code).toBe(0);
  });
  it('reads a relative scenario path from the directory npm run was started in', () => {
    const fromScenarios = { cwd: root, env: { INIT_CWD: join(root, 'content', 'scenarios'), npm_lifecycle_event: 'sim' } };
    const r = simIn(fromScenarios, 'run', 'pending-pod.yaml', '--until', '1s');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# scenario pending-pod');
    const missing = simIn(fromScenarios, 'run', 'nope.yaml');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read scenario file "nope.yaml": no such file (looked for ${join(root, 'content', 'scenarios', 'nope.yaml')})`);
    // Without npm (or under another npm script), the process's own directory.
    expect(simIn({ cwd: join(root, 'content') }, 'run', 'scenarios/pending-pod.yaml', '--until', '1s').code).toBe(0);
    expect(simIn({ cwd: root, env: { INIT_CWD: '/nonexistent', npm_lifecycle_event: 'test' } }, 'run', 'content/scenarios/pending-pod.yaml', '--until', '1s').code).toBe(0);
  });
  it('exits 2 for a broken node entry or a node on a step that takes none', () => {
    const f = scenarioFile('name: demo\nseed: 1\nuntil: 1m\ncluster:\n  nodes:\n    - name: node-1\n      cpu: "-4"\n    - name: node-2\n      taints:\n        - {key: a, effect: Bogus}\nsteps:\n  - at: 1s\n    kubectl: get pods\n    node: node-1\n');
    const r = sim('run', f);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${f}: invalid scenario`);
    expect(r.stderr).toContain('cluster.nodes[0].cpu (line 7, column 12): found "-4", expected a positive Kubernetes quantity such as "4" or "500m"');
    expect(r.stderr).toContain('cluster.nodes[1].taints[0].effect (line 10, column 28): found "Bogus", expected one of NoSchedule, PreferNoSchedule, NoExecute');
    expect(r.stderr).toContain('step 1 (at 1s): node (line 14, column 11): found node "node-1" on a kubectl step, which does not use a node');
  });
  it('fills {{name}} placeholders from --param, and exits 2 naming the ones left unfilled', () => {
    const f = scenarioFile('name: demo\nseed: 1\nuntil: 5s\nsteps:\n  - at: 1s\n    kubectl: get deployment {{dep}}\n  - at: 2s\n    kubectl: scale deployment web --replicas={{n}}\n');
    const missing = sim('run', f, '--json');
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain(`${f}: this scenario takes parameters that were not given: dep, n`);
    expect(missing.stderr).toContain('line 6: {{dep}}');
    expect(missing.stderr).toContain('--param dep=1 --param n=1');
    const typo = sim('run', f, '--param', 'dpe=web');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--param dpe: the scenario has no {{dpe}} placeholder (it has: dep, n)');
    expect(sim('run', f, '--param', 'no-equals').stderr).toContain('expected name=value');
    const ok = sim('run', f, '--json', '--param', 'dep=web', '--param=n=2');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).outputs.map((o: { command: string }) => o.command)).toEqual(['kubectl get deployment web', 'kubectl scale deployment web --replicas=2']);
  });
  it('keeps running when a kubectl step is wrong, recording kubectl\'s error', () => {
    const f = scenarioFile('name: demo\nseed: 1\nuntil: 5s\nsteps:\n  - at: 1s\n    kubectl: get pods nope\n  - at: 2s\n    apply: "kind: Deployment\\n"\n');
    const r = sim('run', f, '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.outputs[0]).toMatchObject({ exitCode: 1, stderr: 'Error from server (NotFound): pods "nope" not found\n' });
    expect(out.outputs[1].exitCode).not.toBe(0);
    expect(out.outputs[1].stderr).toMatch(/^error: /);
  });
});

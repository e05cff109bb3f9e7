import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Node, Pod } from '../api/types.ts';
import { restore, snapshot } from '../scenario/snapshot.ts';
import { watchRows } from './kubectl.ts';

const YAML = parse(
  readFileSync(new URL('../../content/scenarios/node-failure.yaml', import.meta.url), 'utf8'),
);

/** at plays node-failure (seed 7) to ms, with the scenario's own steps. */
const at = (ms: number) => restore(snapshot(YAML, 7, ms, []));

const webPod = (run: ReturnType<typeof at>, node?: string) =>
  run.cluster.apiserver
    .peekAll<Pod>('pods')
    .find((p) => p.metadata.name.startsWith('web-') && (!node || p.spec.nodeName === node))!;

const webPodIP = (run: ReturnType<typeof at>, name: string) =>
  run.cluster.apiserver.peekAll<Pod>('pods').find((p) => p.metadata.name === name)!.status!.podIP!;

const SERVICE = (name: string) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector: {app: web}\n  ports:\n    - port: 80\n`;

describe('kubectl logs', () => {
  const run = at(30_000);
  const pod = webPod(run).metadata.name;

  it('prints a running container’s (empty) log', () => {
    expect(run.cluster.kubectl(`logs ${pod}`)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(run.cluster.kubectl(`logs pod/${pod} -c nginx`).exitCode).toBe(0);
  });

  it('refuses a container the Pod does not have, and a Pod that does not exist', () => {
    expect(run.cluster.kubectl(`logs ${pod} -c nope`).stderr).toBe(
      `error: container nope is not valid for pod ${pod}\n`,
    );
    expect(run.cluster.kubectl('logs nope').stderr).toBe(
      'Error from server (NotFound): pods "nope" not found\n',
    );
    expect(run.cluster.kubectl('logs').stderr).toBe(
      "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n",
    );
  });

  it('cannot reach the kubelet of a stopped node', () => {
    const r = at(30_000);
    const p = webPod(r, 'node-1');
    r.cluster.fault('node-down', 'node-1');
    const ip = r.cluster.apiserver
      .peekAll<Node>('nodes')
      .find((n) => n.metadata.name === 'node-1')!
      .status!.addresses!.find((a) => a.type === 'InternalIP')!.address;
    expect(r.cluster.kubectl(`logs ${p.metadata.name}`).stderr).toBe(
      `Error from server: Get "https://${ip}:10250/containerLogs/default/${p.metadata.name}/nginx": dial tcp ${ip}:10250: connect: no route to host\n`,
    );
  });
});

describe('kubectl exec', () => {
  const run = at(30_000);
  const pod = webPod(run).metadata.name;

  it('runs the commands a simulated container answers', () => {
    expect(run.cluster.kubectl(`exec ${pod} -- hostname`).stdout).toBe(`${pod}\n`);
    expect(run.cluster.kubectl(`exec ${pod} -- cat /etc/resolv.conf`).stdout).toMatch(
      /^search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local\nnameserver 10\.96\.0\.10\noptions ndots:5\n$/,
    );
    expect(run.cluster.kubectl(`exec ${pod} -- false`)).toEqual({
      stdout: '',
      stderr: 'command terminated with exit code 1\n',
      exitCode: 1,
    });
  });

  it('runs sh -c scripts with the image’s shell: nginx is Debian’s dash', () => {
    const out = run.cluster.kubectl(
      `exec ${pod} -- sh -c 'for i in $(seq 3); do echo hello $i; done; hostname'`,
    );
    expect(out).toEqual({ stdout: `hello 1\nhello 2\nhello 3\n${pod}\n`, stderr: '', exitCode: 0 });
    // kubectl exits with the remote command's status and says so.
    expect(run.cluster.kubectl(`exec ${pod} -- sh -c 'echo a && exit 3'`)).toEqual({
      stdout: 'a\n',
      stderr: 'command terminated with exit code 3\n',
      exitCode: 3,
    });
    const typo = run.cluster.kubectl(`exec ${pod} -- sh -c 'ech hi'`);
    expect(typo.stderr).toMatch(/^sh: 1: ech: not found\n\(the simulated container runs only /);
    expect(typo.stderr.endsWith('command terminated with exit code 127\n')).toBe(true);
    expect(run.cluster.kubectl(`exec ${pod} -- cat /nope`).stderr).toBe(
      'cat: /nope: No such file or directory\ncommand terminated with exit code 1\n',
    );
  });

  it('gives the container the kubelet’s service variables and /etc/hosts', () => {
    const env = run.cluster.kubectl(`exec ${pod} -- env`).stdout;
    expect(env).toContain(`HOSTNAME=${pod}\n`);
    // The kubernetes Service of default, as every container gets (envvars.FromServices).
    for (const line of [
      'KUBERNETES_SERVICE_HOST=10.96.0.1',
      'KUBERNETES_SERVICE_PORT=443',
      'KUBERNETES_SERVICE_PORT_HTTPS=443',
      'KUBERNETES_PORT=tcp://10.96.0.1:443',
      'KUBERNETES_PORT_443_TCP=tcp://10.96.0.1:443',
      'KUBERNETES_PORT_443_TCP_PROTO=tcp',
      'KUBERNETES_PORT_443_TCP_PORT=443',
      'KUBERNETES_PORT_443_TCP_ADDR=10.96.0.1',
    ])
      expect(env).toContain(`${line}\n`);
    // kube-system's kube-dns is not in default: no variables for it.
    expect(env).not.toContain('KUBE_DNS');
    expect(run.cluster.kubectl(`exec ${pod} -- printenv KUBERNETES_SERVICE_HOST`).stdout).toBe(
      '10.96.0.1\n',
    );
    const ip = webPodIP(run, pod);
    expect(run.cluster.kubectl(`exec ${pod} -- cat /etc/hosts`).stdout).toBe(
      `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n${ip}\t${pod}\n`,
    );
  });

  it('a Service is in the environment of containers started after it, not before', () => {
    const r = at(30_000);
    const before = webPod(r).metadata.name;
    r.cluster.kubectl('apply -f -', SERVICE('late-web'));
    r.runUntil(32_000);
    r.cluster.kubectl('scale deployment web --replicas=6');
    r.runUntil(60_000);
    const after = r.cluster.apiserver
      .peekAll<Pod>('pods')
      .filter((p) => p.metadata.name.startsWith('web-') && p.status?.phase === 'Running')
      .map((p) => p.metadata.name)
      .filter((n) => n !== before)
      .find((n) => r.cluster.kubectl(`exec ${n} -- env`).stdout.includes('LATE_WEB_SERVICE_HOST='));
    expect(after).toBeDefined();
    const env = r.cluster.kubectl(`exec ${after} -- env`).stdout;
    expect(env).toMatch(/^LATE_WEB_PORT_80_TCP=tcp:\/\/10\.\d+\.\d+\.\d+:80$/m);
    expect(env).toContain('LATE_WEB_SERVICE_PORT=80\n');
    expect(r.cluster.kubectl(`exec ${before} -- env`).stdout).not.toContain('LATE_WEB');
  });

  it('sleep lets virtual time pass while the cluster runs', () => {
    const r = at(30_000);
    const p = webPod(r).metadata.name;
    r.cluster.kubectl(`exec ${p} -- sh -c 'sleep 2; sleep 1m'`);
    expect(r.cluster.sim.now()).toBe(92_000);
  });

  it('a program the model does not run is said so, not faked', () => {
    const out = run.cluster.kubectl(`exec ${pod} -- ls /`);
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toMatch(/^error: kubectl exec runs only cat, curl, echo, env, /);
  });

  it('prints kubectl’s errors for a missing "--", command or container', () => {
    expect(run.cluster.kubectl(`exec ${pod} hostname`).stderr).toBe(
      "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl exec -h' for help and examples\n",
    );
    expect(run.cluster.kubectl(`exec ${pod} --`).stderr).toBe(
      'error: you must specify at least one command for the container\n',
    );
    expect(run.cluster.kubectl(`exec ${pod} -c nope -- hostname`).stderr).toBe(
      `error: container nope not found in pod ${pod}\n`,
    );
  });

  it('refuses a container that is not running yet', () => {
    const r = at(30_000);
    r.cluster.kubectl('scale deployment web --replicas=6');
    // Play on until a new Pod is bound but its container has not started.
    for (let t = 30_100; t < 40_000; t += 100) {
      r.runUntil(t);
      const p = r.cluster.apiserver
        .peekAll<Pod>('pods')
        .find((x) => x.spec.nodeName && !x.status?.containerStatuses?.[0]?.state?.running);
      if (!p) continue;
      const out = r.cluster.kubectl(`exec ${p.metadata.name} -- hostname`);
      expect(out.stderr).toBe(
        'error: unable to upgrade connection: container not found ("nginx")\n',
      );
      return;
    }
    throw new Error('no Pod was seen starting');
  });
});

describe('kubectl get -w', () => {
  it('lists, then prints one row per change, without a header', () => {
    const r = at(30_000);
    const out = r.cluster.kubectl('get deployments -w');
    expect(out.stdout).toMatch(/^NAME\s+READY/);
    expect(out.watch).toEqual({
      resource: 'deployments',
      namespace: 'default',
      wide: false,
      withNamespace: false,
    });
    const from = r.cluster.apiserver.changes.length;
    r.cluster.kubectl('scale deployment web --replicas=4');
    r.runUntil(40_000);
    const rows = watchRows(
      out.watch!,
      r.cluster.apiserver.changes.slice(from),
      r.cluster.sim.now(),
    );
    const lines = rows.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => /^web {3}\d\/4 /.test(l))).toBe(true);
    // Each row is laid out alone (tab writer minwidth 6, padding 3), not under the header.
    expect(lines.at(-1)).toMatch(/^web {3}4\/4 {3}4 {5}4 {5}\d+s$/);
  });

  it('refuses two resource types', () => {
    expect(at(30_000).cluster.kubectl('get pods,deployments -w').stderr).toBe(
      'error: watch is only supported on individual resources and resource collections, but 2 resources were found\n',
    );
  });
});

describe('kubectl apply -f - with several documents', () => {
  it('numbers a YAML error’s line from the start of its own document, after the "---"', () => {
    const r = at(30_000);
    const bad =
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: hello\nspec:\n  selector:\n    app: hello\n   ports:\n  - port: 80\n';
    const one = r.cluster.kubectl('apply -f -', bad).stderr;
    const two = r.cluster.kubectl(
      'apply -f -',
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\n${bad}`,
    ).stderr;
    expect(one).toMatch(
      /^error: error parsing STDIN: error converting YAML to JSON: yaml: line \d+: /,
    );
    expect(two).toBe(one);
  });
});

import { describe, expect, it } from 'vitest';
import { Simulation } from '../engine/simulation.ts';
import type { CallEntry } from '../engine/trace.ts';
import { ContainerRuntime, type CRIContainer } from './container-runtime.ts';
import { ImageCatalog, imageID } from './images.ts';

function setup(overrides = {}) {
  const sim = new Simulation({ seed: 3 });
  const rt = new ContainerRuntime(sim, {
    nodeName: 'node-1',
    podCIDR: '10.244.1.0/24',
    internalIP: '10.0.0.11',
    images: new ImageCatalog(overrides),
    preloaded: ['nginx:1.27'],
  });
  return { sim, rt };
}

const K = 'kubelet@node-1';

describe('ContainerRuntime (CRI)', () => {
  it('RunPodSandbox takes sandboxStartLatency, calls CNI ADD and yields a 64-hex ID', () => {
    const { sim, rt } = setup();
    let id = '';
    rt.runPodSandbox(K, { name: 'web', namespace: 'default', uid: 'u1', attempt: 0 }, (err, r) => {
      expect(err).toBeUndefined();
      id = r;
    });
    sim.runUntil(599);
    expect(id).toBe('');
    sim.runUntil(600);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(rt.podSandboxes('u1')[0]).toMatchObject({ state: 'SANDBOX_READY', ip: '10.244.1.2' });
    const calls = sim.trace.filter((e): e is CallEntry => e.kind === 'call');
    expect(calls.map((c) => `${c.from} ${c.method}`)).toEqual([
      'kubelet@node-1 RunPodSandbox',
      'container-runtime@node-1 ADD',
    ]);
  });

  it('a hostNetwork sandbox uses the node IP and no CNI call', () => {
    const { sim, rt } = setup();
    rt.runPodSandbox(
      K,
      { name: 'kube-proxy-x', namespace: 'kube-system', uid: 'u1', attempt: 0, hostNetwork: true },
      () => {},
    );
    sim.runUntil(1000);
    expect(rt.podSandboxes('u1')[0].ip).toBe('10.0.0.11');
    expect(
      sim.trace.filter((e) => e.kind === 'call').map((e) => (e.kind === 'call' ? e.method : '')),
    ).toEqual(['RunPodSandbox']);
  });

  it('PullImage costs base + size/throughput when absent, base when present', () => {
    const { sim, rt } = setup();
    expect(rt.pullDuration('nginx:1.27')).toBe(500);
    expect(rt.pullDuration('redis:7')).toBe(
      500 + Math.round((45_002_119 / (40 * 1024 * 1024)) * 1000),
    );
    let ref = '';
    rt.pullImage(K, 'redis:7', (err, r) => {
      expect(err).toBeUndefined();
      ref = r.imageRef;
    });
    sim.runUntil(rt.pullDuration('redis:7') - 1);
    expect(ref).toBe('');
    sim.runUntil(5000);
    expect(ref).toBe(imageID('redis:7'));
    expect(rt.imageStatus(undefined, 'docker.io/library/redis:7')).toBeDefined();
  });

  it('a failing pull answers with the error after a registry round trip', () => {
    const { sim, rt } = setup();
    let err: string | undefined;
    rt.pullImage(K, 'nginx:doesnotexist', (e) => (err = e));
    sim.runUntil(500);
    expect(err).toContain('not found');
    expect(rt.imageStatus(undefined, 'nginx:doesnotexist')).toBeUndefined();
  });

  function runContainer(overrides = {}, image = 'nginx:1.27', command?: string[]) {
    const { sim, rt } = setup(overrides);
    rt.preloadImages([image]);
    let cid = '';
    rt.runPodSandbox(K, { name: 'p', namespace: 'default', uid: 'u', attempt: 0 }, (_e, sb) =>
      rt.createContainer(K, sb, { name: 'c', attempt: 0, image, command }, (_e2, id) => {
        cid = id;
        rt.startContainer(K, id, () => {});
      }),
    );
    sim.runUntil(1000);
    return { sim, rt, c: () => rt.getContainer(cid) as CRIContainer };
  }

  it('CreateContainer + StartContainer take containerStartLatency; crashes exit on schedule and notify', () => {
    const { sim, rt, c } = runContainer(
      { 'crashy:1': { crashAfter: '5s', exitCode: 3 } },
      'crashy:1',
    );
    expect(c()).toMatchObject({
      state: 'CONTAINER_RUNNING',
      startedAt: 900,
      metadata: { name: 'c', attempt: 0 },
    });
    const exits: CRIContainer[] = [];
    rt.onContainerExit = (x) => exits.push(x);
    sim.runUntil(5_900);
    expect(c()).toMatchObject({
      state: 'CONTAINER_EXITED',
      exitCode: 3,
      reason: 'Error',
      finishedAt: 5_900,
    });
    expect(exits).toHaveLength(1);
  });

  it('StopContainer: graceful exit 0 after containerStopLatency, or SIGKILL 137 at the timeout', () => {
    const a = runContainer();
    let done = -1;
    a.rt.stopContainer(K, a.c().id, 30, () => (done = a.sim.now()));
    a.sim.runUntil(3000);
    expect(done).toBe(1500);
    expect(a.c()).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed' });

    const b = runContainer({}, 'busybox:1.36', ['sleep', '3600']);
    b.rt.stopContainer(K, b.c().id, 30, () => (done = b.sim.now()));
    b.sim.runUntil(40_000);
    expect(done).toBe(31_000);
    expect(b.c()).toMatchObject({ exitCode: 137, reason: 'Error' });
  });

  it('StopPodSandbox releases the IP; RemovePodSandbox removes sandbox and containers', () => {
    const { sim, rt, c } = runContainer();
    const sb = c().podSandboxId;
    rt.stopPodSandbox(K, sb, () => {});
    sim.runUntil(1200);
    expect(rt.cni.allocatedCount).toBe(0);
    expect(rt.podSandboxes('u')[0].state).toBe('SANDBOX_NOTREADY');
    expect(c().exitCode).toBe(137);
    rt.removePodSandbox(K, sb, () => {});
    sim.runUntil(1300);
    expect(rt.listPodSandbox()).toHaveLength(0);
    expect(rt.listContainers()).toHaveLength(0);
  });

  it('powerOff forgets sandboxes, containers and IPs but keeps images; powerOn changes the boot ID', () => {
    const { rt } = runContainer();
    const boot = rt.bootID;
    rt.powerOff();
    expect(rt.listContainers()).toHaveLength(0);
    expect(rt.cni.allocatedCount).toBe(0);
    let err: string | undefined;
    rt.runPodSandbox(
      K,
      { name: 'p', namespace: 'default', uid: 'u', attempt: 0 },
      (e) => (err = e),
    );
    expect(err).toContain('Unavailable');
    rt.powerOn();
    expect(rt.bootID).not.toBe(boot);
    expect(rt.imageStatus(undefined, 'nginx:1.27')).toBeDefined();
  });

  it('adopt registers a running pod with its IP, without trace entries', () => {
    const { sim, rt } = setup();
    rt.adopt({ name: 'dns', namespace: 'kube-system', uid: 'u9', attempt: 0, ip: '10.244.1.40' }, [
      { name: 'coredns', attempt: 2, image: 'registry.k8s.io/coredns/coredns:v1.12.0' },
    ]);
    expect(sim.trace).toHaveLength(0);
    expect(rt.podContainers('u9')[0]).toMatchObject({
      state: 'CONTAINER_RUNNING',
      metadata: { attempt: 2 },
    });
    expect(rt.cni.add(K, 'other', 'x')).toBe('10.244.1.41');
  });
});

/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { golden, runNamed as run } from './testing.ts';
import type { Pod } from '../api/types.ts';
import { sequenceDiagram, waitLabel, type SequenceStep } from './sequence.ts';

const apply = run('apply-to-running', 1);
const failure = run('node-failure', 7);

/** indexOf finds the first arrow after `after` that satisfies pred. */
function indexOf(steps: SequenceStep[], pred: (s: SequenceStep) => boolean, after = -1): number {
  return steps.findIndex((s, i) => i > after && s.kind !== 'note' && pred(s));
}

describe('sequenceDiagram: one Pod of apply-to-running (seed 1)', () => {
  const d = sequenceDiagram(apply, {
    follow: { resource: 'pods', namespace: 'default', label: 'app=web', index: 0 },
    number: true,
    waitNotes: true,
  });

  it('matches the golden Mermaid text', () => {
    golden('apply-to-running.sequence-pod.mmd', d.mermaid);
  });

  it('follows the first Pod the ReplicaSet created', () => {
    const firstPod = apply.changes.find(
      (c) => c.resource === 'pods' && c.type === 'ADDED' && c.object.metadata.labels?.app === 'web',
    )!;
    expect(d.targets).toEqual([
      { resource: 'pods', namespace: 'default', name: firstPod.object.metadata.name },
    ]);
  });

  it('shows create pods, the binding, RunPodSandbox and the status update, in that order', () => {
    const pod = apply.objects.pods!.find((p) => p.metadata.name === d.targets[0].name) as Pod;
    const node = pod.spec.nodeName!;
    const s = d.steps;
    const create = indexOf(
      s,
      (x) =>
        x.from === 'replicaset-controller' &&
        x.to === 'kube-apiserver' &&
        x.text.startsWith('create pods') &&
        !x.text.startsWith('create pods/'),
    );
    const bind = indexOf(
      s,
      (x) => x.from === 'kube-scheduler' && x.text.startsWith('create pods/binding'),
      create,
    );
    const sandbox = indexOf(
      s,
      (x) =>
        x.from === `kubelet@${node}` &&
        x.to === `container-runtime@${node}` &&
        x.text.startsWith('RunPodSandbox'),
      bind,
    );
    const status = indexOf(
      s,
      (x) => x.from === `kubelet@${node}` && /^(update|patch) pods\/status/.test(x.text),
      sandbox,
    );
    expect(create).toBeGreaterThanOrEqual(0);
    expect(bind).toBeGreaterThan(create);
    expect(sandbox).toBeGreaterThan(bind);
    expect(status).toBeGreaterThan(sandbox);
  });

  it('includes the causes: the Deployment and the ReplicaSet being created', () => {
    const texts = d.steps.map((s) => `${s.from} ${s.text}`);
    expect(texts).toContain('kubectl create deployments web');
    expect(texts.some((t) => t.startsWith('deployment-controller create replicasets web-'))).toBe(
      true,
    );
    expect(texts.some((t) => t.startsWith('kube-apiserver watch: ADDED ReplicaSet'))).toBe(true);
  });

  it('draws watch events dotted and everything else solid, with safe participant ids', () => {
    for (const s of d.steps) expect(s.dotted).toBe(s.kind === 'watch');
    expect(d.mermaid).toMatch(/-->>kubelet_node_\d: watch: ADDED Pod/);
    expect(d.mermaid).toMatch(/participant kubelet_node_\d as kubelet@node-\d/);
    expect(d.mermaid).toContain('accTitle: ');
    expect(d.mermaid).toContain('accDescr: ');
    expect(d.mermaid).toContain('  autonumber\n');
    for (const p of d.participants) expect(p.id).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
  });

  it('numbers arrows as autonumber does, and never mentions other Pods', () => {
    const arrows = d.steps.filter((s) => s.kind !== 'note');
    expect(arrows.map((s) => s.n)).toEqual(arrows.map((_, i) => i + 1));
    const others = apply.objects.pods!.filter(
      (p) => p.metadata.labels?.app === 'web' && p.metadata.name !== d.targets[0].name,
    );
    for (const p of others) expect(d.mermaid).not.toContain(p.metadata.name);
  });
});

describe('sequenceDiagram: node-failure (seed 7) around the failure', () => {
  const d = sequenceDiagram(failure, {
    follow: [
      { resource: 'nodes', name: 'node-1' },
      { resource: 'leases', namespace: 'kube-node-lease', name: 'node-1' },
      { resource: 'pods', namespace: 'default', label: 'app=web', node: 'node-1' },
    ],
    participants: [
      'kubelet@node-1',
      'kube-apiserver',
      'node-lifecycle-controller',
      'taint-eviction-controller',
    ],
    from: 45,
    to: 420,
    waitNotes: true,
    collapseWatches: true,
    fields: true,
  });

  it('matches the golden Mermaid text', () => {
    golden('node-failure.sequence-window.mmd', d.mermaid);
  });

  it('explains the waits: node-monitor-grace-period, then the 300 s toleration', () => {
    const notes = d.notes.map((n) => n.text);
    const grace = notes.findIndex((n) => n.endsWith('later: node-monitor-grace-period'));
    const toleration = notes.findIndex((n) =>
      n.includes('later: default toleration (tolerationSeconds: 300)'),
    );
    expect(grace).toBeGreaterThanOrEqual(0);
    expect(toleration).toBeGreaterThan(grace);
    expect(notes).toContain('fault: node-down node-1');
  });

  it('stays inside the window and the chosen lifelines', () => {
    for (const s of d.steps) {
      expect(s.t).toBeGreaterThanOrEqual(45);
      expect(s.t).toBeLessThanOrEqual(420);
    }
    expect(d.participants.map((p) => p.label)).toEqual([
      'kubelet@node-1',
      'kube-apiserver',
      'node-lifecycle-controller',
      'taint-eviction-controller',
    ]);
  });

  it('shows the node going Unknown, the taints, and the eviction', () => {
    const texts = d.steps.map((s) => `${s.from}: ${s.text}`);
    expect(texts).toContain('node-lifecycle-controller: update nodes/status (status.conditions)');
    expect(texts).toContain('node-lifecycle-controller: patch nodes (spec.taints)');
    expect(texts.some((t) => t.startsWith('taint-eviction-controller: delete pods'))).toBe(true);
  });
});

describe('sequenceDiagram options', () => {
  it('collapseWatches keeps every delivery but draws fewer arrows', () => {
    const window = { from: 0, to: 0.01, etcd: false };
    const all = sequenceDiagram(apply, window);
    const collapsed = sequenceDiagram(apply, { ...window, collapseWatches: true });
    const watchSeqs = (d: ReturnType<typeof sequenceDiagram>) =>
      d.steps.filter((s) => s.kind === 'watch').flatMap((s) => s.seqs);
    expect(collapsed.steps.length).toBeLessThan(all.steps.length);
    expect(watchSeqs(collapsed).sort((a, b) => a - b)).toEqual(
      watchSeqs(all).sort((a, b) => a - b),
    );
    expect(collapsed.mermaid).toMatch(/watch: ADDED Pod ×3/);
  });

  it('participants accept a trailing * and keep their given order', () => {
    const d = sequenceDiagram(apply, { participants: ['kubelet@*', 'kube-apiserver'], to: 5 });
    const labels = d.participants.map((p) => p.label);
    expect(labels[labels.length - 1]).toBe('kube-apiserver');
    expect(labels.slice(0, -1).every((l) => l.startsWith('kubelet@'))).toBe(true);
    for (const s of d.steps) if (s.kind !== 'note') expect(labels).toContain(s.from);
  });

  it('maxSteps caps arrows and says how many were left out', () => {
    const d = sequenceDiagram(apply, { maxSteps: 10 });
    expect(d.steps.filter((s) => s.kind !== 'note').length).toBe(10);
    expect(d.steps[d.steps.length - 1].text).toMatch(/^… \d+ more messages not shown$/);
  });

  it('is deterministic', () => {
    const a = sequenceDiagram(apply, { follow: { resource: 'pods', label: 'app=web', index: 2 } });
    const b = sequenceDiagram(apply, { follow: { resource: 'pods', label: 'app=web', index: 2 } });
    expect(a).toEqual(b);
  });

  it('rejects a follow that designates nothing', () => {
    expect(() =>
      sequenceDiagram(apply, { follow: { resource: 'pods', label: 'app=web', index: 3 } }),
    ).toThrow(/found 3 objects, expected one at index 3/);
  });
});

describe('maxParticipants', () => {
  it('keeps kube-apiserver and the busiest lifelines, in canonical order, and names the rest', () => {
    const follow = { resource: 'pods', namespace: 'default', label: 'app=web', index: 0 };
    const all = sequenceDiagram(apply, { follow });
    const capped = sequenceDiagram(apply, { follow, maxParticipants: 5 });
    expect(all.participants.length).toBeGreaterThan(5);
    const labels = capped.participants.map((p) => p.label);
    expect(labels).toHaveLength(5);
    expect(labels).toContain('kube-apiserver');
    // Canonical order is kept among the survivors.
    const order = all.participants.map((p) => p.label);
    expect(labels).toEqual(order.filter((p) => labels.includes(p)));
    expect(capped.hiddenParticipants).toEqual(order.filter((p) => !labels.includes(p)));
    // Every arrow left is between two shown lifelines.
    for (const s of capped.steps) {
      expect(labels).toContain(s.from);
      expect(labels).toContain(s.to);
    }
    // Explicit participants are never capped.
    const explicit = sequenceDiagram(apply, {
      follow,
      maxParticipants: 2,
      participants: ['kubectl', 'kube-apiserver', 'etcd'],
    });
    expect(explicit.participants.map((p) => p.label)).toEqual([
      'kubectl',
      'kube-apiserver',
      'etcd',
    ]);
    expect(explicit.hiddenParticipants).toEqual([]);
  });
});

describe('waitLabel', () => {
  it('names gaps that match a setting, and only those', () => {
    expect(waitLabel(50)).toBe('50 s later: node-monitor-grace-period');
    expect(waitLabel(57.85)).toBe('57.85 s later: node-monitor-grace-period');
    expect(waitLabel(300.002)).toBe('300.002 s later: default toleration (tolerationSeconds: 300)');
    // Times print to the millisecond, never rounded to "0" or to a neighbouring moment.
    expect(waitLabel(0.004)).toBe('0.004 s later');
    expect(waitLabel(10.2)).toBe('10.2 s later: lease renew interval');
    expect(waitLabel(20)).toBe('20 s later');
    expect(waitLabel(120)).toBe('120 s later');
  });
});

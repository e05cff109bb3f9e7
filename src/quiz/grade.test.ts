// Unit tests of every grader kind, the variant dealer and the input checks. Keys come from real
// simulator runs of the demo questions (content/questions/demo.yaml).
import { describe, expect, it } from 'vitest';
import { loadQuestions, type LoadedQuestion } from './load.ts';
import {
  commandLines,
  computeKey,
  computeKeySteps,
  consoleLine,
  drive,
  grade,
  parseNumber,
  redact,
  runVariantSteps,
  solutionOf,
  taskStartSteps,
  variantOf,
  fill,
  type Keyed,
} from './grade.ts';
import { ScenarioRun, parseScenario } from '../../sim/index.ts';
import { localOutput } from '../lib/console.ts';

const all = loadQuestions();
const byId = (id: string): LoadedQuestion => {
  const lq = all.find((q) => q.question.id === id);
  if (!lq) throw new Error(`no question ${id}`);
  return lq;
};
const keys = new Map<string, Keyed>();
const keyOf = (id: string): Keyed => {
  if (!keys.has(id)) {
    const lq = byId(id);
    keys.set(id, computeKey(lq.question, lq.scenarioYaml, variantOf(lq.question, 0)));
  }
  return keys.get(id)!;
};

describe('variantOf', () => {
  it('deals the same variant for the same number, within the seed range', () => {
    const q = byId('demo-who-binds').question;
    expect(variantOf(q, 7)).toEqual(variantOf(q, 7));
    const seeds = new Set(Array.from({ length: 50 }, (_, v) => variantOf(q, v).seed));
    expect(seeds.size).toBeGreaterThan(10);
    for (const s of seeds) expect(s >= 1 && s <= 40).toBe(true);
  });
});

describe('computeKeySteps', () => {
  it('pauses between slices of virtual time, and two keys worked out in turns equal keys worked out at once', () => {
    const a = byId('demo-replacement-seconds');
    const b = byId('demo-predict-partition');
    const ga = computeKeySteps(a.question, a.scenarioYaml, variantOf(a.question, 3));
    const gb = computeKeySteps(b.question, b.scenarioYaml, variantOf(b.question, 5));
    let ra = ga.next();
    let rb = gb.next();
    let pauses = 0;
    while (!ra.done || !rb.done) {
      if (!ra.done) ra = ga.next();
      if (!rb.done) rb = gb.next();
      pauses++;
    }
    expect(pauses).toBeGreaterThan(20);
    const once = (lq: LoadedQuestion, v: number) =>
      computeKey(lq.question, lq.scenarioYaml, variantOf(lq.question, v));
    for (const [sliced, whole] of [
      [ra.value, once(a, 3)],
      [rb.value, once(b, 5)],
    ] as const) {
      expect(sliced.key).toEqual(whole.key);
      expect(sliced.values).toEqual(whole.values);
      expect(JSON.stringify(sliced.run)).toBe(JSON.stringify(whole.run));
    }
  });

  it('plays the same run as the scenario played in one go', () => {
    const lq = byId('demo-replacement-seconds');
    const variant = variantOf(lq.question, 2);
    const k = computeKey(lq.question, lq.scenarioYaml, variant);
    const whole = new ScenarioRun(parseScenario(lq.scenarioYaml!, 'scenario'), {
      seed: variant.seed,
      traceLevel: 'requests',
    }).run();
    expect(k.run!.trace.filter((e) => e.kind === 'request').length).toBe(
      whole.cluster.sim.trace.filter((e) => e.kind === 'request').length,
    );
    expect(JSON.stringify(k.run!.changes)).toBe(JSON.stringify(whole.cluster.apiserver.changes));
  });
});

describe('taskStartSteps', () => {
  it('grades an answer from a task played to its start exactly as from scratch, right or wrong', () => {
    const lq = byId('demo-task-pending');
    const q = lq.question;
    const k = computeKey(q, lq.scenarioYaml, variantOf(q, 4));
    for (const commands of [
      'label nodes node-2 disktype=ssd',
      'get pods\nlabel nodes node-1 disktype=ssd',
    ]) {
      const start = drive(taskStartSteps(q, lq.scenarioYaml!, k.variant));
      expect(start.run.cluster.sim.now()).toBe(30_000);
      const fresh = grade(q, k, { kind: 'task', commands }, lq.scenarioYaml);
      const fromStart = grade(q, k, { kind: 'task', commands }, lq.scenarioYaml, start);
      expect(fromStart).toEqual(fresh);
      // The start was played on, not replaced by a run from scratch.
      if (q.kind === 'task') expect(start.run.cluster.sim.now()).toBe((q.start + q.settle) * 1000);
    }
  });

  it('serves a console request (commands at the start, no settling) as a fresh run would', () => {
    const lq = byId('demo-task-pending');
    const q = lq.question;
    if (q.kind !== 'task') throw new Error('not a task');
    const variant = variantOf(q, 2);
    const req = {
      commands: { at: q.start, lines: ['get pods', 'describe nodes node-2'] },
      until: q.start * 1000,
    };
    const fresh = drive(runVariantSteps(lq.scenarioYaml!, variant, req));
    const fromStart = drive(
      runVariantSteps(
        lq.scenarioYaml!,
        variant,
        req,
        drive(taskStartSteps(q, lq.scenarioYaml!, variant)),
      ),
    );
    expect(fromStart.outputs).toEqual(fresh.outputs);
    expect(fromStart.until).toBe(fresh.until);
  });
});

describe('choice', () => {
  const id = 'demo-who-binds';
  it('takes the key from the trace: kube-scheduler creates pods/binding', () => {
    expect(keyOf(id).key).toEqual({ kind: 'choice', values: ['kube-scheduler'] });
  });
  it('grades right and wrong, marking options', () => {
    const q = byId(id).question;
    expect(grade(q, keyOf(id), { kind: 'choice', values: ['kube-scheduler'] })).toMatchObject({
      correct: true,
      score: 1,
    });
    const wrong = grade(q, keyOf(id), { kind: 'choice', values: ['kubelet'] });
    expect(wrong).toMatchObject({
      correct: false,
      score: 0,
      options: { kubelet: 'wrong', 'kube-scheduler': 'missed' },
    });
  });
  it('rejects an empty or unknown answer without grading it', () => {
    const q = byId(id).question;
    expect(grade(q, keyOf(id), { kind: 'choice', values: [] }).invalid?.en).toMatch(/Choose/);
    expect(
      grade(q, keyOf(id), { kind: 'choice', values: ['<script>alert(1)</script>'] }).invalid?.en,
    ).toMatch(/not one of the options/);
  });
  it('gives partial credit for several-answer questions', () => {
    const q = { ...byId(id).question, multiple: true } as never;
    const keyed: Keyed = {
      ...keyOf(id),
      key: { kind: 'choice', values: ['kube-scheduler', 'kubelet'] },
    };
    expect(grade(q, keyed, { kind: 'choice', values: ['kube-scheduler'] })).toMatchObject({
      correct: false,
      score: 0.5,
    });
    expect(
      grade(q, keyed, { kind: 'choice', values: ['kube-scheduler', 'kube-apiserver'] }),
    ).toMatchObject({ score: 0 });
    expect(
      grade(q, keyed, { kind: 'choice', values: ['kube-scheduler', 'kubelet'] }),
    ).toMatchObject({ correct: true, score: 1 });
  });
});

describe('numeric', () => {
  const id = 'demo-replacement-seconds';
  it('measures the replacement time: grace period + 300 s toleration + start-up', () => {
    const k = keyOf(id).key;
    expect(k.kind).toBe('numeric');
    const v = (k as { value: number }).value;
    expect(v).toBeGreaterThan(340);
    expect(v).toBeLessThan(380);
    expect(keyOf(id).values.notReady).toBe('50');
  });
  it('accepts answers within the tolerance and units typed after the number', () => {
    const q = byId(id).question;
    const v = (keyOf(id).key as { value: number }).value;
    expect(grade(q, keyOf(id), { kind: 'numeric', text: String(Math.round(v) + 4) }).correct).toBe(
      true,
    );
    expect(grade(q, keyOf(id), { kind: 'numeric', text: `${Math.round(v)} s` }).correct).toBe(true);
    expect(grade(q, keyOf(id), { kind: 'numeric', text: `${Math.round(v)}秒` }).correct).toBe(true);
    expect(grade(q, keyOf(id), { kind: 'numeric', text: '300' }).correct).toBe(false);
  });
  it('says too high or too low only when the question allows it', () => {
    const q = byId(id).question;
    expect(q.kind === 'numeric' && q.direction).toBe(false);
    expect(grade(q, keyOf(id), { kind: 'numeric', text: '300' }).direction).toBeUndefined();
    const told = { ...q, direction: true } as typeof q;
    expect(grade(told, keyOf(id), { kind: 'numeric', text: '300' }).direction).toBe('low');
    expect(grade(told, keyOf(id), { kind: 'numeric', text: '9000' }).direction).toBe('high');
  });
  it('turns junk into a message, never an exception', () => {
    const q = byId(id).question;
    for (const text of [
      '',
      '   ',
      '<script>alert(1)</script>',
      '1e309',
      '99999999999999999999',
      'apiVersion: v1\nkind: Pod',
      'NaN',
      'Infinity',
    ])
      expect(grade(q, keyOf(id), { kind: 'numeric', text }).invalid).toBeDefined();
  });
  it('parseNumber reads plain numbers only', () => {
    expect(parseNumber('1,234.5')).toBe(1234.5);
    expect(parseNumber('-3')).toBe(-3);
    expect(parseNumber('0x10')).toBeUndefined();
    expect(parseNumber('1e3')).toBeUndefined();
  });
  it('fills the explanation with measured values in both languages', () => {
    const q = byId(id).question;
    const en = fill(q.explanation!, 'en', keyOf(id).values);
    const ja = fill(q.explanation!, 'ja', keyOf(id).values);
    expect(en).toContain('50 s');
    expect(en).not.toContain('{{');
    expect(ja).not.toContain('{{');
  });
});

describe('ordering', () => {
  const id = 'demo-order-apply';
  it('orders by the times in the trace and gives credit per item in place', () => {
    const q = byId(id).question;
    expect(keyOf(id).key).toEqual({
      kind: 'ordering',
      values: ['replicaset', 'pod', 'binding', 'sandbox'],
    });
    expect(
      grade(q, keyOf(id), { kind: 'ordering', values: ['replicaset', 'pod', 'binding', 'sandbox'] })
        .correct,
    ).toBe(true);
    expect(
      grade(q, keyOf(id), {
        kind: 'ordering',
        values: ['replicaset', 'pod', 'sandbox', 'binding'],
      }),
    ).toMatchObject({ correct: false, score: 0.5 });
    expect(
      grade(q, keyOf(id), { kind: 'ordering', values: ['replicaset', 'pod'] }).invalid,
    ).toBeDefined();
    expect(
      grade(q, keyOf(id), { kind: 'ordering', values: ['pod', 'pod', 'binding', 'sandbox'] })
        .invalid,
    ).toBeDefined();
  });
  it('names two neighbours of the learner’s own order that the run has the other way round, and nothing more', () => {
    const q = byId(id).question;
    const g = grade(q, keyOf(id), {
      kind: 'ordering',
      values: ['pod', 'replicaset', 'sandbox', 'binding'],
    });
    expect(g.contradiction).toEqual({ before: 'pod', after: 'replicaset' });
    expect(
      grade(q, keyOf(id), { kind: 'ordering', values: ['replicaset', 'pod', 'sandbox', 'binding'] })
        .contradiction,
    ).toEqual({ before: 'sandbox', after: 'binding' });
    expect(
      grade(q, keyOf(id), { kind: 'ordering', values: ['replicaset', 'pod', 'binding', 'sandbox'] })
        .contradiction,
    ).toBeUndefined();
  });
  it('quotes the order in the explanation by labels, in each language, not by internal values', () => {
    const k = keyOf(id);
    expect(k.answerText?.en).toMatch(/^The ReplicaSet|ReplicaSet/);
    expect(k.answerText?.en).not.toMatch(/\breplicaset \(/);
    expect(k.values.answer).toBe(k.answerText?.en);
    expect(k.answerText?.ja).toMatch(/秒\)/);
  });
});

describe('matching', () => {
  const id = 'demo-match-responsibilities';
  it('matches each component to what the trace shows it did', () => {
    const q = byId(id).question;
    const pairs = {
      'kube-scheduler': 'bind',
      'replicaset-controller': 'create-pods',
      'deployment-controller': 'create-rs',
      kubelet: 'pod-status',
    };
    expect(keyOf(id).key).toEqual({ kind: 'matching', pairs });
    expect(grade(q, keyOf(id), { kind: 'matching', pairs }).correct).toBe(true);
    expect(
      grade(q, keyOf(id), {
        kind: 'matching',
        pairs: { ...pairs, kubelet: 'bind', 'kube-scheduler': 'pod-status' },
      }),
    ).toMatchObject({
      score: 0.5,
      rows: {
        'kube-scheduler': 'wrong',
        'replicaset-controller': 'right',
        'deployment-controller': 'right',
        kubelet: 'wrong',
      },
    });
    expect(
      grade(q, keyOf(id), { kind: 'matching', pairs: { kubelet: 'bind' } }).invalid,
    ).toBeDefined();
  });
  it('turns away one answer chosen for two items, with no score', () => {
    const q = byId(id).question;
    const pairs = (keyOf(id).key as { pairs: Record<string, string> }).pairs;
    const g = grade(q, keyOf(id), { kind: 'matching', pairs: { ...pairs, kubelet: 'bind' } });
    expect(g.invalid?.en).toMatch(/for two items/);
    expect(g.score).toBe(0);
    expect(g.rows).toBeUndefined();
  });
});

describe('predict', () => {
  const id = 'demo-predict-partition';
  it('reads the phase the API reports and captures the reveal output', () => {
    const q = byId(id).question;
    expect(keyOf(id).key).toEqual({ kind: 'choice', values: ['Running'] });
    const g = grade(q, keyOf(id), { kind: 'choice', values: ['Pending'] });
    expect(g.correct).toBe(false);
    expect(g.outputs?.[0]?.command).toBe('kubectl get pods -o wide');
    expect(g.outputs?.[0]?.output.stdout).toMatch(/^NAME +READY +STATUS/);
  });
  it('redact keeps the learner’s own marks and drops the key: the missed option and the run’s output', () => {
    const q = byId(id).question;
    const g = grade(q, keyOf(id), { kind: 'choice', values: ['Pending'] });
    expect(g.options).toEqual({ Pending: 'wrong', Running: 'missed' });
    const r = redact(q, g);
    expect(r.options).toEqual({ Pending: 'wrong' });
    expect(r.outputs).toBeUndefined();
    const right = grade(q, keyOf(id), { kind: 'choice', values: ['Running'] });
    expect(redact(q, right)).toEqual(right);
  });
});

describe('what-if', () => {
  const lq = byId('demo-whatif-rollout');
  const keyed = computeKey(lq.question, lq.scenarioYaml, variantOf(lq.question, 0));
  it('runs the scenario with the learner’s values and checks every moment', () => {
    const ok = grade(
      lq.question,
      keyed,
      { kind: 'what-if', params: { maxSurge: '1', maxUnavailable: '0' } },
      lq.scenarioYaml,
    );
    expect(ok.correct).toBe(true);
    const bad = grade(
      lq.question,
      keyed,
      { kind: 'what-if', params: { maxSurge: '1', maxUnavailable: '1' } },
      lq.scenarioYaml,
    );
    expect(bad.correct).toBe(false);
    expect(bad.checks?.[0]).toMatchObject({ passed: false, measured: '2' });
    expect(bad.score).toBeGreaterThan(0);
  });
  it('scores 0 for values kube-apiserver rejects, instead of crediting checks of a rollout that never happened', () => {
    const g = grade(
      lq.question,
      keyed,
      { kind: 'what-if', params: { maxSurge: '0', maxUnavailable: '0' } },
      lq.scenarioYaml,
    );
    expect(g).toMatchObject({ correct: false, score: 0 });
    expect(g.rejected?.message).toMatch(/maxUnavailable|may not be 0/);
    expect(g.checks?.every((c) => !c.passed)).toBe(true);
  });
  it('refuses values outside the allowed range instead of running them', () => {
    for (const v of ['7', '-1', '1.5', '', '{{x}}', '1\nmaxSurge: 9'])
      expect(
        grade(
          lq.question,
          keyed,
          { kind: 'what-if', params: { maxSurge: v, maxUnavailable: '0' } },
          lq.scenarioYaml,
        ).invalid,
      ).toBeDefined();
  });
});

describe('task', () => {
  const lq = byId('demo-task-pending');
  const keyed = computeKey(lq.question, lq.scenarioYaml, variantOf(lq.question, 0));
  it('gives full credit when the fix works and partial credit per check otherwise', () => {
    const ok = grade(
      lq.question,
      keyed,
      { kind: 'task', commands: 'kubectl describe pods\nkubectl label nodes node-2 disktype=ssd' },
      lq.scenarioYaml,
    );
    expect(ok).toMatchObject({ correct: true, score: 1 });
    expect(ok.outputs?.map((o) => o.command)).toEqual([
      'kubectl describe pods',
      'kubectl label nodes node-2 disktype=ssd',
    ]);
    const wrongNode = grade(
      lq.question,
      keyed,
      { kind: 'task', commands: 'label nodes node-1 disktype=ssd' },
      lq.scenarioYaml,
    );
    expect(wrongNode.correct).toBe(false);
    // Running (weight 2) is fixed, node-2 (1) is not; the Deployment's selector (1) held anyway.
    expect(wrongNode.score).toBeCloseTo(2 / 3);
  });
  it('gives nothing for a task left untouched: checks the broken cluster already passes earn nothing', () => {
    expect(keyed.untouched).toEqual([false, false, true]);
    const g = grade(lq.question, keyed, { kind: 'task', commands: 'get pods' }, lq.scenarioYaml);
    expect(g).toMatchObject({ correct: false, score: 0 });
    // Unless the check says it counts anyway.
    const q = {
      ...lq.question,
      checks:
        lq.question.kind === 'task'
          ? lq.question.checks.map((c, i) => (i === 2 ? { ...c, creditIfAlreadyTrue: true } : c))
          : [],
    } as typeof lq.question;
    expect(
      grade(q, keyed, { kind: 'task', commands: 'get pods' }, lq.scenarioYaml).score,
    ).toBeCloseTo(0.25);
  });
  it("keeps a bad command's output (kubectl's, or the console's for a program it lacks) and goes on", () => {
    const g = grade(
      lq.question,
      keyed,
      { kind: 'task', commands: 'kubectl frobnicate\nfrobnicate\nlabel nodes node-2 disktype=ssd' },
      lq.scenarioYaml,
    );
    expect(g.outputs?.[0]?.output.exitCode).not.toBe(0);
    expect(g.outputs?.[0]?.output.stderr).toMatch(/unknown command "frobnicate"/);
    expect(g.outputs?.[1]?.output.exitCode).toBe(127);
    expect(g.outputs?.[1]?.output.stderr).toMatch(/^bash: frobnicate: command not found/);
    expect(g.correct).toBe(true);
  });
  it('rejects an empty console or too many commands', () => {
    expect(
      grade(lq.question, keyed, { kind: 'task', commands: '\n# nothing\n' }, lq.scenarioYaml)
        .invalid,
    ).toBeDefined();
    expect(
      grade(
        lq.question,
        keyed,
        { kind: 'task', commands: 'get pods\n'.repeat(21) },
        lq.scenarioYaml,
      ).invalid,
    ).toBeDefined();
  });
  it('shows a verified solution', () => {
    expect(solutionOf(lq.question, keyed)).toEqual({
      kind: 'task',
      commands: 'label nodes node-2 disktype=ssd',
    });
  });
});

describe('task with node commands', () => {
  it('reads lines with the lab console grammar: ssh lines as node commands, kubectl with or without "kubectl", help and unknown programs for the console', () => {
    expect(
      commandLines(
        '$ kubectl get pods\n$ ssh control-plane sudo crictl ps -a\n# a note\n\nget nodes',
      ),
    ).toEqual(['kubectl get pods', 'ssh control-plane sudo crictl ps -a', 'get nodes']);
    expect(consoleLine('kubectl get pods')).toEqual({ kind: 'kubectl', args: 'get pods' });
    expect(consoleLine('help')).toEqual({ kind: 'help' });
    expect(consoleLine('kubctl get pods')).toEqual({ kind: 'unknown', program: 'kubctl' });
    expect(consoleLine('ssh control-plane sudo mv /tmp/a /tmp/b')).toEqual({
      kind: 'exec',
      node: 'control-plane',
      line: 'sudo mv /tmp/a /tmp/b',
    });
    expect(consoleLine('ssh admin@node-1 ls')).toEqual({
      kind: 'exec',
      node: 'node-1',
      line: 'ls',
    });
    expect(consoleLine('ssh control-plane')).toEqual({ kind: 'ssh-usage' });
    expect(consoleLine('get pods')).toEqual({ kind: 'kubectl', args: 'get pods' });
  });

  const lq = byId('drill-task-apiserver-manifest');
  const keyed = computeKey(lq.question, lq.scenarioYaml, variantOf(lq.question, 0));
  it('runs ssh lines on the node, so moving the manifest back brings kube-apiserver back', () => {
    const g = grade(
      lq.question,
      keyed,
      {
        kind: 'task',
        commands:
          'get nodes\nssh control-plane ls /etc/kubernetes/manifests\nssh control-plane sudo mv /tmp/kube-apiserver.yaml /etc/kubernetes/manifests/\nssh control-plane',
      },
      lq.scenarioYaml,
    );
    expect(g.outputs?.map((o) => o.command)).toEqual([
      'kubectl get nodes',
      'ssh control-plane ls /etc/kubernetes/manifests',
      'ssh control-plane sudo mv /tmp/kube-apiserver.yaml /etc/kubernetes/manifests/',
      'ssh control-plane',
    ]);
    expect(g.outputs?.[0]?.output.stderr).toBe(
      'The connection to the server 10.0.0.10:6443 was refused - did you specify the right host or port?\n',
    );
    expect(g.outputs?.[1]?.output.stdout).toBe(
      'etcd.yaml\nkube-controller-manager.yaml\nkube-scheduler.yaml\n',
    );
    expect(g.outputs?.[2]?.output).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(g.outputs?.[3]?.output.exitCode).toBe(255);
    expect(g).toMatchObject({ correct: true, score: 1 });
  });
  it("answers help (what a task's console accepts) and an unknown program as the lab's console does, in the page's language", () => {
    const commands = 'help\nkubctl get pods\nkubectl get nodes';
    for (const lang of ['en', 'ja'] as const) {
      const g = grade(
        lq.question,
        keyed,
        { kind: 'task', commands },
        lq.scenarioYaml,
        undefined,
        lang,
      );
      expect(g.outputs?.map((o) => o.command)).toEqual([
        'help',
        'kubctl get pods',
        'kubectl get nodes',
      ]);
      expect(g.outputs?.[0]?.output).toEqual(localOutput({ kind: 'help' }, lang, 'task'));
      // A task's console has no manifest editor, no Tab completion and nothing that streams.
      expect(g.outputs?.[0]?.output.stdout).not.toMatch(/manifest|マニフェスト|Tab|-w\b/);
      expect(g.outputs?.[1]?.output).toEqual(
        localOutput({ kind: 'unknown', program: 'kubctl' }, lang),
      );
      expect(g.outputs?.[2]?.output.stderr).toContain('The connection to the server');
    }
    const ja = grade(
      lq.question,
      keyed,
      { kind: 'task', commands },
      lq.scenarioYaml,
      undefined,
      'ja',
    );
    expect(ja.outputs?.[0]?.output.stdout).toContain('この課題のコンソール');
    expect(ja.outputs?.[1]?.output.stderr).toBe(
      'bash: kubctl: コマンドが見つかりません。kubectl …、ssh ノード名 crictl ps、または help を試してください。\n',
    );
  });
  it('does not pass a kubectl command or a move to the wrong place', () => {
    for (const commands of [
      'rollout restart deployment web',
      'ssh control-plane sudo mv /tmp/kube-apiserver.yaml /etc/kubernetes/',
    ]) {
      const g = grade(lq.question, keyed, { kind: 'task', commands }, lq.scenarioYaml);
      expect(g.correct).toBe(false);
      expect(g.checks?.[0]?.passed).toBe(false);
    }
  });
});

describe('interview', () => {
  it('is self-assessed from the rubric and never machine-graded', () => {
    const lq = byId('demo-interview-architecture');
    const keyed = computeKey(lq.question, lq.scenarioYaml, variantOf(lq.question, 0));
    const g = grade(lq.question, keyed, {
      kind: 'interview',
      text: 'anything',
      ticked: [0, 1, 99, -1],
    });
    expect(g).toMatchObject({ selfAssessed: true, score: 0.4, correct: false });
  });
});

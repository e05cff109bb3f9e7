import { describe, expect, it } from 'vitest';
import { computeKey, grade, variantOf } from './grade.ts';
import { loadQuestions } from './load.ts';
import { MAX_FACTS, evidence, formatFact, measureFacts, requestFacts } from './evidence.ts';

const all = new Map(loadQuestions().map((lq) => [lq.question.id, lq]));

function keyed(id: string, v = 3) {
  const lq = all.get(id)!;
  const k = computeKey(lq.question, lq.scenarioYaml, variantOf(lq.question, v));
  return { q: lq.question, run: k.run!, k };
}

describe('evidence', () => {
  it('tells the story of a duration: the fault, the node going Unknown, the replacement Running', () => {
    const { q, run, k } = keyed('demo-replacement-seconds');
    const facts = evidence(q, run);
    const lines = facts.map((f) => formatFact(f, 'en'));
    expect(facts.length).toBeLessThanOrEqual(MAX_FACTS);
    expect(lines[0]).toMatch(/^60 s — fault node-down on node-1$/);
    expect(lines.some((l) => /node node-1 Ready: True → Unknown$/.test(l))).toBe(true);
    expect(lines.some((l) => /pod web-\S+ Running on node-\d$/.test(l))).toBe(true);
    // The interval ends exactly where the key says: from + answer.
    const end = facts.find((f) => f.text.en === 'the measured interval ends')!;
    const start = facts.find((f) => f.text.en === 'the measured interval starts')!;
    expect(end.t - start.t).toBeCloseTo(Number(k.key.kind === 'numeric' ? k.key.value : NaN), 3);
    expect(facts.map((f) => f.t)).toEqual([...facts.map((f) => f.t)].sort((a, b) => a - b));
  });

  it('lists the matching requests for an actors measure', () => {
    const { q, run } = keyed('demo-who-binds');
    const facts = evidence(q, run);
    expect(facts.length).toBeGreaterThan(0);
    for (const f of facts) expect(f.text.en).toMatch(/^kube-scheduler: create pods\/binding /);
  });

  it('caps long request lists with a count of the rest', () => {
    const { run } = keyed('demo-who-binds');
    const facts = requestFacts(run, { verb: 'create', resource: 'pods/binding' }, 1);
    expect(facts).toHaveLength(2);
    expect(facts[1]!.text.en).toMatch(/^… and \d+ more such requests$/);
    expect(facts[1]!.text.ja).toMatch(/^…ほか同様のリクエスト \d+ 件$/);
  });

  it("gives each ordering item's time, in order, with the item's label in both languages", () => {
    const { q, run, k } = keyed('demo-order-apply');
    const facts = evidence(q, run);
    expect(facts.map((f) => f.text.en)).toEqual(
      (k.key.kind === 'ordering' ? k.key.values : []).map((v) =>
        q.kind === 'ordering' ? q.items.find((i) => i.value === v)!.label.en : '',
      ),
    );
    expect(formatFact(facts[0]!, 'ja')).toMatch(/^[\d.]+ 秒 — ReplicaSet が作成される$/);
  });

  it('shows the field at the moment a prediction is about, after the fault that decided it', () => {
    const { q, run } = keyed('demo-predict-partition');
    const lines = evidence(q, run).map((f) => formatFact(f, 'en'));
    expect(lines[0]).toMatch(/ — fault partition on node-1$/);
    expect(lines.at(-1)).toMatch(/^180 s — pods\/web-\S+: status\.phase = Running$/);
  });

  it('names who made each kind of request for a matching', () => {
    const { q, run } = keyed('demo-match-responsibilities');
    const text = evidence(q, run)
      .map((f) => f.text.en)
      .join('\n');
    for (const who of [
      'kube-scheduler',
      'replicaset-controller',
      'deployment-controller',
      'kubelet@',
    ])
      expect(text).toContain(who);
  });

  it('has no evidence for tasks and self-assessed answers', () => {
    for (const id of ['demo-task-pending', 'demo-interview-architecture']) {
      const lq = all.get(id)!;
      expect(
        evidence(lq.question, { trace: [], changes: [], initial: {}, stepTimes: [], until: 0 }),
      ).toEqual([]);
    }
  });

  it('shows a what-if answer the moments of its own run, in time order', () => {
    const lq = all.get('demo-whatif-rollout')!;
    const k = computeKey(lq.question, lq.scenarioYaml, variantOf(lq.question, 0));
    const g = grade(lq.question, k, { kind: 'what-if', params: { maxSurge: '1', maxUnavailable: '1' } }, lq.scenarioYaml);
    const facts = evidence(lq.question, g.run!);
    expect(facts.length).toBeGreaterThan(0);
    expect(facts.map((f) => f.t)).toEqual([...facts.map((f) => f.t)].sort((a, b) => a - b));
  });

  it('returns nothing, rather than throwing, when a measured event never happens', () => {
    const { run } = keyed('demo-who-binds');
    expect(
      measureFacts(run, { duration: { from: { fault: 'node-down' }, to: { at: 10 } } }),
    ).toEqual([]);
  });
});

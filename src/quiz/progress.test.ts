import { describe, expect, it } from 'vitest';
import { Rating, State } from 'ts-fsrs';
import {
  PROGRESS_KEY,
  closeRound,
  PROGRESS_VERSION,
  countSolved,
  decodeProgress,
  emptyProgress,
  exportFileName,
  exportProgress,
  importProgress,
  loadProgress,
  mergeProgress,
  parseProgress,
  ratingFor,
  recordGraded,
  resetProgress,
  reviewQueue,
  salvageJson,
  saveProgress,
  type Graded,
  type Progress,
  type StorageLike,
} from './progress.ts';

const T0 = new Date('2026-11-01T09:00:00.000Z');
const day = 86_400_000;
const at = (days: number) => new Date(T0.getTime() + days * day);

/** memoryStorage is a Storage double; `fail` makes every call throw, as a full or blocked storage does. */
function memoryStorage(
  init: Record<string, string> = {},
  fail = false,
): StorageLike & { data: Map<string, string> } {
  const data = new Map(Object.entries(init));
  return {
    data,
    getItem: (k) => {
      if (fail) throw new Error('SecurityError');
      return data.get(k) ?? null;
    },
    setItem: (k, v) => {
      if (fail) throw new Error('QuotaExceededError');
      data.set(k, v);
    },
    removeItem: (k) => {
      if (fail) throw new Error('SecurityError');
      data.delete(k);
    },
  };
}

const graded = (over: Partial<Graded> = {}): Graded => ({
  id: 'demo-who-binds',
  lesson: 'demo/quiz',
  concepts: ['scheduler-binding'],
  score: 1,
  correct: true,
  variant: 7,
  attempt: 1,
  final: true,
  ...over,
});

/** twoQuestions is progress with two solved questions and their concepts reviewed. */
function twoQuestions(): Progress {
  let p = recordGraded(emptyProgress(), graded(), T0);
  p = recordGraded(
    p,
    graded({
      id: 'demo-replacement-seconds',
      concepts: ['node-lifecycle', 'taint-eviction'],
      variant: 3,
    }),
    at(1),
  );
  return p;
}

describe('ratingFor', () => {
  it('maps wrong to Again, partial to Hard, right to Good and right first try without hints to Easy', () => {
    expect(ratingFor({ score: 0, correct: false, attempt: 1 })).toBe(Rating.Again);
    expect(ratingFor({ score: 0.5, correct: false, attempt: 2 })).toBe(Rating.Hard);
    expect(ratingFor({ score: 1, correct: true, attempt: 2 })).toBe(Rating.Good);
    expect(ratingFor({ score: 0.75, correct: true, attempt: 1 })).toBe(Rating.Good); // a hint cost points
    expect(ratingFor({ score: 1, correct: true, attempt: 1 })).toBe(Rating.Easy);
  });
  it('never rates a self-assessed answer Easy', () => {
    expect(ratingFor({ score: 1, correct: true, attempt: 1, selfAssessed: true })).toBe(
      Rating.Good,
    );
  });
});

describe('recordGraded', () => {
  it('keeps attempts, best score, solved, lesson, concepts, last variant and time', () => {
    let p = recordGraded(
      emptyProgress(),
      graded({ score: 0, correct: false, final: false, variant: 4 }),
      T0,
    );
    p = recordGraded(p, graded({ score: 0.75, correct: true, attempt: 2, variant: 4 }), at(0.01));
    expect(p.questions['demo-who-binds']).toEqual({
      attempts: 2,
      bestScore: 0.75,
      solved: true,
      lesson: 'demo/quiz',
      concepts: ['scheduler-binding'],
      lastVariant: 4,
      lastScore: 0.75,
      lastAt: at(0.01).toISOString(),
    });
  });

  it('keeps solved and the best score after a later worse round', () => {
    let p = recordGraded(emptyProgress(), graded(), T0);
    p = recordGraded(p, graded({ score: 0, correct: false }), at(3));
    expect(p.questions['demo-who-binds']).toMatchObject({
      solved: true,
      bestScore: 1,
      lastScore: 0,
      attempts: 2,
    });
  });

  it('reviews concept cards only when a round is final', () => {
    const p = recordGraded(emptyProgress(), graded({ score: 0, correct: false, final: false }), T0);
    expect(p.concepts).toEqual({});
    const q = recordGraded(p, graded({ attempt: 2 }), T0);
    expect(Object.keys(q.concepts)).toEqual(['scheduler-binding']);
    expect(q.concepts['scheduler-binding']?.reps).toBe(1);
  });

  it('schedules a right-first-try answer further out than a wrong one', () => {
    const easy = recordGraded(emptyProgress(), graded(), T0).concepts['scheduler-binding'];
    const again = recordGraded(emptyProgress(), graded({ score: 0, correct: false }), T0).concepts[
      'scheduler-binding'
    ];
    expect(new Date(easy!.due).getTime()).toBeGreaterThan(new Date(again!.due).getTime());
    expect(new Date(again!.due).getTime()).toBeGreaterThan(T0.getTime());
    expect(easy!.last_review).toBe(T0.toISOString());
    expect(easy!.state).toBe(State.Review);
  });

  it('is deterministic: the same answers at the same times give the same progress', () => {
    expect(JSON.stringify(twoQuestions())).toBe(JSON.stringify(twoQuestions()));
  });

  it('closeRound reviews the concepts of a round left unfinished, without counting an attempt', () => {
    const wrong = graded({ score: 0, correct: false, final: false });
    const p = recordGraded(emptyProgress(), wrong, T0);
    const q = closeRound(p, wrong, at(0.01));
    expect(q.questions).toEqual(p.questions);
    expect(q.concepts['scheduler-binding']).toEqual(
      recordGraded(emptyProgress(), { ...wrong, final: true }, at(0.01)).concepts[
        'scheduler-binding'
      ],
    );
  });

  it('records every concept of a question', () => {
    const p = twoQuestions();
    expect(Object.keys(p.concepts).sort()).toEqual([
      'node-lifecycle',
      'scheduler-binding',
      'taint-eviction',
    ]);
  });

  it('does not change the progress it was given', () => {
    const p = emptyProgress();
    recordGraded(p, graded(), T0);
    expect(p).toEqual(emptyProgress());
  });
});

describe('storage round trip', () => {
  it('saves and loads under one key with the current version', () => {
    const s = memoryStorage();
    const p = twoQuestions();
    expect(saveProgress(s, p)).toBeUndefined();
    expect([...s.data.keys()]).toEqual([PROGRESS_KEY]);
    expect(JSON.parse(s.data.get(PROGRESS_KEY)!).version).toBe(PROGRESS_VERSION);
    expect(loadProgress(s)).toEqual({ progress: p, warnings: [], repaired: false });
  });

  it('loads nothing stored as empty progress without warnings', () => {
    expect(loadProgress(memoryStorage())).toEqual({
      progress: emptyProgress(),
      warnings: [],
      repaired: false,
    });
  });

  it('never throws when storage does', () => {
    const s = memoryStorage({}, true);
    expect(loadProgress(s).progress).toEqual(emptyProgress());
    expect(saveProgress(s, twoQuestions())?.code).toBe('not-saved');
    expect(resetProgress(s)?.code).toBe('not-saved');
  });

  it('reset removes the key', () => {
    const s = memoryStorage();
    saveProgress(s, twoQuestions());
    expect(resetProgress(s)).toBeUndefined();
    expect(s.data.size).toBe(0);
  });
});

describe('migration', () => {
  const v1 = {
    version: 1,
    answers: {
      'demo-who-binds': { score: 1, at: '2026-10-01T10:00:00.000Z' },
      'demo-replacement-seconds': { score: 0.5, at: '2026-10-02T10:00:00.000Z' },
    },
  };
  const catalog = {
    'demo-who-binds': { lesson: 'demo/quiz', concepts: ['scheduler-binding'] },
    'demo-replacement-seconds': { lesson: 'demo/quiz', concepts: ['node-lifecycle'] },
  };

  it('upgrades version 1 answers to question records', () => {
    const { progress, warnings, repaired } = parseProgress(JSON.stringify(v1));
    expect(repaired).toBe(true);
    expect(warnings).toEqual([{ code: 'migrated', detail: 'version 1' }]);
    expect(progress.version).toBe(PROGRESS_VERSION);
    expect(progress.questions['demo-who-binds']).toEqual({
      attempts: 1,
      bestScore: 1,
      solved: true,
      lesson: '',
      concepts: [],
      lastScore: 1,
      lastAt: '2026-10-01T10:00:00.000Z',
    });
    expect(progress.questions['demo-replacement-seconds']?.solved).toBe(false);
    expect(progress.concepts).toEqual({});
  });

  it('fills lessons and concepts from the catalog and replays the answers into FSRS cards', () => {
    const { progress } = parseProgress(JSON.stringify(v1), catalog);
    expect(progress.questions['demo-who-binds']).toMatchObject({
      lesson: 'demo/quiz',
      concepts: ['scheduler-binding'],
    });
    expect(progress.concepts['scheduler-binding']?.last_review).toBe('2026-10-01T10:00:00.000Z');
    expect(progress.concepts['node-lifecycle']?.reps).toBe(1);
  });

  it('upgrades the unversioned answers map, with or without an answers wrapper', () => {
    const bare = parseProgress(JSON.stringify(v1.answers));
    expect(bare.warnings).toEqual([{ code: 'migrated', detail: 'unversioned' }]);
    expect(Object.keys(bare.progress.questions).sort()).toEqual([
      'demo-replacement-seconds',
      'demo-who-binds',
    ]);
    const wrapped = parseProgress(JSON.stringify({ answers: v1.answers }));
    expect(wrapped.progress).toEqual(bare.progress);
  });

  it('drops broken version 1 answers and keeps the rest', () => {
    const { progress, warnings } = parseProgress(
      JSON.stringify({
        version: 1,
        answers: { ...v1.answers, bad: { score: 'x', at: 'yesterday' } },
      }),
    );
    expect(Object.keys(progress.questions).sort()).toEqual([
      'demo-replacement-seconds',
      'demo-who-binds',
    ]);
    expect(warnings.map((w) => [w.code, w.id])).toEqual([
      ['migrated', undefined],
      ['dropped-question', 'bad'],
    ]);
  });

  it('saves a migrated record in the current format, which then loads cleanly', () => {
    const s = memoryStorage({ [PROGRESS_KEY]: JSON.stringify(v1) });
    const first = loadProgress(s, catalog);
    saveProgress(s, first.progress);
    expect(loadProgress(s, catalog)).toEqual({
      progress: first.progress,
      warnings: [],
      repaired: false,
    });
  });
});

describe('recovery from corrupt data', () => {
  const good = twoQuestions();
  const goodText = JSON.stringify(good);

  it('starts afresh from garbage, with a warning', () => {
    for (const text of ['garbage', '<html>', '}{', '\u0000\u0001']) {
      const r = parseProgress(text);
      expect(r.progress).toEqual(emptyProgress());
      expect(r.warnings).toEqual([{ code: 'unreadable' }]);
      expect(r.repaired).toBe(true);
    }
  });

  it('starts afresh from JSON that is not an object', () => {
    for (const text of ['42 ', '"x"', '[1,2]', 'null '])
      expect(parseProgress(text).warnings).toEqual([{ code: 'not-object' }]);
  });

  it('drops only the broken entries of valid JSON', () => {
    const raw = JSON.parse(goodText);
    raw.questions['broken-one'] = { attempts: -1, bestScore: 2 };
    raw.questions['broken-two'] = 'nope';
    raw.concepts['bad-card'] = { due: 'soon' };
    const r = parseProgress(JSON.stringify(raw));
    expect(r.progress).toEqual(good);
    expect(r.repaired).toBe(true);
    expect(r.warnings.map((w) => `${w.code} ${w.id}`)).toEqual([
      'dropped-question broken-one',
      'dropped-question broken-two',
      'dropped-concept bad-card',
    ]);
    expect(r.warnings[0]?.detail).toMatch(/attempts/);
  });

  it('keeps the intact entries of JSON cut short at any point', () => {
    const entries = (p: Progress) =>
      Object.keys(p.questions).length + Object.keys(p.concepts).length;
    let prevKept = 0;
    for (let n = 1; n < goodText.length; n++) {
      const r = parseProgress(goodText.slice(0, n));
      expect(r.warnings[0]?.code).toMatch(/^(truncated|unreadable)$/);
      // Whatever is kept is exactly as it was stored, and cutting later never keeps less.
      for (const [id, q] of Object.entries(r.progress.questions))
        expect(q).toEqual(good.questions[id]);
      for (const [id, c] of Object.entries(r.progress.concepts))
        expect(c).toEqual(good.concepts[id]);
      expect(entries(r.progress)).toBeGreaterThanOrEqual(prevKept);
      prevKept = entries(r.progress);
    }
    expect(prevKept).toBeGreaterThanOrEqual(entries(good) - 1);
  });

  it('keeps the first question when the second is cut in the middle', () => {
    const cut = goodText.indexOf('"demo-replacement-seconds"') + 40;
    const r = parseProgress(goodText.slice(0, cut));
    expect(Object.keys(r.progress.questions)).toEqual(['demo-who-binds']);
    expect(r.warnings.map((w) => w.code)).toContain('truncated');
    expect(r.warnings.map((w) => w.code)).toContain('dropped-question');
  });

  it('keeps what came before garbage in the middle', () => {
    const broken = goodText.replace('"demo-replacement-seconds"', '"demo-replacement-seconds" ###');
    const r = parseProgress(broken);
    expect(Object.keys(r.progress.questions)).toEqual(['demo-who-binds']);
    expect(r.warnings[0]?.code).toBe('truncated');
  });

  it('reads a newer version entry by entry, and says so', () => {
    const r = parseProgress(JSON.stringify({ ...good, version: 3, future: true }));
    expect(r.progress).toEqual(good);
    expect(r.warnings).toEqual([{ code: 'newer-version', detail: '3' }]);
  });

  it('reads an unknown version entry by entry, and says so', () => {
    const r = parseProgress(JSON.stringify({ ...good, version: 'two' }));
    expect(r.progress).toEqual(good);
    expect(r.warnings[0]?.code).toBe('unknown-version');
  });

  it('drops a questions or concepts field of the wrong type', () => {
    const r = decodeProgress({ version: 2, questions: [], concepts: 5 });
    expect(r.progress).toEqual(emptyProgress());
    expect(r.warnings.map((w) => w.code)).toEqual(['dropped-question', 'dropped-concept']);
  });

  it('loads corrupt storage without throwing, and the repair saves cleanly', () => {
    const s = memoryStorage({ [PROGRESS_KEY]: goodText.slice(0, goodText.length - 10) });
    const r = loadProgress(s);
    expect(r.repaired).toBe(true);
    saveProgress(s, r.progress);
    expect(loadProgress(s).warnings).toEqual([]);
  });
});

describe('salvageJson', () => {
  it('parses complete JSON like JSON.parse', () => {
    const v = { a: [1, -2.5e3, 'x\n"y"\u00e9', true, null, { b: {} }], c: [] };
    expect(salvageJson(JSON.stringify(v))).toMatchObject({ value: v, complete: true });
    expect(salvageJson(` ${JSON.stringify(v, null, 2)} \n`)).toMatchObject({
      value: v,
      complete: true,
    });
  });
  it('keeps complete members of a cut object and leaves out the cut one', () => {
    expect(salvageJson('{"a":1,"b":{"c":2,"d":"tru')).toMatchObject({
      value: { a: 1, b: { c: 2 } },
      complete: false,
    });
    expect(salvageJson('{"a":[1,2,3')).toMatchObject({ value: { a: [1, 2] }, complete: false });
    expect(salvageJson('{"a":1}trailing').complete).toBe(false);
  });
  it('returns undefined for text that does not start as JSON', () => {
    expect(salvageJson('nonsense').value).toBeUndefined();
    expect(salvageJson('').value).toBeUndefined();
  });
});

describe('export and import', () => {
  it('exports pretty JSON that imports back to the same progress', () => {
    const p = twoQuestions();
    const text = exportProgress(p, at(2));
    expect(JSON.parse(text).exportedAt).toBe(at(2).toISOString());
    const r = importProgress(text, emptyProgress(), 'replace');
    expect(r).toEqual({ ok: true, progress: p, warnings: [], questions: 2, concepts: 3 });
  });

  it('names the file by date', () => {
    expect(exportFileName(T0)).toBe('k8s-lab-progress-2026-11-01.json');
  });

  it('refuses a file that is not JSON or not progress, changing nothing', () => {
    expect(importProgress('{"version":2,', emptyProgress(), 'merge')).toEqual({
      ok: false,
      reason: 'not-json',
    });
    expect(importProgress('[1,2]', emptyProgress(), 'merge')).toEqual({
      ok: false,
      reason: 'not-progress',
    });
    expect(importProgress('{"name":"package"}', emptyProgress(), 'merge')).toEqual({
      ok: false,
      reason: 'not-progress',
    });
  });

  it('imports the intact entries of a file with broken ones, with warnings', () => {
    const raw = JSON.parse(exportProgress(twoQuestions(), T0));
    raw.questions.bad = { attempts: 'many' };
    const r = importProgress(JSON.stringify(raw), emptyProgress(), 'replace');
    expect(r.ok && Object.keys(r.progress.questions).sort()).toEqual([
      'demo-replacement-seconds',
      'demo-who-binds',
    ]);
    expect(r.ok && r.warnings.map((w) => w.id)).toEqual(['bad']);
  });

  it('replace discards this browser’s progress; merge keeps it', () => {
    const here = recordGraded(
      emptyProgress(),
      graded({ id: 'only-here', concepts: ['only-here'] }),
      T0,
    );
    const file = exportProgress(twoQuestions(), T0);
    const replaced = importProgress(file, here, 'replace');
    expect(replaced.ok && Object.keys(replaced.progress.questions).sort()).toEqual([
      'demo-replacement-seconds',
      'demo-who-binds',
    ]);
    const merged = importProgress(file, here, 'merge');
    expect(merged.ok && Object.keys(merged.progress.questions).sort()).toEqual([
      'demo-replacement-seconds',
      'demo-who-binds',
      'only-here',
    ]);
    expect(merged.ok && Object.keys(merged.progress.concepts).sort()).toEqual([
      'node-lifecycle',
      'only-here',
      'scheduler-binding',
      'taint-eviction',
    ]);
  });

  it('merge keeps the best score, solved, most attempts, the later variant and the later card', () => {
    const a = recordGraded(emptyProgress(), graded({ score: 1, correct: true, variant: 1 }), T0);
    let b = recordGraded(
      emptyProgress(),
      graded({ score: 0, correct: false, variant: 2, final: false }),
      at(5),
    );
    b = recordGraded(b, graded({ score: 0, correct: false, variant: 2, attempt: 2 }), at(5));
    const m = mergeProgress(a, b);
    expect(m.questions['demo-who-binds']).toMatchObject({
      bestScore: 1,
      solved: true,
      attempts: 2,
      lastVariant: 2,
      lastAt: at(5).toISOString(),
    });
    expect(m.concepts['scheduler-binding']).toEqual(b.concepts['scheduler-binding']);
    expect(mergeProgress(b, a)).toEqual(m);
  });
});

describe('summaries', () => {
  it('counts solved questions among the given ids', () => {
    const p = recordGraded(
      twoQuestions(),
      graded({ id: 'wrong-one', score: 0, correct: false }),
      T0,
    );
    expect(countSolved(p, ['demo-who-binds', 'wrong-one', 'never-tried'])).toBe(1);
  });

  it('lists due concepts (most overdue first) and upcoming ones (soonest first)', () => {
    const p = twoQuestions();
    expect(reviewQueue(p, T0).due).toEqual([]);
    const far = reviewQueue(p, at(400));
    expect(far.due.map((d) => d.concept)).toEqual([
      'scheduler-binding',
      'node-lifecycle',
      'taint-eviction',
    ]);
    expect(far.upcoming).toEqual([]);
    const soon = reviewQueue(p, at(1));
    expect(soon.due).toEqual([]);
    expect(soon.upcoming[0]?.due.getTime()).toBeLessThanOrEqual(soon.upcoming[1]!.due.getTime());
  });

  it('makes a concept due again after a wrong answer sooner than after a right one', () => {
    let p = recordGraded(emptyProgress(), graded(), T0);
    const rightDue = new Date(p.concepts['scheduler-binding']!.due);
    p = recordGraded(p, graded({ score: 0, correct: false }), rightDue);
    const wrongDue = new Date(p.concepts['scheduler-binding']!.due);
    expect(wrongDue.getTime() - rightDue.getTime()).toBeLessThan(rightDue.getTime() - T0.getTime());
    expect(p.concepts['scheduler-binding']?.lapses).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { Simulation } from '../engine/simulation.ts';
import { EtcdStore } from './store.ts';

describe('EtcdStore', () => {
  it('bumps one global revision per write and tracks create/mod revisions and version', () => {
    const s = new EtcdStore();
    const a = s.create('/registry/pods/default/a', () => ({ v: 1 }));
    const b = s.create('/registry/pods/default/b', () => ({ v: 1 }));
    expect([a.revision, b.revision]).toEqual([2, 3]);
    const u = s.update('/registry/pods/default/a', a.revision, () => ({ v: 2 }));
    expect(u.succeeded).toBe(true);
    expect(u.kv).toMatchObject({ createRevision: 2, modRevision: 4, version: 2 });
  });
  it('loads an image into an empty store: same revision and keys, and later writes stay in that store', () => {
    const s = new EtcdStore();
    s.create('/registry/pods/default/a', () => 1);
    s.create('/registry/nodes/n', () => 2);
    const image = s.image();
    const x = new EtcdStore();
    const y = new EtcdStore();
    x.load(image);
    y.load(image);
    expect(x.revision).toBe(3);
    expect(x.range('/registry/pods/').map((kv) => kv.key)).toEqual(['/registry/pods/default/a']);
    const a = x.get('/registry/pods/default/a')!;
    expect(x.update('/registry/pods/default/a', a.modRevision, () => 9).revision).toBe(4);
    x.delete('/registry/nodes/n', x.get('/registry/nodes/n')!.modRevision);
    expect(y.get('/registry/pods/default/a')?.value).toBe(1);
    expect(y.get('/registry/nodes/n')?.value).toBe(2);
    expect(y.revision).toBe(3);
    expect(() => x.load(image)).toThrow(/empty store/);
  });
  it('fails a compare-and-swap on a stale modRevision or an existing key', () => {
    const s = new EtcdStore();
    const a = s.create('/registry/pods/default/a', () => 1);
    s.update('/registry/pods/default/a', a.revision, () => 2);
    expect(s.update('/registry/pods/default/a', a.revision, () => 3).succeeded).toBe(false);
    expect(s.create('/registry/pods/default/a', () => 4).succeeded).toBe(false);
    expect(s.get('/registry/pods/default/a')?.value).toBe(2);
  });
  it('keeps ranges sorted by key across creates, updates, deletes and a load from an image', () => {
    const s = new EtcdStore();
    for (const k of ['c', 'a', 'd', 'b']) s.create(`/registry/pods/ns/${k}`, () => k);
    const keys = (st: EtcdStore, p = '/registry/pods/') =>
      st.range(p).map((kv) => kv.key.slice(-1));
    expect(keys(s)).toEqual(['a', 'b', 'c', 'd']);
    s.update('/registry/pods/ns/c', s.get('/registry/pods/ns/c')!.modRevision, () => 'c2');
    expect(s.range('/registry/pods/').map((kv) => kv.value)).toEqual(['a', 'b', 'c2', 'd']);
    s.delete('/registry/pods/ns/b', s.get('/registry/pods/ns/b')!.modRevision);
    s.create('/registry/pods/ns/0', () => '0');
    expect(keys(s)).toEqual(['0', 'a', 'c', 'd']);
    s.create('/registry/pods/other/e', () => 'e');
    expect(keys(s, '/registry/pods/ns/')).toEqual(['0', 'a', 'c', 'd']);
    const image = s.image();
    // The image keeps the order the keys were made in, and their key order beside it.
    expect(image.buckets[0].kvs.map((kv) => kv.key.slice(-1))).toEqual(['c', 'a', 'd', '0', 'e']);
    const loaded = new EtcdStore();
    loaded.load(image);
    expect(keys(loaded)).toEqual(['0', 'a', 'c', 'd', 'e']);
    loaded.create('/registry/pods/ns/b', () => 'b');
    expect(keys(loaded)).toEqual(['0', 'a', 'b', 'c', 'd', 'e']);
    expect(keys(s)).toEqual(['0', 'a', 'c', 'd', 'e']);
  });

  it('ranges sorted by key and watches every change in revision order', () => {
    const s = new EtcdStore();
    const seen: string[] = [];
    s.watch('/registry/pods/', (ev) => seen.push(`${ev.type} ${ev.kv.key} ${ev.kv.modRevision}`));
    s.create('/registry/pods/default/b', () => 1);
    s.create('/registry/pods/default/a', () => 1);
    s.create('/registry/nodes/n', () => 1);
    const kv = s.get('/registry/pods/default/b')!;
    s.delete('/registry/pods/default/b', kv.modRevision);
    expect(s.range('/registry/pods/').map((k) => k.key)).toEqual(['/registry/pods/default/a']);
    expect(seen).toEqual([
      'PUT /registry/pods/default/b 2',
      'PUT /registry/pods/default/a 3',
      'DELETE /registry/pods/default/b 5',
    ]);
  });
  it('ranges in key order while keys are created, listed and deleted in between', () => {
    const s = new EtcdStore();
    const keys = new Set<string>();
    // A fixed permutation of 200 names, so that creates land before, between and after listed keys.
    for (let i = 0; i < 200; i++) {
      const k = `/registry/pods/default/p${(i * 37) % 200}`;
      s.create(k, () => i);
      keys.add(k);
      if (i % 7 === 0)
        expect(s.range('/registry/pods/').map((kv) => kv.key)).toEqual([...keys].sort());
      if (i % 23 === 0) {
        const d = [...keys][i % keys.size];
        s.delete(d, s.get(d)!.modRevision);
        keys.delete(d);
      }
    }
    expect(s.range('/registry/pods/default/p1').map((kv) => kv.key)).toEqual(
      [...keys].filter((k) => k.startsWith('/registry/pods/default/p1')).sort(),
    );
  });
});

describe('EtcdStore leases', () => {
  it('a range after a lease expired lists no key it removed, however the keys were added since the last range', () => {
    const sim = new Simulation({ seed: 1 });
    const s = new EtcdStore();
    s.useClock(sim);
    for (let i = 0; i < 6; i++) s.create(`/registry/events/default/e${i}`, () => i);
    expect(s.range('/registry/events/')).toHaveLength(6);
    const lease = s.grant(60);
    // Fewer new keys than half the sorted ones: they wait to be merged in at the next range.
    s.create('/registry/events/default/a', () => 1, lease);
    s.create('/registry/events/default/f', () => 1, lease);
    sim.runUntil(60_000);
    expect(s.range('/registry/events/').map((kv) => kv.key)).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `/registry/events/default/e${i}`),
    );
  });

  it('revokes an expired lease on the engine clock: its keys go in one revision, a DELETE each', () => {
    const sim = new Simulation({ seed: 1 });
    const s = new EtcdStore();
    s.useClock(sim);
    const seen: string[] = [];
    s.watch('/registry/', (ev) => seen.push(`${ev.type} ${ev.kv.key} ${ev.kv.modRevision}`));
    const lease = s.grant(60);
    s.create('/registry/events/default/b', () => 1, lease);
    s.create('/registry/events/default/a', () => 1, lease);
    s.create('/registry/pods/default/p', () => 1);
    sim.runUntil(59_999);
    expect(s.range('/registry/events/')).toHaveLength(2);
    sim.runUntil(60_000);
    expect(s.range('/registry/events/')).toEqual([]);
    expect(s.get('/registry/pods/default/p')).toBeDefined();
    expect(seen.slice(3)).toEqual([
      'DELETE /registry/events/default/a 5',
      'DELETE /registry/events/default/b 5',
    ]);
    expect(s.leaseOf(lease)).toBeUndefined();
  });

  it('moves a key to the lease of its last write; a write without one detaches it', () => {
    const sim = new Simulation({ seed: 1 });
    const s = new EtcdStore();
    s.useClock(sim);
    const first = s.grant(60);
    const kv = s.create('/registry/events/default/a', () => 1, first).kv!;
    sim.runUntil(30_000);
    const second = s.grant(60);
    const u = s.update('/registry/events/default/a', kv.modRevision, () => 2, second).kv!;
    expect(u.lease).toBe(second);
    expect(s.leaseOf(first)?.keys).toEqual([]);
    sim.runUntil(60_000);
    expect(s.get('/registry/events/default/a')?.value).toBe(2);
    s.update('/registry/events/default/a', u.modRevision, () => 3);
    sim.runUntil(90_000);
    expect(s.get('/registry/events/default/a')?.value).toBe(3);
  });

  it('keeps leases in an image: a store loaded from it expires them on its own clock', () => {
    const birth = new Simulation({ seed: 1 });
    const s = new EtcdStore();
    s.useClock(birth);
    s.create('/registry/events/default/a', () => 1, s.grant(60));
    const image = s.image();
    const run = new Simulation({ seed: 1 });
    const x = new EtcdStore();
    x.useClock(run);
    x.load(image);
    run.runUntil(59_999);
    expect(x.get('/registry/events/default/a')).toBeDefined();
    run.runUntil(60_000);
    expect(x.get('/registry/events/default/a')).toBeUndefined();
    expect(s.get('/registry/events/default/a')).toBeDefined();
  });

  it('revokes a lease that expired while the member was down once it is back', () => {
    const sim = new Simulation({ seed: 1 });
    const s = new EtcdStore();
    s.useClock(sim);
    s.create('/registry/events/default/a', () => 1, s.grant(60));
    sim.runUntil(59_000);
    s.down = true;
    sim.runUntil(70_000);
    expect(s.get('/registry/events/default/a')).toBeDefined();
    s.down = false;
    sim.runUntil(70_500);
    expect(s.get('/registry/events/default/a')).toBeUndefined();
  });
});

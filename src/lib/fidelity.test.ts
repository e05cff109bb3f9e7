import { describe, expect, it } from 'vitest';
import { collectFidelity, extractFidelity } from './fidelity.ts';

describe('extractFidelity', () => {
  it('reads the Mirrors line and every multi-line Simplification note', () => {
    const src = [
      '// Mirrors pkg/controller/replicaset/replica_set.go (see "Simplification:"',
      '// notes).',
      '',
      'const x = 1;',
      '// Simplification: no expectations TTL;',
      '// the cache is trusted.',
      'function f() {',
      '  /* Simplification: creates run one after another. */',
      '}',
    ].join('\n');
    expect(extractFidelity('sim/a.ts', src)).toEqual({
      file: 'sim/a.ts',
      mirrors: 'pkg/controller/replicaset/replica_set.go (see "Simplification:" notes).',
      simplifications: ['no expectations TTL; the cache is trusted.', 'creates run one after another.'],
    });
  });
  it('skips files with neither note, and test files when collecting', () => {
    expect(extractFidelity('sim/b.ts', 'export const y = 2;\n')).toBeUndefined();
    const got = collectFidelity({ '/sim/x.test.ts': '// Simplification: t', '/sim/z.ts': '// Simplification: z', '/sim/y.ts': '// Mirrors a.go' });
    expect(got.map((e) => e.file)).toEqual(['sim/y.ts', 'sim/z.ts']);
  });
});

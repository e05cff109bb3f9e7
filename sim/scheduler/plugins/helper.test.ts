import { describe, expect, it } from 'vitest';
import type { Taint } from '../../api/types.ts';
import { defaultNormalizeScore, tolerationsTolerateTaint, toleratesTaint } from './helper.ts';

describe('defaultNormalizeScore', () => {
  it('scales to maxPriority against the highest score with integer division', () => {
    const s = [10, 20, 30];
    defaultNormalizeScore(100, false, s);
    expect(s).toEqual([33, 66, 100]);
  });
  it('reverses: max - scaled', () => {
    const s = [1, 0, 2];
    defaultNormalizeScore(100, true, s);
    expect(s).toEqual([50, 100, 0]);
  });
  it('leaves all-zero scores at 0, or sets them to max when reversed', () => {
    const a = [0, 0];
    defaultNormalizeScore(100, false, a);
    expect(a).toEqual([0, 0]);
    const b = [0, 0];
    defaultNormalizeScore(100, true, b);
    expect(b).toEqual([100, 100]);
  });
});

describe('Toleration.ToleratesTaint', () => {
  const cp: Taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
  const dedicated: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoExecute' };
  it('matches key, value and effect with the Equal operator (empty operator means Equal)', () => {
    expect(toleratesTaint({ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }, dedicated)).toBe(
      true,
    );
    expect(
      toleratesTaint(
        { key: 'dedicated', operator: 'Equal', value: 'cpu', effect: 'NoExecute' },
        dedicated,
      ),
    ).toBe(false);
    expect(
      toleratesTaint({ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }, cp),
    ).toBe(true);
  });
  it('treats an empty effect as every effect', () => {
    expect(toleratesTaint({ key: 'dedicated', operator: 'Exists' }, dedicated)).toBe(true);
    expect(
      toleratesTaint({ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }, dedicated),
    ).toBe(false);
  });
  it('treats an empty key with Exists as every taint', () => {
    expect(toleratesTaint({ operator: 'Exists' }, cp)).toBe(true);
    expect(toleratesTaint({ operator: 'Exists' }, dedicated)).toBe(true);
    expect(toleratesTaint({ operator: 'Exists', effect: 'NoExecute' }, cp)).toBe(false);
  });
  it('tolerationsTolerateTaint is true if any toleration tolerates', () => {
    expect(tolerationsTolerateTaint(undefined, cp)).toBe(false);
    expect(
      tolerationsTolerateTaint([{ key: 'x', operator: 'Exists' }, { operator: 'Exists' }], cp),
    ).toBe(true);
  });
});

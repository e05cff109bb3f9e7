import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from './suggest.ts';

describe('didYouMean', () => {
  it('measures edits case-insensitively', () => {
    expect(editDistance('replica', 'replicas')).toBe(1);
    expect(editDistance('Kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
  it('offers the nearest name for a likely typo, and nothing for an unrelated one', () => {
    expect(didYouMean('replica', ['template', 'replicas', 'selector'])).toBe('; did you mean replicas?');
    expect(didYouMean('node-falure', ['node-failure', 'partition'])).toBe('; did you mean node-failure?');
    expect(closest('kube-schedular', ['kube-scheduler', 'kube-apiserver'])).toBe('kube-scheduler');
    expect(didYouMean('colour', ['name', 'seed', 'until'])).toBe('');
    expect(closest('x', ['y'])).toBe('y');
    expect(closest('abc', ['abc'])).toBeUndefined();
  });
});

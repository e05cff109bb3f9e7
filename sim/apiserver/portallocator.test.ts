// Cases from pkg/registry/core/service/portallocator/allocator_test.go (calculateRangeOffset,
// dynamic allocation from the upper band first).

import { describe, expect, it } from 'vitest';
import { Rng } from '../engine/rng.ts';
import { calculateRangeOffset, ErrAllocated, PortAllocator } from './portallocator.ts';

describe('PortAllocator', () => {
  it('reserves min(max(16, size/32), 128) ports for static allocation', () => {
    expect(calculateRangeOffset({ base: 30000, size: 2768 })).toBe(86);
    expect(calculateRangeOffset({ base: 30000, size: 16 })).toBe(0);
    expect(calculateRangeOffset({ base: 30000, size: 100 })).toBe(16);
    expect(calculateRangeOffset({ base: 30000, size: 65535 })).toBe(128);
  });

  it('hands out the upper band first, then the lower band, then nothing', () => {
    const a = new PortAllocator({ base: 30000, size: 20 }, new Rng(1));
    const got: number[] = [];
    for (let i = 0; i < 4; i++) got.push(a.allocateNext()!);
    expect(got.every((p) => p >= 30016 && p < 30020)).toBe(true);
    for (let i = 0; i < 16; i++) expect(a.allocateNext()).toBeLessThan(30016);
    expect(a.allocateNext()).toBeUndefined();
    a.release(30003);
    expect(a.allocateNext()).toBe(30003);
  });

  it('refuses a port already allocated', () => {
    const a = new PortAllocator({ base: 30000, size: 2768 }, new Rng(1));
    expect(a.allocate(30080)).toBeUndefined();
    expect(a.allocate(30080)).toBe(ErrAllocated);
    expect(a.allocate(32768)).toMatch(/^provided port is not in the valid range/);
  });
});

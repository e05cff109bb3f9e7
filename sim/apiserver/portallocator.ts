// Mirrors pkg/registry/core/service/portallocator/allocator.go (PortAllocator: Allocate,
// AllocateNext, Release, calculateRangeOffset, ErrAllocated, ErrNotInRange) and
// pkg/registry/core/service/allocator/bitmap.go (randomScanStrategyWithOffset): the node ports of
// NodePort and LoadBalancer Services, from --service-node-port-range (default 30000-32767).
// Dynamic allocation prefers the upper band of the range and falls back to the lower band, which is
// left for ports users ask for (ServiceNodePortStaticSubrange, GA in v1.29).
// Simplification: the allocations live in kube-apiserver's memory and are rebuilt from the stored
// Services when a store is loaded (upstream keeps a RangeAllocation in etcd and a repair loop).

import type { Rng } from '../engine/rng.ts';

/** PortRange is a net.PortRange: base and size. */
export interface PortRange {
  base: number;
  size: number;
}

/** defaultServiceNodePortRange is kube-apiserver's --service-node-port-range default. */
export const defaultServiceNodePortRange: PortRange = { base: 30000, size: 2768 };

/** ErrAllocated is the error for a requested port some Service already holds. */
export const ErrAllocated = 'provided port is already allocated';

/** errNotInRange is ErrNotInRange's message. */
export function errNotInRange(r: PortRange): string {
  return `provided port is not in the valid range. The range of valid ports is ${r.base}-${r.base + r.size - 1}`;
}

/**
 * calculateRangeOffset is the size of the lower band kept for static allocation:
 * min(max(16, size/32), 128), or 0 for a range of 16 ports or fewer.
 */
export function calculateRangeOffset(r: PortRange): number {
  const min = 16;
  const max = 128;
  const step = 32;
  if (r.size <= min) return 0;
  const offset = Math.floor(r.size / step);
  if (offset < min) return min;
  if (offset > max) return max;
  return offset;
}

/** PortAllocator hands out node ports from a range, with the upstream scan strategy. */
export class PortAllocator {
  readonly range: PortRange;
  private readonly rng: Rng;
  private readonly offset: number;
  private readonly allocated = new Set<number>();

  constructor(range: PortRange, rng: Rng) {
    this.range = range;
    this.rng = rng;
    this.offset = calculateRangeOffset(range);
  }

  /** allocate reserves a requested port; it returns the error message, or undefined. */
  allocate(port: number): string | undefined {
    const offset = port - this.range.base;
    if (offset < 0 || offset >= this.range.size) return errNotInRange(this.range);
    if (this.allocated.has(offset)) return ErrAllocated;
    this.allocated.add(offset);
    return undefined;
  }

  /**
   * allocateNext mirrors randomScanStrategyWithOffset.AllocateBit: a random start in the upper
   * band, scanning forward (wrapping inside the band) to the first free port; then the same in the
   * lower band. undefined when the range is full.
   */
  allocateNext(): number | undefined {
    const max = this.range.size;
    if (this.allocated.size >= max) return undefined;
    const subrangeMax = max - this.offset;
    let start = this.rng.intn(subrangeMax);
    for (let i = 0; i < subrangeMax; i++) {
      const at = this.offset + ((start + i) % subrangeMax);
      if (!this.allocated.has(at)) return this.take(at);
    }
    if (this.offset > 0) {
      start = this.rng.intn(this.offset);
      for (let i = 0; i < this.offset; i++) {
        const at = (start + i) % this.offset;
        if (!this.allocated.has(at)) return this.take(at);
      }
    }
    return undefined;
  }

  /** release frees a port; releasing a free or out-of-range port does nothing. */
  release(port: number): void {
    this.allocated.delete(port - this.range.base);
  }

  /** has reports whether a port is allocated. */
  has(port: number): boolean {
    return this.allocated.has(port - this.range.base);
  }

  private take(offset: number): number {
    this.allocated.add(offset);
    return this.range.base + offset;
  }
}

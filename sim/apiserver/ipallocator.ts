// Mirrors the ClusterIP allocation of kube-apiserver v1.34 with MultiCIDRServiceAllocator (GA in
// v1.33): pkg/registry/core/service/ipallocator/cidrallocator.go (MetaAllocator: an IP no
// ServiceCIDR contains is ErrMismatchedNetwork), ipallocator.go (Allocator.allocateService: the
// network and broadcast addresses are outside the range, ErrNotInRange; an IPAddress that already
// exists is ErrAllocated) and interfaces.go (the errors' words), as storage/alloc.go allocIPs
// wraps them: `spec.clusterIPs: Invalid value: []string{...}: failed to allocate IP <ip>: <err>`.
// Simplification: one ServiceCIDR (kubernetes, from --service-cluster-ip-range); the allocated
// addresses are kept in memory and rebuilt from the Services (kube-apiserver writes the IPAddress
// objects beside them, but does not read them back).

import type { Service } from '../api/types.ts';
import type { Rng } from '../engine/rng.ts';
import type { FieldError } from './errors.ts';

export const ErrAllocated = 'provided IP is already allocated';
export const ErrMismatchedNetwork = 'the provided network does not match the current range';

/** parseIPv4 returns a dotted quad as a 32-bit number, or undefined when it is not one. */
export function parseIPv4(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    // netip.ParseAddr: decimal, no leading zeros, 0-255.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

function formatIPv4(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** ServiceIPAllocator hands out cluster IPs from one IPv4 service CIDR. */
export class ServiceIPAllocator {
  readonly cidr: string;
  private readonly base: number;
  private readonly size: number;
  private readonly allocated = new Set<string>();

  constructor(cidr: string) {
    const [addr, bits] = cidr.split('/');
    this.cidr = cidr;
    this.base = parseIPv4(addr)!;
    this.size = 2 ** (32 - Number(bits));
  }

  /** allocate reserves a requested IP; it returns the allocator's error text, or undefined. */
  allocate(ip: string): string | undefined {
    const n = parseIPv4(ip);
    if (n === undefined || n < this.base || n >= this.base + this.size) return ErrMismatchedNetwork;
    // The subnet's first (network) and last (broadcast) addresses are never handed out.
    if (n === this.base || n === this.base + this.size - 1)
      return `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr}`;
    if (this.allocated.has(ip)) return ErrAllocated;
    this.allocated.add(ip);
    return undefined;
  }

  /**
   * allocateNext draws a free IP. Simplification: uniformly from the first /16 of the range, not
   * the first and the 10.96.0.1 and 10.96.0.10 that bootstrap Services take (upstream: the whole
   * range, with a low band kept for static IPs).
   */
  allocateNext(rng: Rng): string {
    let ip: string;
    do ip = formatIPv4(this.base + rng.intn(256) * 256 + 1 + rng.intn(254));
    while (this.allocated.has(ip) || ip.endsWith('.0.1') || ip.endsWith('.0.10'));
    this.allocated.add(ip);
    return ip;
  }

  release(ip: string): void {
    this.allocated.delete(ip);
  }

  /** restore marks an IP held by a stored Service as allocated. */
  restore(ip: string): void {
    this.allocated.add(ip);
  }
}

/** clusterIPAllocationError is the field error allocIPs returns for a refused clusterIP. */
export function clusterIPAllocationError(svc: Service, ip: string, err: string): FieldError {
  const ips = svc.spec.clusterIPs?.length ? svc.spec.clusterIPs : [ip];
  return {
    field: 'spec.clusterIPs',
    type: 'Invalid value',
    raw: `[]string{${ips.map((x) => JSON.stringify(x)).join(', ')}}`,
    detail: `failed to allocate IP ${ip}: ${err}`,
  };
}

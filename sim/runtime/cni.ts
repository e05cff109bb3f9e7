// Mirrors the CNI contract (containernetworking/cni SPEC.md: ADD and DEL) as containerd calls it
// for each pod sandbox, with the bridge plugin delegating to host-local IPAM
// (containernetworking/plugins plugins/ipam/host-local/backend/allocator): addresses come from the
// node's podCIDR, the first usable address is the bridge gateway, and allocation is round-robin
// from the last reserved address, so a new pod rarely gets the IP a deleted pod just released.
// Simplification: no network namespaces, veth pairs, bridge or routes; ADD only reserves an IP and
// DEL only releases it. The IPAM state is lost when the node powers off.
// Simplification: with `cni: calico` this same model hands out the addresses (as Calico does when
// configured with host-local IPAM and usePodCidr, not its default calico-ipam blocks) and its
// errors keep the bridge plugin's wording; Calico's policy enforcement is runtime/networkpolicy.ts
// and cluster/dataplane.ts, its Pods cluster/calico.ts.

import type { Simulation } from '../engine/simulation.ts';

/** IPAMMode: 'round-robin' is host-local's behaviour; 'lowest-free' hands out the lowest free IP. */
export type IPAMMode = 'round-robin' | 'lowest-free';

export interface CNIPluginOptions {
  nodeName: string;
  /** podCIDR is the node's range, e.g. "10.244.1.0/24". */
  podCIDR: string;
  ipam?: IPAMMode;
}

/** CNIError is an ADD failure, worded as the bridge plugin reports it through containerd. */
export class CNIError extends Error {}

function ipToInt(ip: string): number {
  const p = ip.split('.').map(Number);
  return ((p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3]) >>> 0;
}

function intToIP(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** CNIPlugin is one node's CNI plugin (bridge + host-local IPAM). */
export class CNIPlugin {
  static readonly NAME = 'cni-plugin';
  /** name is the trace identity, "cni-plugin@<node>". */
  readonly name: string;
  readonly podCIDR: string;
  readonly gateway: string;
  private readonly sim: Simulation;
  private readonly mode: IPAMMode;
  private readonly base: number;
  private readonly first: number;
  private readonly last: number;
  private readonly allocated = new Map<number, string>();
  private readonly byContainer = new Map<string, number>();
  private lastReserved = -1;

  constructor(sim: Simulation, opts: CNIPluginOptions) {
    this.sim = sim;
    this.name = `${CNIPlugin.NAME}@${opts.nodeName}`;
    this.podCIDR = opts.podCIDR;
    this.mode = opts.ipam ?? 'round-robin';
    const [addr, bitsStr] = opts.podCIDR.split('/');
    const bits = Number(bitsStr ?? 24);
    const size = 2 ** (32 - bits);
    this.base = (ipToInt(addr) & ~(size - 1)) >>> 0;
    // host-local: rangeStart = network + 1 (the gateway, skipped), rangeEnd = broadcast - 1.
    this.first = 2;
    this.last = size - 2;
    this.gateway = intToIP(this.base + 1);
  }

  /** rangeSet is host-local's printed range, e.g. "10.244.1.1-10.244.1.254". */
  get rangeSet(): string {
    return `${intToIP(this.base + 1)}-${intToIP(this.base + this.last)}`;
  }

  /** allocatedCount is how many addresses are reserved. */
  get allocatedCount(): number {
    return this.allocated.size;
  }

  /** contains says whether ip is inside this plugin's range. */
  contains(ip: string): boolean {
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return false;
    const off = ipToInt(ip) - this.base;
    return off >= this.first && off <= this.last;
  }

  // traceAdd records an ADD and its result (an address or the error). The entry is not built
  // when the trace level drops it (a scale run adds 150,000 sandboxes).
  private traceAdd(caller: string, pod: string, result: string): void {
    if (this.sim.records('call'))
      this.sim.record({ kind: 'call', from: caller, to: this.name, method: 'ADD', pod, result });
  }

  /**
   * add is CNI ADD for a sandbox: reserve an address and return it. caller is the runtime that
   * invokes the plugin; pod is namespace/name for the trace. Throws CNIError when the range is full.
   */
  add(caller: string, containerID: string, pod: string): string {
    const existing = this.byContainer.get(containerID);
    if (existing !== undefined) return intToIP(this.base + existing);
    const off = this.nextFree();
    if (off < 0) {
      const msg = `plugin type="bridge" failed (add): failed to allocate for range 0: no IP addresses available in range set: ${this.rangeSet}`;
      this.traceAdd(caller, pod, msg);
      throw new CNIError(msg);
    }
    this.allocated.set(off, containerID);
    this.byContainer.set(containerID, off);
    this.lastReserved = off;
    const ip = intToIP(this.base + off);
    this.traceAdd(caller, pod, ip);
    return ip;
  }

  /** del is CNI DEL: release the sandbox's address (idempotent, as the spec requires). */
  del(caller: string, containerID: string, pod: string): void {
    const off = this.byContainer.get(containerID);
    if (this.sim.records('call'))
      this.sim.record({
        kind: 'call',
        from: caller,
        to: this.name,
        method: 'DEL',
        pod,
        result: off === undefined ? undefined : intToIP(this.base + off),
      });
    if (off === undefined) return;
    this.byContainer.delete(containerID);
    this.allocated.delete(off);
  }

  /** reserve records an address already in use (bootstrap adoption); no trace. */
  reserve(containerID: string, ip: string): boolean {
    if (!this.contains(ip)) return false;
    const off = ipToInt(ip) - this.base;
    if (this.allocated.has(off)) return this.allocated.get(off) === containerID;
    this.allocated.set(off, containerID);
    this.byContainer.set(containerID, off);
    if (off > this.lastReserved) this.lastReserved = off;
    return true;
  }

  /** reset forgets every reservation (the node powered off). */
  reset(): void {
    this.allocated.clear();
    this.byContainer.clear();
    this.lastReserved = -1;
  }

  // nextFree mirrors host-local's RangeIter: start after the last reserved address and wrap.
  private nextFree(): number {
    const n = this.last - this.first + 1;
    const start =
      this.mode === 'lowest-free' || this.lastReserved < 0 ? this.first : this.lastReserved + 1;
    for (let i = 0; i < n; i++) {
      let off = start + i;
      if (off > this.last) off = this.first + ((off - this.first) % n);
      if (!this.allocated.has(off)) return off;
    }
    return -1;
  }
}

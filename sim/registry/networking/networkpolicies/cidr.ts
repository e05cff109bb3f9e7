// CIDR parsing as k8s.io/utils/net ParseCIDRSloppy reads it (Go's net.ParseCIDR, which also takes
// IPv4 octets with leading zeros as decimal): an address, IPv4 or IPv6, and a prefix length; the
// network is the address masked to the prefix. A NetworkPolicy's ipBlock is matched with it.

/** CIDR is a parsed CIDR: the network's bytes (4 or 16) and its prefix length. */
export interface CIDR {
  family: 4 | 6;
  network: number[];
  bits: number;
  /** contains says whether an address's bytes (of this family) lie in the network. */
  contains(address: number[]): boolean;
}

/** parseIP reads an IPv4 or IPv6 address into its bytes, or undefined. */
export function parseIP(s: string): number[] | undefined {
  if (s.includes(':')) return parseIPv6(s);
  return parseIPv4(s);
}

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): number[] | undefined {
  let text = s;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    // An embedded IPv4 tail (::ffff:1.2.3.4) is the last two groups.
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (!v4) return undefined;
    const hex = (a: number, b: number): string => ((a << 8) | b).toString(16);
    text = `${s.slice(0, lastColon + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const group = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      const n = parseInt(g, 16);
      out.push(n >> 8, n & 255);
    }
    return out;
  };
  const head = group(halves[0]!);
  const rest = halves.length === 2 ? group(halves[1]!) : [];
  if (!head || !rest) return undefined;
  const have = head.length + rest.length;
  if (halves.length === 1 ? have !== 16 : have > 14) return undefined;
  return [...head, ...new Array<number>(16 - have).fill(0), ...rest];
}

/** parseCIDR mirrors ParseCIDRSloppy: "addr/bits", the network masked; undefined if invalid. */
export function parseCIDR(s: string): CIDR | undefined {
  const m = /^([^/]+)\/([0-9]+)$/.exec(s);
  if (!m) return undefined;
  const ip = parseIP(m[1]!);
  if (!ip) return undefined;
  const bits = Number(m[2]);
  if (bits > ip.length * 8 || m[2]!.length > 3) return undefined;
  const network = ip.map((b, i) => b & mask(bits, i));
  return {
    family: ip.length === 4 ? 4 : 6,
    network,
    bits,
    contains: (a) =>
      a.length === network.length && a.every((b, i) => (b & mask(bits, i)) === network[i]),
  };
}

// mask is the prefix's mask for byte i.
function mask(bits: number, i: number): number {
  const left = bits - i * 8;
  if (left >= 8) return 255;
  if (left <= 0) return 0;
  return (0xff << (8 - left)) & 255;
}

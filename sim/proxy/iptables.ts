// A model of one node's netfilter tables as iptables sees them, and `iptables-save` printing
// them back. The chain layout and the rules kube-proxy writes follow
// pkg/proxy/iptables/proxier.go; the jump rules kubelet owns follow
// pkg/kubelet/kubelet_network_linux.go; the text follows iptables-save(8) v1.8 (legacy backend):
// built-in chains first, then user chains sorted by name, each rule in the kernel's canonical
// form (-s/-d/-p first, addresses with a prefix length, extension options as the kernel stores
// them, e.g. MARK --or-mark printed as --set-xmark and statistic probabilities as 2^31 fractions).
// Simplification: no packets flow, so every counter is [0:0]; only the rules of kube-proxy and
// kubelet exist (no CNI, Docker or distribution firewall rules); the node runs the legacy
// backend (iptables-nft would print "v1.8.9 (nf_tables)" in the header).

import { EPOCH_UNIX_MS, formatTime } from '../engine/clock.ts';

export type TableName = 'nat' | 'filter' | 'mangle' | 'raw' | 'security';
export type Protocol = 'tcp' | 'udp' | 'sctp';

/** Match is one `-m <module>` of a rule with its options. */
export type Match =
  | { module: 'comment'; comment: string }
  | { module: Protocol; dport?: number }
  /** probability is the string the writer gave (kube-proxy: Go "%0.10f" of 1/n). */
  | { module: 'statistic'; probability: string }
  | { module: 'mark'; mark: number; mask: number; invert?: boolean }
  | { module: 'addrtype'; srcType?: string; dstType?: string }
  | { module: 'conntrack'; ctstate: string; invert?: boolean }
  | { module: 'recent'; op: 'set' | 'rcheck'; name: string; seconds?: number; reap?: boolean }
  /** set matches an ipset (IPVS mode): flags such as "dst,dst". */
  | { module: 'set'; matchSet: string; flags: string; invert?: boolean };

/** Rule is one rule of a chain. Addresses may omit the prefix length (then /32). */
export interface Rule {
  source?: string;
  notSource?: boolean;
  destination?: string;
  notDestination?: boolean;
  protocol?: Protocol;
  matches: Match[];
  /** jump is the target: a chain name or an extension (DNAT, MARK, MASQUERADE, REJECT...). */
  jump: string;
  /** targetArgs are the target's options as iptables-save prints them. */
  targetArgs?: string[];
}

/** Chain is one chain of a table. Its rules array is replaced, never changed in place. */
export interface Chain {
  name: string;
  builtin: boolean;
  /** policy of a built-in chain. */
  policy?: 'ACCEPT' | 'DROP';
  rules: readonly Rule[];
}

/** builtinChains lists each table's built-in chains in the order iptables-save prints them. */
export const builtinChains: Record<TableName, string[]> = {
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
  raw: ['PREROUTING', 'OUTPUT'],
  security: ['INPUT', 'FORWARD', 'OUTPUT'],
};

/** Table is one netfilter table: its chains, built-in ones first. */
export class Table {
  readonly name: TableName;
  readonly chains = new Map<string, Chain>();

  constructor(name: TableName) {
    this.name = name;
    for (const c of builtinChains[name])
      this.chains.set(c, { name: c, builtin: true, policy: 'ACCEPT', rules: [] });
  }

  chain(name: string): Chain | undefined {
    return this.chains.get(name);
  }

  /** orderedChains returns built-in chains, then user chains sorted by name (byte order). */
  orderedChains(): Chain[] {
    const builtin: Chain[] = [];
    const user: Chain[] = [];
    for (const c of this.chains.values()) (c.builtin ? builtin : user).push(c);
    user.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [...builtin, ...user];
  }
}

/** RestoreInput is what `iptables-restore --noflush` receives for one table. */
export interface RestoreInput {
  /** chains are flushed (created if missing) and refilled with these rules, in this order. */
  chains: Map<string, readonly Rule[]>;
  /** deleteChains are flushed and removed (-X). */
  deleteChains?: string[];
}

/** Options for NodeIptables. */
export interface NodeIptablesOptions {
  /**
   * kubelet: install kubelet's chains (KUBE-KUBELET-CANARY and the KUBE-FIREWALL localnet rule)
   * as on a booted node. Default true.
   */
  kubelet?: boolean;
}

/**
 * NodeIptables is the kernel state of one node ("iptables@<node>"): the tables that survive
 * kube-proxy restarts. Writers change it through ensureChain, ensureRule and restore;
 * generation counts changes so that a writer can tell when someone else touched it.
 */
export class NodeIptables {
  readonly node: string;
  readonly tables = new Map<TableName, Table>();
  generation = 0;
  private readonly flushListeners = new Set<() => void>();

  constructor(node: string, opts: NodeIptablesOptions = {}) {
    this.node = node;
    for (const t of ['mangle', 'filter', 'nat'] as const) this.tables.set(t, new Table(t));
    if (opts.kubelet ?? true) this.installKubeletChains();
  }

  // installKubeletChains mirrors kubelet's syncIPTablesRules (pkg/kubelet/kubelet_network_linux.go):
  // the KUBE-KUBELET-CANARY monitor chain in mangle, nat and filter, and KUBE-FIREWALL, which
  // drops traffic to 127.0.0.0/8 from elsewhere, jumped to from INPUT and OUTPUT.
  // Simplification: present from boot, as kubelet starts before the kube-proxy Pod.
  private installKubeletChains(): void {
    for (const t of ['mangle', 'nat', 'filter'] as const)
      this.ensureChain(t, 'KUBE-KUBELET-CANARY');
    this.ensureChain('filter', 'KUBE-FIREWALL');
    this.table('filter')!.chain('KUBE-FIREWALL')!.rules = [localnetFirewallRule()];
    this.ensureRule('prepend', 'filter', 'OUTPUT', { matches: [], jump: 'KUBE-FIREWALL' });
    this.ensureRule('prepend', 'filter', 'INPUT', { matches: [], jump: 'KUBE-FIREWALL' });
  }

  table(name: TableName): Table | undefined {
    return this.tables.get(name);
  }

  /** ensureChain creates a chain if missing (iptables -N); it returns true if it existed. */
  ensureChain(table: TableName, chain: string): boolean {
    const t = this.tables.get(table)!;
    if (t.chains.has(chain)) return true;
    t.chains.set(chain, { name: chain, builtin: false, rules: [] });
    this.generation++;
    return false;
  }

  /** ensureRule adds a rule unless an identical one exists (iptables -C, then -I or -A). */
  ensureRule(position: 'prepend' | 'append', table: TableName, chain: string, rule: Rule): boolean {
    const c = this.tables.get(table)!.chain(chain);
    if (!c) throw new Error(`iptables: No chain/target/match by that name.`);
    const text = ruleSpec(rule);
    if (c.rules.some((r) => ruleSpec(r) === text)) return true;
    c.rules = position === 'prepend' ? [rule, ...c.rules] : [...c.rules, rule];
    this.generation++;
    return false;
  }

  /**
   * restore applies iptables-restore --noflush input to one table. The rule arrays are taken as
   * they are, not copied: they are never changed in place (writers replace them), so nodes with
   * the same rules share them.
   */
  restore(table: TableName, input: RestoreInput): void {
    const t = this.tables.get(table)!;
    input.chains.forEach((rules, name) => {
      const c = t.chains.get(name);
      if (c) c.rules = rules;
      else t.chains.set(name, { name, builtin: false, rules });
    });
    for (const name of input.deleteChains ?? []) {
      const c = t.chains.get(name);
      if (c && !c.builtin) t.chains.delete(name);
    }
    this.generation++;
  }

  /**
   * flushAll empties every chain of every table and deletes user chains (iptables -F; -X), as
   * an administrator or a firewall reload might. Listeners (the processes that watch for it,
   * like kube-proxy's iptables monitor) are told.
   */
  flushAll(): void {
    for (const t of this.tables.values()) {
      for (const [name, c] of [...t.chains]) {
        if (c.builtin) c.rules = [];
        else t.chains.delete(name);
      }
    }
    this.generation++;
    for (const fn of [...this.flushListeners]) fn();
  }

  /** onFlush registers fn to run after flushAll; it returns a function that unregisters it. */
  onFlush(fn: () => void): () => void {
    this.flushListeners.add(fn);
    return () => this.flushListeners.delete(fn);
  }
}

const localnetRule: Rule = {
  source: '127.0.0.0/8',
  notSource: true,
  destination: '127.0.0.0/8',
  matches: [
    { module: 'comment', comment: 'block incoming localnet connections' },
    { module: 'conntrack', ctstate: 'RELATED,ESTABLISHED,DNAT', invert: true },
  ],
  jump: 'DROP',
};

/** localnetFirewallRule is the rule kubelet and kube-proxy both keep in KUBE-FIREWALL. */
export function localnetFirewallRule(): Rule {
  return localnetRule;
}

// ---- formatting ----

const NO_QUOTE = /^[_\-0-9a-zA-Z]+$/;

/** saveString mirrors xtables_save_string: quote unless only [_-0-9a-zA-Z], escaping " \ '. */
export function saveString(v: string): string {
  if (NO_QUOTE.test(v)) return v;
  return `"${v.replace(/["\\']/g, (c) => `\\${c}`)}"`;
}

function addr(a: string): string {
  return a.includes('/') ? a : `${a}/32`;
}

const probabilityCache = new Map<string, string>();

/**
 * kernelProbability is what iptables-save prints for `--probability p`: libxt_statistic stores
 * lround(p * 2^31) and prints it back divided by 2^31 with "%.11f" (so 0.3333333333 becomes
 * 0.33333333349).
 */
export function kernelProbability(p: string): string {
  let out = probabilityCache.get(p);
  if (out === undefined) {
    const k = Math.round(0x80000000 * Number(p));
    out = formatFixed(k / 0x80000000, 11);
    if (probabilityCache.size > 10_000) probabilityCache.clear();
    probabilityCache.set(p, out);
  }
  return out;
}

/**
 * formatFixed prints a non-negative double with prec decimals, rounding its exact binary value
 * half to even, as both Go's fmt ("%0.10f") and glibc's printf ("%.11f") do. (JavaScript's
 * toFixed rounds ties up.)
 */
export function formatFixed(x: number, prec: number): string {
  if (!(x >= 0) || !Number.isFinite(x)) return x.toFixed(prec);
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (exp === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = exp - 1075;
  }
  const scale = 10n ** BigInt(prec);
  let q: bigint;
  if (e >= 0) q = (m << BigInt(e)) * scale;
  else {
    const num = m * scale;
    const den = 1n << BigInt(-e);
    q = num / den;
    const r2 = (num % den) * 2n;
    if (r2 > den || (r2 === den && q % 2n === 1n)) q += 1n;
  }
  const digits = q.toString().padStart(prec + 1, '0');
  return prec === 0 ? digits : `${digits.slice(0, -prec)}.${digits.slice(-prec)}`;
}

function hex(n: number): string {
  return `0x${(n >>> 0).toString(16)}`;
}

function matchSpec(m: Match): string {
  switch (m.module) {
    case 'comment':
      return `-m comment --comment ${saveString(m.comment)}`;
    case 'tcp':
    case 'udp':
    case 'sctp':
      return m.dport === undefined ? `-m ${m.module}` : `-m ${m.module} --dport ${m.dport}`;
    case 'statistic':
      return `-m statistic --mode random --probability ${kernelProbability(m.probability)}`;
    case 'mark':
      return `-m mark${m.invert ? ' !' : ''} --mark ${hex(m.mark)}${m.mask === 0xffffffff ? '' : `/${hex(m.mask)}`}`;
    case 'addrtype':
      return `-m addrtype${m.srcType ? ` --src-type ${m.srcType}` : ''}${m.dstType ? ` --dst-type ${m.dstType}` : ''}`;
    case 'conntrack':
      return `-m conntrack${m.invert ? ' !' : ''} --ctstate ${m.ctstate}`;
    case 'recent':
      return `-m recent --${m.op}${m.seconds ? ` --seconds ${m.seconds}` : ''}${m.reap ? ' --reap' : ''} --name ${m.name} --mask 255.255.255.255 --rsource`;
    case 'set':
      return `-m set${m.invert ? ' !' : ''} --match-set ${m.matchSet} ${m.flags}`;
  }
}

const specCache = new WeakMap<Rule, string>();

/** ruleSpec renders a rule after "-A <chain> " as iptables-save does. Rules are immutable. */
export function ruleSpec(r: Rule): string {
  let s = specCache.get(r);
  if (s !== undefined) return s;
  const parts: string[] = [];
  if (r.source) parts.push(`${r.notSource ? '! ' : ''}-s ${addr(r.source)}`);
  if (r.destination) parts.push(`${r.notDestination ? '! ' : ''}-d ${addr(r.destination)}`);
  if (r.protocol) parts.push(`-p ${r.protocol}`);
  for (const m of r.matches) parts.push(matchSpec(m));
  parts.push(`-j ${r.jump}`);
  if (r.targetArgs?.length) parts.push(r.targetArgs.join(' '));
  s = parts.join(' ');
  specCache.set(r, s);
  return s;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * formatCtime renders virtual milliseconds as C's ctime(3) does ("Thu Jan  1 00:00:00 2026"),
 * in UTC. Simplification: the node's time zone is UTC.
 */
export function formatCtime(ms: number): string {
  const iso = formatTime(ms); // 2026-01-01T00:00:00Z
  const days = Math.floor((EPOCH_UNIX_MS + Math.floor(ms / 1000) * 1000) / 86_400_000);
  const dow = DAYS[(((days + 4) % 7) + 7) % 7]; // 1970-01-01 was a Thursday
  const month = MONTHS[Number(iso.slice(5, 7)) - 1];
  const day = String(Number(iso.slice(8, 10))).padStart(2, ' ');
  return `${dow} ${month} ${day} ${iso.slice(11, 19)} ${iso.slice(0, 4)}`;
}

/** IPTABLES_VERSION is the iptables release the simulated nodes run. */
export const IPTABLES_VERSION = '1.8.9';

export interface SaveOptions {
  /** counters prints "[packets:bytes]" before each rule, as iptables-save -c. */
  counters?: boolean;
}

/** iptablesSave prints one table exactly as `iptables-save -t <table>` does. */
export function iptablesSave(table: Table, nowMs: number, opts: SaveOptions = {}): string {
  const when = formatCtime(nowMs);
  const chains = table.orderedChains();
  const lines: string[] = [
    `# Generated by iptables-save v${IPTABLES_VERSION} on ${when}`,
    `*${table.name}`,
  ];
  for (const c of chains) lines.push(`:${c.name} ${c.builtin ? c.policy : '-'} [0:0]`);
  const prefix = opts.counters ? '[0:0] ' : '';
  for (const c of chains)
    for (const r of c.rules) lines.push(`${prefix}-A ${c.name} ${ruleSpec(r)}`);
  lines.push('COMMIT', `# Completed on ${when}`);
  return `${lines.join('\n')}\n`;
}

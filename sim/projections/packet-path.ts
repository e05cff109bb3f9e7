// The path of a Pod's requests, from the run's dns and packet entries (sim/cluster/dataplane.ts):
// the client asks its resolver, the resolver asks CoreDNS (each question and its answer), the
// client opens a connection, its node's rules translate the Service address to an endpoint, the
// CNI network carries it to the target Pod, and the target answers or refuses. A projection in
// the sense of STYLE.md §4: a pure function of the trace and the options; the model is a
// SequenceDiagram, drawn by the same renderer as the other sequence figures.

import type { DnsEntry, PacketEntry, TraceEntry } from '../engine/trace.ts';
import { stepsDiagram, type SequenceDiagram, type SequenceStep } from './sequence.ts';
import type { RunLike } from './util.ts';

/** PacketPathOptions choose the client and the window (virtual seconds). */
export interface PacketPathOptions {
  /** client is the Pod whose requests are drawn, namespace/name. */
  client: string;
  from?: number;
  to?: number;
  lang?: 'en' | 'ja';
}

const TEXT = {
  en: {
    client: (pod: string) => pod,
    resolver: 'resolver (libc)',
    rules: (node: string) => `${node} rules`,
    cni: 'CNI network',
    lookup: (name: string) => `look up ${name}`,
    address: (ips: string) => ips,
    noAddress: 'no address',
    empty: 'NOERROR, no answer',
    syn: (dst: string) => `SYN to ${dst}`,
    dnat: (chains: string, ep: string) => `${chains}: DNAT to ${ep}`,
    reject: 'REJECT: ICMP port unreachable',
    noRule: 'no rule matches: the packet is lost',
    carry: (ep: string) => `to ${ep}`,
    accept: 'SYN-ACK: connected, then the HTTP reply',
    reset: (port: string) => `RST: nothing listens on ${port}`,
    lost: 'no reply: the Pod or its node is gone',
    question: (dst: string) => `DNS question to ${dst}`,
    dropped: (policy: string) => `dropped: NetworkPolicy ${policy} isolates the Pod`,
    title: (pod: string) => `The path of ${pod}'s requests`,
    description: (pod: string, n: number, m: number) =>
      `${pod} asks its resolver for each name; the resolver sends ${n} DNS question${n === 1 ? '' : 's'} to CoreDNS through the node's rules, and ${m} connection${m === 1 ? '' : 's'} go${m === 1 ? 'es' : ''} through the client node's rules, the CNI network and the target Pod.`,
  },
  ja: {
    client: (pod: string) => pod,
    resolver: 'リゾルバー（libc）',
    rules: (node: string) => `${node} のルール`,
    cni: 'CNI ネットワーク',
    lookup: (name: string) => `${name} を解決`,
    address: (ips: string) => ips,
    noAddress: 'アドレスなし',
    empty: 'NOERROR、回答なし',
    syn: (dst: string) => `${dst} へ SYN`,
    dnat: (chains: string, ep: string) => `${chains}: ${ep} へ DNAT`,
    reject: 'REJECT: ICMP port unreachable',
    noRule: '一致するルールがなくパケットは失われる',
    carry: (ep: string) => `${ep} へ`,
    accept: 'SYN-ACK で接続し、HTTP の応答',
    reset: (port: string) => `RST: ${port} 番で待ち受けるものがない`,
    lost: '応答なし: Pod かそのノードがない',
    question: (dst: string) => `${dst} への DNS の問い合わせ`,
    dropped: (policy: string) => `破棄: NetworkPolicy ${policy} が Pod を隔離している`,
    title: (pod: string) => `${pod} のリクエストの経路`,
    description: (pod: string, n: number, m: number) =>
      `${pod} は名前ごとにリゾルバーに尋ね、リゾルバーはノードのルールを通して CoreDNS に ${n} 個の DNS の問い合わせを送ります。${m} 個の接続は、クライアントのノードのルール、CNI ネットワーク、宛先の Pod を通ります。`,
  },
};

/**
 * coreDnsLabel names the DNS server Pod's lifeline: "CoreDNS" and the end of its Pod name (the
 * ReplicaSet's hash is the same for both Pods), so two servers stay apart and the box stays narrow.
 */
function coreDnsLabel(pod: string): string {
  const name = pod.split('/').pop()!;
  return name.startsWith('coredns-') ? `CoreDNS …${name.slice(name.lastIndexOf('-'))}` : name;
}

/** packetPathDiagram projects a client's DNS questions and connections onto a sequence diagram. */
export function packetPathDiagram(run: RunLike, opts: PacketPathOptions): SequenceDiagram {
  const t = TEXT[opts.lang ?? 'en'];
  const inWindow = (e: TraceEntry) =>
    (opts.from === undefined || e.t >= opts.from) && (opts.to === undefined || e.t <= opts.to);
  const entries = run.trace.filter(
    (e): e is DnsEntry | PacketEntry =>
      (e.kind === 'dns' || e.kind === 'packet') && e.from === opts.client && inWindow(e),
  );
  const pod = opts.client.split('/').pop()!;
  const ids = {
    client: t.client(pod),
    resolver: t.resolver,
    coredns: '',
    rules: '',
    cni: t.cni,
    target: '',
  };
  for (const e of entries) {
    if (e.kind === 'dns' && !ids.coredns) ids.coredns = coreDnsLabel(e.to);
    if (e.kind === 'packet') {
      if (!ids.rules) ids.rules = t.rules(e.node);
      if (!ids.target && e.to) ids.target = e.to.split('/').pop()!;
    }
  }
  const steps: Omit<SequenceStep, 'n'>[] = [];
  const add = (
    from: string,
    to: string,
    kind: SequenceStep['kind'],
    text: string,
    e: TraceEntry,
    dotted = false,
  ): void => {
    steps.push({
      t: e.t,
      from,
      to,
      kind,
      text,
      dotted,
      ...(kind === 'note' ? { over: [from] } : {}),
      seqs: [e.seq],
    });
  };
  // A lookup is the run of dns entries for one name's candidates: it opens with the client's
  // call to its resolver and closes with the addresses (or none) handed back.
  let lookupOpen = false;
  let lastAddresses: string[] = [];
  const closeLookup = (e: TraceEntry): void => {
    if (!lookupOpen) return;
    add(
      ids.resolver,
      ids.client,
      'reply',
      lastAddresses.length ? t.address(lastAddresses.join(', ')) : t.noAddress,
      e,
      true,
    );
    lookupOpen = false;
    lastAddresses = [];
  };
  for (const e of entries) {
    if (e.kind === 'dns') {
      if (!lookupOpen) {
        add(ids.client, ids.resolver, 'packet', t.lookup(e.name.split('.')[0]!), e);
        lookupOpen = true;
      }
      add(ids.resolver, coreDnsLabel(e.to), 'packet', `${e.qtype}? ${e.name}`, e);
      const a = e.answers.filter((x) => x.startsWith('A '));
      if (a.length) lastAddresses = a.map((x) => x.slice(2));
      add(
        coreDnsLabel(e.to),
        ids.resolver,
        'reply',
        e.rcode !== 'NOERROR' ? e.rcode : e.answers.length ? e.answers.join(', ') : t.empty,
        e,
        true,
      );
      continue;
    }
    closeLookup(e);
    const rules = t.rules(e.node);
    // A DNS question a NetworkPolicy dropped (cni: calico): the resolver's datagram goes no further.
    if (e.protocol === 'UDP') {
      add(ids.resolver, rules, 'packet', t.question(e.dst), e);
      add(rules, rules, 'note', t.dropped(e.policy ?? ''), e);
      continue;
    }
    const target = e.to ? e.to.split('/').pop()! : ids.target;
    add(ids.client, rules, 'packet', t.syn(e.dst), e);
    if (e.outcome === 'rejected') {
      add(rules, ids.client, 'reply', t.reject, e, true);
      continue;
    }
    if (e.outcome === 'timeout' && !e.endpoint) {
      // A rule that drops it (internalTrafficPolicy: Local, no local endpoint) or none at all.
      add(rules, rules, 'note', e.chains.length ? e.chains.join(' → ') : t.noRule, e);
      continue;
    }
    const ep = e.endpoint ?? e.dst;
    if (e.chains.length) add(rules, rules, 'note', t.dnat(e.chains.join(' → '), ep), e);
    add(rules, ids.cni, 'packet', t.carry(ep), e);
    if (e.outcome === 'dropped') {
      add(ids.cni, ids.cni, 'note', t.dropped(e.policy ?? ''), e);
      continue;
    }
    if (!target || e.outcome === 'timeout') {
      add(ids.cni, ids.cni, 'note', t.lost, e);
      continue;
    }
    add(ids.cni, target, 'packet', 'SYN', e);
    add(
      target,
      ids.client,
      'reply',
      e.outcome === 'established' ? t.accept : t.reset(ep.split(':').pop()!),
      e,
      true,
    );
  }
  const last = entries[entries.length - 1];
  if (last) closeLookup(last);
  const order = [
    ids.client,
    ids.resolver,
    ids.coredns,
    ...new Set(
      entries.filter((e): e is PacketEntry => e.kind === 'packet').map((e) => t.rules(e.node)),
    ),
    ids.cni,
    ...new Set(steps.flatMap((s) => [s.from, s.to])),
  ];
  const questions = entries.filter((e) => e.kind === 'dns').length;
  const connections = entries.length - questions;
  return stepsDiagram(order, steps, t.title(pod), t.description(pod, questions, connections));
}

// The rule chain a node programmed for one Service port, read from the node's `iptables-save`
// output as a scenario step recorded it: the KUBE-SERVICES rule that matches the cluster IP and
// port, the KUBE-SVC chain whose statistic rules share new connections among the endpoints, and
// each KUBE-SEP chain's DNAT (pkg/proxy/iptables/proxier.go writes them in this shape). A
// projection in the sense of STYLE.md §4: a pure function of the recorded text.

/** RuleChainEndpoint is one endpoint rule of the KUBE-SVC chain and its KUBE-SEP chain. */
export interface RuleChainEndpoint {
  chain: string;
  /** probability is the rule's statistic match as iptables-save prints it, or null (the last). */
  probability: string | null;
  /** share is the fraction of new connections the endpoint gets overall. */
  share: number;
  /** dnat is the --to-destination address. */
  dnat: string;
}

/** RuleChain is one Service port's chain on one node. */
export interface RuleChain {
  /** servicePort is "namespace/name:port" (":port" only for a named port), as the comments say. */
  servicePort: string;
  clusterIP: string;
  port: number;
  protocol: string;
  svcChain: string;
  endpoints: RuleChainEndpoint[];
}

/**
 * ruleChains reads every Service port's chain from an `iptables-save -t nat` dump; service, when
 * given ("shop/web" or "shop/web:http"), keeps that Service's ports only.
 */
export function ruleChains(save: string, service?: string): RuleChain[] {
  const rules = save.split('\n').filter((l) => l.startsWith('-A '));
  const comment = (l: string) => /--comment "([^"]*)"/.exec(l)?.[1] ?? '';
  const out: RuleChain[] = [];
  for (const l of rules) {
    if (!l.startsWith('-A KUBE-SERVICES ') || !/ -j KUBE-SVC-/.test(l)) continue;
    const c = comment(l).replace(/ cluster IP$/, '');
    if (service && c !== service && c.split(':')[0] !== service) continue;
    const svcChain = / -j (KUBE-SVC-\S+)/.exec(l)![1]!;
    const endpoints: RuleChainEndpoint[] = [];
    let rest = 1;
    for (const r of rules) {
      if (!r.startsWith(`-A ${svcChain} `)) continue;
      const sep = / -j (KUBE-SEP-\S+)/.exec(r)?.[1];
      if (!sep) continue;
      const p = /--probability (\S+)/.exec(r)?.[1] ?? null;
      const share = p === null ? rest : rest * Number(p);
      rest -= share;
      const dnat =
        rules
          .filter((x) => x.startsWith(`-A ${sep} `))
          .map((x) => /--to-destination (\S+)/.exec(x)?.[1])
          .find(Boolean) ?? '';
      endpoints.push({ chain: sep, probability: p, share, dnat });
    }
    out.push({
      servicePort: c,
      clusterIP: (/ -d (\S+?)(?:\/32)? /.exec(l)?.[1] ?? '').replace(/\/32$/, ''),
      port: Number(/--dport (\d+)/.exec(l)?.[1] ?? 0),
      protocol: / -p (\S+)/.exec(l)?.[1] ?? 'tcp',
      svcChain,
      endpoints,
    });
  }
  return out;
}

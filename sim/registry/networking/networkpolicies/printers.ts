// Mirrors printNetworkPolicy and its column definitions (pkg/printers/internalversion/printers.go:
// Name, Pod-Selector, Age) and describeNetworkPolicy (staging/src/k8s.io/kubectl/pkg/describe/
// describe.go: describeNetworkPolicySpec, printNetworkPolicySpecIngressFrom and ...EgressTo).

import type { AnyObject } from '../../../api/types.ts';
import {
  printAnnotationsMultiline,
  printLabelsMultiline,
  tabbedString,
  type PrefixWriter,
} from '../../../kubectl/describe.ts';
import { formatGoTime, translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, formatLabelSelector, NAME, type TableRow } from '../../../kubectl/table.ts';
import type { Describer, Printer } from '../../rules.ts';
import type { NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from './types.ts';

/** printNetworkPolicy is a policy's row: its pod selector as metav1.FormatLabelSelector prints it. */
export function printNetworkPolicy(np: NetworkPolicy, now: number): TableRow {
  return {
    cells: [
      np.metadata.name,
      formatLabelSelector(np.spec?.podSelector ?? {}),
      translateTimestampSince(np.metadata.creationTimestamp, now),
    ],
    object: np,
  };
}

/** networkPolicyPrinter is NetworkPolicy's table for `kubectl get`. */
export const networkPolicyPrinter: Printer = {
  columns: [NAME, col('Pod-Selector'), AGE],
  row: (obj: AnyObject, now: number) => printNetworkPolicy(obj as NetworkPolicy, now),
};

/** describeNetworkPolicy mirrors describeNetworkPolicy: no events are listed. */
export function describeNetworkPolicy(np: NetworkPolicy): string {
  return tabbedString((w) => {
    w.write(0, `Name:\t${np.metadata.name}\n`);
    w.write(0, `Namespace:\t${np.metadata.namespace ?? ''}\n`);
    w.write(0, `Created on:\t${formatGoTime(np.metadata.creationTimestamp)}\n`);
    printLabelsMultiline(w, 'Labels', np.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', np.metadata.annotations);
    const spec = np.spec ?? { podSelector: {} };
    w.write(0, 'Spec:\n');
    w.write(1, 'PodSelector: ');
    const sel = spec.podSelector ?? {};
    if (!Object.keys(sel.matchLabels ?? {}).length && !sel.matchExpressions?.length)
      w.write(2, '<none> (Allowing the specific traffic to all pods in this namespace)\n');
    else w.write(2, `${formatLabelSelector(sel)}\n`);
    const types = spec.policyTypes ?? [];
    if (types.includes('Ingress')) {
      w.write(1, 'Allowing ingress traffic:\n');
      printRules(
        w,
        (spec.ingress ?? []).map((r) => ({ ports: r.ports, peers: r.from })),
        'ingress',
      );
    } else w.write(1, 'Not affecting ingress traffic\n');
    if (types.includes('Egress')) {
      w.write(1, 'Allowing egress traffic:\n');
      printRules(
        w,
        (spec.egress ?? []).map((r) => ({ ports: r.ports, peers: r.to })),
        'egress',
      );
    } else w.write(1, 'Not affecting egress traffic\n');
    // policyTypesToString: the types joined with ", ", <none> when there are none.
    w.write(1, `Policy Types: ${types.length ? types.join(', ') : '<none>'}\n`);
  });
}

const INDENT = '    ';

// printRules is printNetworkPolicySpecIngressFrom or ...EgressTo (they differ only in words).
function printRules(
  w: PrefixWriter,
  rules: { ports?: NetworkPolicyPort[]; peers?: NetworkPolicyPeer[] }[],
  direction: 'ingress' | 'egress',
): void {
  if (rules.length === 0) {
    w.write(0, `${INDENT}<none> (Selected pods are isolated for ${direction} connectivity)\n`);
    return;
  }
  const peer = direction === 'ingress' ? 'From' : 'To';
  rules.forEach((r, i) => {
    if (!r.ports?.length) w.write(0, `${INDENT}To Port: <any> (traffic allowed to all ports)\n`);
    else
      for (const p of r.ports) {
        // %s of a *intstr.IntOrString: "<nil>" when absent.
        const port = p.port === undefined ? '<nil>' : String(p.port);
        const proto = p.protocol ?? 'TCP';
        if (p.endPort === undefined) w.write(0, `${INDENT}To Port: ${port}/${proto}\n`);
        else w.write(0, `${INDENT}To Port Range: ${port}-${p.endPort}/${proto}\n`);
      }
    if (!r.peers?.length)
      w.write(
        0,
        direction === 'ingress'
          ? `${INDENT}From: <any> (traffic not restricted by source)\n`
          : `${INDENT}To: <any> (traffic not restricted by destination)\n`,
      );
    else
      for (const x of r.peers) {
        w.write(0, `${INDENT}${peer}:\n`);
        if (x.podSelector && x.namespaceSelector) {
          w.write(1, `${INDENT}NamespaceSelector: ${formatLabelSelector(x.namespaceSelector)}\n`);
          w.write(1, `${INDENT}PodSelector: ${formatLabelSelector(x.podSelector)}\n`);
        } else if (x.podSelector)
          w.write(1, `${INDENT}PodSelector: ${formatLabelSelector(x.podSelector)}\n`);
        else if (x.namespaceSelector)
          w.write(1, `${INDENT}NamespaceSelector: ${formatLabelSelector(x.namespaceSelector)}\n`);
        else if (x.ipBlock) {
          w.write(1, `${INDENT}IPBlock:\n`);
          w.write(2, `${INDENT}CIDR: ${x.ipBlock.cidr}\n`);
          w.write(2, `${INDENT}Except: ${(x.ipBlock.except ?? []).join(', ')}\n`);
        }
      }
    if (i !== rules.length - 1) w.write(0, `${INDENT}----------\n`);
  });
}

/** describeNetworkPolicyObject is the NetworkPolicy describer. */
export const describeNetworkPolicyObject: Describer = (_ctx, obj) =>
  describeNetworkPolicy(obj as NetworkPolicy);

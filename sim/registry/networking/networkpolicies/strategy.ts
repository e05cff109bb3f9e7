// Mirrors pkg/registry/networking/networkpolicy/strategy.go (generation 1 on create, bumped on
// spec changes: the row's tracksGeneration), pkg/apis/networking/v1/defaults.go
// (SetDefaults_NetworkPolicy, SetDefaults_NetworkPolicyPort) and
// pkg/apis/networking/validation/validation.go ValidateNetworkPolicySpec, with upstream's field
// paths and messages, in its order of checks.
// Simplification: the label selectors' matchLabels keys and values are checked with the
// expressions' rules; the warnings kube-apiserver returns for non-standard CIDRs
// (GetWarningsForCIDR) are not sent.

import type { LabelSelector } from '../../../api/types.ts';
import { isQualifiedName, isValidLabelValue } from '../../../api/labels.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import { isValidPortName } from '../../core/services/strategy.ts';
import type { Strategy } from '../../rules.ts';
import { parseCIDR } from './cidr.ts';
import type {
  IPBlock,
  NetworkPolicy,
  NetworkPolicyPeer,
  NetworkPolicyPort,
  NetworkPolicySpec,
} from './types.ts';

/** networkPolicyStrategy is the NetworkPolicy's REST strategy. */
export const networkPolicyStrategy: Strategy = {
  defaults: (obj) => defaultNetworkPolicy(obj as NetworkPolicy),
  validate: (obj) => validateNetworkPolicy(obj as NetworkPolicy),
  defaultsInPlace: true,
};

/**
 * defaultNetworkPolicy mirrors SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort:
 * every port's protocol is TCP unless given, and a policy without policyTypes affects Ingress,
 * and Egress too when it has egress rules. podSelector is a struct, never absent.
 */
export function defaultNetworkPolicy(np: NetworkPolicy): void {
  np.spec ??= { podSelector: {} };
  const spec = np.spec;
  spec.podSelector ??= {};
  for (const r of [...(spec.ingress ?? []), ...(spec.egress ?? [])])
    for (const p of r.ports ?? []) p.protocol ??= 'TCP';
  if (!spec.policyTypes?.length)
    spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
}

const PORT_NUM_MSG = 'must be between 1 and 65535, inclusive';
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

/** validateNetworkPolicy mirrors ValidateNetworkPolicy (metadata is checked apart). */
export function validateNetworkPolicy(np: NetworkPolicy): FieldError[] {
  return validateNetworkPolicySpec(np.spec ?? { podSelector: {} }, 'spec');
}

/** validateNetworkPolicySpec mirrors ValidateNetworkPolicySpec. */
export function validateNetworkPolicySpec(spec: NetworkPolicySpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(spec.podSelector, `${path}.podSelector`));
  for (const [i, rule] of (spec.ingress ?? []).entries()) {
    const at = `${path}.ingress[${i}]`;
    for (const [j, p] of (rule.ports ?? []).entries())
      errs.push(...validateNetworkPolicyPort(p, `${at}.ports[${j}]`));
    for (const [j, peer] of (rule.from ?? []).entries())
      errs.push(...validateNetworkPolicyPeer(peer, `${at}.from[${j}]`));
  }
  for (const [i, rule] of (spec.egress ?? []).entries()) {
    const at = `${path}.egress[${i}]`;
    for (const [j, p] of (rule.ports ?? []).entries())
      errs.push(...validateNetworkPolicyPort(p, `${at}.ports[${j}]`));
    for (const [j, peer] of (rule.to ?? []).entries())
      errs.push(...validateNetworkPolicyPeer(peer, `${at}.to[${j}]`));
  }
  const types = spec.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length) {
    errs.push({
      field: `${path}.policyTypes`,
      type: 'Invalid value',
      raw: `[]networking.PolicyType{${types.map((t) => JSON.stringify(t)).join(', ')}}`,
      detail: 'may not specify more than two policyTypes',
    });
    return errs;
  }
  for (const [i, t] of types.entries())
    if (!POLICY_TYPES.includes(t))
      errs.push({
        field: `${path}.policyTypes[${i}]`,
        type: 'Unsupported value',
        value: t,
        detail: `supported values: ${POLICY_TYPES.map((v) => `"${v}"`).join(', ')}`,
      });
  return errs;
}

/** validateNetworkPolicyPort mirrors ValidateNetworkPolicyPort. */
function validateNetworkPolicyPort(p: NetworkPolicyPort, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.protocol !== undefined && !PROTOCOLS.includes(p.protocol))
    errs.push({
      field: `${path}.protocol`,
      type: 'Unsupported value',
      value: p.protocol,
      detail: `supported values: ${PROTOCOLS.map((v) => `"${v}"`).join(', ')}`,
    });
  const validPort = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 65535;
  if (p.port === undefined) {
    if (p.endPort !== undefined)
      errs.push({
        field: `${path}.endPort`,
        type: 'Invalid value',
        value: p.endPort,
        detail: 'may not be specified when `port` is not specified',
      });
  } else if (typeof p.port === 'number') {
    if (!validPort(p.port))
      errs.push({
        field: `${path}.port`,
        type: 'Invalid value',
        value: p.port,
        detail: PORT_NUM_MSG,
      });
    if (p.endPort !== undefined) {
      if (p.endPort < p.port)
        errs.push({
          field: `${path}.endPort`,
          type: 'Invalid value',
          value: p.endPort,
          detail: 'must be greater than or equal to `port`',
        });
      if (!validPort(p.endPort))
        errs.push({
          field: `${path}.endPort`,
          type: 'Invalid value',
          value: p.endPort,
          detail: PORT_NUM_MSG,
        });
    }
  } else {
    if (p.endPort !== undefined)
      errs.push({
        field: `${path}.endPort`,
        type: 'Invalid value',
        value: p.endPort,
        detail: 'may not be specified when `port` is non-numeric',
      });
    for (const msg of isValidPortName(p.port))
      errs.push({ field: `${path}.port`, type: 'Invalid value', value: p.port, detail: msg });
  }
  return errs;
}

/** validateNetworkPolicyPeer mirrors ValidateNetworkPolicyPeer: one kind of peer, or both selectors. */
function validateNetworkPolicyPeer(peer: NetworkPolicyPeer, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  if (peer.podSelector) {
    n++;
    errs.push(...validateLabelSelector(peer.podSelector, `${path}.podSelector`));
  }
  if (peer.namespaceSelector) {
    n++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, `${path}.namespaceSelector`));
  }
  if (peer.ipBlock) {
    n++;
    errs.push(...validateIPBlock(peer.ipBlock, `${path}.ipBlock`));
  }
  if (n === 0) errs.push({ field: path, type: 'Required value', detail: 'must specify a peer' });
  else if (n > 1 && peer.ipBlock)
    errs.push({
      field: path,
      type: 'Forbidden',
      detail: 'may not specify both ipBlock and another peer',
    });
  return errs;
}

const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/**
 * validateIPBlock mirrors ValidateIPBlock: cidr required and valid, each except valid and a
 * strict subset of cidr. (StrictIPCIDRValidation is alpha and off in v1.34, so a cidr with bits
 * set past its prefix, 10.0.0.1/24, is accepted as its network.)
 */
function validateIPBlock(b: IPBlock, path: string): FieldError[] {
  if (!b.cidr) return [{ field: `${path}.cidr`, type: 'Required value' }];
  const cidr = parseCIDR(b.cidr);
  if (!cidr)
    return [{ field: `${path}.cidr`, type: 'Invalid value', value: b.cidr, detail: CIDR_MSG }];
  const errs: FieldError[] = [];
  for (const [i, e] of (b.except ?? []).entries()) {
    const at = `${path}.except[${i}]`;
    const ex = parseCIDR(e);
    if (!ex) {
      errs.push({ field: at, type: 'Invalid value', value: e, detail: CIDR_MSG });
      continue;
    }
    if (ex.family !== cidr.family || !cidr.contains(ex.network) || cidr.bits >= ex.bits)
      errs.push({
        field: at,
        type: 'Invalid value',
        value: e,
        detail: 'must be a strict subset of `cidr`',
      });
  }
  return errs;
}

/**
 * validateLabelSelector mirrors metav1 validation.ValidateLabelSelector: each expression's
 * operator and values, its key a qualified name, its values label values; matchLabels' keys
 * and values alike (ValidateLabels).
 */
export function validateLabelSelector(ls: LabelSelector | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!ls) return errs;
  for (const [k, v] of Object.entries(ls.matchLabels ?? {})) {
    for (const msg of isQualifiedName(k))
      errs.push({ field: `${path}.matchLabels`, type: 'Invalid value', value: k, detail: msg });
    for (const msg of isValidLabelValue(v))
      errs.push({ field: `${path}.matchLabels`, type: 'Invalid value', value: v, detail: msg });
  }
  for (const [i, r] of (ls.matchExpressions ?? []).entries()) {
    const at = `${path}.matchExpressions[${i}]`;
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (!r.values?.length)
        errs.push({
          field: `${at}.values`,
          type: 'Required value',
          detail: "must be specified when `operator` is 'In' or 'NotIn'",
        });
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (r.values?.length)
        errs.push({
          field: `${at}.values`,
          type: 'Forbidden',
          detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        });
    } else
      errs.push({
        field: `${at}.operator`,
        type: 'Invalid value',
        value: r.operator,
        detail: 'not a valid selector operator',
      });
    for (const msg of isQualifiedName(r.key))
      errs.push({ field: `${at}.key`, type: 'Invalid value', value: r.key, detail: msg });
    for (const [j, v] of (r.values ?? []).entries())
      for (const msg of isValidLabelValue(v))
        errs.push({ field: `${at}.values[${j}]`, type: 'Invalid value', value: v, detail: msg });
  }
  return errs;
}

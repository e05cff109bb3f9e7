// Mirrors staging/src/k8s.io/api/networking/v1/types.go for NetworkPolicy: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type. v1 has no status
// (NetworkPolicyStatus was removed in v1.28).

import type { IntOrString, KubeObject, LabelSelector } from '../../../api/types.ts';
import {
  byValue,
  i32,
  intstr,
  kindSchema,
  labelSelector,
  list,
  str,
  strings,
  struct,
} from '../../../api/schema.ts';

/** PolicyType is a direction a policy affects. */
export type PolicyType = 'Ingress' | 'Egress';

/** NetworkPolicy is networking.k8s.io/v1 NetworkPolicy. */
export interface NetworkPolicy extends KubeObject {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'NetworkPolicy';
  spec: NetworkPolicySpec;
}

/** NetworkPolicySpec: podSelector has no omitempty, so it is always present ({} selects all). */
export interface NetworkPolicySpec {
  podSelector: LabelSelector;
  ingress?: NetworkPolicyIngressRule[];
  egress?: NetworkPolicyEgressRule[];
  policyTypes?: PolicyType[];
}

export interface NetworkPolicyIngressRule {
  ports?: NetworkPolicyPort[];
  from?: NetworkPolicyPeer[];
}

export interface NetworkPolicyEgressRule {
  ports?: NetworkPolicyPort[];
  to?: NetworkPolicyPeer[];
}

/** NetworkPolicyPort: port may be a number or a named container port; endPort needs a number. */
export interface NetworkPolicyPort {
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port?: IntOrString;
  endPort?: number;
}

/** IPBlock is a CIDR and the CIDRs inside it that it leaves out. */
export interface IPBlock {
  cidr: string;
  except?: string[];
}

/** NetworkPolicyPeer: podSelector and namespaceSelector together AND; ipBlock stands alone. */
export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: IPBlock;
}

const networkPolicyPort = struct('NetworkPolicyPort', () => ({
  protocol: str('v1.Protocol'),
  port: intstr,
  endPort: i32,
}));

const ipBlock = struct('IPBlock', () => ({ cidr: str(), except: strings }));

const networkPolicyPeer = struct('NetworkPolicyPeer', () => ({
  podSelector: labelSelector,
  namespaceSelector: labelSelector,
  ipBlock,
}));

const networkPolicyIngressRule = struct('NetworkPolicyIngressRule', () => ({
  ports: list(networkPolicyPort),
  from: list(networkPolicyPeer),
}));

const networkPolicyEgressRule = struct('NetworkPolicyEgressRule', () => ({
  ports: list(networkPolicyPort),
  to: list(networkPolicyPeer),
}));

const networkPolicySpec = struct('NetworkPolicySpec', () => ({
  podSelector: byValue(labelSelector),
  ingress: list(networkPolicyIngressRule),
  egress: list(networkPolicyEgressRule),
  policyTypes: { k: 'list', go: '[]v1.PolicyType', item: str('v1.PolicyType') },
}));

/** networkPolicySchema is the Go type NetworkPolicy bodies decode into. */
export const networkPolicySchema = kindSchema<NetworkPolicy>('NetworkPolicy', {
  spec: byValue(networkPolicySpec),
});

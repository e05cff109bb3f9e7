import { describe, expect, it } from 'vitest';
import type { NetworkPolicy } from '../../../api/types.ts';
import { fieldErrorString } from '../../../apiserver/errors.ts';
import { parseScenario } from '../../../scenario/loader.ts';
import { ScenarioRun } from '../../../scenario/runner.ts';
import { golden, webScenario } from '../../../testing.ts';
import { parseCIDR } from './cidr.ts';
import { defaultNetworkPolicy, validateNetworkPolicy } from './strategy.ts';

function np(spec: unknown): NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'p', namespace: 'default' },
    spec,
  } as NetworkPolicy;
}

const errors = (spec: unknown): string[] => validateNetworkPolicy(np(spec)).map(fieldErrorString);

describe('NetworkPolicy defaulting (SetDefaults_NetworkPolicy, SetDefaults_NetworkPolicyPort)', () => {
  it('policyTypes is Ingress, and Egress too only when there are egress rules', () => {
    const a = np({ podSelector: {} });
    defaultNetworkPolicy(a);
    expect(a.spec.policyTypes).toEqual(['Ingress']);
    const b = np({ podSelector: {}, egress: [{}] });
    defaultNetworkPolicy(b);
    expect(b.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    // An empty egress list is no egress section: a deny-all-egress policy must name Egress.
    const c = np({ podSelector: {}, egress: [] });
    defaultNetworkPolicy(c);
    expect(c.spec.policyTypes).toEqual(['Ingress']);
    const d = np({ podSelector: {}, policyTypes: ['Egress'] });
    defaultNetworkPolicy(d);
    expect(d.spec.policyTypes).toEqual(['Egress']);
  });

  it('every port of either direction gets protocol TCP; podSelector is always there', () => {
    const a = np({
      ingress: [{ ports: [{ port: 80 }] }],
      egress: [{ ports: [{ port: 53, protocol: 'UDP' }, {}] }],
    });
    defaultNetworkPolicy(a);
    expect(a.spec.podSelector).toEqual({});
    expect(a.spec.ingress![0]!.ports).toEqual([{ port: 80, protocol: 'TCP' }]);
    expect(a.spec.egress![0]!.ports).toEqual([{ port: 53, protocol: 'UDP' }, { protocol: 'TCP' }]);
  });
});

describe('NetworkPolicy validation (ValidateNetworkPolicySpec)', () => {
  it('accepts a policy with every kind of peer and port', () => {
    expect(
      errors({
        podSelector: { matchLabels: { app: 'db' } },
        ingress: [
          {
            from: [
              { podSelector: { matchLabels: { app: 'web' } }, namespaceSelector: {} },
              { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } },
            ],
            ports: [{ port: 'http' }, { port: 8000, endPort: 8080, protocol: 'TCP' }],
          },
        ],
        policyTypes: ['Ingress', 'Egress'],
      }),
    ).toEqual([]);
  });

  it('port, endPort and protocol messages', () => {
    expect(
      errors({
        podSelector: {},
        ingress: [
          {
            ports: [
              { port: 0 },
              { port: 90, endPort: 80 },
              { port: 'http', endPort: 90 },
              { endPort: 90 },
              { port: 'Bad_Name' },
              { protocol: 'ICMP' },
            ],
          },
        ],
      }),
    ).toEqual([
      'spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ingress[0].ports[1].endPort: Invalid value: 80: must be greater than or equal to `port`',
      'spec.ingress[0].ports[2].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.ingress[0].ports[3].endPort: Invalid value: 90: may not be specified when `port` is not specified',
      'spec.ingress[0].ports[4].port: Invalid value: "Bad_Name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.ingress[0].ports[5].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
    ]);
  });

  it('peer messages: none given, ipBlock with a selector, CIDRs', () => {
    expect(
      errors({
        podSelector: {},
        egress: [
          {
            to: [
              {},
              { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} },
              { ipBlock: { cidr: '' } },
              { ipBlock: { cidr: '10.0.0/8' } },
              { ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.0.0/16', '10.1.0.0/24', 'x'] } },
            ],
          },
        ],
      }),
    ).toEqual([
      'spec.egress[0].to[0]: Required value: must specify a peer',
      'spec.egress[0].to[1]: Forbidden: may not specify both ipBlock and another peer',
      'spec.egress[0].to[2].ipBlock.cidr: Required value',
      'spec.egress[0].to[3].ipBlock.cidr: Invalid value: "10.0.0/8": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.egress[0].to[4].ipBlock.except[0]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`',
      'spec.egress[0].to[4].ipBlock.except[1]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
      'spec.egress[0].to[4].ipBlock.except[2]: Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
  });

  it('policyTypes and selector messages', () => {
    expect(errors({ podSelector: {}, policyTypes: ['Ingress', 'Egress', 'Ingress'] })).toEqual([
      'spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes',
    ]);
    expect(errors({ podSelector: {}, policyTypes: ['ingress'] })).toEqual([
      'spec.policyTypes[0]: Unsupported value: "ingress": supported values: "Ingress", "Egress"',
    ]);
    expect(
      errors({
        podSelector: {
          matchExpressions: [
            { key: 'app', operator: 'In' },
            { key: 'app', operator: 'Exists', values: ['x'] },
            { key: 'app', operator: 'Is', values: ['x'] },
          ],
        },
      }),
    ).toEqual([
      "spec.podSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.podSelector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.podSelector.matchExpressions[2].operator: Invalid value: "Is": not a valid selector operator',
    ]);
  });
});

describe('parseCIDR (ParseCIDRSloppy)', () => {
  it('masks the address, reads IPv6, refuses what Go refuses', () => {
    expect(parseCIDR('10.0.0.1/24')!.network).toEqual([10, 0, 0, 0]);
    expect(parseCIDR('10.0.0.0/33')).toBeUndefined();
    expect(parseCIDR('10.0.0.0')).toBeUndefined();
    expect(parseCIDR('2001:db8::/64')!.family).toBe(6);
    expect(parseCIDR('::ffff:10.0.0.0/120')!.network.slice(10)).toEqual([255, 255, 10, 0, 0, 0]);
    expect(parseCIDR('2001:db8::1::/64')).toBeUndefined();
    const c = parseCIDR('10.244.0.0/16')!;
    expect(c.contains([10, 244, 3, 9])).toBe(true);
    expect(c.contains([10, 245, 0, 1])).toBe(false);
  });
});

const SCENARIO = webScenario('netpol-print', {
  until: '40s',
  steps: `  - at: 20s
    apply: |
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
      spec:
        podSelector: {}
        policyTypes: [Ingress, Egress]
      ---
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: db
        labels: {tier: db}
      spec:
        podSelector:
          matchLabels: {role: db}
        ingress:
          - from:
              - ipBlock:
                  cidr: 172.17.0.0/16
                  except: [172.17.1.0/24]
              - namespaceSelector:
                  matchLabels: {project: myproject}
              - namespaceSelector:
                  matchLabels: {team: a}
                podSelector:
                  matchLabels: {role: frontend}
            ports:
              - protocol: TCP
                port: 6379
          - {}
        egress:
          - to:
              - ipBlock:
                  cidr: 10.0.0.0/24
            ports:
              - port: 32000
                endPort: 32768
              - protocol: UDP
`,
});

describe('kubectl get and describe networkpolicies', () => {
  it('prints the columns and the describe text kubectl v1.34 prints', () => {
    const run = new ScenarioRun(parseScenario(SCENARIO, 'netpol-print.yaml'));
    run.runUntil(40_000);
    expect(run.stepProblems).toEqual([]);
    const k = run.cluster.kubectl;
    golden(
      new URL('../../../kubectl/testdata/get-describe-networkpolicies.txt', import.meta.url),
      [
        k.call(run.cluster, 'get netpol').stdout,
        k.call(run.cluster, 'get networkpolicies.networking.k8s.io -o wide').stdout,
        k.call(run.cluster, 'describe networkpolicy db').stdout,
        k.call(run.cluster, 'describe netpol default-deny').stdout,
      ].join('---\n'),
    );
    const stored = JSON.parse(run.cluster.kubectl('get netpol db -o json').stdout) as NetworkPolicy;
    expect(stored.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(stored.metadata.generation).toBe(1);
  });

  it('refuses an invalid policy with the validation message, and a wrong field as kubectl would', () => {
    const run = new ScenarioRun(parseScenario(SCENARIO, 'netpol-print.yaml'));
    run.runUntil(1_000);
    const bad = run.cluster.kubectl(
      'apply -f -',
      'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: bad\nspec:\n  podSelector: {}\n  ingress:\n  - from:\n    - {}\n',
    );
    expect(bad.stderr).toContain(
      'The NetworkPolicy "bad" is invalid: spec.ingress[0].from[0]: Required value: must specify a peer',
    );
    const typo = run.cluster.kubectl(
      'apply -f -',
      'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: typo\nspec:\n  podSelector: {}\n  ingres: []\n',
    );
    expect(typo.stderr).toContain('unknown field "spec.ingres"');
  });
});

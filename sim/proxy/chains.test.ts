import { describe, expect, it } from 'vitest';
import {
  computeProbability,
  isServiceChainName,
  portProtoHash,
  serviceExternalChainName,
  servicePortEndpointChainName,
  servicePortPolicyClusterChain,
  servicePortPolicyLocalChainName,
} from './chains.ts';

describe('chain names', () => {
  it('hash servicePortName + lower-case protocol, as portProtoHash', () => {
    // base32(sha256("default/web:httptcp"))[:16], worked out independently (Python hashlib).
    expect(portProtoHash('default/web:http', 'tcp')).toBe('CDGGSHYLG3RE2FKL');
    expect(servicePortPolicyClusterChain('default/web:http', 'tcp')).toBe(
      'KUBE-SVC-CDGGSHYLG3RE2FKL',
    );
    expect(servicePortPolicyLocalChainName('default/web:http', 'tcp')).toBe(
      'KUBE-SVL-CDGGSHYLG3RE2FKL',
    );
    expect(serviceExternalChainName('default/web:http', 'tcp')).toBe('KUBE-EXT-CDGGSHYLG3RE2FKL');
    expect(servicePortEndpointChainName('default/web:http', 'tcp', '10.244.1.5:8080')).toBe(
      'KUBE-SEP-AFGSLHOD2HFNCBX4',
    );
    // The chains every cluster has, as they appear on real nodes.
    expect(servicePortPolicyClusterChain('default/kubernetes:https', 'tcp')).toBe(
      'KUBE-SVC-NPX46M4PTMTKRN6Y',
    );
    expect(servicePortPolicyClusterChain('kube-system/kube-dns:dns', 'udp')).toBe(
      'KUBE-SVC-TCOU7JCQXEZGVUNU',
    );
    expect(servicePortPolicyClusterChain('kube-system/kube-dns:dns-tcp', 'tcp')).toBe(
      'KUBE-SVC-ERIFXISQEP7F7OF4',
    );
  });
  it('formats 1/n with %0.10f', () => {
    expect(computeProbability(3)).toBe('0.3333333333');
    expect(computeProbability(2)).toBe('0.5000000000');
    expect(computeProbability(7)).toBe('0.1428571429');
    expect(computeProbability(2048)).toBe('0.0004882812');
  });
  it('recognises the per-service chains kube-proxy may delete', () => {
    expect(
      ['KUBE-SVC-X', 'KUBE-SVL-X', 'KUBE-EXT-X', 'KUBE-FW-X', 'KUBE-SEP-X'].every(
        isServiceChainName,
      ),
    ).toBe(true);
    expect(
      ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-MARK-MASQ', 'KUBE-FIREWALL'].some(
        isServiceChainName,
      ),
    ).toBe(false);
  });
});

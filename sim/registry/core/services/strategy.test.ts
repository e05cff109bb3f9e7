import { describe, expect, it } from 'vitest';
import { fieldErrorString } from '../../../apiserver/errors.ts';
import { StrategicMergePatchType } from '../../../apiserver/patch.ts';
import { frozenAPIServer } from '../../../testing.ts';
import type { Service } from '../../../api/types.ts';
import { defaultService, validateService } from './strategy.ts';

function svc(spec: Partial<Service['spec']>): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' } as Service['metadata'],
    spec: { selector: { app: 'web' }, ...spec },
    status: {},
  };
}

// messages defaults a Service, sets what the storage allocates, and lists ValidateService's errors.
function messages(spec: Partial<Service['spec']>, allocated: Partial<Service['spec']> = {}) {
  const s = svc(spec);
  defaultService(s);
  Object.assign(s.spec, allocated);
  return validateService(s).map(fieldErrorString);
}

const IP = { clusterIP: '10.96.0.20', clusterIPs: ['10.96.0.20'] };

describe('SetDefaults_Service', () => {
  it('defaults a ClusterIP Service: type, sessionAffinity, protocol, targetPort, internalTrafficPolicy', () => {
    const s = svc({ ports: [{ port: 80 }, { name: 'x', port: 81, targetPort: 'http' }] });
    defaultService(s);
    expect(s.spec.type).toBe('ClusterIP');
    expect(s.spec.sessionAffinity).toBe('None');
    expect(s.spec.sessionAffinityConfig).toBeUndefined();
    expect(s.spec.internalTrafficPolicy).toBe('Cluster');
    expect(s.spec.externalTrafficPolicy).toBeUndefined();
    expect(s.spec.allocateLoadBalancerNodePorts).toBeUndefined();
    expect(s.spec.ports).toEqual([
      { port: 80, protocol: 'TCP', targetPort: 80 },
      { name: 'x', port: 81, protocol: 'TCP', targetPort: 'http' },
    ]);
  });

  it('gives NodePort and LoadBalancer externalTrafficPolicy Cluster, and LoadBalancer allocateLoadBalancerNodePorts', () => {
    const np = svc({ type: 'NodePort', ports: [{ port: 80 }] });
    defaultService(np);
    expect(np.spec.externalTrafficPolicy).toBe('Cluster');
    expect(np.spec.allocateLoadBalancerNodePorts).toBeUndefined();
    const lb = svc({ type: 'LoadBalancer', ports: [{ port: 80 }] });
    defaultService(lb);
    expect(lb.spec.externalTrafficPolicy).toBe('Cluster');
    expect(lb.spec.allocateLoadBalancerNodePorts).toBe(true);
    const off = svc({
      type: 'LoadBalancer',
      allocateLoadBalancerNodePorts: false,
      ports: [{ port: 80 }],
    });
    defaultService(off);
    expect(off.spec.allocateLoadBalancerNodePorts).toBe(false);
    const ext = svc({ externalIPs: ['192.0.2.7'], ports: [{ port: 80 }] });
    defaultService(ext);
    expect(ext.spec.externalTrafficPolicy).toBe('Cluster');
  });

  it('gives ClientIP affinity the 10800 s timeout and drops a config under None', () => {
    const c = svc({ sessionAffinity: 'ClientIP', ports: [{ port: 80 }] });
    defaultService(c);
    expect(c.spec.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 10800 } });
    const kept = svc({
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
      ports: [{ port: 80 }],
    });
    defaultService(kept);
    expect(kept.spec.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 60 } });
    const none = svc({
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
      ports: [{ port: 80 }],
    });
    defaultService(none);
    expect(none.spec.sessionAffinityConfig).toBeUndefined();
  });

  it('gives an ExternalName Service no traffic policies', () => {
    const s = svc({ type: 'ExternalName', externalName: 'db.example.com' });
    defaultService(s);
    expect(s.spec.internalTrafficPolicy).toBeUndefined();
    expect(s.spec.externalTrafficPolicy).toBeUndefined();
    expect(s.spec.sessionAffinity).toBe('None');
  });
});

describe('ValidateService', () => {
  it('accepts each type as the storage leaves it', () => {
    expect(messages({ ports: [{ port: 80 }] }, IP)).toEqual([]);
    expect(messages({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }, IP)).toEqual([]);
    expect(messages({ type: 'LoadBalancer', ports: [{ port: 80 }] }, IP)).toEqual([]);
    expect(messages({ type: 'ExternalName', externalName: 'db.example.com.' })).toEqual([]);
    // A headless Service may have no ports.
    expect(messages({ clusterIP: 'None' }, { clusterIPs: ['None'] })).toEqual([]);
  });

  it('requires ports except for headless and ExternalName Services', () => {
    expect(messages({}, IP)).toEqual(['spec.ports: Required value']);
  });

  it('refuses headless NodePort and LoadBalancer Services', () => {
    expect(messages({ type: 'NodePort', ports: [{ port: 80 }] }, { clusterIPs: ['None'] })).toEqual(
      [`spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`],
    );
    expect(
      messages({ type: 'LoadBalancer', ports: [{ port: 80 }] }, { clusterIPs: ['None'] }),
    ).toEqual([
      `spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for LoadBalancer services`,
    ]);
  });

  it('requires an externalName, a DNS subdomain, and no cluster IPs for ExternalName', () => {
    expect(messages({ type: 'ExternalName' })).toEqual(['spec.externalName: Required value']);
    expect(messages({ type: 'ExternalName', externalName: 'Bad_Name' })).toEqual([
      `spec.externalName: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
    expect(
      messages(
        { type: 'ExternalName', externalName: 'db.example.com' },
        { clusterIPs: ['10.96.0.5'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' },
      ),
    ).toEqual([
      'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      'spec.ipFamilies: Forbidden: may not be set for ExternalName services',
      'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
    ]);
  });

  it('checks each port: names, numbers, protocol, targetPort', () => {
    expect(messages({ ports: [{ port: 80 }, { port: 81 }] }, IP)).toEqual([
      'spec.ports[0].name: Required value',
      'spec.ports[1].name: Required value',
    ]);
    expect(
      messages(
        {
          ports: [
            { name: 'http', port: 80 },
            { name: 'http', port: 81 },
          ],
        },
        IP,
      ),
    ).toEqual(['spec.ports[1].name: Duplicate value: "http"']);
    expect(messages({ ports: [{ name: 'Web', port: 80 }] }, IP)[0]).toMatch(
      /^spec\.ports\[0\]\.name: Invalid value: "Web": a lowercase RFC 1123 label must consist/,
    );
    expect(messages({ ports: [{ port: 0 }] }, IP)).toEqual([
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
    expect(messages({ ports: [{ port: 70000, targetPort: 80 }] }, IP)).toEqual([
      'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ]);
    expect(messages({ ports: [{ port: 80, protocol: 'ICMP' as 'TCP' }] }, IP)).toEqual([
      'spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ]);
    expect(messages({ ports: [{ port: 80, targetPort: 'Http--' }] }, IP)).toEqual([
      'spec.ports[0].targetPort: Invalid value: "Http--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.ports[0].targetPort: Invalid value: "Http--": must not contain consecutive hyphens (-)',
      'spec.ports[0].targetPort: Invalid value: "Http--": must not begin or end with a hyphen (-)',
    ]);
    expect(messages({ ports: [{ port: 80, targetPort: 'http-metrics-long' }] }, IP)).toEqual([
      'spec.ports[0].targetPort: Invalid value: "http-metrics-long": must be no more than 15 characters',
    ]);
  });

  it('refuses duplicate ports and node ports, keyed by protocol', () => {
    expect(
      messages(
        {
          ports: [
            { name: 'a', port: 80 },
            { name: 'b', port: 80 },
          ],
        },
        IP,
      ),
    ).toEqual([
      'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    ]);
    expect(
      messages(
        {
          ports: [
            { name: 'a', port: 53, protocol: 'TCP' },
            { name: 'b', port: 53, protocol: 'UDP' },
          ],
        },
        IP,
      ),
    ).toEqual([]);
    expect(
      messages(
        {
          type: 'NodePort',
          ports: [
            { name: 'a', port: 80, nodePort: 30080 },
            { name: 'b', port: 81, nodePort: 30080 },
          ],
        },
        IP,
      ),
    ).toEqual(['spec.ports[1].nodePort: Duplicate value: 30080']);
  });

  it('allows nodePort only where the type has node ports', () => {
    expect(messages({ ports: [{ port: 80, nodePort: 30080 }] }, IP)).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
  });

  it('checks sessionAffinity and its ClientIP config', () => {
    expect(messages({ sessionAffinity: 'Sticky' as 'None', ports: [{ port: 80 }] }, IP)).toEqual([
      'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
    ]);
    expect(
      messages(
        {
          sessionAffinity: 'ClientIP',
          sessionAffinityConfig: { clientIP: { timeoutSeconds: 90000 } },
          ports: [{ port: 80 }],
        },
        IP,
      ),
    ).toEqual([
      'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 90000: must be greater than 0 and less than 86400',
    ]);
  });

  it('checks the type, the traffic policies and the LoadBalancer-only fields', () => {
    expect(messages({ type: 'Ingress' as 'ClusterIP', ports: [{ port: 80 }] }, IP)).toEqual([
      'spec.type: Unsupported value: "Ingress": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
    expect(messages({ externalTrafficPolicy: 'Local', ports: [{ port: 80 }] }, IP)).toEqual([
      'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
    ]);
    expect(
      messages(
        { type: 'NodePort', externalTrafficPolicy: 'Nearest' as 'Local', ports: [{ port: 80 }] },
        IP,
      ),
    ).toEqual([
      'spec.externalTrafficPolicy: Unsupported value: "Nearest": supported values: "Cluster", "Local"',
    ]);
    expect(
      messages({ internalTrafficPolicy: 'Node' as 'Local', ports: [{ port: 80 }] }, IP),
    ).toEqual([
      'spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"',
    ]);
    expect(messages({ allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }] }, IP)).toEqual([
      "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ]);
    expect(
      messages({ loadBalancerSourceRanges: ['10.0.0.0/8'], ports: [{ port: 80 }] }, IP),
    ).toEqual([
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ]);
    expect(
      messages({ type: 'NodePort', healthCheckNodePort: 30500, ports: [{ port: 80 }] }, IP),
    ).toEqual([
      "spec.healthCheckNodePort: Forbidden: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    ]);
    expect(messages({ externalIPs: ['not-an-ip'], ports: [{ port: 80 }] }, IP)).toEqual([
      'spec.externalIPs[0]: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });
});

describe('services/status', () => {
  function lbService() {
    const { api } = frozenAPIServer();
    api.createDefaultServiceCIDR();
    api.create<Service>('test', 'services', svc({ type: 'LoadBalancer', ports: [{ port: 80 }] }));
    return api;
  }

  it('takes the finalizers from a status patch (serviceStatusStrategy resets only spec)', () => {
    const api = lbService();
    const f = 'service.kubernetes.io/load-balancer-cleanup';
    const patched = api.patch<Service>(
      'test',
      'services',
      'default',
      'web',
      { metadata: { finalizers: [f] }, spec: { type: 'ClusterIP' } },
      'status',
      StrategicMergePatchType,
    );
    expect(patched.metadata.finalizers).toEqual([f]);
    expect(patched.spec.type).toBe('LoadBalancer');
  });

  it('defaults an ingress IP without ipMode to VIP', () => {
    const api = lbService();
    const patched = api.patch<Service>(
      'test',
      'services',
      'default',
      'web',
      {
        status: { loadBalancer: { ingress: [{ ip: '203.0.113.10' }, { hostname: 'lb.example' }] } },
      },
      'status',
      StrategicMergePatchType,
    );
    expect(patched.status.loadBalancer?.ingress).toEqual([
      { ip: '203.0.113.10', ipMode: 'VIP' },
      { hostname: 'lb.example' },
    ]);
  });
});

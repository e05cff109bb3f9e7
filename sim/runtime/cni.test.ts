import { describe, expect, it } from 'vitest';
import { Simulation } from '../engine/simulation.ts';
import { CNIError, CNIPlugin } from './cni.ts';

describe('CNIPlugin (bridge + host-local IPAM)', () => {
  it('hands out .2, .3, ... skipping the gateway, and records ADD/DEL calls', () => {
    const sim = new Simulation({ seed: 1 });
    const cni = new CNIPlugin(sim, { nodeName: 'node-1', podCIDR: '10.244.1.0/24' });
    expect(cni.gateway).toBe('10.244.1.1');
    expect(cni.rangeSet).toBe('10.244.1.1-10.244.1.254');
    expect(cni.add('container-runtime@node-1', 'a', 'default/a')).toBe('10.244.1.2');
    expect(cni.add('container-runtime@node-1', 'b', 'default/b')).toBe('10.244.1.3');
    // ADD is idempotent for the same container.
    expect(cni.add('container-runtime@node-1', 'a', 'default/a')).toBe('10.244.1.2');
    cni.del('container-runtime@node-1', 'a', 'default/a');
    cni.del('container-runtime@node-1', 'a', 'default/a');
    expect(cni.allocatedCount).toBe(1);
    expect(
      sim.trace.map((e) =>
        e.kind === 'call' ? `${e.from}>${e.to} ${e.method} ${e.pod} ${e.result ?? ''}` : '',
      ),
    ).toEqual([
      'container-runtime@node-1>cni-plugin@node-1 ADD default/a 10.244.1.2',
      'container-runtime@node-1>cni-plugin@node-1 ADD default/b 10.244.1.3',
      'container-runtime@node-1>cni-plugin@node-1 DEL default/a 10.244.1.2',
      'container-runtime@node-1>cni-plugin@node-1 DEL default/a ',
    ]);
  });

  it('allocates round-robin from the last reserved address, as host-local does', () => {
    const sim = new Simulation({ seed: 1 });
    const cni = new CNIPlugin(sim, { nodeName: 'n', podCIDR: '10.244.1.0/24' });
    cni.add('r', 'a', 'p');
    cni.add('r', 'b', 'p');
    cni.del('r', 'a', 'p');
    expect(cni.add('r', 'c', 'p')).toBe('10.244.1.4');
  });

  it('lowest-free mode reuses the lowest released address', () => {
    const sim = new Simulation({ seed: 1 });
    const cni = new CNIPlugin(sim, {
      nodeName: 'n',
      podCIDR: '10.244.1.0/24',
      ipam: 'lowest-free',
    });
    cni.add('r', 'a', 'p');
    cni.add('r', 'b', 'p');
    cni.del('r', 'a', 'p');
    expect(cni.add('r', 'c', 'p')).toBe('10.244.1.2');
  });

  it('wraps around and fails with host-local’s message when the range is full', () => {
    const sim = new Simulation({ seed: 1 });
    const cni = new CNIPlugin(sim, { nodeName: 'n', podCIDR: '10.244.1.0/29' });
    const ips = ['a', 'b', 'c', 'd', 'e'].map((id) => cni.add('r', id, 'p'));
    expect(ips).toEqual(['10.244.1.2', '10.244.1.3', '10.244.1.4', '10.244.1.5', '10.244.1.6']);
    expect(() => cni.add('r', 'f', 'p')).toThrow(CNIError);
    expect(() => cni.add('r', 'f', 'p')).toThrow(
      'plugin type="bridge" failed (add): failed to allocate for range 0: no IP addresses available in range set: 10.244.1.1-10.244.1.6',
    );
    cni.del('r', 'c', 'p');
    expect(cni.add('r', 'g', 'p')).toBe('10.244.1.4');
  });

  it('reserve keeps a bootstrap IP and reset forgets everything', () => {
    const sim = new Simulation({ seed: 1 });
    const cni = new CNIPlugin(sim, { nodeName: 'n', podCIDR: '10.244.2.0/24' });
    expect(cni.reserve('x', '10.244.2.9')).toBe(true);
    expect(cni.reserve('y', '10.244.3.9')).toBe(false);
    expect(cni.add('r', 'z', 'p')).toBe('10.244.2.10');
    cni.reset();
    expect(cni.allocatedCount).toBe(0);
    expect(cni.add('r', 'z', 'p')).toBe('10.244.2.2');
  });
});

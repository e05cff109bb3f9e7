import { describe, expect, it } from 'vitest';
import { NodeInfo, newPodInfo } from '../framework.ts';
import { makeNode, makePod } from '../testing.ts';
import {
  filter,
  fitsRequest,
  leastAllocatedScore,
  leastRequestedScore,
  leastResourceScorer,
} from './node-resources-fit.ts';

function nodeInfo(
  cpu: string,
  memory: string,
  pods = '110',
  existing: ReturnType<typeof makePod>[] = [],
): NodeInfo {
  const ni = new NodeInfo(0, 'n1');
  ni.setNode(makeNode('n1', { cpu, memory, pods }));
  for (const p of existing) ni.addPodInfo(newPodInfo(p));
  return ni;
}

describe('LeastAllocated', () => {
  it('scores (alloc - req) * 100 / alloc per resource and averages with integer division', () => {
    // node 4000m / 10000 bytes, pod requests 3000m / 5000: (25 + 50) / 2 = 37
    const ni = nodeInfo('4000m', '10000');
    expect(leastAllocatedScore(3000, 5000, ni)).toBe(37);
    expect(leastResourceScorer([3000, 5000], [4000, 10000], [1, 1])).toBe(37);
  });
  it('scores 0 for a resource requested beyond capacity', () => {
    expect(leastRequestedScore(5000, 4000)).toBe(0);
    expect(leastRequestedScore(0, 0)).toBe(0);
  });
  it('skips resources the node has none of', () => {
    expect(leastResourceScorer([100, 5000], [0, 10000], [1, 1])).toBe(50);
  });
  it('uses non-zero requests: 100m cpu and 200Mi memory for a container without requests', () => {
    const pod = newPodInfo(makePod('p'));
    expect(pod.nonZeroMilliCPU).toBe(100);
    expect(pod.nonZeroMemory).toBe(200 * 1024 * 1024);
    expect(pod.requests.milliCPU).toBe(0);
    // 1000m / 1000Mi node: cpu (1000-100)*100/1000 = 90, memory (1000-200)*100/1000 = 80 → 85
    expect(
      leastAllocatedScore(pod.nonZeroMilliCPU, pod.nonZeroMemory, nodeInfo('1', '1000Mi')),
    ).toBe(85);
  });
  it('keeps an explicit "0" request at 0', () => {
    const pod = newPodInfo(makePod('p', { requests: [{ cpu: '0', memory: '0' }] }));
    expect(pod.nonZeroMilliCPU).toBe(0);
    expect(pod.nonZeroMemory).toBe(0);
  });
  it('counts existing pods through NodeInfo.nonZeroRequested', () => {
    const ni = nodeInfo('1', '1000Mi', '110', [
      makePod('a'),
      makePod('b', { requests: [{ cpu: '300m', memory: '100Mi' }] }),
    ]);
    expect(ni.nonZeroRequested.milliCPU).toBe(400);
    expect(ni.requested.milliCPU).toBe(300);
    // cpu: (1000 - 400 - 100)*100/1000 = 50; memory: (1000 - 300 - 200)*100/1000 = 50
    expect(leastAllocatedScore(100, 200 * 1024 * 1024, ni)).toBe(50);
  });
});

describe('NodeResourcesFit Filter', () => {
  it('reports Insufficient cpu and Insufficient memory with actual requests', () => {
    const ni = nodeInfo('1', '1Gi', '110', [
      makePod('a', { requests: [{ cpu: '800m', memory: '900Mi' }] }),
    ]);
    const pod = newPodInfo(makePod('p', { requests: [{ cpu: '300m', memory: '200Mi' }] }));
    expect(fitsRequest(pod.requests, ni).map((r) => r.reason)).toEqual([
      'Insufficient cpu',
      'Insufficient memory',
    ]);
    const s = filter(pod.requests, ni)!;
    expect(s.code).toBe(2);
    expect(s.reasons).toEqual(['Insufficient cpu', 'Insufficient memory']);
    expect(s.plugin).toBe('NodeResourcesFit');
  });
  it('reports Too many pods first, even for a pod that requests nothing', () => {
    const ni = nodeInfo('1', '1Gi', '1', [makePod('a')]);
    const pod = newPodInfo(makePod('p'));
    expect(filter(pod.requests, ni)!.reasons).toEqual(['Too many pods']);
  });
  it('passes a best-effort pod on a full node (non-zero defaults are for scoring only)', () => {
    const ni = nodeInfo('1', '1Gi', '110', [
      makePod('a', { requests: [{ cpu: '1', memory: '1Gi' }] }),
    ]);
    expect(filter(newPodInfo(makePod('p')).requests, ni)).toBeNull();
  });
  it('checks ephemeral-storage and extended resources only when requested', () => {
    const ni = new NodeInfo(0, 'n');
    ni.setNode(makeNode('n', { ephemeralStorage: '1Gi' }));
    const pod = newPodInfo(
      makePod('p', { requests: [{ 'ephemeral-storage': '2Gi', 'example.com/gpu': '1' }] }),
    );
    expect(filter(pod.requests, ni)!.reasons).toEqual([
      'Insufficient ephemeral-storage',
      'Insufficient example.com/gpu',
    ]);
  });
  it('takes the larger of the app containers and each init container', () => {
    const p = makePod('p', { requests: [{ cpu: '100m' }, { cpu: '200m' }] });
    p.spec.initContainers = [
      { name: 'i', image: 'busybox', resources: { requests: { cpu: '500m' } } },
    ];
    expect(newPodInfo(p).requests.milliCPU).toBe(500);
    p.spec.initContainers = [
      { name: 'i', image: 'busybox', resources: { requests: { cpu: '250m' } } },
    ];
    expect(newPodInfo(p).requests.milliCPU).toBe(300);
  });
});

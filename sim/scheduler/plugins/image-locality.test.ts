import { describe, expect, it } from 'vitest';
import { Cache } from '../cache.ts';
import { CycleState, newPodInfo } from '../framework.ts';
import { everything } from '../../api/labels.ts';
import { makeNode, makePod } from '../testing.ts';
import {
  ImageLocality,
  calculatePriority,
  maxContainerThreshold,
  minThreshold,
  normalizedImageName,
  scaledImageScore,
} from './image-locality.ts';

const mb = 1024 * 1024;

describe('ImageLocality', () => {
  it('clamps the sum to [23Mi, 1000Mi x containers] and scales to 0..100', () => {
    expect(calculatePriority(0, 1)).toBe(0);
    expect(calculatePriority(minThreshold, 1)).toBe(0);
    expect(calculatePriority(maxContainerThreshold, 1)).toBe(100);
    expect(calculatePriority(5000 * mb, 1)).toBe(100);
    // (500Mi - 23Mi) * 100 / (1000Mi - 23Mi) = 48.8 → 48
    expect(calculatePriority(500 * mb, 1)).toBe(48);
    // two containers: threshold 2000Mi; (500 - 23) * 100 / (2000 - 23) = 24.1 → 24
    expect(calculatePriority(500 * mb, 2)).toBe(24);
  });
  it('scales an image size by the fraction of nodes that have it', () => {
    expect(scaledImageScore({ size: 300 * mb, numNodes: 1 }, 3)).toBe(100 * mb);
  });
  it('adds ":latest" to an untagged image name', () => {
    expect(normalizedImageName('nginx')).toBe('nginx:latest');
    expect(normalizedImageName('localhost:5000/app')).toBe('localhost:5000/app:latest');
    expect(normalizedImageName('nginx:1.27')).toBe('nginx:1.27');
  });
  it('scores nodes that have the image higher', () => {
    const cache = new Cache();
    cache.addNode(makeNode('a', { images: [{ names: ['big:1'], sizeBytes: 500 * mb }] }));
    cache.addNode(makeNode('b', { images: [{ names: ['big:1'], sizeBytes: 500 * mb }] }));
    cache.addNode(makeNode('c'));
    const h = cache.handle(() => everything);
    const pod = newPodInfo(makePod('p', { image: 'big:1' }));
    const state = new CycleState();
    ImageLocality.preScore(state, pod, cache.nodeInfoList(), h);
    const scores = cache.nodeInfoList().map((n) => ImageLocality.score(state, pod, n));
    // 500Mi * 2/3 = 333.3Mi → (333.3 - 23) * 100 / 977 = 31
    expect(scores).toEqual([31, 31, 0]);
  });
});

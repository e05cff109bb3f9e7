import { describe, expect, it } from 'vitest';
import type { NodeStatus } from '../api/types.ts';
import { strategicMergePatch } from '../apiserver/patch.ts';
import { nodeStatusPatch } from './node-status.ts';

describe('nodeStatusPatch', () => {
  const before: NodeStatus = {
    conditions: [
      { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' },
      { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'not ready' },
    ],
    addresses: [
      { type: 'InternalIP', address: '10.0.0.11' },
      { type: 'Hostname', address: 'node-1' },
    ],
  } as NodeStatus;

  it('patches conditions by type, naming what a condition lost', () => {
    const after = {
      ...before,
      conditions: [
        before.conditions![0],
        { type: 'Ready', status: 'True', reason: 'KubeletReady' },
      ],
    } as NodeStatus;
    const patch = nodeStatusPatch(before, after)!;
    expect(patch).toEqual({
      '$setElementOrder/conditions': [{ type: 'MemoryPressure' }, { type: 'Ready' }],
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: null }],
    });
    expect(strategicMergePatch({ status: before }, { status: patch })).toEqual({ status: after });
  });

  it('replaces changed addresses whole, as fixupPatchForNodeStatusAddresses does', () => {
    const after = {
      ...before,
      addresses: [{ type: 'InternalIP', address: '10.0.0.12' }],
    } as NodeStatus;
    const patch = nodeStatusPatch(before, after)!;
    expect(patch).toEqual({
      addresses: [{ type: 'InternalIP', address: '10.0.0.12' }, { $patch: 'replace' }],
    });
    expect(strategicMergePatch({ status: before }, { status: patch })).toEqual({ status: after });
  });

  it('is undefined when nothing changed', () => {
    expect(nodeStatusPatch(before, structuredClone(before))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { ServiceAccount } from '../../../api/types.ts';
import { at } from '../../../kubectl/testing.ts';
import { describeServiceAccount, printServiceAccount } from './printers.ts';

function newSA(extra: Partial<ServiceAccount> = {}): ServiceAccount {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {
      name: 'default',
      namespace: 'default',
      uid: 'u',
      resourceVersion: '1',
      creationTimestamp: at(0),
    },
    ...extra,
  };
}

describe('ServiceAccount printing', () => {
  it('prints NAME SECRETS AGE cells', () => {
    expect(printServiceAccount(newSA(), 90_000)).toEqual(['default', 0, '90s']);
  });

  it('describes the default ServiceAccount as kubectl does', () => {
    expect(describeServiceAccount(newSA(), [], 90_000)).toBe(
      [
        'Name:                default',
        'Namespace:           default',
        'Labels:              <none>',
        'Annotations:         <none>',
        'Image pull secrets:  <none>',
        'Mountable secrets:   <none>',
        'Tokens:              <none>',
        'Events:              <none>',
        '',
      ].join('\n'),
    );
  });

  it('lists pull secrets one per line under their header', () => {
    const out = describeServiceAccount(
      newSA({ imagePullSecrets: [{ name: 'regcred' }, { name: 'other' }] }),
      undefined,
      0,
    );
    expect(out).toContain(
      'Image pull secrets:  regcred\n                     other\nMountable secrets:   <none>\n',
    );
    expect(out).not.toContain('Events:');
  });
});

import { describe, expect, it } from 'vitest';
import type { ConfigMap } from '../../../api/types.ts';
import { at } from '../../../kubectl/testing.ts';
import { describeConfigMap, printConfigMap } from './printers.ts';
import { validateConfigMap } from './strategy.ts';

function newCM(data: Record<string, string>, extra: Partial<ConfigMap> = {}): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'kube-root-ca.crt',
      namespace: 'default',
      uid: 'u',
      resourceVersion: '1',
      creationTimestamp: at(0),
    },
    data,
    ...extra,
  };
}

describe('ConfigMap', () => {
  it('prints NAME DATA AGE cells, counting data and binaryData keys', () => {
    expect(printConfigMap(newCM({ 'ca.crt': 'x' }, { binaryData: { b: 'AAAA' } }), 60_000)).toEqual(
      ['kube-root-ca.crt', 2, '60s'],
    );
  });

  it('describes data under Data, then BinaryData and events', () => {
    expect(describeConfigMap(newCM({ 'ca.crt': 'PEM\n' }), [], 0)).toBe(
      [
        'Name:         kube-root-ca.crt',
        'Namespace:    default',
        'Labels:       <none>',
        'Annotations:  <none>',
        '',
        'Data',
        '====',
        'ca.crt:',
        '----',
        'PEM',
        '',
        '',
        '',
        'BinaryData',
        '====',
        '',
        'Events:  <none>',
        '',
      ].join('\n'),
    );
  });

  it('refuses keys that are not config keys, and a key in both data and binaryData', () => {
    expect(validateConfigMap(newCM({ 'a b': '1' }))).toEqual([
      {
        field: 'data[a b]',
        type: 'Invalid value',
        value: 'a b',
        detail:
          "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      },
    ]);
    expect(validateConfigMap(newCM({ k: '1' }, { binaryData: { k: 'AA==' } }))).toEqual([
      {
        field: 'data[k]',
        type: 'Invalid value',
        value: 'k',
        detail: 'duplicate of key present in binaryData',
      },
    ]);
    expect(validateConfigMap(newCM({ 'ca.crt': '1', '..x': '2' })).map((e) => e.detail)).toEqual([
      "must not start with '..'",
    ]);
  });
});

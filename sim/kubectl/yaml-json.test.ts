import { describe, expect, it } from 'vitest';
import {
  goJSONString,
  resolvesToString,
  toCompactJSON,
  toJSON,
  toYAML,
  yamlKeyLess,
} from './yaml-json.ts';

describe('toJSON (json.MarshalIndent with 4 spaces)', () => {
  it('sorts keys, indents by four, prints empty collections inline and ends with a newline', () => {
    const out = toJSON({
      kind: 'List',
      apiVersion: 'v1',
      items: [],
      metadata: { resourceVersion: '' },
      spec: {},
      n: 3,
      b: true,
      z: null,
    });
    expect(out).toBe(
      '{\n    "apiVersion": "v1",\n    "b": true,\n    "items": [],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    },\n    "n": 3,\n    "spec": {},\n    "z": null\n}\n',
    );
  });
  it('escapes as Go does, HTML characters included', () => {
    expect(goJSONString('<none> & "q"\n\t\\')).toBe(
      '"\\u003cnone\\u003e \\u0026 \\"q\\"\\n\\t\\\\"',
    );
    expect(toCompactJSON({ b: [1, 'x'], a: {} })).toBe('{"a":{},"b":[1,"x"]}');
  });
});

describe('toYAML (sigs.k8s.io/yaml over yaml.v2)', () => {
  it('prints a List the way kubectl get -o yaml does', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '' },
      items: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'web',
            creationTimestamp: '2026-01-01T00:00:00Z',
            resourceVersion: '42',
            labels: { app: 'web' },
          },
          spec: {
            containers: [
              {
                name: 'nginx',
                image: 'nginx:1.25',
                ports: [{ containerPort: 80, protocol: 'TCP' }],
                resources: {},
              },
            ],
            tolerations: [],
          },
          status: {
            phase: 'Running',
            podIPs: [{ ip: '10.244.1.5' }],
            conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }],
          },
        },
      ],
    };
    expect(toYAML(list)).toBe(
      [
        'apiVersion: v1',
        'items:',
        '- apiVersion: v1',
        '  kind: Pod',
        '  metadata:',
        '    creationTimestamp: "2026-01-01T00:00:00Z"',
        '    labels:',
        '      app: web',
        '    name: web',
        '    resourceVersion: "42"',
        '  spec:',
        '    containers:',
        '    - image: nginx:1.25',
        '      name: nginx',
        '      ports:',
        '      - containerPort: 80',
        '        protocol: TCP',
        '      resources: {}',
        '    tolerations: []',
        '  status:',
        '    conditions:',
        '    - lastProbeTime: null',
        '      status: "True"',
        '      type: Ready',
        '    phase: Running',
        '    podIPs:',
        '    - ip: 10.244.1.5',
        'kind: List',
        'metadata:',
        '  resourceVersion: ""',
        '',
      ].join('\n'),
    );
  });
  it('quotes strings that would read back as another type, and those starting with indicators', () => {
    const cases: [string, string][] = [
      ['', '""'],
      ['true', '"true"'],
      ['yes', '"yes"'],
      ['N', '"N"'],
      ['null', '"null"'],
      ['~', '"~"'],
      ['0', '"0"'],
      ['1.5', '"1.5"'],
      ['1e3', '"1e3"'],
      ['0x1F', '"0x1F"'],
      ['08', '"08"'],
      ['1:20', '"1:20"'],
      ['25%', '25%'],
      ['10.0.0.1', '10.0.0.1'],
      ['v1.34.1', 'v1.34.1'],
      ['<none>', '<none>'],
      ['*', "'*'"],
      ['- x', "'- x'"],
      ['a: b', "'a: b'"],
      ['a #b', "'a #b'"],
      [' lead', "' lead'"],
      ["it's", "it's"],
      ['tab\there', '"tab\\there"'],
      ['2026-01-01', '"2026-01-01"'],
      ['default-scheduler', 'default-scheduler'],
    ];
    for (const [s, want] of cases) expect(toYAML({ k: s }), s).toBe(`k: ${want}\n`);
  });
  it('prints multi-line strings as literal blocks', () => {
    expect(
      toYAML({
        metadata: {
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"a":1}\n' },
        },
      }),
    ).toBe(
      'metadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {"a":1}\n',
    );
    expect(toYAML({ a: 'x\ny' })).toBe('a: |-\n  x\n  y\n');
    expect(toYAML({ a: ['one\ntwo\n'] })).toBe('a:\n- |\n  one\n  two\n');
  });
  it('folds long plain scalars at a space past column 80', () => {
    const msg =
      'ReplicaSet "web-5d78c9b8f7" has timed out progressing while waiting for the rollout to complete.';
    expect(toYAML({ status: { message: msg } })).toBe(
      'status:\n  message: ReplicaSet "web-5d78c9b8f7" has timed out progressing while waiting for\n    the rollout to complete.\n',
    );
  });
  it("orders keys as yaml.v2's keyList: letters after other runes, digits by value", () => {
    const sorted = ['a10', 'a9', 'aB', 'a_b', 'a-b', 'app', 'app.kubernetes.io/name'].sort(
      (x, y) => (yamlKeyLess(x, y) ? -1 : yamlKeyLess(y, x) ? 1 : 0),
    );
    expect(sorted).toEqual(['a-b', 'a_b', 'a9', 'a10', 'aB', 'app', 'app.kubernetes.io/name']);
  });
  it('resolvesToString follows yaml.v2 resolve()', () => {
    expect(resolvesToString('nginx')).toBe(true);
    expect(resolvesToString('.5')).toBe(false);
    expect(resolvesToString('.x')).toBe(true);
    expect(resolvesToString('-')).toBe(true);
    expect(resolvesToString('+1')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  findResults,
  isLess,
  naturalLess,
  parseJSONPath,
  relaxedJSONPathExpression,
  sortObjects,
  sortTableRows,
  UnsortableError,
} from './sorter.ts';

describe('relaxedJSONPathExpression', () => {
  it('accepts the four forms kubectl accepts', () => {
    for (const s of ['metadata.name', '.metadata.name', '{metadata.name}', '{.metadata.name}'])
      expect(relaxedJSONPathExpression(s)).toBe('{.metadata.name}');
    expect(relaxedJSONPathExpression('.status.containerStatuses[0].restartCount')).toBe(
      '{.status.containerStatuses[0].restartCount}',
    );
    expect(relaxedJSONPathExpression('')).toBe('');
  });

  it('refuses braces out of place', () => {
    expect(() => relaxedJSONPathExpression('{.metadata.name')).toThrow(
      "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  });
});

describe('parseJSONPath and findResults', () => {
  const pod = {
    metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'web' } },
    status: { containerStatuses: [{ restartCount: 2 }, { restartCount: 5 }] },
  };

  it('walks fields, indexes, slices, wildcards and dict keys', () => {
    const at = (p: string) => findResults(parseJSONPath(relaxedJSONPathExpression(p)), pod)[0];
    expect(at('.metadata.name')).toEqual(['a']);
    expect(at('.status.containerStatuses[0].restartCount')).toEqual([2]);
    expect(at('.status.containerStatuses[-1].restartCount')).toEqual([5]);
    expect(at('.status.containerStatuses[*].restartCount')).toEqual([2, 5]);
    expect(at('.status.containerStatuses[0:1].restartCount')).toEqual([2]);
    // A dict key is parsed as a field path (".app.kubernetes.io/name"): only escaping finds it.
    expect(at(".metadata.labels['app.kubernetes.io/name']")).toEqual([]);
    expect(at('.metadata.labels.app\\.kubernetes\\.io/name')).toEqual(['web']);
    expect(at('.metadata.missing')).toEqual([]);
    expect(at('..restartCount')).toEqual([2, 5]);
  });

  it('fails as the jsonpath parser and evaluator do', () => {
    expect(() => parseJSONPath('{.metadata.name')).toThrow('unclosed action');
    expect(() => parseJSONPath('{.a[0}')).toThrow('unterminated array');
    expect(() => parseJSONPath('{.a[x]}')).toThrow('invalid array index x');
    expect(() => parseJSONPath('{#}')).toThrow("unrecognized character in action: U+0023 '#'");
    expect(() => findResults(parseJSONPath('{.status.containerStatuses[2]}'), pod)).toThrow(
      'array index out of bounds: index 2, length 2',
    );
    expect(() => findResults(parseJSONPath('{.metadata[0]}'), pod)).toThrow(
      'map[string]interface {} is not array or slice',
    );
  });
});

describe('isLess', () => {
  it('orders strings naturally, as quantities when both parse', () => {
    expect(naturalLess('web-2', 'web-10')).toBe(true);
    expect(naturalLess('web-10', 'web-2')).toBe(false);
    expect(naturalLess('a01', 'a1')).toBe(false);
    expect(naturalLess('a1', 'a01')).toBe(true);
    expect(naturalLess('2026-01-01T00:00:09Z', '2026-01-01T00:00:10Z')).toBe(true);
    expect(isLess('500m', '1')).toBe(true);
    expect(isLess('1Gi', '900Mi')).toBe(false);
    expect(isLess('10.244.1.10', '10.244.1.9')).toBe(false);
  });

  it('orders numbers of one kind, nil first, and refuses the rest', () => {
    expect(isLess(2, 10)).toBe(true);
    expect(isLess(null, 1)).toBe(true);
    expect(isLess(1, null)).toBe(false);
    expect(() => isLess(1, 1.5)).toThrow('unsortable interface: interface');
    expect(() => isLess('1', 1)).toThrow('unsortable interface: interface');
    expect(() => isLess(true, false)).toThrow(new UnsortableError('unsortable type: bool'));
    expect(() => isLess({}, {})).toThrow('unsortable type: map[string]interface {}');
  });
});

describe('sortTableRows (RuntimeSorter + SortingPrinter)', () => {
  const rows = [
    { metadata: { name: 'web-10' }, n: 3 },
    { metadata: { name: 'web-2' }, n: 1 },
    { metadata: { name: 'web-1' } },
  ];
  const names = (xs: { metadata: { name: string } }[]) => xs.map((x) => x.metadata.name);

  it('sorts by the relaxed path, rows without the field first', () => {
    expect(names(sortTableRows(rows, 'metadata.name'))).toEqual(['web-1', 'web-2', 'web-10']);
    expect(names(sortTableRows(rows, '{.n}'))).toEqual(['web-1', 'web-2', 'web-10']);
  });

  it('sorts twice, so rows without the field end up first in their listed order', () => {
    // One insertion sort moves each row without the field to the front (b, a swap); the
    // SortingPrinter's second sort swaps them back.
    const three = [
      { metadata: { name: 'b' } },
      { metadata: { name: 'a' } },
      { metadata: { name: 'c' }, x: 1 },
    ];
    expect(names(sortTableRows(three, '.x'))).toEqual(['b', 'a', 'c']);
    expect(names(sortObjects(three, '.x'))).toEqual(['a', 'b', 'c']);
  });

  it('fails as kubectl get does for a table', () => {
    expect(() => sortTableRows(rows, '.metadata.uid')).toThrow(
      'couldn\'t find any field with path "{.metadata.uid}" in the list of objects',
    );
    expect(sortTableRows([], '.metadata.uid')).toEqual([]);
    expect(() => sortTableRows(rows, '{.metadata.name')).toThrow('sorting error: unclosed action');
    expect(() => sortTableRows(rows, '.metadata')).toThrow(
      'Field {.metadata} in [][][]reflect.Value is an unsortable type: interface, err: unsortable type: map[string]interface {}',
    );
  });
});

describe('sortObjects (SortingPrinter on a List)', () => {
  it('sorts, and returns the relaxing and parsing errors as they are', () => {
    const objs = [{ metadata: { name: 'b' } }, { metadata: { name: 'a' } }];
    expect(sortObjects(objs, '.metadata.name').map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(() => sortObjects(objs, '{.metadata.name')).toThrow('unexpected path string');
    expect(() => sortObjects(objs, '.metadata.uid')).toThrow(
      'couldn\'t find any field with path "{.metadata.uid}" in the list of objects',
    );
    expect(() => sortObjects(objs, '.metadata')).toThrow(
      'Field {.metadata} in *unstructured.Unstructured is an unsortable type',
    );
  });
});

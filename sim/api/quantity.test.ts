// Cases from staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go (TestQuantityParse,
// TestQuantityString, TestQuantityParseEmit) and pkg/apis/core/v1/defaults.go
// (SetDefaults_ResourceList).

import { describe, expect, it } from 'vitest';
import { canonicalQuantity, defaultResourceList, formatQuantity, milliValue, parseQuantityExact } from './quantity.ts';

describe('canonicalQuantity (ParseQuantity, then MarshalJSON)', () => {
  it.each([
    ['1024Mi', '1Gi'],
    ['0.5', '500m'],
    ['8388608Ki', '8Gi'],
    ['104857600Ki', '100Gi'],
    ['1000m', '1'],
    ['1.5Gi', '1536Mi'],
    ['1.5', '1500m'],
    ['1000M', '1G'],
    ['1000', '1k'],
    ['307200Ki', '300Mi'],
    ['1025024Mi', '1001Gi'],
    ['5000m', '5'],
    ['0.001T', '1G'],
    ['1000u', '1m'],
    ['1.08', '1080m'],
    ['1080000000n', '1080m'],
    ['.001e12', '1e9'],
    ['0.001e0', '1e-3'],
    ['1000e-12', '1e-9'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    ['100.035Ki', '102435840m'],
    ['0.1m', '100u'],
    ['3.001n', '4n'],
    ['1.1E-9', '2e-9'],
    ['0.00000012345', '124n'],
    ['9Ei', '9223372036854775807'],
    ['-1024Mi', '-1Gi'],
    ['00', '0'],
    ['0m', '0'],
    // BinarySI printed without a suffix reads back as DecimalSI.
    ['1.953125Ki', '2k'],
    ['96636764000', '96636764k'],
    ['1000.5Ki', '1024512'],
  ])('%s is stored as %s', (input, want) => {
    expect(canonicalQuantity(input)).toBe(want);
  });

  it.each(['1Ki', '6Ki', '300Mi', '1Gi', '128974848', '129e6', '129M', '100m', '250m', '4', '110', '0', '-1Gi', '1e9', '12E', '1.G'])(
    'keeps %s, already canonical (or kept by the fast path)',
    (input) => {
      expect(canonicalQuantity(input)).toBe(input);
      expect(parseQuantityExact(input)?.s).toBe(input);
    },
  );

  it('reads a JSON number from its text and trims spaces', () => {
    expect(canonicalQuantity(1)).toBe('1');
    expect(canonicalQuantity(0.5)).toBe('500m');
    expect(canonicalQuantity(' 1 ')).toBe('1');
  });

  it('answers undefined for what is not a quantity', () => {
    expect(canonicalQuantity('1Xi')).toBeUndefined();
    expect(canonicalQuantity('abc')).toBeUndefined();
  });
});

describe('formatQuantity (Quantity.String)', () => {
  it('formats NewQuantity and NewMilliQuantity values', () => {
    expect(formatQuantity(8n * 1024n ** 3n, 0, 'BinarySI')).toBe('8Gi');
    expect(formatQuantity(8n * 1024n ** 3n - 100n * 1024n ** 2n, 0, 'BinarySI')).toBe('8092Mi');
    expect(formatQuantity(96636764000n, 0, 'BinarySI')).toBe('96636764000');
    expect(formatQuantity(4000n, -3, 'DecimalSI')).toBe('4');
    expect(formatQuantity(1024n, -3, 'BinarySI')).toBe('1024m');
    expect(formatQuantity(1000n, 0, 'DecimalSI')).toBe('1k');
    expect(formatQuantity(2000n, 0, 'BinarySI')).toBe('2000');
    expect(formatQuantity(5n, 0, 'BinarySI')).toBe('5');
    expect(formatQuantity(0n, 0, 'BinarySI')).toBe('0');
  });
});

describe('defaultResourceList (SetDefaults_ResourceList)', () => {
  it('rounds up to milli-units and canonicalizes in place', () => {
    const list = { cpu: '0.1m', memory: '1024Mi', 'example.com/x': '100u', other: '250m' };
    defaultResourceList(list);
    expect(list).toEqual({ cpu: '1m', memory: '1Gi', 'example.com/x': '1m', other: '250m' });
  });

  it('keeps the value the scheduler reads', () => {
    for (const q of ['0.5', '1500m', '1.5Gi', '0.1m']) expect(milliValue(canonicalQuantity(q, true)!)).toBe(milliValue(q));
  });
});

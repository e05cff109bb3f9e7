import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector, parseSelector } from './labels.ts';

function parseError(s: string): string {
  try {
    parseSelector(s);
  } catch (e) {
    return (e as Error).message;
  }
  return '<parsed>';
}

const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('labels.Parse', () => {
  it('parses every operator and sorts requirements by key', () => {
    expect(parseSelector('tier!=db,app=web').toString()).toBe('app=web,tier!=db');
    expect(parseSelector('x in (foo,,baz),y,z notin ()').toString()).toBe(
      'x in (,baz,foo),y,z notin ()',
    );
    expect(parseSelector('!canary , app==web').toString()).toBe('app=web,!canary');
    expect(parseSelector('in in (in,notin)').toString()).toBe('in in (in,notin)');
    expect(parseSelector('a=').matches({ a: '' })).toBe(true);
    expect(parseSelector('gen>2').matches({ gen: '3' })).toBe(true);
    expect(parseSelector('gen>2').matches({ gen: '2' })).toBe(false);
    expect(parseSelector('gen<2').matches({ gen: 'x' })).toBe(false);
    expect(parseSelector('').empty).toBe(true);
    expect(parseSelector('  ').empty).toBe(true);
  });

  it('words errors as selector.go does: the lexer yields an empty literal at the end', () => {
    expect(parseError('app in (web')).toBe(
      "unable to parse requirement: found '', expected: ',' or ')'",
    );
    expect(parseError('a=b=c')).toBe("found '=', expected: ',' or 'end of string'");
    expect(parseError('app,')).toBe("found '', expected: identifier after ','");
    expect(parseError('a,,b')).toBe("found ',', expected: identifier after ','");
    expect(parseError('Bad Key=1')).toBe(
      "unable to parse requirement: found 'Key', expected: in, notin, =, ==, !=, gt, lt",
    );
    expect(parseError('!!!')).toBe("unable to parse requirement: found '!', expected: identifier");
    expect(parseError('=a')).toBe("found '=', expected: !, identifier, or 'end of string'");
    expect(parseError('a in b')).toBe("unable to parse requirement: found 'b' expected: '('");
    expect(parseError('a in (b c)')).toBe(
      "unable to parse requirement: found 'c', expected: ',' or ')'",
    );
    expect(parseError('a in (=)')).toBe(
      "unable to parse requirement: found '=', expected: ',', ')' or identifier",
    );
    expect(parseError('a=(')).toBe("unable to parse requirement: found '(', expected: identifier");
  });

  it('validates keys and values as NewRequirement does, with a nil field path', () => {
    expect(parseError('app:monolith')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "app:monolith": ${NAME_PART}`,
    );
    expect(parseError('a=b@')).toBe(
      `unable to parse requirement: values[0][a]: Invalid value: "b@": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    );
    expect(parseError('a>x')).toBe(
      `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    expect(parseError('a/b/c=d')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
    expect(parseError('Example.com/x')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "Example.com/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
    expect(parseSelector('app.kubernetes.io/name=web').toString()).toBe(
      'app.kubernetes.io/name=web',
    );
  });

  it('a nil LabelSelector selects nothing, an empty one everything', () => {
    expect(labelSelectorAsSelector(undefined).matches({ a: 'b' })).toBe(false);
    expect(labelSelectorAsSelector({}).matches({ a: 'b' })).toBe(true);
  });
});

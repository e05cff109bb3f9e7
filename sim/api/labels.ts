// Mirrors staging/src/k8s.io/apimachinery/pkg/labels/selector.go and
// pkg/apis/meta/v1/helpers.go#LabelSelectorAsSelector: matching labels against selectors.

import type { LabelSelector, LabelSelectorRequirement } from './types.ts';

/** Requirement is one parsed clause of a selector. */
export interface Requirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Equals' | 'NotEquals' | 'Gt' | 'Lt';
  values: string[];
}

/** Selector is a parsed, ready-to-match selector. Empty requirements select everything. */
export interface Selector {
  requirements: Requirement[];
  matches(labels: Record<string, string> | undefined): boolean;
  /** empty is true for a selector that selects everything. */
  empty: boolean;
  /** nothing is true for a selector that selects nothing (a nil LabelSelector). */
  nothing: boolean;
  toString(): string;
}

function matchReq(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  switch (r.operator) {
    case 'In':
    case 'Equals':
      return has && r.values.includes(v);
    case 'NotIn':
    case 'NotEquals':
      return !has || !r.values.includes(v);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      // Requirement.Matches: both sides must parse as integers.
      if (!has || !/^[+-]?\d+$/.test(v) || r.values.length !== 1) return false;
      const have = BigInt(v);
      const want = BigInt(r.values[0]);
      return r.operator === 'Gt' ? have > want : have < want;
    }
  }
}

function reqString(r: Requirement): string {
  switch (r.operator) {
    case 'Equals':
      return `${r.key}=${r.values[0]}`;
    case 'NotEquals':
      return `${r.key}!=${r.values[0]}`;
    case 'In':
      return `${r.key} in (${[...r.values].sort().join(',')})`;
    case 'NotIn':
      return `${r.key} notin (${[...r.values].sort().join(',')})`;
    case 'Exists':
      return r.key;
    case 'DoesNotExist':
      return `!${r.key}`;
    case 'Gt':
      return `${r.key}>${r.values[0]}`;
    case 'Lt':
      return `${r.key}<${r.values[0]}`;
  }
}

/** newSelector builds a Selector from requirements, sorted by key as upstream sorts them. */
export function newSelector(reqs: Requirement[], nothing = false): Selector {
  const requirements = [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    requirements,
    empty: requirements.length === 0 && !nothing,
    nothing,
    matches(labels) {
      if (nothing) return false;
      const l = labels ?? {};
      for (const r of requirements) if (!matchReq(r, l)) return false;
      return true;
    },
    toString() {
      return requirements.map(reqString).join(',');
    },
  };
}

/** everything selects every object. */
export const everything: Selector = newSelector([]);

/**
 * labelSelectorAsSelector converts a metav1.LabelSelector. A nil selector selects nothing and
 * an empty one selects everything, as upstream.
 */
export function labelSelectorAsSelector(ls: LabelSelector | undefined | null): Selector {
  if (!ls) return newSelector([], true);
  const reqs: Requirement[] = [];
  for (const [k, v] of Object.entries(ls.matchLabels ?? {}))
    reqs.push({ key: k, operator: 'Equals', values: [v] });
  for (const e of ls.matchExpressions ?? []) reqs.push(fromExpression(e));
  return newSelector(reqs);
}

function fromExpression(e: LabelSelectorRequirement): Requirement {
  return { key: e.key, operator: e.operator, values: [...(e.values ?? [])] };
}

/** selectorFromSet is labels.SelectorFromSet: key=value for every entry. */
export function selectorFromSet(set: Record<string, string>): Selector {
  return newSelector(
    Object.entries(set).map(([k, v]) => ({ key: k, operator: 'Equals' as const, values: [v] })),
  );
}

/** SelectorParseError describes why a selector string did not parse (labels.Parse's error). */
export class SelectorParseError extends Error {}

// ---- lexer (selector.go Lexer) ----

type Token =
  | 'Error'
  | 'EndOfString'
  | 'ClosedPar'
  | 'Comma'
  | 'DoesNotExist'
  | 'DoubleEquals'
  | 'Equals'
  | 'GreaterThan'
  | 'Identifier'
  | 'In'
  | 'LessThan'
  | 'NotEquals'
  | 'NotIn'
  | 'OpenPar';

const string2token: Record<string, Token> = {
  ')': 'ClosedPar',
  ',': 'Comma',
  '!': 'DoesNotExist',
  '==': 'DoubleEquals',
  '=': 'Equals',
  '>': 'GreaterThan',
  in: 'In',
  '<': 'LessThan',
  '!=': 'NotEquals',
  notin: 'NotIn',
  '(': 'OpenPar',
};

function tokenOf(s: string): Token | undefined {
  return Object.prototype.hasOwnProperty.call(string2token, s) ? string2token[s] : undefined;
}

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return '=!(),><'.includes(ch) && ch !== '';
}

interface ScannedItem {
  tok: Token;
  literal: string;
}

/** lex splits a selector into tokens; the end of the string is EndOfString with literal "". */
function lex(s: string): ScannedItem[] {
  const items: ScannedItem[] = [];
  let pos = 0;
  const read = (): string => (pos < s.length ? s[pos++] : '');
  for (;;) {
    let ch = read();
    while (ch !== '' && isWhitespace(ch)) ch = read();
    if (ch === '') {
      items.push({ tok: 'EndOfString', literal: '' });
      return items;
    }
    pos--;
    if (isSpecialSymbol(ch)) {
      // scanSpecialSymbol: the longest operator that is a prefix of the run of symbols.
      let buffer = '';
      let last: ScannedItem | undefined;
      for (;;) {
        const c = read();
        if (c === '') break;
        if (!isSpecialSymbol(c)) {
          pos--;
          break;
        }
        buffer += c;
        const t = tokenOf(buffer);
        if (t) last = { tok: t, literal: buffer };
        else if (last) {
          pos--;
          break;
        }
      }
      items.push(last ?? { tok: 'Error', literal: `error expected: keyword found '${buffer}'` });
    } else {
      // scanIDOrKeyword
      let buffer = '';
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecialSymbol(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        buffer += c;
      }
      items.push({ tok: tokenOf(buffer) ?? 'Identifier', literal: buffer });
    }
  }
}

// ---- validation (validateLabelKey, validateLabelValue; util/validation IsQualifiedName) ----

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const labelValueFmt = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  return `${msg} (e.g. ${examples.map((e) => `'${e}'`).join(',  or ')}, regex used for validation is '${fmt}')`;
}

/** isQualifiedName mirrors validation.IsQualifiedName: the errors, none when valid. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
      if (!new RegExp(`^${dns1123SubdomainFmt}$`).test(prefix))
        errs.push(
          'prefix part ' +
            regexError(
              "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
              dns1123SubdomainFmt,
              'example.com',
            ),
        );
    }
  } else {
    return [
      'a qualified name ' +
        regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!new RegExp(`^${qualifiedNameFmt}$`).test(name))
    errs.push(
      'name part ' +
        regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc'),
    );
  return errs;
}

/** isValidLabelValue mirrors validation.IsValidLabelValue. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!new RegExp(`^${labelValueFmt}$`).test(value))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        labelValueFmt,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errs;
}

/** goQuoteString is Go's %q for the ASCII strings a selector can hold. */
function goQuoteString(s: string): string {
  return JSON.stringify(s);
}

/** fieldInvalid is field.Invalid(path, value, detail).Error(); a nil path prints as "<nil>". */
function fieldInvalid(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${goQuoteString(value)}: ${detail}`;
}

/** aggregate is utilerrors.NewAggregate(errs).Error(). */
function aggregate(errs: string[]): string {
  const uniq = [...new Set(errs)];
  return uniq.length === 1 ? uniq[0] : `[${uniq.join(', ')}]`;
}

// ---- parser (selector.go Parser) ----

type ParserContext = 'KeyAndOperator' | 'Values';

const binaryOperators = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

type ParsedOperator = Requirement['operator'] | 'DoubleEquals';

class Parser {
  private readonly items: ScannedItem[];
  private position = 0;

  constructor(s: string) {
    this.items = lex(s);
  }

  private lookahead(context: ParserContext): ScannedItem {
    const it = this.items[this.position];
    if (context === 'Values' && (it.tok === 'In' || it.tok === 'NotIn'))
      return { tok: 'Identifier', literal: it.literal };
    return it;
  }

  private consume(context: ParserContext): ScannedItem {
    const it = this.lookahead(context);
    this.position++;
    return it;
  }

  /** parse returns the requirements, or throws the message Parser.parse returns. */
  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead('Values');
      switch (tok) {
        case 'Identifier':
        case 'DoesNotExist': {
          let r: Requirement;
          try {
            r = this.parseRequirement();
          } catch (e) {
            throw new SelectorParseError(`unable to parse requirement: ${(e as Error).message}`);
          }
          requirements.push(r);
          const t = this.consume('Values');
          if (t.tok === 'EndOfString') return requirements;
          if (t.tok === 'Comma') {
            const t2 = this.lookahead('Values');
            if (t2.tok !== 'Identifier' && t2.tok !== 'DoesNotExist')
              throw new SelectorParseError(`found '${t2.literal}', expected: identifier after ','`);
            break;
          }
          throw new SelectorParseError(`found '${t.literal}', expected: ',' or 'end of string'`);
        }
        case 'EndOfString':
          return requirements;
        default:
          throw new SelectorParseError(
            `found '${literal}', expected: !, identifier, or 'end of string'`,
          );
      }
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator: inferred } = this.parseKeyAndInferOperator();
    if (inferred === 'Exists' || inferred === 'DoesNotExist')
      return newRequirement(key, inferred, []);
    const operator = this.parseOperator();
    const values =
      operator === 'In' || operator === 'NotIn' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, operator, [...new Set(values)].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator: ParsedOperator | '' } {
    let operator: ParsedOperator | '' = '';
    let it = this.consume('Values');
    if (it.tok === 'DoesNotExist') {
      operator = 'DoesNotExist';
      it = this.consume('Values');
    }
    if (it.tok !== 'Identifier') throw new Error(`found '${it.literal}', expected: identifier`);
    const errs = isQualifiedName(it.literal);
    if (errs.length) throw new Error(fieldInvalid('<nil>', it.literal, errs.join('; ')));
    const t = this.lookahead('Values').tok;
    if ((t === 'EndOfString' || t === 'Comma') && operator !== 'DoesNotExist') operator = 'Exists';
    return { key: it.literal, operator };
  }

  private parseOperator(): ParsedOperator {
    const { tok, literal } = this.consume('KeyAndOperator');
    switch (tok) {
      case 'In':
        return 'In';
      case 'Equals':
        return 'Equals';
      case 'DoubleEquals':
        return 'DoubleEquals';
      case 'GreaterThan':
        return 'Gt';
      case 'LessThan':
        return 'Lt';
      case 'NotIn':
        return 'NotIn';
      case 'NotEquals':
        return 'NotEquals';
      default:
        throw new Error(`found '${literal}', expected: ${binaryOperators.join(', ')}`);
    }
  }

  private parseValues(): string[] {
    let it = this.consume('Values');
    if (it.tok !== 'OpenPar') throw new Error(`found '${it.literal}' expected: '('`);
    it = this.lookahead('Values');
    switch (it.tok) {
      case 'Identifier':
      case 'Comma': {
        const s = this.parseIdentifiersList();
        if (this.consume('Values').tok !== 'ClosedPar')
          throw new Error(`found '${it.literal}', expected: ')'`);
        return s;
      }
      case 'ClosedPar':
        this.consume('Values');
        return [''];
      default:
        throw new Error(`found '${it.literal}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): string[] {
    const s = new Set<string>();
    for (;;) {
      const it = this.consume('Values');
      if (it.tok === 'Identifier') {
        s.add(it.literal);
        const it2 = this.lookahead('Values');
        if (it2.tok === 'Comma') continue;
        if (it2.tok === 'ClosedPar') return [...s];
        throw new Error(`found '${it2.literal}', expected: ',' or ')'`);
      } else if (it.tok === 'Comma') {
        if (s.size === 0) s.add('');
        const t2 = this.lookahead('Values').tok;
        if (t2 === 'ClosedPar') {
          s.add('');
          return [...s];
        }
        if (t2 === 'Comma') s.add('');
      } else {
        throw new Error(`found '${it.literal}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): string[] {
    const t = this.lookahead('Values').tok;
    if (t === 'EndOfString' || t === 'Comma') return [''];
    const it = this.consume('Values');
    if (it.tok === 'Identifier') return [it.literal];
    throw new Error(`found '${it.literal}', expected: identifier`);
  }
}

/** newRequirement mirrors labels.NewRequirement's value checks (the key is already valid). */
function newRequirement(key: string, op: ParsedOperator, vals: string[]): Requirement {
  const errs: string[] = [];
  if (op === 'Gt' || op === 'Lt') {
    vals.forEach((v, i) => {
      if (!/^[+-]?\d+$/.test(v))
        errs.push(
          fieldInvalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"),
        );
    });
  }
  vals.forEach((v, i) => {
    const ve = isValidLabelValue(v);
    if (ve.length) errs.push(fieldInvalid(`values[${i}][${key}]`, v, ve.join('; ')));
  });
  if (errs.length) throw new Error(aggregate(errs));
  return { key, operator: op === 'DoubleEquals' ? 'Equals' : op, values: vals };
}

/**
 * parseSelector mirrors labels.Parse, the string form used by `-l`: `a=b`, `a==b`, `a!=b`,
 * `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, joined by commas. It throws a
 * SelectorParseError worded as kube-apiserver's.
 */
export function parseSelector(s: string): Selector {
  const reqs = new Parser(s).parse();
  return reqs.length === 0 ? everything : newSelector(reqs);
}

/**
 * parseToLabelSelector is metav1.ParseToLabelSelector (apimachinery/pkg/apis/meta/v1/helpers.go):
 * a selector string as a LabelSelector, equality as matchLabels and the rest as
 * matchExpressions (`a!=b` is `a NotIn (b)`); `>` and `<` have no LabelSelector form.
 */
export function parseToLabelSelector(s: string): LabelSelector {
  const ls: LabelSelector = {};
  for (const r of newSelector(new Parser(s).parse()).requirements) {
    switch (r.operator) {
      case 'Equals':
        (ls.matchLabels ??= {})[r.key] = r.values[0];
        break;
      case 'NotEquals':
        (ls.matchExpressions ??= []).push({ key: r.key, operator: 'NotIn', values: [...r.values] });
        break;
      case 'In':
      case 'NotIn':
        (ls.matchExpressions ??= []).push({
          key: r.key,
          operator: r.operator,
          values: [...r.values],
        });
        break;
      case 'Exists':
      case 'DoesNotExist':
        (ls.matchExpressions ??= []).push({ key: r.key, operator: r.operator });
        break;
      default:
        throw new SelectorParseError(
          `"${r.operator === 'Gt' ? 'gt' : 'lt'}" isn't supported in label selectors`,
        );
    }
  }
  return ls;
}

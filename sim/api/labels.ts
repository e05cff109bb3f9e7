// Mirrors staging/src/k8s.io/apimachinery/pkg/labels/selector.go and
// pkg/apis/meta/v1/helpers.go#LabelSelectorAsSelector: matching labels against selectors.

import type { LabelSelector, LabelSelectorRequirement } from './types.ts';

/** Requirement is one parsed clause of a selector. */
export interface Requirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Equals' | 'NotEquals';
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
  for (const [k, v] of Object.entries(ls.matchLabels ?? {})) reqs.push({ key: k, operator: 'Equals', values: [v] });
  for (const e of ls.matchExpressions ?? []) reqs.push(fromExpression(e));
  return newSelector(reqs);
}

function fromExpression(e: LabelSelectorRequirement): Requirement {
  return { key: e.key, operator: e.operator, values: [...(e.values ?? [])] };
}

/** selectorFromSet is labels.SelectorFromSet: key=value for every entry. */
export function selectorFromSet(set: Record<string, string>): Selector {
  return newSelector(Object.entries(set).map(([k, v]) => ({ key: k, operator: 'Equals' as const, values: [v] })));
}

/** SelectorParseError describes why a selector string did not parse. */
export class SelectorParseError extends Error {}

/**
 * parseSelector parses the string form used by `-l` (labels.Parse): `a=b`, `a==b`, `a!=b`,
 * `a in (x,y)`, `a notin (x)`, `a`, `!a`, joined by commas.
 */
export function parseSelector(s: string): Selector {
  const src = s.trim();
  if (src === '') return everything;
  const reqs: Requirement[] = [];
  let i = 0;
  const skipWs = () => {
    while (i < src.length && src[i] === ' ') i++;
  };
  const ident = (): string => {
    skipWs();
    const m = /^[A-Za-z0-9_./-]+/.exec(src.slice(i));
    if (!m) throw new SelectorParseError(`unable to parse requirement: found '${src.slice(i, i + 1) || 'EOF'}', expected: identifier`);
    i += m[0].length;
    return m[0];
  };
  for (;;) {
    skipWs();
    let neg = false;
    if (src[i] === '!') {
      neg = true;
      i++;
    }
    const key = ident();
    skipWs();
    if (neg) {
      reqs.push({ key, operator: 'DoesNotExist', values: [] });
    } else if (src.startsWith('!=', i)) {
      i += 2;
      reqs.push({ key, operator: 'NotEquals', values: [ident()] });
    } else if (src.startsWith('==', i) || src[i] === '=') {
      i += src.startsWith('==', i) ? 2 : 1;
      skipWs();
      const m = /^[A-Za-z0-9_.-]*/.exec(src.slice(i))!;
      i += m[0].length;
      reqs.push({ key, operator: 'Equals', values: [m[0]] });
    } else if (/^(in|notin)\s*\(/.test(src.slice(i))) {
      const op = src.startsWith('notin', i) ? 'NotIn' : 'In';
      i = src.indexOf('(', i) + 1;
      const close = src.indexOf(')', i);
      if (close < 0) throw new SelectorParseError(`unable to parse requirement: found 'EOF', expected: ')'`);
      const values = src
        .slice(i, close)
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      i = close + 1;
      reqs.push({ key, operator: op, values });
    } else {
      reqs.push({ key, operator: 'Exists', values: [] });
    }
    skipWs();
    if (i >= src.length) break;
    if (src[i] !== ',') throw new SelectorParseError(`unable to parse requirement: found '${src[i]}', expected: ',' or 'EOF'`);
    i++;
  }
  return newSelector(reqs);
}

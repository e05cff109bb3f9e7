// Small DOM helpers the lab's panels share. Text is only ever set as text.

/** BREAK_AFTER are the characters a Kubernetes name may wrap after: never inside a word. */
const BREAK_AFTER = /([/.=:,-])/;

/**
 * breakable returns text as a fragment with a <wbr> after each '/', '.', '-', '=', ':' and ',',
 * so a long name such as node.kubernetes.io/unreachable:NoExecute wraps there, not mid-word.
 */
export function breakable(text: string): DocumentFragment {
  const f = document.createDocumentFragment();
  for (const part of text.split(BREAK_AFTER)) {
    if (part === '') continue;
    f.append(part);
    if (BREAK_AFTER.test(part) && part.length === 1) f.append(document.createElement('wbr'));
  }
  return f;
}

/** code returns a <code> element holding text, breakable at name separators. */
export function code(text: string): HTMLElement {
  const c = document.createElement('code');
  c.append(breakable(text));
  return c;
}

/**
 * prose fills a template's {placeholders} (as src/i18n/ui.ts's fill does) into nodes, each value
 * in a breakable <code>, so names in a sentence wrap only at their separators.
 */
export function prose(template: string, params: Record<string, string | number>): DocumentFragment {
  const f = document.createDocumentFragment();
  for (const part of template.split(/(\{[a-zA-Z]+\})/)) {
    const m = /^\{([a-zA-Z]+)\}$/.exec(part);
    const key = m?.[1];
    if (key !== undefined && Object.hasOwn(params, key)) {
      const v = String(params[key]);
      f.append(/^[\d.]+$/.test(v) ? v : code(v));
    } else if (part) f.append(part);
  }
  return f;
}

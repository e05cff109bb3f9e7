// Keeps Previous/Next on the lesson path: from the outline through every lesson in course order
// (src/sidebar.ts). Starlight links each page to its neighbours in the sidebar; this removes a
// link that would cross between the lesson path and the reference pages (progress, review,
// fidelity, the demos), so the last lesson does not lead on into them and they do not lead back.

/** PageLink is the part of a Starlight pagination link this module reads. */
export type PageLink = { href: string };

/** slugOf returns a page's slug from its path: `/ja/course/outline/` → `course/outline`. */
export function slugOf(pathname: string, locales: readonly string[]): string {
  const parts = pathname.split('/').filter(Boolean);
  if (parts.length > 0 && locales.includes(parts[0] ?? '')) parts.shift();
  return parts.join('/');
}

/**
 * onSameSide returns the link when it and the current page are both on the lesson path or both
 * off it, and undefined when following it would cross over.
 */
export function onSameSide<L extends PageLink>(
  link: L | undefined,
  current: string,
  path: ReadonlySet<string>,
  locales: readonly string[],
): L | undefined {
  if (link === undefined) return undefined;
  return path.has(slugOf(link.href, locales)) === path.has(current) ? link : undefined;
}
